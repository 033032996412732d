"""A simple scripted HeroQuest hero player for the AI evaluations: it walks toward the monsters it has seen (else
toward the unexplored: closed doors, the edge of what is revealed), opens doors, attacks when it can, searches
rooms for treasure, drinks a potion to stay alive, and ends its turn.

It reads the full state (it is a measuring tool, not a seat a person plays against), but only what the heroes
could see: revealed squares, revealed monsters, found doors."""

from __future__ import annotations

from collections import deque
from typing import Any

from rules.base import Action, Game, LegalAction
from rules.heroquest import board
from rules.heroquest.board import Square
from rules.heroquest.shapes import Hero
from rules.heroquest.state import HQState, as_square, door_cells, hero_square, parse_sq
from rules.rng import Rng

#: How far a square no goal can be reached from counts.
FAR = 10_000


def _frontier(s: HQState) -> set[Square]:
    """Revealed squares a hero can stand on to see more: beside a found closed door, or beside an unrevealed
    square it could walk into."""
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    goals: set[Square] = set()
    for door in s.objects.values():
        if door["kind"] in ("door", "secret_door") and door["found"] and not door["open"] and door["revealed"]:
            sides: list[Square] = [as_square(q) for q in door_cells(door)]
            goals.update(q for q in sides if s.is_revealed(q) and q not in blocked)
    for sq in s.revealed_squares():
        if sq in blocked:
            continue
        if any(board.in_board(n) and not s.is_revealed(n) and n not in blocked and board.passable(sq, n, open_edges)
               for n in board.orthogonal(sq)):
            goals.add(sq)
    return goals


def _goals(s: HQState, me: Square) -> set[Square]:
    """Where the hero wants to stand: beside a revealed monster, else on the frontier of the explored."""
    open_edges = s.open_edges()
    near_monsters = {n for m in s.monsters.values() if m["revealed"] for n in board.orthogonal(as_square(m["sq"]))
                     if board.in_board(n) and board.passable(as_square(m["sq"]), n, open_edges)}
    return near_monsters or _frontier(s) - {me}


def distances(s: HQState, goals: set[Square]) -> dict[Square, int]:
    """Steps from each revealed square to the nearest goal, walking through revealed open squares (figures are
    ignored: they move)."""
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        sq = queue.popleft()
        for n in board.orthogonal(sq):
            if (n in dist or not board.in_board(n) or n in blocked or not s.is_revealed(n)
                    or not board.passable(sq, n, open_edges)):
                continue
            dist[n] = dist[sq] + 1
            queue.append(n)
    return dist


def _of(legal: list[LegalAction], kind: str) -> list[Action]:
    return [la.action for la in legal if la.action.kind == kind]


def hero_action(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    """The scripted hero's next move for `seat` (a hero player)."""
    s: HQState = state
    legal = game.legal_actions(s, seat)
    h = s.current_hero()
    if h is not None and h["seat"] == seat and h.get("outside"):
        # waiting at the Door In: enter as soon as the square inside it is free
        return (_of(legal, "enter") or _of(legal, "end_turn") or [legal[0].action])[0]
    action = None if h is None or h["seat"] != seat or h["sq"] is None else _on_turn(s, h, legal)
    if action is not None and any(la.action == action for la in legal):
        return action
    # a decision outside the plain turn (a potion to save a life, the spells to take, a rock to step off)
    drinks = _of(legal, "drink")
    if drinks:
        return drinks[0]
    choices = [la.action for la in legal if la.action.kind != "accept_death"] or [la.action for la in legal]
    return rng.choice(choices)


def _on_turn(s: HQState, h: Hero, legal: list[LegalAction]) -> Action:
    if h["body"] <= 2:
        drinks = _of(legal, "drink")
        if drinks:
            return drinks[0]
    attacks = [a for a in _of(legal, "attack") if not a.get("fists")] or _of(legal, "attack")
    if attacks:
        return min(attacks, key=lambda a: (s.monsters[str(a.get("target"))]["body"], str(a.get("target"))))
    doors = _of(legal, "open_door")
    if doors:  # beside a closed door: open it before walking on (walking off it first left heroes pacing forever)
        return doors[0]
    me = hero_square(h)
    dist = distances(s, _goals(s, me))
    here = dist.get(me, FAR)
    steps = [(dist.get(q, FAR), q, a) for a in _of(legal, "move") if (q := parse_sq(a.get("to"))) is not None]
    if steps:
        best = min(steps, key=lambda x: (x[0], abs(x[1][0] - me[0]) + abs(x[1][1] - me[1]), x[1]))
        if best[0] < here:
            return best[2]
    for kind in ("search_treasure", "search_secret"):
        found = _of(legal, kind)
        if found and not s.d["turn"]["acted"]:
            return found[0]
    return Action.of("end_turn")
