"""Measures the Gorgasali bot: how often one bot wins against random legal players (`--players`, default 4)."""

from __future__ import annotations

import argparse
import json
import sys

from rules.base import SYSTEM
from rules.gorgasali import GAME
from rules.rng import Rng

#: Games still running after this many actions count as not won (the engine ends every game by round 40).
MAX_STEPS = 50_000


def play(bot: int, seats: int, seed: int, mode: str = "ffa") -> list[int]:
    """One game with the bot on seat `bot` and random legal players elsewhere; returns the winning seats."""
    state = GAME.new(GAME.resolve_options({"mode": mode}), seats, seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    for _ in range(MAX_STEPS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            return sorted(outcome.winners)
        seat = min(GAME.to_act(state))
        if seat == SYSTEM:
            action = GAME.system_action(state)
        elif seat == bot:
            action = GAME.ai_action(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat)).action
        state = GAME.apply(state, seat, action).state
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    wins = sum(i % args.players in play(i % args.players, args.players, args.seed + i) for i in range(args.games))
    json.dump({"games": args.games, "seed": args.seed, "players": args.players,
               "bot_vs_random": wins / args.games}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
