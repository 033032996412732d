"""Each release's fixture database opened on a copy (SQLite) or restored into the test server (PostgreSQL)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import Store

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "upgrade"
RELEASES = sorted(p for p in FIXTURES.iterdir() if (p / "manifest.json").is_file())
CASES = [(release.name, backend) for release in RELEASES for backend in ("sqlite", "postgresql")
         if backend == "sqlite" or (release / "games.pg.sql").is_file()]


@dataclass
class Fixture:
    release: str
    backend: str
    manifest: dict[str, Any]
    store: Store

    def games(self) -> dict[str, dict[str, Any]]:
        """The manifest's games on this backend (ids and versions may differ between the two dumps)."""
        if self.backend == "postgresql":
            return dict(self.manifest["postgresql"]["games"])
        return dict(self.manifest["games"])


async def restore(dsn: str, dump: Path) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(dump.read_text())
    finally:
        await conn.close()


@pytest.fixture(params=CASES, ids=[f"{r}-{b}" for r, b in CASES])
async def fixture_db(request, tmp_path):
    release, backend = request.param
    folder = FIXTURES / release
    if backend == "sqlite":
        target = str(tmp_path / "games.sqlite3")
        shutil.copyfile(folder / "games.sqlite3", target)  # the fixture itself is never written to
    else:
        target = request.getfixturevalue("pg_server").create_database()
        await restore(target, folder / "games.pg.sql")
    store = await Store(target).open()
    try:
        yield Fixture(release, backend, json.loads((folder / "manifest.json").read_text()), store)
    finally:
        await store.close()
