"""Measures the Guerra de Indagar AI (issue 23): against random legal players, against the greedy player of
tools/gi_greedy.py, four AI rivals against the monsters, and each level against the one below.

Each cell prints one JSON line with at least {"game", "cell", "games", "seed", "wins", "ends"}: `wins` counts the
games the measured seat won (in `allai`, the games any player won; `monster_wins` the others). Seats rotate so the
measured AI plays every seat in turn. Seeds run from --seed to --seed + --games - 1.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.data import monsters
from rules.guerra_de_indagar.state import State
from rules.rng import Rng
from tools.gi_greedy import greedy_action

#: Games still running after this many actions count as not won (the engine ends every game by round 10).
MAX_STEPS = 20_000
CELLS = ("random", "greedy", "hard_random", "hard_greedy", "allai", "allai_hard", "hard_normal", "normal_easy")
Player = Callable[[State, int, Rng], Action]


def _player(name: str) -> Player:
    """`random`, `greedy`, or an AI level (`easy`, `normal`, `hard`)."""
    if name == "random":
        return lambda s, seat, rng: rng.choice(GAME.legal_actions(s, seat)).action
    if name == "greedy":
        return greedy_action
    return lambda s, seat, rng: GAME.ai_action(s, seat, rng, level=name)


def play(bot: int, seats: int, seed: int, target: str = "10", rival: str = "random",
         level: str = "normal") -> tuple[list[int], str]:
    """One game with the AI (`level`) on seat `bot` and `rival` players elsewhere; the winners and how it ended."""
    winners, how, _cards, _times, _walls = _play(bot, seats, seed, target, rival, level)
    return winners, how


def _play(bot: int, seats: int, seed: int, target: str, rival: str = "random",
          level: str = "normal") -> tuple[list[int], str, list[str], list[float], list[float]]:
    """`play`, also naming the primary monsters in play and timing the measured AI's decisions: CPU milliseconds
    of this thread (whatever else shares the machine) and wall-clock milliseconds (which the load stretches)."""
    times: list[float] = []
    walls: list[float] = []
    state = GAME.new(GAME.resolve_options({"target": target}), seats, seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    mine, theirs = _player(level), _player(rival)
    for _ in range(MAX_STEPS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            how = outcome.summary.key
            result = state["result"]
            if result is not None and result.get("monster"):
                how += f":{result['monster']}:r{state['round']}"
            cards = sorted(m["card"] for m in state["monsters"].values() if m["kind"] == "primary")
            return sorted(outcome.winners), how, cards, times, walls
        seat = min(GAME.to_act(state))
        if seat == SYSTEM:
            action = GAME.system_action(state)
        elif seat == bot:
            started, wall = time.thread_time_ns(), time.perf_counter_ns()
            action = mine(state, seat, rng)
            times.append((time.thread_time_ns() - started) / 1e6)
            walls.append((time.perf_counter_ns() - wall) / 1e6)
        else:
            action = theirs(state, seat, rng)
        state = GAME.apply(state, seat, action).state
    return [], "unfinished", [], times, walls


def _one(job: tuple[int, int, int, str, str, str]) -> tuple[list[int], str, list[str], list[float], list[float]]:
    return _play(*job)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))] if ordered else 0.0


def set_victory(bases: dict[str, int]) -> None:
    """Experiment only: raise a primary monster's victory count (its `base`) in this process's copy of the data,
    to weigh proposed provisional values before any change to `monsters.json`.

    The data tables are read-only (rules/readonly.py) for every caller; this experiment alone writes past that,
    in its own process, so the engine and the AI read the value under test."""
    for card, base in bases.items():
        victory: Any = monsters()["primary"][card]["victory"]
        dict.__setitem__(victory, "base", base)


def set_hard(fields: dict[str, Any]) -> None:
    """Experiment only: change fields of the hard level (`ai.Level`) in this process, to weigh a change to it on
    tuning seeds before any change to its code."""
    ai.LEVELS["hard"] = ai.LEVELS["hard"]._replace(**fields)


def _setup(victory: dict[str, int], hard: dict[str, Any]) -> None:
    set_victory(victory)
    set_hard(hard)


def cell(name: str, games: int, seed: int, target: str = "10", jobs: int = 1,
         victory: dict[str, int] | None = None, hard: dict[str, Any] | None = None) -> dict[str, Any]:
    """One cell of the table: `random` / `greedy` (a normal AI against them, 2 players; `hard_random` /
    `hard_greedy` the hard AI), `allai` / `allai_hard` (4 normal or hard AIs against the monsters),
    `hard_normal` / `normal_easy` (the first level against the second, 2 players)."""
    if name in ("random", "greedy"):
        seats, level, rival = 2, "normal", name
    elif name in ("hard_random", "hard_greedy"):
        seats, level, rival = 2, "hard", name.split("_")[1]
    elif name.startswith("allai"):
        seats, level = 4, "hard" if name == "allai_hard" else "normal"
        rival = level
    else:
        level, rival = name.split("_")
        seats = 2
    todo = [(i % seats, seats, seed + i, target, rival, level) for i in range(games)]
    _setup(victory or {}, hard or {})
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_setup, initargs=(victory or {}, hard or {})) as pool:
            results = list(pool.map(_one, todo, chunksize=4))
    else:
        results = [_one(job) for job in todo]
    wins = 0
    ends: collections.Counter[str] = collections.Counter()
    monsters: collections.Counter[str] = collections.Counter()
    times = [t for *_rest, game_times, _walls in results for t in game_times]
    walls = [t for *_rest, game_walls in results for t in game_walls]
    for (bot, *_rest), (winners, how, _cards, _times, _walls) in zip(todo, results, strict=True):
        won = bool(winners) if name.startswith("allai") else bot in winners
        wins += won
        end = how.split(":r")[0] if ":r" in how else how
        ends[f"{'won' if won else 'lost'}:{end}"] += 1
        if ":r" in how:
            monsters[how.split(":r")[0].rpartition(":")[2]] += 1
    out: dict[str, Any] = {"game": GAME.id, "cell": name, "players": seats, "level": level, "rival": rival,
                           "games": games, "seed": seed, "target": target, "wins": wins,
                           "win_rate": round(wins / games, 4) if games else 0.0,
                           "ends": dict(sorted(ends.items())), "monster_wins": sum(monsters.values()),
                           "monster_wins_by": dict(sorted(monsters.items())), "victory_bases": victory or {},
                           "hard_fields": hard or {},
                           "decision_ms_p50": round(_percentile(times, 50), 2),
                           "decision_ms_p99": round(_percentile(times, 99), 2),
                           "decision_ms_max": round(max(times, default=0.0), 2), "decisions": len(times),
                           "decision_wall_ms_p99": round(_percentile(walls, 99), 2),
                           "decision_wall_ms_max": round(max(walls, default=0.0), 2),
                           "load_average": [round(x, 2) for x in os.getloadavg()]}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--target", default="10")
    parser.add_argument("--cells", default=",".join(CELLS), help=f"comma-separated, of {', '.join(CELLS)}")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the results do not depend on it)")
    parser.add_argument("--victory", action="append", default=[], metavar="MONSTER=BASE",
                        help="experiment: a primary monster's victory base (helgoth, tijian, oryana, walker)")
    parser.add_argument("--hard", action="append", default=[], metavar="FIELD=VALUE",
                        help="experiment: a field of the hard level, e.g. margin=2, raid=0 (booleans 0/1)")
    args = parser.parse_args(argv)
    hard: dict[str, Any] = {}
    for item in args.hard:
        field, _, value = item.partition("=")
        current = getattr(ai.LEVELS["hard"], field, None)
        if field not in ai.Level._fields or not isinstance(current, (bool, int, float)) \
                or not value.replace(".", "", 1).isdigit():
            parser.error(f"--hard {item!r}: FIELD=NUMBER, FIELD one of blunder, raid, primacy, spend_from, margin, "
                         "rivals_posts")
        hard[field] = bool(int(value)) if isinstance(current, bool) else type(current)(float(value))
    victory: dict[str, int] = {}
    for item in args.victory:
        card, _, base = item.partition("=")
        if card not in monsters()["primary"] or not base.isdigit():
            parser.error(f"--victory {item!r}: MONSTER=BASE, MONSTER one of {', '.join(sorted(monsters()['primary']))}")
        victory[card] = int(base)
    for name in args.cells.split(","):
        if name not in CELLS:
            parser.error(f"unknown cell {name!r}; valid: {', '.join(CELLS)}")
    for name in args.cells.split(","):
        json.dump(cell(name, args.games, args.seed, args.target, args.jobs, victory, hard), sys.stdout)
        sys.stdout.write("\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
