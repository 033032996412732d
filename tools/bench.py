"""Speed figures per game: `python -m tools.bench [--game G]` prints one JSON object."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import renderers
from rules import registry
from rules.base import SYSTEM, Game
from rules.rng import Rng
from tools.ai_bench import ai_figures


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


#: Seats per benched game (`--players`); 2 (or the game's minimum) by default.
PLAYERS = 2


def _seats(game: Game) -> int:
    return max(game.min_seats, min(game.max_seats, PLAYERS))


def engine_figures(game: Game, steps: int, seed: int) -> tuple[dict[str, float], list[Any]]:
    """Microseconds for legal_actions + apply per step, over random playouts; returns sampled states too."""
    rng = Rng.from_seed(seed)
    samples: list[float] = []
    cpu: list[float] = []  # this thread's CPU time: what the step costs, whatever else shares the machine
    states: list[Any] = []
    phases: list[float] = []  # milliseconds of each automated phase: the game's own steps, one after another
    n = 0
    while len(samples) < steps:
        state = game.new(game.resolve_options({}), _seats(game), seed + n)
        n += 1
        for _ in range(2000):
            if game.outcome(state) is not None or len(samples) >= steps:
                break
            to_act = sorted(game.to_act(state))
            if not to_act:
                break
            if to_act == [SYSTEM]:
                state = _automated_phase(game, state, phases)
                continue
            seat = rng.choice(to_act)
            started, cpu_started = time.perf_counter_ns(), time.thread_time_ns()
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            state = game.apply(state, seat, rng.choice(legal).action).state
            samples.append((time.perf_counter_ns() - started) / 1000)
            cpu.append((time.thread_time_ns() - cpu_started) / 1000)
            if len(samples) % max(1, steps // 40) == 0:
                states.append(state)
    figures = {"apply_legal_us_p50": round(percentile(samples, 50), 1),
               "apply_legal_us_p99": round(percentile(samples, 99), 1),
               "apply_legal_cpu_us_p99": round(percentile(cpu, 99), 1), "steps": len(samples)}
    if phases:
        figures |= {"auto_phase_ms_p50": round(percentile(phases, 50), 2),
                    "auto_phase_ms_max": round(max(phases), 2), "auto_phases": len(phases)}
    return figures, states


def _automated_phase(game: Game, state: Any, phases: list[float]) -> Any:
    """Play the game's own steps (an enemy turn, a monster phase) as the table does, timing the whole run."""
    started = time.perf_counter_ns()
    while game.outcome(state) is None and sorted(game.to_act(state)) == [SYSTEM]:
        state = game.apply(state, SYSTEM, game.system_action(state)).state
    phases.append((time.perf_counter_ns() - started) / 1e6)
    return state


def render_figures(game: Game, states: list[Any]) -> dict[str, Any]:
    times, cpu, sizes = [], [], []
    if states:  # warm-up: the first render imports the renderer and fills its caches
        renderers.render_for(game.id, game.view(states[0], None), "es")
    for state in states[:30]:
        view = game.view(state, None)
        started, cpu_started = time.perf_counter(), time.thread_time()
        png = renderers.render_for(game.id, view, "es")
        if png is None:
            return {"render": "none"}
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - cpu_started) * 1000)
        sizes.append(len(png))
    seat_times = []
    for state in states[:30]:  # the board of the seat on turn, as its private image draws it (reach marks...)
        seats = sorted(s for s in game.to_act(state) if s >= 0)
        if not seats:
            continue
        view = game.view(state, seats[0])
        started = time.perf_counter()
        renderers.render_for(game.id, view, "es")
        seat_times.append((time.perf_counter() - started) * 1000)
    return {"render_ms_p50": round(percentile(times, 50), 1), "render_ms_p99": round(percentile(times, 99), 1),
            "render_cpu_ms_p50": round(percentile(cpu, 50), 1),
            "render_seat_ms_p50": round(percentile(seat_times, 50), 1),
            "png_bytes_p50": int(percentile(sizes, 50)), "png_bytes_max": max(sizes, default=0)}


async def commit_figures(game: Game, actions: int, seed: int) -> dict[str, float]:
    """Actions per second through the table with every action committed to SQLite (WAL, synchronous=FULL)."""
    from storage import Store
    from table import Table, Who

    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(str(Path(tmp) / "bench.sqlite3")).open()
        table = Table(store, seed_source=lambda: seed)
        people = [Who(1000 + i, f"P{i}") for i in range(_seats(game))]
        rng = Rng.from_seed(seed)
        done, channel = 0, 1
        started = time.perf_counter()
        while done < actions:
            await table.new(guild_id=1, channel_id=channel, who=people[0], game_type=game.id)
            for person in people[1:]:
                await table.join(channel, person)
            await table.start(channel, people[0])
            while done < actions:
                row = await table.game_for(channel)
                if row is None:
                    break
                state = (await table.inspect(row.id)).state
                seat = rng.choice(sorted(game.to_act(state)))
                action = rng.choice(game.legal_actions(state, seat)).action
                await table.act(channel, people[seat], action)
                done += 1
            channel += 1
        elapsed = time.perf_counter() - started
        await store.close()
    return {"committed_actions_per_s": round(done / elapsed, 1)}


async def e2e_figures(game: Game, commands: int, seed: int) -> dict[str, float]:
    """Milliseconds from a slash command to the bot's last reply (its pictures included) and to its first answer
    (`reply_ms`: what the person who acted waits for), through the in-process stand-in, and the REST
    calls each command cost (the stand-in's request log): all of them, user fetches (GET /users/{id}, none when
    DM channels are remembered) and DM channels opened."""
    from bot import make_bot
    from standin.inprocess import InProcessDiscord

    rng = Rng.from_seed(seed)
    times: list[float] = []
    replies: list[float] = []
    heard: list[float] = []  # when the command's first answer (a message tied to its interaction) arrived
    calls: list[int] = []
    os.environ.setdefault("TABLETOP_PREVIEW_GAMES", "1")  # games still being built are measured too
    with tempfile.TemporaryDirectory() as tmp:
        async with InProcessDiscord(lambda: make_bot(str(Path(tmp) / "e2e.sqlite3")), settle_timeout=30) as d:
            names = [f"p{i}" for i in range(_seats(game))]
            d.world.listeners.append(lambda out: heard.append(time.perf_counter())
                                     if out.interaction_id is not None and not heard else None)
            await _warm_drawing(game, seed)
            while len(times) < commands:
                await d.command(names[0], f"/game new game:{game.id}")
                for name in names[1:]:
                    await d.command(name, "/game join")
                await d.command(names[0], "/game start")
                bot, channel = d.bot, d.channel
                if channel is None or await bot.table.game_for(channel.id) is None:
                    raise SystemExit(f"bench: no {game.id} game could be started through the stand-in")
                while len(times) < commands:
                    row = await bot.table.game_for(channel.id)
                    if row is None:
                        break
                    loaded = await bot.table.inspect(row.id)
                    seats = {s.seat: s for s in loaded.seats}
                    seat = rng.choice(sorted(game.to_act(loaded.state)))
                    legal = [la for la in game.legal_actions(loaded.state, seat) if len(la.action.token()) <= 100]
                    action = rng.choice(legal).action
                    user = d.user(names[seats[seat].seat])
                    before = len(d.world.request_log)
                    heard.clear()
                    started = time.perf_counter()
                    await d.command(user, f'/game act action:"{action.token()}"')
                    times.append((time.perf_counter() - started) * 1000)
                    replies.append(((heard[0] if heard else time.perf_counter()) - started) * 1000)
                    calls.append(len(d.world.request_log) - before)
            from cogs.delivery import LATE
            log = d.world.request_log
            dms = sum(1 for o in d.world.outputs if o.kind == "dm")
            fetches = sum(1 for m, path, _ in log if m == "GET" and path.startswith("/users/") and path != "/users/@me")
            opened = sum(1 for m, path, _ in log if m == "POST" and path == "/users/@me/channels")
    return {"command_ms_p50": round(percentile(times, 50), 1), "command_ms_p99": round(percentile(times, 99), 1),
            "reply_ms_p50": round(percentile(replies, 50), 1), "reply_ms_p99": round(percentile(replies, 99), 1),
            "rest_calls_per_command": round(sum(calls) / max(1, len(calls)), 2),
            "rest_calls_per_command_max": max(calls, default=0), "dms": dms, "user_fetches": fetches,
            "dm_channels_opened": opened, "images_with_words": LATE.at_once, "images_by_edit": LATE.shown}


async def _warm_drawing(game: Game, seed: int) -> None:
    """Before commands are timed: the bot's drawing processes started, and each has drawn this game once (a bot
    starts them once, and each fills its renderer's caches on its first board, as `render_figures` warms this
    process); neither is part of a command's cost."""
    from cogs import drawing
    from cogs.ui import ui_for

    await drawing.ready()
    view = game.view(game.new(game.resolve_options({}), _seats(game), seed), None)
    await asyncio.gather(*(drawing.draw(ui_for(game.id).board_image, view, "es")
                           for _ in range(max(1, drawing.pool_size()))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", help="one game id (default: every registered game)")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, help="seats per game (within the game's range)")
    parser.add_argument("--load", action="store_true",
                        help="many channels at once instead: throughput, latency, failures, bytes per move")
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0, help="with --load: how long each load runs")
    parser.add_argument("--pace", type=float, default=5.0,
                        help="with --load: seconds between moves of one channel through the stand-in")
    parser.add_argument("--moves", type=int, default=2000, help="with --load: moves stored per game for bytes")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--records", type=int, default=0, metavar="GAMES",
                        help="the records section instead: history, stats and leaderboard query times with GAMES "
                             "finished games on each --backend (tools/records_bench.py)")
    parser.add_argument("--mixed", action="store_true",
                        help="with --load: all five games, AI seats: a person's command latency (tools/mixed_load)")
    parser.add_argument("--think", type=float, default=1.0, help="with --mixed: a person's seconds between moves")
    parser.add_argument("--standin-channels", type=int, default=50,
                        help="with --mixed: channels played through the stand-in with images (0: none)")
    parser.add_argument("--bot-processes", type=int, default=0,
                        help="with --mixed: the stand-in channels' bot in this many processes of its own (shards when "
                             "2+, on PostgreSQL); 0: in this process (tools/process_load)")
    parser.add_argument("--inline", action="store_true",
                        help="with --mixed: bots play inside the person's command (as before defer_auto)")
    parser.add_argument("--ai", action="store_true",
                        help="only the AI's decision times per level (p50/p99 ms), with --decisions per level")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--replay", action="store_true",
                        help="replays instead: build seconds, bytes and the loop's longest block (tools.replay_bench)")
    args = parser.parse_args(argv)
    if args.replay:
        from tools.replay_bench import main as replay_main

        return replay_main(["--game", args.game] if args.game else [])
    if args.records:
        from tools.records_bench import records_figures

        backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
        print(json.dumps({"records": records_figures(backends, args.records, 30, args.seed)}))
        return 0
    if args.load and args.mixed:
        from tools.mixed_load import mixed_figures

        backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
        if args.bot_processes > 1 and "sqlite" in backends:
            parser.error("several bot processes share a PostgreSQL database: add --backend postgresql")
        print(json.dumps({"mixed": asyncio.run(mixed_figures(backends, args.channels, args.seconds, args.think,
                                                             args.seed, args.inline, args.standin_channels,
                                                             args.bot_processes))}))
        return 0
    if args.load:
        from tools.load import load_figures

        backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
        print(json.dumps({"load": asyncio.run(load_figures(backends, args.channels, args.seconds, args.pace,
                                                           args.moves, args.seed))}))
        return 0
    global PLAYERS
    PLAYERS = args.players
    games = registry.games()
    if args.game:
        if args.game not in games:
            print(json.dumps({"error": f"unknown game {args.game}", "games": sorted(games)}))
            return 2
        games = {args.game: games[args.game]}
    result: dict[str, Any] = {}
    if args.ai:
        print(json.dumps({game_id: ai_figures(game, _seats(game), args.decisions, args.seed)
                          for game_id, game in sorted(games.items())}))
        return 0
    for game_id, game in sorted(games.items()):
        numbers, states = engine_figures(game, args.steps, args.seed)
        figures: dict[str, Any] = dict(numbers)  # numbers, and the AI's figures per level as a dict
        figures.update(render_figures(game, states))
        figures["ai"] = ai_figures(game, _seats(game), min(args.steps, 500), args.seed)
        figures.update(asyncio.run(commit_figures(game, args.commits, args.seed)))
        figures.update(asyncio.run(e2e_figures(game, args.commands, args.seed)))
        result[game_id] = figures
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
