"""The `/game` command group every game shares: lobby, turns, undo, log, help, and the shared buttons."""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

import i18n
from cogs.bot_table import table_of
from cogs.declare import catalog_choices, command_group, game_command, given
from cogs.delivery import announce, defer, deliver, lines, private_panel, reply, who_of
from cogs.downloads import read_attachment
from cogs.exits import ask_abandon, ask_resign, replace_seat, seat_suggestions
from cogs.guard import guarded
from cogs.help import GENERAL, show_help
from cogs.plumbing import GameCog, by_token, cog_for, step_words, suggestion
from cogs.replay import show_spectator
from cogs.translator import locale_of
from cogs.ui import PAGE, GameButton, actions_menu, build_view, button_id, clip, on_component, ui_for
from rules import registry
from rules.base import AI_LEVELS, Action, BadOptions, Choice, IllegalAction
from rules.safe_text import clean_name
from rules.text import Msg, msg
from table import Table, TableError
from table.results import NotSeated, Report, Who

log = logging.getLogger("tabletop.lobby")

MAX_UPLOAD = 1_000_000
#: Characters of a typed `options:` value that are read (Discord allows 6,000 in a command).
MAX_OPTIONS_TEXT = 1000
Command = Callable[..., Coroutine[Any, Any, None]]


def parse_options(raw: str | None) -> dict[str, str]:
    """`variant=hydra movement=2d6` -> {"variant": "hydra", "movement": "2d6"}; commas separate options too,
    and a piece with no `=` continues the value before it (`heroes=barbarian,dwarf` or `heroes=barbarian, dwarf`)."""
    result: dict[str, str] = {}
    last: str | None = None
    # typed text: no controls, bidi or zero-width characters, bounded, no mention sign (rules/safe_text.py)
    for part in clean_name(raw or "", MAX_OPTIONS_TEXT).replace(",", " , ").split():
        if part == ",":
            continue
        key, sep, value = part.partition("=")
        if not sep and last is not None:
            result[last] += "," + part
            continue
        if not sep or not key or not value:
            raise BadOptions(msg("bot.error.option_format", part=part))
        last = key.strip().lower()
        result[last] = value.strip()
    return result


def game_choices(table: Table, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of an option naming a game (`/game new`, `/game stats`…): the games offered here whose id or
    name in the reader's language contains what was typed."""
    lang = locale_of(interaction)
    found = []
    for game_id, game in sorted(table.offered_games().items()):
        name = i18n.t(Msg(game.name_key), lang)
        if current.lower() in game_id or current.lower() in name.lower():
            found.append(app_commands.Choice(name=name[:100], value=game_id))
    return found[:25]


class Lobby(commands.Cog):
    """Slash commands shared by all games, plus the persistent button handlers and turn reminders."""

    group = command_group("cmd.game")

    def __init__(self, bot: commands.Bot, table: Table) -> None:
        self.bot = bot
        self.table = table
        on_component("a")(self.on_action_click)
        on_component("b")(self.on_build_pick)
        on_component("pv")(self.on_private_click)
        on_component("undo")(self.on_undo_click)
        on_component("skip")(self.on_skip_click)
        interval = float(os.environ.get("TABLETOP_REMINDER_SECONDS", "60"))
        self.reminders.change_interval(seconds=interval)
        self.resumer.change_interval(seconds=interval)
        self.timers.change_interval(seconds=float(os.environ.get("TABLETOP_TIMER_SECONDS", "10")))
        self._scanned = False

    async def cog_load(self) -> None:
        self.reminders.start()
        self.resumer.start()
        self.timers.start()

    async def cog_unload(self) -> None:
        self.reminders.cancel()
        self.resumer.cancel()
        self.timers.cancel()

    # ---------------------------------------------------------------- lobby commands

    @game_command(group, "cmd.game.new", choices={"ai_level": catalog_choices("core.ai_level.", AI_LEVELS)})
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  ai: app_commands.Range[int, 0, 9] = 0, reminder: app_commands.Range[int, 1, 10080] | None = None,
                  file: discord.Attachment | None = None,
                  timer: app_commands.Range[int, 0, 10080] | None = None, ai_level: str | None = None) -> None:
        await defer(interaction)
        extra: dict[str, Any] = {}
        if reminder is not None:
            if not isinstance(reminder, int) or not 1 <= reminder <= 10080:  # Discord's checks may be bypassed
                raise TableError(msg("core.error.reminder_range"))
            extra["reminder_minutes"] = reminder
        if not isinstance(ai, int) or (timer is not None and not isinstance(timer, int)):
            raise BadOptions(msg("bot.error.option_format", part=str(ai if not isinstance(ai, int) else timer)))
        upload = await read_attachment(file, limit=MAX_UPLOAD) if file is not None else None
        report = await self.table.new(guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0,
                                      who=who_of(interaction), game_type=game, options=parse_options(options),
                                      ai_seats=ai, extra=extra, upload=upload, timer_minutes=timer,
                                      ai_level=ai_level)
        await deliver(self.table, interaction, report)

    @new.autocomplete("game")
    async def new_game_autocomplete(self, interaction: discord.Interaction, current: str
                                    ) -> list[app_commands.Choice[str]]:
        return game_choices(self.table, interaction, current)

    @new.autocomplete("options")
    async def new_options_autocomplete(self, interaction: discord.Interaction, current: str
                                       ) -> list[app_commands.Choice[str]]:
        game = registry.get(given(interaction, "game"))
        if game is None:
            return []
        lang = locale_of(interaction)
        done, _, last = current.rpartition(" ")
        prefix = f"{done} " if done else ""
        choices = []
        for spec in game.options():
            # each value with what it means: "variant=hydra — Variant: Hydra (2 teams of 2)"
            if spec.choices:
                values = [(v, f"{i18n.t(spec.label, lang)}: {i18n.t(label, lang)}") for v, label in spec.choices]
            elif isinstance(spec.default, bool):
                values = [(v, i18n.t(spec.label, lang)) for v in ("true", "false")]
            else:
                values = [(str(spec.default), i18n.t(spec.label, lang))]
            for value, meaning in values:
                token = f"{spec.key}={value}"
                if token.startswith(last) or not last:
                    label = f"{prefix}{token} — {meaning}"
                    choices.append(app_commands.Choice(name=clip(label), value=(prefix + token)[:100]))
        return choices[:25]

    async def simple(self, interaction: discord.Interaction,
                     call: Callable[[int, Who], Awaitable[Report]]) -> None:
        """The common shape of most commands: acknowledge, ask the table, deliver its report."""
        await defer(interaction)
        await deliver(self.table, interaction, await call(interaction.channel_id or 0, who_of(interaction)))

    @game_command(group, "cmd.game.join")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.simple(interaction, self.table.join)

    @game_command(group, "cmd.game.leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.simple(interaction, self.table.leave)

    @game_command(group, "cmd.game.start")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.simple(interaction, self.table.start)

    @game_command(group, "cmd.game.status")
    async def status(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        report = await self.table.status(interaction.channel_id or 0, who_of(interaction))
        report.mention = []
        report.private = {}
        await deliver(self.table, interaction, report, only_asker=True)

    @game_command(group, "cmd.game.act")
    async def act(self, interaction: discord.Interaction, action: str) -> None:
        await defer(interaction)
        if not isinstance(action, str):
            raise BadOptions(msg("bot.error.action_format"))
        parsed = await self.typed(interaction, action)
        report = await self.table.act(interaction.channel_id or 0, who_of(interaction), parsed)
        await deliver(self.table, interaction, report)

    async def typed(self, interaction: discord.Interaction, text: str) -> Action:
        """The move `text` names: what autocomplete sent, or what a menu or a game's command shows (its label in
        either language, with or without its count, a unique beginning, a square...), or the words of a move built
        in steps ("move N N go"); a token nobody lists still goes to the game, which says why it is refused."""
        channel, who = interaction.channel_id or 0, who_of(interaction)
        row = await self.table.game_for(channel)
        cog = cog_for(self.bot, row.game_type) if row is not None and row.status == "active" else None
        refusal: IllegalAction | None = None
        if cog is not None and row is not None:
            # What autocomplete sends is a legal move's own token: found among the table's legal moves, it needs
            # neither the view nor the game's wording (the common case, and the costly one to look up otherwise).
            exact = by_token(await self.table.legal(channel, who), text)
            if exact is not None:
                return exact
            legal, view, names = await cog.seen(interaction)
            if not legal and not await self.table.is_step_built(channel):
                await self.table.check_turn(channel, who)
            found = by_token(legal, text)
            if found is not None:
                return found
            if legal:
                quick = await self.button_words(row.id, row.game_type)
                try:
                    return cog.words.pick(legal, text, locale_of(interaction), names, view,
                                          lambda la: quick.get(la.action, []))
                except IllegalAction as exc:
                    refusal = exc
        if "=" not in text and await self.table.is_step_built(channel):
            return await self.step_words_move(interaction, text.split(), refusal)
        try:
            parsed = Action.from_token(text)
        except ValueError as exc:
            raise refusal or BadOptions(msg("bot.error.action_format")) from exc
        if refusal is not None and "=" not in text:
            raise refusal  # a word or two that name no move are not sent to the game as a move
        return parsed

    async def button_words(self, game_id: int, game_type: str) -> dict[Action, list[str]]:
        """The labels of the public turn message's buttons ("Play all"), in both languages, by the move they make."""
        loaded = await self.table.inspect(game_id)
        pairs = loaded.game.quick_actions(loaded.state)
        if pairs is None:
            pairs = ui_for(game_type).public_buttons(loaded.game.view(loaded.state, None))
        out: dict[Action, list[str]] = {}
        for label, action in pairs:
            out.setdefault(action, []).extend(i18n.t(label, lang) for lang in i18n.LANGS)
        return out

    async def step_words_move(self, interaction: discord.Interaction, words: list[str],
                              refusal: IllegalAction | None) -> Action:
        """A move built in steps typed as its tokens ("move N N go"), or a refusal naming, in words, what may
        come next."""
        channel, who = interaction.channel_id or 0, who_of(interaction)
        found = await self.table.choices(channel, who, words)
        if isinstance(found, Action):
            return found
        if refusal is not None and not found:
            raise refusal
        row = await self.table.game_for(channel)
        lang = locale_of(interaction)
        names = await self.table.seat_names(row.id) if row else {}
        if not found:
            await self.table.check_turn(channel, who)
            first = await self.table.choices(channel, who, [])
            valid = await self._step_listing(interaction, [], first if isinstance(first, list) else [])
            raise IllegalAction(msg("bot.menu.dead_end", valid=valid))
        labels, picked, _ = await step_words(self.table, channel, who, row.game_type if row else "", words, found,
                                             lang, names)
        valid = ", ".join(labels.get(c.token) or i18n.t(c.label, lang, names.get) for c in found[:12])
        raise IllegalAction(msg("bot.menu.incomplete", so_far=" → ".join(picked), next=valid))

    async def _step_listing(self, interaction: discord.Interaction, path: list[str], found: list[Choice]) -> str:
        channel, who = interaction.channel_id or 0, who_of(interaction)
        row = await self.table.game_for(channel)
        lang = locale_of(interaction)
        if not found or row is None:
            return i18n.t(msg("bot.menu.nothing"), lang)
        names = await self.table.seat_names(row.id)
        labels, _, _ = await step_words(self.table, channel, who, row.game_type, path, found, lang, names)
        return ", ".join(labels.get(c.token) or i18n.t(c.label, lang, names.get) for c in found[:12])

    @act.autocomplete("action")
    async def act_autocomplete(self, interaction: discord.Interaction, current: str
                               ) -> list[app_commands.Choice[str]]:
        return await self.action_choices(interaction, current)

    async def action_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal actions now, as their game's commands word them, filtered by what they typed."""
        channel = interaction.channel_id or 0
        if await self.table.is_step_built(channel):
            return await self.step_choices(interaction, current)
        row = await self.table.game_for(channel)
        cog = cog_for(self.bot, row.game_type) if row is not None else None
        if cog is None:
            return []
        return await GameCog.complete(lambda: self._words_choices(cog, interaction, current))

    @staticmethod
    async def _words_choices(cog: GameCog, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        legal, view, names = await cog.seen(interaction)
        return cog.words.choices(legal, current, locale_of(interaction), names, view)

    async def step_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """A move built in steps: what may follow the words typed so far, filtered by the word being typed;
        a choice that completes the move offers the whole move."""
        lang, channel, who = locale_of(interaction), interaction.channel_id or 0, who_of(interaction)
        words = current.split()
        done, partial = (words, "") if not words or current.endswith(" ") else (words[:-1], words[-1].lower())
        found = await self.table.choices(channel, who, done)
        if isinstance(found, Action):
            return [app_commands.Choice(name=i18n.t(msg("bot.menu.whole_move"), lang), value=found.token()[:100])]
        row = await self.table.game_for(channel)
        names = await self.table.seat_names(row.id) if row else {}
        labels, _, _ = await step_words(self.table, channel, who, row.game_type if row else "", done, found, lang,
                                        names)
        result = []
        for choice in found:
            label = labels.get(choice.token) or i18n.t(choice.label, lang, names.get)
            if partial and partial not in choice.token.lower() and partial not in label.lower():
                continue
            path = [*done, choice.token]
            after = await self.table.choices(channel, who, path)
            value = after.token() if isinstance(after, Action) else " ".join(path) + " "
            if len(value) <= 100:
                description = i18n.t(choice.description, lang, names.get) if choice.description else ""
                result.append(app_commands.Choice(name=suggestion(label, description), value=value))
            if len(result) == 25:
                break
        return result

    @game_command(group, "cmd.game.view")
    async def view(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        try:
            await self.show_private(interaction)
        except NotSeated:  # someone not playing sees the public table (unless its players turned spectators off)
            await show_spectator(interaction, self.table)

    async def show_private(self, interaction: discord.Interaction) -> None:
        who = who_of(interaction)
        game_type, view, names = await self.table.private_view(interaction.channel_id or 0, who)
        row = await self.table.game_for(interaction.channel_id or 0)
        assert row is not None
        text, panel, file = await private_panel(self.table, interaction, row.id, row.version, game_type, view,
                                                names, locale_of(interaction), who)
        await reply(interaction, text, view=panel, file=file)

    @game_command(group, "cmd.game.undo")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.simple(interaction, self.table.undo)

    @game_command(group, "cmd.game.skip")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self.simple(interaction, self.table.skip)

    @game_command(group, "cmd.game.log")
    async def log_(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] = 1) -> None:
        await defer(interaction)
        result = await self.table.log(interaction.channel_id or 0, who_of(interaction), page)
        lang = locale_of(interaction)
        header = i18n.t(msg("bot.log.header", page=result.page, pages=result.pages), lang)
        body = lines([m for _, m in result.lines], lang, result.seat_names)
        await reply(interaction, f"{header}\n{body}")

    @game_command(group, "cmd.game.abandon")
    async def abandon(self, interaction: discord.Interaction) -> None:
        await ask_abandon(interaction, self.table)  # asks first; the Abandon button ends the game

    @game_command(group, "cmd.game.resign")
    async def resign(self, interaction: discord.Interaction) -> None:
        await ask_resign(interaction, self.table)  # asks first; the Resign button resigns

    @game_command(group, "cmd.game.replace", texts={"new_player": "cmd.game.replace.player"})
    async def replace(self, interaction: discord.Interaction, seat: str, new_player: discord.User) -> None:
        await replace_seat(interaction, self.table, seat, new_player)

    @replace.autocomplete("seat")
    async def replace_seat_autocomplete(self, interaction: discord.Interaction, current: str
                                        ) -> list[app_commands.Choice[str]]:
        return await seat_suggestions(interaction, self.table, current)

    @game_command(group, "cmd.game.list")
    async def list_(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        lang = locale_of(interaction)
        games = await self.table.list_games(interaction.guild_id)
        if not games:
            await reply(interaction, i18n.t(msg("bot.list.empty"), lang))
            return
        rows = []
        for g in games:
            game = registry.get(g.game_type)
            name = i18n.t(Msg(game.name_key), lang) if game else g.game_type
            status = i18n.t(Msg(f"bot.status.{g.status}"), lang)
            waiting = ", ".join(g.waiting_for) or "-"
            rows.append(i18n.t(msg("bot.list.row", game=name, channel=f"<#{g.channel_id}>", status=status,
                                   players=", ".join(g.players), waiting=waiting), lang))
        await reply(interaction, "\n".join(rows))

    @game_command(group, "cmd.game.help")
    async def help(self, interaction: discord.Interaction) -> None:
        await show_help(interaction, GENERAL)

    @game_command(group, "cmd.game.settings", choices={"language": catalog_choices("core.language.", ["es", "en"])},
                  texts={"reminder_minutes": "cmd.game.settings.reminder", "idle_hours": "cmd.game.settings.idle",
                         "timer_minutes": "cmd.game.settings.timer"})
    async def settings(self, interaction: discord.Interaction,
                       reminder_minutes: app_commands.Range[int, 1, 10080] | None = None,
                       idle_hours: app_commands.Range[int, 1, 720] | None = None,
                       timer_minutes: app_commands.Range[int, 0, 10080] | None = None,
                       language: str | None = None) -> None:
        """Anyone may read the server's settings; changing them is for those who manage the channel."""
        await defer(interaction)
        if interaction.guild_id is None:
            raise TableError(msg("bot.error.guild_only"))
        for value in (reminder_minutes, idle_hours, timer_minutes):
            if value is not None and not isinstance(value, int):
                raise BadOptions(msg("bot.error.option_format", part=str(value)[:50]))
        if language is not None and not isinstance(language, str):
            raise BadOptions(msg("bot.error.option_format", part=str(language)[:50]))
        changes = (reminder_minutes, idle_hours, timer_minutes, language)
        if all(value is None for value in changes):
            line = await self.table.settings_line(interaction.guild_id)
        else:
            line = await self.table.configure(interaction.guild_id, who_of(interaction),
                                              reminder_minutes=reminder_minutes, idle_hours=idle_hours,
                                              timer_minutes=timer_minutes, language=language)
        await reply(interaction, i18n.t(line, locale_of(interaction)))

    @game_command(group, "cmd.game.notify")
    async def notify(self, interaction: discord.Interaction, dms: bool | None = None,
                     pings: bool | None = None) -> None:
        """Each player's own DMs and pings on this server (without options: shows the current choice)."""
        await defer(interaction)
        if interaction.guild_id is None:
            raise TableError(msg("bot.error.guild_only"))
        for value in (dms, pings):
            if value is not None and not isinstance(value, bool):
                raise BadOptions(msg("bot.error.option_format", part=str(value)[:50]))
        now_dms, now_pings = await self.table.set_notify(interaction.guild_id, who_of(interaction), dms=dms,
                                                         pings=pings)
        line = msg("bot.notify.now", dms=msg("bot.notify.dms_on" if now_dms else "bot.notify.dms_off"),
                   pings=msg("bot.notify.pings_on" if now_pings else "bot.notify.pings_off"))
        await reply(interaction, i18n.t(line, locale_of(interaction)))

    # ---------------------------------------------------------------- buttons and menus

    @guarded
    async def on_action_click(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                              rest: str) -> None:
        await defer(interaction)
        if rest.startswith(PAGE):
            return await self.menu_page(interaction, game_id, version, rest[len(PAGE):])
        try:
            action = Action.from_token(rest)
        except ValueError as exc:
            raise BadOptions(msg("bot.error.action_format")) from exc
        report = await self.table.act(interaction.channel_id or 0, who_of(interaction), action,
                                      expected_version=version, game_id=game_id)
        await deliver(self.table, interaction, report)

    async def menu_page(self, interaction: discord.Interaction, game_id: int, version: int, where: str) -> None:
        """A menu's "more…" or "previous" entry: that page of the same menu of the panel, only to the clicker."""
        channel, who = interaction.channel_id or 0, who_of(interaction)
        row = await self.table.game_for(channel)
        if row is None or row.id != game_id or row.version != version:
            raise TableError(msg("core.error.stale"))
        slot, _, page = where.partition(".")
        menus = ui_for(row.game_type).menus(await self.table.legal(channel, who))
        if not (slot.isdecimal() and page.isdecimal() and int(slot) < len(menus)):
            raise TableError(msg("core.error.stale"))
        title, legal = menus[int(slot)]
        lang = locale_of(interaction)
        menu = actions_menu(game_id, version, int(slot), title, legal, lang, await self.table.seat_names(game_id),
                            int(page))
        if menu is None:
            raise TableError(msg("core.error.stale"))
        view = discord.ui.View(timeout=None)
        view.add_item(menu)
        await reply(interaction, i18n.t(title, lang), view=view)

    @guarded
    async def on_build_pick(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                            rest: str) -> None:
        """A step of a move built in steps was picked: the next menu, or the move itself once complete (a "more…"
        entry shows the next page of the same step)."""
        await defer(interaction)
        channel, who = interaction.channel_id or 0, who_of(interaction)
        row = await self.table.game_for(channel)
        if row is None or row.id != game_id or row.version != version:
            raise TableError(msg("core.error.stale"))
        path = [part for part in str(rest).split("/") if part][:32]
        page = 0
        if path and path[-1].startswith(PAGE):
            number = path.pop()[len(PAGE):]
            page = int(number) if number.isdecimal() else 0
        found = await self.table.choices(channel, who, path)
        if isinstance(found, Action):
            report = await self.table.act(channel, who, found, expected_version=version, game_id=game_id)
            await deliver(self.table, interaction, report)
            return
        if not found:
            raise TableError(msg("core.error.stale"))
        lang = locale_of(interaction)
        names = await self.table.seat_names(game_id)
        labels, picked, title = await step_words(self.table, channel, who, row.game_type, path, found, lang, names)
        view = build_view(game_id, version, path, found, lang, names, page=page, title=title, labels=labels)
        text = i18n.t(msg("bot.menu.so_far", so_far=" → ".join(picked), step=title), lang) if picked else title
        await reply(interaction, text, view=view)

    @guarded
    async def on_private_click(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                               rest: str) -> None:
        await defer(interaction)
        row = await self.table.game_for(interaction.channel_id or 0)
        if row is None or row.id != game_id:
            raise TableError(msg("core.error.stale"))
        await self.show_private(interaction)

    @guarded
    async def on_undo_click(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                            rest: str) -> None:
        await defer(interaction)
        row = await self.table.game_for(interaction.channel_id or 0)
        if row is None or row.id != game_id:
            raise TableError(msg("core.error.stale"))
        await self.simple(interaction, self.table.undo)

    @guarded
    async def on_skip_click(self, interaction: discord.Interaction, kind: str, game_id: int, version: int,
                            rest: str) -> None:
        await defer(interaction)
        report = await self.table.skip(interaction.channel_id or 0, who_of(interaction), expected_version=version)
        await deliver(self.table, interaction, report)

    # ---------------------------------------------------------------- play-by-post reminders

    @tasks.loop(seconds=60)
    async def reminders(self) -> None:
        try:
            due = await self.table.due_reminders()
        except Exception:
            log.exception("reminder scan failed")
            return
        for item in due:
            channel = self.bot.get_channel(item.channel_id)
            if channel is None:
                try:
                    channel = await self.bot.fetch_channel(item.channel_id)
                except discord.HTTPException:
                    continue
            if not isinstance(channel, discord.abc.Messageable):  # a forum or a category holds no messages
                log.warning("reminder to channel %s skipped: it takes no messages", item.channel_id)
                continue
            lang = await self._channel_lang(item.channel_id)
            langs = await self.table.langs_of(item.user_ids)
            quiet = {u for u, (_, pings) in (await self.table.notify_prefs(item.guild_id, item.user_ids)).items()
                     if not pings}
            names = item.seat_names
            by_user = dict(zip(item.user_ids, item.seats, strict=False))
            view = None
            parts = []
            for user_id in item.user_ids:  # each nudge speaks the language of the person it names
                mine = langs.get(user_id) or lang
                who = names.get(by_user.get(user_id, -1), "?") if user_id in quiet else f"<@{user_id}>"
                key = "bot.reminder.idle_to" if item.kind == "idle" else "bot.reminder.to"
                parts.append(i18n.t(msg(key, who=who), mine))
            if item.kind == "idle":
                custom_id = button_id("skip", item.game_id, item.version)
                if custom_id:  # the button is for the others at the table: the table's language
                    view = discord.ui.View(timeout=None)
                    label = i18n.t(msg("bot.button.skip"), lang)
                    view.add_item(GameButton(custom_id, label, discord.ButtonStyle.danger))
            pinged = [discord.Object(u) for u in item.user_ids if u not in quiet]
            try:
                kwargs: dict[str, Any] = {"view": view} if view else {}
                await channel.send("\n".join(parts)[:2000],  # a line per late player: never near the limit
                                   allowed_mentions=discord.AllowedMentions(users=pinged, roles=False, everyone=False),
                                   **kwargs)
            except discord.HTTPException as exc:
                log.warning("reminder to channel %s failed: %s", item.channel_id, exc)

    @reminders.before_loop
    async def before_reminders(self) -> None:
        await self.bot.wait_until_ready()

    # ---------------------------------------------------------------- games that stopped between moves

    @tasks.loop(seconds=60)
    async def resumer(self) -> None:
        """At start every running game waiting on an AI seat moves on; later, those whose AI moves stopped early."""
        try:
            stalled = await self.table.stalled_games(full=not self._scanned)
        except Exception:
            log.exception("scan for stalled games failed")
            return
        self._scanned = True
        for game_id in stalled:
            try:
                report = await self.table.resume(game_id)
                if report is not None:
                    await announce(self.bot, report, await self._channel_lang(report.channel_id), self.table)
            except Exception:
                log.exception("resuming game %s failed", game_id)

    @resumer.before_loop
    async def before_resumer(self) -> None:
        await self.bot.wait_until_ready()

    # ---------------------------------------------------------------- turn timers

    @tasks.loop(seconds=10)
    async def timers(self) -> None:
        """Whoever ran out of time gets the game's default move, announced in the channel."""
        try:
            reports = await self.table.due_timeouts()
        except Exception:
            log.exception("timer scan failed")
            return
        following: list[tuple[int, str]] = []
        for report in reports:
            lang = i18n.lang_of(None, None)
            try:
                lang = await self._channel_lang(report.channel_id)
                await announce(self.bot, report, lang, self.table)
            except Exception:
                log.exception("announcing a timeout in game %s failed", report.game_id)
            if report.pending_auto:
                following.append((report.game_id, lang))
        # Every time-out is told first; then the AI seats and the game's own steps after them, each its own commit
        # (a crash in between leaves a stalled game, which `resumer` moves on at the next start).
        for game_id, lang in following:
            try:
                follow = await self.table.resume(game_id)
                if follow is not None:
                    await announce(self.bot, follow, lang, self.table)
            except Exception:
                log.exception("resuming game %s after its time-out failed", game_id)

    @timers.before_loop
    async def before_timers(self) -> None:
        await self.bot.wait_until_ready()

    async def _channel_lang(self, channel_id: int) -> str:
        """The table's language for posts nobody asked for: the server's setting, then its Discord locale."""
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        settings = await self.table.guild_settings(getattr(guild, "id", None))
        locale = getattr(guild, "preferred_locale", None)
        return i18n.lang_of(settings.get("lang"), str(locale) if locale else None)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot, table_of(bot)))
