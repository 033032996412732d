"""Turns table reports into Discord messages: the public post, the board image, pings, DMs and ephemerals."""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
import orjson

import i18n
from cogs.dm_channels import dm_channels
from cogs.help import lobby_help_view
from cogs.late_images import LateImages, drawn, early
from cogs.live import SUMMARY_CHARS, LiveTurn, LiveTurns, summary
from cogs.translator import locale_of
from cogs.ui import GameButton, button_id, choices_line, offered, run_blocking, turn_view, ui_for
from rules import registry
from rules.base import Choice, LegalAction, RuleError
from rules.safe_text import clean_name
from rules.text import Msg, msg
from table import Report, Table, Who
from table.pacing import answered

log = logging.getLogger("tabletop.delivery")

ERROR_PREFIX = "⚠️ "
MAX_CONTENT = 1900
DM_CLOSED = 50007
#: The live message of each game's current turn.
LIVE = LiveTurns()
#: Boards and private pictures, drawn after their message is sent and added to it by an edit.
LATE = LateImages()
#: A digest of the private view each person was last sent by DM, per game, so an unchanged view is not resent.
_SENT_VIEWS: OrderedDict[tuple[int, int], str] = OrderedDict()
_SENT_KEPT = 20_000
#: (game, user) pairs whose DMs are closed: told once in the channel, not tried again in that game.
_DMS_CLOSED: set[tuple[int, int]] = set()


def who_of(interaction: discord.Interaction) -> Who:
    user = interaction.user
    perms = interaction.permissions
    can_manage = bool(perms and (perms.manage_channels or perms.manage_threads or perms.manage_guild))
    lang = i18n.lang_of(str(interaction.locale)) if interaction.locale else None
    return Who(user.id, getattr(user, "display_name", None) or user.name, can_manage, lang)


async def table_lang(table: Table, interaction: discord.Interaction) -> str:
    """The table's language, for everything public: the server's `/game settings language:`, then the
    server's Discord locale, then English (never the language of whoever acted last)."""
    settings = await table.guild_settings(interaction.guild_id)
    guild_locale = str(interaction.guild_locale) if interaction.guild_locale else None
    return i18n.lang_of(settings.get("lang"), guild_locale)


def with_names(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Renderers draw players by name: views only know seats, so the seat names are added here."""
    count = max(names, default=-1) + 1
    return {**view, "names": [names.get(i, f"P{i + 1}") for i in range(count)]}


def lines(messages: list[Msg], lang: str, names: dict[int, str]) -> str:
    """Messages rendered one per line (long texts are split into several Discord messages when sent)."""
    return "\n".join(i18n.t(m, lang, names.get) for m in messages)


def pieces(content: str, limit: int = 2000) -> list[str]:
    """A text in parts that each fit one Discord message, split between lines (a line longer than a message
    between words): nothing is ever cut away."""
    out: list[str] = []
    current = ""
    for line in content.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            if current:
                out.append(current)
                current = ""
            out.append(line[:cut])
            line = line[cut:].lstrip()
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not out:
        out.append(current)
    return out


def unsaid(said: str, text: str) -> str:
    """The lines of `said` that `text` does not already contain (a decision's prompt that the seat's private
    text repeats with how to answer it), so one message never says a thing twice."""
    return "\n".join(line for line in said.splitlines() if line.strip() not in text)


def choose_line(count: int) -> Msg:
    """"You have N possible actions" (the catalog's plural block says "1 possible action")."""
    return msg("bot.choose_action", n=count)


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge at once (privately), so slow work never misses Discord's 3-second deadline."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply(interaction: discord.Interaction, content: str, *, error: bool = False,
                view: discord.ui.View | None = None, file: discord.File | None = None
                ) -> Callable[[discord.File], Awaitable[Any]]:
    """An ephemeral answer to the person who asked; returns how to add an image to its last part later."""
    if error:
        content = ERROR_PREFIX + content
    parts = pieces(content or "…")
    last: Any = None
    for n, part in enumerate(parts):
        kwargs: dict[str, Any] = {"ephemeral": True}
        if n == len(parts) - 1:  # the buttons and the image go with the last part
            if view is not None:
                kwargs["view"] = view
            if file is not None:
                kwargs["file"] = file
        if interaction.response.is_done():
            last = await interaction.followup.send(part or "…", wait=True, **kwargs)
        else:
            await interaction.response.send_message(part or "…", **kwargs)
            last = None
    answered()  # they have their answer: the bots' turns and the pictures may go on

    async def add_image(image: discord.File) -> Any:
        if last is None:  # the interaction's own response
            return await interaction.edit_original_response(attachments=[image])
        return await last.edit(attachments=[image])

    return add_image


#: How much of what a person typed a refusal quotes back.
ECHO_CHARS = 100


def echoed(reason: Msg) -> Msg:
    """A refusal with the text the person typed (its `text`) quoted back cleaned: no control, bidirectional or
    zero-width characters, no mention sign, at most ECHO_CHARS characters."""
    typed = reason.params.get("text")
    if not isinstance(typed, str):
        return reason
    return msg(reason.key, **{**reason.params, "text": clean_name(typed, ECHO_CHARS) or "…"})


async def reply_error(interaction: discord.Interaction, exc: RuleError, names: dict[int, str] | None = None) -> None:
    lang = locale_of(interaction)
    await reply(interaction, i18n.t(echoed(exc.reason), lang, (names or {}).get), error=True)


def _shows_public(channel: Any, report: Report) -> bool:
    if channel is None or not hasattr(channel, "send"):
        return False
    return bool(report.public or report.board is not None or report.mention or report.addressed)


def board_png(report: Report, lang: str) -> Awaitable[bytes | None] | None:
    """The public board image of a report, drawn off the event loop (None when the report has no board)."""
    if report.board is None:
        return None
    return run_blocking(ui_for(report.game_type).board_image, with_names(report.board, report.seat_names), lang)


@dataclass(frozen=True)
class Audience:
    """Who reads a report and how: the table's language for what is public, each person's own for what is
    addressed to them, and each person's notification choices on this server."""

    lang: str
    langs: dict[int, str]
    no_pings: frozenset[int] = frozenset()
    no_dms: frozenset[int] = frozenset()

    def of(self, user_id: int) -> str:
        return self.langs.get(user_id) or self.lang


async def audience(table: Table, report: Report, lang: str, *, asker: Who | None = None) -> Audience:
    """The readers of `report` in a table speaking `lang`; `asker` (who sent the command) speaks their own."""
    users = set(report.mention) | {u for u, _ in report.addressed} | set(report.private) | set(report.private_views)
    langs = dict(report.langs)
    if asker is not None and asker.lang:
        langs[asker.user_id] = asker.lang
    prefs = await table.notify_prefs(report.guild_id, users) if users else {}
    return Audience(lang, langs, frozenset(u for u, (_, pings) in prefs.items() if not pings),
                    frozenset(u for u, (dms, _) in prefs.items() if not dms))


def _who(user_id: int, report: Report, people: Audience) -> str:
    """A mention, or the plain name of someone who asked not to be pinged."""
    if user_id in people.no_pings:
        return report.user_names.get(user_id, "?")
    return f"<@{user_id}>"


def _footer(report: Report, people: Audience) -> tuple[str, list[int]]:
    """The lines under a turn's summary, each in its reader's language: what is asked of a person, and whose
    turn it is with their deadline; and the users those lines ping."""
    names = report.seat_names
    out: list[str] = []
    pinged: list[int] = []
    for user_id, line in report.addressed:
        lang = people.of(user_id)
        out.append(f"{_who(user_id, report, people)} {i18n.t(line, lang, names.get)}")
        pinged.append(user_id)
    for user_id in report.mention:
        lang = people.of(user_id)
        text = i18n.t(msg("bot.ping.turn", who=_who(user_id, report, people)), lang)
        if report.deadline is not None:  # Discord shows the time left in each reader's own clock
            text += " " + i18n.t(msg("bot.ping.deadline", when=f"<t:{int(report.deadline)}:R>"), lang)
        out.append(text)
        pinged.append(user_id)
    return "\n".join(out), [u for u in dict.fromkeys(pinged) if u not in people.no_pings]


def _alt_text(report: Report, lang: str, said: str) -> str:
    """The board's description for screen readers: the game and what changed."""
    engine = registry.get(report.game_type)
    game: Msg | str = Msg(engine.name_key) if engine else report.game_type
    said = " ".join(said.split())
    key = "bot.alt.board" if said else "bot.alt.board_plain"
    return i18n.t(msg(key, game=game, summary=said[-700:]), lang)[:1024]


def _turn_buttons(report: Report, lang: str) -> discord.ui.View | None:
    """The buttons under a turn's board (a finished game offers a rematch); None where there is no board."""
    if report.status not in ("active", "finished") or report.board is None:
        return None
    ui = ui_for(report.game_type)
    quick = report.quick if report.quick is not None else ui.public_buttons(report.board)
    return turn_view(report.game_id, report.version, lang, quick, finished=report.finished,
                     can_undo=report.can_undo, private_button=ui.private_button)


def _room(footer: str) -> int:
    """Characters left for a turn's summary under its pings, in one Discord message."""
    return max(300, min(SUMMARY_CHARS, 1990 - len(footer)))


def _compose(summary_text: str, footer: str) -> str:
    text = "\n".join(x for x in (summary_text, footer) if x)
    return text[:2000] or "…"


async def send_public(channel: Any, report: Report, people: Audience,
                      image: Awaitable[bytes | None] | None = None, *, present: int | None = None) -> None:
    """The report in the channel, quietly: a new message (board, summary, pings) when a wait begins or the game
    ends; otherwise the turn's live message is edited in place with the new lines and board."""
    if not _shows_public(channel, report):
        if image is not None:
            await image
        return
    async with LIVE.lock(report.game_id):
        await _send_public(channel, report, people, image, present)


async def _send_public(channel: Any, report: Report, people: Audience,
                       image: Awaitable[bytes | None] | None, present: int | None = None) -> None:
    lang, names = people.lang, report.seat_names
    live = LIVE.get(report.game_id, getattr(channel, "id", 0))
    # A new message only when a wait begins (someone is pinged or asked something) or the game ends; a turn
    # that passes to nobody new (the same player's next hero, the game's own phase) goes on in the same one,
    # and so does a turn that comes back to the person who is at the table right now.
    waits = [u for u in report.mention if u != present]
    fresh = live is None or bool(waits or report.addressed or report.finished)
    footer, pinged = _footer(report, people)
    drawing: Callable[[], Awaitable[bytes | None] | None] | None = None
    if image is not None:
        drawing = lambda: image  # noqa: E731  (already being drawn)
    elif report.board is not None:
        drawing = lambda: board_png(report, lang)  # noqa: E731
    view = _turn_buttons(report, lang)
    if view is None and report.status == "lobby":  # newcomers at a new table: how to play, shown to whoever clicks
        view = lobby_help_view(report.game_type, lang)
    if not fresh and live is not None:
        live.add(report.public)
        if report.turn_changed:  # the ping under it was for a turn that is over (or says it is theirs again)
            live.footer = footer
        said = summary(live.lines, lang, names, chars=_room(live.footer))
        kwargs: dict[str, Any] = {"content": _compose(said, live.footer)} if said or live.footer else {}
        if view is not None or report.status != "active":  # else the message keeps its buttons
            kwargs["view"] = view
        alt = _alt_text(report, lang, summary(report.public, lang, names))
        ready = drawn(image) if LATE.free(_board_place(live.message)) else None  # never under an older board
        if ready is not None:
            kwargs["attachments"] = [_board_file(report, ready, alt)]
        try:
            if kwargs:
                await live.message.edit(**kwargs)
            if ready is not None:
                LATE.at_once += 1
            else:
                _late_board(live.message, report, drawing, alt, image)
            return
        except discord.HTTPException as exc:  # deleted or too old: the turn goes on in a new message
            log.info("live message of game %s not editable (%s); posting anew", report.game_id, exc)
            report = _carry(report, live.lines)
            live = None
    if live is not None and report.addressed and not waits and not report.finished:
        # A question for someone (or a time-out notice) in the middle of play: the story and the board go on in
        # the turn's message above, and the question gets a short message of its own, with its buttons.
        live.add(report.public)
        story = summary(live.lines, lang, names)
        edit: dict[str, Any] = {"view": None, **({"content": story} if story else {})}
        try:
            await live.message.edit(**edit)
            _late_board(live.message, report, drawing, _alt_text(report, lang, summary(report.public, lang, names)),
                        image)
        except discord.HTTPException as exc:
            log.info("the live message of game %s could not take the board: %s", report.game_id, exc)
        kwargs = {"allowed_mentions": _only(pinged)}
        if view is not None:
            kwargs["view"] = view
        sent = await channel.send(_compose("", footer), **kwargs)
        LIVE.put(report.game_id, LiveTurn(getattr(channel, "id", 0), sent, [], footer))
        return
    closing: list[Msg] = report.public[:report.turn_start] if report.turn_start is not None else []
    opening: list[Msg] = report.public[len(closing):]
    if live is not None:
        live.add(closing)
        try:  # the old turn's message keeps its story and board; its buttons belong to the past
            story = summary(live.lines, lang, names)
            await live.message.edit(**({"content": story} if story else {}), view=None)
        except discord.HTTPException as exc:
            log.info("closing the live message of game %s failed: %s", report.game_id, exc)
    else:
        opening = [*closing, *opening]
    said = summary(opening, lang, names, chars=_room(footer))
    kwargs = {"allowed_mentions": _only(pinged)}
    if view is not None:
        kwargs["view"] = view
    ready = drawn(image)
    if ready is not None:  # drawn while the words were written: it goes with them
        LATE.at_once += 1
        kwargs["file"] = _board_file(report, ready, _alt_text(report, lang, said))
    sent = await channel.send(_compose(said, footer), **kwargs)
    if sent is not None and ready is None:
        _late_board(sent, report, drawing, _alt_text(report, lang, said), image)
    if report.finished or report.status in ("finished", "abandoned"):
        LIVE.forget(report.game_id)
    elif sent is not None:
        LIVE.put(report.game_id, LiveTurn(getattr(channel, "id", 0), sent, list(opening), footer))


def _late_board(message: Any, report: Report, drawing: Callable[[], Awaitable[bytes | None] | None] | None,
                alt: str, started: Awaitable[bytes | None] | None = None) -> None:
    """The report's board added to `message` once drawn (a newer board for the same message drawn instead);
    `started` is the drawing `drawing` gives back when it is already under way (`early`)."""
    if drawing is None:
        return

    async def draw() -> bytes | None:
        pending = drawing()
        return await pending if pending is not None else None

    async def show(png: bytes) -> None:
        async with LIVE.lock(report.game_id):  # never between two edits of the same turn's words
            await message.edit(attachments=[_board_file(report, png, alt)])

    LATE.submit(_board_place(message), draw, show, started=started)


def _board_place(message: Any) -> tuple[str, int]:
    """Where a message's board goes, for LATE."""
    return ("board", getattr(message, "id", id(message)))


def _only(users: list[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly these users: never everyone, a role, or a name written in a message."""
    return discord.AllowedMentions(users=[discord.Object(u) for u in users], roles=False, everyone=False,
                                   replied_user=False)


def _carry(report: Report, lines: list[Msg]) -> Report:
    """The report with the unposted turn's earlier lines in front (its message could not be edited)."""
    report.public = [*lines[: len(lines) - len(report.public)], *report.public]
    report.turn_start = None
    return report


def _board_file(report: Report, png: bytes, alt: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=f"{report.game_type}-{report.version}.png", description=alt)


async def walk_moves(table: Table, channel: int, who: Who, first: list[Choice], kinds: Sequence[str] | None
                     ) -> list[LegalAction]:
    """A seat's whole step-built moves whose first step is one of `kinds` (every kind but the path-built `move`
    when None), of those `first` offers; the table walks them in one load."""
    wanted = [c.token for c in first if c.token != "move" and (kinds is None or c.token in kinds)]
    return await table.step_moves(channel, who, wanted) if wanted else []


async def private_panel(table: Table, interaction: discord.Interaction, game_id: int, version: int,
                        game_type: str, view: dict[str, Any], names: dict[int, str], lang: str,
                        who: Who, image: Awaitable[bytes | None] | None = None
                        ) -> tuple[str, discord.ui.View | None, discord.File | None]:
    """A player's private view as text, image (`image` when it is already being drawn) and their legal
    actions as menus."""
    text, panel = await private_words(table, interaction, game_id, version, game_type, view, names, lang, who)
    png = await (image or private_png(game_type, view, names, lang))
    return text, panel, _private_file(png)


def private_png(game_type: str, view: dict[str, Any], names: dict[int, str], lang: str) -> Awaitable[bytes | None]:
    """A seat's private picture, drawn off the event loop."""
    return run_blocking(ui_for(game_type).private_image, with_names(view, names), lang)


def _private_file(png: bytes | None) -> discord.File | None:
    return discord.File(io.BytesIO(png), filename="private.png") if png else None


async def answer_privately(table: Table, interaction: discord.Interaction, game_id: int, version: int,
                           game_type: str, view: dict[str, Any], names: dict[int, str], lang: str, who: Who,
                           said: str, image: Awaitable[bytes | None] | None = None) -> None:
    """The acting person's answer: what they learned (`said`), their private view as text and their next options,
    at once; their private picture (`image` when it is already being drawn) follows as an edit of the same message
    once drawn."""
    text, panel = await private_words(table, interaction, game_id, version, game_type, view, names, lang, who)
    words = "\n".join(x for x in (unsaid(said, text), text) if x)
    ready = drawn(image)
    if ready is not None:  # drawn while the words were written: one message, no edit
        LATE.at_once += 1
        await reply(interaction, words, view=panel, file=_private_file(ready))
        return
    add_image = await reply(interaction, words, view=panel)

    async def show(png: bytes) -> None:
        file = _private_file(png)
        if file is not None:
            await add_image(file)

    def draw() -> Awaitable[bytes | None]:
        return image if image is not None else private_png(game_type, view, names, lang)

    LATE.submit(("mine", game_id, who.user_id), draw, show, started=image)


async def private_words(table: Table, interaction: discord.Interaction, game_id: int, version: int,
                        game_type: str, view: dict[str, Any], names: dict[int, str], lang: str, who: Who
                        ) -> tuple[str, discord.ui.View | None]:
    """A player's private view as text and their legal actions as menus (no picture)."""
    ui = ui_for(game_type)
    text = ui.private_text(view, lang, names)
    legal = await table.legal(interaction.channel_id or 0, who)
    panel = ui.private_panel(game_id, version, legal, lang, names)
    channel = interaction.channel_id or 0
    if not legal and await table.is_step_built(channel):
        first = await table.choices(channel, who, [])
        if isinstance(first, list) and first:
            async def walk(kinds: Sequence[str] | None) -> list[LegalAction]:
                return await walk_moves(table, channel, who, first, kinds)
            panel = await ui.step_panel(walk, game_id, version, first, view, lang, names)
    if panel is not None and not await table.can_undo(channel, who):
        for item in [i for i in panel.children if str(getattr(i, "custom_id", "")).startswith("tgb:undo:")]:
            panel.remove_item(item)  # an Undo that would only be refused is not offered
    if panel is not None and offered(panel):
        text = (text + "\n" + i18n.t(choices_line(offered(panel)), lang)).strip()
    elif not text:
        text = i18n.t(msg("bot.nothing_to_do"), lang)
    if panel is not None and not panel.children:
        panel = None
    return text, panel


async def deliver(table: Table, interaction: discord.Interaction, report: Report, *,
                  confirm: Msg | None = None, only_asker: bool = False) -> None:
    """Everything a report says, to everyone it concerns. The action is already committed. `only_asker` shows
    the public part to the asker alone, in their language (a status they asked for is not table talk)."""
    lang = locale_of(interaction)  # the asker's own language, for what only they read
    me = who_of(interaction)
    if only_asker:
        await _show_to_asker(interaction, report, lang)
        report.public, report.board, report.mention, report.addressed = [], None, [], []
    people = await audience(table, report, await table_lang(table, interaction), asker=me)
    actor = interaction.user.id
    names = report.seat_names
    view_of_me = report.private_views.get(actor) if report.status == "active" else None
    # The words go first (the person's answer, then the channel's); the board and the person's private picture
    # are drawn meanwhile and added to their messages by an edit (LATE). Both drawings start now, in the drawing
    # processes, so that they are drawn while the words are written and sent, not after.
    board = early(board_png(report, people.lang)) if _shows_public(interaction.channel, report) else None
    picture = early(private_png(report.game_type, view_of_me, names, lang)) if view_of_me is not None else None
    dms = _dms_due(report, people, actor)
    dm_pictures = _dm_pictures(report, people, dms)
    # The person who acted: privately, what only they learned, and their next options. They are waiting for it,
    # so it goes before the channel's message (each message sent is one more turn of a busy event loop).
    mine = lines(report.private.get(actor, []), lang, names)
    if view_of_me is not None:
        await answer_privately(table, interaction, report.game_id, report.version, report.game_type, view_of_me,
                               names, lang, me, mine, picture)
        _remember_view(report.game_id, actor, view_of_me)
    else:
        done = i18n.t(confirm or msg("bot.done"), lang)
        await reply(interaction, "\n".join(x for x in (mine, done) if x))
    await send_public(interaction.channel, report, people, board)
    await _send_dms(interaction.client, interaction.channel, report, people, skip=actor, due=dms,
                    pictures=dm_pictures)
    if report.pending_auto:  # the person has their answer: now the bots and the game's own phase move
        try:
            follow = await table.resume(report.game_id)
        except RuleError as exc:  # stopped by storage trouble: the resumer picks the game up again later
            log.warning("automatic moves after game %s's move wait: %s", report.game_id, exc)
            return
        if follow is None:
            return
        # The person is still at the table: their turn coming back is told in the turn's message (no new post,
        # no DM), and what they now hold comes to them privately, as an answer to what they did.
        mine_now = follow.private_views.get(actor) if follow.status == "active" else None
        present = actor if actor in follow.mention or mine_now is not None else None
        await announce(interaction.client, follow, people.lang, table, present=present)
        if mine_now is not None and (actor in follow.mention or actor in follow.private):
            said = lines(follow.private.get(actor, []), lang, names)
            await answer_privately(table, interaction, follow.game_id, follow.version, follow.game_type, mine_now,
                                   names, lang, me, said)
            _remember_view(follow.game_id, actor, mine_now)


async def _show_to_asker(interaction: discord.Interaction, report: Report, lang: str) -> None:
    """The table as it stands, with the turn's buttons, for the asker alone (they work for whoever clicks)."""
    drawing = board_png(report, lang)
    png = await drawing if drawing is not None else None
    said = lines(report.public, lang, report.seat_names)
    file = _board_file(report, png, _alt_text(report, lang, said)) if png else None
    view = _turn_buttons(report, lang)
    await reply(interaction, said or i18n.t(msg("bot.done"), lang), file=file, view=view)


async def announce(client: discord.Client, report: Report, lang: str, table: Table | None = None, *,
                   present: int | None = None) -> None:
    """A report nobody asked for (AI moves resumed, a time-out): to its channel in the table's language `lang`,
    and DMs as usual. `present` is someone who just acted and is answered privately instead: a wait of theirs
    goes on in the turn's message rather than a new post, and they get no DM."""
    channel = client.get_channel(report.channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(report.channel_id)
        except discord.HTTPException as exc:
            log.warning("cannot reach channel %s: %s", report.channel_id, exc)
            return
    people = await audience(table, report, lang) if table is not None else Audience(lang, dict(report.langs))
    await send_public(channel, report, people, present=present)
    await _send_dms(client, channel, report, people, skip=present)


def _digest(view: dict[str, Any]) -> str:
    # orjson: a view is hashed with every answer, and the standard library's sorted dump costs ten times more.
    try:
        data = orjson.dumps(view, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)
    except (orjson.JSONEncodeError, TypeError):  # an integer over 64 bits
        data = json.dumps(view, sort_keys=True, default=str).encode()
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _remember_view(game_id: int, user_id: int, view: dict[str, Any]) -> None:
    """Note the private view this person was just shown."""
    key = (game_id, user_id)
    _SENT_VIEWS[key] = _digest(view)
    _SENT_VIEWS.move_to_end(key)
    while len(_SENT_VIEWS) > _SENT_KEPT:
        _SENT_VIEWS.popitem(last=False)


def _view_is_new(game_id: int, user_id: int, view: dict[str, Any] | None) -> bool:
    return view is not None and _SENT_VIEWS.get((game_id, user_id)) != _digest(view)


def _dms_due(report: Report, people: Audience, skip: int | None) -> dict[int, bool]:
    """Who gets a DM for this report, and whether it carries their private view (see `_send_dms`)."""
    due: dict[int, bool] = {}
    for user_id in sorted(set(report.private) | set(report.private_views) | set(report.mention)):
        if user_id == skip or user_id in people.no_dms or (report.game_id, user_id) in _DMS_CLOSED:
            continue
        if user_id in report.mention or (user_id in report.private and user_id not in report.quiet_private):
            due[user_id] = _view_is_new(report.game_id, user_id, report.private_views.get(user_id))
    return due


def _dm_pictures(report: Report, people: Audience, due: dict[int, bool]) -> dict[int, Awaitable[bytes | None]]:
    """The private pictures of the DMs due, their drawing started now (they are added to the DMs once drawn)."""
    out: dict[int, Awaitable[bytes | None]] = {}
    for user_id, with_view in due.items():
        view = report.private_views.get(user_id) if with_view else None
        picture = early(private_png(report.game_type, view, report.seat_names, people.of(user_id))) \
            if view is not None else None
        if picture is not None:
            out[user_id] = picture
    return out


async def _send_dms(client: discord.Client, channel: Any, report: Report, people: Audience, *,
                    skip: int | None = None, due: dict[int, bool] | None = None,
                    pictures: dict[int, Awaitable[bytes | None]] | None = None) -> None:
    """A DM only to whom it concerns: their turn starts, or the game told them something only they may know (a
    card drawn, a room revealed to the game master), with their private view when it changed since they last
    saw it; never because others moved, and never to someone who turned DMs off on this server. `due` and
    `pictures`: what `_dms_due` and `_dm_pictures` gave when the pictures' drawing was started earlier."""
    for user_id, fresh in (_dms_due(report, people, skip) if due is None else due).items():
        await send_dm(client, channel, report, user_id, people.of(user_id), with_view=fresh,
                      picture=(pictures or {}).get(user_id))


async def send_dm(client: discord.Client, channel: Any, report: Report, user_id: int, lang: str, *,
                  with_view: bool = True, picture: Awaitable[bytes | None] | None = None) -> None:
    names = report.seat_names
    engine = registry.get(report.game_type)
    game_name: Msg | str = Msg(engine.name_key) if engine else report.game_type
    view = report.private_views.get(user_id) if with_view else None
    ui = ui_for(report.game_type)
    text = ui.private_text(view, lang, names) if view is not None else ""
    said = unsaid(lines(report.private.get(user_id, []), lang, names), text)
    live = LIVE.get(report.game_id, getattr(channel, "id", 0)) if channel is not None else None
    link = getattr(live.message, "jump_url", None) if live is not None else None
    link = link or (f"<#{channel.id}>" if channel is not None else "")
    key = "bot.dm.turn" if user_id in report.mention else "bot.dm.news"
    parts = [i18n.t(msg(key, game=game_name, link=link), lang)]
    parts.extend(x for x in (said, text) if x)
    if view is not None:
        _remember_view(report.game_id, user_id, view)
    chunks = pieces("\n".join(parts))
    try:
        dm = await dm_channels(client).channel(client, user_id)  # no user fetch; no REST call for someone seen before
        alt = i18n.t(msg("bot.alt.private", game=game_name), lang)
        ready = drawn(picture) if view is not None else None
        last = None
        for n, chunk in enumerate(chunks):
            if ready is not None and n == len(chunks) - 1:  # already drawn: it goes with the last part
                LATE.at_once += 1
                last = await dm.send(chunk, file=discord.File(io.BytesIO(ready), filename="private.png",
                                                               description=alt))
            else:
                last = await dm.send(chunk)
        if view is not None and last is not None and ready is None:  # the private picture follows once drawn

            async def show(png: bytes) -> None:
                await last.edit(attachments=[discord.File(io.BytesIO(png), filename="private.png", description=alt)])

            def draw() -> Awaitable[bytes | None]:
                return picture if picture is not None else private_png(report.game_type, view, names, lang)

            LATE.submit(("dm", report.game_id, user_id), draw, show, started=picture)
    except discord.Forbidden as exc:
        if exc.code != DM_CLOSED:
            log.warning("DM to %s refused: %s", user_id, exc)
        await dm_closed_notice(channel, report, user_id, lang)
    except discord.HTTPException as exc:
        if isinstance(exc, discord.NotFound):  # the DM channel is gone: open a new one next time
            dm_channels(client).forget(user_id)
        log.warning("DM to %s failed: %s", user_id, exc)
        await dm_closed_notice(channel, report, user_id, lang)


async def dm_closed_notice(channel: Any, report: Report, user_id: int, lang: str) -> None:
    """DMs are closed: say so in the channel once per game and offer a button that shows the view ephemerally."""
    if len(_DMS_CLOSED) > _SENT_KEPT:
        _DMS_CLOSED.clear()
    _DMS_CLOSED.add((report.game_id, user_id))
    if channel is None or not hasattr(channel, "send"):
        return
    view = discord.ui.View(timeout=None)
    custom_id = button_id("pv", report.game_id, report.version)
    if custom_id:
        view.add_item(GameButton(custom_id, i18n.t(msg("bot.button.show_private"), lang), discord.ButtonStyle.primary))
    await channel.send(f"<@{user_id}> {i18n.t(msg('bot.dm.closed'), lang)}", view=view,
                       allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)], roles=False,
                                                                everyone=False))
