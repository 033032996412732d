"""Measures the Guerra de Indagar AI (issue 23): against random legal players, against the greedy player of
tools/gi_greedy.py, four AI rivals against the monsters, and each level against the one below.

Every game is played by the shared evaluation loop (`tools.playout.play`) and each cell prints the shared JSON
(`tools.playout.report`: game, games, seed, wins, rates, ends), one line a cell. `wins` counts the games each side
won, by name, as tools/ai_ladder.py counts them (the measured level, its rival, "nobody" when a monster won; in
`allai` cells "players" and "monsters"); `ends` counts the outcome keys. Extra fields: the cell, the players and
level, `reached_10` (the measured side's wins by reaching the target), the monsters' wins by card, the measured
AI's decision times (CPU and wall), the experiment values (`--victory`, `--hard`) and the load average. Seats
rotate so the measured AI plays every seat in turn. Seeds run from --seed to --seed + --games - 1; the results do
not depend on --jobs.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from rules.base import Action, Game
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.data import monsters
from rules.rng import Rng
from tools.gi_greedy import greedy_action
from tools.playout import Policy, ai_player, random_chooser, report
from tools.playout import play as shared_play

#: Games still running after this many actions count as not won (the engine ends every game by round 10).
MAX_STEPS = 20_000
CELLS = ("random", "greedy", "hard_random", "hard_greedy", "allai", "allai_hard", "hard_normal", "normal_easy")
#: What a game's end is called when a player reached the target.
TARGET_END = "gi.end.target"


def _greedy(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    return greedy_action(state, seat, rng)


def _policy(name: str) -> Policy:
    """`random`, `greedy`, or an AI level (`easy`, `normal`, `hard`)."""
    if name == "random":
        return random_chooser
    if name == "greedy":
        return _greedy
    return ai_player(name)


class Game1(NamedTuple):
    """One evaluation game: the winning seats, how it ended, the monster that won it, and the measured seat's
    decision times (CPU milliseconds of this thread, whatever else shares the machine, and wall milliseconds,
    which the load stretches)."""

    winners: tuple[int, ...]
    end: str
    monster: str | None
    times: list[float]
    walls: list[float]


def _play(bot: int, seats: int, seed: int, target: str, rival: str = "random", level: str = "normal") -> Game1:
    """One game with the AI (`level`) on seat `bot` and `rival` players elsewhere (in `allai` cells the rival is
    the level itself), through the shared loop."""
    times: list[float] = []
    walls: list[float] = []
    mine = _policy(level)

    def timed(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        started, wall = time.thread_time_ns(), time.perf_counter_ns()
        action = mine(game, state, seat, rng)
        times.append((time.thread_time_ns() - started) / 1e6)
        walls.append((time.perf_counter_ns() - wall) / 1e6)
        return action

    played = shared_play(GAME, seats=seats, seed=seed, policies={bot: timed}, default=_policy(rival),
                         options={"target": target}, max_actions=MAX_STEPS)
    result = played.state["result"] if played.state is not None else None
    monster = None
    if result is not None and result.get("monster"):
        monster = str(played.state["monsters"][result["monster"]]["card"])
    return Game1(played.winners, played.end, monster, times, walls)


def play(bot: int, seats: int, seed: int, target: str = "10", rival: str = "random",
         level: str = "normal") -> tuple[list[int], str]:
    """One game with the AI (`level`) on seat `bot` and `rival` players elsewhere; the winners and how it ended."""
    one = _play(bot, seats, seed, target, rival, level)
    return list(one.winners), one.end


def _one(job: tuple[int, int, int, str, str, str]) -> Game1:
    return _play(*job)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))] if ordered else 0.0


def set_victory(bases: dict[str, int | str]) -> None:
    """Experiment only: raise a primary monster's victory count (its `base`) in this process's copy of the data,
    to weigh proposed provisional values before any change to `monsters.json`. A number keeps the card's "per
    player" rule; a string sets it: "7+N" adds one per player, "9" does not.

    The data tables are read-only (rules/readonly.py) for every caller; this experiment alone writes past that,
    in its own process, so the engine and the AI read the value under test."""
    for card, base in bases.items():
        victory: Any = monsters()["primary"][card]["victory"]
        dict.__setitem__(victory, "base", int(str(base).removesuffix("+N")))
        if isinstance(base, str):  # "7+N": the base plus one per player; "9": the same for every table
            dict.__setitem__(victory, "per_player", base.endswith("+N"))


def set_hard(fields: dict[str, Any]) -> None:
    """Experiment only: change fields of the hard level (`ai.Level`) in this process, to weigh a change to it on
    tuning seeds before any change to its code."""
    ai.LEVELS["hard"] = ai.LEVELS["hard"]._replace(**fields)


def _setup(victory: dict[str, int | str], hard: dict[str, Any]) -> None:
    set_victory(victory)
    set_hard(hard)


def _sides(name: str) -> tuple[int, str, str]:
    """The players, the measured level and its rival of a cell."""
    if name in ("random", "greedy"):
        return 2, "normal", name
    if name in ("hard_random", "hard_greedy"):
        return 2, "hard", name.split("_")[1]
    if name.startswith("allai"):
        level = "hard" if name == "allai_hard" else "normal"
        return 4, level, level
    level, rival = name.split("_")
    return 2, level, rival


def cell(name: str, games: int, seed: int, target: str = "10", jobs: int = 1,
         victory: dict[str, int | str] | None = None, hard: dict[str, Any] | None = None) -> dict[str, Any]:
    """One cell of the table: `random` / `greedy` (a normal AI against them, 2 players; `hard_random` /
    `hard_greedy` the hard AI), `allai` / `allai_hard` (4 normal or hard AIs against the monsters),
    `hard_normal` / `normal_easy` (the first level against the second, 2 players)."""
    seats, level, rival = _sides(name)
    together = name.startswith("allai")
    todo = [(i % seats, seats, seed + i, target, rival, level) for i in range(games)]
    _setup(victory or {}, hard or {})
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_setup, initargs=(victory or {}, hard or {})) as pool:
            results = list(pool.map(_one, todo, chunksize=4))
    else:
        results = [_one(job) for job in todo]
    names = ("players", "monsters") if together else (level, rival)
    wins: collections.Counter[str] = collections.Counter(dict.fromkeys(names, 0))
    ends: collections.Counter[str] = collections.Counter()
    by_monster: collections.Counter[str] = collections.Counter()
    reached = 0
    for (bot, *_rest), one in zip(todo, results, strict=True):
        ends[one.end] += 1
        if together:
            won = bool(one.winners)
            wins["players" if won else "monsters"] += 1
        else:
            won = bot in one.winners
            wins[level if won else rival if one.winners else "nobody"] += 1
        reached += won and one.end == TARGET_END
        if one.monster is not None:
            by_monster[one.monster] += 1
    times = [t for one in results for t in one.times]
    walls = [t for one in results for t in one.walls]
    return report(GAME.id, games, seed, wins, ends, cell=name, players=seats, level=level, rival=rival,
                  target=target, reached_10=reached, monster_wins=sum(by_monster.values()),
                  monster_wins_by=dict(sorted(by_monster.items())), victory_bases=victory or {},
                  hard_fields=hard or {}, decision_ms_p50=round(_percentile(times, 50), 2),
                  decision_ms_p99=round(_percentile(times, 99), 2),
                  decision_ms_max=round(max(times, default=0.0), 2), decisions=len(times),
                  decision_wall_ms_p99=round(_percentile(walls, 99), 2),
                  decision_wall_ms_max=round(max(walls, default=0.0), 2),
                  load_average=[round(x, 2) for x in os.getloadavg()])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--target", default="10")
    parser.add_argument("--cells", default=",".join(CELLS), help=f"comma-separated, of {', '.join(CELLS)}")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the results do not depend on it)")
    parser.add_argument("--victory", action="append", default=[], metavar="MONSTER=BASE",
                        help="experiment: a primary monster's victory base (helgoth, tijian, oryana, walker); "
                             "BASE+N also adds one per player (Oryana's count does not, today)")
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
                         "rivals_posts, hunt_within, push_from, helgoth_pace")
        hard[field] = bool(int(value)) if isinstance(current, bool) else type(current)(float(value))
    victory: dict[str, int | str] = {}
    for item in args.victory:
        card, _, base = item.partition("=")
        if card not in monsters()["primary"] or not base.removesuffix("+N").isdigit():
            parser.error(f"--victory {item!r}: MONSTER=BASE or MONSTER=BASE+N, MONSTER one of "
                         f"{', '.join(sorted(monsters()['primary']))}")
        victory[card] = base if base.endswith("+N") else int(base)
    for name in args.cells.split(","):
        if name not in CELLS:
            parser.error(f"unknown cell {name!r}; valid: {', '.join(CELLS)}")
    for name in args.cells.split(","):
        sys.stdout.write(json.dumps(cell(name, args.games, args.seed, args.target, args.jobs, victory, hard)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
