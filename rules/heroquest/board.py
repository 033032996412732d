"""The fixed HeroQuest board: 19x26 squares, printed walls, 22 rooms and the corridor network."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypedDict

from rules.readonly import freeze, loader

#: A square as (row, col), 0-based: rows 0..18 top to bottom, cols 0..25 left to right.
Square = tuple[int, int]
#: An edge between two orthogonally adjacent squares (doors sit on edges); build with `edge(a, b)`.
Edge = frozenset[Square]

ROWS, COLS = 19, 26
#: Room ids are 1..22 in reading order of each room's top-left square; 0 in the data means corridor.
ROOM_COUNT = 22
CENTRAL_ROOM = 11
BOARD_FILE = Path(__file__).resolve().parents[2] / "data" / "heroquest" / "board.json"

# Wall mask bit order in board.json: top, right, bottom, left (1 = wall).
_DIRS: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


class BoardJson(TypedDict):
    """data/heroquest/board.json: per row, its squares' wall masks ("0101"...) and rooms (0: corridor),
    space-separated."""

    rows: int
    cols: int
    walls: list[str]
    rooms: list[str]
    central_room: int


class _Board:
    """Validated board facts, built once from data/heroquest/board.json."""

    def __init__(self, data: BoardJson) -> None:
        if data.get("rows") != ROWS or data.get("cols") != COLS:
            raise ValueError(f"{BOARD_FILE}: the board must be {ROWS}x{COLS}")
        walls_rows = data["walls"]
        room_rows = data["rooms"]
        if len(walls_rows) != ROWS or len(room_rows) != ROWS:
            raise ValueError(f"{BOARD_FILE}: expected {ROWS} rows of walls and rooms")
        self.masks: dict[Square, tuple[bool, bool, bool, bool]] = {}
        self.room: dict[Square, int] = {}
        for r in range(ROWS):
            masks = walls_rows[r].split()
            ids = room_rows[r].split()
            if len(masks) != COLS or len(ids) != COLS:
                raise ValueError(f"{BOARD_FILE}: row {r} must have {COLS} squares")
            for c in range(COLS):
                mask = masks[c]
                if len(mask) != 4 or set(mask) - {"0", "1"}:
                    raise ValueError(f"{BOARD_FILE}: bad wall mask {mask!r} at {r}:{c}")
                self.masks[(r, c)] = (mask[0] == "1", mask[1] == "1", mask[2] == "1", mask[3] == "1")
                room_id = int(ids[c])
                if room_id:
                    self.room[(r, c)] = room_id
        if data.get("central_room") != CENTRAL_ROOM:
            raise ValueError(f"{BOARD_FILE}: central room must be {CENTRAL_ROOM}")
        self.rooms: dict[int, frozenset[Square]] = {}
        for sq, room_id in self.room.items():
            self.rooms.setdefault(room_id, frozenset())
            self.rooms[room_id] = self.rooms[room_id] | {sq}
        if sorted(self.rooms) != list(range(1, ROOM_COUNT + 1)):
            raise ValueError(f"{BOARD_FILE}: rooms must be numbered 1..{ROOM_COUNT}")
        self._check()
        #: (square, neighbour) pairs, both ways, with a printed wall between them (the board's edge included).
        self.walls: frozenset[tuple[Square, Square]] = frozenset(
            (sq, (sq[0] + dr, sq[1] + dc)) for sq, mask in self.masks.items()
            for i, (dr, dc) in enumerate(_DIRS) if mask[i])
        self.around: dict[Square, list[Square]] = {
            (r, c): [(r + dr, c + dc) for dr, dc in _DIRS if in_board((r + dr, c + dc))] for (r, c) in self.masks}
        # shared by every game in the process: read-only from here on
        self.masks, self.room, self.rooms, self.around = (
            freeze(self.masks), freeze(self.room), freeze(self.rooms), freeze(self.around))

    def _check(self) -> None:
        """Walls must agree from both sides, and a room's squares are never walled from each other."""
        for (r, c), mask in self.masks.items():
            for i, (dr, dc) in enumerate(_DIRS):
                other = (r + dr, c + dc)
                if other not in self.masks:
                    if not mask[i]:
                        raise ValueError(f"{BOARD_FILE}: square {r}:{c} is open towards the board edge")
                    continue
                if self.masks[other][(i + 2) % 4] != mask[i]:
                    raise ValueError(f"{BOARD_FILE}: wall between {r}:{c} and {other} is one-sided")
                same_area = self.room.get((r, c)) == self.room.get(other)
                if same_area and self.room.get((r, c)) is not None and mask[i]:
                    raise ValueError(f"{BOARD_FILE}: a wall inside room {self.room[(r, c)]}")
                if not same_area and not mask[i]:
                    raise ValueError(f"{BOARD_FILE}: {r}:{c} and {other} are different areas without a wall")


@loader()
def _board() -> _Board:
    return _Board(json.loads(BOARD_FILE.read_text(encoding="utf-8")))


def in_board(sq: Square) -> bool:
    return 0 <= sq[0] < ROWS and 0 <= sq[1] < COLS


def all_squares() -> list[Square]:
    """Every square in reading order."""
    return [(r, c) for r in range(ROWS) for c in range(COLS)]


def edge(a: Square, b: Square) -> Edge:
    """The edge between two orthogonal neighbours (order does not matter)."""
    if not adjacent(a, b):
        raise ValueError(f"{a} and {b} are not orthogonal neighbours")
    return frozenset((a, b))


def adjacent(a: Square, b: Square) -> bool:
    """True for orthogonal neighbours (walls ignored)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def wall_between(a: Square, b: Square) -> bool:
    """True when a printed wall (or the board edge) separates orthogonal neighbours `a` and `b`.

    Raises ValueError when `a` is off the board or the squares are not orthogonal neighbours.
    """
    if (a, b) in _board().walls:
        return True
    if not in_board(a):
        raise ValueError(f"{a} is off the board")
    if not adjacent(a, b):
        raise ValueError(f"{a} and {b} are not orthogonal neighbours")
    return False


def walls() -> frozenset[tuple[Square, Square]]:
    """Every (square, neighbour) pair, both ways, that a printed wall or the board's edge separates: the fast
    form of `wall_between` for loops that only ever ask about orthogonal neighbours of board squares."""
    return _board().walls


def wall_mask(sq: Square) -> tuple[bool, bool, bool, bool]:
    """The printed walls around `sq`: (top, right, bottom, left)."""
    return _board().masks[sq]


def door_slot(a: Square, b: Square) -> bool:
    """Whether a door (or secret door) may stand between `a` and `b`: a printed wall inside the board."""
    return in_board(a) and in_board(b) and adjacent(a, b) and wall_between(a, b)


def room_of(sq: Square) -> int | None:
    """Room id (1..22, `CENTRAL_ROOM` is the central room) of a room square; None for corridors."""
    return _board().room.get(sq)


def rooms_by_square() -> Mapping[Square, int]:
    """Every room square and its room id (corridors are absent): `room_of` for hot loops."""
    return _board().room


def room_squares(room: int) -> frozenset[Square]:
    """All squares of a room; KeyError for an unknown id."""
    return _board().rooms[room]


def room_ids() -> list[int]:
    return sorted(_board().rooms)


def is_corridor(sq: Square) -> bool:
    return in_board(sq) and sq not in _board().room


def area_of(sq: Square) -> int:
    """Room id, or 0 for the corridor network (handy as a dict key)."""
    return _board().room.get(sq, 0)


def neighbours(sq: Square) -> list[Square]:
    """Orthogonal in-board neighbours not separated by a printed wall (doors are the caller's business)."""
    r, c = sq
    mask = _board().masks[sq]
    return [(r + dr, c + dc) for i, (dr, dc) in enumerate(_DIRS) if not mask[i]]


def orthogonal(sq: Square) -> list[Square]:
    """Orthogonal in-board neighbours, walls ignored."""
    around = _board().around.get(sq)
    if around is not None:
        return list(around)
    r, c = sq
    return [(r + dr, c + dc) for dr, dc in _DIRS if in_board((r + dr, c + dc))]


def wall_edges() -> frozenset[Edge]:
    """Every printed wall edge between two in-board squares (door slots)."""
    return _wall_edges()


@loader()
def _wall_edges() -> frozenset[Edge]:
    out: set[Edge] = set()
    for sq in all_squares():
        for other in orthogonal(sq):
            if wall_between(sq, other):
                out.add(frozenset((sq, other)))
    return frozenset(out)


def passable(a: Square, b: Square, open_edges: Iterable[Edge] | frozenset[Edge] = frozenset()) -> bool:
    """Whether a figure may step from `a` to orthogonal neighbour `b`: no wall, or an open door there."""
    if not in_board(b) or not adjacent(a, b):
        return False
    if (a, b) not in _board().walls:
        if not in_board(a):
            raise ValueError(f"{a} is off the board")
        return True
    open_set = open_edges if isinstance(open_edges, (set, frozenset)) else frozenset(open_edges)
    return frozenset((a, b)) in open_set
