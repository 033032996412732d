"""Socket-free mode: rest.py answers the bot's HTTP session and gateway events go straight to its parsers."""

from __future__ import annotations

import asyncio
import contextvars
import http
import inspect
import json
import logging
import re
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

import discord
import orjson
import yarl
from discord.http import Route
from discord.shard import Shard
from multidict import CIMultiDict, CIMultiDictProxy

from standin import rest
from standin.driver import APP_COMMAND, Driver
from standin.world import Channel, ErrorLogCatcher, Guild, Interaction, Output, User, World, default_world

log = logging.getLogger("standin.inprocess")
BotFactory = Callable[[], "discord.Client | Awaitable[discord.Client]"]
_scope: contextvars.ContextVar[bool] = contextvars.ContextVar("standin_scope", default=False)
# The tasks one `command_alone` call started, including those its tasks started in turn.
_owner: contextvars.ContextVar[set[asyncio.Task[Any]] | None] = contextvars.ContextVar("standin_owner", default=None)
# Coroutines that legitimately stay pending after an interaction has been handled.
_LONG_LIVED = ("timeout_task_impl", "Loop._loop", "_delay_ready", "_delay_shard_ready", "Shard.worker")
# Frames in which a task is waiting for the next user action, not working.
_WAITING_FOR_USER = ("BaseView.wait", "Modal.wait", "Client.wait_for")


class SettleTimeout(AssertionError):
    """The bot kept working (or hung) longer than the settle timeout after an interaction."""


class StandinProblems(AssertionError):
    """Unknown routes, unanswered interactions or errors logged by the bot during the session."""


class FakeResponse:
    """Just enough of aiohttp.ClientResponse for discord.py's request loops and error classes."""

    def __init__(self, resp: rest.Response, method: str, url: str) -> None:
        self.status = resp.status
        self.reason = http.HTTPStatus(resp.status).phrase
        self.method = method
        self.url = yarl.URL(url)
        headers = CIMultiDict(resp.headers)
        if isinstance(resp.body, bytes):
            self._body = resp.body
        elif resp.body is None:
            self._body = b""
        else:
            self._body = _dumps(resp.body)
            headers["Content-Type"] = "application/json"
        self.headers = CIMultiDictProxy(headers)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._body.decode(encoding)

    async def read(self) -> bytes:
        return self._body

    async def json(self) -> Any:
        return json.loads(self._body or b"null")

    async def __aenter__(self) -> FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _RequestContext:
    def __init__(self, session: FakeSession, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self._args = (session, method, url, kwargs)

    async def __aenter__(self) -> FakeResponse:
        session, method, url, kwargs = self._args
        return await session.serve(method, url, **kwargs)

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeSession:
    """Replaces the bot's aiohttp.ClientSession; every request is answered by rest.handle over the world."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.closed = False
        self.in_flight = 0

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self, method, str(url), kwargs)

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    async def serve(self, method: str, url: str, **kwargs: Any) -> FakeResponse:
        self.in_flight += 1
        try:
            # A real request always yields to the loop at least once.
            await asyncio.sleep(0)
            body, ctype = await _encode(kwargs.get("data"), kwargs.get("json"))
            parsed = yarl.URL(url)
            query = {k: str(v) for k, v in (kwargs.get("params") or {}).items()} | dict(parsed.query)
            match = re.match(r"^/attachments/(\d+)/", parsed.path)
            if match:
                att = self.world.attachments.get(int(match.group(1)))
                failure = self.world.download_failures.pop(0) if self.world.download_failures else None
                if failure == "hang":
                    await asyncio.sleep(3600)
                status = 200 if att else 404
                if isinstance(failure, int):
                    att, status = None, failure
                return FakeResponse(rest.Response(status, att.data if att else b""), method, url)
            headers = dict(kwargs.get("headers") or {})
            resp = rest.handle(
                self.world, method, parsed.path, query=query, headers=headers, body=body, content_type=ctype
            )
            return FakeResponse(resp, method, url)
        finally:
            self.in_flight -= 1

    async def close(self) -> None:
        self.closed = True

    async def ws_connect(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the in-process stand-in has no websocket; use standin.server for that")


def _dumps(body: Any) -> bytes:
    """Discord's side of a response: encoded quickly, so that measuring through the stand-in counts the bot's
    work rather than the stand-in's."""
    try:
        return orjson.dumps(body)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(body).encode()


async def _encode(data: Any, json_body: Any) -> tuple[bytes, str | None]:
    if json_body is not None:
        return json.dumps(json_body).encode(), "application/json"
    if data is None:
        return b"", None
    if isinstance(data, str):
        return data.encode(), "application/json"
    if isinstance(data, bytes):
        return data, "application/octet-stream"
    writer = data()  # aiohttp.FormData -> MultipartWriter
    return await writer.as_bytes(), writer.content_type


class FakeGateway:
    """Stands in for DiscordWebSocket where the client calls it directly (presence, chunks, latency, close)."""

    def __init__(self, owner: InProcessDiscord, shard_id: int | None) -> None:
        self.owner = owner
        self.shard_id = shard_id
        self.open = True
        self.latency = 0.0
        self.session_id = "standin-inprocess"
        self.sequence = 0
        self.gateway = yarl.URL(owner.world.gateway_url)

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(self, *, activity: Any = None, status: Any = None, since: float = 0.0) -> None:
        # same shape as the gateway's op 3 PRESENCE_UPDATE payload the server records
        activities = [activity.to_dict()] if activity is not None else []
        self.owner.world.presence = {"activities": activities, "afk": False, "since": since, "status": status}

    async def request_chunks(self, guild_id: int, query: str | None = None, *, limit: int, **kw: Any) -> None:
        guild = self.owner.world.guilds.get(int(guild_id))
        members = [self.owner.world.member_payload(m) for m in guild.members.values()] if guild else []
        chunk = {"guild_id": str(guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if kw.get("nonce"):
            chunk["nonce"] = kw["nonce"]
        asyncio.get_running_loop().call_soon(self.owner.feed, "GUILD_MEMBERS_CHUNK", chunk)

    async def voice_state(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def close(self, code: int = 1000) -> None:
        self.open = False


class _TaskFactory:
    """The loop's task factory while a stand-in runs: it keeps the tasks started in scope, then hands back to
    the factory it replaced (`previous`)."""

    def __init__(self, previous: Any, tracked: set[asyncio.Task[Any]]) -> None:
        self.previous, self.tracked = previous, tracked

    def __call__(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if self.previous is not None:
            task = self.previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        context = kwargs.get("context")
        in_scope = context.get(_scope, False) if context is not None else _scope.get()
        if in_scope:
            self.tracked.add(task)
        owner = context.get(_owner, None) if context is not None else _owner.get()
        if owner is not None:
            owner.add(task)
        return task


def _coro_chain(task: asyncio.Task[Any]) -> list[str]:
    names = []
    coro: Any = task.get_coro()
    while coro is not None:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is not None:
            names.append(code.co_qualname)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return names


def _is_idle(task: asyncio.Task[Any], ignore: Callable[[asyncio.Task[Any]], bool] | None) -> bool:
    chain = _coro_chain(task)
    if any(part in name for name in chain[:1] for part in _LONG_LIVED) or (ignore and ignore(task)):
        return True
    waiter = getattr(task, "_fut_waiter", None)
    waiting = waiter is not None and not waiter.done()
    return waiting and any(name in _WAITING_FOR_USER for name in chain)


class InProcessDiscord(Driver):
    """`async with InProcessDiscord(bot_factory) as d:` then `await d.command("alice", "/game new")`."""

    def __init__(
        self,
        bot_factory: BotFactory,
        *,
        world: World | None = None,
        guild: Guild | None = None,
        channel: Channel | None = None,
        sync_commands: bool | None = None,
        # A bound on waiting for a hung bot, not a speed check: on a loaded machine, with images drawn in threads
        # as tests do, the last picture of a command has taken more than 5 s.
        settle_timeout: float = 20.0,
        strict: bool = True,
        ignore_task: Callable[[asyncio.Task[Any]], bool] | None = None,
    ) -> None:
        if world is None:
            world, guild, channel = default_world()
        super().__init__(world, guild, channel)
        self.bot_factory = bot_factory
        self.sync_commands = sync_commands
        self.settle_timeout = settle_timeout
        self.strict = strict
        self.ignore_task = ignore_task
        self.session = FakeSession(self.world)
        self.bot: Any = None
        self._log_catcher = ErrorLogCatcher(self.world)
        self._sequence = 0
        self._tracked: set[asyncio.Task[Any]] = set()

    # lifecycle
    async def __aenter__(self) -> InProcessDiscord:
        try:
            await self.start()
        except BaseException:
            await self.close(check=False)
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close(check=exc is None)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_task_factory(_TaskFactory(loop.get_task_factory(), self._tracked))
        logging.getLogger().addHandler(self._log_catcher)
        bot = self.bot_factory()
        self.bot = await bot if inspect.isawaitable(bot) else bot
        self.bot.http.static_login = self._static_login
        self.world.event_sinks.append(self._on_world_event)
        await asyncio.wait_for(self.bot.login(self.world.token), self.settle_timeout)
        # Every GUILD_CREATE arrives at once here, so the post-READY guild wait can be short.
        self.bot._connection.guild_ready_timeout = min(self.bot._connection.guild_ready_timeout, 0.02)
        with self._tracking():
            self._connect()
        await asyncio.wait_for(self.bot.wait_until_ready(), self.settle_timeout)
        await self.settle()
        wants_sync = self.sync_commands or (self.sync_commands is None and not self.world.global_commands)
        if wants_sync and hasattr(self.bot, "tree"):
            await self.bot.tree.sync()

    async def close(self, *, check: bool = True) -> None:
        try:
            if self.bot is not None:
                await self.bot.close()
            pending = [t for t in self._tracked if not t.done()]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        finally:
            self._tracked.clear()
            loop = asyncio.get_running_loop()
            factory = loop.get_task_factory()
            if isinstance(factory, _TaskFactory) and factory.tracked is self._tracked:
                loop.set_task_factory(factory.previous)
            logging.getLogger().removeHandler(self._log_catcher)
            if self._on_world_event in self.world.event_sinks:
                self.world.event_sinks.remove(self._on_world_event)
        if check and self.strict and self.world.problems:
            raise StandinProblems("stand-in problems:\n" + "\n".join(self.world.problems))

    async def _static_login(self, token: str) -> Any:
        """Mirror of HTTPClient.static_login with the fake session in place of aiohttp's."""
        http_client = self.bot.http
        http_client._HTTPClient__session = self.session
        http_client._global_over = asyncio.Event()
        http_client._global_over.set()
        http_client.token = token
        return await http_client.request(Route("GET", "/users/@me"))

    def _connect(self) -> None:
        bot, state = self.bot, self.bot._connection
        if isinstance(bot, discord.AutoShardedClient):
            bot.shard_count = bot.shard_count or 1
            state.shard_count = bot.shard_count
            state.shard_ids = bot.shard_ids or range(bot.shard_count)
            if not hasattr(bot, "_reconnect"):
                bot._reconnect = True
            # discord.py keeps a sharded client's shards and event queue in name-mangled private attributes
            shards = bot._AutoShardedClient__shards  # type: ignore[attr-defined]
            queue = bot._AutoShardedClient__queue  # type: ignore[attr-defined]
            for sid in state.shard_ids:
                shards[sid] = Shard(FakeGateway(self, sid), bot, queue.put_nowait)  # type: ignore[arg-type]  # a fake gateway
            for sid in state.shard_ids:
                self._identify(sid, bot.shard_count)
        else:
            bot.ws = FakeGateway(self, bot.shard_id)
            self._identify(bot.shard_id or 0, bot.shard_count or 1)

    def _identify(self, shard_id: int, shard_count: int) -> None:
        self.feed("READY", self.world.ready_payload(shard_id, shard_count, "standin-inprocess"))
        for guild in self.world.guilds_for_shard(shard_id, shard_count):
            self.feed("GUILD_CREATE", self.world.guild_payload(guild))

    # gateway feed
    def feed(self, event: str, data: dict[str, Any]) -> None:
        """Hand one dispatch to discord.py's parser exactly as DiscordWebSocket.received_message would."""
        self._sequence += 1
        self.bot.dispatch("socket_event_type", event)
        parser = self.bot._connection.parsers.get(event)
        if parser is None:
            log.debug("no parser for %s", event)
            return
        parser(data)

    def _on_world_event(self, event: str, data: dict[str, Any]) -> None:
        # Like the real gateway, the event arrives after the REST answer that caused it.
        asyncio.get_running_loop().call_soon(self._tracked_feed, event, data)

    def _tracked_feed(self, event: str, data: dict[str, Any]) -> None:
        with self._tracking():
            self.feed(event, data)

    class _Tracking:
        def __enter__(self) -> None:
            self.token = _scope.set(True)

        def __exit__(self, *exc: object) -> None:
            _scope.reset(self.token)

    def _tracking(self) -> InProcessDiscord._Tracking:
        return InProcessDiscord._Tracking()

    async def deliver(self, inter: Interaction, payload: dict[str, Any]) -> None:
        await asyncio.sleep(0)  # let queued gateway events (e.g. GUILD_MEMBER_ADD) reach the bot first
        with self._tracking():
            self.feed("INTERACTION_CREATE", payload)
        await self.settle()

    async def command_alone(self, who: User | str, line: str, *, channel: Channel | str | None = None
                            ) -> list[Output]:
        """Like `command`, but waits only for the work this command started, not for everyone's: with many
        channels busy at once (load tests) the whole bot is never idle."""
        user = self.user(who)
        ch = self._channel_for(user, channel)
        data = self.command_data(user, ch, line)
        inter = self.world.new_interaction(APP_COMMAND, user, ch)
        payload = self.interaction_payload(inter, user, ch, data)
        started: set[asyncio.Task[Any]] = set()
        token = _owner.set(started)
        try:
            with self._tracking():
                self.feed("INTERACTION_CREATE", payload)
        finally:
            _owner.reset(token)
        # Tasks inherit the context, so whatever the handler spawns lands in `started` as well.
        while busy := [t for t in list(started) if not t.done() and not _is_idle(t, self.ignore_task)]:
            await asyncio.wait(busy, timeout=self.settle_timeout)
        return [o for o in self.world.outputs if o.interaction_id == inter.id]

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every task spawned by delivered events is done or waiting for the next user action."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.settle_timeout)
        while True:
            for _ in range(5):
                await asyncio.sleep(0)
            busy = [t for t in self._tracked if not t.done() and not _is_idle(t, self.ignore_task)]
            if not busy and self.session.in_flight == 0:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = [f"{t.get_name()} {_coro_chain(t)}" for t in busy]
                raise SettleTimeout(f"bot still busy after {timeout or self.settle_timeout}s: {names}")
            if busy:
                await asyncio.wait(busy, timeout=min(remaining, 0.05), return_when=asyncio.FIRST_COMPLETED)
        for task in [t for t in self._tracked if t.done()]:
            self._tracked.discard(task)
        self.world.check_deadlines()
