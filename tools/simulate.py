"""Random legal playouts of one game: `python -m tools.simulate --game G --games N --seed S [--players P]`."""

from __future__ import annotations

import argparse
import json
import sys
import time

from rules import registry
from rules.base import Action, Game
from rules.rng import Rng
from tools.playout import Chooser, playout, random_chooser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, help="game id, e.g. hero-realms")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=0, help="seats (default: the game's minimum)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--max-actions", type=int, default=5000)
    parser.add_argument("--fast", action="store_true", help="skip the per-step contract checks")
    parser.add_argument("--verbose", action="store_true", help="print each failure on stderr")
    parser.add_argument("--decisions", action="store_true",
                        help="count the moves that answer an out-of-turn question (the game's `decisions`), by kind")
    args = parser.parse_args(argv)

    game = registry.get(args.game)
    if game is None:
        print(json.dumps({"error": f"unknown game {args.game}", "games": sorted(registry.games())}))
        return 2
    options = dict(opt.split("=", 1) for opt in args.option)
    seats = args.players or game.min_seats
    started = time.perf_counter()
    totals = {"games": 0, "finished": 0, "actions": 0, "errors": 0, "invariant_failures": 0}
    examples: list[str] = []
    answered: dict[str, int] = {}
    chooser = _counting(answered) if args.decisions else random_chooser
    for i in range(args.games):
        result = playout(game, seats=seats, seed=args.seed + i, options=options,
                         max_actions=args.max_actions, deep=not args.fast, check_all_every=25, chooser=chooser)
        totals["games"] += 1
        totals["finished"] += int(result.finished)
        totals["actions"] += result.actions
        totals["errors"] += len(result.errors)
        totals["invariant_failures"] += len(result.invariant_failures)
        for problem in result.errors + result.invariant_failures:
            if len(examples) < 5:
                examples.append(f"seed {args.seed + i}: {problem}")
            if args.verbose:
                print(f"seed {args.seed + i}: {problem}", file=sys.stderr)
    line = {"game": args.game, "players": seats, **totals,
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
