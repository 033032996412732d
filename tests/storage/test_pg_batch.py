"""PostgreSQL round trips: a move's commit is one statement, and a connection goes back to the pool as it is."""

from __future__ import annotations

import asyncpg
import pytest

from storage import Commit, Store, VersionConflict
from storage.backend import Statement
from storage.pg_batch import one_statement
from storage.rows import Head
from tests.storage.test_isolation import make_table, move, players
from tests.table_reads import channel_row

GUARD = Statement("UPDATE games SET version = ? WHERE id = ? AND version = ?", (2, 1, 1), expect=1)
ROW = Statement("INSERT INTO actions (game_id, version) VALUES (?, ?)", (1, 2))


def test_a_moves_commit_is_folded_whatever_it_carries() -> None:
    """The statements `Store.commit` makes for a move, with or without snapshot, head and blobs, all fold."""
    entry = Commit(kind="act", seat=0, user_id=1, action={"kind": "play"}, snapshot={"a": 1},
                   head=Head(engine="1", state={"a": 1}))
    for statements in (Store._commit_statements(7, 3, entry, 1.0, blobs={"static": {"x": 1}}),
                       Store._commit_statements(7, 3, Commit(kind="act"), 1.0, new_turn=True, status="active")):
        folded = one_statement(statements)
        assert folded is not None
        sql, params = folded
        assert sql.startswith("WITH g AS (UPDATE games SET") and sql.endswith("SELECT count(*) FROM g")
        assert sql.count("?") == len(params) == sum(len(s.params) for s in statements)
        assert sql.count("FROM g") == len(statements)  # every INSERT takes its row from the guard, and the count


def test_the_guard_comes_first_whatever_the_order() -> None:
    folded = one_statement([ROW, GUARD])
    assert folded is not None
    sql, params = folded
    assert sql.index("UPDATE games") < sql.index("INSERT INTO actions")
    assert params == [2, 1, 1, 1, 2]


@pytest.mark.parametrize("statements", [
    [ROW],  # no guard: nothing to hang the INSERTs on
    [GUARD, Statement(GUARD.sql, GUARD.params, expect=1)],  # two guards
    [Statement(GUARD.sql, GUARD.params, expect=2), ROW],  # a guard of two rows would insert twice
    [GUARD, Statement("INSERT INTO seats (a) VALUES (?)", [(1,), (2,)], many=True)],
    [GUARD, Statement("UPDATE seats SET kind = ? WHERE game_id = ?", ("ai", 1))],
    [GUARD, Statement("DELETE FROM seats WHERE game_id = ?", (1,))],
    [GUARD, Statement("INSERT INTO actions (game_id) SELECT id FROM games")],
    [GUARD, Statement("INSERT INTO actions (game_id) VALUES (?) RETURNING game_id", (1,))],
    [Statement("SELECT pg_advisory_xact_lock(1)", expect=1), ROW],
])
def test_other_batches_stay_statement_by_statement(statements: list[Statement]) -> None:
    assert one_statement(statements) is None


async def test_a_folded_commit_writes_all_or_nothing(pg_server) -> None:
    store = await Store(pg_server.create_database()).open()
    try:
        table = make_table(store)
        await table.new(guild_id=1, channel_id=3, who=players(3)[0], game_type="tiny")
        await table.join(3, players(3)[1])
        await table.start(3, players(3)[0])
        await move(table, 3)
        row = await channel_row(table, 3)
        head_before = await store.stored_state(row.id)
        stale = Commit(kind="act", seat=0, user_id=31, action={"kind": "end"}, head=Head(engine="x", state={}))
        with pytest.raises(VersionConflict):
            await store.commit(row.id, row.version - 1, stale, 5.0, blobs={"static": {"x": 1}})
        assert await store.action(row.id, row.version + 1) is None and await store.action(row.id, row.version)
        assert await store.blob(row.id, "static") != {"x": 1}
        assert await store.stored_state(row.id) == head_before
        fresh = Commit(kind="act", seat=0, user_id=31, action={"kind": "end"},
                       head=Head(engine="x", state={"kept": True}))
        assert await store.commit(row.id, row.version, fresh, 5.0, blobs={"static": {"x": 1}}) == row.version + 1
        written = await store.action(row.id, row.version + 1)
        assert written is not None and written.user_id == 31 and written.action == {"kind": "end"}
        assert await store.blob(row.id, "static") == {"x": 1}
        stored = await store.stored_state(row.id)
        assert stored is not None and stored.snapshot == {"kept": True}
    finally:
        await store.close()


async def test_a_connection_goes_back_to_the_pool_without_a_reset_query(pg_server) -> None:
    """asyncpg's default reset (unlock advisory locks, close cursors, unlisten, reset settings) is a round trip
    after every read and write; the bot uses none of those outside a transaction, so it is skipped."""
    dsn = pg_server.create_database()
    store = await Store(dsn).open()
    try:
        async with store.backend.read() as q:
            found = await q.fetchone("SELECT pg_backend_pid() AS pid, 'the marked read' AS mark")
        assert found is not None
        watcher = await asyncpg.connect(dsn)
        try:
            last = await watcher.fetchval("SELECT query FROM pg_stat_activity WHERE pid = $1", found["pid"])
        finally:
            await watcher.close()
        assert "the marked read" in last
    finally:
        await store.close()
