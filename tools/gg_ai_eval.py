"""Measures the Gorgasali bots: one bot at a level against random players or aggressive fighters, and levels
against each other at mixed tables (`--players`, default 4)."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
from collections import Counter
from typing import Any

from rules.base import AI_LEVELS
from rules.gorgasali import GAME
from tools.gg_players import aggressive, aggressive_looter
from tools.playout import Played, Policy, play, random_chooser, report

OPPONENTS: dict[str, Policy] = {"random": random_chooser, "aggressive": aggressive, "looter": aggressive_looter}


def bot_against(opponent: str, *, games: int, seed: int, players: int = 4, level: str = "normal",
                mode: str = "ffa", out: Any = None, each: Any = None) -> dict[str, Any]:
    """One bot at `level` on a seat that turns round the table, every other seat played by `opponent`; with
    `each` (a file), one JSON line per game as it ends."""
    wins: Counter[str] = Counter({"bot": 0, opponent: 0})
    ends: Counter[str] = Counter()
    for i in range(games):
        bot = i % players
        played = play(GAME, seats=players, seed=seed + i, levels={bot: level}, default=OPPONENTS[opponent],
                      options={"mode": mode})
        ends[played.end] += 1
        side = "bot" if bot in played.winners else opponent if played.winners else "nobody"
        wins[side] += 1
        _each(each, seed + i, played, side, bot=bot)
    return report("gorgasali", games, seed, wins, ends, out=out, players=players, level=level,
                  opponent=opponent)


def levels_against(low: str, high: str, *, games: int, seed: int, players: int = 4,
                   out: Any = None, each: Any = None) -> dict[str, Any]:
    """Mixed tables: half the seats play at `high`, half at `low` (alternating, turning round the table); a
    game counts for the level whose seat wins it. With `each` (a file), one JSON line per game as it ends."""
    wins: Counter[str] = Counter({high: 0, low: 0})
    ends: Counter[str] = Counter()
    for i in range(games):
        levels = {seat: high if (seat + i) % 2 == 0 else low for seat in range(players)}
        played = play(GAME, seats=players, seed=seed + i, levels=levels)
        ends[played.end] += 1
        won = {levels[s] for s in played.winners}
        side = won.pop() if len(won) == 1 else "nobody"
        wins[side] += 1
        _each(each, seed + i, played, side, levels=levels)
    return report("gorgasali", games, seed, wins, ends, out=out, players=players, mixed=[low, high])


def _each(each: Any, seed: int, played: Played, side: str, **seats: Any) -> None:
    """One game's line for `--each`: its seed, who sat where, the winning seats, how it ended, the side it counts
    for (a long run can be read, or summed, before it ends)."""
    if each is not None:
        each.write(json.dumps({"seed": seed, **seats, "winners": list(played.winners), "end": played.end,
                               "actions": played.actions, "side": side}) + "\n")
        each.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", choices=AI_LEVELS, default="normal")
    parser.add_argument("--against", choices=[*OPPONENTS, "levels"], default="random",
                        help="who fills the other seats; 'levels' plays each level against the one below")
    parser.add_argument("--pair", choices=[f"{high}>{low}" for low, high in itertools.pairwise(AI_LEVELS)],
                        action="append", help="with --against levels: only this pair of levels (repeatable)")
    parser.add_argument("--each", metavar="FILE", help="also write one JSON line per game to FILE as it ends")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        each = stack.enter_context(open(args.each, "w", encoding="utf-8")) if args.each else None
        if args.against == "levels":
            for low, high in itertools.pairwise(AI_LEVELS):
                if not args.pair or f"{high}>{low}" in args.pair:
                    levels_against(low, high, games=args.games, seed=args.seed, players=args.players,
                                   out=sys.stdout, each=each)
        else:
            bot_against(args.against, games=args.games, seed=args.seed, players=args.players, level=args.level,
                        out=sys.stdout, each=each)
    return 0


if __name__ == "__main__":
    sys.exit(main())
