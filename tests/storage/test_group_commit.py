"""SQLite writes that queue for the writer share one COMMIT, and each still succeeds or fails on its own."""

from __future__ import annotations

import asyncio

import pytest

from storage.backend import Statement, UnexpectedRows
from storage.rows import StorageFull
from storage.sqlite import SqliteBackend, _taken_at_once


@pytest.fixture
async def backend(tmp_path):
    db = SqliteBackend(str(tmp_path / "group.sqlite3"))
    await db.open()
    await db.batch([Statement("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")])
    await db.batch([Statement("INSERT INTO t VALUES (1, 0)")])
    yield db
    await db.close()


def count_commits(db: SqliteBackend) -> list[str]:
    seen: list[str] = []
    db.writer.db().set_trace_callback(lambda sql: seen.append(sql) if sql.strip().upper() == "COMMIT" else None)
    return seen


async def rows(db: SqliteBackend) -> dict[int, int]:
    async with db.read() as q:
        return {r["k"]: r["v"] for r in await q.fetchall("SELECT k, v FROM t")}


async def idle(db: SqliteBackend) -> None:
    """Until the writer has nothing left to do (the fixture's last write may still be settling)."""
    if db._flusher is not None:
        await db._flusher


async def test_queued_writes_share_one_commit_and_a_stale_one_fails_alone(backend: SqliteBackend) -> None:
    await idle(backend)
    commits = count_commits(backend)
    writes = [backend.batch([Statement("INSERT INTO t VALUES (?, ?)", (k, k)),
                             Statement("UPDATE t SET v = v + 1 WHERE k = ?", (k,), expect=1)]) for k in range(2, 12)]
    stale = backend.batch([Statement("UPDATE t SET v = 7 WHERE k = 1"),  # rolled back with its failing check
                           Statement("UPDATE t SET v = 9 WHERE k = 1 AND v = 5", expect=1)])
    results = await asyncio.gather(*writes, stale, return_exceptions=True)
    assert results[:10] == [None] * 10
    assert isinstance(results[10], UnexpectedRows)
    # the first reaches an idle writer and goes at once; the ten queued behind it share one COMMIT
    assert len(commits) == 2, "the transactions queued behind the first should have shared one COMMIT"
    assert await rows(backend) == {1: 0, **{k: k + 1 for k in range(2, 12)}}


async def test_a_full_disk_fails_every_write_of_the_group_and_the_writer_goes_on(backend: SqliteBackend) -> None:
    await backend.set_max_pages(await backend.page_bytes() // 4096 + 1)
    big = "x" * 200_000
    writes = [backend.batch([Statement("INSERT INTO t VALUES (?, ?)", (k, big))]) for k in range(2, 6)]
    results = await asyncio.gather(*writes, return_exceptions=True)
    assert results and all(isinstance(r, StorageFull) for r in results), results
    assert await rows(backend) == {1: 0}
    await backend.set_max_pages(1_000_000)
    await backend.batch([Statement("INSERT INTO t VALUES (2, 2)")])  # the writer goes on after the failure
    assert await rows(backend) == {1: 0, 2: 2}


async def test_a_caller_that_gives_up_does_not_undo_its_write_nor_its_neighbours(backend: SqliteBackend) -> None:
    first = asyncio.create_task(backend.batch([Statement("INSERT INTO t VALUES (2, 2)")]))
    await asyncio.sleep(0)  # the flusher has taken it: the write is under way
    gives_up = asyncio.create_task(backend.batch([Statement("INSERT INTO t VALUES (3, 3)")]))
    waits = asyncio.create_task(backend.batch([Statement("INSERT INTO t VALUES (4, 4)")]))
    await asyncio.sleep(0)
    first.cancel()
    gives_up.cancel()
    await waits  # its neighbours' cancellations do not reach it
    for task in (first, gives_up):
        with pytest.raises(asyncio.CancelledError):
            await task
    await backend.batch([Statement("INSERT INTO t VALUES (5, 5)")])  # and the writer goes on
    assert await rows(backend) == {1: 0, 2: 2, 3: 3, 4: 4, 5: 5}


async def test_a_free_write_lock_is_taken_at_once_and_a_busy_one_is_left_as_it_was() -> None:
    lock = asyncio.Lock()
    assert _taken_at_once(lock) and lock.locked()
    assert not _taken_at_once(lock)  # held: nothing taken, nobody queued
    waiter = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)
    lock.release()  # handed to the waiter, which has not run yet
    assert not _taken_at_once(lock)
    assert await waiter and lock.locked()
    lock.release()
    assert not lock.locked() and _taken_at_once(lock)


async def test_a_write_on_an_idle_writer_is_under_way_before_the_event_loop_turns(backend: SqliteBackend) -> None:
    await idle(backend)
    commits = count_commits(backend)
    write = asyncio.ensure_future(backend.batch([Statement("INSERT INTO t VALUES (2, 2)")]))
    await asyncio.sleep(0)  # one turn: the caller queued it and handed it to the writer's thread at once
    assert backend._write_lock.locked()
    await write
    assert commits == ["COMMIT"] and await rows(backend) == {1: 0, 2: 2}


async def test_a_flusher_cancelled_before_it_ran_leaves_the_writer_free(backend: SqliteBackend) -> None:
    await idle(backend)
    write = asyncio.ensure_future(backend.batch([Statement("INSERT INTO t VALUES (2, 2)")]))
    await asyncio.sleep(0)  # the write went to the thread at once; its flusher has not run yet
    assert backend._flusher is not None
    backend._flusher.cancel()  # as when the bot stops
    await write  # the caller still hears its write landed
    await asyncio.wait_for(backend.batch([Statement("INSERT INTO t VALUES (3, 3)")]), 5)
    assert await rows(backend) == {1: 0, 2: 2, 3: 3}
