"""Issue 23, AI sixth pass: hard reaches 10 points in more of its wins. A Helgoth sent to retreat late is back too
late to take what is built (its turns left count from its return), so in its last rounds hard hunts him while
he is near enough his victory to forbid building; and at a table of two it never cages Tijian."""

from __future__ import annotations

import pytest

from rules.base import Action
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.hexes import distance, unkey
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import build_under_helgoth, my_turn
from tests.guerra_de_indagar.test_ai_push import PUSH, _far_helgoth, _gap, _tijian_caged, playing


def test_hard_builds_while_helgoth_sent_to_retreat_this_round_cannot_come_back_in_time() -> None:
    s, seat = build_under_helgoth()
    s["round"] = 9
    paced = int(ai.MONSTER_TURNS * ai.LEVELS["hard"].helgoth_pace)  # what he could take in round 10's turns
    s["monsters"]["helgoth"].update({"at": None, "retreat": 1, "count": ai._need(s, "helgoth") - paced})
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("build")  # back in round 11: never
    s["monsters"]["helgoth"]["retreat"] = 2  # sent away last round: back at the start of round 10
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("build")


def test_hard_hunts_helgoth_in_its_last_rounds_while_he_is_near_enough_his_victory_to_forbid_building(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = _far_helgoth(PUSH)
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - 2  # at hard's pace he could still win on outposts
    assert _gap(s, GAME.ai_action(s, 0, Rng.from_seed(1), level="hard"), "-1,3") == 1  # up to him, to strike
    monkeypatch.setitem(ai.LEVELS, "hard", ai.LEVELS["hard"]._replace(slay=False))
    assert _gap(s, GAME.ai_action(s, 0, Rng.from_seed(1), level="hard"), "3,-5") < distance(unkey("1,1"),
                                                                                             unkey("3,-5"))


def test_hard_cages_tijian_only_at_a_table_of_three_or_more() -> None:
    """Two players: Tijian (9+N tiles) rarely comes near his victory, and three heroes guarding his cage build
    nothing for half the game; hard leaves him free there and cages him at larger tables."""
    s, mid = _tijian_caged()
    with playing("normal"):
        assert ai._cage_target(s, 0) == mid
    with playing("hard"):
        assert ai._cage_target(s, 0) is None
    assert 2 < ai.LEVELS["hard"].cage_players <= 4
