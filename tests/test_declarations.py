"""Every slash command is declared one way (`cogs.declare.game_command`), and autocomplete is bound to its command."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar, cast

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import cogs
from bot import make_bot
from cogs.declare import command_group, game_command, given
from cogs.plumbing import Choices, GameCog, TwoSteps, legal_moves
from standin.inprocess import InProcessDiscord


def _walk(item: Any) -> Iterator[app_commands.Command[Any, ..., Any]]:
    if isinstance(item, app_commands.Group):
        for child in item.commands:
            yield from _walk(child)
    elif isinstance(item, app_commands.Command):
        yield item


def _every_command() -> list[tuple[str, app_commands.Command[Any, ..., Any]]]:
    found = []
    for module in pkgutil.iter_modules(cogs.__path__):
        loaded = importlib.import_module(f"cogs.{module.name}")
        for _, cog in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(cog, commands.Cog) and cog.__module__ == loaded.__name__:
                for item in cog.__cog_app_commands__:
                    found += [(f"{cog.__name__}.{command.qualified_name}", command) for command in _walk(item)]
    return found


def test_every_command_of_every_cog_is_declared_by_game_command_and_guarded() -> None:
    found = _every_command()
    assert len(found) >= 100, "the cogs' commands were not found"
    raw = [name for name, command in found if "key" not in command.extras]
    assert raw == [], f"declared another way than game_command: {raw}"
    unguarded = [name for name, command in found if not hasattr(command.callback, "__wrapped__")]
    assert unguarded == [], f"not guarded: {unguarded}"
    unnamed = [f"{name} {param.name}" for name, command in found for param in command.parameters
               if param.locale_name is None or param.locale_description is None]
    assert unnamed == [], f"options without a catalog name or description: {unnamed}"


group = command_group("cmd.br")  # a copy of /br's group, with catalog keys that exist


class Probe(GameCog):
    game_id = "probe"
    asked: ClassVar[list[tuple[Any, ...]]] = []

    @game_command(group, "cmd.br.step", complete={"to": legal_moves("move", "jump")}, names={"to": "direction"},
                  texts={"card": "cmd.br.card.card"})
    async def go(self, interaction: discord.Interaction, to: str, card: int = 1) -> None: ...

    @game_command(group, "cmd.ka.place", complete=TwoSteps(("place",), "ally", "ally", "ally", "at").complete)
    async def place(self, interaction: discord.Interaction, ally: str, at: str | None = None) -> None: ...

    async def suggest(self, interaction: discord.Interaction, current: str, kinds: Any) -> Choices:
        self.asked.append(("suggest", current, tuple(kinds)))
        return [app_commands.Choice(name="x", value="x")]

    async def parts(self, interaction: discord.Interaction, current: str, kinds: Any, arg: str, param: str) -> Choices:
        self.asked.append(("parts", current, tuple(kinds), arg, param))
        return []

    async def rests(self, interaction: discord.Interaction, current: str, kinds: Any, arg: str, param: str,
                    first: str) -> Choices:
        self.asked.append(("rests", current, tuple(kinds), arg, param, first))
        return []


def test_options_are_named_and_described_by_catalog_keys() -> None:
    params = {p.name: p for p in Probe.go.parameters}
    assert params["to"].locale_name is not None and params["to"].locale_name.extras["key"] == "cmd.br.opt.direction"
    assert params["card"].locale_name is not None and params["card"].locale_name.extras["key"] == "cmd.br.opt.card"
    assert params["to"].locale_description is not None
    assert params["to"].locale_description.extras["key"] == "cmd.br.step.to"
    assert params["card"].locale_description is not None
    assert params["card"].locale_description.extras["key"] == "cmd.br.card.card"
    assert params["to"].autocomplete and not params["card"].autocomplete
    assert Probe.go.extras == {"key": "cmd.br.step"} and Probe.go.parent is group


def test_a_misspelt_option_is_refused_when_declared() -> None:
    with pytest.raises(TypeError, match=r"cmd\.br\.step: no option named tu"):
        @game_command(group, "cmd.br.step", complete={"tu": legal_moves("move")})
        async def bad(self: GameCog, interaction: discord.Interaction, to: str) -> None: ...


async def test_autocomplete_asks_the_cog_its_command_is_bound_to() -> None:
    cog = object.__new__(Probe)
    Probe.asked = []
    for command, option, typed in ((Probe.go, "to", "d6"), (Probe.place, "ally", "asp"), (Probe.place, "at", "b")):
        bound = command._copy_with(parent=None, binding=cog)
        interaction = SimpleNamespace(command=bound, namespace=SimpleNamespace())
        param = bound._params[option]
        assert param.autocomplete is not None
        await param.autocomplete(interaction, typed)
    assert Probe.asked == [("suggest", "d6", ("move", "jump")), ("parts", "asp", ("place",), "ally", "ally"),
                           ("rests", "b", ("place",), "ally", "ally", "ally")]
    # a command bound to something else (no game cog) suggests nothing rather than failing
    not_a_game_cog = cast(Probe, commands.Cog())  # deliberately the wrong kind of cog
    stray = SimpleNamespace(command=Probe.go._copy_with(parent=None, binding=not_a_game_cog), namespace=None)
    assert await Probe.go._params["to"].autocomplete(stray, "") == []  # type: ignore[misc]


def test_an_earlier_option_is_read_by_its_parameter_name_whatever_discord_calls_it() -> None:
    option = Probe.go.get_parameter("to")
    assert option is not None and option.display_name != "to"
    interaction = SimpleNamespace(command=Probe.go, namespace=SimpleNamespace(**{option.display_name: "d6"}))
    assert given(interaction, "to") == "d6"  # type: ignore[arg-type]
    assert given(SimpleNamespace(command=Probe.go, namespace=SimpleNamespace()), "to") == ""  # type: ignore[arg-type]


async def test_commands_that_join_game_keep_their_bound_autocomplete(tmp_path: Path) -> None:
    """`/game stats` and `/game replay` are declared by other cogs and joined to `/game`; their suggestions still
    come from the cog that declared them, in the asker's language."""
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "c.sqlite3"))) as d:
        d.user("ana", locale="es-ES")
        for who, line, option in (("alice", "/game stats", "game"), ("alice", "/game leaderboard", "game"),
                                  ("alice", "/game new", "game"), ("ana", "/partida estadisticas", "juego")):
            choices = await d.autocomplete(who, line, option, "heroq")
            assert [c["value"] for c in choices] == ["heroquest"], (line, choices)
        assert d.bot.tree.get_command("stats") is None, "joined /game, not the top level"
