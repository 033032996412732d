"""Gauntlet: a co-operative test game that uses every platform capability (registered only by tests).

Everyone first readies up, in any order and at the same time. Then up to 10 heroes cross a 30×30
field to the top row while an ogre, moved by the game itself, hunts
them. A hero moves up to `reach` squares, built step by step. After each round the ogre takes three
automated steps; when it ends a step next to a hero, that hero's player is asked out of turn whether
to dodge or brace (bracing, the default when time runs out, costs a life point). Everyone wins when
every hero is out; everyone loses when a hero falls or the rounds run out.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import (
    SYSTEM,
    Action,
    Choice,
    Decision,
    Event,
    Game,
    IllegalAction,
    LegalAction,
    OptionSpec,
    Outcome,
    Scalar,
    Step,
)
from rules.coords import name as square_name
from rules.rng import Rng
from rules.text import msg

SIZE = 30
DIRS = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1), "NE": (-1, 1), "NW": (-1, -1), "SE": (1, 1),
        "SW": (1, -1)}
OGRE_STEPS = 3


class Gauntlet(Game):
    id = "gauntlet"
    name_key = "core.seat.system"
    min_seats = 1
    max_seats = 10
    supports_ai = True
    seats_per_player = 3
    step_built = True

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("rounds", msg("core.step.part", part="rounds"), 12, low=2, high=40),
                OptionSpec("reach", msg("core.step.part", part="reach"), 3, low=1, high=8),
                OptionSpec("window", msg("core.step.part", part="window"), 60, low=5, high=3600),
                OptionSpec("ogre_col", msg("core.step.part", part="ogre_col"), SIZE // 2, low=0, high=SIZE - 1)]

    # ---------------------------------------------------------------- state

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> dict[str, Any]:
        rng = Rng.from_seed(seed)
        first = rng.below(seats)  # who starts is drawn, never the join order
        heroes = [{"r": SIZE - 1, "c": (i * 3) % SIZE, "hp": 2, "out": False} for i in range(seats)]
        ogre = [SIZE - 5, int(options.get("ogre_col", SIZE // 2))]
        return {"rng": rng.state, "heroes": heroes, "ogre": ogre, "round": 1,
                "rounds": int(options.get("rounds", 12)), "reach": int(options.get("reach", 3)),
                "window": int(options.get("window", 60)), "first": first, "turn": first, "done": [], "ready": [],
                "ogre_steps": 0, "pending": [], "asked": []}

    def seat_count(self, state: dict[str, Any]) -> int:
        return len(state["heroes"])

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def from_json(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(data))

    def _active(self, state: dict[str, Any]) -> list[int]:
        return [i for i, h in enumerate(state["heroes"]) if not h["out"] and h["hp"] > 0]

    def to_act(self, state: dict[str, Any]) -> frozenset[int]:
        if self.outcome(state) is not None:
            return frozenset()
        if len(state["ready"]) < len(state["heroes"]):  # several seats act at once: whoever is not ready
            return frozenset(s for s in range(len(state["heroes"])) if s not in state["ready"])
        if state["pending"]:
            return frozenset({state["pending"][0]})
        if state["turn"] == SYSTEM:
            return frozenset({SYSTEM})
        return frozenset({state["turn"]})

    def turn_key(self, state: dict[str, Any]) -> Any:
        return (state["round"], state["turn"], tuple(state["pending"]), state["ogre_steps"], len(state["ready"]))

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        seats = frozenset(range(len(state["heroes"])))
        if any(h["hp"] <= 0 for h in state["heroes"]) or state["round"] > state["rounds"]:
            return Outcome(frozenset(), msg("core.step.part", part="The ogre wins: everyone loses."))
        if all(h["out"] for h in state["heroes"]):
            return Outcome(seats, msg("core.step.part", part="Everyone is out: everyone wins!"))
        return None

    # ---------------------------------------------------------------- moves built in steps

    def _walk(self, state: dict[str, Any], seat: int, dirs: Sequence[str]) -> tuple[int, int] | None:
        hero = state["heroes"][seat]
        r, c = hero["r"], hero["c"]
        seen = {(r, c)}
        for d in dirs:
            if d not in DIRS:
                return None
            dr, dc = DIRS[d]
            r, c = r + dr, c + dc
            if not (0 <= r < SIZE and 0 <= c < SIZE) or (r, c) in seen or [r, c] == state["ogre"]:
                return None
            seen.add((r, c))
        return r, c

    def choices(self, state: dict[str, Any], seat: int, path: Sequence[str]) -> list[Choice] | Action:
        if seat not in self.to_act(state):
            return []
        if len(state["ready"]) < len(state["heroes"]):
            return Action.of("ready") if tuple(path) == ("ready",) else [] if path else [
                Choice("ready", msg("core.step.part", part="Ready"))]
        if state["pending"]:
            if len(path) == 1 and path[0] in ("dodge", "brace"):
                return Action.of(path[0])
            return [] if path else [Choice("dodge", msg("core.step.part", part="Dodge")),
                                    Choice("brace", msg("core.step.part", part="Brace"))]
        if not path:
            return [Choice("move", msg("core.step.part", part="Move")),
                    Choice("wait", msg("core.step.part", part="Wait"))]
        if path[0] == "wait":
            return Action.of("wait") if len(path) == 1 else []
        if path[0] != "move":
            return []
        steps = list(path[1:])
        if steps and steps[-1] == "go":
            steps = steps[:-1]
            return Action.of("move", path=tuple(steps)) if steps and self._walk(state, seat, steps) else []
        if self._walk(state, seat, steps) is None:
            return []
        if len(steps) == state["reach"]:
            return Action.of("move", path=tuple(steps))
        options = [Choice(d, msg("core.step.part", part=f"{d} → {square_name(*end)}"))
                   for d in DIRS if (end := self._walk(state, seat, [*steps, d])) is not None]
        if steps:
            end = self._walk(state, seat, steps)
            assert end is not None
            options.append(Choice("go", msg("core.step.part", part=f"Stop at {square_name(*end)}")))
        return options

    def is_legal(self, state: dict[str, Any], seat: int, action: Action) -> bool:
        if seat not in self.to_act(state) or seat == SYSTEM:
            return False
        if len(state["ready"]) < len(state["heroes"]):
            return action == Action.of("ready")
        if state["pending"]:
            return action in (Action.of("dodge"), Action.of("brace"))
        if action == Action.of("wait"):
            return True
        steps = action.get("path")
        return (action.kind == "move" and set(action.arg_dict) == {"path"} and isinstance(steps, tuple)
                and 1 <= len(steps) <= state["reach"] and self._walk(state, seat, steps) is not None)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[LegalAction]:
        """Every legal action; fine for tests and small reaches (the bot itself builds moves in steps)."""
        out: list[LegalAction] = []

        def walk(path: tuple[str, ...]) -> None:
            found = self.choices(state, seat, path)
            if isinstance(found, Action):
                out.append(LegalAction(found, msg("core.step.part", part=found.token())))
                return
            for choice in found:
                walk((*path, choice.token))

        if seat in self.to_act(state) and seat != SYSTEM:
            walk(())
        unique = {la.action: la for la in out}
        return list(unique.values())

    # ---------------------------------------------------------------- the game itself and the heroes

    def system_action(self, state: dict[str, Any]) -> Action:
        return Action.of("ogre_step")

    def decisions(self, state: dict[str, Any]) -> list[Decision]:
        return [Decision(seat, msg("core.step.part", part="The ogre is next to you: dodge or brace?"),
                         Action.of("brace"), private=True, seconds=state["window"]) for seat in state["pending"]]

    def timeout_action(self, state: dict[str, Any], seat: int) -> Action | None:
        if len(state["ready"]) < len(state["heroes"]):
            return Action.of("ready")
        return Action.of("brace") if state["pending"] else Action.of("wait")

    def skip_action(self, state: dict[str, Any], seat: int) -> Action | None:
        return self.timeout_action(state, seat)

    def apply(self, state: dict[str, Any], seat: int, action: Action) -> Step:
        s = copy.deepcopy(state)
        rng = Rng(s["rng"])
        events: list[Event] = []
        undoable = True
        if seat == SYSTEM:
            if s["turn"] != SYSTEM or s["pending"] or action != Action.of("ogre_step"):
                raise IllegalAction(msg("core.error.illegal", valid="ogre_step"))
            self._ogre_step(s, rng, events)
            undoable = False
        else:
            if not self.is_legal(state, seat, action):
                raise IllegalAction(msg("core.error.illegal", valid="move/wait"))
            hero = s["heroes"][seat]
            if action.kind == "ready":
                s["ready"].append(seat)
                events.append(Event(msg("core.step.part", part=f"Hero {seat + 1} is ready.")))
            elif action.kind in ("dodge", "brace"):
                s["pending"].pop(0)
                if action.kind == "brace":
                    hero["hp"] -= 1
                    events.append(Event(msg("core.step.part", part=f"{seat} braces and is hit.")))
                else:
                    free = [d for d in ("S", "E", "W", "N") if self._walk(s, seat, [d]) is not None]
                    if free and rng.below(2) == 0:
                        end = self._walk(s, seat, [free[rng.below(len(free))]])
                        assert end is not None  # `free` holds only the directions that walk
                        hero["r"], hero["c"] = end
                    else:
                        hero["hp"] -= 1
                    events.append(Event(msg("core.step.part", part=f"{seat} dodges.")))
                undoable = False
            else:
                if action.kind == "move":
                    end = self._walk(s, seat, action["path"])
                    assert end is not None
                    hero["r"], hero["c"] = end
                    events.append(Event(msg("core.step.part", part=f"Hero {seat + 1} moves to {square_name(*end)}.")))
                    if end[0] == 0:
                        hero["out"] = True
                self._next_hero(s)
        s["rng"] = rng.state
        return Step(s, events, undoable=undoable)

    def _order(self, s: dict[str, Any]) -> list[int]:
        n = len(s["heroes"])
        return [(s["first"] + k) % n for k in range(n)]

    def _next_hero(self, s: dict[str, Any]) -> None:
        s["done"].append(s["turn"])
        for seat in self._order(s):
            if seat in self._active(s) and seat not in s["done"]:
                s["turn"] = seat
                return
        s["turn"], s["ogre_steps"], s["asked"] = SYSTEM, 0, []

    def _ogre_step(self, s: dict[str, Any], rng: Rng, events: list[Event]) -> None:
        active = self._active(s)
        if active:
            def gap(i: int) -> int:
                h = s["heroes"][i]
                return max(abs(h["r"] - s["ogre"][0]), abs(h["c"] - s["ogre"][1]))
            best = min(gap(i) for i in active)
            target = [i for i in active if gap(i) == best]
            hero = s["heroes"][target[rng.below(len(target))]]
            dr = (hero["r"] > s["ogre"][0]) - (hero["r"] < s["ogre"][0])
            dc = (hero["c"] > s["ogre"][1]) - (hero["c"] < s["ogre"][1])
            if (s["ogre"][0] + dr, s["ogre"][1] + dc) != (hero["r"], hero["c"]):
                s["ogre"] = [s["ogre"][0] + dr, s["ogre"][1] + dc]
            events.append(Event(msg("core.step.part", part=f"The ogre moves to {square_name(*s['ogre'])}.")))
            for i in active:
                h = s["heroes"][i]
                if max(abs(h["r"] - s["ogre"][0]), abs(h["c"] - s["ogre"][1])) <= 1 and i not in s["asked"]:
                    s["pending"].append(i)
                    s["asked"].append(i)
        s["ogre_steps"] += 1
        if s["ogre_steps"] >= OGRE_STEPS:
            s["round"] += 1
            s["done"] = []
            active = self._active(s)
            s["turn"] = next((seat for seat in self._order(s) if seat in active), s["first"])

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        data = {"heroes": copy.deepcopy(state["heroes"]), "ogre": list(state["ogre"]), "round": state["round"],
                "turn": state["turn"], "pending": list(state["pending"]), "ready": list(state["ready"])}
        if seat is not None and seat in self.to_act(state) and not state["pending"]:
            data["reach"] = [square_name(*e) for d in DIRS if (e := self._walk(state, seat, [d])) is not None]
        return data

    def ai_action(self, state: dict[str, Any], seat: int, rng: Rng, level: str = "normal") -> Action:
        if len(state["ready"]) < len(state["heroes"]):
            return Action.of("ready")
        if state["pending"]:
            return Action.of("dodge")
        path: list[str] = []
        for _ in range(state["reach"]):
            options = [d for d in ("N", "NE", "NW") if self._walk(state, seat, [*path, d]) is not None]
            if not options:
                break
            path.append(options[rng.below(len(options))])
        return Action.of("move", path=tuple(path)) if path else Action.of("wait")

    def secret_tokens(self, state: dict[str, Any]) -> dict[str, frozenset[int]]:
        return {}


GAUNTLET = Gauntlet()
__all__ = ["GAUNTLET"]
