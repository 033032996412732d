"""Questions on someone else's turn: asked privately, with a deadline whose default the table plays."""

from __future__ import annotations

from rules.base import Action
from rules.guerra_de_indagar import BOOST_SECONDS, GAME
from rules.guerra_de_indagar.state import State

from .helpers import clear_board, lab, my_turn, put, started


def defence_window() -> State:
    """Seat 0's Ariane has attacked seat 1's Zhuan and rolled; seat 1, holding a spirit, may boost its defence."""
    s = clear_board(started(2))
    s["players"][1]["spirits"] = 1
    put(s, "ariane", "-1,0")
    put(s, "zhuan", "-1,1")
    s = my_turn(s, 0, "ariane")
    s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    while s["pending"] and s["pending"][0]["kind"] == "a_boost":
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
    return s


def test_a_defence_window_is_private_timed_and_defaults_to_done() -> None:
    s = defence_window()
    assert s["pending"][0]["kind"] == "d_boost" and GAME.to_act(s) == frozenset({1})
    [decision] = GAME.decisions(s)
    assert (decision.seat, decision.private, decision.seconds) == (1, True, BOOST_SECONDS)
    assert decision.default == Action.of("done") == GAME.timeout_action(s, 1)


def test_a_question_on_ones_own_turn_has_no_deadline_of_its_own() -> None:
    s = clear_board(started(2))
    s["pending"] = [{"kind": "level_up", "seat": 0, "hero": "ariane"}]
    [decision] = GAME.decisions(s)
    assert not decision.private and decision.seconds is None
