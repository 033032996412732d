"""What the store needs from a database: whole read and write transactions over `?`-placeholder SQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

Row = Mapping[str, Any]


class Query(Protocol):
    """Statements inside one transaction. SQL uses `?` placeholders; backends translate as needed."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table with an `id` key and return the new id."""
        ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


@dataclass(frozen=True)
class Statement:
    """One statement of a batch: with `many`, `params` is a list of rows; with `expect`, the statement must
    change exactly that many rows or the whole batch is rolled back with `UnexpectedRows`."""

    sql: str
    params: Sequence[Any] = ()
    many: bool = False
    expect: int | None = None


class UnexpectedRows(Exception):
    """A batch statement changed another number of rows than expected (someone else changed the game)."""


class Backend(Protocol):
    """A database: `write()` is one whole transaction, alone (no other write interleaves with it)."""

    name: str

    @property
    def migrations(self) -> Mapping[int, str]:
        """Migration scripts by schema version for this dialect."""
        ...

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    def read(self, *, consistent: bool = False) -> AbstractAsyncContextManager[Query]:
        """Reads of committed data; `consistent` makes several statements see the same moment."""
        ...

    def write(self) -> AbstractAsyncContextManager[Query]:
        """A transaction committed when the block ends, rolled back when it raises."""
        ...

    async def batch(self, statements: Sequence[Statement]) -> None:
        """Statements known in advance as one whole transaction: the hot path of every move."""
        ...

    async def page_bytes(self) -> int:
        """Bytes the database takes (benchmarks)."""
        ...


class UniqueViolation(Exception):
    """A write broke a unique constraint (e.g. a second open game in one channel)."""


@contextmanager
def translated(translate: Callable[[BaseException], BaseException]) -> Iterator[None]:
    """Driver errors the table must tell apart (full disk, read-only, unique key) become our own types."""
    try:
        yield
    except Exception as exc:
        ours = translate(exc)
        if ours is exc:
            raise
        raise ours from exc


async def run_batch(query: Query, statements: Sequence[Statement]) -> None:
    """A batch through the generic statement interface (backends without a faster way)."""
    for statement in statements:
        if statement.many:
            await query.executemany(statement.sql, list(statement.params))
            continue
        changed = await query.execute(statement.sql, statement.params)
        if statement.expect is not None and changed != statement.expect:
            raise UnexpectedRows(statement.sql)
