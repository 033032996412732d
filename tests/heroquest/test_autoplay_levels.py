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


def _open_board(s):
    """Every square revealed, with the monsters on them (the tests below need room to walk)."""
    from rules.heroquest import board
    from rules.heroquest.sight import reveal_squares
    from rules.heroquest.state import Ctx

    reveal_squares(Ctx(s), set(board.all_squares()))
    return s


def test_hard_monsters_leave_the_slow_monster_the_one_square_it_can_strike_the_focus_from() -> None:
    # the barbarian stands where the top corridor meets the two-square-wide one, a rock below him: the zombie
    # (5 steps) can only reach the square to his right; the goblin (10 steps, first in order) can reach both
    # squares beside him, and the one to his right is the first in board order
    s = new([monster("m_1", "goblin", (5, 12)), monster("m_2", "zombie", (0, 17)),
             {"uid": "rock_1", "kind": "blocked", "ref": "blocked", "squares": [[2, 13]]}])
    _open_board(s)
    put(s, "barbarian", (1, 13))
    put(s, "dwarf", None)
    s = act(fresh(s), 1, "end_turn")
    full = hero(s, "barbarian")["body"]
    with dice(*["wskull"] * 40):
        s = act(s, 0, "gm_autoplay", level="hard")
    assert full - hero(s, "barbarian")["body"] == 4  # two blows of two skulls each
    assert s.monsters["zombie_1"]["sq"] == [0, 13] and s.monsters["goblin_1"]["sq"] == [1, 12]


def test_a_hard_monster_that_struck_steps_aside_so_the_one_behind_it_strikes_too() -> None:
    # the corridor along the top edge, one square wide: the barbarian, an orc beside him, a second orc behind the
    # first; at the normal level only the first strikes, at the hard level it strikes, makes room, and the second
    # walks up and strikes
    for level, blows in (("normal", 1), ("hard", 2)):
        s = new([monster("m_1", "orc", (0, 6)), monster("m_2", "orc", (0, 7))])
        _open_board(s)
        put(s, "barbarian", (0, 5))
        put(s, "dwarf", None)
        s = act(fresh(s), 1, "end_turn")
        full = hero(s, "barbarian")["body"]
        with dice(*["wskull"] * 3 + ["bshield"] * 2 + ["wskull"] * 3 + ["bshield"] * 20):
            s = act(s, 0, "gm_autoplay", **({} if level == "normal" else {"level": level}))
        assert full - hero(s, "barbarian")["body"] == 3 * blows, level
        beside = [m for m in s.monsters.values() if abs(m["sq"][1] - 5) == 1 and m["sq"][0] == 0]
        assert len(beside) == 1, level
