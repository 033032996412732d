"""Small HeroQuest scenarios for the engine tests: a tiny quest, scripted dice, quick accessors."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import cast

from rules import registry
from rules.base import Action, ArgValue, Json, Scalar, Step
from rules.heroquest import GAME
from rules.heroquest import state as hq_state
from rules.heroquest.board import Square
from rules.heroquest.engine import HeroQuest
from rules.heroquest.quest import PlacedJson, Quest, QuestJson, SetupJson
from rules.heroquest.shapes import BoardView, Hero
from rules.heroquest.state import HQState, as_square

STAIRS = [[1, 1], [1, 2], [2, 1], [2, 2]]


def quest(objects: list[PlacedJson], start: list[list[int]] | None = None,
          notes: Mapping[str, str | dict[str, str]] | None = None, wandering: str = "orc",
          dark: list[list[int]] | None = None) -> Quest:
    """Room 1 (rows 1-3, cols 1-4) holds the stairway; `objects` adds the rest."""
    base: list[PlacedJson] = [{"uid": "stairway_1", "kind": "stairs", "ref": "stairway", "squares": STAIRS}]
    data: QuestJson = {
        "format": "heroquest-quest", "version": 1, "id": "test_quest",
        "name": {"es": "Prueba", "en": "Test"}, "speech": {"es": "Hola", "en": "Hello"},
        "notes": dict(notes or {}), "wandering_monster": wandering, "dark": dark or [],
        "start": start or STAIRS, "objects": base + objects,
    }
    return Quest.from_json(data)


def new(objects: list[PlacedJson] | None = None, heroes: str = "barbarian,dwarf", seats: int = 2,
        seed: int = 1, *, options: Mapping[str, object] | None = None,
        notes: Mapping[str, str | dict[str, str]] | None = None, wandering: str = "orc") -> HQState:
    opts = GAME.resolve_options({"heroes": heroes, **{k: str(v) for k, v in (options or {}).items()}})
    return GAME.new_with_quest(quest(objects or [], notes=notes, wandering=wandering), opts, seats, seed)


def monster(uid: str, ref: str, sq: tuple[int, int]) -> PlacedJson:
    return {"uid": uid, "kind": "monster", "ref": ref, "squares": [list(sq)]}


def door(uid: str, a: tuple[int, int], b: tuple[int, int]) -> PlacedJson:
    return {"uid": uid, "kind": "door", "ref": "door", "between": [list(a), list(b)]}


def registered() -> HeroQuest:
    """HeroQuest as the table finds it, through the registry."""
    game = registry.get("heroquest")
    assert isinstance(game, HeroQuest)
    return game


def hero(s: HQState, hid: str) -> Hero:
    h = s.hero(f"hero_{hid}")
    assert h is not None
    return h


def placed(h: Hero) -> Square:
    """The square of a hero the test expects on the board."""
    sq = as_square(h["sq"])
    assert sq is not None, f"{h['uid']} is not on the board"
    return sq


def put(s: HQState, hid: str, sq: tuple[int, int] | None) -> None:
    hero(s, hid)["sq"] = None if sq is None else list(sq)


def act(s: HQState, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> HQState:
    return GAME.apply(s, seat, Action.of(kind, **args)).state


def step(s: HQState, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> Step[HQState]:
    return GAME.apply(s, seat, Action.of(kind, **args))


def kinds(s: HQState, seat: int) -> set[str]:
    return {la.action.kind for la in GAME.legal_actions(s, seat)}


def tokens(s: HQState, seat: int) -> set[str]:
    return {la.action.token() for la in GAME.legal_actions(s, seat)}


def as_board_view(view: Mapping[str, object]) -> BoardView:
    """A view as its type says: the contract's views are plain dicts (rules/base.py), HeroQuest's is a BoardView
    (tests/heroquest/test_shapes.py checks every seat's view against it)."""
    return cast(BoardView, view)


def board_view(s: HQState, seat: int | None) -> BoardView:
    """What `seat` sees."""
    return as_board_view(GAME.view(s, seat))


def as_setup(setup: Mapping[str, Json]) -> SetupJson:
    """An uploaded quest's set-up as HeroQuest builds it (`Imported.setup`); the contract types it as any JSON."""
    return cast(SetupJson, setup)


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
