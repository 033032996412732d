"""The monsters' autoplay at each AI level (`/game new ai_level:`), and the level carried in the logged move."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.base import Action, IllegalAction
from rules.heroquest import GAME
from rules.heroquest.state import HQState
from tests.heroquest.hq_helpers import act, dice, fresh, hero, monster, new, placed, put


def gm_turn(s: HQState) -> HQState:
    s = act(s, 1, "end_turn")
    return act(s, 1, "end_turn")


def _adjacent(a: Sequence[int], b: Sequence[int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def test_the_table_level_is_written_into_the_autoplay_move() -> None:
    assert GAME.at_ai_level(Action.of("gm_autoplay"), "hard") == Action.of("gm_autoplay", level="hard")
    assert GAME.at_ai_level(Action.of("gm_autoplay"), "normal") == Action.of("gm_autoplay")
    assert GAME.at_ai_level(Action.of("end_turn"), "hard") == Action.of("end_turn")
    s = gm_turn(fresh(new([monster("m_1", "goblin", (3, 4))])))
    assert GAME.is_legal(s, 0, Action.of("gm_autoplay", level="easy"))
    assert not GAME.is_legal(s, 0, Action.of("gm_autoplay", level="brutal"))
    with pytest.raises(IllegalAction) as refused:  # the engine's refusal names the valid levels
        act(s, 0, "gm_autoplay", level="brutal")
    assert refused.value.reason.key == "hq.err.ai_level" and "valid" in refused.value.reason.params


def test_easy_monsters_stay_put_unless_a_hero_is_close() -> None:
    # the goblin is 4 steps from the nearest square beside a hero
    for level, moves in (("easy", False), ("normal", True)):
        s = new([monster("m_1", "goblin", (3, 4))])
        put(s, "barbarian", (1, 1))
        put(s, "dwarf", None)
        s = act(act(fresh(s), 1, "end_turn"), 0, "gm_autoplay", **({} if level == "normal" else {"level": level}))
        assert (s.monsters["goblin_1"]["sq"] != [3, 4]) == moves, level


def test_easy_strikes_the_strongest_hero_and_normal_the_weakest() -> None:
    for level, struck in (("easy", "barbarian"), ("normal", "dwarf")):
        s = new([monster("m_1", "goblin", (2, 2))])
        put(s, "barbarian", (1, 2))
        put(s, "dwarf", (2, 1))
        s = gm_turn(fresh(s))
        full = {h: hero(s, h)["body"] for h in ("barbarian", "dwarf")}
        assert full["barbarian"] > full["dwarf"]
        with dice(*["wskull"] * 20):
            s = act(s, 0, "gm_autoplay", **({} if level == "normal" else {"level": level}))
        hurt = [h for h in full if hero(s, h)["body"] < full[h]]
        assert hurt == [struck], level


def test_hard_monsters_close_on_the_weakest_hero_not_the_nearest() -> None:
    for level, prey in (("normal", "dwarf"), ("hard", "barbarian")):
        s = new([monster("m_1", "goblin", (3, 4))])
        put(s, "barbarian", (1, 1))
        put(s, "dwarf", (1, 4))
        s = gm_turn(fresh(s))
        hero(s, "barbarian")["body"] = 2
        with dice(*["bshield"] * 20):
            s = act(s, 0, "gm_autoplay", **({} if level == "normal" else {"level": level}))
        assert _adjacent(s.monsters["goblin_1"]["sq"], placed(hero(s, prey))), level


def test_hard_monsters_walk_round_to_strike_the_hero_a_blow_most_likely_kills() -> None:
    # the goblin stands beside the unhurt barbarian; the dwarf, down to 1 Body, is two steps away
    for level, struck in (("normal", "barbarian"), ("hard", "dwarf")):
        s = new([monster("m_1", "goblin", (2, 3))])
        put(s, "barbarian", (2, 2))
        put(s, "dwarf", (3, 4))
        s = gm_turn(fresh(s))
        hero(s, "dwarf")["body"] = 1
        full = {h: hero(s, h)["body"] for h in ("barbarian", "dwarf")}
        with dice(*["wskull"] * 3 + ["bshield"] * 20):
            s = act(s, 0, "gm_autoplay", **({} if level == "normal" else {"level": level}))
        hurt = [h for h in full if hero(s, h)["body"] < full[h] or hero(s, h)["dead"]]
        assert hurt == [struck], level


def test_a_hard_monster_that_struck_steps_back_where_fewer_heroes_can_strike_it() -> None:
    from rules.heroquest.autoplay import _answer, _distance_to_heroes, _step_back
    from rules.heroquest.state import Ctx

    # a blocked square makes the top-right corner of the room a dead end only one hero can stand next to
    s = new([monster("m_1", "goblin", (2, 3)), {"uid": "rock_1", "kind": "blocked", "ref": "blocked",
                                                "squares": [[1, 3]]}])
    put(s, "barbarian", (2, 2))
    put(s, "dwarf", (3, 3))
    s = act(fresh(s), 1, "end_turn")
    s = act(s, 1, "end_turn")
    ctx = Ctx(s.clone())
    goblin = ctx.state.monsters["goblin_1"]
    reach = {h["uid"]: _distance_to_heroes(ctx.state, only=h) for h in ctx.state.on_board_heroes()}
    assert _answer(ctx.state, goblin, (2, 3), reach) == 2
    _step_back(ctx, goblin, 10)
    assert goblin["sq"] == [1, 4] and _answer(ctx.state, goblin, (1, 4), reach) == 1
    assert [e.msg.key for e in ctx.events] == ["hq.ev.monster_moves"]


def test_an_easy_monster_that_walks_up_to_a_hero_does_not_strike_in_the_same_turn() -> None:
    for level, strikes in (("easy", False), ("normal", True)):
        s = new([monster("m_1", "goblin", (3, 4))])
        put(s, "barbarian", (1, 3))
        put(s, "dwarf", None)
        s = act(fresh(s), 1, "end_turn")
        full = hero(s, "barbarian")["body"]
        with dice(*["wskull"] * 3 + ["bshield"] * 20):
            s = act(s, 0, "gm_autoplay", **({} if level == "normal" else {"level": level}))
        assert s.monsters["goblin_1"]["sq"] != [3, 4], level
        assert (hero(s, "barbarian")["body"] < full) == strikes, level
