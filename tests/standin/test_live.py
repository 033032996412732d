"""Real websocket + REST mode: the test bot runs bot.start(token) against the stand-in server."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any

import discord
import pytest
from discord import utils

from standin.local import LiveDiscord
from tests.standin.testbot import make_bot, make_plain_bot
from tests.standin_reads import named_user

pytestmark = pytest.mark.timeout(30)


async def _wait_for(predicate: Any, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition not reached in time"
        await asyncio.sleep(0.01)


async def test_slash_command_and_button_click_end_to_end() -> None:
    loop = asyncio.get_running_loop()
    loop_errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, ctx: loop_errors.append(ctx))
    tasks_before = asyncio.all_tasks()

    async with LiveDiscord(make_bot, quiet_period=0.05) as live:
        assert live.server.compressions == [utils._ActiveDecompressionContext.COMPRESSION_TYPE]
        assert {c["name"] for c in live.world.global_commands} >= {"game", "render"}
        [post] = await live.command("alice", "/game new game:azul players:4")
        assert (post.kind, post.content) == ("channel", "New azul for 4")
        [joined] = await live.click("bob", post, "testbot:join")
        assert joined.content == "bob joined"
        assert ("join", named_user(live.world, "bob").id) in live.bot.events
        bot = live.bot

    assert bot.is_closed()
    assert live.world.problems == []
    gc.collect()
    await asyncio.sleep(0)
    assert loop_errors == [], loop_errors
    leaked = asyncio.all_tasks() - tasks_before
    assert leaked == set(), leaked
    assert not [t for t in threading.enumerate() if type(t).__name__ == "KeepAliveHandler" and t.is_alive()]


async def test_files_rate_limits_and_errors_cross_the_wire() -> None:
    async with LiveDiscord(make_bot, quiet_period=0.05) as live:
        [board] = await live.command("alice", "/render")
        assert board.attachments[0][1].startswith(b"\x89PNG")
        live.world.rate_limit("POST /channels/{channel_id}/messages", times=1, retry_after=0.05)
        outs = await live.command("alice", "/announce text:hi")
        assert [o.content for o in outs] == ["hi", "posted"]
        [err] = await live.command("alice", "/long")
        assert next(e for e in live.bot.events if e[0] == "http")[:3] == ("http", 400, 50035)
        assert err.content.startswith("\u26a0")


async def test_gateway_reconnect_resumes_the_session() -> None:
    async with LiveDiscord(make_bot, quiet_period=0.05) as live:
        live.server.request_reconnect()
        await _wait_for(lambda: any(s.resumes for s in live.server.sessions.values()))
        [out] = await live.command("alice", "/secret")
        assert out.kind == "ephemeral"
        assert len(live.server.sessions) == 1


async def test_plain_unsharded_bot_over_the_wire() -> None:
    async with LiveDiscord(make_plain_bot, quiet_period=0.05) as live:
        [post] = await live.command("alice", "/game new game:azul")
        [out] = await live.click("bob", post, "Join")
        assert out.content == "bob joined"
        await live.bot.change_presence(activity=discord.Game("azul"))
        await _wait_for(lambda: live.world.presence is not None)
        presence = live.world.presence
        assert presence is not None and presence["activities"][0]["name"] == "azul"
