"""One-statement SQLite reads run on the event loop (no reader thread), see every commit, and never wait there."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from storage.backend import Statement
from storage.sqlite import SqliteBackend


@pytest.fixture
async def backend(tmp_path):
    db = SqliteBackend(str(tmp_path / "loop.sqlite3"))
    await db.open()
    await db.batch([Statement("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")])
    await db.batch([Statement("INSERT INTO t VALUES (1, 10)")])
    yield db
    await db.close()


def readers_lent(db: SqliteBackend) -> list[int]:
    """Counts every time a reader thread's connection is taken from the pool."""
    lent: list[int] = []
    queue = db._readers
    original = queue.get

    async def get() -> Any:
        lent.append(1)
        return await original()

    queue.get = get  # type: ignore[method-assign]  # a spy on the pool
    return lent


async def values(db: SqliteBackend) -> dict[int, int]:
    async with db.read() as q:
        return {r["k"]: r["v"] for r in await q.fetchall("SELECT k, v FROM t")}


async def test_a_read_takes_no_reader_thread_and_sees_the_latest_commit(backend: SqliteBackend) -> None:
    lent = readers_lent(backend)
    assert await values(backend) == {1: 10}
    await backend.batch([Statement("UPDATE t SET v = 11 WHERE k = 1"), Statement("INSERT INTO t VALUES (2, 20)")])
    assert await values(backend) == {1: 11, 2: 20}
    async with backend.read() as q:
        row = await q.fetchone("SELECT v FROM t WHERE k = ?", (2,))
    assert row is not None and row["v"] == 20
    assert lent == []


async def test_a_read_that_sqlite_calls_busy_goes_to_a_reader_thread(backend: SqliteBackend) -> None:
    class Busy:
        """Stands for the loop's connection at the moment SQLite answers busy (a checkpoint, a recovery)."""

        def execute(self, sql: str, params: Any = ()) -> Any:
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorname = "SQLITE_BUSY"  # as sqlite3 sets it
            raise error

    real = backend._loop_reader
    assert real is not None
    backend._loop_reader = Busy()  # type: ignore[assignment]  # a stand-in connection
    lent = readers_lent(backend)
    try:
        assert await values(backend) == {1: 10}
    finally:
        backend._loop_reader = real
    assert lent == [1]


async def test_the_loop_connection_cannot_write(backend: SqliteBackend) -> None:
    conn = backend._loop_reader
    assert conn is not None
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("UPDATE t SET v = 0")
    assert await values(backend) == {1: 10}


async def test_reads_go_to_reader_threads_when_turned_off(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TABLETOP_SQLITE_LOOP_READS", "0")
    db = SqliteBackend(str(tmp_path / "threads.sqlite3"))
    await db.open()
    try:
        await db.batch([Statement("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")])
        lent = readers_lent(db)
        assert await values(db) == {}
        assert lent == [1] and db._loop_reader is None
    finally:
        await db.close()
