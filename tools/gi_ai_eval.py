"""Measures the Guerra de Indagar AI: how often one AI seat wins against random legal players."""

from __future__ import annotations

import argparse
import collections
import json
import sys

from rules.base import SYSTEM
from rules.guerra_de_indagar import GAME
from rules.rng import Rng

#: Games still running after this many actions count as not won (the engine ends every game by round 10).
MAX_STEPS = 20_000


def play(bot: int, seats: int, seed: int, target: str = "10") -> tuple[list[int], str]:
    """One game with the AI on seat `bot` and random legal players elsewhere; the winners and how it ended."""
    state = GAME.new(GAME.resolve_options({"target": target}), seats, seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    for _ in range(MAX_STEPS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            how = outcome.summary.key
            if state["result"].get("monster"):
                how += f":{state['result']['monster']}:r{state['round']}"
            return sorted(outcome.winners), how
        seat = min(GAME.to_act(state))
        if seat == SYSTEM:
            action = GAME.system_action(state)
        elif seat == bot:
            action = GAME.ai_action(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat)).action
        state = GAME.apply(state, seat, action).state
    return [], "unfinished"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--target", default="10")
    args = parser.parse_args(argv)
    wins = 0
    ends: collections.Counter[str] = collections.Counter()
    monsters: collections.Counter[str] = collections.Counter()
    for i in range(args.games):
        bot = i % args.players
        winners, how = play(bot, args.players, args.seed + i, args.target)
        won = bot in winners
        wins += won
        end = how.split(":r")[0] if ":r" in how else how
        ends[f"{'won' if won else 'lost'}:{end}"] += 1
        if ":r" in how:
            monsters[how] += 1
    json.dump({"games": args.games, "seed": args.seed, "players": args.players, "target": args.target,
               "ai_vs_random": wins / args.games, "ends": dict(sorted(ends.items())),
               "monster_wins": dict(sorted(monsters.items()))}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
