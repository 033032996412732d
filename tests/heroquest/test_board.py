"""Board facts: rooms, corridors and walls of the fixed HeroQuest board match the reference data."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from rules.heroquest import board
from tests.reference import HQ_REFERENCE

REF = HQ_REFERENCE


def test_size_and_rooms() -> None:
    assert (board.ROWS, board.COLS) == (19, 26)
    assert board.room_ids() == list(range(1, 23))
    sizes = [len(board.room_squares(r)) for r in board.room_ids()]
    assert sum(sizes) + sum(board.is_corridor(s) for s in board.all_squares()) == 19 * 26
    central = board.room_squares(board.CENTRAL_ROOM)
    assert central == {(r, c) for r in range(7, 12) for c in range(10, 16)}
    assert board.room_of((1, 1)) == 1 and board.room_of((17, 24)) == 22
    assert board.room_of((0, 0)) is None and board.is_corridor((9, 3))


def test_walls_symmetric_and_board_edge_walled() -> None:
    for sq in board.all_squares():
        for other in board.orthogonal(sq):
            assert board.wall_between(sq, other) == board.wall_between(other, sq)
    for r in range(board.ROWS):
        assert board.wall_between((r, 0), (r, -1)) and board.wall_between((r, 25), (r, 26))
    for c in range(board.COLS):
        assert board.wall_between((0, c), (-1, c)) and board.wall_between((18, c), (19, c))


def test_rooms_are_walled_areas() -> None:
    for sq in board.all_squares():
        for n in board.neighbours(sq):
            assert board.area_of(n) == board.area_of(sq)
        for n in board.orthogonal(sq):
            if board.area_of(n) != board.area_of(sq):
                assert board.wall_between(sq, n) and board.door_slot(sq, n)


def test_matches_reference_walls() -> None:
    ref = json.loads((REF / "board-walls.json").read_text())["config"]
    for r, c in board.all_squares():
        mask = "".join("1" if w else "0" for w in board.wall_mask((r, c)))
        assert mask == ref[f"{r}:{c}"]["config"], (r, c)


def test_corridors_match_heroscribe_rectangles() -> None:
    root = ET.parse(REF / "heroscribe" / "Objects.xml").getroot()
    corridor = set()
    for rect in root.iter("corridor"):
        left, top = int(rect.attrib["left"]), int(rect.attrib["top"])
        for dc in range(int(rect.attrib["width"])):
            for dr in range(int(rect.attrib["height"])):
                corridor.add((top - 1 + dr, left - 1 + dc))
    assert corridor == {s for s in board.all_squares() if board.is_corridor(s)}
    assert len(corridor) == 148


def test_neighbours_and_errors() -> None:
    assert sorted(board.neighbours((0, 0))) == [(0, 1), (1, 0)]
    assert sorted(board.neighbours((1, 1))) == [(1, 2), (2, 1)]
    assert not board.passable((0, 2), (1, 2))
    assert board.passable((0, 2), (1, 2), {board.edge((0, 2), (1, 2))})
    with pytest.raises(ValueError):
        board.wall_between((0, 0), (2, 0))
    with pytest.raises(ValueError):
        board.edge((0, 0), (1, 1))
