"""Measures the Hero Realms AI: two-player win rates against a random legal player and a greedy policy."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from rules.base import Action
from rules.hero_realms import GAME
from rules.hero_realms.ai import random_action, simple_action, smart_action
from rules.hero_realms.state import State
from rules.rng import Rng

Policy = Callable[[State, int, Rng], Action]
#: Games still running after this many actions count as not won.
MAX_STEPS = 5000


def play(policies: dict[int, Policy], seed: int, variant: str = "free-for-all") -> list[int]:
    """Play one game; returns the winning seats (empty when the step limit was reached)."""
    state = GAME.new({"variant": variant}, len(policies), seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    for _ in range(MAX_STEPS):
        if state.winners is not None:
            return list(state.winners)
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, policies[seat](state, seat, rng)).state
    return []


def win_rate(policy: Policy, opponent: Policy, games: int, seed: int) -> float:
    """Share of games `policy` wins, alternating who plays first."""
    wins = 0
    for i in range(games):
        seat = i % 2
        policies = {seat: policy, 1 - seat: opponent}
        if seat in play(policies, seed + i):
            wins += 1
    return wins / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = {
        "games": args.games,
        "seed": args.seed,
        "vs_random": win_rate(smart_action, random_action, args.games, args.seed),
        "vs_simple": win_rate(smart_action, simple_action, args.games, args.seed),
        "simple_vs_random": win_rate(simple_action, random_action, args.games, args.seed),
    }
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
