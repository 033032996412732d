"""What the heroes see and reveal, built on `visibility.line_of_sight` with the state's doors and figures."""

from __future__ import annotations

from collections import deque

from rules.heroquest import board, visibility
from rules.heroquest.board import Edge, Square
from rules.heroquest.shapes import BoardObject, Monster
from rules.heroquest.state import (
    Ctx,
    HQState,
    as_square,
    door_cells,
    hero_square,
    monster_label,
    publish_monster,
    sq_token,
    square_index,
)

#: Object kinds that become visible when one of their squares is revealed.
PLAIN_KINDS = frozenset({"furniture", "blocked", "stairs", "door", "rock", "corpse", "dropped"})
_NONE: frozenset[Edge] = frozenset()


def sees(s: HQState, a: Square, b: Square, figures_block: bool = True) -> bool:
    """Straight line of sight between two squares (same room: always) with closed doors and walls."""
    blockers = (s.sight_blockers() if figures_block else set()) | set(s.dark)
    return visibility.line_of_sight(a, b, blockers=frozenset(blockers), open_edges=s.open_edges())


def clear_shot(s: HQState, a: Square, b: Square) -> bool:
    """A missile's line: straight and unobstructed even inside one room (figures in between block it)."""
    blockers = frozenset(s.sight_blockers() | set(s.dark))
    # visibility.line_of_sight treats a shared room as always visible; missiles need the ray itself.
    return visibility.ray(a, b, frozenset(), blockers, s.open_edges())


def visible_squares(s: HQState, origin: Square) -> set[Square]:
    """Squares seen from `origin`: its room, and by flood through open edges every square in sight.

    A square holding a figure or a rock is seen but hides what lies behind it. Rooms glimpsed through
    an open door are revealed whole (the game master sets up the entire room).
    """
    return _visible(origin, frozenset(s.sight_blockers() | s.dark), s.open_edges(), s.dark)


def _visible(origin: Square, blockers: frozenset[Square], open_edges: frozenset[Edge],
             dark: frozenset[Square]) -> set[Square]:
    seen: set[Square] = {origin}
    rooms = board.rooms_by_square()
    room = rooms.get(origin)
    if room is not None:
        seen |= board.room_squares(room)
    tested: set[Square] = set(seen)
    queue = deque(seen)
    walls = board.walls()
    while queue:
        sq = queue.popleft()
        if sq != origin and sq in blockers:
            continue
        for nb in board.orthogonal(sq):
            if nb in tested or nb in dark or ((sq, nb) in walls and frozenset((sq, nb)) not in open_edges):
                continue
            tested.add(nb)
            # visibility.line_of_sight, spelled out: a square of the origin's room is always in sight
            if (room is not None and rooms.get(nb) == room) or visibility.ray(origin, nb, _NONE, blockers, open_edges):
                seen.add(nb)
                queue.append(nb)
    for r in {r for q in seen if (r := rooms.get(q)) is not None}:
        seen |= board.room_squares(r)
    return seen - dark


def refresh(ctx: Ctx) -> list[Monster]:
    """Reveal what the heroes on the board now see; returns the monsters that appeared."""
    s = ctx.state
    new: set[Square] = set()
    blockers, open_edges = frozenset(s.sight_blockers() | s.dark), s.open_edges()
    for h in s.on_board_heroes():
        new |= _visible(hero_square(h), blockers, open_edges, s.dark)
    return reveal_squares(ctx, new)


def reveal_squares(ctx: Ctx, squares: set[Square]) -> list[Monster]:
    """Mark squares revealed, reveal the figures and objects on them, and tell everybody."""
    s = ctx.state
    rev = list(s.d["rev"])
    fresh = [q for q in squares if rev[square_index(q)] == "0" and q not in s.dark]
    if not fresh:
        return []
    for q in fresh:
        rev[square_index(q)] = "1"
    s.d["rev"] = "".join(rev)
    ctx.undoable = False
    appeared = []
    # numbered in square order: the public numbers never depend on the quest's hidden ids
    for m in sorted(s.monsters.values(), key=lambda m: (m["sq"][0], m["sq"][1])):
        if not m["revealed"] and s.is_revealed(as_square(m["sq"])):
            publish_monster(s, m)
            appeared.append(m)
    furniture = 0
    for o in s.objects.values():
        if o["kind"] in PLAIN_KINDS and not o["revealed"]:
            between = o.get("between")
            squares_ = between if between else o["squares"]
            if any(s.is_revealed(as_square(q)) for q in squares_):
                o["revealed"] = True
                furniture += o["kind"] == "furniture"
    for m in appeared:
        ctx.say("hq.ev.monster_appears", monster=monster_label(m), sq=sq_token(m["sq"]))
    ctx.gm("hq.ev.gm_revealed", squares=len(fresh), monsters=len(appeared), furniture=furniture)
    return appeared


def open_door(ctx: Ctx, door: BoardObject) -> None:
    """An opened door reveals the room beyond, or the corridor in sight from the square beyond it."""
    s = ctx.state
    a, b = (as_square(q) for q in door_cells(door))
    blockers = frozenset(s.sight_blockers()) | s.dark
    beyond = visibility.revealed_by_door((a, b), s.open_edges(), blockers)
    reveal_squares(ctx, beyond - set(s.dark))
    refresh(ctx)


def monsters_in_sight(s: HQState, origin: Square) -> list[Monster]:
    """Revealed monsters the square `origin` can see."""
    shown = [m for m in s.monsters.values() if m["revealed"]]
    if not shown:
        return []
    blockers, open_edges = frozenset(s.sight_blockers() | s.dark), s.open_edges()
    return [m for m in shown
            if visibility.line_of_sight(origin, as_square(m["sq"]), blockers=blockers, open_edges=open_edges)]
