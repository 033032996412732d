"""`/game replay`, the turn-by-turn step-through, `/game spectators` and the spectator's `/game view`."""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.declare import catalog_choices, game_command, join_group, leave_group
from cogs.delivery import defer, reply, table_lang, who_of
from cogs.guard import guarded
from cogs.replay_jobs import Animation, ReplayWorks, which
from cogs.translator import locale_of
from cogs.ui import GameButton, button_id, on_component, run_blocking
from renderers import render_for
from renderers import replay as drawing
from rules import registry
from rules.text import Msg, msg
from table import Table, TableError, Who
from table.replay import Replays, Selection, Timeline
from table.results import GameRow, SeatRow
from table.summary import waiting_line

log = logging.getLogger("tabletop.replay")

#: The custom id of the Replay button the history list puts on each finished game.
HISTORY_BUTTON = re.compile(r"^replay:(?P<game>\d{1,19})$")
SPEED_CHOICES = catalog_choices("rp.speed.", ["slow", "normal", "fast"])
MODE_CHOICES = catalog_choices("rp.mode.", ["on", "off"])


def game_name(game_type: str, lang: str) -> str:
    game = registry.get(game_type)
    return i18n.t(Msg(game.name_key), lang) if game else game_type


def shown_line(timeline: Timeline, selection: Selection, frames: int) -> Msg:
    """Which turns an animation shows, and whether they were sampled ("turns 1–40 of 120, 30 frames ...")."""
    unit = "moves" if timeline.per_move else "turns"
    if selection.first <= 1 and selection.last == selection.total:
        shown = msg(f"rp.shown.all_{unit}", total=selection.total)
    else:
        shown = msg(f"rp.shown.{unit}", first=selection.first, last=selection.last, total=selection.total)
    return msg("rp.shown.sampled", shown=shown, frames=frames) if selection.sampled else shown


def state_line(row: GameRow) -> Msg:
    return msg({"finished": "rp.finished", "abandoned": "rp.abandoned"}.get(row.status, "rp.running"))


class ReplayCog(commands.Cog):
    """Replays and spectators; its commands join the shared `/game` group."""

    def __init__(self, bot: commands.Bot, table: Table) -> None:
        self.bot = bot
        self.table = table
        self.replays = Replays(table)
        self.works = ReplayWorks()
        on_component("rs")(self.on_step)
        on_component("sv")(self.on_refresh)
        # The commands are declared here but belong under `/game` (the lobby's group), not at the top level.
        self._mine = join_group(bot, self)
        bot.add_dynamic_items(HistoryReplayButton)

    async def cog_unload(self) -> None:
        leave_group(self.bot, self._mine)
        self.bot.remove_dynamic_items(HistoryReplayButton)
        self.works.close()

    # ---------------------------------------------------------------- /game replay

    @game_command(None, "cmd.game.replay", choices={"speed": SPEED_CHOICES}, texts={"from_": "cmd.game.replay.from"},
                  names={"game": "rp_game", "from_": "rp_from", "to": "rp_to", "speed": "rp_speed", "mine": "rp_mine"})
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, 9007199254740992] | None = None,
                     from_: app_commands.Range[int, 0, 100000] | None = None,
                     to: app_commands.Range[int, 0, 100000] | None = None,
                     speed: str = "normal", mine: bool = False) -> None:
        await defer(interaction)
        if not isinstance(mine, bool):
            raise TableError(msg("bot.error.option_format", part=str(mine)[:50]))
        who = who_of(interaction)
        row, seats = await self.replays.target(interaction.channel_id or 0, interaction.guild_id, who, game)
        if mine:
            await self.send_private(interaction, row, seats, who, from_, to, speed)
            return
        lang = await table_lang(self.table, interaction)
        timeline = await self.timeline(row, seats, None)
        animation = await self.works.animation(timeline, from_, to, lang, speed)
        text = self.caption(row, timeline, animation, lang, "rp.caption.public")
        channel = interaction.channel
        view = self.step_button(row.id, timeline, animation.selection.first, lang, own=False)
        if channel is not None and hasattr(channel, "send"):
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            await channel.send(text, file=self.file(animation), **kwargs)
            await reply(interaction, i18n.t(msg("bot.done"), locale_of(interaction)))
        else:
            await reply(interaction, text, file=self.file(animation), view=view)

    async def send_private(self, interaction: discord.Interaction, row: GameRow, seats: list[SeatRow], who: Who,
                           first: int | None, last: int | None, speed: str) -> None:
        """A player's own replay of a finished game, with their private view: to them alone."""
        seat = await self.replays.private_seat(row, seats, who)
        lang = locale_of(interaction)
        timeline = await self.timeline(row, seats, seat)
        animation = await self.works.animation(timeline, first, last, lang, speed)
        text = self.caption(row, timeline, animation, lang, "rp.caption.mine")
        await reply(interaction, text, file=self.file(animation),
                    view=self.step_button(row.id, timeline, animation.selection.first, lang, own=True))

    async def timeline(self, row: GameRow, seats: list[SeatRow], viewer: int | None,
                       version: int | None = None) -> Timeline:
        at = row.version if version is None else version
        return await self.works.timeline(lambda: self.replays.source(row, seats, at), (row.id, at, viewer))

    @staticmethod
    def caption(row: GameRow, timeline: Timeline, animation: Animation, lang: str, key: str) -> str:
        line = msg(key, number=row.id, game=game_name(row.game_type, lang),
                   shown=shown_line(timeline, animation.selection, animation.frames))
        names = timeline.names
        return "\n".join(i18n.t(m, lang, names.get) for m in (line, state_line(row)))

    @staticmethod
    def file(animation: Animation) -> discord.File:
        return discord.File(io.BytesIO(animation.data), filename=animation.filename)

    @staticmethod
    def step_button(game_id: int, timeline: Timeline, first: int, lang: str, *, own: bool) -> discord.ui.View | None:
        custom_id = button_id("rs", game_id, timeline.version, f"{first}.{'s' if own else 'p'}")
        if custom_id is None:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(GameButton(custom_id, i18n.t(msg("rp.button.step"), lang), emoji="⏯️"))
        return view

    # ---------------------------------------------------------------- the step-through

    @guarded
    async def on_step(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                      rest: str) -> None:
        """One turn of a replay, to whoever clicked, in their language; ◀ ▶ walk the turns (edited in place)."""
        number_text, _, whose = str(rest).partition(".")
        if not number_text.isdecimal() or whose not in ("p", "s") or len(number_text) > 6:
            raise TableError(msg("rp.error.stale"))
        in_place = _is_ephemeral(interaction)
        if in_place:
            await interaction.response.defer()
        else:
            await defer(interaction)
        who = who_of(interaction)
        row, seats = await self.replays.target(interaction.channel_id or 0, interaction.guild_id, who, game_id)
        if version > row.version:
            raise TableError(msg("rp.error.stale"))
        viewer = await self.replays.private_seat(row, seats, who) if whose == "s" else None
        timeline = await self.timeline(row, seats, viewer, version)
        number = min(int(number_text), timeline.last)
        lang = locale_of(interaction)
        turn = timeline.turns[number]
        png = await self.works.still(timeline, number, lang)
        header = msg("rp.step.header", number=row.id, game=game_name(row.game_type, lang),
                     which=which(timeline.per_move, number, timeline.last))
        said = [Msg.from_json(line) for line in turn.lines]
        quiet = msg("rp.step.quiet_move" if timeline.per_move else "rp.step.quiet")
        body = [i18n.t(m, lang, timeline.names.get) for m in (header, *(said or [quiet]))]
        text = "\n".join(body)
        if len(text) > 1900:
            text = text[:1899] + "…"
        file = discord.File(io.BytesIO(png), filename=f"replay-{row.id}-{number}.png")
        view = self.step_view(row.id, timeline, number, whose, lang)
        if in_place:
            await interaction.edit_original_response(content=text, attachments=[file], view=view)
        else:
            await reply(interaction, text, file=file, view=view)

    @staticmethod
    def step_view(game_id: int, timeline: Timeline, number: int, whose: str, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        last = timeline.last
        offered = {number}
        for key, emoji, target in (("rp.button.back", "◀️", number - 1), ("rp.button.next", "▶️", number + 1),
                                   ("rp.button.first", "⏮️", 0), ("rp.button.last", "⏭️", last)):
            if 0 <= target <= last and target not in offered:  # one button per turn (ids must differ)
                offered.add(target)
                custom_id = button_id("rs", game_id, timeline.version, f"{target}.{whose}")
                if custom_id:
                    view.add_item(GameButton(custom_id, i18n.t(msg(key), lang), emoji=emoji))
        return view

    async def from_history(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Replay button of a history entry: the public replay of that game, to the clicker alone."""
        await defer(interaction)
        who = who_of(interaction)
        row, seats = await self.replays.target(interaction.channel_id or 0, interaction.guild_id, who, game_id)
        lang = locale_of(interaction)
        timeline = await self.timeline(row, seats, None)
        animation = await self.works.animation(timeline, None, None, lang, "normal")
        await reply(interaction, self.caption(row, timeline, animation, lang, "rp.caption.public"),
                    file=self.file(animation),
                    view=self.step_button(row.id, timeline, animation.selection.first, lang, own=False))

    # ---------------------------------------------------------------- spectators

    @game_command(None, "cmd.game.spectators", choices={"mode": MODE_CHOICES}, names={"mode": "rp_mode"})
    async def spectators(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        await defer(interaction)
        on = None if mode is None else mode == "on"
        before = await self.replays.set_spectators(interaction.channel_id or 0, who_of(interaction), None)
        now = await self.replays.set_spectators(interaction.channel_id or 0, who_of(interaction), on)
        line = msg("rp.spectators.on" if now else "rp.spectators.off")
        await reply(interaction, i18n.t(line, locale_of(interaction)))
        channel = interaction.channel
        if on is not None and now != before and channel is not None and hasattr(channel, "send"):
            await channel.send(i18n.t(line, await table_lang(self.table, interaction)))

    @guarded
    async def on_refresh(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                         rest: str) -> None:
        await defer(interaction)
        row = await self.table.game_for(interaction.channel_id or 0)
        if row is None or row.id != game_id:
            raise TableError(msg("rp.error.stale"))
        await show_spectator(interaction, self.table)


class HistoryReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=HISTORY_BUTTON.pattern):
    """The Replay button (custom id `replay:<game>`) on each entry of the history list."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"replay:{game_id}", label="Replay"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HistoryReplayButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("ReplayCog") if isinstance(interaction.client, commands.Bot) else None
        if isinstance(cog, ReplayCog):
            await _history_click(cog, interaction, self.game_id)


@guarded
async def _history_click(cog: ReplayCog, interaction: discord.Interaction, game_id: int) -> None:
    await cog.from_history(interaction, game_id)


def _is_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


async def show_spectator(interaction: discord.Interaction, table: Table) -> None:
    """`/game view` for someone not seated: the public table as it stands, only to them, in their language."""
    replays = Replays(table)
    who = who_of(interaction)
    loaded, view = await replays.spectate(interaction.channel_id or 0, who)
    lang = locale_of(interaction)
    row = loaded.row
    names = loaded.names()
    game = loaded.game
    lines: list[Msg] = [msg("rp.spectate.header", game=game_name(row.game_type, lang), number=row.id)]
    outcome = game.outcome(loaded.state)
    lines.append(state_line(row) if outcome is not None else waiting_line(loaded, table.clock()))
    lines.append(msg("rp.spectate.follow"))
    text = "\n".join(i18n.t(m, lang, names.get) for m in lines)
    png = await run_blocking(_spectator_png, row.game_type, view, names, lang)
    file = discord.File(io.BytesIO(png), filename=f"{row.game_type}-{row.version}.png") if png else None
    panel = discord.ui.View(timeout=None)
    refresh = button_id("sv", row.id, row.version)
    if refresh:
        panel.add_item(GameButton(refresh, i18n.t(msg("rp.button.refresh"), lang), emoji="🔄"))
    steps = button_id("rs", row.id, row.version, f"{_LAST}.p")
    if steps:
        panel.add_item(GameButton(steps, i18n.t(msg("rp.button.step"), lang), emoji="⏯️"))
    await reply(interaction, text, file=file, view=panel)


#: A step-through asked to start "at the end" (the spectator's button): clamped to the last turn.
_LAST = 999_999


def _spectator_png(game_type: str, view: dict[str, Any], names: dict[int, str], lang: str) -> bytes | None:
    return render_for(game_type, drawing.with_names(view, names), lang)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ReplayCog(bot, table_of(bot)))


__all__ = ["ReplayCog", "show_spectator"]
