"""The monsters' autoplay at each AI level (`/game new ai_level:`), and the level carried in the logged move."""

from __future__ import annotations

import pytest

from rules.base import Action, IllegalAction
from rules.heroquest import GAME
from tests.heroquest.hq_helpers import act, dice, fresh, hero, monster, new, put


def gm_turn(s):
    s = act(s, 1, "end_turn")
    return act(s, 1, "end_turn")


def _adjacent(a, b) -> bool:
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
        assert _adjacent(s.monsters["goblin_1"]["sq"], hero(s, prey)["sq"]), level
