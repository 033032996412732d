"""Lines of sight, whole rooms, doors and what opening one reveals."""

from __future__ import annotations

import random

from rules.heroquest import board
from rules.heroquest.board import edge
from rules.heroquest.quest import builtin_quests
from rules.heroquest.visibility import (
    initial_revealed,
    line_of_sight,
    reveal,
    revealed_by_door,
    visible_from,
)


def test_straight_corridor_and_walls() -> None:
    assert line_of_sight((0, 0), (0, 25))  # the whole top corridor
    assert line_of_sight((0, 0), (18, 0))  # the whole left corridor
    assert not line_of_sight((0, 0), (18, 25))  # across the rooms
    assert not line_of_sight((0, 2), (1, 2))  # a wall between corridor and room 1
    assert not line_of_sight((0, 1), (2, 3))


def test_figures_block_but_not_at_the_ends() -> None:
    assert not line_of_sight((0, 0), (0, 25), blockers={(0, 10)})
    assert line_of_sight((0, 0), (0, 25), blockers={(0, 0), (0, 25)})
    assert line_of_sight((0, 0), (0, 25), blockers={(1, 10)})


def test_same_room_always_visible() -> None:
    # room 1 spans rows 1-3, cols 1-4; a figure in between does not hide its room mates
    assert line_of_sight((1, 1), (3, 4), blockers={(2, 2), (2, 3)})


def test_doors() -> None:
    door = edge((0, 2), (1, 2))
    assert not line_of_sight((0, 2), (3, 2))  # closed: it is a wall
    assert line_of_sight((0, 2), (3, 2), open_edges={door})
    assert not line_of_sight((0, 2), (3, 2), closed_edges={door}, open_edges={door})
    # through an open door, from the corridor, one sees in a straight line, not the whole room
    seen = visible_from((0, 2), open_edges={door})
    assert {(1, 2), (2, 2), (3, 2), (3, 3)} <= seen
    assert (1, 4) not in seen  # that line crosses the wall beside the door
    assert (0, 25) in seen


def test_corner_rule() -> None:
    # from the corridor corner (9, 9) (left of the central room's wall) diagonally past room corners
    assert line_of_sight((6, 9), (6, 16))  # along the corridor above the central room
    assert not line_of_sight((6, 9), (12, 16))  # through the central room's walls


def test_symmetry_on_random_pairs() -> None:
    rng = random.Random(7)
    squares = board.all_squares()
    doors = {edge((0, 2), (1, 2)), edge((9, 3), (10, 3))}
    blockers = set(rng.sample(squares, 30))
    for _ in range(2000):
        a, b = rng.choice(squares), rng.choice(squares)
        assert line_of_sight(a, b, blockers=blockers, open_edges=doors) == line_of_sight(
            b, a, blockers=blockers, open_edges=doors
        ), (a, b)


def test_rooms_visible_from_inside() -> None:
    seen = visible_from((2, 2))
    assert board.room_squares(1) <= seen
    assert seen == set(board.room_squares(1))  # all doors closed: nothing else


def test_start_and_doors_reveal() -> None:
    # starting in room 20 (rows 14-17, cols 1-4): only that room
    assert initial_revealed([(14, 1), (15, 2)]) == set(board.room_squares(20))
    # a door from that room to the corridor below reveals the bottom corridor in sight
    door = edge((17, 2), (18, 2))
    shown = revealed_by_door(door)
    assert board.room_squares(20) <= shown and (18, 25) in shown and (18, 0) in shown
    assert (9, 0) not in shown  # around the corner
    # a door between two rooms reveals both
    shown = revealed_by_door(((2, 4), (2, 5)))
    assert board.room_squares(1) | board.room_squares(2) <= shown


def test_reveal_accumulates() -> None:
    start = initial_revealed([(0, 0)])
    assert (0, 25) in start and (18, 0) in start
    more = reveal(start, [(9, 0)])
    assert (9, 9) in more and start <= more


def test_builtin_quest_start_rooms_are_rooms() -> None:
    for quest in builtin_quests().values():
        assert initial_revealed(quest.start)
