"""A process killed anywhere, AI turns included, loses nothing it acknowledged and the game goes on alone."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from storage import Store
from table import Table, Who
from tests.tinygame import TINY
from tools.pgserver import PgServer

ROOT = Path(__file__).resolve().parent.parent


def run_worker(db: str, *, acks: int | None = None, delay: float = 0.0, die_after: int | None = None,
               ai: int = 2) -> tuple[int, list[str]]:
    """Run the worker until `acks` acknowledgements (+ `delay` seconds) and kill it, or until it dies itself."""
    cmd = [sys.executable, "-m", "tests.crash_worker", db, "--ai", str(ai)]
    if die_after is not None:
        cmd += ["--die-after", str(die_after)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    last, lines = 0, []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.strip())
        if line.startswith("ACK"):
            last = int(line.split()[1])
            if acks is not None:
                acks -= 1
                if acks <= 0:
                    time.sleep(delay)
                    proc.send_signal(signal.SIGKILL)
                    break
        if line.startswith(("DONE", "STUCK")):
            break
    proc.wait(timeout=60)
    return last, lines


async def check(db: str, acknowledged: int) -> None:
    store = await Store(db).open()
    try:
        row = (await store.games_in_guild(1, include_closed=True))[0]
        assert row.version >= acknowledged, "an acknowledged action was lost"
        table = Table(store)
        replayed = await table.replay(row.id)
        state = (await table.inspect(row.id)).state
        assert state is not None
        assert TINY.to_json(replayed) == TINY.to_json(state)
    finally:
        await store.close()


async def test_killed_process_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.sqlite3")
    first, _ = run_worker(db, acks=5, ai=1)
    await check(db, first)
    second, _ = run_worker(db, acks=4, ai=1)  # the game resumes where it was
    assert second > first
    await check(db, second)


async def test_twenty_random_kill_points_including_ai_turns(tmp_path: Path) -> None:
    """Killed after a random commit (often the human's, before the AI's) or at a random moment: each
    restart first lets the AI seats finish by themselves, and the human is never left waiting on nobody."""
    await kill_many_times(str(tmp_path / "kills.sqlite3"), kills=24, seed=20261122)


async def test_random_kill_points_on_postgresql(pg_server: PgServer) -> None:
    await kill_many_times(pg_server.create_database(), kills=8, seed=7)


async def kill_many_times(db: str, *, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    acknowledged = 0
    resumed = 0
    for kill in range(kills):
        if kill % 2 == 0:
            last, lines = run_worker(db, die_after=rng.randint(1, 7))
        else:
            last, lines = run_worker(db, acks=rng.randint(1, 3), delay=rng.random() * 0.02)
        assert not any(line.startswith("STUCK") for line in lines), lines
        resumed += sum(1 for line in lines if line.startswith("RESUMED") and line != "RESUMED -")
        acknowledged = max(acknowledged, last)
        await check(db, acknowledged)
        if any(line.startswith("DONE") for line in lines):
            break
    assert resumed > 0, "no kill landed between a human move and the AI moves after it"
    # Finally the game is playable by its human with no help: it runs to its end.
    _, lines = run_worker(db)
    assert lines and lines[-1] == "DONE", lines


def run_timeouts(db: str, late: float, die_after: int | None = None) -> tuple[int, list[str]]:
    """One process (clock `late` seconds ahead) that plays the due time-outs once; its exit code and lines."""
    cmd = [sys.executable, "-m", "tests.crash_worker", db, "--timeouts", "--late", str(late)]
    if die_after is not None:
        cmd += ["--die-after", str(die_after)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return done.returncode, done.stdout.split("\n")[:-1]


async def _time_out_log(db: str) -> tuple[int, int, list[str]]:
    """The game's version, whose turn it is, and the time-out notices in its public log."""
    store = await Store(db).open()
    try:
        row = (await store.games_in_guild(1, include_closed=True))[0]
        table = Table(store)
        state = (await table.inspect(row.id)).state
        assert state is not None
        lines = [m.key for _, m in (await table.log(7, Who(1, "Alice"))).lines]
        return row.version, state.turn, [k for k in lines if k == "core.timeout.done"]
    finally:
        await store.close()


async def _killed_inside_a_time_out(db: str) -> None:
    assert run_timeouts(db, 0) == (0, ["STARTED"])
    version, turn, told = await _time_out_log(db)
    assert told == []
    # The late seat's default is "play a card, then end the turn": SIGKILL between the two commits.
    code, lines = run_timeouts(db, 11 * 60, die_after=1)
    assert code == -signal.SIGKILL and lines == [], (code, lines)
    mid_version, mid_turn, told = await _time_out_log(db)
    assert mid_version == version + 1 and mid_turn == turn and len(told) == 1, "half done, announced once"
    assert run_timeouts(db, 11 * 60) == (0, ["TIMEOUTS 0 TOLD 0"]), "the dead process's claim holds for its lease"
    code, lines = run_timeouts(db, 11 * 60 + 62)
    assert (code, lines) == (0, ["TIMEOUTS 1 TOLD 1"]), "the next process finishes it and tells the late player"
    after_version, after_turn, told = await _time_out_log(db)
    assert after_turn != turn and after_version > mid_version
    assert len(told) == 1, "'Time ran out' is in the log once, not again at the restart"
    assert run_timeouts(db, 11 * 60 + 62) == (0, ["TIMEOUTS 0 TOLD 0"]), "and nothing is due any more"


async def test_a_process_killed_inside_a_time_out_is_finished_by_the_next_one_and_told_once(tmp_path: Path) -> None:
    await _killed_inside_a_time_out(str(tmp_path / "timeouts.sqlite3"))


async def test_a_process_killed_inside_a_time_out_on_postgresql(pg_server: PgServer) -> None:
    await _killed_inside_a_time_out(pg_server.create_database())
