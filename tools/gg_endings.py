"""Why a Gorgasali bot loses: plays one bot at a level against three aggressive fighters (or random players) and
logs how each lost game ended for the bot: who eliminated it (or the zone), the zone it stood in, the round, and
what it held. `--summary` prints counts only."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from rules.base import Action
from rules.gorgasali import GAME
from rules.gorgasali.board import board_of
from tools.gg_ai_eval import OPPONENTS
from tools.playout import play, report


def one_game(seed: int, bot: int, level: str, opponent: str, players: int = 4) -> dict[str, Any]:
    """One game of the shared evaluation loop (`tools.playout.play`, as `tools.gg_ai_eval` plays it), watching
    the bot's hit points after every move: how the game ended, and for the bot who took its life and where."""
    board: Any = None
    death: dict[str, Any] | None = None
    hits: Counter[str] = Counter()

    def watch(state: Any, seat: int, action: Action, after_state: Any) -> None:
        nonlocal board, death
        board = board or board_of(state["board"])
        before, after = state["players"][bot], after_state["players"][bot]
        hp, pos = before["hp"], before["pos"]
        lost = hp - after["hp"] if after["alive"] else hp
        if lost > 0:
            cause = "zone" if seat == bot and action.kind in ("step", "dober_step") else \
                "self" if seat == bot else action.kind
            hits[cause] += lost
        if before["alive"] and not after["alive"] and death is None:
            death = {"by": "self" if seat == bot else f"seat{seat}", "action": action.kind,
                     "round": after_state["round"], "zone": after_state["zone"],
                     "in_zone": board.zone[pos] if pos is not None else None,
                     "alive": sum(p["alive"] for p in after_state["players"]), "turns": before["turns"]}

    played = play(GAME, seats=players, seed=seed, levels={bot: level}, default=OPPONENTS[opponent],
                  options={"mode": "ffa"}, watch=watch)
    state = played.state
    return {"seed": seed, "bot": bot, "won": bot in played.winners, "nobody": not played.winners,
            "end": played.end, "round": state["round"], "death": death, "hp_lost": dict(hits),
            "kills": state["players"][bot].get("kills", 0), "char": state["players"][bot]["char"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--against", choices=list(OPPONENTS), default="aggressive")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args(argv)
    rows = [one_game(args.seed + i, i % 4, args.level, args.against) for i in range(args.games)]
    if not args.summary:
        for row in rows:
            if not row["won"]:
                sys.stdout.write(json.dumps(row) + "\n")
    lost = [r for r in rows if not r["won"]]
    wins = Counter({"bot": len(rows) - len(lost), args.against: 0})
    wins.update("nobody" if r["nobody"] else args.against for r in lost)
    summary = report("gorgasali", len(rows), args.seed, wins, Counter(r["end"] for r in rows), players=4,
                     level=args.level, opponent=args.against,
                     death_round=sorted(r["death"]["round"] for r in lost if r["death"]),
                     death_action=Counter(r["death"]["action"] for r in lost if r["death"]),
                     alive_at_death=Counter(r["death"]["alive"] for r in lost if r["death"]),
                     lost_chars=Counter(r["char"] for r in lost), all_chars=Counter(r["char"] for r in rows),
                     hp_lost_in_losses=sum((Counter(r["hp_lost"]) for r in lost), Counter()))
    sys.stdout.write(json.dumps(summary, default=dict) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
