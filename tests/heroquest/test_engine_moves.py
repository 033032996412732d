"""Movement and blocking, doors that reveal what lies beyond, line of sight, running, no split turns."""

from __future__ import annotations

import pytest

import i18n
from rules import coords
from rules.base import IllegalAction
from rules.heroquest import GAME, board
from rules.heroquest.state import as_square, parse_sq
from tests.heroquest.hq_helpers import act, board_view, dice, door, fresh, hero, kinds, monster, new, put, step, tokens

ROOM_DOOR = door("door_1", (2, 4), (2, 5))
TOP_DOOR = door("door_2", (1, 3), (0, 3))


def test_start_reveals_only_the_starting_room() -> None:
    s = new([ROOM_DOOR, monster("orc_1", "orc", (2, 6))])
    assert s.is_revealed((1, 1)) and s.is_revealed((3, 4))
    assert not s.is_revealed((2, 5)) and not s.is_revealed((0, 3))
    assert not s.monsters["hidden-orc_1"]["revealed"]
    assert board_view(s, 1)["monsters"] == [] and board_view(s, 0)["monsters"][0]["hidden"]


def test_moves_stay_within_movement_and_walls() -> None:
    s = new([ROOM_DOOR])
    legal = tokens(s, 1)
    assert "move to=E4" in legal and "move to=F3" not in legal
    with pytest.raises(IllegalAction):
        act(s, 1, "move", to="F3")  # behind a closed door
    with pytest.raises(IllegalAction):
        act(s, 1, "move", to="C2")  # occupied by the dwarf


def test_opening_a_door_reveals_the_room_and_its_monsters() -> None:
    s = new([ROOM_DOOR, monster("orc_1", "orc", (2, 7))])
    s = act(s, 1, "move", to="E3")
    assert "open_door door=door_1" in tokens(s, 1)
    result = step(s, 1, "open_door", door="door_1")
    s = result.state
    assert not result.undoable
    assert s.is_revealed((1, 8)) and s.monsters["orc_1"]["revealed"]
    public = [e.msg.key for e in result.events if e.to is None]
    assert "hq.ev.monster_appears" in public
    assert any(e.to == frozenset({0}) for e in result.events)
    assert board_view(s, 1)["monsters"][0]["uid"] == "orc_1"
    # moving on after opening the door (free), but not past the orc
    assert hero(s, "barbarian")["sq"] == [2, 4] and s.d["turn"]["moves"] == 3


def test_monsters_block_heroes_let_heroes_pass() -> None:
    s = new([ROOM_DOOR, monster("orc_1", "orc", (2, 5))])
    put(s, "barbarian", (2, 3))
    put(s, "dwarf", (2, 2))
    s = fresh(s)
    s = act(s, 1, "end_turn")
    s = act(s, 1, "move", to="E3")  # the dwarf passes nowhere yet, just next to the door
    s = act(s, 1, "open_door", door="door_1")
    assert "move to=G3" not in tokens(s, 1)  # the orc stands in the doorway
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    # the barbarian walks through the dwarf's square to the far corner
    put(s, "barbarian", (2, 1))
    put(s, "dwarf", (2, 2))
    s = fresh(s)
    assert "move to=D3" in tokens(s, 1)


def test_line_of_sight_along_a_corridor_and_hidden_behind_doors() -> None:
    s = new([TOP_DOOR, monster("goblin_1", "goblin", (0, 10)), monster("goblin_2", "goblin", (2, 6)),
             ROOM_DOOR])
    s = act(s, 1, "move", to="D2")
    s = act(s, 1, "open_door", door="door_2")
    assert s.is_revealed((0, 3)) and s.is_revealed((0, 9)) and s.is_revealed((0, 10))
    assert not s.is_revealed((0, 11))  # the goblin hides what lies behind it
    assert s.monsters["goblin_1"]["revealed"] and not s.monsters["hidden-goblin_2"]["revealed"]
    assert "goblin_2" not in str(GAME.view(s, 1)) and "hidden-goblin_2" in GAME.secret_tokens(s)


def test_move_then_act_then_no_more_moves() -> None:
    s = new([ROOM_DOOR, monster("orc_1", "orc", (2, 6))])
    s = act(s, 1, "move", to="E3")
    s = act(s, 1, "open_door", door="door_1")
    s = act(s, 1, "move", to="E2")
    with dice("wshield", "wshield", "wshield"):
        s = act(s, 1, "search_traps") if "search_traps" in kinds(s, 1) else act(s, 1, "end_turn")
    assert "move" not in kinds(s, 1) or s.d["turn"]["who"] != "hero" or hero(s, "barbarian")["sq"] is None


def test_act_first_then_move_is_allowed_and_run_adds_five() -> None:
    s = new([ROOM_DOOR])
    s = act(s, 1, "search_traps")
    assert "move" in kinds(s, 1)
    s = act(s, 1, "end_turn")
    assert "run" in kinds(s, 1)
    s = act(s, 1, "run")
    assert s.d["turn"]["moves"] == 6 + 5 and s.d["turn"]["acted"]
    s = act(s, 1, "move", to="E4")
    with pytest.raises(IllegalAction):
        act(s, 1, "run")


def test_classic_movement_rolls_two_dice() -> None:
    s = new([ROOM_DOOR], options={"movement": "2d6"})
    assert 2 <= s.d["turn"]["moves"] <= 12


def test_shock_halves_movement() -> None:
    s = new([ROOM_DOOR])
    s = act(s, 1, "end_turn")
    s = act(s, 1, "end_turn")
    hero(s, "barbarian")["mind"] = 0
    s = fresh(s)
    s = act(s, 0, "end_turn")
    assert s.d["turn"]["moves"] == 4  # 7 halved, rounded up
    assert "search_traps" not in kinds(s, 1) and "run" not in kinds(s, 1)


def test_squares_are_named_as_the_board_edges_print_them() -> None:
    s = new([ROOM_DOOR])
    moves = {la.action.get("to"): la for la in GAME.legal_actions(s, 1) if la.action.kind == "move"}
    assert "E4" in moves and all(coords.parse(to, board.COLS, board.ROWS) for to in moves)
    assert i18n.t(moves["E4"].label, "en") == "Barbarian: move to E4"
    # what people type (any form rules.coords reads) and what stored games logged ("3-4", 0-based) both move
    for typed in ("E4", "e4", "E-4", "3-4"):
        assert as_square(hero(act(s, 1, "move", to=typed), "barbarian")["sq"]) == (3, 4), typed
    for bad in ("4,5", "E20", "AA1", "19-0", ""):
        assert parse_sq(bad) is None, bad
