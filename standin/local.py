"""Local play: run the bot against the stand-in server over real sockets, driven by a REPL or a script."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import logging
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

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
    Output,
    World,
    default_world,
    is_error_output,
)

BotFactory = Callable[[], "discord.Client | Awaitable[discord.Client]"]
SHORT_LOCALES = {"en": "en-US", "es": "es-ES", "pt": "pt-BR", "sv": "sv-SE", "zh": "zh-CN"}
LINE = re.compile(r"^(?P<bang>!)?\s*(?P<user>[\w.-]+)(?::(?P<locale>[\w-]+))?(?P<dm>@dm)?>\s*(?P<rest>.*)$")
HELP = """lines:
  alice> /game new game:hero-realms      run a slash command as alice (created on first mention)
  alice:es> /game join                   ... with alice's locale set to es-ES
  alice@dm> /game status                 ... in alice's DM channel with the bot
  bob> click <custom_id or label>        press a button on the latest message bob can see
  bob> select <custom_id> <value>...     choose values in a select menu
  bob> submit <field>="text" ...         submit the modal the bot showed bob (field = custom_id or label)
  !bob> /game join                       this line is EXPECTED to get an error reply
  locale alice es | users | help | quit  meta commands; '#' starts a comment"""


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
            if quiet and not self._waiting_on(inter):
                break
        else:
            if self._crashed():
                task = self.bot_task
                reason = "cancelled" if task is None or task.cancelled() else repr(task.exception())
                self.world.problem(f"the bot stopped: {reason}")
            elif inter is not None and inter.response_type == 5:
                self.world.problem(f"deferred interaction {inter.id} never got its followup")
        self.world.check_deadlines()


def _channel_label(world: World, channel_id: int) -> str:
    ch = world.channels.get(channel_id)
    return f"#{ch.name}" if ch and ch.name else "DM"


class Printer:
    """Prints every bot output with its audience and saves attachments to `images_dir`."""

    def __init__(self, world: World, images_dir: str, out: TextIO) -> None:
        self.world, self.out = world, out
        self.images_dir = Path(images_dir)
        self.saved: list[Path] = []

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
        lines = output.text().splitlines() or [""]
        print(f"{prefix} {lines[0]}", file=self.out)
        for line in lines[1:]:
            print(f"    {line}", file=self.out)
        for name, data in output.attachments:
            self.images_dir.mkdir(parents=True, exist_ok=True)
            path = self.images_dir / f"{len(self.saved) + 1:03d}-{name}"
            path.write_bytes(data)
            self.saved.append(path)
            print(f"    [attachment] {path}", file=self.out)


class Session:
    """Interprets transcript lines against a LiveDiscord; tracks whether the script failed."""

    def __init__(self, live: LiveDiscord, out: TextIO, *, stop_on_error: bool) -> None:
        self.live, self.out = live, out
        self.stop_on_error = stop_on_error
        self.failure: str | None = None
        self.lines = self.interactions = self.errors_expected = 0

    def say(self, text: str) -> None:
        print(text, file=self.out)

    async def run_line(self, number: int, raw: str) -> bool:
        """Run one line; False means stop (quit, or a failure in script mode)."""
        line = raw.strip()
        if not line or line.startswith("#"):
            if line:
                self.say(line)
            return True
        self.lines += 1
        words = line.split()
        if words[0] in ("quit", "exit"):
            return False
        if words[0] == "help":
            self.say(HELP)
            return True
        if words[0] == "users":
            guild = self.live.guild
            names = (
                [f"{m.user.name} ({m.user.locale})" for m in guild.members.values() if not m.user.bot] if guild else []
            )
            self.say("users: " + ", ".join(names))
            return True
        if words[0] == "locale" and len(words) == 3:
            return self._fail_or_go(number, self._set_locale(words[1], words[2]))
        match = LINE.match(line)
        if match is None:
            return self._fail_or_go(number, f"cannot read {line!r}; type help")
        self.say(f"> {line}")
        problems_before = len(self.live.world.problems)
        try:
            outputs = await self._act(match)
        except (DriverError, discord.DiscordException) as exc:
            return self._fail_or_go(number, str(exc))
        self._show_modal(self.live.last_interaction)
        return self._fail_or_go(number, self._judge(match["bang"] is not None, outputs, problems_before))

    def _show_modal(self, inter: Interaction | None) -> None:
        if inter is None or inter.modal is None:
            return
        keys = [k for c in inter.modal.get("components", []) for k in sorted(modal_keys(c))]
        who = self.live.world.users[inter.user_id].name
        self.say(f"[modal -> {who}] {inter.modal.get('title')}: fields {keys} (answer with: {who}> submit key=value)")

    def _set_locale(self, name: str, code: str) -> str | None:
        locale = SHORT_LOCALES.get(code, code)
        if locale not in LOCALES:
            return f"unknown locale {code!r}"
        self.live.user(name, locale=locale)
        return None

    async def _act(self, match: re.Match[str]) -> list[Output]:
        if match["locale"]:
            problem = self._set_locale(match["user"], match["locale"])
            if problem:
                raise DriverError(problem)
        user = self.live.user(match["user"])
        rest = match["rest"].strip()
        channel = "dm" if match["dm"] else None
        self.interactions += 1
        if rest.startswith("/"):
            return await self.live.command(user, rest, channel=channel)
        verb, _, arg = rest.partition(" ")
        if verb == "click" and arg:
            key = tokenize(arg)
            return await self.live.click(user, None, " ".join(key))
        if verb == "select" and arg:
            parts = tokenize(arg)
            if len(parts) < 2:
                raise DriverError("select needs a custom_id and at least one value")
            return await self.live.select(user, None, parts[0], parts[1:])
        if verb == "submit" and arg:
            fields = dict(part.partition("=")[::2] for part in tokenize(arg))
            return await self.live.submit_modal(user, fields)  # type: ignore[arg-type]
        raise DriverError(f"cannot read {rest!r}: expected /command, click, select or submit")

    def _judge(self, expect_error: bool, outputs: list[Output], problems_before: int) -> str | None:
        problems = self.live.world.problems[problems_before:]
        if problems:
            return "; ".join(problems)
        errors = [o for o in outputs if is_error_output(o)]
        if expect_error and not errors:
            return "expected an error reply but got none"
        if errors and not expect_error:
            return f"error reply: {errors[0].text().splitlines()[0]}"
        self.errors_expected += bool(expect_error)
        return None

    def _fail_or_go(self, number: int, failure: str | None) -> bool:
        if failure is None:
            return True
        self.say(f"!! line {number}: {failure}")
        if self.stop_on_error:
            self.failure = f"line {number}: {failure}"
            return False
        return True


async def run_local_async(
    bot_factory: BotFactory, script_path: str | None, images_dir: str, *, out: TextIO | None = None
) -> int:
    """Run a script (exit status 0/1) or, without one, a REPL on stdin. Returns the exit status."""
    out = out or sys.stdout
    live = LiveDiscord(bot_factory)
    printer = Printer(live.world, images_dir, out)
    live.world.listeners.append(printer)
    session = Session(live, out, stop_on_error=script_path is not None)
    try:
        await live.start()
        print(
            f"standin: bot ready at {live.server.base_url}, {len(live.world.global_commands)} commands synced", file=out
        )
        if script_path is not None:
            for number, raw in enumerate(Path(script_path).read_text().splitlines(), 1):
                if not await session.run_line(number, raw):
                    break
        else:
            print(HELP, file=out)
            while True:
                raw = await asyncio.to_thread(sys.stdin.readline)
                if not raw or not await session.run_line(0, raw):
                    break
    except Exception as exc:
        session.failure = session.failure or f"crash: {exc!r}"
    finally:
        try:
            await live.close()
        except Exception as exc:
            session.failure = session.failure or f"crash on shutdown: {exc!r}"
    if session.failure is None and script_path is not None and live.world.problems:
        session.failure = "; ".join(live.world.problems)
    status = "OK" if session.failure is None else f"FAILED ({session.failure})"
    print(
        f"standin: {session.lines} lines, {session.interactions} interactions, {len(live.world.outputs)} outputs, "
        f"{len(printer.saved)} attachments saved, {len(live.world.problems)} problems - {status}",
        file=out,
    )
    return 0 if session.failure is None else 1


def run_local(bot_factory: BotFactory, script_path: str | None, images_dir: str) -> int:
    """Blocking entry point for local play; returns the process exit status."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    return asyncio.run(run_local_async(bot_factory, script_path, images_dir))


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
