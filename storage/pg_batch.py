"""A move's batch as one PostgreSQL statement: the version check's UPDATE feeds every INSERT, one round trip."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from storage.backend import Statement

#: `INSERT INTO table (columns) VALUES (values)` with an optional `ON CONFLICT ...`: the only shape folded in.
_INSERT = re.compile(r"INSERT INTO (\w+) \(([^()]*)\) VALUES \(([^()]*)\)((?: ON CONFLICT .*)?)", re.S)


def one_statement(statements: Sequence[Statement]) -> tuple[str, list[Any]] | None:
    """The batch as `WITH g AS (UPDATE ... RETURNING 1), w0 AS (INSERT ... SELECT ... FROM g), ... SELECT count(*)
    FROM g` and its parameters, when it is one guarded UPDATE (`expect=1`) and single-row INSERTs; else None (the
    batch then runs statement by statement in a transaction).

    Every INSERT takes its row from the guard's output, so when the guard finds no row (someone else moved first)
    nothing is written at all: the statement's count is then 0 and the caller reports the conflict. One statement
    is one implicit transaction, all or nothing, so a batch of five round trips (BEGIN, three statements, COMMIT)
    becomes one, and so does the event loop's waiting for them.
    """
    guards = [s for s in statements if s.expect is not None]
    if len(guards) != 1 or guards[0].expect != 1 or any(s.many for s in statements):
        return None
    guard = guards[0]
    if not guard.sql.startswith("UPDATE ") or "RETURNING" in guard.sql.upper():
        return None
    parts = [f"g AS ({guard.sql} RETURNING 1)"]
    params = list(guard.params)
    for number, statement in enumerate(s for s in statements if s is not guard):
        shape = _INSERT.fullmatch(statement.sql)
        if shape is None or "RETURNING" in statement.sql.upper():
            return None
        table, columns, values, conflict = shape.groups()
        parts.append(f"w{number} AS (INSERT INTO {table} ({columns}) SELECT {values} FROM g{conflict})")
        params.extend(statement.params)
    return "WITH " + ", ".join(parts) + " SELECT count(*) FROM g", params
