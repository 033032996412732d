"""Where a Guerra de Indagar AI's primacy points come from (issue 23: why hard rarely reaches 10 points).

Plays games of a cell of tools/gi_ai_eval.py through the shared loop and, for the measured seat, records round by
round its primacy points (outposts held, and the points it banked, by the move that gave them: spirits, attacks,
the end-of-round powers...), its outposts built and lost, spirits and resources held, and the tree declared.
`--per-round` prints one line a round of each game; the summary (one JSON line) sums the sources over the games and
says how far short of the target the games won on points at the round limit ended.

    nice -n 19 python -m tools.gi_points --cell hard_greedy --games 20 --seed 0 [--per-round]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from typing import Any

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.ai import _short
from rules.guerra_de_indagar.units import primacy_points
from tools.gi_ai_eval import CELLS, MAX_STEPS, _policy, _setup, _sides
from tools.playout import play


def _owned(s: Any, seat: int) -> int:
    return sum(1 for p in s["outposts"].values() if p["owner"] == seat)


def game_log(cell: str, seed: int, bot: int) -> dict[str, Any]:
    """One game of `cell` with the measured level on seat `bot`: its rounds and how it ended."""
    seats, level, rival = _sides(cell)
    banked: collections.Counter[str] = collections.Counter()
    built = lost = by_monster = by_hero = 0
    rounds: list[dict[str, Any]] = []

    def watch(before: Any, seat: int, action: Action, after: Any) -> None:
        nonlocal built, lost, by_monster, by_hero
        gained = after["players"][bot]["pp"] - before["players"][bot]["pp"]
        if gained:
            source = "round_end" if seat == SYSTEM else action.kind
            if source == "round_end" and after["players"][bot]["tree"]:
                source = f"power:{after['players'][bot]['tree']}"
            banked[source] += gained
        mine_before = {k for k, p in before["outposts"].items() if p["owner"] == bot}
        mine_after = {k for k, p in after["outposts"].items() if p["owner"] == bot}
        built += len(mine_after - mine_before) if seat == bot else 0
        lost += len(mine_before - mine_after)
        if mine_before - mine_after:
            att = before["attack"]
            if (att is not None and att["by"][0] == "monster") or (before["turn"] or ["p"])[0] == "m":
                by_monster += len(mine_before - mine_after)
            else:
                by_hero += len(mine_before - mine_after)
        if after["round"] != before["round"] or (after["result"] is not None and before["result"] is None):
            p = before["players"][bot]
            rounds.append({"round": before["round"], "points": primacy_points(after, bot),
                           "outposts": _owned(after, bot), "banked": dict(banked), "built": built, "lost": lost,
                           "spirits": p["spirits"], "res": dict(p["res"]), "tree": p["tree"],
                           "rivals": [primacy_points(after, o) for o in range(seats) if o != bot],
                           "monsters": {m["card"]: _short(after, mid) for mid, m in sorted(after["monsters"].items())
                                        if m["kind"] == "primary" and not m["gone"]},
                           "by_monster": by_monster, "by_hero": by_hero})

    policies = {seat: _policy(level if seat == bot or cell.startswith("allai") else rival) for seat in range(seats)}
    played = play(GAME, seats=seats, seed=seed, policies=policies, options={"target": "10"}, max_actions=MAX_STEPS,
                  watch=watch)
    result = played.state["result"] if played.state is not None else None
    monster = None
    if result is not None and result.get("monster"):
        monster = str(played.state["monsters"][result["monster"]]["card"])
    return {"seed": seed, "bot": bot, "won": bot in played.winners, "end": played.end, "monster": monster,
            "faction": played.state["players"][bot]["faction"], "points": primacy_points(played.state, bot),
            "rounds": rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cell", default="hard_greedy", choices=CELLS)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-round", action="store_true")
    parser.add_argument("--hard", action="append", default=[], metavar="FIELD=VALUE")
    args = parser.parse_args(argv)
    hard = {}
    for item in args.hard:
        field, _, value = item.partition("=")
        hard[field] = float(value) if "." in value else int(value)
    _setup({}, hard)
    seats = _sides(args.cell)[0]
    sources: collections.Counter[str] = collections.Counter()
    short: collections.Counter[int] = collections.Counter()
    ends: collections.Counter[str] = collections.Counter()
    wins = reached = 0
    built = lost = 0
    for i in range(args.games):
        log = game_log(args.cell, args.seed + i, i % seats)
        last: dict[str, Any] = log["rounds"][-1] if log["rounds"] else {"banked": {}, "built": 0, "lost": 0}
        sources.update(last["banked"])
        sources["outposts_held_at_end"] += last.get("outposts", 0)
        built += last["built"]
        lost += last["lost"]
        ends[log["end"] if log["monster"] is None else f"monster:{log['monster']}"] += 1
        wins += log["won"]
        reached += log["won"] and log["end"] == "gi.end.target"
        if log["won"] and log["end"] != "gi.end.target":
            short[10 - log["points"]] += 1
        if args.per_round:
            for r in log["rounds"]:
                sys.stdout.write(json.dumps({"seed": log["seed"], "faction": log["faction"], **r}) + "\n")
            sys.stdout.write(json.dumps({k: v for k, v in log.items() if k != "rounds"}) + "\n")
    sys.stdout.write(json.dumps({"cell": args.cell, "games": args.games, "seed": args.seed, "wins": wins,
                                 "reached_10": reached, "ends": dict(ends), "sources": dict(sources),
                                 "built": built, "lost": lost,
                                 "won_on_rounds_short_by": dict(sorted(short.items()))}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
