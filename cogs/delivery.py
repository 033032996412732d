"""Turns table reports into Discord messages: the public post, the board image, pings, DMs and ephemerals."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import discord

import i18n
from cogs.translator import locale_of
from cogs.ui import button_id, run_blocking, turn_view, ui_for
from rules import registry
from rules.base import Choice, LegalAction, RuleError
from rules.text import Msg, msg
from table import Report, Table, Who

log = logging.getLogger("tabletop.delivery")

ERROR_PREFIX = "⚠️ "
MAX_CONTENT = 1900
DM_CLOSED = 50007


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
    text = "\n".join(i18n.t(m, lang, names.get) for m in messages)
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def unsaid(said: str, text: str) -> str:
    """The lines of `said` that `text` does not already contain (a decision's prompt that the seat's private
    text repeats with how to answer it), so one message never says a thing twice."""
    return "\n".join(line for line in said.splitlines() if line.strip() not in text)


def choose_line(count: int) -> Msg:
    """"You have N possible actions", in the singular when there is one."""
    return msg("bot.choose_action_one") if count == 1 else msg("bot.choose_action", n=count)


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge at once (privately), so slow work never misses Discord's 3-second deadline."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply(interaction: discord.Interaction, content: str, *, error: bool = False,
                view: discord.ui.View | None = None, file: discord.File | None = None) -> None:
    """An ephemeral answer to the person who asked."""
    if error:
        content = ERROR_PREFIX + content
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    content = content[:2000] or "…"
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


async def reply_error(interaction: discord.Interaction, exc: RuleError, names: dict[int, str] | None = None) -> None:
    lang = locale_of(interaction)
    await reply(interaction, i18n.t(exc.reason, lang, (names or {}).get), error=True)


def _shows_public(channel: Any, report: Report) -> bool:
    if channel is None or not hasattr(channel, "send"):
        return False
    return bool(report.public or report.board is not None or report.mention)  # else: leave no public trace


def board_png(report: Report, lang: str) -> Awaitable[bytes | None] | None:
    """The public board image of a report, drawn off the event loop (None when the report has no board)."""
    if report.board is None:
        return None
    return run_blocking(ui_for(report.game_type).board_image, with_names(report.board, report.seat_names), lang)


async def send_public(channel: Any, report: Report, lang: str,
                      image: Awaitable[bytes | None] | None = None) -> None:
    """The outcome in the channel: text, the board image (`image` when it is already being drawn),
    buttons, and the next players mentioned."""
    if not _shows_public(channel, report):
        if image is not None:
            await image
        return
    names = report.seat_names
    content = lines(report.public, lang, names)
    if report.mention:
        pings = " ".join(f"<@{u}>" for u in report.mention)
        content = f"{content}\n👉 {pings} — {i18n.t(msg('bot.your_turn'), lang)}".strip()
        if report.deadline is not None:  # Discord shows the time left in each reader's own clock
            content += " " + i18n.t(msg("bot.deadline", when=f"<t:{int(report.deadline)}:R>"), lang)
    ui = ui_for(report.game_type)
    kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(users=True, roles=False, everyone=False)}
    if report.board is not None:
        drawing = image or board_png(report, lang)
        png = await drawing if drawing is not None else None
        if png:
            kwargs["file"] = discord.File(io.BytesIO(png), filename=f"{report.game_type}-{report.version}.png")
        if report.status in ("active", "finished"):  # a finished game's message offers the rematch
            quick = report.quick if report.quick is not None else ui.public_buttons(report.board)
            view = turn_view(report.game_id, report.version, lang, quick,
                             finished=report.finished, can_undo=report.can_undo)
            if view is not None:
                kwargs["view"] = view
    await channel.send(content[:2000] or "…", **kwargs)


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
    if legal:
        text = (text + "\n" + i18n.t(choose_line(len(legal)), lang)).strip()
    elif not text:
        text = i18n.t(msg("bot.nothing_to_do"), lang)
    png = await (image or run_blocking(ui.private_image, with_names(view, names), lang))
    file = discord.File(io.BytesIO(png), filename="private.png") if png else None
    return text, panel, file


async def deliver(table: Table, interaction: discord.Interaction, report: Report, *,
                  confirm: Msg | None = None) -> None:
    """Everything a report says, to everyone it concerns. The action is already committed."""
    lang = locale_of(interaction)
    actor = interaction.user.id
    names = report.seat_names
    view_of_me = report.private_views.get(actor) if report.status == "active" else None
    # Both images are drawn at once (Pillow works outside the GIL), then sent in their usual order.
    public = board_png(report, lang) if _shows_public(interaction.channel, report) else None
    public_task = asyncio.ensure_future(public) if public is not None else None
    mine_task = asyncio.ensure_future(run_blocking(ui_for(report.game_type).private_image,
                                                   with_names(view_of_me, names), lang)) \
        if view_of_me is not None else None
    await send_public(interaction.channel, report, lang, public_task)
    # The person who acted: privately, what only they learned, and their next options.
    mine = lines(report.private.get(actor, []), lang, names)
    if view_of_me is not None:
        text, panel, file = await private_panel(table, interaction, report.game_id, report.version,
                                                report.game_type, view_of_me, names, lang, who_of(interaction),
                                                mine_task)
        await reply(interaction, "\n".join(x for x in (unsaid(mine, text), text) if x), view=panel, file=file)
    else:
        done = i18n.t(confirm or msg("bot.done"), lang)
        await reply(interaction, "\n".join(x for x in (mine, done) if x))
    # Everyone else whose secrets changed, or whose turn it now is: by DM.
    others = (set(report.private) | set(report.private_views)) - {actor}
    for user_id in sorted(others):
        if user_id not in report.private and user_id not in report.mention and user_id not in report.watch:
            continue
        await send_dm(interaction.client, interaction.channel, report, user_id, report.langs.get(user_id, lang))


async def announce(client: discord.Client, report: Report, lang: str) -> None:
    """A report nobody asked for (AI moves resumed after a restart): to its channel, and DMs as usual."""
    channel = client.get_channel(report.channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(report.channel_id)
        except discord.HTTPException as exc:
            log.warning("cannot reach channel %s: %s", report.channel_id, exc)
            return
    await send_public(channel, report, lang)
    for user_id in sorted(set(report.private) | set(report.private_views)):
        if user_id in report.private or user_id in report.mention or user_id in report.watch:
            await send_dm(client, channel, report, user_id, report.langs.get(user_id, lang))


async def send_dm(client: discord.Client, channel: Any, report: Report, user_id: int, lang: str) -> None:
    names = report.seat_names
    engine = registry.get(report.game_type)
    game_name: Msg | str = Msg(engine.name_key) if engine else report.game_type
    parts = [i18n.t(msg("bot.dm.header", game=game_name), lang)]
    view = report.private_views.get(user_id)
    ui = ui_for(report.game_type)
    text = ui.private_text(view, lang, names) if view is not None else ""
    said = unsaid(lines(report.private.get(user_id, []), lang, names), text)
    parts.extend(x for x in (said, text) if x)
    file = None
    if view is not None:
        png = await run_blocking(ui.private_image, with_names(view, names), lang)
        if png:
            file = discord.File(io.BytesIO(png), filename="private.png")
    if channel is not None:
        parts.append(i18n.t(msg("bot.dm.where", channel=f"<#{channel.id}>"), lang))
    content = "\n".join(parts)[:2000]
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        kwargs: dict[str, Any] = {"file": file} if file else {}
        await user.send(content, **kwargs)
    except discord.Forbidden as exc:
        if exc.code != DM_CLOSED:
            log.warning("DM to %s refused: %s", user_id, exc)
        await dm_closed_notice(channel, report, user_id, lang)
    except discord.HTTPException as exc:
        log.warning("DM to %s failed: %s", user_id, exc)
        await dm_closed_notice(channel, report, user_id, lang)


async def dm_closed_notice(channel: Any, report: Report, user_id: int, lang: str) -> None:
    """DMs are closed: say so in the channel and offer a button that shows the view ephemerally."""
    if channel is None or not hasattr(channel, "send"):
        return
    view = discord.ui.View(timeout=None)
    custom_id = button_id("pv", report.game_id, report.version)
    from cogs.ui import GameButton  # local: avoids a cycle at import time

    if custom_id:
        view.add_item(GameButton(custom_id, i18n.t(msg("bot.button.show_private"), lang), discord.ButtonStyle.primary))
    await channel.send(f"<@{user_id}> {i18n.t(msg('bot.dm.closed'), lang)}", view=view,
                       allowed_mentions=discord.AllowedMentions(users=True))
