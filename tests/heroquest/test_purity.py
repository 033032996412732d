"""The engine's queries touch nothing in a state still being edited (fresh answers after a hand edit), a sealed
state remembers its legal actions and nothing makes them stale, copies share the quest."""

from __future__ import annotations

import copy

from rules.base import Action
from rules.heroquest import GAME
from rules.heroquest.state import GM, sq_token
from rules.rng import Rng
from tests.heroquest.hq_helpers import act, door, fresh, monster, new, put, tokens


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


def test_a_sealed_state_remembers_its_legal_actions_and_hands_out_copies() -> None:
    s = act(new([monster("orc_1", "orc", (2, 6))]), 1, "end_turn")
    seat = min(GAME.to_act(s))
    s.seal()
    first = GAME.legal_actions(s, seat)
    assert seat in s.legal_memo
    first.clear()  # what a caller does with its list does not reach the remembered one
    assert GAME.legal_actions(s, seat) == GAME.legal_actions(fresh(s), seat) != []
    assert not GAME.apply(s, seat, GAME.legal_actions(s, seat)[0].action).state.sealed  # a successor starts afresh


def test_sealed_states_answer_as_fresh_copies_do_through_a_whole_random_game() -> None:
    """As the table plays: every state it keeps is sealed, asked for its legal actions (the view, the buttons, the
    check of a typed move) and then moved from. If a move ever edited the state it started from, the remembered
    answers would go stale; compared with a fresh copy's at every step, for every seat."""
    s = new([monster("orc_1", "orc", (2, 6)), monster("gob_1", "goblin", (3, 7)), door("door_1", (2, 4), (2, 5))],
            heroes="barbarian,dwarf,elf", seats=4, seed=7)
    rng = Rng.from_seed(11)
    seats, steps = range(s.seats), 0
    for _ in range(250):
        if GAME.outcome(s) is not None:
            break
        s.seal()
        remembered = {seat: GAME.legal_actions(s, seat) for seat in seats}
        assert remembered == {seat: GAME.legal_actions(fresh(s), seat) for seat in seats}
        movers = [seat for seat in sorted(GAME.to_act(s)) if remembered[seat]]
        if not movers:
            break
        seat = rng.choice(movers)
        moves = [la.action for la in remembered[seat] if la.action.kind != "gm_end_quest"]
        if not moves:
            break
        old, s = s, GAME.apply(s, seat, rng.choice(moves)).state
        steps += 1
        assert {seat: GAME.legal_actions(fresh(old), seat) for seat in seats} == remembered  # moved from: untouched
    assert steps >= 60
