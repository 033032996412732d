"""Measures The King's Armory AI heroes: how often a team of AI heroes (at each level) or of random legal players
wins, and how the games end, on the same seeds; and level against level on those seeds.

The game is co-operative, so "level A beats level B" is measured seed by seed: on each seed both teams play the
same shuffles, and A beats B when it does better (a win over a loss, else more waves reached, else fewer monster
HP left on the board when the game ended, else more Gate HP left); a seed where both do equally well counts half.

A solo player with two AI heroes plays the same three seats as an AI team of three when the player is played by
the same AI, so that cell is the three-seat figure of the level (`--players 3`).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rules.base import SYSTEM
from rules.kings_armory import GAME
from rules.rng import Rng

#: Games still running after this many actions, or stuck, count as lost (a whole game takes a few thousand).
MAX_STEPS = 40_000
#: Who plays the hero seats: random legal moves, or the AI at one of its levels.
SIDES = ("random", "easy", "normal", "hard")


def run(seats: int, seed: int, side: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One game with every hero seat played by `side`: whether it was won, how it ended, the wave reached and the
    Gate's HP left."""
    state = GAME.new(GAME.resolve_options(dict(options or {})), seats, seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    took: list[float] = []  # seconds per decision of a hero seat (the legal moves listed, then the choice)
    cpu: list[float] = []  # the same in this thread's CPU time: what it costs whatever else shares the machine
    gates: dict[int, int] = {}  # the Gate's HP as each wave began (where the games are lost)
    for _ in range(MAX_STEPS):
        if state["phase"] in ("allies", "enemy"):
            gates.setdefault(int(state["wave"]), int(state["gate"]))
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        if seat == SYSTEM:
            action = GAME.system_action(state)
        else:
            legal = GAME.legal_actions(state, seat)
            if not legal:  # a seat with nothing legal (no slot left for its hero) can never finish the game
                break
            started, cpu_started = time.perf_counter(), time.thread_time()
            action = rng.choice(legal).action if side == "random" else GAME.ai_action(state, seat, rng, side)
            took.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - cpu_started)
        state = GAME.apply(state, seat, action).state
    result = state["result"] or "stuck"
    return {"won": result == "won", "end": str(result), "wave": int(state["wave"]), "gate": int(state["gate"]),
            "left": sum(int(m["hp"]) for m in state["monsters"]), "took": took, "cpu": cpu, "gates": gates,
            "standing": sorted((str(m["key"]), int(m["hp"]), bool(m["boss"])) for m in state["monsters"]),
            "seed": seed}


def play(seats: int, seed: int, ai: bool, options: Mapping[str, str] | None = None,
         level: str = "normal") -> tuple[bool, int]:
    """One game with every hero seat played by the AI at `level` (or by random legal moves); (won, waves reached)."""
    got = run(seats, seed, level if ai else "random", options)
    return bool(got["won"]), int(got["wave"])


def cell(results: list[dict[str, Any]], seats: int, seed: int, side: str, options: Mapping[str, Any]) -> dict[str, Any]:
    games = len(results)
    took = sorted(x for r in results for x in r["took"])
    cpu = sorted(x for r in results for x in r["cpu"])
    return {"game": "kings-armory", "side": side, "players": seats, "options": dict(options), "games": games,
            "seed": seed, "wins": sum(r["won"] for r in results),
            "ends": dict(sorted(collections.Counter(r["end"] for r in results).items())),
            "mean_wave": round(sum(r["wave"] for r in results) / max(1, games), 2),
            "decisions": len(took), "decision_ms_p99": _ms(took, 0.99), "decision_ms_max": _ms(took, 1.0),
            "decision_cpu_ms_p99": _ms(cpu, 0.99), "decision_cpu_ms_max": _ms(cpu, 1.0)}


def _ms(sorted_seconds: list[float], share: float) -> float:
    """The decision time (ms) below which `share` of the decisions fall (wall clock, so a busy machine adds)."""
    if not sorted_seconds:
        return 0.0
    return round(1000 * sorted_seconds[int(share * (len(sorted_seconds) - 1))], 1)


def _run(job: tuple[int, int, str, Mapping[str, Any]]) -> dict[str, Any]:
    return run(*job)


def _score(r: dict[str, Any]) -> tuple[int, int, int, int]:
    return int(r["won"]), int(r["wave"]), -int(r["left"]), int(r["gate"])


def versus(upper: list[dict[str, Any]], lower: list[dict[str, Any]]) -> float:
    """Share of seeds on which the first team did better than the second (ties count half)."""
    points = sum(1.0 if _score(a) > _score(b) else 0.5 if _score(a) == _score(b) else 0.0
                 for a, b in zip(upper, lower, strict=True))
    return round(points / max(1, len(upper)), 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000, help="first seed (the AI was tuned on seeds 0-99)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--map", default="long-road")
    parser.add_argument("--side", action="append", choices=SIDES, default=[],
                        help="who plays the heroes, repeatable (default: all of them)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="another /game new option, repeatable (e.g. endurance=true)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes")
    parser.add_argument("--each", metavar="FILE", help="also write one JSON line per game to FILE (side, seed, how it "
                        "ended, the wave, the Gate's HP as each wave began, the monsters left standing)")
    args = parser.parse_args(argv)
    options = {"map": args.map, **dict(opt.split("=", 1) for opt in args.option)}
    seeds = range(args.seed, args.seed + args.games)
    sides = args.side or list(SIDES)
    jobs = [(args.players, seed, side, options) for side in sides for seed in seeds]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            played = list(pool.map(_run, jobs))
    else:
        played = [_run(job) for job in jobs]
    results: dict[str, list[dict[str, Any]]] = {}
    if args.each:
        with open(args.each, "w", encoding="utf-8") as out:
            for job, r in zip(jobs, played, strict=True):
                kept = {k: v for k, v in r.items() if k not in ("took", "cpu")}
                out.write(json.dumps({"side": job[2], **kept}) + "\n")
    for side in sides:
        results[side] = [r for job, r in zip(jobs, played, strict=True) if job[2] == side]
        json.dump(cell(results[side], args.players, args.seed, side, options), sys.stdout)
        sys.stdout.write("\n")
        sys.stdout.flush()
    order = [s for s in SIDES if s in results]
    for lower, upper in itertools.pairwise(order):
        json.dump({"game": "kings-armory", "versus": f"{upper}>{lower}", "players": args.players,
                   "games": args.games, "seed": args.seed, "share": versus(results[upper], results[lower])},
                  sys.stdout)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
