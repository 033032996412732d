"""Every slash command's guard: server-only commands, option values checked as sent, refusals localized."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine, Mapping
from contextlib import nullcontext
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands

import i18n
from cogs.delivery import reply, reply_error
from cogs.translator import locale_of
from rules.base import IllegalAction, RuleError
from rules.text import Lit, Msg, msg
from table import Table, TableError
from table.pacing import ANSWERED, PEOPLE

log = logging.getLogger("tabletop.commands")

P = ParamSpec("P")
CogT = TypeVar("CogT")


class _Running:
    """How many guarded commands and clicks are being handled right now (the bots' moves that follow a person's
    included), so local play and tests can wait until the bot is done rather than guess."""

    count = 0


def commands_running() -> int:
    return _Running.count

#: Discord's longest text option.
MAX_TEXT = 6000
_LIMIT = 2 ** 53
_OBJECTS: dict[discord.AppCommandOptionType, tuple[type | tuple[type, ...], str]] = {
    discord.AppCommandOptionType.attachment: (discord.Attachment, "plumbing.error.file"),
    discord.AppCommandOptionType.user: ((discord.User, discord.Member), "plumbing.error.user"),
    discord.AppCommandOptionType.channel: ((discord.abc.GuildChannel, app_commands.AppCommandChannel),
                                           "plumbing.error.channel"),
}


def option_name(param: Any) -> Msg | Lit:
    """An option's localized name (the key its command renames it with) for refusals."""
    renamed = param.locale_name
    key = renamed.extras.get("key") if renamed is not None else None
    return msg(key) if key else Lit(param.display_name, param.display_name)


def check_options(interaction: discord.Interaction, values: Mapping[str, Any]) -> None:
    """Refuse option values Discord itself would never send (a crafted payload can): text where a number is
    declared, a number out of its range, a value that is not one of the declared choices, a file or user
    id that the interaction does not carry."""
    command = interaction.command
    for param in getattr(command, "parameters", None) or []:
        value = values.get(param.name)
        if value is None:  # left out (discord.py itself refuses a required option left out)
            continue
        if param.choices:
            allowed = [c.value for c in param.choices]
            if value not in allowed or type(value) is not type(allowed[0]):
                raise IllegalAction(msg("plumbing.error.choice", option=option_name(param),
                                        valid=", ".join(str(c.value) for c in param.choices)))
        elif param.type == discord.AppCommandOptionType.integer:
            low = param.min_value if param.min_value is not None else -_LIMIT
            high = param.max_value if param.max_value is not None else _LIMIT
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise IllegalAction(msg("plumbing.error.number", option=option_name(param), low=low, high=high))
        elif param.type == discord.AppCommandOptionType.string and (not isinstance(value, str)
                                                                    or len(value) > MAX_TEXT):
            raise IllegalAction(msg("plumbing.error.text", option=option_name(param), max=MAX_TEXT))
        elif param.type in _OBJECTS and not isinstance(value, _OBJECTS[param.type][0]):
            raise IllegalAction(msg(_OBJECTS[param.type][1], option=option_name(param)))


def server_only(interaction: discord.Interaction) -> bool:
    """Whether the command may only run in a server (its group says so to Discord; a crafted payload can
    still arrive from a DM, so the bot checks too)."""
    command = interaction.command
    while command is not None:
        if getattr(command, "guild_only", False):
            return True
        command = getattr(command, "parent", None)
    return False


async def tell_failure(interaction: discord.Interaction) -> None:
    """Something unexpected: logged for us by the caller, one polite localized line for the user."""
    try:
        await reply(interaction, i18n.t(msg("bot.error.internal"), locale_of(interaction)), error=True)
    except discord.HTTPException:
        log.warning("could not tell the user about the failure")


def guarded(func: Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[Any, Any, None]]
            ) -> Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """A slash command's callback, guarded: refused in a DM when the command is server-only, option values
    checked as sent, every refusal a localized ephemeral message, anything unexpected logged, never shown."""

    @functools.wraps(func)
    async def wrapper(self: CogT, interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
        _Running.count += 1
        done = PEOPLE.arrive()
        token = ANSWERED.set(done)
        try:
            if interaction.guild_id is None and server_only(interaction):
                raise TableError(msg("bot.error.guild_only"))
            check_options(interaction, kwargs)
            table = getattr(interaction.client, "table", None)
            # The table calls of one command read the channel's game once (checks, move, what follows).
            with table.command() if isinstance(table, Table) else nullcontext():
                await func(self, interaction, *args, **kwargs)
        except RuleError as exc:
            await reply_error(interaction, exc)
        except Exception:
            log.exception("command failed")
            await tell_failure(interaction)
        finally:
            done()
            ANSWERED.reset(token)
            _Running.count -= 1

    return wrapper
