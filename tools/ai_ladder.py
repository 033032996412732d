"""The AI table of all five games: each game's AI against random players, against the simple player, and each
level against the one below (`python -m tools.ai_ladder [--games 200] [--seed 1000] [--only GAME] [--level L]
[--json]`).

Every cell is played by the shared loop of `tools/playout.py` (or a game's own eval tool built on it) and
reported in its JSON (`tools.playout.report`: game, games, seed, wins, rates, ends, ...; the ladder adds the cell's
name and the load average when it ended), printed as each cell ends; the table printed at the end reads those
reports. The AI plays against random and simple players at each `--level` (default normal, the level a table gets
unless it asks, and hard, the one the issue's targets are about). Co-operative games (The King's Armory) have no
opponent: their cells are the share of games a team of that level wins, with a random team beside it.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rules import registry
from rules.base import AI_LEVELS, Action, Game
from rules.rng import Rng
from tools import gg_ai_eval, hq_ai_eval, hr_ai_eval
from tools.playout import Policy, play, report

Cell = dict[str, Any]
#: Games per cell by default: a quick look at every cell (the issue's figures want 200, `--games 200`).
GAMES = 2
#: The levels played against random and simple players unless `--level` says otherwise.
LEVELS = ("normal", "hard")


def _policy_from(module: str, name: str) -> Policy | None:
    """A simple player another tool defines as `name(state, seat, rng)`, when that tool exists."""
    try:
        function = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None

    def choose(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        return function(state, seat, rng)
    return choose


def duel(game_id: str, first: tuple[str, Policy | str], second: tuple[str, Policy | str], *, seats: int,
         games: int, seed: int, options: dict[str, str] | None = None, max_actions: int = 50_000) -> Cell:
    """`first` on one seat (turning round the table) against `second` on every other seat; each side is a name
    and either an AI level or a policy."""
    wins: Counter[str] = Counter({first[0]: 0, second[0]: 0})
    ends: Counter[str] = Counter()
    for i in range(games):
        mine = i % seats
        levels: dict[int, str] = {}
        policies: dict[int, Policy] = {}
        for seat in range(seats):
            side = first[1] if seat == mine else second[1]
            if isinstance(side, str):
                levels[seat] = side
            else:
                policies[seat] = side
        played = play(registry.games()[game_id], seats=seats, seed=seed + i, levels=levels, policies=policies,
                      options=options, max_actions=max_actions)
        ends[played.end] += 1
        wins[first[0] if mine in played.winners else second[0] if played.winners else "nobody"] += 1
    return report(game_id, games, seed, wins, ends, players=[first[0], second[0]], seats=seats)


def team(game_id: str, level: str | None, *, seats: int, games: int, seed: int,
         options: dict[str, str] | None = None, max_actions: int = 60_000) -> Cell:
    """A co-operative game: every seat the AI at `level` (None: random legal moves); the games the team wins, and
    the games it lost ("lost": the game beat the team, ran out of moves or stuck)."""
    name = level or "random"
    wins: Counter[str] = Counter({name: 0, "lost": 0})
    ends: Counter[str] = Counter()
    for i in range(games):
        played = play(registry.games()[game_id], seats=seats, seed=seed + i,
                      levels={s: level for s in range(seats)} if level else {}, options=options,
                      max_actions=max_actions)
        ends[played.end] += 1
        wins[name if played.winners else "lost"] += 1
    return report(game_id, games, seed, wins, ends, players=[name], seats=seats)


def hero_realms(games: int, seed: int, levels: Sequence[str]) -> Iterator[tuple[str, Cell]]:
    for level in levels:
        for who in ("random", "simple"):
            yield f"{level} vs {who}", hr_ai_eval.head_to_head(level, who, games=games, seed=seed)
    for low, high in itertools.pairwise(AI_LEVELS):
        yield f"{high} vs {low}", hr_ai_eval.head_to_head(high, low, games=games, seed=seed)


def gorgasali(games: int, seed: int, levels: Sequence[str]) -> Iterator[tuple[str, Cell]]:
    for level in levels:
        for who in ("random", "aggressive", "looter"):
            yield f"{level} vs 3 {who}", gg_ai_eval.bot_against(who, games=games, seed=seed, level=level)
    for low, high in itertools.pairwise(AI_LEVELS):
        yield f"{high} vs {low} (2 + 2)", gg_ai_eval.levels_against(low, high, games=games, seed=seed)


def guerra(games: int, seed: int, levels: Sequence[str]) -> Iterator[tuple[str, Cell]]:
    game = "guerra-de-indagar"
    greedy = _policy_from("tools.gi_greedy", "greedy_action")
    for level in levels:
        yield f"{level} vs random", duel(game, (level, level), ("random", _random), seats=2, games=games, seed=seed)
        if greedy is not None:
            yield f"{level} vs greedy", duel(game, (level, level), ("greedy", greedy), seats=2, games=games,
                                             seed=seed)
    for low, high in itertools.pairwise(AI_LEVELS):
        yield f"{high} vs {low}", duel(game, (high, high), (low, low), seats=2, games=games, seed=seed)


def kings_armory(games: int, seed: int, levels: Sequence[str]) -> Iterator[tuple[str, Cell]]:
    """Co-operative: every level's team is measured whatever `levels` says (a team has no opponent to pick)."""
    game = "kings-armory"
    yield "random team (3)", team(game, None, seats=3, games=games, seed=seed)
    for level in AI_LEVELS:
        yield f"{level} team (3)", team(game, level, seats=3, games=games, seed=seed)


def heroquest(games: int, seed: int, levels: Sequence[str]) -> Iterator[tuple[str, Cell]]:
    """The monsters' autoplay (the AI a game master hands over to) against random and scripted heroes, and level
    against level; "wins" are games where the monsters killed a hero, or seeds where a level did more harm."""
    for level in levels:
        for heroes in ("random", "scripted"):
            yield f"{level} vs {heroes} heroes", hq_ai_eval.against_heroes(level, games=games, seed=seed,
                                                                           heroes=heroes)
    for low, high in itertools.pairwise(AI_LEVELS):
        yield f"monsters {high} vs {low}", hq_ai_eval.levels_against(low, high, games=games, seed=seed)


def _random(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    return rng.choice(game.legal_actions(state, seat)).action


LADDER: dict[str, Callable[[int, int, Sequence[str]], Iterator[tuple[str, Cell]]]] = {
    "hero-realms": hero_realms, "gorgasali": gorgasali, "guerra-de-indagar": guerra,
    "kings-armory": kings_armory, "heroquest": heroquest}


def table_lines(rows: list[tuple[str, str, Cell]]) -> list[str]:
    """The printed table: game, cell, games, the seeds played, the games each side won (and its share), and how
    the games ended."""
    lines = [f"{'game':<18} {'cell':<30} {'games':>5} {'seeds':>10}  {'wins':<40}  ends"]
    for game, label, cell in rows:
        games, seed = cell["games"], cell["seed"]
        wins = ", ".join(f"{side} {won} ({cell['rates'][side] * 100:.1f} %)" for side, won in cell["wins"].items())
        ends = ", ".join(f"{how} {count}" for how, count in cell["ends"].items())
        lines.append(f"{game:<18} {label:<30} {games:>5} {f'{seed}-{seed + games - 1}':>10}  {wins:<40}  {ends}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=GAMES, help="games per cell (the default finishes in minutes)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--level", action="append", choices=AI_LEVELS,
                        help=f"a level played against random and simple players (repeatable; default "
                             f"{' and '.join(LEVELS)}); level against level is always played")
    parser.add_argument("--only", action="append", choices=sorted(LADDER), help="these games only (repeatable)")
    parser.add_argument("--json", action="store_true", help="also print each cell's report, one JSON line each")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str, Cell]] = []
    for game in args.only or sorted(LADDER):
        for label, cell in LADDER[game](args.games, args.seed, args.level or LEVELS):
            rows.append((game, label, cell))
            if args.json:
                load = [round(x, 2) for x in os.getloadavg()]
                print(json.dumps({"cell": label, **cell, "load_average": load}), flush=True)
    print("\n".join(table_lines(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
