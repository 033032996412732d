"""The TypedDicts of `rules.heroquest.shapes` describe the dicts the engine really builds: a key added to a hero,
a monster, a board object, the state or a view without its type (or a type naming a key nobody writes) fails here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, get_origin, get_type_hints

from rules.heroquest import GAME, shapes
from rules.heroquest.quest import builtin_quests
from rules.heroquest.state import GM, HQState
from tests.heroquest.hq_helpers import door, monster, new


def _fits(value: Mapping[str, object], shape: object, what: str) -> None:
    # the shapes module postpones its annotations: NotRequired shows only once they are evaluated
    hints = get_type_hints(shape, include_extras=True)
    known = set(hints)
    required = {k for k, hint in hints.items() if get_origin(hint) is not NotRequired}
    keys = set(value)
    assert required <= keys, f"{what} lacks {sorted(required - keys)}"
    assert keys <= known, f"{what} has keys its type does not name: {sorted(keys - known)}"


def _game() -> HQState:
    quests = builtin_quests()
    return GAME.new(GAME.resolve_options({"quest": next(iter(quests))}), 3, 7)


def test_a_new_games_state_fits_its_types() -> None:
    s = _game()
    _fits(s.d, shapes.StateData, "the state")
    _fits(s.d["opts"], shapes.Options, "the options")
    _fits(s.d["turn"], shapes.Turn, "the turn")
    for h in s.heroes:
        _fits(h, shapes.Hero, h["uid"])
    for m in s.monsters.values():
        _fits(m, shapes.Monster, m["uid"])
    assert s.objects, "the quest places objects"
    for o in s.objects.values():
        _fits(o, shapes.BoardObject, o["uid"])
    for entry in s.d["log"]:
        _fits(entry, shapes.LogEntry, "a log entry")


def test_every_seats_view_fits_its_type() -> None:
    s = new([monster("m1", "goblin", (2, 3)), door("d1", (3, 2), (4, 2))])
    for seat in (GM, 1, None):
        view = GAME.view(s, seat)
        _fits(view, shapes.BoardView, f"the view of {seat}")
        turn = view["turn"]
        assert isinstance(turn, dict)
        _fits(turn, shapes.TurnView, "the turn view")
        for key, shape in (("doors", shapes.DoorView), ("objects", shapes.ObjectView),
                           ("heroes", shapes.HeroView), ("monsters", shapes.MonsterView)):
            items = view[key]
            assert isinstance(items, list)
            for item in items:
                _fits(item, shape, f"{key} in the view of {seat}")
    assert GAME.view(s, GM)["monsters"], "the game master sees the goblin"
    assert GAME.view(s, GM)["doors"], "the game master sees the door"


def test_a_hero_record_fits_its_type() -> None:
    for record in GAME.sheets(_game()).values():
        _fits(record, shapes.HeroRecord, "a hero's record")


def test_equip_slot_names_only_what_a_hero_wears() -> None:
    assert [shapes.equip_slot(x) for x in ("weapon", "shield", "helmet", "armour")] == list(shapes.EQUIP_SLOTS)
    assert shapes.equip_slot("potion") is None and shapes.equip_slot("item") is None
