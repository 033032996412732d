"""The engine's queries touch nothing: no caches in the state, fresh answers after a hand edit, shared quest."""

from __future__ import annotations

import copy

from rules.base import Action
from rules.heroquest import GAME
from rules.heroquest.state import GM, sq_token
from tests.heroquest.hq_helpers import monster, new, put, tokens


def _snapshot(s: object) -> dict:
    return copy.deepcopy({k: v for k, v in vars(s).items() if k != "quest_obj"})


def test_queries_leave_the_state_object_as_it_was() -> None:
    s = new([monster("orc_1", "orc", (2, 6))])
    before, keys = _snapshot(s), set(vars(s))
    for seat in (GM, 1):
        GAME.legal_actions(s, seat)
        GAME.is_legal(s, seat, Action.of("end_turn"))
        GAME.why_illegal(s, seat, Action.of("move", to="3-4"))
        GAME.view(s, seat)
    GAME.apply(s, 1, Action.of("move", to="3-4"))
    assert set(vars(s)) == keys
    assert _snapshot(s) == before


def test_legal_actions_follow_an_edited_state() -> None:
    s = new()
    square = f"move to={sq_token((3, 4))}"
    assert square in tokens(s, 1)
    put(s, "dwarf", (3, 4))
    assert square not in tokens(s, 1)


def test_copies_and_successors_share_the_parsed_quest() -> None:
    s = new()
    after = GAME.apply(s, 1, Action.of("end_turn")).state
    assert GAME.copy_state(s).quest_obj is s.quest_obj
    assert after.quest_obj is s.quest_obj and after.quest is s.quest
    loaded = GAME.from_json(GAME.to_json(after))
    assert loaded.quest_obj == s.quest_obj and loaded.dark == s.dark
