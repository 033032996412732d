"""PostgreSQL through asyncpg: a pool of connections, each write a whole transaction on one of them."""

from __future__ import annotations

import errno
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

from storage.backend import Query, Row, Statement, UnexpectedRows, UniqueViolation, run_batch, translated
from storage.pg_batch import one_statement
from storage.rows import StorageError, StorageFull, StorageUnavailable
from storage.schema import POSTGRES_MIGRATIONS

try:  # asyncpg is only needed when TABLETOP_DB names a PostgreSQL server
    import asyncpg
except ImportError:  # pragma: no cover - reported at start-up with what to install
    asyncpg = None

POOL_MIN, POOL_MAX = 1, 10


async def _keep_session(conn: Any) -> None:
    """Nothing to undo when a connection goes back to the pool (asyncpg still rolls back an open transaction).

    asyncpg's default reset unlocks advisory locks, closes cursors, unlistens and resets settings: one more round
    trip after every read and write. The bot takes advisory locks only inside transactions (released at their end)
    and uses no cursors, LISTEN or SET, so there is never anything to reset.
    """


@lru_cache(maxsize=512)
def _dollars(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (our SQL never has `?` inside a literal)."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _m: f"${next(counter)}", sql)


def _translate(exc: BaseException) -> BaseException:
    if asyncpg is None:
        return exc
    if isinstance(exc, asyncpg.UniqueViolationError):
        return UniqueViolation(str(exc))
    if isinstance(exc, (asyncpg.DiskFullError, asyncpg.OutOfMemoryError, asyncpg.ProgramLimitExceededError)):
        return StorageFull(f"the database is full: {exc}")
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return StorageFull(f"the disk is full: {exc}")
    if isinstance(exc, asyncpg.PostgresError) and "no space left on device" in str(exc).lower():
        return StorageFull(f"the database's disk is full: {exc}")  # a write error the server did not class as 53100
    if isinstance(exc, (asyncpg.ReadOnlySQLTransactionError, asyncpg.InsufficientPrivilegeError,
                        asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
        return StorageUnavailable(f"the database refused the write: {exc}")
    return exc


class _PgQuery:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        status = await self.conn.execute(_dollars(sql), *params)
        # asyncpg answers with the command tag, e.g. "UPDATE 1" or "INSERT 0 1".
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(_dollars(sql), rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(await self.conn.fetchval(_dollars(sql + " RETURNING id"), *params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.conn.fetchrow(_dollars(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(_dollars(sql), *params))


class PostgresBackend:
    """Several bot processes may share one database: the version check in every write is the guard."""

    name = "postgresql"
    migrations = POSTGRES_MIGRATIONS

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._pool: Any = None

    async def open(self) -> None:
        if asyncpg is None:
            raise StorageError("TABLETOP_DB names a PostgreSQL server but asyncpg is not installed: "
                               "pip install -r requirements.txt")
        try:
            self._pool = await asyncpg.create_pool(self.dsn, min_size=POOL_MIN, max_size=POOL_MAX,
                                                   reset=_keep_session)
            async with self._pool.acquire() as conn:
                if await conn.fetchval("SHOW transaction_read_only") == "on":
                    raise StorageError("the PostgreSQL database is read-only (a standby?): point TABLETOP_DB "
                                       "at the primary server.")
                async with conn.transaction():
                    # Processes starting together against one database take turns creating it.
                    await conn.execute("SELECT pg_advisory_xact_lock(717171)")
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        except StorageError:
            await self.close()
            raise
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await self.close()
            raise StorageError(f"cannot use the PostgreSQL database: {exc}") from exc

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise StorageUnavailable("the store is not open")
        return self._pool

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Query]:
        with translated(_translate):
            async with self.pool.acquire() as conn, conn.transaction():
                yield _PgQuery(conn)

    async def batch(self, statements: Sequence[Statement]) -> None:
        folded = one_statement(statements)
        if folded is None:
            async with self.write() as q:
                await run_batch(q, statements)
            return
        sql, params = folded
        with translated(_translate):
            async with self.pool.acquire() as conn:
                found = await conn.fetchval(_dollars(sql), *params)
        if found != 1:
            raise UnexpectedRows(sql)

    @asynccontextmanager
    async def read(self, *, consistent: bool = False) -> AsyncIterator[Query]:
        with translated(_translate):
            async with self.pool.acquire() as conn:
                if not consistent:
                    yield _PgQuery(conn)
                    return
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    yield _PgQuery(conn)

    async def page_bytes(self) -> int:
        """Bytes the database's tables and indexes take (benchmarks)."""
        async with self.pool.acquire() as conn:
            return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
