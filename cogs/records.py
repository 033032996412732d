"""Discord glue for the records: `/game history`, `/game export`, `/game stats` and `/game leaderboard`."""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.declare import game_command, join_group, leave_group
from cogs.delivery import defer, lines, reply
from cogs.guard import guarded
from cogs.lobby import game_choices
from cogs.translator import locale_of
from cogs.ui import GameButton, button_id, on_component
from renderers import records as images
from rules.text import Lit, Msg, msg
from table import Table
from table import history as H
from table.records import backfill

#: The Replay button of a history entry; the replay cog answers it (`replay:<game id>`, nothing else).
REPLAY_ID = "replay:{}"


def _plain(text: str) -> str:
    """A rendered line for a file, not a Discord message: no bold marks."""
    return text.replace("**", "")


def export_files(data: H.Export, lang: str) -> tuple[bytes, bytes]:
    """The public record as JSON and as readable text, in the reader's language: only what everyone could see
    (the record of the ended game and the public log lines), each line with the UTC time of its move."""
    names = data.names.get
    title = _plain(i18n.t(msg("bot.rec.export.title", id=data.game_id, game=H.game_name(data.game_type)), lang))
    status = i18n.t(Msg(f"bot.rec.export.status.{data.status}"), lang) if data.status in (
        "active", "finished", "abandoned") else ""
    seats = ", ".join(f"{seat + 1}. {name}" for seat, name in sorted(data.names.items()))
    record = [_plain(i18n.t(m, lang, data.entry.names.get)) for m in data.entry.lines[1:]] if data.entry else []
    log = [{"time": _utc(at), "text": i18n.t(m, lang, names)} for at, m in data.lines]
    as_json = {"game": data.game_id, "title": title, "status": status,
               "seats": [{"seat": seat + 1, "name": name} for seat, name in sorted(data.names.items())],
               "record": record, "log": log}
    text = [title, status, i18n.t(msg("bot.rec.export.seats", seats=seats), lang), *record, "",
            i18n.t(msg("bot.rec.export.log"), lang), *(f"[{line['time']}] {line['text']}" for line in log)]
    return (json.dumps(as_json, ensure_ascii=False, indent=1).encode("utf-8") + b"\n",
            ("\n".join(text) + "\n").encode("utf-8"))


def _utc(at: float) -> str:
    return datetime.fromtimestamp(at, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")


def history_text(page: H.HistoryPage, lang: str) -> str:
    if not page.entries:
        return i18n.t(msg("bot.rec.history.empty"), lang)
    out = [i18n.t(msg("bot.rec.history.header", page=page.page, pages=page.pages, total=page.total), lang)]
    for entry in page.entries:
        out.append("")
        out.append(lines(entry.lines, lang, entry.names))
    return "\n".join(out)


def history_view(page: H.HistoryPage, lang: str, game: str | None = None, player: int | None = None
                 ) -> discord.ui.View | None:
    """A Replay button per game, its custom id exactly `replay:<game id>`; then ◀ ▶ for the other pages (their ids
    carry the page, the player and the game asked for, so they work after a restart)."""
    if not page.entries:
        return None
    view = discord.ui.View(timeout=None)
    for entry in page.entries:
        view.add_item(discord.ui.Button(custom_id=REPLAY_ID.format(entry.game_id), style=discord.ButtonStyle.secondary,
                                        label=i18n.t(msg("bot.rec.button.replay", id=entry.game_id), lang)[:80], row=0))
    for to, key in ((page.page - 1, "bot.rec.button.newer"), (page.page + 1, "bot.rec.button.older")):
        custom_id = button_id("hist", to, player or 0, game or "")
        if 1 <= to <= page.pages and custom_id is not None:
            view.add_item(GameButton(custom_id, i18n.t(msg(key), lang), row=1))
    return view


def stats_image(rows: Sequence[H.GameStats], who: str, lang: str) -> bytes:
    columns = [i18n.t(Msg(f"core.rec.render.{k}"), lang) for k in ("game", "played", "won", "rate", "length", "rating")]
    cells = [[i18n.t(H.game_name(r.game_type), lang), str(r.played), str(r.won),
              f"{round(100 * r.won / r.played) if r.played else 0} %",
              i18n.t(H.summary.duration(r.seconds), lang) if r.seconds is not None else "",
              str(r.rating) if r.rating is not None else ""] for r in rows]
    return images.render(i18n.t(msg("core.rec.render.stats_title", who=Lit(who, who)), lang), columns, cells)


def board_image(board: H.Board, lang: str) -> bytes:
    keys = ["player", *(["rating"] if board.rated else []), "played", "won", "rate"]
    columns = [i18n.t(Msg(f"core.rec.render.{k}"), lang) for k in keys]
    cells = []
    for s, rating in zip(board.standings, board.ratings, strict=True):
        rate = f"{round(100 * s.won / s.played) if s.played else 0} %"
        cells.append([s.name, *([str(rating if rating is not None else 0)] if board.rated else []), str(s.played),
                      str(s.won), rate])
    title = i18n.t(msg("core.rec.render.board_title", game=H.game_name(board.game_type)), lang)
    return images.render(title, columns, cells, ranked=True)


def _name_of(user: Any) -> str:
    return str(getattr(user, "display_name", None) or getattr(user, "name", None) or user.id)[:100]


def _file_name(game_id: int, ext: str) -> str:
    return re.sub(r"[^a-z0-9.-]", "", f"game-{game_id}.{ext}")


class Records(commands.Cog):
    """The records commands, added to the shared `/game` group."""

    def __init__(self, bot: commands.Bot, table: Table) -> None:
        self.bot = bot
        self.table = table
        self.added = join_group(bot, self)  # declared here, offered under `/game` (the lobby's group)
        self.backfilling: asyncio.Task[int] | None = None
        on_component("hist")(self.on_history_page)

    async def cog_load(self) -> None:
        # Games that ended before records existed get theirs in the background, a batch at each start.
        self.backfilling = asyncio.create_task(backfill(self.table))

    # ---------------------------------------------------------------- commands

    @game_command(None, "cmd.game.history")
    async def history(self, interaction: discord.Interaction, game: str | None = None,
                      player: discord.User | None = None, page: app_commands.Range[int, 1, 10000] = 1) -> None:
        await defer(interaction)
        await self.show_history(interaction, game or None, player.id if player is not None else None, page)

    async def show_history(self, interaction: discord.Interaction, game: str | None, player: int | None,
                           page: int) -> None:
        lang = locale_of(interaction)
        found = await H.history(self.table.store, interaction.guild_id, game_type=game, user_id=player, page=page)
        await reply(interaction, history_text(found, lang), view=history_view(found, lang, game, player))

    @guarded
    async def on_history_page(self, interaction: discord.Interaction, kind: str, page: int, player: int,
                              game: str) -> None:
        await defer(interaction)
        await self.show_history(interaction, game or None, player or None, page)

    @game_command(None, "cmd.game.export")
    async def export(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, 2**53] | None = None) -> None:
        await defer(interaction)
        lang = locale_of(interaction)
        data = await H.export(self.table.store, interaction.guild_id, interaction.channel_id or 0, game_id)
        as_json, as_text = export_files(data, lang)
        files = [discord.File(io.BytesIO(as_json), filename=_file_name(data.game_id, "json")),
                 discord.File(io.BytesIO(as_text), filename=_file_name(data.game_id, "txt"))]
        await interaction.followup.send(i18n.t(msg("bot.rec.export.done", id=data.game_id), lang), files=files,
                                        ephemeral=True)

    @game_command(None, "cmd.game.stats")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None,
                    game: str | None = None) -> None:
        await defer(interaction)
        lang = locale_of(interaction)
        person = player or interaction.user
        who = _name_of(person)
        rows = await H.stats(self.table.store, interaction.guild_id, person.id, game or None, self.table.clock())
        text = "\n".join(i18n.t(m, lang) for m in H.stats_lines(rows, who))
        if not rows:
            await reply(interaction, text)
            return
        png = await asyncio.to_thread(stats_image, rows, who, lang)
        await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="stats.png"))

    @game_command(None, "cmd.game.leaderboard")
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await defer(interaction)
        lang = locale_of(interaction)
        board = await H.leaderboard(self.table.store, interaction.guild_id, game, self.table.clock())
        text = "\n".join(i18n.t(m, lang) for m in H.board_lines(board))
        if not board.standings:
            await reply(interaction, text)
            return
        png = await asyncio.to_thread(board_image, board, lang)
        await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="leaderboard.png"))

    @history.autocomplete("game")
    @stats.autocomplete("game")
    @leaderboard.autocomplete("game")
    async def game_suggestions(self, interaction: discord.Interaction, current: str
                               ) -> list[app_commands.Choice[str]]:
        return game_choices(self.table, interaction, current)

    async def cog_unload(self) -> None:
        if self.backfilling is not None and not self.backfilling.done():
            self.backfilling.cancel()
        leave_group(self.bot, self.added)
        self.added.clear()


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):  # the lobby's group comes first (cogs load by name)
        await bot.load_extension("cogs.lobby")
        group = bot.tree.get_command("game")
    assert isinstance(group, app_commands.Group)
    cog = Records(bot, table_of(bot))
    await bot.add_cog(cog)
