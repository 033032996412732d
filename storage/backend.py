"""What the store needs from a database: whole read and write transactions over `?`-placeholder SQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
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
