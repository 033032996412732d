"""The one way to declare a slash command: a typed cog method, its texts from the catalogs, guarded, with the
autocomplete of each option bound to it where it is declared."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec, TypeAlias, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.guard import guarded
from cogs.translator import L

CogT = TypeVar("CogT", bound=commands.Cog)
P = ParamSpec("P")
Choices: TypeAlias = list[app_commands.Choice[str]]
#: What a command is written as: a coroutine method of a cog taking the interaction, then its options.
Callback: TypeAlias = Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[Any, Any, None]]
#: An option's suggestions as someone types: (interaction, what is typed so far) -> at most 25 choices.
Autocomplete: TypeAlias = Callable[[discord.Interaction, str], Coroutine[Any, Any, Choices]]

#: Command families whose options are named once for all their commands (`cmd.opt.game` for every `/game` command);
#: a game's options are named `cmd.<game>.opt.<option>`.
SHARED_OPTION_NAMES = {"cmd.game": "cmd.opt."}


def command_group(key: str, parent: app_commands.Group | None = None) -> app_commands.Group:
    """A game's command group (or subgroup) named `key` and described by `<key>.desc` in the catalog; a top-level
    group is server-only."""
    if parent is not None:
        return app_commands.Group(name=L(key), description=L(f"{key}.desc"), parent=parent)
    return app_commands.Group(name=L(key), description=L(f"{key}.desc"), guild_only=True)


def catalog_choices(prefix: str, values: Sequence[str]) -> list[app_commands.Choice[str]]:
    """The fixed values of an option, each named by `<prefix><value>` in the catalog (`prefix` ends with a dot)."""
    return [app_commands.Choice(name=L(f"{prefix}{value}"), value=value) for value in values]


def option_names(key: str) -> str:
    """The prefix of the catalog keys that name the options of command `key` (`cmd.hq.opt.` for `cmd.hq.gm.move`)."""
    family = ".".join(key.split(".")[:2])
    return SHARED_OPTION_NAMES.get(family, f"{family}.opt.")


def game_command(group: app_commands.Group | None, key: str, *,
                 complete: Mapping[str, Autocomplete] | None = None,
                 choices: Mapping[str, Sequence[app_commands.Choice[Any]]] | None = None,
                 names: Mapping[str, str] | None = None,
                 texts: Mapping[str, str] | None = None,
                 ) -> Callable[[Callback[CogT, P]], app_commands.Command[CogT, P, None]]:
    """Declare a cog method as the `guarded` subcommand `key` of `group` (a command of its own when `group` is None,
    for a cog that joins it to a group when loaded). Its texts come from the catalogs: the name `key`, the
    description `<key>.desc`; each option (every parameter after the interaction) is named `<prefix>.<option>`
    (see `option_names`; `names` gives another option key to a parameter) and described by `<key>.<option>`
    (`texts` gives another catalog key). `complete` binds an autocomplete to an option, `choices` fixes its values;
    a cog's own autocomplete method is bound with discord.py's `@<command>.autocomplete("option")`.

        @game_command(group, "cmd.br.step", complete={"direction": legal_moves(*STEP_KINDS)})
        async def step(self, interaction: discord.Interaction, direction: str) -> None: ...
    """

    def declare(func: Callback[CogT, P]) -> app_commands.Command[CogT, P, None]:
        options = list(inspect.signature(func).parameters)[2:]
        unknown = {*(complete or {}), *(choices or {}), *(names or {}), *(texts or {})} - set(options)
        if unknown:
            raise TypeError(f"{key}: no option named {', '.join(sorted(unknown))}")
        callback = guarded(func)
        if complete:
            callback = app_commands.autocomplete(**complete)(callback)
        if choices:
            callback = app_commands.choices(**{p: list(c) for p, c in choices.items()})(callback)
        if options:
            prefix = option_names(key)
            renamed = {p: L(prefix + (names or {}).get(p, p)) for p in options}
            callback = app_commands.rename(**renamed)(callback)
            callback = app_commands.describe(**{p: L((texts or {}).get(p, f"{key}.{p}")) for p in options})(callback)
        name, description, extras = L(key), L(f"{key}.desc"), {"key": key}  # extras never reach Discord
        if group is None:
            return app_commands.command(name=name, description=description, extras=extras)(callback)
        return group.command(name=name, description=description, extras=extras)(callback)

    return declare


def given(interaction: discord.Interaction, param: str) -> str:
    """What the command being typed already holds in its option `param` (named by the method's parameter, whatever
    Discord calls the option), as text; "" when nothing yet. For an autocomplete that depends on an earlier option."""
    command = interaction.command
    option = command.get_parameter(param) if isinstance(command, app_commands.Command) else None
    return str(getattr(interaction.namespace, option.display_name if option is not None else param, None) or "")


def join_group(bot: commands.Bot, cog: commands.Cog, name: str = "game") -> list[app_commands.Command[Any, ..., Any]]:
    """Put the commands `cog` declares (with no group) under the bot's top-level group `name` rather than at the top
    level; the ones moved, for `leave_group` when the cog is unloaded."""
    mine = [c for c in cog.__cog_app_commands__ if isinstance(c, app_commands.Command)]
    cog.__cog_app_commands__ = [c for c in cog.__cog_app_commands__ if c not in mine]
    group = bot.tree.get_command(name)
    if isinstance(group, app_commands.Group):
        for command in mine:
            group.add_command(command, override=True)
    return mine


def leave_group(bot: commands.Bot, commands_: Sequence[app_commands.Command[Any, ..., Any]],
                name: str = "game") -> None:
    """Take the commands `join_group` moved back out of the group `name`."""
    group = bot.tree.get_command(name)
    if isinstance(group, app_commands.Group):
        for command in commands_:
            group.remove_command(command.name)
