"""Records at scale: history, statistics and leaderboard query times with many finished games, on each backend.

`python -m tools.records_bench [--games 10000] [--backend sqlite|postgresql|both]` (also `python -m tools.bench
--records`): fills a fresh database with finished games of one server (records, seat results and the ratings made
from them), then times each query the records commands make. One JSON object; milliseconds p50/p99.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rules.rng import Rng
from storage import Store
from storage.backend import run_batch
from storage.records import GameRecord, RecordSeat, record_statements
from table import history as H
from table.records import rate

GUILD = 1
GAMES = ("hero-realms", "gorgasali", "guerra-de-indagar", "kings-armory", "heroquest")
PLAYERS = 40
BATCH = 500


def fake_record(game_id: int, rng: Rng, now: float) -> GameRecord:
    """A finished game between 2 and 4 of the server's players (seat 0 wins), with per-game figures."""
    game_type = GAMES[rng.below(len(GAMES))]
    n = 2 + rng.below(3)
    people: list[int] = []
    while len(people) < n:
        user = 1 + rng.below(PLAYERS)
        if user not in people:
            people.append(user)
    coop = game_type == "kings-armory"
    won = rng.below(2) == 0
    seats = tuple(RecordSeat(i, user, f"player{user}", ("coop_win" if won else "coop_loss") if coop else
                             ("won" if i == 0 else "lost"), 1 if coop or i == 0 else i + 1, i,
                             {"turns": 10 + rng.below(30), "health": rng.below(50)})
                  for i, user in enumerate(people))
    ended = now + game_id * 60.0
    return GameRecord(game_id, GUILD, 100 + game_id % 50, game_type, {"variant": "free-for-all"}, ended - 1800,
                      ended, 50 + rng.below(400), 5 + rng.below(40), "finished", {"key": "core.nobody", "params": {}},
                      0, seats, 0 if game_type in ("hero-realms", "gorgasali", "guerra-de-indagar") else 2)


async def fill(store: Store, games: int, seed: int) -> dict[str, float]:
    """`games` finished games (their rows, records and seats) in batches, then the rating pass over all of them."""
    rng = Rng.from_seed(seed)
    now = 1_700_000_000.0
    started = time.perf_counter()
    for first in range(1, games + 1, BATCH):
        ids = range(first, min(games, first + BATCH - 1) + 1)
        records = [fake_record(i, rng, now) for i in ids]
        async with store.backend.write() as q:
            await q.executemany(
                "INSERT INTO games (id, guild_id, channel_id, game_type, options, seed, status, creator_id, version,"
                " extra, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', 1, 'finished', 1, 1, '{}', ?, ?)",
                [(r.game_id, GUILD, r.channel_id, r.game_type, r.ended_at, r.ended_at) for r in records])
            for r in records:
                await run_batch(q, record_statements(r))
    filled = time.perf_counter() - started
    started = time.perf_counter()
    while await store.records.rate_pending(rate, now) > 0:
        pass
    rated = time.perf_counter() - started
    return {"fill_s": round(filled, 2), "rating_pass_s": round(rated, 2),
            "bytes_per_game": round(await record_bytes(store) / games)}


RECORD_TABLES = ("game_records", "record_seats", "ratings", "game_records_by_guild", "game_records_by_type",
                 "game_records_unrated", "record_seats_by_player", "record_seats_by_game", "ratings_board")


async def record_bytes(store: Store) -> int:
    """What the records take on disk: their tables and indexes (SQLite's dbstat, PostgreSQL's relation sizes)."""
    async with store.backend.read() as q:
        if store.backend.name == "postgresql":
            row = await q.fetchone("SELECT pg_total_relation_size('game_records') + pg_total_relation_size("
                                   "'record_seats') + pg_total_relation_size('ratings') AS n")
        else:
            marks = ", ".join("?" for _ in RECORD_TABLES)
            row = await q.fetchone(f"SELECT SUM(pgsize) AS n FROM dbstat WHERE name IN ({marks})"
                                   " OR name LIKE 'sqlite_autoindex_record_seats%'"
                                   " OR name LIKE 'sqlite_autoindex_ratings%'",
                                   RECORD_TABLES)
    return int(row["n"] or 0) if row else 0


async def timed(call: Callable[[], Awaitable[Any]], runs: int) -> dict[str, float]:
    await call()  # warm the caches once
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return {"p50_ms": round(statistics.median(times), 2), "p99_ms": round(times[min(len(times) - 1,
                                                                                    int(len(times) * 0.99))], 2)}


async def queries(store: Store, games: int, runs: int) -> dict[str, Any]:
    now = 1_700_000_000.0
    last_page = max(1, games // H.HISTORY_PAGE)
    checks: dict[str, Callable[[], Awaitable[Any]]] = {
        "history_first_page": lambda: H.history(store, GUILD),
        "history_page_100": lambda: H.history(store, GUILD, page=min(100, last_page)),
        "history_by_game": lambda: H.history(store, GUILD, game_type="gorgasali"),
        "history_by_player": lambda: H.history(store, GUILD, user_id=7),
        "history_by_player_and_game": lambda: H.history(store, GUILD, user_id=7, game_type="hero-realms"),
        "stats_player_all_games": lambda: H.stats(store, GUILD, 7, None, now),
        "leaderboard_rated": lambda: H.leaderboard(store, GUILD, "hero-realms", now),
        "leaderboard_coop": lambda: H.leaderboard(store, GUILD, "kings-armory", now),
    }
    return {name: await timed(call, runs) for name, call in checks.items()}


#: The SQL behind the commands, timed inside the database (no pool, no thread hop, no event loop): what the
#: indexes give, apart from how busy the machine is.
CORE_SQL = {
    "history_page": "SELECT r.* FROM game_records AS r WHERE r.guild_id = 1 ORDER BY r.ended_at DESC, r.game_id DESC"
                    " LIMIT 5 OFFSET 0",
    "history_count": "SELECT COUNT(*) AS n FROM game_records AS r WHERE r.guild_id = 1",
    "history_player": "SELECT r.* FROM game_records AS r WHERE r.guild_id = 1 AND r.game_id IN (SELECT s.game_id"
                      " FROM record_seats AS s WHERE s.guild_id = 1 AND s.user_id = 7)"
                      " ORDER BY r.ended_at DESC, r.game_id DESC LIMIT 5",
    "history_player_count": "SELECT COUNT(DISTINCT s.game_id) AS n FROM record_seats AS s"
                            " WHERE s.guild_id = 1 AND s.user_id = 7",
    "player_games": "SELECT s.game_type, s.result, s.figures, r.started_at, r.ended_at, r.turns FROM record_seats AS s"
                    " JOIN game_records AS r ON r.game_id = s.game_id"
                    " WHERE s.guild_id = 1 AND s.user_id = 7 AND s.result <> 'abandoned'",
    "leaderboard_rated": "SELECT * FROM ratings WHERE guild_id = 1 AND game_type = 'hero-realms'"
                         " ORDER BY ordinal DESC, user_id LIMIT 10",
    "leaderboard_wins": "SELECT user_id, COUNT(*) AS n, SUM(CASE WHEN result IN ('won', 'coop_win') THEN 1 ELSE 0 END)"
                        " AS w FROM record_seats WHERE guild_id = 1 AND game_type = 'kings-armory'"
                        " AND user_id IS NOT NULL AND result <> 'abandoned' GROUP BY user_id"
                        " ORDER BY w DESC, n DESC, user_id LIMIT 10",
}


async def database_ms(store: Store, target: str) -> dict[str, float]:
    """Each core query's best of 5 inside the database: PostgreSQL's EXPLAIN ANALYZE, SQLite's own engine."""
    out: dict[str, float] = {}
    if store.backend.name == "postgresql":
        async with store.backend.read() as q:
            for name, sql in CORE_SQL.items():
                best = float("inf")
                for _ in range(5):
                    row = await q.fetchone("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
                    assert row is not None
                    plan = row["QUERY PLAN"]
                    plan = json.loads(plan) if isinstance(plan, str) else plan
                    best = min(best, float(plan[0]["Execution Time"]))
                out[name] = round(best, 3)
        return out
    import sqlite3

    db = sqlite3.connect(target)
    try:
        for name, sql in CORE_SQL.items():
            best = float("inf")
            for _ in range(5):
                t = time.perf_counter()
                db.execute(sql).fetchall()
                best = min(best, time.perf_counter() - t)
            out[name] = round(best * 1000, 3)
    finally:
        db.close()
    return out


async def bench(target: str, games: int, runs: int, seed: int) -> dict[str, Any]:
    store = await Store(target).open()
    try:
        figures: dict[str, Any] = await fill(store, games, seed)
        figures.update(await queries(store, games, runs))
        figures["in_database_ms"] = await database_ms(store, target)
        return figures
    finally:
        await store.close()


def records_figures(backends: list[str], games: int, runs: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"games": games}
    for backend in backends:
        if backend == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                out["sqlite"] = asyncio.run(bench(str(Path(folder) / "records.sqlite3"), games, runs, seed))
        else:
            from tools.pgserver import PgServer

            with PgServer() as server:
                out["postgresql"] = asyncio.run(bench(server.create_database(), games, runs, seed))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args(argv)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    print(json.dumps({"records": records_figures(backends, args.games, args.runs, args.seed)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
