"""Measures the Guerra de Indagar AI: how often one AI seat wins against random legal players."""

from __future__ import annotations

import argparse
import collections
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from rules.base import SYSTEM
from rules.guerra_de_indagar import GAME
from rules.rng import Rng

#: Games still running after this many actions count as not won (the engine ends every game by round 10).
MAX_STEPS = 20_000


def play(bot: int, seats: int, seed: int, target: str = "10") -> tuple[list[int], str]:
    """One game with the AI on seat `bot` and random legal players elsewhere; the winners and how it ended."""
    winners, how, _cards = _play(bot, seats, seed, target)
    return winners, how


def _play(bot: int, seats: int, seed: int, target: str) -> tuple[list[int], str, list[str]]:
    """`play`, also naming the primary monsters in play."""
    state = GAME.new(GAME.resolve_options({"target": target}), seats, seed)
    rng = Rng.from_seed(seed * 7919 + 17)
    for _ in range(MAX_STEPS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            how = outcome.summary.key
            if state["result"].get("monster"):
                how += f":{state['result']['monster']}:r{state['round']}"
            cards = sorted(m["card"] for m in state["monsters"].values() if m["kind"] == "primary")
            return sorted(outcome.winners), how, cards
        seat = min(GAME.to_act(state))
        if seat == SYSTEM:
            action = GAME.system_action(state)
        elif seat == bot:
            action = GAME.ai_action(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat)).action
        state = GAME.apply(state, seat, action).state
    return [], "unfinished", []


def _one(job: tuple[int, int, int, str]) -> tuple[list[int], str, list[str]]:
    return _play(*job)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--target", default="10")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the results do not depend on it)")
    args = parser.parse_args(argv)
    wins = 0
    ends: collections.Counter[str] = collections.Counter()
    monsters: collections.Counter[str] = collections.Counter()
    in_play: collections.Counter[str] = collections.Counter()
    won_with: collections.Counter[str] = collections.Counter()
    jobs = [(i % args.players, args.players, args.seed + i, args.target) for i in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(_one, jobs, chunksize=4))
    else:
        results = [_one(job) for job in jobs]
    for (bot, *_rest), (winners, how, cards) in zip(jobs, results, strict=True):
        won = bot in winners
        in_play.update(cards)
        won_with.update(cards if won else [])
        wins += won
        end = how.split(":r")[0] if ":r" in how else how
        ends[f"{'won' if won else 'lost'}:{end}"] += 1
        if ":r" in how:
            monsters[how] += 1
    json.dump({"games": args.games, "seed": args.seed, "players": args.players, "target": args.target,
               "ai_vs_random": wins / args.games, "ends": dict(sorted(ends.items())),
               "monster_wins": dict(sorted(monsters.items())),
               "won_with_in_play": {card: f"{won_with[card]}/{n}" for card, n in sorted(in_play.items())}},
              sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
