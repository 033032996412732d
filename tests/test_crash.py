"""A process killed between two actions loses nothing it acknowledged, and the game resumes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from storage import Store
from table import Table
from tests.tinygame import TINY

ROOT = Path(__file__).resolve().parent.parent


def run_until_acks(db: str, acks: int) -> int:
    proc = subprocess.Popen([sys.executable, "-m", "tests.crash_worker", db], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    last = 0
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ACK"):
            last = int(line.split()[1])
            acks -= 1
            if acks <= 0:
                proc.send_signal(signal.SIGKILL)
                break
    proc.wait(timeout=30)
    return last


async def test_killed_process_loses_nothing_acknowledged(tmp_path) -> None:
    db = str(tmp_path / "crash.sqlite3")
    first = run_until_acks(db, 5)
    store = await Store(db).open()
    row = (await store.games_in_guild(1))[0]
    assert row.version >= first, "an acknowledged action was lost"
    table = Table(store)
    replayed = await table.replay(row.id)
    assert TINY.to_json(replayed) == TINY.to_json((await table.inspect(row.id)).state)
    await store.close()
    second = run_until_acks(db, 4)  # the game resumes where it was
    assert second > first
    store = await Store(db).open()
    row = await store.game(row.id)
    assert row.version >= second
    await store.close()
