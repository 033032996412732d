"""aiohttp server on 127.0.0.1: rest.py under /api/v10, attachments, and a JSON gateway websocket at /gateway."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from standin import rest
from standin.world import World

log = logging.getLogger("standin.server")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 4, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11


@dataclass
class GatewaySession:
    """What survives a dropped connection and allows RESUME: identity, sequence and the sent events."""

    id: str
    shard_id: int
    shard_count: int
    seq: int = 0
    resumes: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None


class GatewayConnection:
    """One websocket: encodes (optionally zlib-stream compressed) and sends frames in order from an outbox."""

    def __init__(self, server: StandinServer, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.server = server
        self.ws = ws
        self.session: GatewaySession | None = None
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None

    def send(self, payload: dict[str, Any]) -> None:
        self.outbox.put_nowait(payload)

    async def writer(self) -> None:
        while (payload := await self.outbox.get()) is not None:
            if self.ws.closed:
                return
            text = json.dumps(payload)
            if self._zlib is not None:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)

    async def run(self) -> None:
        writer = asyncio.create_task(self.writer())
        self.send({"op": HELLO, "d": {"heartbeat_interval": self.server.heartbeat_interval_ms}, "s": None, "t": None})
        try:
            async for msg in self.ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                if not await self.on_message(json.loads(msg.data)):
                    break
        finally:
            if self.session is not None and self.session.connection is self:
                self.session.connection = None
            self.outbox.put_nowait(None)
            await writer

    async def on_message(self, msg: dict[str, Any]) -> bool:
        op = msg.get("op")
        data: dict[str, Any] = msg.get("d") or {}
        world = self.server.world
        if op == HEARTBEAT:
            self.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            if data.get("token") != world.token:
                await self.ws.close(code=4004, message=b"Authentication failed.")
                return False
            shard_id, shard_count = data.get("shard") or [0, 1]
            session = GatewaySession(secrets.token_hex(16), shard_id, shard_count)
            self.server.sessions[session.id] = session
            session.connection = self
            self.session = session
            self.server.dispatch_to(session, "READY", world.ready_payload(shard_id, shard_count, session.id))
            for guild in world.guilds_for_shard(shard_id, shard_count):
                self.server.dispatch_to(session, "GUILD_CREATE", world.guild_payload(guild))
        elif op == RESUME:
            known = self.server.sessions.get(data.get("session_id", ""))
            if known is None or data.get("token") != world.token:
                self.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
                return True
            known.connection = self
            known.resumes += 1
            self.session = known
            for payload in known.sent:
                if payload["s"] > (data.get("seq") or 0):
                    self.send(payload)
            self.server.dispatch_to(known, "RESUMED", {})
        elif op == PRESENCE:
            world.presence = data
        elif op == REQUEST_MEMBERS:
            wanted = world.guilds.get(int(data["guild_id"]))
            members = [world.member_payload(m) for m in wanted.members.values()] if wanted else []
            chunk = {"guild_id": str(data["guild_id"]), "members": members, "chunk_index": 0, "chunk_count": 1}
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            if self.session is not None:
                self.server.dispatch_to(self.session, "GUILD_MEMBERS_CHUNK", chunk)
        elif op != VOICE_STATE:
            await self.ws.close(code=4001, message=b"Unknown opcode.")
            return False
        return True


class StandinServer:
    """`await StandinServer(world).start()` returns the base URL (http://127.0.0.1:PORT)."""

    def __init__(self, world: World, *, host: str = "127.0.0.1", port: int = 0, heartbeat_interval_ms: int = 41250):
        self.world = world
        self.host, self.port = host, port
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[GatewayConnection] = set()
        self.compressions: list[str | None] = []  # the compress= query of each gateway connection
        self.in_flight = 0
        self.last_activity = 0.0
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._ids = itertools.count(1)

    async def start(self) -> str:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        app.router.add_route("*", "/api/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the port in use (the system picks one when asked for 0)
        self.base_url = f"http://{self.host}:{self.port}"
        self.world.gateway_url = f"ws://{self.host}:{self.port}/gateway"
        self.world.cdn_base = self.base_url
        self.world.event_sinks.append(self.dispatch)
        return self.base_url

    async def stop(self) -> None:
        if self.dispatch in self.world.event_sinks:
            self.world.event_sinks.remove(self.dispatch)
        for conn in list(self.connections):
            await conn.ws.close(code=1001, message=b"Stand-in shutting down.")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # gateway
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Only JSON encoding is supported by the stand-in.")
            return ws
        self.compressions.append(request.query.get("compress"))
        conn = GatewayConnection(self, ws, request.query.get("compress"))
        self.connections.add(conn)
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)
        return ws

    def dispatch_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(payload)
        if session.connection is not None:
            session.connection.send(payload)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session(s) whose shard owns its guild (DMs go to shard 0)."""
        gid = data.get("guild_id") or (data.get("guild") or {}).get("id")
        for session in list(self.sessions.values()):
            owner = (int(gid) >> 22) % session.shard_count if gid else 0
            if owner == session.shard_id:
                self.dispatch_to(session, event, data)

    def request_reconnect(self) -> None:
        """Ask every connected bot to reconnect (op 7); discord.py then RESUMEs its session."""
        for conn in self.connections:
            conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    # REST
    async def _rest(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        self.last_activity = asyncio.get_running_loop().time()
        try:
            body = await request.read()
            resp = rest.handle(
                self.world,
                request.method,
                request.path,
                query=dict(request.query),
                headers=dict(request.headers),
                body=body,
                content_type=request.headers.get("Content-Type"),
            )
        finally:
            self.in_flight -= 1
            self.last_activity = asyncio.get_running_loop().time()
        return to_web(resp)

    async def _attachment(self, request: web.Request) -> web.Response:
        att = self.world.attachments.get(int(request.match_info["attachment_id"]))
        failure = self.world.download_failures.pop(0) if self.world.download_failures else None
        if failure == "hang":
            await asyncio.sleep(3600)
        if isinstance(failure, int):
            return web.Response(status=failure)
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")


def to_web(resp: rest.Response) -> web.Response:
    headers = dict(resp.headers)
    if resp.body is None:
        return web.Response(status=resp.status, headers=headers)
    if isinstance(resp.body, bytes):
        return web.Response(status=resp.status, body=resp.body, headers=headers)
    # discord.py only parses bodies whose content-type is exactly application/json (no charset).
    headers["Content-Type"] = "application/json"
    return web.Response(status=resp.status, body=json.dumps(resp.body).encode(), headers=headers)
