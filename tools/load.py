"""Many channels at once: table-layer throughput, command latency through the stand-in, bytes per stored move."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from rules import registry
from rules.base import Game
from rules.rng import Rng
from storage import Store
from table import Table, TableError, Who
from tools.pgserver import PgServer


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def database(backend: str, tmp: str, pg: PgServer | None, name: str) -> str:
    """Where a fresh database named `name` lives: a file under `tmp`, or a new database on the PostgreSQL server."""
    if backend == "sqlite":
        return str(Path(tmp) / f"{name}.sqlite3")
    if pg is None:
        raise SystemExit(f"load: the {backend} figures need a PostgreSQL server")
    return pg.create_database(name)


@contextlib.asynccontextmanager
async def opened(backend: str, tmp: str, pg: PgServer | None, name: str) -> AsyncIterator[Store]:
    target = database(backend, tmp, pg, name)
    store = await Store(target).open()
    try:
        yield store
    finally:
        await store.close()


def people(channel: int, seats: int) -> list[Who]:
    return [Who(channel * 100 + i + 1, f"P{channel}-{i}") for i in range(seats)]


async def start_game(table: Table, game: Game, channel: int, seats: int) -> None:
    who = people(channel, seats)
    await table.new(guild_id=1, channel_id=channel, who=who[0], game_type=game.id)
    for person in who[1:]:
        await table.join(channel, person)
    await table.start(channel, who[0])


async def random_move(table: Table, game: Game, channel: int, seats: int, rng: Rng) -> bool:
    """One random legal move by a seat on turn; False when the channel's game is over."""
    row = await table.game_for(channel)
    if row is None:
        return False
    state = (await table.inspect(row.id)).state
    seat = rng.choice(sorted(game.to_act(state)))
    # A random game master would end the quest at once; quests are played to their own end here.
    legal = [la for la in game.legal_actions(state, seat) if la.action.kind != "gm_end_quest"]
    if not legal:
        return False
    await table.act(channel, people(channel, seats)[seat], rng.choice(legal).action)
    return True


async def table_load(store: Store, game: Game, channels: int, seconds: float, seed: int) -> dict[str, Any]:
    """`channels` games played as fast as each can go, all at once, through the table layer."""
    seats = max(game.min_seats, 2)
    table = Table(store, seed_source=itertools.count(seed).__next__)
    await asyncio.gather(*(start_game(table, game, c, seats) for c in range(channels)))
    latencies: list[float] = []
    failures: list[str] = []
    deadline = time.perf_counter() + seconds

    async def player(channel: int) -> None:
        rng = Rng.from_seed(seed * 1000 + channel)
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                if not await random_move(table, game, channel, seats, rng):
                    await start_game(table, game, channel, seats)
                    continue
            except TableError as exc:
                failures.append(exc.reason.key)
                continue
            except Exception as exc:  # a benchmark counts failures instead of stopping at the first
                failures.append(repr(exc)[:120])
                continue
            latencies.append((time.perf_counter() - started) * 1000)

    began = time.perf_counter()
    await asyncio.gather(*(player(c) for c in range(channels)))
    elapsed = time.perf_counter() - began
    return {"channels": channels, "actions": len(latencies), "seconds": round(elapsed, 1),
            "committed_actions_per_s": round(len(latencies) / elapsed, 1),
            "latency_ms_p50": round(percentile(latencies, 50), 1),
            "latency_ms_p99": round(percentile(latencies, 99), 1),
            "failures": len(failures), "failure_kinds": sorted(set(failures))[:5]}


async def standin_load(target: str, game: Game, channels: int, seconds: float, pace: float, seed: int
                       ) -> dict[str, Any]:
    """`channels` games through the in-process stand-in with images; each channel moves every `pace` seconds."""
    from bot import make_bot
    from standin.inprocess import InProcessDiscord
    from standin.world import default_world, is_error_output

    world, guild, first = default_world()
    rooms = [first, *(world.add_text_channel(guild, f"mesa-{i}") for i in range(1, channels))]
    seats = max(game.min_seats, 2)
    latencies: list[float] = []
    failures: list[str] = []
    async with InProcessDiscord(lambda: make_bot(target), world=world, guild=guild, channel=first,
                                settle_timeout=120, strict=False) as d:
        table: Table = d.bot.table
        names = {c: [f"u{c}x{i}" for i in range(seats)] for c in range(channels)}
        for c, room in enumerate(rooms):
            await d.command(names[c][0], f"/game new game:{game.id}", channel=room)
            for name in names[c][1:]:
                await d.command(name, "/game join", channel=room)
            await d.command(names[c][0], "/game start", channel=room)
        deadline = time.perf_counter() + seconds

        async def player(c: int) -> None:
            rng = Rng.from_seed(seed * 7919 + c)
            await asyncio.sleep(rng.below(1000) / 1000 * pace)  # channels do not all move in step
            while time.perf_counter() < deadline:
                row = await table.game_for(rooms[c].id)
                if row is None:
                    return
                loaded = await table.inspect(row.id)
                seat = rng.choice(sorted(game.to_act(loaded.state)))
                legal = [la for la in game.legal_actions(loaded.state, seat) if len(la.action.token()) <= 100]
                token = rng.choice(legal).action.token()
                started = time.perf_counter()
                outputs = await d.command_alone(names[c][seat], f'/game act action:"{token}"', channel=rooms[c])
                latencies.append((time.perf_counter() - started) * 1000)
                failures.extend(o.content[:80] for o in outputs if is_error_output(o))
                await asyncio.sleep(max(0.0, pace - (time.perf_counter() - started)))

        began = time.perf_counter()
        await asyncio.gather(*(player(c) for c in range(channels)))
        elapsed = time.perf_counter() - began
    return {"channels": channels, "pace_s": pace, "commands": len(latencies),
            "commands_per_s": round(len(latencies) / elapsed, 1),
            "command_ms_p50": round(percentile(latencies, 50), 1),
            "command_ms_p99": round(percentile(latencies, 99), 1),
            "failures": len(failures), "failure_samples": sorted(set(failures))[:3]}


async def stored_bytes(store: Store, game: Game, moves: int, seed: int) -> dict[str, Any]:
    """Bytes the database grows by per stored move, over whole games of random legal play."""
    seats = max(game.min_seats, 2)
    table = Table(store, seed_source=itertools.count(seed).__next__)
    before = await store.backend.page_bytes()
    rng = Rng.from_seed(seed)
    done, channel, games = 0, 1, 0
    commit_ms_early: list[float] = []
    commit_ms_late: list[float] = []
    await start_game(table, game, channel, seats)
    games = 1
    while done < moves:
        started = time.perf_counter()
        if not await random_move(table, game, channel, seats, rng):
            channel += 1
            games += 1
            await start_game(table, game, channel, seats)
            continue
        spent = (time.perf_counter() - started) * 1000
        (commit_ms_early if done < moves // 10 else commit_ms_late if done >= moves * 9 // 10 else []).append(spent)
        done += 1
    after = await store.backend.page_bytes()
    return {"moves": done, "games": games, "bytes_per_move": round((after - before) / done, 1),
            "move_ms_p50_first_tenth": round(percentile(commit_ms_early, 50), 2),
            "move_ms_p50_last_tenth": round(percentile(commit_ms_late, 50), 2)}


async def load_figures(backends: list[str], channels: int, seconds: float, pace: float, moves: int,
                       seed: int) -> dict[str, Any]:
    hero_realms, heroquest = registry.get("hero-realms"), registry.get("heroquest")
    assert hero_realms is not None and heroquest is not None
    result: dict[str, Any] = {}
    pg = PgServer(durable=True).start() if "postgresql" in backends else None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for backend in backends:
                figures: dict[str, Any] = {}
                async with opened(backend, tmp, pg, "table") as store:
                    figures["table_layer"] = await table_load(store, hero_realms, channels, seconds, seed)
                target = database(backend, tmp, pg, "standin")
                figures["through_standin"] = await standin_load(target, hero_realms, channels, seconds, pace, seed)
                for game in (hero_realms, heroquest):
                    async with opened(backend, tmp, pg, f"bytes_{game.id.replace('-', '_')}") as store:
                        figures[f"storage_{game.id}"] = await stored_bytes(store, game, moves, seed)
                result[backend] = figures
    finally:
        if pg is not None:
            pg.stop()
    if "sqlite" in result and "postgresql" in result:
        a, b = result["postgresql"]["table_layer"], result["sqlite"]["table_layer"]
        result["postgresql_over_sqlite_actions_per_s"] = round(
            a["committed_actions_per_s"] / max(b["committed_actions_per_s"], 0.1), 2)
    return result
