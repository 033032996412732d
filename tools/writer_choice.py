"""Why SQLite has one writer: `python -m tools.writer_choice` times one writer behind a lock against pools."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable

import aiosqlite

from storage.backend import Statement
from storage.sqlite import SqliteBackend

TASKS, PER_TASK = 100, 20
CREATE = "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, g INTEGER, v INTEGER, blob BLOB)"
STEPS = (("UPDATE t SET v = v WHERE g = ?", 0), ("INSERT INTO t(g, v, blob) VALUES (?, ?, ?)", 200),
         ("INSERT INTO t(g, v, blob) VALUES (?, ?, ?)", 100))
Result = tuple[float, list[float], int]


def _params(g: int, i: int, size: int) -> tuple[object, ...]:
    return (g,) if not size else (g, i, os.urandom(size))


async def _run(tx: Callable[[int, int], Awaitable[None]]) -> tuple[float, list[float]]:
    """TASKS games committing PER_TASK moves each, all at once: elapsed seconds and each move's latency."""
    latencies: list[float] = []

    async def game(g: int) -> None:
        for i in range(PER_TASK):
            started = time.perf_counter()
            await tx(g, i)
            latencies.append(time.perf_counter() - started)

    began = time.perf_counter()
    await asyncio.gather(*(game(g) for g in range(TASKS)))
    return time.perf_counter() - began, latencies


async def one_writer(path: str) -> Result:
    backend = SqliteBackend(path)
    await backend.open()
    async with backend.write() as q:
        await q.execute(CREATE)

    async def tx(g: int, i: int) -> None:  # as the store commits a move: one batch, one hop
        await backend.batch([Statement(sql, _params(g, i, size)) for sql, size in STEPS])

    elapsed, latencies = await _run(tx)
    await backend.close()
    return elapsed, latencies, 0


async def pool_of_writers(path: str, size: int) -> Result:
    """Several connections each running BEGIN IMMEDIATE: SQLite serialises them with busy-wait retries."""
    conns = []
    for _ in range(size):
        conn = await aiosqlite.connect(path, isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000"):
            await conn.execute(f"PRAGMA {pragma}")
        conns.append(conn)
    await conns[0].execute(CREATE)
    free: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
    for conn in conns:
        free.put_nowait(conn)
    failures = 0

    async def tx(g: int, i: int) -> None:
        nonlocal failures
        conn = await free.get()
        try:
            await conn.execute("BEGIN IMMEDIATE")
            for sql, size in STEPS:
                await conn.execute(sql, _params(g, i, size))
            await conn.execute("COMMIT")
        except sqlite3.OperationalError:
            failures += 1
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
        finally:
            free.put_nowait(conn)

    elapsed, latencies = await _run(tx)
    for conn in conns:
        await conn.close()
    return elapsed, latencies, failures


def report(name: str, elapsed: float, latencies: list[float], failures: int) -> None:
    ordered = sorted(latencies)
    n = len(ordered)
    print(f"{name}: {n / elapsed:.0f} tx/s, p50 {ordered[n // 2] * 1000:.1f} ms, "
          f"p99 {ordered[int(n * 0.99)] * 1000:.1f} ms, failures {failures}")


async def main() -> None:
    runs: list[tuple[str, Callable[[str], Awaitable[Result]]]] = [
        ("one writer, whole batches", one_writer),
        ("pool of 4 writers", lambda p: pool_of_writers(p, 4)),
        ("pool of 8 writers", lambda p: pool_of_writers(p, 8)),
    ]
    for name, run in runs:
        with tempfile.TemporaryDirectory() as folder:
            report(name, *(await run(os.path.join(folder, "x.db"))))


if __name__ == "__main__":
    asyncio.run(main())
