"""Measures The King's Armory AI heroes: how often a team of AI heroes (at each level) or of random legal players
wins, and how the games end, on the same seeds; and level against level on those seeds.

Every game is played by the shared loop (`tools.playout.play`, as `tools.ai_ladder` plays its cells) and every cell
is printed as the shared JSON (`tools.playout.report`: game, games, seed, wins, rates, ends; `wins` counts the
team's wins under its side's name and its losses as "lost", as the ladder's King's Armory cells do), with this
tool's extras: the side and seats, the options, the mean wave reached and the decision times.

The game is co-operative, so "level A beats level B" is measured seed by seed: on each seed both teams play the
same shuffles, and A beats B when it does better (a win over a loss, else more waves reached, else fewer monster
HP left on the board when the game ended, else more Gate HP left); a seed where both do equally well counts half.

`--boss-res DELTA` plays with every boss's Ranged and supernatural resistance changed by DELTA in memory only (the
figures behind a values proposal, issue 23's rule); the data files are never changed by this tool.

A solo player with two AI heroes plays the same three seats as an AI team of three when the player is played by
the same AI, so that cell is the three-seat figure of the level (`--players 3`).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import itertools
import json
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rules.base import Action, Game
from rules.kings_armory import GAME, ai, ai_search, data
from rules.rng import Rng
from tools import playout

#: Games still running after this many actions count as lost (a whole game takes a few thousand; the ladder's limit).
MAX_STEPS = 60_000
#: Who plays the hero seats: random legal moves, or the AI at one of its levels.
SIDES = ("random", "easy", "normal", "hard")


class _NoMove(Exception):
    """A seat must act but has no legal move (no slot left for its hero): the game can never finish."""


def run(seats: int, seed: int, side: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One game with every hero seat played by `side`, on the shared loop: whether it was won, how it ended (the
    outcome's key, "limit" or "stuck"), the wave reached, the Gate's HP left and as each wave began, and the time
    each decision of a hero seat took."""
    took: list[float] = []  # seconds per decision of a hero seat (the legal moves listed, then the choice)
    cpu: list[float] = []  # the same in this thread's CPU time: what it costs whatever else shares the machine
    gates: dict[int, int] = {}  # the Gate's HP as each wave began (where the games are lost)
    last: list[Any] = [GAME.new(GAME.resolve_options({k: str(v) for k, v in (options or {}).items()}), seats, seed)]

    def timed(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        started, cpu_started = time.perf_counter(), time.thread_time()
        legal = game.legal_actions(state, seat)
        if not legal:
            raise _NoMove
        action = rng.choice(legal).action if side == "random" else ai.choose(legal, state, seat, rng, side, GAME)
        took.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - cpu_started)
        return action

    def watch(before: Any, seat: int, action: Action, after: Any) -> None:
        for state in (before, after):
            if state["phase"] in ("allies", "enemy"):
                gates.setdefault(int(state["wave"]), int(state["gate"]))
        last[0] = after

    try:
        played = playout.play(GAME, seats=seats, seed=seed, policies={s: timed for s in range(seats)},
                              options=options, max_actions=MAX_STEPS, watch=watch)
        state, end, winners = played.state, played.end, played.winners
    except _NoMove:
        state, end, winners = last[0], "stuck", ()
    return {"won": bool(winners), "end": end, "wave": int(state["wave"]), "gate": int(state["gate"]),
            "left": sum(int(m["hp"]) for m in state["monsters"]), "took": took, "cpu": cpu, "gates": gates,
            "standing": sorted((str(m["key"]), int(m["hp"]), bool(m["boss"])) for m in state["monsters"]),
            "seed": seed}


def play(seats: int, seed: int, ai: bool, options: Mapping[str, str] | None = None,
         level: str = "normal") -> tuple[bool, int]:
    """One game with every hero seat played by the AI at `level` (or by random legal moves); (won, waves reached)."""
    got = run(seats, seed, level if ai else "random", options)
    return bool(got["won"]), int(got["wave"])


def cell(results: list[dict[str, Any]], seats: int, seed: int, side: str, options: Mapping[str, Any],
         out: Any = None, **extra: Any) -> dict[str, Any]:
    """The shared report of one side's games (`tools.playout.report`) with this tool's extras."""
    games = len(results)
    took = sorted(x for r in results for x in r["took"])
    cpu = sorted(x for r in results for x in r["cpu"])
    won = sum(1 for r in results if r["won"])
    return playout.report(
        "kings-armory", games, seed, {side: won, "lost": games - won},
        collections.Counter(str(r["end"]) for r in results), out=out,
        players=[side], seats=seats, side=side, options=dict(options),
        mean_wave=round(sum(r["wave"] for r in results) / max(1, games), 2),
        decisions=len(took), decision_ms_p99=_ms(took, 0.99), decision_ms_max=_ms(took, 1.0),
        decision_cpu_ms_p99=_ms(cpu, 0.99), decision_cpu_ms_max=_ms(cpu, 1.0), **extra)


def _ms(sorted_seconds: list[float], share: float) -> float:
    """The decision time (ms) below which `share` of the decisions fall (wall clock, so a busy machine adds)."""
    if not sorted_seconds:
        return 0.0
    return round(1000 * sorted_seconds[int(share * (len(sorted_seconds) - 1))], 1)


def change_boss_resistance(delta: int) -> None:
    """For a values proposal (issue 23's rule: figures from runs that change a value in memory only): every boss's
    Ranged and supernatural resistance changed by `delta` (never below 0; an immunity stays one) in this process and
    the worker processes it starts; the data files are not touched."""
    cards = {key: {**card, "res": {kind: res if res == "Im" or kind == "M" else max(0, int(res) + delta)
                                   for kind, res in card["res"].items()}}
             for key, card in data.bosses().items()}
    setattr(data, "bosses", lambda: cards)  # noqa: B010 (mypy refuses a plain assignment to a module's function)


def set_search(steps: int | None, samples: int | None, candidates: int | None, margin: float | None = None,
               chase: bool | None = None) -> None:
    """For measuring the look-ahead: the hard level's search budget (`steps` 0: no search), samples and candidates
    replaced in this process and its workers (in memory only; the code's defaults otherwise)."""
    hard = ai.STYLES["hard"]
    budget = hard.search or ai_search.Budget()
    budget = ai_search.Budget(samples=budget.samples if samples is None else samples,
                              steps=budget.steps if steps is None else steps,
                              margin=budget.margin if margin is None else margin)
    ai.STYLES["hard"] = dataclasses.replace(hard, search=budget if budget.steps > 0 else None,
                                            candidates=hard.candidates if candidates is None else candidates,
                                            chase=hard.chase if chase is None else chase)


def _run(job: tuple[int, int, str, Mapping[str, Any]]) -> dict[str, Any]:
    return run(*job)


def _score(r: dict[str, Any]) -> tuple[int, int, int, int]:
    return int(r["won"]), int(r["wave"]), -int(r["left"]), int(r["gate"])


def versus(upper: list[dict[str, Any]], lower: list[dict[str, Any]]) -> float:
    """Share of seeds on which the first team did better than the second (ties count half)."""
    points = sum(1.0 if _score(a) > _score(b) else 0.5 if _score(a) == _score(b) else 0.0
                 for a, b in zip(upper, lower, strict=True))
    return round(points / max(1, len(upper)), 3)


def versus_report(upper: str, lower: str, ups: list[dict[str, Any]], lows: list[dict[str, Any]], seats: int,
                  seed: int, out: Any = None) -> dict[str, Any]:
    """Level against level as the shared report: `wins` counts the seeds each side did better on (a tie: "even"),
    `ends` how the upper side's games ended; `share` is the upper side's share with ties counted half."""
    wins: collections.Counter[str] = collections.Counter({upper: 0, lower: 0, "even": 0})
    for a, b in zip(ups, lows, strict=True):
        wins[upper if _score(a) > _score(b) else lower if _score(a) < _score(b) else "even"] += 1
    return playout.report("kings-armory", len(ups), seed, wins, collections.Counter(str(r["end"]) for r in ups),
                          out=out, versus=f"{upper}>{lower}", players=[upper, lower], seats=seats,
                          share=versus(ups, lows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000, help="first seed (the AI is tuned on seeds 0-999)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--map", default="long-road")
    parser.add_argument("--side", action="append", choices=SIDES, default=[],
                        help="who plays the heroes, repeatable (default: all of them)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="another /game new option, repeatable (e.g. endurance=true)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes")
    parser.add_argument("--each", metavar="FILE", help="also write one JSON line per game to FILE (side, seed, how it "
                        "ended, the wave, the Gate's HP as each wave began, the monsters left standing)")
    parser.add_argument("--boss-res", type=int, default=0, metavar="DELTA",
                        help="in memory only, for a values proposal: add DELTA to every boss's Ranged and "
                        "supernatural resistance (not below 0); the data files are not changed")
    parser.add_argument("--search-steps", type=int, metavar="N",
                        help="in memory only: the hard look-ahead's budget in steps (0: hard without the search)")
    parser.add_argument("--search-samples", type=int, metavar="N", help="in memory only: its samples")
    parser.add_argument("--candidates", type=int, metavar="N", help="in memory only: the moves it compares")
    parser.add_argument("--margin", type=float, metavar="X", help="in memory only: its margin over hard's own move")
    parser.add_argument("--chase", choices=("yes", "no"),
                        help="in memory only: whether it also tries a step bringing the boss into reach")
    args = parser.parse_args(argv)
    tuned = (args.search_steps, args.search_samples, args.candidates, args.margin,
             None if args.chase is None else args.chase == "yes")
    if tuned != (None, None, None, None, None):
        set_search(*tuned)
        extra_search = {"search": list(tuned)}
    else:
        extra_search = {}
    if args.boss_res:
        change_boss_resistance(args.boss_res)
    extra = {**({"boss_res": args.boss_res} if args.boss_res else {}), **extra_search}
    options = {"map": args.map, **dict(opt.split("=", 1) for opt in args.option)}
    seeds = range(args.seed, args.seed + args.games)
    sides = args.side or list(SIDES)
    jobs = [(args.players, seed, side, options) for side in sides for seed in seeds]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            played = list(pool.map(_run, jobs))
    else:
        played = [_run(job) for job in jobs]
    if args.each:
        with open(args.each, "w", encoding="utf-8") as out:
            for job, r in zip(jobs, played, strict=True):
                kept = {k: v for k, v in r.items() if k not in ("took", "cpu")}
                out.write(json.dumps({"side": job[2], **kept}) + "\n")
    results: dict[str, list[dict[str, Any]]] = {}
    for side in sides:
        results[side] = [r for job, r in zip(jobs, played, strict=True) if job[2] == side]
        cell(results[side], args.players, args.seed, side, options, out=sys.stdout, **extra)
        sys.stdout.flush()
    order = [s for s in SIDES if s in results]
    for lower, upper in itertools.pairwise(order):
        versus_report(upper, lower, results[upper], results[lower], args.players, args.seed, out=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
