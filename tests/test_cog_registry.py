"""The bot's extensions and each game's Discord side are explicit lists, not whatever an import happened to add."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import SimpleNamespace

from cogs.games import EXTENSIONS, GAME_MODULES, game_module
from cogs.plumbing import GameCog, Wording, cog_for, words_for
from cogs.ui import GameUI, ui_for
from rules import registry

COGS = Path(__file__).resolve().parents[1] / "cogs"


def _has_setup(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.AsyncFunctionDef) and node.name == "setup" for node in tree.body)


def test_every_extension_module_is_listed_and_every_listed_one_is_an_extension() -> None:
    with_setup = {f"cogs.{p.stem}" for p in COGS.glob("*.py") if _has_setup(p)}
    assert set(EXTENSIONS) == with_setup
    assert len(EXTENSIONS) == len(set(EXTENSIONS))


def test_every_game_has_its_cog_module_with_its_own_ui_and_words() -> None:
    shipped = {importlib.import_module(f"rules.{package}").GAME.id for package in registry.GAME_PACKAGES}
    assert set(GAME_MODULES) == shipped  # tests may register small games of their own: those have no cog
    for game_id in GAME_MODULES:
        module = game_module(game_id)
        assert module is not None
        ui = ui_for(game_id)
        assert type(ui) is not GameUI and ui.game_id == game_id
        assert isinstance(words_for(game_id), Wording)


def test_a_game_without_a_discord_side_gets_the_plain_ui() -> None:
    ui = ui_for("no-such-game")
    assert type(ui) is GameUI and ui.game_id == "no-such-game"
    assert words_for("no-such-game") is None


def test_a_bot_finds_its_own_cog_not_the_last_one_built() -> None:
    cls = importlib.import_module(GAME_MODULES["hero-realms"]).HeroRealms
    mine, theirs = object.__new__(cls), object.__new__(cls)
    assert isinstance(mine, GameCog)
    bot_a = SimpleNamespace(cogs={"HeroRealms": mine})
    bot_b = SimpleNamespace(cogs={"HeroRealms": theirs})
    assert cog_for(bot_a, "hero-realms") is mine  # type: ignore[arg-type]
    assert cog_for(bot_b, "hero-realms") is theirs  # type: ignore[arg-type]
    assert cog_for(bot_a, "gorgasali") is None  # type: ignore[arg-type]
