"""Who goes first on the event loop: people's commands are never queued behind a chain of bots' turns."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

#: Automated steps of all games that may be under way at once in one process.
AUTOMATED_AT_ONCE = 1


class Pacing:
    """Automated steps (an AI seat's move, a monster phase) of every game in this process take turns, a few at a
    time, yielding to the event loop before each: between two awaits of a person's command at most that many
    automated steps run, however many channels have bots thinking. People's commands never wait for this, only
    for their own channel's lock (which `Table.resume` lets go of between steps)."""

    def __init__(self, at_once: int = AUTOMATED_AT_ONCE) -> None:
        self._steps = asyncio.Semaphore(at_once)

    @contextlib.asynccontextmanager
    async def automated_step(self) -> AsyncIterator[None]:
        """Around one automated step."""
        await asyncio.sleep(0)  # whatever is ready (a person's command going on) goes first
        async with self._steps:
            yield
