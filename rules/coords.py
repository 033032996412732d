"""Board coordinates as players read and type them: "H11" for a square, "C4" for a hex.

One system per board, printed on the board image and used by every command, message,
autocomplete label and error. Engines keep 0-based numbers; only this module turns them into text.

Square boards: columns are letters, left to right, spreadsheet style (A..Z, then AA, AB, ...; a
30-wide board ends at AD); rows are numbers from 1, top to bottom. `name(row, col)` takes the
engine's 0-based `(row, col)`; `parse(text, width, height)` accepts "H11", "h11", "H-11", "H 11",
"h,11" (any case, one optional separator among space, "-", ",", ".", ":", "/") and returns
`(row, col)` or None, never raising.

Hex maps (pointy-top hexagons, axial `(q, r)`, north is negative r): the same letter-then-number
form, read off the picture. Hexes with the same `r` form a horizontal row; rows are numbered from 1
at the top of the map. Within the map every hex centre sits at the "doubled" column
`x = 2q + r` (its screen x in half-hex steps); the column letter is `(x - x_min) // 2`, so letters
run left to right and a letter's hexes zigzag down the map by half a hex from row to row (the
usual offset layout of hex wargames). Labels are relative to the map's own hexes (`HexCodec`):
the top row is row 1 and the leftmost hex is in column A, so a 13-wide map labels "A1".."M9".
Two hexes never share a label, because hexes in one row differ in x by a multiple of 2.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Square = tuple[int, int]  # (row, col), 0-based
Hex = tuple[int, int]  # axial (q, r)

# ASCII only: str.upper() would turn "ß" into "SS" and "ı" into "I"
_TEXT = re.compile(r"([A-Z]{1,3})[ \t]*[-,.:/]?[ \t]*([0-9]{1,4})", re.ASCII | re.IGNORECASE)


def column_name(col: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA", 29 -> "AD"."""
    if col < 0:
        raise ValueError(f"column {col} is negative")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """The inverse of `column_name` for upper-case ASCII letters: "AD" -> 29."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def name(row: int, col: int) -> str:
    """The label of the 0-based square `(row, col)`: `name(10, 7)` is "H11"."""
    if row < 0:
        raise ValueError(f"row {row} is negative")
    return f"{column_name(col)}{row + 1}"


def _split(text: object) -> tuple[int, int] | None:
    """`(column index, row number from 1)` of a label, or None if it is not one."""
    if not isinstance(text, str):
        return None
    m = _TEXT.fullmatch(text.strip())
    if m is None:
        return None
    return column_index(m.group(1).upper()), int(m.group(2))


def parse(text: str, width: int, height: int) -> Square | None:
    """`(row, col)` of a label such as "H11" on a `width`×`height` board, or None when the text is
    not a label or names a square off the board."""
    split = _split(text)
    if split is None:
        return None
    col, row = split[0], split[1] - 1
    if not (0 <= col < width and 0 <= row < height):
        return None
    return row, col


def corners(width: int, height: int) -> tuple[str, str]:
    """The first and last labels of a board, for messages such as "squares go from A1 to P16"."""
    return name(0, 0), name(height - 1, width - 1)


class HexCodec:
    """Labels for the hexes of one map (see the module docstring for the scheme)."""

    __slots__ = ("_r0", "_x0", "height", "hexes", "width")

    def __init__(self, hexes: Iterable[Hex]) -> None:
        self.hexes: frozenset[Hex] = frozenset((int(q), int(r)) for q, r in hexes)
        if not self.hexes:
            raise ValueError("a hex map needs at least one hex")
        self._x0 = min(2 * q + r for q, r in self.hexes)
        self._r0 = min(r for _, r in self.hexes)
        self.width = max((2 * q + r - self._x0) // 2 for q, r in self.hexes) + 1
        self.height = max(r for _, r in self.hexes) - self._r0 + 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexCodec) and other.hexes == self.hexes

    def __hash__(self) -> int:
        return hash(self.hexes)

    def __repr__(self) -> str:
        return f"HexCodec({len(self.hexes)} hexes, {self.width}x{self.height})"

    def offset(self, q: int, r: int) -> tuple[int, int]:
        """`(col, row)`, 0-based, of an axial hex in this map's label grid (hex need not be on the map)."""
        return (2 * q + r - self._x0) // 2, r - self._r0

    def name(self, q: int, r: int) -> str:
        """The label of a hex of this map, e.g. "C4"; ValueError for a hex not on it."""
        if (q, r) not in self.hexes:
            raise ValueError(f"hex {(q, r)} is not on this map")
        col, row = self.offset(q, r)
        return f"{column_name(col)}{row + 1}"

    def parse(self, text: str) -> Hex | None:
        """The axial `(q, r)` of a label, or None when the text is not a label of a hex on this map."""
        split = _split(text)
        if split is None:
            return None
        col, row = split[0], split[1] - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            return None
        r = row + self._r0
        x = self._x0 + 2 * col + (r - self._x0) % 2
        q = (x - r) // 2
        return (q, r) if (q, r) in self.hexes else None

    def corners(self) -> tuple[str, str]:
        """The labels of the top-left and bottom-right hexes (reading order), for messages."""
        order = sorted(self.hexes, key=lambda h: (h[1], 2 * h[0] + h[1]))
        return self.name(*order[0]), self.name(*order[-1])
