"""The garbage collector's pauses kept out of people's way: full collections only when nobody waits for an answer."""

from __future__ import annotations

import gc
import logging
import os
import time

from discord.ext import commands, tasks

from table.pacing import PEOPLE

log = logging.getLogger("tabletop.collector")

#: A full collection at least this often (seconds), at a moment when nobody waits for an answer.
FULL_EVERY = 600.0
#: ... or sooner, after this many young collections since the last full one (each moves the young objects it
#: finds alive into the old generation, where only a full collection frees what later becomes garbage).
PROMOTIONS = 500
#: How often (seconds) the bot looks whether a full collection is due.
CHECK_EVERY = 5.0
#: The automatic full collection's threshold while the bot runs: never reached (the cog collects instead).
NEVER = 1 << 30


class _Policy:
    """Process-wide (the collector is): applied while at least one bot of this process runs, undone after the last."""

    users = 0
    saved: tuple[int, int, int] | None = None
    last_full = 0.0


def start() -> None:
    """Freeze what start-up made (modules, catalogs, game data: never garbage, never scanned again) and take
    full collections off the automatic schedule: on this bot's heap one takes 50-300 ms, which would land on
    whoever's command was being answered (`tools.mixed_load`). Young collections stay automatic.
    `TABLETOP_GC=auto` leaves Python's own schedule alone."""
    if os.environ.get("TABLETOP_GC", "").strip().lower() == "auto":
        return
    _Policy.users += 1
    if _Policy.users > 1:
        return
    gc.collect()  # garbage made during start-up is freed, not frozen
    gc.freeze()
    _Policy.saved = gc.get_threshold()
    young, middle, _ = _Policy.saved
    gc.set_threshold(young, middle, NEVER)
    _Policy.last_full = time.monotonic()


def stop() -> None:
    """The last bot of this process stopped: Python's own schedule again, nothing frozen."""
    if _Policy.users == 0:
        return
    _Policy.users -= 1
    if _Policy.users or _Policy.saved is None:
        return
    gc.set_threshold(*_Policy.saved)
    _Policy.saved = None
    gc.unfreeze()


def full_due(now: float) -> bool:
    """Whether a full collection is due: time enough since the last, or enough young collections since."""
    return now - _Policy.last_full >= FULL_EVERY or gc.get_count()[2] >= PROMOTIONS


def collect_if_due(now: float | None = None) -> bool:
    """Run a full collection if one is due and nobody waits for an answer; whether it ran."""
    if _Policy.saved is None or PEOPLE.waiting:
        return False
    now = time.monotonic() if now is None else now
    if not full_due(now):
        return False
    began = time.perf_counter()
    found = gc.collect(2)
    _Policy.last_full = now
    log.debug("full collection: %d unreachable, %.0f ms", found, (time.perf_counter() - began) * 1000)
    return True


class Collector(commands.Cog):
    """Looks every few seconds whether a full collection is due and nobody waits for an answer."""

    def __init__(self) -> None:
        start()
        self.checker.start()

    async def cog_unload(self) -> None:
        self.checker.cancel()
        stop()

    @tasks.loop(seconds=CHECK_EVERY)
    async def checker(self) -> None:
        collect_if_due()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Collector())
