"""Images that follow their words: a message is sent at once and its image is added by an edit once drawn."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

import discord

from table.pacing import PEOPLE

log = logging.getLogger("tabletop.late_images")
#: The name of the tasks that draw and show images (a benchmark tells them from the bots' turns by it).
TASK_NAME = "late-image"


def _retrieve(task: asyncio.Task[bytes | None]) -> None:
    """Mark a finished early drawing's failure as seen: whoever shows the image logs it; if nobody does (its
    message could not be sent), it is dropped quietly rather than reported as never retrieved."""
    if not task.cancelled():
        task.exception()


def early(pending: Awaitable[bytes | None] | None) -> Awaitable[bytes | None] | None:
    """Start drawing now (`pending` a drawing not yet awaited, e.g. `board_png(...)`), so the picture is drawn in
    the drawing processes while its words are being written and sent; the returned awaitable is what a later
    `submit`'s `draw` gives back. Named like the late-image workers, so whoever waits only for a command's words
    (tools/mixed_load) leaves it out too."""
    if pending is None:
        return None
    task: asyncio.Task[bytes | None] = asyncio.ensure_future(pending)
    task.set_name(TASK_NAME)
    task.add_done_callback(_retrieve)
    return task


def drawn(pending: Awaitable[bytes | None] | None) -> bytes | None:
    """The picture of an `early` drawing when it is already drawn (so it can go out with its words, sparing an edit),
    else None: never waits."""
    if not isinstance(pending, asyncio.Future) or not pending.done() or pending.cancelled():
        return None
    if pending.exception() is not None:
        return None  # whoever shows it later logs the failure
    return pending.result() or None


@dataclass
class _Job:
    draw: Callable[[], Awaitable[bytes | None]]
    show: Callable[[bytes], Awaitable[None]]
    asked: float
    #: The `early` drawing `draw` gives back, already under way: cancelled if a newer image replaces the job.
    started: Awaitable[bytes | None] | None = None


class LateImages:
    """Per place an image goes (a message, a person's private picture): one drawing at a time, and only the newest
    one waiting. An image asked for while an older one for the same place still waits replaces it, so a board that
    a newer move made stale is never drawn; one that went stale while it was being drawn is not shown."""

    def __init__(self) -> None:
        self._waiting: dict[Hashable, _Job] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        #: Images drawn and shown, and those skipped because a newer one for the same place came first.
        self.shown = 0
        #: Images already drawn when their words went out, sent with them (no edit needed).
        self.at_once = 0
        self.skipped = 0
        #: Skipped images whose drawing, started early, was cancelled.
        self.cancelled = 0
        #: Milliseconds from an image being asked for (its words just sent) to its being shown, the newest ones.
        self.waits: deque[float] = deque(maxlen=100_000)
        self._loop: asyncio.AbstractEventLoop | None = None

    def _here(self) -> None:
        """Forget the workers of an event loop that has ended: they will never run again."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._waiting.clear()
            self._workers.clear()

    def submit(self, place: Hashable, draw: Callable[[], Awaitable[bytes | None]],
               show: Callable[[bytes], Awaitable[None]], *, started: Awaitable[bytes | None] | None = None) -> None:
        """Draw (`draw()`, called only when its turn comes) and show (`show(png)`) the newest image for `place`.

        `started` is the `early` drawing that `draw` gives back, if any. When a newer image for the same place
        replaces this one before its turn, that drawing is cancelled: under load the drawing processes then draw
        the boards people will see, not a queue of boards already stale (if a worker has begun it, it finishes
        and its picture is dropped).
        """
        self._here()
        replaced = self._waiting.get(place)
        if replaced is not None:
            self.skipped += 1
            if isinstance(replaced.started, asyncio.Future) and not replaced.started.done():
                replaced.started.cancel()
                self.cancelled += 1
        self._waiting[place] = _Job(draw, show, time.monotonic(), started)
        if place not in self._workers:
            self._workers[place] = asyncio.create_task(self._work(place), name=TASK_NAME)

    def free(self, place: Hashable) -> bool:
        """Nothing is drawn or waits for `place`: an image given there now cannot be overwritten by an older one."""
        self._here()
        return place not in self._workers and place not in self._waiting

    def busy(self) -> int:
        """Places with an image being drawn or waiting."""
        return len(self._workers)

    async def idle(self) -> None:
        """Until every image asked for so far is shown (or skipped)."""
        self._here()
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def finish(self, timeout: float) -> None:
        """Before the bot's connection closes: let the images being drawn reach their messages for up to `timeout`
        seconds, then drop the rest (their words are already sent; an image never outlives the session)."""
        self._here()
        try:
            async with asyncio.timeout(timeout):
                await self.idle()
        except TimeoutError:
            log.info("%d images dropped at shutdown", len(self._workers))
            for worker in list(self._workers.values()):
                worker.cancel()
            await asyncio.gather(*self._workers.values(), return_exceptions=True)
        self._waiting.clear()

    async def _work(self, place: Hashable) -> None:
        try:
            while (job := self._waiting.pop(place, None)) is not None:
                try:
                    await PEOPLE.calm()  # a person waiting for an answer goes first
                    png = await job.draw()
                    if not png:
                        continue
                    await PEOPLE.calm()
                    if place in self._waiting:  # a newer image for the same place is already asked for
                        self.skipped += 1
                        continue
                    await job.show(png)
                    self.shown += 1
                    self.waits.append((time.monotonic() - job.asked) * 1000)
                except discord.HTTPException as exc:  # the message is gone or too old: its words stay as they are
                    log.info("an image could not be added to its message: %s", exc)
                except Exception:  # one image failing never stops the next
                    log.exception("drawing an image failed")
        finally:
            try:
                me = asyncio.current_task()
            except RuntimeError:  # ended with its loop: a newer loop's worker may hold this place now
                me = None
            if me is not None and self._workers.get(place) is me:
                del self._workers[place]
