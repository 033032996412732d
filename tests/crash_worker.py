"""Plays the tiny game (one human, two AI seats) forever, printing each acknowledged version.

The kill tests stop it with SIGKILL at random moments, or it kills itself right after its Nth commit
(`--die-after N`), which lands between a human's move and the AI moves that follow it.

With `--timeouts`, it is instead a process on a clock `--late` seconds ahead: it opens a two-person game with a
10-minute timer if there is none, then plays the time-outs that are due once and prints what it announced.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import time
from typing import Any

from rules import registry
from rules.base import Action
from storage import Store
from table import Table, Who
from tests.tinygame import TINY

registry.register(TINY)
HUMAN = Who(1, "Alice")
OTHER = Who(2, "Bob")
CHANNEL = 7


def die_after(store: Store, commits: int) -> None:
    original = store.commit
    count = 0

    async def commit(*args: Any, **kwargs: Any) -> int:  # passes everything on to the real commit
        nonlocal count
        version = await original(*args, **kwargs)
        count += 1
        if count >= commits:
            os.kill(os.getpid(), signal.SIGKILL)
        return version

    store.commit = commit  # type: ignore[method-assign]


async def main(path: str, ai: int, target: int, die: int | None) -> None:
    store = await Store(path).open()
    try:
        await play(store, ai, target, die)
    finally:
        await store.close()


async def play(store: Store, ai: int, target: int, die: int | None) -> None:
    if die:
        die_after(store, die)
    table = Table(store)
    for game_id in await table.stalled_games():
        report = await table.resume(game_id)
        print(f"RESUMED {report.version if report else '-'}", flush=True)
    if await table.game_for(CHANNEL) is None:
        if await store.last_game(CHANNEL) is not None:
            print("DONE", flush=True)
            return
        await table.new(guild_id=1, channel_id=CHANNEL, who=HUMAN, game_type="tiny", ai_seats=ai,
                        options={"target": str(target)})
        await table.start(CHANNEL, HUMAN)
    while True:
        row = await table.game_for(CHANNEL)
        if row is None:
            print("DONE", flush=True)
            return
        state = (await table.inspect(row.id)).state
        assert state is not None
        if state.turn != 0:
            print(f"STUCK {row.version}", flush=True)
            return
        action = Action.of("end") if state.played else Action.of("play", card=state.hands[0][0])
        report = await table.act(CHANNEL, HUMAN, action)
        print(f"ACK {report.version}", flush=True)


async def timeouts(path: str, late: float, die: int | None) -> None:
    """A process whose clock is `late` seconds ahead plays the due time-outs once (dying after its Nth commit)."""
    store = await Store(path).open()
    try:
        table = Table(store, clock=lambda: time.time() + late)
        if await table.game_for(CHANNEL) is None:
            await table.new(guild_id=1, channel_id=CHANNEL, who=HUMAN, game_type="tiny", timer_minutes=10)
            await table.join(CHANNEL, OTHER)
            await table.start(CHANNEL, HUMAN)
            print("STARTED", flush=True)
            return
        if die:
            die_after(store, die)
        reports = await table.due_timeouts()
        told = [m.key for r in reports for _, m in r.addressed if m.key == "core.timeout.done"]
        print(f"TIMEOUTS {len(reports)} TOLD {len(told)}", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--ai", type=int, default=2)
    parser.add_argument("--target", type=int, default=60)
    parser.add_argument("--die-after", type=int)
    parser.add_argument("--timeouts", action="store_true")
    parser.add_argument("--late", type=float, default=0.0, help="with --timeouts: seconds the clock is ahead")
    args = parser.parse_args()
    if args.timeouts:
        asyncio.run(timeouts(args.db, args.late, args.die_after))
    else:
        asyncio.run(main(args.db, args.ai, args.target, args.die_after))
