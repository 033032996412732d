"""Finds every game package under `rules/` and registers its `GAME` object by id."""

from __future__ import annotations

import importlib
import pkgutil

import rules
from rules.base import Game

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    """Register a game (tests register small games of their own this way)."""
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for module in pkgutil.iter_modules(rules.__path__):
        if not module.ispkg:
            continue
        mod = importlib.import_module(f"rules.{module.name}")
        game = getattr(mod, "GAME", None)
        if isinstance(game, Game):
            _GAMES.setdefault(game.id, game)


def games() -> dict[str, Game]:
    """All registered games by id."""
    _discover()
    return dict(_GAMES)


def get(game_id: str) -> Game | None:
    _discover()
    return _GAMES.get(game_id)
