"""Shared fixtures: the tiny test game is registered for every test, and a fresh store per test."""

from __future__ import annotations

import itertools
import os

import pytest

from rules import registry
from storage import Store
from table import Table, Who
from tests.outside_reads import pytest_runtest_protocol, pytest_sessionfinish  # noqa: F401  (reads stay inside)
from tests.platformgame import GAUNTLET
from tests.tinygame import TINY
from tools.pgserver import PgServer

registry.register(TINY)
registry.register(GAUNTLET)
# Tests draw in threads: starting the drawing processes in every test run costs more than it saves (images are the
# same bytes either way; tests/test_drawing.py starts a pool of its own).
os.environ.setdefault("TABLETOP_DRAWING_PROCESSES", "0")


@pytest.fixture
async def store(tmp_path):
    s = await Store(str(tmp_path / "t.sqlite3")).open()
    yield s
    await s.close()


@pytest.fixture(scope="session")
def pg_server():
    """One real PostgreSQL server for the whole run (started here, on 127.0.0.1); a database per test."""
    with PgServer() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request, tmp_path) -> str:
    """The same test against both backends: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "t.sqlite3")
    return request.getfixturevalue("pg_server").create_database()


@pytest.fixture
async def any_store(db_target):
    s = await Store(db_target).open()
    yield s
    await s.close()


class FakeClock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def table(store, clock):
    seeds = itertools.count(11)
    return Table(store, clock=clock, seed_source=lambda: next(seeds))


ALICE = Who(1, "Alice")
BOB = Who(2, "Bob")
CAROL = Who(3, "Carol")
MOD = Who(4, "Mod", can_manage=True)
