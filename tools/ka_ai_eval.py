"""Measures The King's Armory AI heroes: wins of an all-AI team against an all-random team on the same seeds."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping

from rules.base import SYSTEM
from rules.kings_armory import GAME
from rules.rng import Rng

#: Games still running after this many actions, or stuck, count as lost (a whole game takes a few thousand).
MAX_STEPS = 40_000


def play(seats: int, seed: int, ai: bool, options: Mapping[str, str] | None = None) -> tuple[bool, int]:
    """One game with every hero seat played by the AI (or by random legal moves); (won, waves reached)."""
    state = GAME.new(GAME.resolve_options(dict(options or {})), seats, seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    for _ in range(MAX_STEPS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            return bool(outcome.winners), int(state["wave"])
        seat = min(GAME.to_act(state))
        if seat == SYSTEM:
            action = GAME.system_action(state)
        else:
            legal = GAME.legal_actions(state, seat)
            if not legal:  # a seat with nothing legal (no slot left for its hero) can never finish the game
                break
            action = GAME.ai_action(state, seat, rng) if ai else rng.choice(legal).action
        state = GAME.apply(state, seat, action).state
    return False, int(state["wave"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--map", default="long-road")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="another /game new option, repeatable (e.g. endurance=true)")
    args = parser.parse_args(argv)
    options = {"map": args.map, **dict(opt.split("=", 1) for opt in args.option)}
    out: dict[str, object] = {"games": args.games, "seed": args.seed, "players": args.players, "options": options}
    for side in ("ai", "random"):
        results = [play(args.players, args.seed + i, side == "ai", options) for i in range(args.games)]
        out[f"{side}_wins"] = sum(won for won, _ in results)
        out[f"{side}_mean_wave"] = round(sum(w for _, w in results) / args.games, 2)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
