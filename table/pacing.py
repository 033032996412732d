"""Who goes first on the event loop: people waiting for an answer, then the bots' turns and the pictures."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator, Callable

#: Automated steps of all games that may be under way at once in one process.
AUTOMATED_AT_ONCE = 1
#: The longest (seconds) that background work (a bot's step, a picture) waits for people's answers before it goes
#: anyway, so that a never-ending stream of commands cannot starve it.
PATIENCE = 0.5


class People:
    """How many people in this process are waiting for the answer to their command or click right now. Background
    work (`calm`) waits while any is, at most `PATIENCE`: a person's answer is not queued behind bots' turns and
    pictures on the one event loop. One per process, since that is what shares the loop and its interpreter."""

    def __init__(self) -> None:
        self._waiting = 0
        self._calm: list[asyncio.Future[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        #: How often background work went ahead because its patience ran out (people kept coming).
        self.impatient = 0

    def _here(self) -> asyncio.AbstractEventLoop:
        """Forget a finished event loop's people and waiters (tests run one loop after another)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._waiting, self._calm = loop, 0, []
        return loop

    @property
    def waiting(self) -> int:
        return self._waiting

    def arrive(self) -> Callable[[], None]:
        """A person's command or click begins; call the returned function once they have their answer (calling it
        again does nothing)."""
        self._here()
        self._waiting += 1
        gone = False

        def answered() -> None:
            nonlocal gone
            if gone:
                return
            gone = True
            try:
                if self._loop is not asyncio.get_running_loop():
                    return
            except RuntimeError:  # no loop running any more: nothing waits
                return
            self._waiting -= 1
            if self._waiting == 0:
                waiters, self._calm = self._calm, []
                for fut in waiters:
                    if not fut.done():
                        fut.set_result(None)

        return answered

    async def calm(self, patience: float = PATIENCE) -> None:
        """Until nobody waits for an answer, or `patience` seconds."""
        loop = self._here()
        if self._waiting == 0:
            return
        fut: asyncio.Future[None] = loop.create_future()
        self._calm.append(fut)
        done, _ = await asyncio.wait([fut], timeout=patience)
        if not done:
            self.impatient += 1
            with contextlib.suppress(ValueError):
                self._calm.remove(fut)
            fut.cancel()


#: This process's people waiting for an answer.
PEOPLE = People()
#: The current command's "they have their answer" (set while a person's command or click is handled).
ANSWERED: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar("answered", default=None)


def answered() -> None:
    """The person whose command is being handled has their answer: background work may go on."""
    done = ANSWERED.get()
    if done is not None:
        done()


class Pacing:
    """Automated steps (an AI seat's move, a monster phase) of every game in this process take turns, a few at a
    time, and each waits first until no person waits for an answer (`People.calm`): between two awaits of a
    person's command at most that many automated steps run, however many channels have bots thinking. People's
    commands never wait for this, only for their own channel's lock (which `Table.resume` lets go of between
    steps)."""

    def __init__(self, at_once: int = AUTOMATED_AT_ONCE) -> None:
        self._steps = asyncio.Semaphore(at_once)

    @contextlib.asynccontextmanager
    async def automated_step(self) -> AsyncIterator[None]:
        """Around one automated step."""
        await asyncio.sleep(0)  # whatever is ready (a person's command going on) goes first
        await PEOPLE.calm()
        async with self._steps:
            yield
