"""Paths for heroes and monsters: no diagonals, walls and closed doors stop, figures block (heroes let heroes by)."""

from __future__ import annotations

from rules.heroquest import board
from rules.heroquest.board import Square
from rules.heroquest.shapes import Hero, Monster
from rules.heroquest.state import HQState, as_square, hero_square
from rules.heroquest.traps import known_trap_at
from rules.search import Reached, breadth_first


def hero_paths(s: HQState, h: Hero, budget: int, *, over_traps: bool = False,
               over_monsters: bool = False) -> dict[Square, Square | None]:
    """Squares the hero can reach with `budget` steps over revealed squares, as child -> parent.

    Known traps and open pits may end a move (the hero walks or jumps into them) but are never crossed;
    Pass Through Rock crosses walls and rocks, Veil of Mist crosses monsters. `over_traps` and
    `over_monsters` lift those limits (to explain why a square cannot be reached).
    """
    start = hero_square(h)
    status = h["status"]
    through_walls = bool(status.get("pass_rock"))
    through_monsters = bool(status.get("mist")) or over_monsters
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    figures = s.figure_at()
    dark, revealed, passable = s.dark, s.is_revealed, board.passable

    def enter(sq: Square, nb: Square) -> bool:
        if nb in dark or not revealed(nb):
            return False
        if not through_walls and (not passable(sq, nb, open_edges) or nb in blocked):
            return False
        who = figures.get(nb)
        return not (who and who[0] == "monster" and not (through_monsters and who[1]["revealed"]))

    def expand(sq: Square) -> bool:
        return sq == start or over_traps or not known_trap_at(s, sq)

    return breadth_first([start], board.orthogonal, enter=enter, expand=expand, within=budget).parent


def destinations(s: HQState, h: Hero, budget: int) -> list[Square]:
    parents = hero_paths(s, h, budget)
    figures = s.figure_at()
    blocked = s.blocked_squares()
    start = hero_square(h)
    return sorted(q for q in parents if q != start and q not in figures and q not in blocked)


def path_to(parents: dict[Square, Square | None], target: Square) -> list[Square]:
    """The squares walked from the search's start to `target` (the start left out)."""
    return Reached(parent=parents).path_to(target)


def monster_paths(s: HQState, m: Monster, budget: int) -> dict[Square, Square | None]:
    """Monsters cannot open doors, never pass heroes, may pass other monsters, and stay on revealed squares."""
    start = as_square(m["sq"])
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    figures = s.figure_at()
    dark, revealed, passable = s.dark, s.is_revealed, board.passable

    def enter(sq: Square, nb: Square) -> bool:
        if nb in dark or nb in blocked or not passable(sq, nb, open_edges):
            return False
        if not revealed(nb) or known_trap_at(s, nb):
            return False
        who = figures.get(nb)
        return not (who and who[0] == "hero")

    return breadth_first([start], board.orthogonal, enter=enter, within=budget).parent


def monster_destinations(s: HQState, m: Monster, budget: int) -> list[Square]:
    parents = monster_paths(s, m, budget)
    figures = s.figure_at()
    start = as_square(m["sq"])
    return sorted(q for q in parents if q != start and q not in figures)


def adjacent_open(s: HQState, a: Square, b: Square) -> bool:
    """Orthogonal neighbours with no wall between them (or an open door)."""
    return board.adjacent(a, b) and board.passable(a, b, s.open_edges())


def diagonal_open(s: HQState, a: Square, b: Square) -> bool:
    """Diagonal neighbours reachable round at least one corner without crossing a wall."""
    if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
        return False
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    for via in ((a[0], b[1]), (b[0], a[1])):
        if via not in blocked and board.passable(a, via, open_edges) and board.passable(via, b, open_edges):
            return True
    return False
