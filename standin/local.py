"""Local play: run the bot against the stand-in server over real sockets, driven by a REPL or a script."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import inspect
import logging
import os
import re
import sys
import textwrap
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn, TextIO

import discord

from standin.driver import Driver, DriverError, modal_keys, tokenize
from standin.patch import point_discord_at
from standin.server import StandinServer
from standin.validate import LOCALES
from standin.world import (
    LOADING,
    Channel,
    ErrorLogCatcher,
    Guild,
    Interaction,
    Message,
    Output,
    User,
    World,
    default_world,
    is_error_output,
    iter_components,
)

BotFactory = Callable[[], "discord.Client | Awaitable[discord.Client]"]
SHORT_LOCALES = {"en": "en-US", "es": "es-ES", "pt": "pt-BR", "sv": "sv-SE", "zh": "zh-CN"}
LINE = re.compile(
    r"^(?P<bang>!)?\s*(?:(?P<user>[\w.-]+)(?::(?P<locale>[\w-]+))?(?P<dm>@dm)?>)?\s*(?P<rest>.*)$"
)
MENTION = re.compile(r"<@(?P<kind>[!&]?)(?P<id>\d+)>|<#(?P<channel>\d+)>")
PACK_OPTIONS = 15  # longer menus are printed several options to a line
HELP = """How to type: each line acts as the user in the prompt (alice at first).
  /game new game:hero-realms ai:1     run a slash command: /name subcommand option:value ...
  /hr attack target:"Ada (bot)"        quote a value that has spaces or colons ("..." or '...')
  click Play all                      press the button labelled "Play all" on the newest message with it
  pick 2  /  pick Play Gold           choose option 2, or the option labelled "Play Gold", of the newest menu
  bob>                                switch to bob (a user is created the first time you name them)
  bob> /game join                     act as bob, and stay bob
  bob:es> /game join                  bob with a Spanish Discord client (and `locale es` for the current user)
  bob@dm> /game status                act in bob's DMs with the bot
  submit "Your thoughts=nice"         fill in and send the form (modal) the bot opened for you
  select <menu> <value>...            choose several values of one menu at once (label, value or custom_id)
  !bob> /game join                    in a --script: this line is EXPECTED to get an error reply
  users | help | quit                 who is here and their languages; this help; leave ('#' starts a comment)
When the bot pings a player ("👉 @bob — your turn!") the prompt switches to them."""


class LiveDiscord(Driver):
    """The bot runs `bot.start(token)` against a StandinServer over real HTTP and websocket connections."""

    def __init__(
        self,
        bot_factory: BotFactory,
        *,
        world: World | None = None,
        guild: Guild | None = None,
        channel: Channel | None = None,
        sync_commands: bool | None = None,
        settle_timeout: float = 15.0,
        quiet_period: float = 0.15,
        ready_timeout: float = 30.0,
    ) -> None:
        if world is None:
            world, guild, channel = default_world()
        super().__init__(world, guild, channel)
        self.bot_factory = bot_factory
        self.sync_commands = sync_commands
        self.settle_timeout = settle_timeout
        self.quiet_period = quiet_period
        self.ready_timeout = ready_timeout
        self.server = StandinServer(self.world)
        self.bot: Any = None
        self.bot_task: asyncio.Task[None] | None = None
        self._undo: Callable[[], None] | None = None
        self._log_catcher = ErrorLogCatcher(self.world)

    async def __aenter__(self) -> LiveDiscord:
        try:
            await self.start()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def start(self) -> None:
        base = await self.server.start()
        self._undo = point_discord_at(base)
        logging.getLogger().addHandler(self._log_catcher)
        made = self.bot_factory()
        self.bot = await made if inspect.isawaitable(made) else made
        self.bot_task = asyncio.create_task(self.bot.start(self.world.token), name="standin-bot")
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self.bot_task}, timeout=self.ready_timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if self.bot_task in done:
                self.bot_task.result()
            raise TimeoutError(f"bot not ready after {self.ready_timeout}s")
        wants_sync = self.sync_commands or (self.sync_commands is None and not self.world.global_commands)
        if wants_sync and hasattr(self.bot, "tree"):
            await self.bot.tree.sync()
        await self.settle()

    async def close(self) -> None:
        try:
            if self.bot is not None:
                await self.bot.close()
            if self.bot_task is not None:
                await asyncio.wait_for(self.bot_task, 10)
        finally:
            await self.server.stop()
            logging.getLogger().removeHandler(self._log_catcher)
            if self._undo is not None:
                self._undo()

    async def deliver(self, inter: Interaction, payload: dict[str, Any]) -> None:
        self.server.dispatch("INTERACTION_CREATE", payload)
        await self.settle(inter)

    def _crashed(self) -> bool:
        task = self.bot_task
        return task is not None and task.done() and (task.cancelled() or task.exception() is not None)

    def _waiting_on(self, inter: Interaction | None) -> bool:
        if inter is None:
            return False
        if not inter.responded:
            return self.world.clock() - inter.created_at <= self.world.interaction_deadline
        original = self.world.messages.get(inter.original_message_id or 0)
        return inter.response_type == 5 and original is not None and bool(original.flags & LOADING)

    async def settle(self, inter: Interaction | None = None) -> None:
        """Wait for the interaction's answer, then for REST traffic to stay quiet for `quiet_period`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settle_timeout
        self.server.last_activity = loop.time()
        while loop.time() < deadline and not self._crashed():
            await asyncio.sleep(0.02)
            quiet = self.server.in_flight == 0 and loop.time() - self.server.last_activity >= self.quiet_period
            # A bot that says how many commands it is still handling (its AI seats moving after a person's answer)
            # is waited for: silence on the wire alone does not mean it is done.
            busy = bool(getattr(self.bot, "busy", 0)) if self.bot is not None else False
            if quiet and not busy and not self._waiting_on(inter):
                break
        else:
            if self._crashed():
                task = self.bot_task
                reason = "cancelled" if task is None or task.cancelled() else repr(task.exception())
                self.world.problem(f"the bot stopped: {reason}")
            elif inter is not None and inter.response_type == 5:
                self.world.problem(f"deferred interaction {inter.id} never got its followup")
        self.world.check_deadlines()


def _no_bot_here() -> NoReturn:
    raise RuntimeError("a SharedStandin starts no bot: bot processes started elsewhere connect to it")


class SharedStandin(LiveDiscord):
    """A stand-in server that bot processes started elsewhere connect to (`bot.py --standin URL`):
    several processes, each owning some shards, behind one fake Discord."""

    def __init__(self, *, world: World | None = None, guild: Guild | None = None, channel: Channel | None = None,
                 settle_timeout: float = 30.0, quiet_period: float = 0.3) -> None:
        super().__init__(_no_bot_here, world=world, guild=guild, channel=channel, settle_timeout=settle_timeout,
                         quiet_period=quiet_period)

    async def start(self) -> None:
        await self.server.start()
        logging.getLogger().addHandler(self._log_catcher)

    async def wait_for_bots(self, count: int, timeout: float = 60.0) -> None:
        """Until `count` gateway sessions are connected and the slash commands are synced."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.server.sessions) < count or not self.world.global_commands:
            if loop.time() > deadline:
                raise TimeoutError(f"{len(self.server.sessions)} of {count} bots connected after {timeout}s")
            await asyncio.sleep(0.05)
        await self.settle()

    async def close(self) -> None:
        try:
            await self.server.stop()
        finally:
            logging.getLogger().removeHandler(self._log_catcher)


def _channel_label(world: World, channel_id: int) -> str:
    ch = world.channels.get(channel_id)
    return f"#{ch.name}" if ch and ch.name else "DM"


def readable(world: World, text: str) -> str:
    """Discord's mention markup as a person sees it: <@123> -> @alice, <@&5> -> @role, <#7> -> #mesa."""

    def name(match: re.Match[str]) -> str:
        if match["channel"]:
            ch = world.channels.get(int(match["channel"]))
            return match[0] if ch is None else f"#{ch.name or 'DM'}"
        ident = int(match["id"])
        if match["kind"] == "&":
            role = next((g.roles[ident] for g in world.guilds.values() if ident in g.roles), None)
            return f"@{role.name}" if role else match[0]
        user = world.users.get(ident)
        return f"@{user.name}" if user else match[0]

    return MENTION.sub(name, text)


def mentioned_users(world: World, text: str) -> list[str]:
    """Names of the people (not bots) a text pings, in order."""
    ids = [int(m["id"]) for m in MENTION.finditer(text) if m["id"] and m["kind"] != "&"]
    return [world.users[i].name for i in ids if i in world.users and not world.users[i].bot]


def _highest_number(folder: Path) -> int:
    """The largest NNN of the NNN-name files already in the folder (0 if none)."""
    if not folder.is_dir():
        return 0
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := re.match(r"(\d+)-", p.name))]
    return max(numbers, default=0)


def _component_lines(msg: Message, explain_menus: bool) -> list[str]:
    """Buttons one row to a line, menus with their options numbered the way `pick N` counts them."""
    lines: list[str] = []
    number = 0

    def walk(items: list[dict[str, Any]]) -> None:
        nonlocal number
        buttons: list[str] = []
        for c in items:
            kind = c.get("type")
            if kind == 2:
                label = c.get("label") or c.get("custom_id") or (c.get("url") and "link") or "?"
                buttons.append(f"[{label}{' (disabled)' if c.get('disabled') else ''}]")
                continue
            if buttons:
                lines.append(" ".join(buttons))
                buttons = []
            if kind == 1:
                walk(c.get("components", []))
            elif kind == 3:
                title = c.get("placeholder") or c.get("custom_id")
                if c.get("disabled"):
                    lines.append(f"[{title} v] (disabled)")
                    continue
                hint = "  (choose: pick <number> or pick <label>)" if explain_menus and number == 0 else ""
                lines.append(f"[{title} v]{hint}")
                options = []
                for option in c.get("options", []):
                    number += 1
                    about = f" - {option['description']}" if option.get("description") else ""
                    options.append(f"{number}. {option.get('label')}{about}")
                if len(options) <= PACK_OPTIONS:
                    lines.extend(f"  {o}" for o in options)
                else:
                    lines.extend(textwrap.wrap("   ".join(options), 110, initial_indent="  ",
                                               subsequent_indent="  ", break_long_words=False))
            elif kind in (5, 6, 7, 8):
                lines.append(f"[{c.get('placeholder') or c.get('custom_id')} v]  (select {c.get('custom_id')} <id>)")
            elif kind == 10 and c.get("content"):
                lines.extend(str(c["content"]).splitlines())
            else:
                walk(c.get("components", []))
                if isinstance(c.get("accessory"), dict):
                    walk([c["accessory"]])
        if buttons:
            lines.append(" ".join(buttons))

    walk(msg.components)
    return lines


class Printer:
    """Prints every bot output with its audience, names for mentions, and saves images to `images_dir`.

    Images get the next free number in the folder, so nothing a previous run saved there is overwritten."""

    def __init__(self, world: World, images_dir: str, out: TextIO) -> None:
        self.world, self.out = world, out
        self.images_dir = Path(images_dir)
        self.saved: list[Path] = []
        self._number = _highest_number(self.images_dir)
        self.menus_explained = False
        self.waiting: Callable[[], str] | None = None  # while a line is awaited: what the prompt says now

    def __call__(self, output: Output) -> None:
        world = self.world
        who = world.users[output.recipient_id].name if output.recipient_id in world.users else "?"
        kind = output.kind
        if kind == "edit":
            msg = world.messages[output.message_id]
            base, _ = world.visible_kind(msg)
            prefix = "[edit " + (
                f"ephemeral -> {who}]" if base == "ephemeral" else f"{_channel_label(world, output.channel_id)}]"
            )
            if base == "dm":
                prefix = f"[edit DM -> {who}]"
        elif kind == "ephemeral":
            prefix = f"[ephemeral -> {who}]"
        elif kind == "dm":
            prefix = f"[DM -> {who}]"
        else:
            prefix = f"[{_channel_label(world, output.channel_id)}] bot:"
        lines = readable(world, output.body()).splitlines()
        message = world.messages.get(output.message_id)
        if message is not None:
            lines += _component_lines(message, not self.menus_explained)
            self.menus_explained = self.menus_explained or any(
                c.get("type") == 3 for c in iter_components(message.components))
        else:
            lines += [f"[{label or cid}]" for cid, label in output.components]
        if self.waiting is not None:
            print(file=self.out)  # the bot spoke while the prompt waits: start below it
        lines = lines or [""]
        print(f"{prefix} {lines[0]}", file=self.out)
        for line in lines[1:]:
            print(f"    {line}", file=self.out)
        for name, data in output.attachments:
            path = self._save(name, data)
            print(f"    [attachment] {path}", file=self.out)
        if self.waiting is not None:
            print(self.waiting(), end="", file=self.out, flush=True)

    def _save(self, name: str, data: bytes) -> Path:
        self.images_dir.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^\w.-]", "_", Path(name).name) or "file"
        while True:
            self._number += 1
            path = self.images_dir / f"{self._number:03d}-{safe}"
            try:
                with path.open("xb") as handle:  # never overwrite, even a file another run just wrote
                    handle.write(data)
            except FileExistsError:
                continue
            self.saved.append(path)
            return path


def _short_locale(locale: str) -> str:
    return next((short for short, full in SHORT_LOCALES.items() if full == locale), locale)


class Session:
    """Interprets typed or scripted lines against a LiveDiscord; tracks the current user and whether a script failed."""

    def __init__(self, live: LiveDiscord, out: TextIO, *, stop_on_error: bool, user: str = "alice") -> None:
        self.live, self.out = live, out
        self.stop_on_error = stop_on_error
        self.current = user
        self.failure: str | None = None
        self.lines = self.errors_expected = 0

    def say(self, text: str) -> None:
        print(text, file=self.out)

    @property
    def interactions(self) -> int:
        return len(self.live.world.interactions)

    def prompt(self) -> str:
        """`alice> `, or `carol:es> ` for a user whose Discord speaks another language."""
        user = self.live.world.user_named(self.current)
        code = _short_locale(user.locale) if user is not None and user.locale != "en-US" else ""
        return f"{self.current}{':' + code if code else ''}> "

    def follow(self, output: Output) -> None:
        """When the bot pings players in a channel and the current user is not one of them, type as the first."""
        if output.kind != "channel":
            return
        pinged = mentioned_users(self.live.world, output.content)
        if pinged and self.current not in pinged:
            self.current = pinged[0]

    async def run_line(self, number: int, raw: str) -> bool:
        """Run one line; False means stop (quit, or a failure in script mode)."""
        line = raw.strip()
        if not line or line.startswith("#"):
            if line and self.stop_on_error:
                self.say(line)
            return True
        self.lines += 1
        words = line.split()
        if words[0] in ("quit", "exit") and len(words) == 1:
            return False
        if words[0] == "help" and len(words) == 1:
            self.say(HELP)
            return True
        if words[0] == "users" and len(words) == 1:
            guild = self.live.guild
            members = [m.user for m in guild.members.values() if not m.user.bot] if guild else []
            names = [f"{u.name} ({u.locale}{', server owner' if guild and u.id == guild.owner_id else ''})"
                     for u in members]
            self.say("users: " + ", ".join(names))
            return True
        if words[0] == "locale" and len(words) in (2, 3):
            name, code = (self.current, words[1]) if len(words) == 2 else (words[1], words[2])
            return self._fail_or_go(number, self._set_locale(name, code))
        match = LINE.match(line)
        if match is None or (not match["user"] and not match["rest"]):
            return self._fail_or_go(number, f"cannot read {line!r}; type help")
        if match["user"]:
            if match["locale"]:
                problem = self._set_locale(match["user"], match["locale"])
                if problem:
                    return self._fail_or_go(number, problem)
            self.live.user(match["user"])
            self.current = match["user"]
        if not match["rest"]:
            return True
        if self.stop_on_error:
            self.say(f"> {line}")
        problems_before = len(self.live.world.problems)
        try:
            outputs = await self._act(match["rest"].strip(), "dm" if match["dm"] else None)
        except (DriverError, discord.DiscordException) as exc:
            return self._fail_or_go(number, str(exc))
        self._show_modal(self.live.last_interaction)
        return self._fail_or_go(number, self._judge(match["bang"] is not None, outputs, problems_before))

    def _show_modal(self, inter: Interaction | None) -> None:
        if inter is None or inter.modal is None or inter.modal_submitted:
            return
        keys = [k for c in inter.modal.get("components", []) for k in sorted(modal_keys(c))]
        who = self.live.world.users[inter.user_id].name
        self.say(f"[modal -> {who}] {inter.modal.get('title')}: fields {keys} (answer with: {who}> submit key=value)")

    def _set_locale(self, name: str, code: str) -> str | None:
        locale = SHORT_LOCALES.get(code, code)
        if locale not in LOCALES:
            return f"unknown locale {code!r}; for example es or en"
        self.live.user(name, locale=locale)
        return None

    async def _act(self, rest: str, channel: str | None) -> list[Output]:
        user = self.live.user(self.current)
        if rest.startswith("/"):
            return await self.live.command(user, rest, channel=channel)
        verb, _, arg = rest.partition(" ")
        arg = arg.strip()
        if verb == "click" and arg:
            return await self._click(user, " ".join(tokenize(arg)))
        if verb == "pick" and arg:
            return await self.live.pick(user, " ".join(tokenize(arg)))
        if verb == "select" and arg:
            parts = tokenize(arg)
            if len(parts) < 2:
                raise DriverError("select needs a menu (its custom_id or placeholder) and at least one value")
            return await self.live.select(user, None, parts[0], parts[1:])
        if verb == "submit" and arg:
            fields: dict[str, str | list[str]] = {k: v for k, _, v in (part.partition("=") for part in tokenize(arg))}
            return await self.live.submit_modal(user, fields)
        raise DriverError(f"cannot read {rest!r}: expected /command, click, pick, select or submit; type help")

    async def _click(self, user: User, key: str) -> list[Output]:
        """A button by label or custom_id; failing that, a menu option with that label (people click those too)."""
        try:
            return await self.live.click(user, None, key)
        except DriverError as no_button:
            if key.isdigit():
                raise
            try:
                self.live.find_option(user, key)
            except DriverError:
                raise no_button from None
            return await self.live.pick(user, key)

    def _judge(self, expect_error: bool, outputs: list[Output], problems_before: int) -> str | None:
        problems = self.live.world.problems[problems_before:]
        if problems:
            return "; ".join(problems)
        errors = [o for o in outputs if is_error_output(o)]
        if expect_error and not errors:
            return "expected an error reply but got none"
        if errors and not expect_error and self.stop_on_error:
            return f"error reply: {errors[0].text().splitlines()[0]}"
        self.errors_expected += bool(expect_error)
        return None

    def _fail_or_go(self, number: int, failure: str | None) -> bool:
        if failure is None:
            return True
        if not self.stop_on_error:
            self.say(f"!! {failure}")
            return True
        self.say(f"!! line {number}: {failure}")
        self.failure = f"line {number}: {failure}"
        return False


class LineReader:
    """Reads lines in a daemon thread, so a pending read never keeps the process alive after quit or Ctrl-C.

    On a terminal it uses input() (line editing and history); otherwise it prints the prompt and echoes the line,
    so piped input reads like a session typed by hand."""

    def __init__(self, stream: TextIO, out: TextIO) -> None:
        self.stream, self.out = stream, out
        self.tty = stream is sys.stdin and out is sys.stdout and stream.isatty()
        if self.tty:
            with contextlib.suppress(ImportError):
                importlib.import_module("readline")  # gives input() line editing and history

    async def read(self, prompt: str) -> str | None:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str | None] = loop.create_future()

        def deliver(text: str | None) -> None:
            if not answer.done():
                answer.set_result(text)

        def work() -> None:
            try:
                text: str | None = input(prompt) if self.tty else self.stream.readline()
            except Exception:  # EOFError (Ctrl-D) or a closed stream: either way, the session ends
                text = None
            if text == "" and not self.tty:
                text = None
            with contextlib.suppress(RuntimeError):  # the loop closed while we waited for the keyboard
                loop.call_soon_threadsafe(deliver, text)

        if not self.tty:
            print(prompt, end="", file=self.out, flush=True)
        threading.Thread(target=work, name="standin-stdin", daemon=True).start()
        text = await answer
        if not self.tty:
            print(text.rstrip("\n") if text is not None else "", file=self.out, flush=True)
        elif text is None:
            print(file=self.out, flush=True)  # Ctrl-D: end the prompt's line
        return text


async def run_local_async(
    bot_factory: BotFactory,
    script_path: str | None,
    images_dir: str,
    *,
    out: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Run a script (exit status 0/1) or, without one, a prompt on stdin. Returns the exit status."""
    out = out or sys.stdout
    live = LiveDiscord(bot_factory)
    printer = Printer(live.world, images_dir, out)
    session = Session(live, out, stop_on_error=script_path is not None)
    live.world.listeners += [session.follow, printer]  # follow first: a prompt printed again names the right user
    print(f"standin: images are saved in {printer.images_dir.resolve()}", file=out)
    try:
        await live.start()
        commands = ", ".join(sorted(f"/{c['name']}" for c in live.world.global_commands))
        print(f"standin: bot ready at {live.server.base_url}, {len(live.world.global_commands)} commands synced"
              f"{': ' + commands if commands else ''}", file=out)
        if script_path is not None:
            for number, raw in enumerate(Path(script_path).read_text().splitlines(), 1):
                if not await session.run_line(number, raw):
                    break
        else:
            print("standin: type as a user, e.g.  alice> /game new game:hero-realms ai:1   "
                  "('help' shows how to click, pick and switch users; 'quit' leaves)", file=out)
            reader = LineReader(stdin or sys.stdin, out)
            while True:
                printer.waiting = session.prompt
                typed = await reader.read(session.prompt())
                printer.waiting = None
                if typed is None or not await session.run_line(0, typed):
                    break
    except Exception as exc:
        session.failure = session.failure or f"crash: {exc!r}"
    finally:
        printer.waiting = None
        try:
            await live.close()
        except Exception as exc:
            session.failure = session.failure or f"crash on shutdown: {exc!r}"
    if session.failure is None and script_path is not None and live.world.problems:
        session.failure = "; ".join(live.world.problems)
    status = "OK" if session.failure is None else f"FAILED ({session.failure})"
    print(
        f"standin: {session.lines} lines, {session.interactions} interactions, {len(live.world.outputs)} outputs, "
        f"{len(printer.saved)} attachments saved in {printer.images_dir}, {len(live.world.problems)} problems"
        f" - {status}",
        file=out,
    )
    return 0 if session.failure is None else 1


def run_local(bot_factory: BotFactory, script_path: str | None, images_dir: str) -> int:
    """Blocking entry point for local play; returns the process exit status."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    _quiet_discord_logs()
    try:
        return asyncio.run(run_local_async(bot_factory, script_path, images_dir))
    except KeyboardInterrupt:
        print("\nstandin: interrupted", flush=True)
        return 130


class _OfflineNoise(logging.Filter):
    """Drops discord.py's start-up chatter that means nothing offline (voice libraries, gateway hellos)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        text = record.getMessage()
        return "voice will NOT be supported" not in text and record.levelno > logging.INFO


def _quiet_discord_logs() -> None:
    if "LOG_LEVEL" in os.environ:  # someone asked for these logs
        return
    for name in ("discord.client", "discord.gateway", "discord.http", "discord.shard"):
        logging.getLogger(name).addFilter(_OfflineNoise())


def load_factory(spec: str) -> BotFactory:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "make_bot")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play with the bot against the offline Discord stand-in.")
    parser.add_argument("factory", help="module:function returning the bot, e.g. bot:make_bot")
    parser.add_argument("--script", help="replay this transcript instead of reading the terminal")
    parser.add_argument("--images", default="standin-images", help="where attachments are saved")
    args = parser.parse_args(argv)
    return run_local(load_factory(args.factory), args.script, args.images)


if __name__ == "__main__":
    sys.exit(main())
