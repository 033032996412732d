"""`why_illegal`: the exact rule an action breaks, in words, instead of "you can't do that now"."""

from __future__ import annotations

import i18n
from rules.base import Action, ArgValue, Scalar
from rules.heroquest import GAME
from rules.heroquest.state import HQState
from tests.heroquest.hq_helpers import act, door, fresh, hero, monster, new, put


def why(s: HQState, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> str | None:
    reason = GAME.why_illegal(s, seat, Action.of(kind, **args))
    return None if reason is None else reason.key


def test_a_legal_action_has_no_reason() -> None:
    assert why(new([]), 1, "move", to="D4") is None


def test_turn_and_movement() -> None:
    s = new([])
    assert why(s, 2, "end_turn") == "hq.err.not_your_turn"
    assert why(s, 0, "end_turn") == "hq.err.not_your_turn"
    assert why(s, 1, "move", to="B100") == "hq.err.off_board"
    assert why(s, 1, "move", to="B2") == "hq.err.already_there"
    assert why(s, 1, "move", to="C2") == "hq.err.occupied"
    assert why(s, 1, "move", to="J10") == "hq.err.unseen_square"
    s = act(s, 1, "move", to="E4")
    s.d["turn"]["moves"] = 0
    s = fresh(s)
    assert why(s, 1, "move", to="D4") == "hq.err.movement_spent"
    s = act(s, 1, "search_traps")
    assert why(s, 1, "move", to="D4") == "hq.err.turn_closed"


def test_too_far_and_walls() -> None:
    s = new([door("door_1", (2, 4), (2, 5))])
    s = act(s, 1, "move", to="E3")
    s = act(s, 1, "open_door", door="door_1")
    s.d["turn"]["moves"] = 1
    s = fresh(s)
    reason = GAME.why_illegal(s, 1, Action.of("move", to="H3"))
    assert reason is not None and reason.key == "hq.err.too_far"
    assert i18n.t(reason, "en") == "Too far: 3 squares away, 1 of movement left."
    assert why(s, 1, "move", to="F4") == "hq.err.too_far"  # round the wall, through the door
    s.d["turn"]["moves"] = 6
    s = fresh(s)
    assert why(s, 1, "move", to="F2") is None
    # a square on the other side of a printed wall, reachable only the long way round
    put(s, "barbarian", (3, 4))
    s = fresh(s)
    assert why(s, 1, "move", to="F4") is None  # 4 steps round through the door
    s.d["turn"]["moves"] = 1
    s = fresh(s)
    assert why(s, 1, "move", to="F4") == "hq.err.too_far"


def test_a_wall_in_the_way() -> None:
    s = new([door("door_1", (2, 4), (2, 5))])
    s = act(s, 0, "gm_reveal", at="G3")  # the room beyond is set up, its door still closed
    s = act(s, 1, "move", to="E3")
    assert why(s, 1, "move", to="F3") == "hq.err.wall_in_way"


def test_doors() -> None:
    s = new([door("door_1", (2, 4), (2, 5))])
    assert why(s, 1, "open_door", door="door_1") == "hq.err.not_at_door"
    assert why(s, 1, "open_door", door="door_99") == "hq.err.no_door"
    s = act(s, 1, "move", to="E3")
    s = act(s, 1, "open_door", door="door_1")
    assert why(s, 1, "open_door", door="door_1") == "hq.err.door_open"


def test_attacks() -> None:
    s = new([monster("o", "orc", (3, 3))])
    assert why(s, 1, "attack", target="orc_1") == "hq.err.not_adjacent"
    assert why(s, 1, "attack", target="goblin_4") == "hq.err.no_target"
    put(s, "barbarian", (2, 2))
    s = fresh(s)
    assert why(s, 1, "attack", target="orc_1") == "hq.err.not_adjacent"  # diagonal, broadsword
    hero(s, "barbarian")["weapon"] = "crossbow"
    put(s, "barbarian", (3, 2))
    s = fresh(s)
    assert why(s, 1, "attack", target="orc_1") == "hq.err.ranged_adjacent"
    put(s, "barbarian", (3, 1))
    put(s, "dwarf", (3, 2))
    s = fresh(s)
    assert why(s, 1, "attack", target="orc_1") == "hq.err.no_line_of_sight"


def test_searches_and_traps() -> None:
    s = new([])
    s.d["deck"] = ["gold_25a", "gold_25b"]
    s = fresh(s)
    s = act(s, 1, "search_treasure")
    s = act(s, 1, "end_turn")
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    assert why(s, 1, "search_treasure") == "hq.err.already_searched"
    s = new([monster("o", "orc", (3, 4))])
    assert why(s, 1, "search_traps") == "hq.err.monsters_in_sight"
    s = new([{"uid": "t", "kind": "trap", "ref": "pit_trap", "squares": [[3, 3]]}])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    assert why(s, 1, "disarm", trap="trap-D4") == "hq.err.stand_on_trap"
    assert why(s, 1, "disarm", trap="trap-J10") == "hq.err.no_found_trap"


def test_the_game_masters_monsters() -> None:
    s = new([monster("o", "orc", (3, 4))])
    s = act(act(s, 1, "end_turn"), 1, "end_turn")
    s = act(s, 0, "gm_move", monster="orc_1", to="D4")
    assert why(s, 0, "gm_move", monster="orc_1", to="C4") == "hq.err.monster_moved"
    assert why(s, 0, "gm_attack", monster="orc_1", target="hero_barbarian") == "hq.err.monster_not_adjacent"
