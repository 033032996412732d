"""Co-operative games with human and AI heroes, played the way the table plays them, watched for an AI seat that
spends the team's gold or places its towers before every human seat has had its chance.

`python -m tests.kings_armory.coop_watch --games 100` prints the figure for a larger run."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.base import SYSTEM, Action
from rules.kings_armory import GAME, ai
from rules.kings_armory.shapes import State
from rules.rng import Rng

#: Phases in which the team shops and places its towers.
SHOPPING = ("setup", "between")


@dataclass
class Window:
    """One round of shopping: the set-up, or the pause after a wave."""

    phase: str
    wave: int
    #: Human seats that had their chance (readied, or left it to the team) so far.
    humans_done: set[int] = field(default_factory=set)
    #: Whether an AI seat spent gold or built a tower while some human seat had not had its chance.
    ai_first: bool = False
    ai_spent: bool = False
    humans_spent: bool = False
    proposals: int = 0


class Watcher:
    """Follows a game move by move and records, for each round of shopping, who spent what and when."""

    def __init__(self, humans: set[int], ai_seats: set[int]) -> None:
        self.humans, self.ai_seats = humans, ai_seats
        self.windows: list[Window] = []
        self._open: Window | None = None

    def see(self, before: State, seat: int, action: Action, after: State) -> None:
        if before["phase"] not in SHOPPING:
            self._open = None
            return
        window = self._open
        if window is None:
            window = self._open = Window(before["phase"], before["wave"])
            self.windows.append(window)
        if seat in self.ai_seats and _shared_change(before, after):
            window.ai_spent = True
            window.ai_first |= not self.humans <= window.humans_done
        if seat in self.humans and _shared_change(before, after):
            window.humans_spent = True
        if seat in self.humans and action.kind in ("ready", "defer"):
            window.humans_done.add(seat)
        window.proposals += seat in self.ai_seats and action.kind == "defer" and bool(action.get("plan"))
        if after["phase"] not in SHOPPING:
            self._open = None


@dataclass
class Game:
    seed: int
    windows: list[Window]
    log: list[tuple[int, Action]]
    final: State


def _shared_change(before: State, after: State) -> bool:
    """Whether a move spent the team's gold or placed one of its towers."""
    return after["gold"] < before["gold"] or len(after["towers"]) != len(before["towers"])


def human_move(s: State, seat: int, rng: Rng) -> Action:
    """A scripted player: while the team shops it sometimes leaves it to the team, sometimes readies without
    buying anything, and otherwise shops as the AI would; in a wave it plays as the AI would."""
    legal = GAME.legal_actions(s, seat)
    kinds = {la.action.kind for la in legal}
    if s["phase"] in SHOPPING and not s["trade"]:
        roll = rng.below(100)
        if "defer" in kinds and roll < 15:
            return Action.of("defer")
        if "ready" in kinds and roll < 35:
            return Action.of("ready")
    return ai.choose([la for la in legal if la.action.kind != "defer"], s, seat, rng)


def play(seed: int, ai_seats: frozenset[int] = frozenset({1}), seats: int = 3,
         options: Mapping[str, str] | None = None, last_wave: int = 99, max_steps: int = 40_000) -> Game:
    """One game: the table's loop (the game's own steps first, then the lowest AI seat on turn, at once), and
    otherwise one of the human seats on turn, chosen at random, moves; it stops when the game ends or
    `last_wave` starts."""
    s = GAME.new(GAME.resolve_options(dict(options or {"map": "short-road"})), seats, seed)
    rng = Rng.from_seed(seed * 31 + 7)
    humans = set(range(seats)) - ai_seats
    watcher = Watcher(humans, set(ai_seats))
    log: list[tuple[int, Action]] = []
    for _ in range(max_steps):
        if GAME.outcome(s) is not None or s["wave"] > last_wave:
            break
        to_act = GAME.to_act(s)
        ai_on_turn = sorted(ai_seats & to_act)
        if SYSTEM in to_act:
            seat, action = SYSTEM, GAME.system_action(s)
        elif ai_on_turn:
            seat = ai_on_turn[0]
            action = GAME.ai_action(s, seat, rng)
            assert GAME.is_legal(s, seat, action), action
        else:
            seat = rng.choice(sorted(humans & to_act))
            action = human_move(s, seat, rng)
        after = GAME.apply(s, seat, action).state
        watcher.see(s, seat, action, after)
        log.append((seat, action))
        s = after
    return Game(seed, watcher.windows, log, s)


def tally(games: list[Game]) -> dict[str, int]:
    windows = [w for g in games for w in g.windows]
    return {"games": len(games), "windows": len(windows),
            "humans_first": sum(not w.ai_first for w in windows),
            "ai_spent_after_humans": sum(w.ai_spent and not w.ai_first for w in windows),
            "humans_spent": sum(w.humans_spent for w in windows),
            "ai_proposed": sum(w.proposals > 0 for w in windows),
            "won": sum(g.final["result"] == "won" for g in games)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--map", default="short-road")
    args = parser.parse_args(argv)
    games = [play(args.seed + i, options={"map": args.map}) for i in range(args.games)]
    out = tally(games)
    json.dump(out, sys.stdout)
    sys.stdout.write(f"\nhumans shopped before the AI in {out['humans_first']} of {out['windows']} windows\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
