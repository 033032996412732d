"""A full disk is told apart from a database that refuses writes, however the driver words it."""

from __future__ import annotations

import errno
import sqlite3

import asyncpg
import pytest

import storage.sqlite as sqlite_backend
from storage import StorageFull, StorageUnavailable
from storage.postgres import _translate
from storage.sqlite import SqliteBackend


def _ioerr(name: str) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorname = name
    return exc


@pytest.mark.parametrize("free", [0, 10 << 30])
@pytest.mark.parametrize("name", ["SQLITE_IOERR_WRITE", "SQLITE_IOERR_SHMSIZE", "SQLITE_IOERR_FSYNC"])
def test_an_io_error_on_a_disk_with_no_room_is_a_full_disk(tmp_path, monkeypatch, name: str, free: int) -> None:
    class Usage:
        pass

    usage = Usage()
    usage.free = free  # type: ignore[attr-defined]
    monkeypatch.setattr(sqlite_backend.shutil, "disk_usage", lambda folder: usage)
    translated = SqliteBackend(str(tmp_path / "t.sqlite3"))._translate(_ioerr(name))
    assert isinstance(translated, StorageFull if free == 0 else StorageUnavailable), translated


def test_the_driver_words_for_a_full_disk_are_a_full_disk(tmp_path) -> None:
    backend = SqliteBackend(str(tmp_path / "t.sqlite3"))
    full = sqlite3.OperationalError("database or disk is full")
    assert isinstance(backend._translate(full), StorageFull)
    assert isinstance(backend._translate(OSError(errno.ENOSPC, "No space left on device")), StorageFull)
    assert isinstance(backend._translate(_ioerr("SQLITE_READONLY")), StorageUnavailable)


def test_postgresql_disk_full_errors_are_a_full_disk() -> None:
    assert isinstance(_translate(asyncpg.DiskFullError("could not extend file")), StorageFull)
    worded = asyncpg.PostgresIOError('could not write to file "base/1/2": No space left on device')
    assert isinstance(_translate(worded), StorageFull)
    assert isinstance(_translate(OSError(errno.ENOSPC, "No space left on device")), StorageFull)
    assert isinstance(_translate(asyncpg.ReadOnlySQLTransactionError("read-only")), StorageUnavailable)
