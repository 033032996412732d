"""Random legal playouts of one game: `python -m tools.simulate --game G --games N --seed S [--players P]`."""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rules import registry
from rules.base import Action, Game
from rules.rng import Rng
from tools.playout import Chooser, PlayoutResult, playout, random_chooser

Played = tuple[PlayoutResult, dict[str, int]]


def _one(game_id: str, seats: int, options: dict[str, str], max_actions: int, deep: bool, setup: Any,
         decisions: bool, seed: int) -> Played:
    """One playout, and (with `decisions`) its out-of-turn answers counted by kind."""
    game = registry.get(game_id)
    assert game is not None
    answered: dict[str, int] = {}
    chooser = _counting(answered) if decisions else random_chooser
    result = playout(game, seats=seats, seed=seed, options=options, max_actions=max_actions, deep=deep,
                     check_all_every=25, setup=setup, chooser=chooser)
    return result, answered


def _results(jobs: int, seeds: range, play: Any) -> Iterator[Played]:
    """Each seed's playout, in seed order; with several jobs, in worker processes (the same results: every game
    depends only on its seed)."""
    if jobs <= 1:
        yield from map(play, seeds)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play, seeds, chunksize=4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, help="game id, e.g. hero-realms")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=0, help="seats (default: the game's minimum)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--file", type=Path, help="a file attached to /game new (a quest, a King's Armory map)")
    parser.add_argument("--max-actions", type=int, default=5000)
    parser.add_argument("--fast", action="store_true", help="skip the per-step contract checks")
    parser.add_argument("--verbose", action="store_true", help="print each failure on stderr")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the results do not depend on it)")
    parser.add_argument("--decisions", action="store_true",
                        help="count the moves that answer an out-of-turn question (the game's `decisions`), by kind")
    args = parser.parse_args(argv)

    game = registry.get(args.game)
    if game is None:
        print(json.dumps({"error": f"unknown game {args.game}", "games": sorted(registry.games())}))
        return 2
    options = dict(opt.split("=", 1) for opt in args.option)
    setup = game.setup_from_upload(args.file.read_bytes(), args.file.name) if args.file else None
    seats = args.players or game.min_seats
    started = time.perf_counter()
    totals = {"games": 0, "finished": 0, "actions": 0, "errors": 0, "invariant_failures": 0}
    examples: list[str] = []
    answered: dict[str, int] = {}
    play = functools.partial(_one, args.game, seats, options, args.max_actions, not args.fast, setup, args.decisions)
    for i, (result, counted) in enumerate(_results(args.jobs, range(args.seed, args.seed + args.games), play)):
        totals["games"] += 1
        totals["finished"] += int(result.finished)
        totals["actions"] += result.actions
        totals["errors"] += len(result.errors)
        totals["invariant_failures"] += len(result.invariant_failures)
        for kind, n in counted.items():
            answered[kind] = answered.get(kind, 0) + n
        for problem in result.errors + result.invariant_failures:
            if len(examples) < 5:
                examples.append(f"seed {args.seed + i}: {problem}")
            if args.verbose:
                print(f"seed {args.seed + i}: {problem}", file=sys.stderr)
    line: dict[str, Any] = {"game": args.game, "players": seats, "jobs": args.jobs, **totals,
                            "seconds": round(time.perf_counter() - started, 3)}
    if args.decisions:
        line["decisions"] = dict(sorted(answered.items()))
    if examples:
        line["examples"] = examples
    print(json.dumps(line))
    return 1 if totals["errors"] or totals["invariant_failures"] else 0


def _counting(answered: dict[str, int]) -> Chooser:
    """The random chooser, counting by kind the moves of seats that were asked something out of turn."""

    def choose(game: Game, state: object, seat: int, rng: Rng) -> Action:
        action = random_chooser(game, state, seat, rng)
        if any(d.seat == seat for d in game.decisions(state)):
            answered[action.kind] = answered.get(action.kind, 0) + 1
        return action

    return choose


if __name__ == "__main__":
    sys.exit(main())
