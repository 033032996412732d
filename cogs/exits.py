"""Discord glue for the ways out and on: the confirmations (resign, abandon) and the Rematch button."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.delivery import defer, deliver, reply, who_of
from cogs.guard import guarded
from cogs.translator import locale_of
from cogs.ui import GameButton, button_id, on_component
from rules.readonly import SameObjectCache
from rules.text import Msg, msg
from table import Table, TableError, Who
from table.exits import Exits, seat_choices
from table.results import NoGame

#: The `Exits` of the tables used lately, by the table object itself (a bot has one table; tests make many).
_EXITS: SameObjectCache[Exits] = SameObjectCache(16)


def exits_of(table: Table) -> Exits:
    """The `Exits` of a table (cogs share it; it holds nothing but the table)."""
    return _EXITS.get(table, lambda: Exits(table))


async def confirm(interaction: discord.Interaction, table: Table, game_id: int, question: Msg, kind: str,
                  label: str) -> None:
    """Ask the person privately before something that cannot be taken back: [do it] [Keep playing]."""
    lang = locale_of(interaction)
    view = discord.ui.View(timeout=None)
    do_it, keep = button_id(kind, game_id, 0), button_id("keep", game_id, 0)
    if do_it is not None and keep is not None:
        view.add_item(GameButton(do_it, i18n.t(msg(label), lang), discord.ButtonStyle.danger))
        view.add_item(GameButton(keep, i18n.t(msg("bot.button.keep"), lang), discord.ButtonStyle.secondary))
    names = await table.seat_names(game_id)
    await reply(interaction, i18n.t(question, lang, names.get), view=view)


async def ask_resign(interaction: discord.Interaction, table: Table) -> None:
    await _ask(interaction, table, "resign", "bot.button.resign")


async def ask_abandon(interaction: discord.Interaction, table: Table) -> None:
    await _ask(interaction, table, "abandon", "bot.button.abandon")


async def _ask(interaction: discord.Interaction, table: Table, kind: str, button: str) -> None:
    """The confirmation a way out asks for first: its question (or the refusal that says why not) and buttons."""
    await defer(interaction)
    channel, who = interaction.channel_id or 0, who_of(interaction)
    exits = exits_of(table)
    question = await (exits.resign_question(channel, who) if kind == "resign" else
                      exits.abandon_question(channel, who))
    row = await table.game_for(channel)
    if row is None:
        raise NoGame(msg("core.error.no_game"))
    await confirm(interaction, table, row.id, question, kind, button)


async def replace_seat(interaction: discord.Interaction, table: Table, seat: str, new_player: Any) -> None:
    await defer(interaction)
    if getattr(new_player, "bot", False):
        raise TableError(msg("bot.exits.not_a_person"))
    name = getattr(new_player, "display_name", None) or getattr(new_player, "name", None) or str(new_player.id)
    newcomer = Who(int(new_player.id), str(name)[:100])
    report = await exits_of(table).replace(interaction.channel_id or 0, who_of(interaction), seat, newcomer)
    await deliver(table, interaction, report)


async def seat_suggestions(interaction: discord.Interaction, table: Table, current: str
                           ) -> list[app_commands.Choice[str]]:
    row = await table.game_for(interaction.channel_id or 0)
    if row is None:
        return []
    seats = await table.store.seats(row.id)
    needle = current.casefold().strip()
    return [app_commands.Choice(name=label[:100], value=value) for label, value in seat_choices(seats)
            if not needle or needle in label.casefold()][:25]


class ExitButtons(commands.Cog):
    """The buttons of the confirmations and of a finished game; they work after a restart (ids carry the game)."""

    def __init__(self, bot: commands.Bot, table: Table) -> None:
        self.bot = bot
        self.table = table
        on_component("resign")(self.on_resign)
        on_component("abandon")(self.on_abandon)
        on_component("keep")(self.on_keep)
        on_component("rematch")(self.on_rematch)

    @guarded
    async def on_resign(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                        rest: str) -> None:
        await defer(interaction)
        report = await exits_of(self.table).resign(interaction.channel_id or 0, who_of(interaction), game_id=game_id)
        await deliver(self.table, interaction, report)

    @guarded
    async def on_abandon(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                         rest: str) -> None:
        await defer(interaction)
        report = await exits_of(self.table).abandon(interaction.channel_id or 0, who_of(interaction),
                                                    game_id=game_id)
        await deliver(self.table, interaction, report)

    @guarded
    async def on_keep(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                      rest: str) -> None:
        await reply(interaction, i18n.t(msg("bot.exits.kept"), locale_of(interaction)))

    @guarded
    async def on_rematch(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                         rest: str) -> None:
        await defer(interaction)
        report = await exits_of(self.table).rematch(interaction.channel_id or 0, who_of(interaction), game_id)
        await deliver(self.table, interaction, report)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ExitButtons(bot, table_of(bot)))
