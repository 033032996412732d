"""Databases written by this release with every game stopped mid-game, for the upgrade tests of later releases.

    python -m tools.make_upgrade_fixture [--release NAME] [--seed N] [--no-postgresql]

writes tests/fixtures/upgrade/<release>/: `games.sqlite3`, `games.pg.sql` (a PostgreSQL dump as plain INSERTs
that a test restores into its own server) and `manifest.json` (each game's channel, version and whether its last
move may be undone). Each game is a real playout through the table: random legal moves by its seats, the game's
own steps and AI seats played by the table, stopped a few moves after a sparse snapshot and, when the game
offers one, just after a move its player may take back.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rules import registry
from rules.base import SYSTEM, Game
from rules.rng import Rng
from storage import Store
from storage.schema import LATEST
from table import Table, Who
from tools.pgserver import PgServer

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "upgrade"
#: Moves played before looking for a stopping point, and the most looked at after it.
MIN_MOVES, EXTRA_MOVES = 25, 40
CLOCK_START = 1_700_000_000.0


def person(seat: int, user_id: int | None) -> Who:
    return Who(user_id or 0, f"Player {seat + 1}")


async def random_turn(table: Table, channel: int, rng: Rng) -> tuple[bool, bool]:
    """One random legal move by a person on turn in the channel's game: (moved, the mover may undo it)."""
    row = await table.game_for(channel)
    if row is None or row.status != "active":
        return False, False
    loaded = await table.inspect(row.id)
    game, state = loaded.game, loaded.state
    if game.outcome(state) is not None:
        return False, False
    people = sorted(s for s in game.to_act(state) if s != SYSTEM and loaded.user_of(s) is not None)
    if not people:
        return False, False
    seat = rng.choice(people)
    # A random game master would end the quest at once: it does only when nothing else is left to do.
    every = game.legal_actions(state, seat)
    legal = [la for la in every if la.action.kind != "gm_end_quest"] or every
    if not legal:
        return False, False
    report = await table.act(channel, person(seat, loaded.user_of(seat)), rng.choice(legal).action)
    return True, report.can_undo


async def start(table: Table, game: Game, channel: int) -> None:
    seats = max(game.min_seats, 2)
    users = [Who(channel * 100 + i + 1, f"Player {i + 1}") for i in range(seats)]
    await table.new(guild_id=1, channel_id=channel, who=users[0], game_type=game.id)
    for user in users[1:]:
        await table.join(channel, user)
    await table.start(channel, users[0])


async def play_to_end(table: Table, channel: int, rng: Rng, limit: int = 20_000) -> int:
    """Random legal moves until the channel's game ends; returns the moves made (raises past `limit`)."""
    for moves in itertools.count():
        moved, _ = await random_turn(table, channel, rng)
        if not moved:
            return moves
        if moves > limit:
            raise RuntimeError(f"the game in channel {channel} did not end within {limit} moves")
    raise AssertionError("unreachable")


async def stopped_games(store: Store, seed: int) -> dict[str, dict[str, Any]]:
    """Every registered game started and played to a stopping point mid-game; what the manifest says of each."""
    clock = itertools.count(CLOCK_START, 7.0)
    table = Table(store, clock=lambda: next(clock), seed_source=itertools.count(seed).__next__)
    rng = Rng.from_seed(seed)
    games: dict[str, dict[str, Any]] = {}
    channel = 0
    for game_id, game in sorted(registry.games().items()):
        for _attempt in range(20):
            channel += 1
            await start(table, game, channel)
            stop = await _play_to_stop(table, channel, rng)
            if stop is not None:
                games[game_id] = {"channel": channel, **stop}
                break
        else:
            raise RuntimeError(f"no {game_id} game could be stopped mid-game")
    return games


async def _play_to_stop(table: Table, channel: int, rng: Rng) -> dict[str, Any] | None:
    """Plays on to a stopping point: mid-game, with moves after the newest snapshot (so that a replay has something
    to check), right after a move that may be undone when one comes soon enough. None if the game ended first."""
    last = MIN_MOVES + EXTRA_MOVES - 1
    for moves in range(last + 1):
        moved, can_undo = await random_turn(table, channel, rng)
        row = await table.game_for(channel)
        if not moved or row is None or row.status != "active":
            return None
        if moves >= MIN_MOVES and row.version - row.snapshot_version >= 2 and (can_undo or moves == last):
            return {"game_id": row.id, "version": row.version, "can_undo": can_undo}
    return None


async def make(release: str, seed: int, postgresql: bool) -> Path:
    folder = OUT / release
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.sqlite3"
        store = await Store(str(path)).open()
        try:
            games = await stopped_games(store, seed)
        finally:
            await store.close()
        target = folder / "games.sqlite3"
        target.unlink(missing_ok=True)
        with sqlite3.connect(path) as db:
            db.execute(f"VACUUM INTO '{target}'")
    manifest: dict[str, Any] = {"release": release, "schema": LATEST, "seed": seed, "games": games}
    if postgresql:
        manifest["postgresql"] = await _pg_fixture(folder, seed, games)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return folder


async def _pg_fixture(folder: Path, seed: int, sqlite_games: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The same playouts on PostgreSQL, dumped as plain INSERTs (restorable without psql)."""
    with PgServer() as pg:
        dsn = pg.create_database("fixture")
        store = await Store(dsn).open()
        try:
            games = await stopped_games(store, seed)
        finally:
            await store.close()
        cmd = [str(pg.bin / "pg_dump"), "--inserts", "--no-owner", "--no-privileges", "--no-comments", dsn]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        dump = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True).stdout
    # psql's own commands (`\restrict` in newer pg_dump) and comments are left out: the test runs plain SQL.
    lines = [line for line in dump.splitlines() if line and not line.startswith(("\\", "--"))]
    (folder / "games.pg.sql").write_text("\n".join(lines) + "\n")
    return {"games": games, "same_as_sqlite": games == sqlite_games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", default=f"schema{LATEST}", help="the fixture folder's name")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-postgresql", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    os.environ.setdefault("TABLETOP_PREVIEW_GAMES", "1")
    folder = asyncio.run(make(args.release, args.seed, not args.no_postgresql))
    sizes = {p.name: p.stat().st_size for p in sorted(folder.iterdir())}
    print(json.dumps({"folder": str(folder), "bytes": sizes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
