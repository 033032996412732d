"""Delivery state that outlives an event loop (a bot closed and started again in one process) is never waited on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from cogs.late_images import LateImages
from cogs.live import LiveTurn, LiveTurns


def _abandon(coro_factory: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a loop until its work is started, then close it without letting that work finish (a killed bot)."""
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(coro_factory())
    finally:
        left = asyncio.all_tasks(loop)
        loop.close()
        for task in left:  # end them quietly now rather than when the collector happens to find them
            task._log_destroy_pending = False  # type: ignore[attr-defined]
            task.get_coro().close()


def test_a_lock_left_held_by_an_ended_loop_is_not_waited_on_by_the_next() -> None:
    live = LiveTurns()

    async def hold_forever() -> None:
        async def holder() -> None:
            async with live.lock(1):
                await asyncio.Event().wait()
        asyncio.get_running_loop().create_task(holder())
        await asyncio.sleep(0)
        assert live.lock(1).locked()
        live.put(1, LiveTurn(7, object()))

    _abandon(hold_forever)

    async def next_bot() -> bool:
        assert live.get(1, 7) is None  # the old loop's message is not this bot's
        async with asyncio.timeout(1):
            async with live.lock(1):
                return True

    assert asyncio.run(next_bot())


def test_an_image_worker_abandoned_with_its_loop_does_not_block_the_next_image() -> None:
    late = LateImages()
    shown: list[bytes] = []

    async def stuck() -> None:
        async def never() -> bytes:
            await asyncio.Event().wait()
            return b""

        async def show(png: bytes) -> None:
            shown.append(png)
        late.submit("live", never, show)
        await asyncio.sleep(0)

    _abandon(stuck)

    async def next_bot() -> None:
        async def draw() -> bytes:
            return b"board"

        async def show(png: bytes) -> None:
            shown.append(png)
        late.submit("live", draw, show)
        async with asyncio.timeout(1):
            await late.idle()

    asyncio.run(next_bot())
    assert shown == [b"board"]
