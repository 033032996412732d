"""Replay figures: `python -m tools.replay_bench [--game G] [--long-moves 2000]` prints one JSON object (also
`python -m tools.bench --records`): per game, a finished game played through the table and replayed (build seconds,
bytes, frames), the event loop's longest block while building, a 500-move build and a 2,000-move Hero Realms game."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cogs.replay_jobs import ReplayWorks
from rules import registry
from rules.base import Action, Game
from rules.rng import Rng
from storage import Store
from table import Table, Who
from table.replay import Replays

Chooser = Callable[[Game, Any, int, Rng], Action]
PROBE_SECONDS = 0.005


def ai_or_random(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    """The game's AI where it has one for this seat, else a random legal move (a HeroQuest game master)."""
    if game.supports_ai and game.seat_role({}, seat) != "gm":
        try:
            action = game.ai_action(state, seat, rng)
            if game.is_legal(state, seat, action):
                return action
        except Exception:
            pass
    return rng.choice(game.legal_actions(state, seat)).action


def patient(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    """Random legal moves that attack only now and then: Hero Realms games of thousands of moves."""
    legal = game.legal_actions(state, seat)
    calm = [la for la in legal if la.action.kind != "attack"]
    if calm and rng.randint(0, 99) >= 3:
        return rng.choice(calm).action
    return rng.choice(legal).action


def humans_for(game: Game) -> int:
    """People seated in a benched game: two where the game needs a game master, else one beside the AI."""
    return 2 if not game.supports_ai else 1


async def play(table: Table, channel: int, game_id: str, *, humans: int, seats: int, moves: int | None,
               chooser: Chooser = ai_or_random, seed: int = 1, options: dict[str, str] | None = None,
               people: list[Who] | None = None, guild_id: int = 1) -> int:
    """A game at `channel` with `humans` people (or these `people`) and AI for the other seats, played through the
    table (people's moves chosen by `chooser`) until it ends or `moves` log rows are stored; returns its id."""
    people = people or [Who(1000 + i, f"Player {i + 1}") for i in range(humans)]
    report = await table.new(guild_id=guild_id, channel_id=channel, who=people[0], game_type=game_id,
                             options=options, ai_seats=max(0, seats - len(people)))
    for who in people[1:]:
        await table.join(channel, who)
    await table.start(channel, people[0])
    rng = Rng.from_seed(seed)
    by_seat = {s.seat: next(p for p in people if p.user_id == s.user_id)
               for s in await table.store.seats(report.game_id) if s.user_id is not None}
    for _ in range(100_000):
        loaded = await table.inspect(report.game_id)
        game, state = loaded.game, loaded.state
        if loaded.row.status != "active" or game.outcome(state) is not None:
            break
        if moves is not None and loaded.row.version >= moves:
            break
        seat = next((s for s in sorted(game.to_act(state)) if s in by_seat), None)
        if seat is None:
            await table.resume(report.game_id)
            continue
        await table.act(channel, by_seat[seat], chooser(game, state, seat, rng))
    return report.game_id


async def longest_block(work: Callable[[], Any]) -> tuple[Any, float, float]:
    """Run `work()` while a probe task measures the event loop's longest stall; (result, seconds, stall ms)."""
    stop = asyncio.Event()
    worst = 0.0

    async def probe() -> None:
        nonlocal worst
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            before = loop.time()
            await asyncio.sleep(PROBE_SECONDS)
            worst = max(worst, loop.time() - before - PROBE_SECONDS)

    task = asyncio.create_task(probe())
    await asyncio.sleep(0)
    started = time.perf_counter()
    try:
        result = await work()
    finally:
        elapsed = time.perf_counter() - started
        stop.set()
        await task
    return result, elapsed, worst * 1000


async def replay_figures(table: Table, works: ReplayWorks, game_id: int, lang: str = "en") -> dict[str, Any]:
    """Build the public replay of a stored game from nothing (no cache) and measure it."""
    replays = Replays(table)
    row = await table.store.game(game_id)
    assert row is not None
    seats = await table.store.seats(game_id)
    works.timelines.clear()
    works.animations.clear()

    parts: dict[str, float] = {}

    async def build() -> Any:
        started = time.perf_counter()
        timeline = await works.timeline(lambda: replays.source(row, seats), (row.id, row.version, None))
        parts["timeline_s"] = round(time.perf_counter() - started, 2)
        return timeline, await works.animation(timeline, None, None, lang, "normal")

    await works.run(_warm)  # the worker process is started once per bot: not part of a replay's cost
    (timeline, animation), seconds, stall = await longest_block(build)
    return {"moves": timeline.moves, "turns": timeline.last, "frames": animation.frames,
            "build_s": round(seconds, 2), **parts, "bytes": len(animation.data), "loop_block_ms": round(stall, 1),
            "finished": timeline.finished}


def _warm() -> bool:
    return True


async def figures(games: list[str], long_moves: int, mid_moves: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(str(Path(tmp) / "replay.sqlite3")).open()
        table = Table(store, seed_source=lambda: seed)
        works = ReplayWorks()
        try:
            channel = 10
            for game_id in games:
                game = registry.get(game_id)
                assert game is not None
                channel += 1
                played = await play(table, channel, game_id, humans=humans_for(game), seats=2, moves=None,
                                    seed=seed)
                out[game_id] = await replay_figures(table, works, played)
            if mid_moves:
                channel += 1
                played = await play(table, channel, "kings-armory", humans=1, seats=2, moves=mid_moves, seed=seed)
                out[f"kings-armory_{mid_moves}_moves"] = await replay_figures(table, works, played)
            if long_moves:
                channel += 1
                played = await play(table, channel, "hero-realms", humans=2, seats=2, moves=long_moves,
                                    chooser=patient, seed=seed)
                out[f"hero-realms_{long_moves}_moves"] = await replay_figures(table, works, played)
        finally:
            works.close()
            await store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", help="one game id (default: the five games)")
    parser.add_argument("--long-moves", type=int, default=2000, help="moves of the long Hero Realms game (0: none)")
    parser.add_argument("--mid-moves", type=int, default=500, help="moves of the King's Armory build (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = [g for g, game in sorted(registry.games().items()) if not game.in_progress and g != "tiny"]
    if args.game:
        games = [args.game]
    print(json.dumps({"replay": asyncio.run(figures(games, args.long_moves, args.mid_moves, args.seed))}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
