"""A database the bot cannot use stops it at start with one clear line; a full disk refuses politely."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rules.base import Action
from storage import StorageError, Store
from storage.schema import LATEST
from storage.sqlite import SqliteBackend
from table import Table, TableError, Who
from tests.conftest import FakeClock
from tests.table_reads import tiny_state

ROOT = Path(__file__).resolve().parent.parent.parent
ALICE, BOB = Who(1, "Alice"), Who(2, "Bob")


def make_read_only(path: Path) -> None:
    """chmod is ignored by root, so as root the file is made immutable (chattr +i) instead."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.chmod(0o444)


def undo_read_only(path: Path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(path)], check=False)
    else:
        path.chmod(0o644)


async def made_database(path: Path) -> None:
    store = await Store(str(path)).open()
    await store.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


async def test_read_only_database_is_refused_at_start(tmp_path) -> None:
    path = tmp_path / "ro.sqlite3"
    await made_database(path)
    make_read_only(path)
    try:
        with pytest.raises(StorageError) as exc:
            await Store(str(path)).open()
        assert "read-only" in exc.value.reason and "TABLETOP_DB" in exc.value.reason
    finally:
        undo_read_only(path)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: bread, milk\n" * 50)
    with pytest.raises(StorageError) as exc:
        await Store(str(path)).open()
    assert "not a SQLite database" in exc.value.reason
    assert path.read_text().startswith("shopping list"), "the file was not touched"


async def test_a_newer_schema_is_refused_and_not_written(tmp_path) -> None:
    path = tmp_path / "future.sqlite3"
    await made_database(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = ?", (LATEST + 3,))
    with pytest.raises(StorageError) as exc:
        await Store(str(path)).open()
    assert "newer version" in exc.value.reason
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone()[0] == LATEST + 3


@pytest.mark.parametrize("problem", ["not-a-database", "newer-schema", "read-only"])
async def test_the_bot_stops_at_start_with_one_line(tmp_path, problem: str) -> None:
    path = tmp_path / "bot.sqlite3"
    if problem == "not-a-database":
        path.write_bytes(b"\x00garbage" * 100)
    else:
        await made_database(path)
        if problem == "newer-schema":
            with sqlite3.connect(path) as db:
                db.execute("UPDATE schema_version SET version = 99")
        else:
            make_read_only(path)
    try:
        result = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--local", "--db", str(path), "--script",
                                 str(ROOT / "tests" / "transcripts" / "lobby.txt")],
                                cwd=tmp_path, capture_output=True, text=True, timeout=120)
    finally:
        if problem == "read-only":
            undo_read_only(path)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Cannot start: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout


async def play_one(table: Table, channel: int) -> None:
    """One table call moving the channel on: a new game when it has none, the second seat, the start, or a
    move; exactly one call, so a refusal can be compared with the game just before it."""
    row = await table.game_for(channel)
    if row is None:
        await table.new(guild_id=1, channel_id=channel, who=ALICE, game_type="tiny")
        return
    seen = await table.inspect(row.id)
    if row.status == "lobby":
        await (table.join(channel, BOB) if len(seen.seats) < 2 else table.start(channel, ALICE))
        return
    state = tiny_state(seen)
    who = (ALICE, BOB)[state.turn]
    action = Action.of("end") if state.played else Action.of("play", card=state.hands[state.turn][0])
    await table.act(channel, who, action)


async def test_full_disk_refuses_politely_and_loses_nothing(tmp_path) -> None:
    store = await Store(str(tmp_path / "full.sqlite3")).open()
    table = Table(store, clock=FakeClock())
    for _ in range(3):
        await play_one(table, 5)
    backend = store.backend
    assert isinstance(backend, SqliteBackend)  # a SQLite file: only SQLite caps its pages
    await backend.set_max_pages((await backend.page_bytes()) // 4096)  # no room for another page
    refused = None
    for _ in range(2000):
        before = await table.game_for(5)
        try:
            await play_one(table, 5)
        except TableError as exc:
            refused = exc
            after = await table.game_for(5)
            assert (before and (before.id, before.version)) == (after and (after.id, after.version)), \
                "a refused call changed the game"
            break
    assert refused is not None, "the disk never filled up"
    assert refused.reason.key == "core.error.storage_full"
    acknowledged = [(g.id, g.version) for g in await store.games_in_guild(1, include_closed=True)]
    await store.close()
    # After a restart with room again, everything acknowledged is there and play goes on.
    store = await Store(str(tmp_path / "full.sqlite3")).open()
    table = Table(store, clock=FakeClock())
    assert [(g.id, g.version) for g in await store.games_in_guild(1, include_closed=True)] == acknowledged
    await play_one(table, 5)
    await store.close()


async def test_a_newer_schema_is_refused_on_both_backends(db_target) -> None:
    store = await Store(db_target).open()
    async with store.backend.write() as q:
        await q.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
    await store.close()
    with pytest.raises(StorageError) as exc:
        await Store(db_target).open()
    assert "newer version" in exc.value.reason


async def test_an_unreachable_postgresql_server_is_one_clear_line() -> None:
    with pytest.raises(StorageError) as exc:
        await Store("postgresql://nobody@127.0.0.1:9/none").open()
    assert exc.value.reason.startswith("cannot use the PostgreSQL database")
