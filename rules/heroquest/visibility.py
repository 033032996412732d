"""What heroes can see: straight lines of sight, whole rooms, and what opening a door reveals.

Conventions:
- Every printed wall blocks sight and movement except where a door stands OPEN: pass those door
  edges as `open_edges` (a set of `board.edge(a, b)` values; an opened secret door counts as an open
  door). Closed doors need no special treatment (they stand on walls), but `closed_edges` lets a
  caller close any extra edge (e.g. a portcullis between corridor squares).
- `blockers` are squares whose contents stop a line of sight passing THROUGH them: figures (heroes
  and monsters) and blocked squares / fallen rocks. The two end squares never block.
- Squares of the same room always see each other (rulebook: figures in the same room are always
  visible). Otherwise a straight line from centre to centre must cross no blocking edge and no
  blocker. A line passing exactly through a corner counts as seen when at least one of the two ways
  around that corner is clear.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Never

from rules.heroquest import board
from rules.heroquest.board import Edge, Square

_EMPTY: frozenset[Never] = frozenset()


def line_of_sight(
    a: Square,
    b: Square,
    closed_edges: AbstractSet[Edge] = _EMPTY,
    blockers: AbstractSet[Square] = _EMPTY,
    open_edges: AbstractSet[Edge] = _EMPTY,
) -> bool:
    """Whether `a` sees `b` (see the module docstring for walls, doors and blockers)."""
    if a == b:
        return True
    room = board.room_of(a)
    if room is not None and room == board.room_of(b):
        return True
    return ray(a, b, closed_edges, blockers, open_edges)


def ray(
    a: Square,
    b: Square,
    closed_edges: AbstractSet[Edge],
    blockers: AbstractSet[Square],
    open_edges: AbstractSet[Edge],
) -> bool:
    """The straight line itself from `a` to `b` (a shared room does not count): walls, doors and blockers."""
    # Work in half-square units so centres are odd integers and square borders even ones.
    (r0, c0), (r1, c1) = a, b
    dx, dy = 2 * (c1 - c0), 2 * (r1 - r0)
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    adx, ady = abs(dx), abs(dy)
    # The next border crossing in x happens at t = nx / adx, in y at t = ny / ady (nx, ny odd steps).
    nx, ny = 1, 1
    r, c = r0, c0

    walls = board.walls()

    def clear(p: Square, q: Square) -> bool:
        if (p, q) in walls:
            key = frozenset((p, q))
            if key not in open_edges or key in closed_edges:
                return False
        elif closed_edges and frozenset((p, q)) in closed_edges:
            return False
        return q == b or q not in blockers

    while (r, c) != (r1, c1):
        if ady == 0 or (adx and nx * ady < ny * adx):
            nxt = (r, c + sx)
            if not clear((r, c), nxt):
                return False
            nx += 2
        elif adx == 0 or ny * adx < nx * ady:
            nxt = (r + sy, c)
            if not clear((r, c), nxt):
                return False
            ny += 2
        else:
            # Exactly through a corner: visible if either way round it is open.
            nxt = (r + sy, c + sx)
            via_col, via_row = (r, c + sx), (r + sy, c)
            way1 = clear((r, c), via_col) and via_col != b and clear(via_col, nxt)
            way2 = clear((r, c), via_row) and via_row != b and clear(via_row, nxt)
            if not (way1 or way2):
                return False
            if nxt != b and nxt in blockers:
                return False
            nx += 2
            ny += 2
        r, c = nxt
    return True


def visible_from(
    sq: Square,
    open_edges: AbstractSet[Edge] = _EMPTY,
    blockers: AbstractSet[Square] = _EMPTY,
    closed_edges: AbstractSet[Edge] = _EMPTY,
    candidates: Iterable[Square] | None = None,
) -> set[Square]:
    """Squares seen from `sq`: its whole room (if in one) plus everything in straight line of sight.

    `candidates` limits the squares tested (default: the whole board).
    """
    seen: set[Square] = {sq}
    room = board.room_of(sq)
    if room is not None:
        seen |= board.room_squares(room)
    for target in board.all_squares() if candidates is None else candidates:
        if target not in seen and ray(sq, target, closed_edges, blockers, open_edges):
            seen.add(target)
    return seen


def area_squares(
    sq: Square, open_edges: AbstractSet[Edge] = _EMPTY, blockers: AbstractSet[Square] = _EMPTY
) -> set[Square]:
    """What a hero standing on `sq` reveals of the map: the whole room, or in a corridor what is in sight."""
    room = board.room_of(sq)
    if room is not None:
        return set(board.room_squares(room))
    return visible_from(sq, open_edges, blockers)


def initial_revealed(start: Iterable[Square], open_edges: AbstractSet[Edge] = _EMPTY) -> set[Square]:
    """At the start only the heroes' starting room (or, from a corridor, what they see) is revealed."""
    out: set[Square] = set()
    for sq in start:
        out |= area_squares(sq, open_edges)
    return out


def revealed_by_door(
    between: tuple[Square, Square] | Edge,
    open_edges: AbstractSet[Edge] = _EMPTY,
    blockers: AbstractSet[Square] = _EMPTY,
) -> set[Square]:
    """What opening the door on `between` reveals: the room(s) on either side, and for a corridor side
    whatever is in straight line of sight from the square just beyond the door.

    `open_edges` should already include this door. Figures do not hide the map itself, so `blockers`
    defaults to nothing; pass blocked squares to keep rocks hiding what lies behind them.
    """
    a, b = tuple(between)
    opened = set(open_edges) | {frozenset((a, b))}
    frozen_open = frozenset(opened)
    out: set[Square] = set()
    for side in (a, b):
        room = board.room_of(side)
        if room is not None:
            out |= board.room_squares(room)
        else:
            out |= visible_from(side, frozen_open, blockers)
    return out


def reveal(
    revealed: AbstractSet[Square],
    hero_squares: Iterable[Square],
    open_edges: AbstractSet[Edge] = _EMPTY,
    blockers: AbstractSet[Square] = _EMPTY,
) -> set[Square]:
    """`revealed` plus everything the heroes on `hero_squares` now see (their rooms and lines of sight)."""
    out = set(revealed)
    for sq in hero_squares:
        out |= visible_from(sq, open_edges, blockers)
    return out
