"""SQLite through aiosqlite: one writer connection running whole transactions one at a time, pooled readers."""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.backend import Query, Row, Statement, UnexpectedRows, UniqueViolation, translated
from storage.rows import StorageError, StorageFull, StorageUnavailable
from storage.schema import SQLITE_MIGRATIONS

READERS = 2
#: Transactions waiting for the writer, each with its caller's future.
Queued = list[tuple[list[Statement], "asyncio.Future[None]"]]
#: Transactions that wait for the writer are written together, each in a savepoint, under one COMMIT and so one
#: disk sync: at most this many at once.
GROUP_MAX = 32
T = TypeVar("T")


#: Free bytes below which a write that failed with an I/O error is taken for a full disk.
NO_ROOM_BYTES = 1 << 20


def _no_room(folder: str | None) -> bool:
    """Whether the disk holding `folder` is (almost) full: SQLite reports a full disk as SQLITE_FULL when a write
    comes up short, but as an I/O error when growing the WAL index, syncing or truncating fails for want of room."""
    if not folder:
        return False
    try:
        return shutil.disk_usage(folder).free < NO_ROOM_BYTES
    except OSError:
        return False


def _translate(exc: BaseException, folder: str | None = None) -> BaseException:
    """Driver errors the table must tell apart, as our own types; anything else unchanged."""
    if isinstance(exc, sqlite3.IntegrityError) and "UNIQUE" in str(exc):
        return UniqueViolation(str(exc))
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return StorageFull(f"the disk is full: {exc}")
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", "")
        text = str(exc).lower()
        if name == "SQLITE_FULL" or "disk is full" in text or (name.startswith("SQLITE_IOERR") and _no_room(folder)):
            return StorageFull(f"the database is full: {exc}")
        if name.startswith(("SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_CORRUPT", "SQLITE_NOTADB")):
            return StorageUnavailable(f"the database refused the write: {exc}")
    return exc


class _SqliteQuery:
    """Statements on a reader (aiosqlite: one thread per connection)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.db.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        row = await self.db.execute_insert(sql, params)
        assert row is not None
        return int(row[0])

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # sqlite3.Row reads like a mapping (row["name"]) without being one for the type checker.
        return cast(list[Row], list(await self.db.execute_fetchall(sql, params)))


class _LoopQuery(_SqliteQuery):
    """One-statement reads run right on the event loop, without the hop to a reader thread and back.

    A read of a few rows from pages already in memory takes microseconds, far less than the two hand-overs of the
    interpreter lock a reader thread needs (milliseconds each when AI and database threads are busy). With
    `busy_timeout=0` such a read never waits on the loop: if SQLite answers busy (a checkpoint, a recovery), the
    statement goes to a reader thread as before.
    """

    def __init__(self, conn: sqlite3.Connection, fallback: Callable[[], AbstractAsyncContextManager[Query]]) -> None:
        self.conn = conn
        self.fallback = fallback

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return cast(list[Row], self.conn.execute(sql, params).fetchall())
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorname", "") not in ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_BUSY_RECOVERY",
                                                             "SQLITE_BUSY_SNAPSHOT"):
                raise
        async with self.fallback() as reader:
            return await reader.fetchall(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.fallback() as reader:
            return await reader.execute(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        async with self.fallback() as reader:
            await reader.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.fallback() as reader:
            return await reader.insert(sql, params)


def _taken_at_once(lock: asyncio.Lock) -> bool:
    """Takes a free asyncio lock without a turn of the event loop (its `acquire` returns at once when free);
    False, and nothing taken, when someone holds it or waits for it."""
    if lock.locked():
        return False
    acquiring = lock.acquire()
    try:
        acquiring.send(None)
    except StopIteration:
        return True
    acquiring.close()  # it would have waited: leave the queue as it was
    return False


class _Writer:
    """The one connection that writes, owned by one thread: a batch runs there whole, in a single hop."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabletop-sqlite-writer")

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.thread, partial(fn, *args))

    def connect(self) -> None:
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        for pragma in ("foreign_keys=ON", "busy_timeout=5000", "journal_mode=WAL",
                       # FULL: an acknowledged action survives even a power cut, not only a killed process.
                       "synchronous=FULL"):
            self.conn.execute(f"PRAGMA {pragma}")

    def db(self) -> sqlite3.Connection:
        if self.conn is None:
            raise StorageUnavailable("the store is not open")
        return self.conn

    def probe(self) -> None:
        """A real write, rolled back: a read-only file or folder is found at start, not at the first move."""
        conn = self.db()
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE write_probe (x INTEGER)")
        finally:
            conn.execute("ROLLBACK")

    def rollback(self) -> None:
        # After SQLITE_FULL during COMMIT, SQLite may already have rolled back by itself.
        conn = self.db()
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")

    def batch(self, statements: Sequence[Statement]) -> None:
        conn = self.db()
        conn.execute("BEGIN IMMEDIATE")
        try:
            self._run(conn, statements)
            conn.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise

    def group(self, batches: Sequence[Sequence[Statement]]) -> list[BaseException | None]:
        """Several whole transactions under one COMMIT (one disk sync): each in its own savepoint, so one that
        fails (a version that moved on) is rolled back alone and the others are written. Returns each one's error,
        or None; a failing COMMIT (a full disk) raises, and then none of them is written."""
        conn = self.db()
        results: list[BaseException | None] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statements in batches:
                conn.execute("SAVEPOINT one")
                try:
                    self._run(conn, statements)
                except Exception as exc:
                    if not conn.in_transaction:  # SQLite rolled back everything (a full disk): the group fails
                        raise
                    conn.execute("ROLLBACK TO one")
                    results.append(exc)
                else:
                    results.append(None)
                conn.execute("RELEASE one")
            conn.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise
        return results

    @staticmethod
    def _run(conn: sqlite3.Connection, statements: Sequence[Statement]) -> None:
        for statement in statements:
            if statement.many:
                conn.executemany(statement.sql, statement.params)
                continue
            changed = conn.execute(statement.sql, statement.params).rowcount
            if statement.expect is not None and changed != statement.expect:
                raise UnexpectedRows(statement.sql)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def stop(self) -> None:
        await self.call(self.close)
        self.thread.shutdown(wait=True)


class _WriterQuery:
    """Statements of a multi-step write transaction, each run on the writer's thread."""

    def __init__(self, writer: _Writer) -> None:
        self.writer = writer

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.writer.call(lambda: self.writer.db().execute(sql, params).rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.writer.call(lambda: self.writer.db().executemany(sql, rows))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.writer.call(lambda: int(self.writer.db().execute(sql, params).lastrowid or 0))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return cast(list[Row], await self.writer.call(lambda: self.writer.db().execute(sql, params).fetchall()))


class SqliteBackend:
    """WAL with synchronous=FULL: an acknowledged action survives a killed process and a power cut.

    SQLite has one writer at a time whatever we do; a single writer connection behind an asyncio lock
    keeps every transaction whole and alone without the busy-wait polling of competing connections.
    """

    name = "sqlite"
    migrations = SQLITE_MIGRATIONS

    def __init__(self, path: str) -> None:
        self.path = path
        folder = None if path == ":memory:" else str(Path(path).resolve().parent)
        self._translate = partial(_translate, folder=folder)
        self._writer: _Writer | None = None
        self._readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._all_readers: list[aiosqlite.Connection] = []
        #: The connection for one-statement reads on the event loop itself (`_LoopQuery`); None: readers only.
        self._loop_reader: sqlite3.Connection | None = None
        self._write_lock = asyncio.Lock()
        #: Batches waiting for the writer (each with the future its caller awaits), written together.
        self._queued: Queued = []
        self._flusher: asyncio.Task[None] | None = None

    async def open(self) -> None:
        memory = self.path == ":memory:"
        if not memory:
            folder = Path(self.path).resolve().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(f"cannot create the database folder {folder}: {exc.strerror}") from exc
            if not os.access(folder, os.W_OK):
                raise StorageError(f"the database folder {folder} is not writable: SQLite needs to write its "
                                   "journal there. Fix the permissions or set TABLETOP_DB to another path.")
        try:
            self._writer = _Writer(self.path)
            await self._writer.call(self._writer.connect)
            await self._writer.call(self._writer.probe)
        except sqlite3.Error as exc:
            await self.close()
            raise StorageError(_startup_reason(self.path, exc)) from exc
        for _ in range(0 if memory else READERS):
            reader = await self._connect()
            self._all_readers.append(reader)
            self._readers.put_nowait(reader)
        if not memory and os.environ.get("TABLETOP_SQLITE_LOOP_READS", "1") != "0":
            self._loop_reader = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._loop_reader.row_factory = sqlite3.Row
            for pragma in ("query_only=ON", "busy_timeout=0"):
                self._loop_reader.execute(f"PRAGMA {pragma}")

    async def _connect(self) -> aiosqlite.Connection:
        db = await aiosqlite.connect(self.path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        return db

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():  # writes already acknowledged-to-be go first
            with suppress(Exception):
                await self._flusher
        for reader in self._all_readers:
            await reader.close()
        self._all_readers.clear()
        if self._loop_reader is not None:
            self._loop_reader.close()
            self._loop_reader = None
        self._readers = asyncio.Queue()
        if self._writer is not None:
            await self._writer.stop()
            self._writer = None

    @property
    def writer(self) -> _Writer:
        if self._writer is None:
            raise StorageUnavailable("the store is not open")
        return self._writer

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Query]:
        async with self._write_lock:
            writer = self.writer
            try:
                await writer.call(lambda: writer.db().execute("BEGIN IMMEDIATE"))
                yield _WriterQuery(writer)
                await writer.call(lambda: writer.db().execute("COMMIT"))
            except BaseException as exc:
                await writer.call(writer.rollback)
                with translated(self._translate):
                    raise exc

    async def batch(self, statements: Sequence[Statement]) -> None:
        """One transaction, acknowledged once it is on disk; transactions queued meanwhile share its disk sync."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queued.append((list(statements), done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(self._start_now(loop)))
        # A caller that gives up cancels only its own future: the write already queued goes on in the flusher.
        # (No `shield`: it would add two hops through the event loop to every commit, for the same behaviour.)
        await done

    def _start_now(self, loop: asyncio.AbstractEventLoop) -> tuple[Queued, asyncio.Future[None]] | None:
        """With the writer free, the queued group goes to its thread at once rather than when the flusher's task
        first runs, a turn of the event loop later. Returns the group and its job, the write lock held for it."""
        if self._writer is None or not _taken_at_once(self._write_lock):
            return None
        group, self._queued = self._queued[:GROUP_MAX], self._queued[GROUP_MAX:]
        try:
            job = loop.run_in_executor(self._writer.thread, self._write_group, loop, group)
        except BaseException:  # no thread to run it (shutting down): the flusher tries again the usual way
            self._queued = group + self._queued
            self._write_lock.release()
            return None
        # Released by the job itself, not by the flusher: a flusher cancelled before it ever ran keeps no lock.
        job.add_done_callback(lambda _: self._write_lock.release())
        return group, job

    async def _flush(self, started: tuple[Queued, asyncio.Future[None]] | None = None) -> None:
        loop = asyncio.get_running_loop()
        if started is not None:
            group, job = started
            try:
                await job
            except asyncio.CancelledError:  # the bot is closing: nobody is left waiting for these
                for _, done in group:
                    done.cancel()
                raise
            except Exception as exc:
                self._settle(group, [exc] * len(group))
        while self._queued:
            group, self._queued = self._queued[:GROUP_MAX], self._queued[GROUP_MAX:]
            try:
                async with self._write_lock:
                    await self.writer.call(self._write_group, loop, group)
            except asyncio.CancelledError:  # the bot is closing: nobody is left waiting for these
                for _, done in group:
                    done.cancel()
                raise
            except Exception as exc:  # no writer to hand the group to (the store closed): each caller hears why
                self._settle(group, [exc] * len(group))

    def _write_group(self, loop: asyncio.AbstractEventLoop, group: Queued) -> None:
        """In the writer's thread: the group's transactions, then each caller told straight from here, which wakes
        them a turn of the event loop sooner than a reply through the flusher would."""
        try:
            writer = self.writer
            if len(group) == 1:
                writer.batch(group[0][0])
                results: list[BaseException | None] = [None]
            else:
                results = writer.group([statements for statements, _ in group])
        except Exception as exc:  # the whole group failed (the COMMIT itself): each caller hears why
            results = [exc] * len(group)
        with suppress(RuntimeError):  # the loop is closed: the bot stopped, nobody waits any more
            loop.call_soon_threadsafe(self._settle, group, results)

    def _settle(self, group: Queued, results: list[BaseException | None]) -> None:
        for (_, done), error in zip(group, results, strict=True):
            if done.done():
                continue
            if error is None:
                done.set_result(None)
                continue
            ours = self._translate(error)
            if ours is not error:
                ours.__cause__ = error
            done.set_exception(ours)

    @asynccontextmanager
    async def read(self, *, consistent: bool = False) -> AsyncIterator[Query]:
        if not self._all_readers:  # an in-memory database has only its one connection
            async with self._write_lock:
                yield _WriterQuery(self.writer)
            return
        if not consistent and self._loop_reader is not None:
            with translated(self._translate):
                yield _LoopQuery(self._loop_reader, self._borrow)
            return
        async with self._borrow(consistent=consistent) as query:
            yield query

    @asynccontextmanager
    async def _borrow(self, *, consistent: bool = False) -> AsyncIterator[Query]:
        """A reader thread's connection for the statements of one `read()`."""
        reader = await self._readers.get()
        try:
            with translated(self._translate):
                if not consistent:  # one statement is consistent by itself: no transaction, fewer round trips
                    yield _SqliteQuery(reader)
                    return
                # Several SELECTs that must see the same committed moment share one read transaction.
                await reader.execute("BEGIN")
                try:
                    yield _SqliteQuery(reader)
                finally:
                    await reader.execute("COMMIT")
        finally:
            self._readers.put_nowait(reader)

    async def set_max_pages(self, pages: int) -> None:
        """Tests: cap the file size to play a full disk (SQLite's own limit, SQLITE_FULL beyond it)."""
        writer = self.writer
        await writer.call(lambda: writer.db().execute(f"PRAGMA max_page_count={int(pages)}"))

    async def page_bytes(self) -> int:
        """The file's size in use after folding the write-ahead log back (benchmarks)."""
        writer = self.writer

        def measure() -> int:
            db = writer.db()
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            return int(pages) * int(db.execute("PRAGMA page_size").fetchone()[0])

        return await writer.call(measure)


def _startup_reason(path: str, exc: sqlite3.Error) -> str:
    name = getattr(exc, "sqlite_errorname", "")
    if name.startswith("SQLITE_READONLY") or "readonly" in str(exc):
        return (f"the database {path} is read-only: give the bot write access to the file and its folder, "
                "or set TABLETOP_DB to a writable path.")
    if name == "SQLITE_NOTADB" or "not a database" in str(exc):
        return (f"{path} is not a SQLite database: point TABLETOP_DB at the bot's database file, or at a "
                "new path to start an empty one.")
    if name == "SQLITE_CANTOPEN":
        return f"cannot open the database {path}: check the path and its permissions."
    return f"cannot use the database {path}: {exc}"
