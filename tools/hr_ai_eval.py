"""Measures the Hero Realms AI: two-player win rates against a random legal player, against a greedy policy, and
each AI level against the one below."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter
from typing import Any

from rules.base import AI_LEVELS, Action, Game
from rules.hero_realms import GAME
from rules.hero_realms.ai import random_action, simple_action
from rules.rng import Rng
from tools.playout import Policy, ai_player, play, report

#: Games still running after this many actions count as won by nobody.
MAX_STEPS = 5000


def _policy(function: Any) -> Policy:
    def choose(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        return function(state, seat, rng)
    return choose


PLAYERS: dict[str, Policy] = {"random": _policy(random_action), "simple": _policy(simple_action),
                              **{level: ai_player(level) for level in AI_LEVELS}}


def win_rate(policy: Any, opponent: Any, games: int, seed: int) -> float:
    """Share of two-player games `policy` wins against `opponent` (Hero Realms policies: state, seat, rng),
    taking turns to play first."""
    wins = 0
    for i in range(games):
        seat = i % 2
        played = play(GAME, seats=2, seed=seed + i, policies={seat: _policy(policy), 1 - seat: _policy(opponent)},
                      max_actions=MAX_STEPS)
        wins += seat in played.winners
    return wins / games


def head_to_head(first: str, second: str, *, games: int, seed: int, variant: str = "free-for-all",
                 out: Any = None) -> dict[str, Any]:
    """`first` against `second` (names of `PLAYERS`) in two-player games, taking turns to play first."""
    wins: Counter[str] = Counter({first: 0, second: 0})
    ends: Counter[str] = Counter()
    for i in range(games):
        seat = i % 2
        played = play(GAME, seats=2, seed=seed + i, policies={seat: PLAYERS[first], 1 - seat: PLAYERS[second]},
                      options={"variant": variant}, max_actions=MAX_STEPS)
        ends[played.end] += 1
        wins[first if seat in played.winners else second if played.winners else "nobody"] += 1
    return report("hero-realms", games, seed, wins, ends, out=out, players=[first, second], variant=variant)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", choices=AI_LEVELS, default="normal")
    parser.add_argument("--against", choices=["random", "simple", "levels"], default=None,
                        help="one opponent only; 'levels' plays each level against the one below (default: all)")
    args = parser.parse_args(argv)
    pairs = [(args.level, "random"), (args.level, "simple"), ("simple", "random")] if args.against is None else \
        list(itertools.pairwise(reversed(AI_LEVELS))) if args.against == "levels" else [(args.level, args.against)]
    for first, second in pairs:
        head_to_head(first, second, games=args.games, seed=args.seed, out=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
