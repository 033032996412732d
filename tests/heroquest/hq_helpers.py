"""Small HeroQuest scenarios for the engine tests: a tiny quest, scripted dice, quick accessors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rules.base import Action
from rules.heroquest import GAME
from rules.heroquest import state as hq_state
from rules.heroquest.quest import Quest
from rules.heroquest.shapes import Hero
from rules.heroquest.state import HQState

STAIRS = [[1, 1], [1, 2], [2, 1], [2, 2]]


def quest(objects: list[dict[str, Any]], start: list[list[int]] | None = None, notes: dict | None = None,
          wandering: str = "orc", dark: list | None = None) -> Quest:
    """Room 1 (rows 1-3, cols 1-4) holds the stairway; `objects` adds the rest."""
    base = [{"uid": "stairway_1", "kind": "stairs", "ref": "stairway", "squares": STAIRS}]
    return Quest.from_json({
        "format": "heroquest-quest", "version": 1, "id": "test_quest",
        "name": {"es": "Prueba", "en": "Test"}, "speech": {"es": "Hola", "en": "Hello"},
        "notes": notes or {}, "wandering_monster": wandering, "dark": dark or [],
        "start": start or STAIRS, "objects": base + objects,
    })


def new(objects: list[dict[str, Any]] | None = None, heroes: str = "barbarian,dwarf", seats: int = 2,
        seed: int = 1, **kw: Any) -> HQState:
    opts = GAME.resolve_options({"heroes": heroes, **{k: str(v) for k, v in kw.pop("options", {}).items()}})
    return GAME.new_with_quest(quest(objects or [], **kw), opts, seats, seed)


def monster(uid: str, ref: str, sq: tuple[int, int]) -> dict[str, Any]:
    return {"uid": uid, "kind": "monster", "ref": ref, "squares": [list(sq)]}


def door(uid: str, a: tuple[int, int], b: tuple[int, int]) -> dict[str, Any]:
    return {"uid": uid, "kind": "door", "ref": "door", "between": [list(a), list(b)]}


def hero(s: HQState, hid: str) -> Hero:
    h = s.hero(f"hero_{hid}")
    assert h is not None
    return h


def put(s: HQState, hid: str, sq: tuple[int, int] | None) -> None:
    hero(s, hid)["sq"] = None if sq is None else list(sq)


def act(s: HQState, seat: int, kind: str, **args: Any) -> HQState:
    return GAME.apply(s, seat, Action.of(kind, **args)).state


def step(s: HQState, seat: int, kind: str, **args: Any):
    return GAME.apply(s, seat, Action.of(kind, **args))


def kinds(s: HQState, seat: int) -> set[str]:
    return {la.action.kind for la in GAME.legal_actions(s, seat)}


def tokens(s: HQState, seat: int) -> set[str]:
    return {la.action.token() for la in GAME.legal_actions(s, seat)}


def fresh(s: HQState) -> HQState:
    """A copy made the way the table stores and reloads a game."""
    return GAME.from_json(GAME.to_json(s))


@contextmanager
def dice(*faces: str) -> Iterator[list[str]]:
    """Script the combat dice: each roll takes faces from the front of the list."""
    queue = list(faces)
    original = hq_state.Ctx.roll

    def scripted(self: hq_state.Ctx, count: int) -> list[str]:
        self.undoable = False
        out = [queue.pop(0) for _ in range(max(0, min(12, count)))]
        return out

    hq_state.Ctx.roll = scripted  # type: ignore[method-assign]
    try:
        yield queue
    finally:
        hq_state.Ctx.roll = original  # type: ignore[method-assign]
