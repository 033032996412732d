"""The island's geometry: squares as indexes, terrain, zones, Chebyshev range and exact line of sight."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules import coords
from rules.gorgasali.state import MapData
from rules.readonly import BoundedCache, SameObjectCache

ORTHO = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
DIAG = {"NE": (-1, 1), "SE": (1, 1), "SW": (1, -1), "NW": (-1, -1)}
DIRS = {**ORTHO, **DIAG}


@dataclass(frozen=True)
class Board:
    """A map's static facts; squares are `row * w + col`."""

    w: int
    h: int
    terrain: str
    zone: tuple[int, ...]
    sectors: tuple[tuple[int, int], ...]
    tree: tuple[int, ...]

    def row_col(self, sq: int) -> tuple[int, int]:
        return divmod(sq, self.w)

    def name(self, sq: int) -> str:
        return coords.name(*divmod(sq, self.w))

    def parse(self, text: object) -> int | None:
        if not isinstance(text, str):
            return None
        found = coords.parse(text, self.w, self.h)
        return None if found is None else found[0] * self.w + found[1]

    def step(self, sq: int, d: str) -> int | None:
        """The square one step from `sq` in direction `d`, or None off the board."""
        dr, dc = DIRS[d]
        r, c = divmod(sq, self.w)
        r, c = r + dr, c + dc
        if 0 <= r < self.h and 0 <= c < self.w:
            return r * self.w + c
        return None

    def dist(self, a: int, b: int) -> int:
        ar, ac = divmod(a, self.w)
        br, bc = divmod(b, self.w)
        return max(abs(ar - br), abs(ac - bc))

    def around(self, sq: int, reach: int = 1) -> list[int]:
        """Squares at range 1..reach of `sq`, in reading order."""
        r, c = divmod(sq, self.w)
        return [rr * self.w + cc for rr in range(max(0, r - reach), min(self.h, r + reach + 1))
                for cc in range(max(0, c - reach), min(self.w, c + reach + 1)) if (rr, cc) != (r, c)]

    def is_tree(self, sq: int) -> bool:
        return self.terrain[sq] == "T"

    def is_heal(self, sq: int) -> bool:
        return self.terrain[sq] == "H"

    def clear_view(self, a: int, b: int, blockers: Iterable[int]) -> bool:
        """Whether the segment between the centres of `a` and `b` misses the open interior of every blocker."""
        ar, ac = divmod(a, self.w)
        br, bc = divmod(b, self.w)
        lo_r, hi_r, lo_c, hi_c = min(ar, br), max(ar, br), min(ac, bc), max(ac, bc)
        for sq in blockers:
            r, c = divmod(sq, self.w)
            if lo_r <= r <= hi_r and lo_c <= c <= hi_c and sq not in (a, b) and _crosses(ar, ac, br, bc, r, c):
                return False
        return True


def _crosses(ar: int, ac: int, br: int, bc: int, r: int, c: int) -> bool:
    """Segment between square centres crosses the open square (r, c)? Doubled integer coordinates, no floats.

    On the segment P(t) = A + t(B - A), each axis confines t to an open interval (or everything / nothing
    when that axis does not move); the segment meets the open box when the intersection with [0, 1] is
    non-empty. Intervals are kept as fractions n/d with d > 0 by comparing cross products.
    """
    lows: list[tuple[int, int]] = [(0, 1)]
    highs: list[tuple[int, int]] = [(1, 1)]
    strict_low = [False]
    strict_high = [False]
    for a0, b0, lo in ((2 * ar + 1, 2 * br + 1, 2 * r), (2 * ac + 1, 2 * bc + 1, 2 * c)):
        d = b0 - a0
        if d == 0:
            if not lo < a0 < lo + 2:
                return False
            continue
        t1, t2 = (lo - a0, d), (lo + 2 - a0, d)
        if d < 0:
            t1, t2 = (a0 - lo - 2, -d), (a0 - lo, -d)
        lows.append(t1)
        strict_low.append(True)
        highs.append(t2)
        strict_high.append(True)
    # the greatest lower bound and the least upper bound, remembering whether each is strict
    lo_n, lo_d, lo_s = lows[0][0], lows[0][1], strict_low[0]
    for (n, d), s in zip(lows[1:], strict_low[1:], strict=True):
        if n * lo_d > lo_n * d or (n * lo_d == lo_n * d and s):
            lo_n, lo_d, lo_s = n, d, s
    hi_n, hi_d, hi_s = highs[0][0], highs[0][1], strict_high[0]
    for (n, d), s in zip(highs[1:], strict_high[1:], strict=True):
        if n * hi_d < hi_n * d or (n * hi_d == hi_n * d and s):
            hi_n, hi_d, hi_s = n, d, s
    if lo_n * hi_d < hi_n * lo_d:
        return True
    return lo_n * hi_d == hi_n * lo_d and not lo_s and not hi_s


MapKey = tuple[int, int, tuple[str, ...], tuple[str, ...], tuple[tuple[int, int], ...]]


def _board(key: MapKey) -> Board:
    w, h, rows, zones, sectors = key
    terrain = "".join(rows)
    return Board(w, h, terrain, tuple(int(ch) for z in zones for ch in z), sectors,
                 tuple(i for i, ch in enumerate(terrain) if ch == "T"))


#: The Boards of the maps played lately, by the map's value (equal maps share one Board).
_BOARDS: BoundedCache[MapKey, Board] = BoundedCache(16)
#: The Board of each map object seen lately: a state's map is one object shared by every copy of the state, so
#: most lookups find it by identity without reading the map's value.
_SEEN: SameObjectCache[Board] = SameObjectCache(8)


def _by_value(data: MapData) -> Board:
    key: MapKey = (int(data["w"]), int(data["h"]), tuple(data["rows"]), tuple(data["zones"]),
                   tuple((int(a), int(b)) for a, b in data["sectors"]))
    return _BOARDS.get(key, lambda: _board(key))


def board_of(data: MapData) -> Board:
    """The Board of a state's map data."""
    found = _SEEN.find(data)
    return found if found is not None else _SEEN.put(data, _by_value(data))
