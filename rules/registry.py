"""The games the bot runs: an explicit list of packages under `rules/`, each exposing its `GAME` object."""

from __future__ import annotations

import importlib

from rules.base import Game

#: Every game's package under rules/, in the order games are listed (a new game adds its package here;
#: tests/test_registry.py fails while a package with a GAME is missing from it).
GAME_PACKAGES: tuple[str, ...] = ("gorgasali", "guerra_de_indagar", "hero_realms", "heroquest", "kings_armory")

_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Register a game (tests register small games of their own this way)."""
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for package in GAME_PACKAGES:
        game = importlib.import_module(f"rules.{package}").GAME
        if not isinstance(game, Game):
            raise TypeError(f"rules.{package}.GAME is not a Game")
        _GAMES.setdefault(game.id, game)


def games() -> dict[str, Game]:
    """All registered games by id."""
    _load()
    return dict(_GAMES)


def get(game_id: str) -> Game | None:
    """The game registered under `game_id` (its state type is its own, unknown here), or None."""
    _load()
    return _GAMES.get(game_id)
