"""The map: path lanes built from tiles, off-field squares, towers, distances and square labels."""

from __future__ import annotations

from collections.abc import Sequence

from rules.coords import name as square_name
from rules.coords import parse as parse_square
from rules.kings_armory import maps
from rules.kings_armory.shapes import MapFile, MapSpec, RouteStep
from rules.readonly import BoundedCache, freeze, loader

Sq = tuple[int, int]
STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def range_distance(a: Sq, b: Sq) -> int:
    """Range distance: 1 for the 8 neighbours, otherwise counted orthogonally (A-09)."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return 1 if dr <= 1 and dc <= 1 and dr + dc else dr + dc


def _lane_coord(heading: str, side: str) -> int:
    """The tile-local column (N/S) or row (E/W) of a lane: heading north, left is column 1 (P-02)."""
    left = {"N": 1, "S": 2, "E": 1, "W": 2}[heading]
    return left if side == "L" else 3 - left


def _tile_lane(entry: str, exit_: str, side: str) -> list[Sq]:
    """Tile-local squares of one lane, entering through edge `entry` and leaving through `exit_`."""
    heading_in, heading_out = OPPOSITE[entry], exit_
    k = _lane_coord(heading_in, side)
    r, c = {"N": (3, k), "S": (0, k), "E": (k, 0), "W": (k, 3)}[heading_in]
    target = _lane_coord(heading_out, side)
    squares = [(r, c)]
    dr, dc = STEP[heading_in]
    # straight on until the lane of the exit direction, then turn toward the exit edge
    while (heading_out in "NS" and c != target) or (heading_out in "EW" and r != target):
        if heading_out == heading_in:
            break
        r, c = r + dr, c + dc
        squares.append((r, c))
    dr, dc = STEP[heading_out]
    while 0 <= r + dr <= 3 and 0 <= c + dc <= 3:
        r, c = r + dr, c + dc
        squares.append((r, c))
    return squares


def _route_lane(route: Sequence[RouteStep], side: str, size: int) -> list[Sq]:
    """One lane of a route, from its entrance square to its exit square."""
    lane: list[Sq] = []
    for tr, tc, entry, exit_ in route:
        lane += [(tr * size + r, tc * size + c) for r, c in _tile_lane(entry, exit_, side)]
    first_in, last_out = OPPOSITE[route[0][2]], route[-1][3]
    start = (lane[0][0] - STEP[first_in][0], lane[0][1] - STEP[first_in][1])
    end = (lane[-1][0] + STEP[last_out][0], lane[-1][1] + STEP[last_out][1])
    return [start, *lane, end]


class Board:
    """One map's geometry; built once per map id and shared (never mutated)."""

    def __init__(self, spec: MapSpec) -> None:
        self.id: str = spec["id"]
        size = spec["tile_size"]
        self.tile_size: int = size
        self.height, self.width = spec["tiles_h"] * size, spec["tiles_w"] * size
        self.split: bool = spec["split"]
        self.short: bool = spec["length"] == "short"
        self.lanes: dict[str, list[Sq]] = {}
        routes = {"": spec["route"], **({"Y": yellow} if (yellow := spec.get("yellow")) else {})}
        for colour, route in routes.items():
            for side in ("L", "R"):
                self.lanes[colour + side] = _route_lane(route, side, size)
        self.path: frozenset[Sq] = frozenset(sq for lane in self.lanes.values() for sq in lane[1:-1])
        self.entrance = {side: self.lanes[side][0] for side in ("L", "R")}
        self.exits = {side: self.lanes[side][-1] for side in ("L", "R")}
        dr, dc = STEP[spec["route"][-1][3]]
        self.gate: tuple[Sq, ...] = tuple((sq[0] + dr, sq[1] + dc) for sq in self.exits.values())
        # parapets flank the pair of exit squares on the outside (perpendicular to the way out)
        (ar, ac), (br, bc) = self.exits["L"], self.exits["R"]
        pr, pc = (0, 1) if dr else (1, 0)
        lo, hi = sorted([(ar, ac), (br, bc)])
        self.parapets: dict[str, Sq] = {"PW": (lo[0] - pr, lo[1] - pc), "PE": (hi[0] + pr, hi[1] + pc)}
        self.labels: dict[Sq, str] = {self.entrance["L"]: "IN-L", self.entrance["R"]: "IN-R",
                                      self.exits["L"]: "OUT-L", self.exits["R"]: "OUT-R",
                                      self.parapets["PW"]: "PW", self.parapets["PE"]: "PE"}
        self.by_label = {v: k for k, v in self.labels.items()}
        for r in range(-3, self.height + 3):
            for c in range(0, self.width + 3):
                if (r, c) not in self.labels and r >= 0:
                    self.labels[(r, c)] = square_name(r, c)
        # shared by every game on this map: read-only from here on
        self.lanes, self.entrance, self.exits = freeze(self.lanes), freeze(self.entrance), freeze(self.exits)
        self.parapets, self.labels, self.by_label = freeze(self.parapets), freeze(self.labels), freeze(self.by_label)

    def lane_of(self, side: str, arrow: str) -> str:
        """The lane a monster walks: its side, along yellow arrows if it follows them and the map has any."""
        return "Y" + side if arrow == "y" and "Y" + side in self.lanes else side

    def on_field(self, sq: Sq) -> bool:
        return 0 <= sq[0] < self.height and 0 <= sq[1] < self.width

    def label(self, sq: Sq) -> str:
        return self.labels.get(sq) or square_name(*sq)  # squares far off the map are labelled on demand

    def parse(self, text: str) -> Sq | None:
        if text.upper() in self.by_label:
            return self.by_label[text.upper()]
        return parse_square(text, self.width, self.height)

    def open_ground(self, sq: Sq) -> bool:
        return self.on_field(sq) and sq not in self.path

    def route_left(self, lane: str, index: int) -> int:
        """Squares still to walk along a lane to reach its exit square."""
        return len(self.lanes[lane]) - 1 - index

    def gate_range(self, sq: Sq) -> int:
        return min(range_distance(sq, g) for g in self.gate)

    def path_distance(self, sq: Sq) -> int:
        return min(range_distance(sq, p) for p in self.path)


@loader(maxsize=64)
def _named_board(map_id: str) -> Board:
    return Board(maps.spec(map_id))


#: Boards of uploaded maps by id (the id names the file's content, so an entry never goes stale).
_UPLOADED: BoundedCache[str, Board] = BoundedCache(64)


def board(map_id: str, spec: MapFile | None = None) -> Board:
    """The board of a preset, of a custom map file, or (with `spec`, the map a game carries in its state) of an
    uploaded map; checked on first use (BadOptions lists what is wrong)."""
    if spec is None:
        return _named_board(map_id)
    found = _UPLOADED.find(map_id)
    return found if found is not None else _UPLOADED.put(map_id, Board(maps.checked(dict(spec), map_id)))


def footprint(corner: Sq) -> list[Sq]:
    r, c = corner
    return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]


def around(squares: list[Sq]) -> list[Sq]:
    """The squares orthogonally adjacent to a group of squares, outside it (8 for a tower)."""
    inside = set(squares)
    out: list[Sq] = []
    for r, c in squares:
        for dr, dc in STEP.values():
            sq = (r + dr, c + dc)
            if sq not in inside and sq not in out:
                out.append(sq)
    return out
