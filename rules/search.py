"""Breadth-first search over any board (squares, hexes, tile keys): step counts and the way back to a start.

One helper for every game: the board says what is next to what (`neighbours`), the game says which steps
are allowed (`enter`), which places a walker may go on from (`expand`) and how far it may walk (`within`).
Places are reached in the order they are first found, so with neighbours listed in a fixed order the result
(and any choice made from it) is the same on every run.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

N = TypeVar("N", bound=Hashable)


@dataclass
class Reached(Generic[N]):
    """What a search found: steps from the nearest start to each place (in the order found), and for each
    place the one it was reached from (None for a start)."""

    dist: dict[N, int] = field(default_factory=dict)
    parent: dict[N, N | None] = field(default_factory=dict)

    def __contains__(self, node: object) -> bool:
        return node in self.dist

    def path_to(self, target: N) -> list[N]:
        """The places walked through from a start to `target`, the start left out and `target` last."""
        out: list[N] = []
        cur: N | None = target
        while cur is not None:
            out.append(cur)
            cur = self.parent[cur]
        return out[::-1][1:]


def breadth_first(starts: Iterable[N], neighbours: Callable[[N], Iterable[N]], *,
                  enter: Callable[[N, N], bool] | None = None,
                  expand: Callable[[N], bool] | None = None,
                  within: int | None = None) -> Reached[N]:
    """Every place reachable from `starts` (each at 0 steps; repeats ignored).

    `neighbours(place)` lists the places one step away; `enter(here, there)` says whether that step may be
    taken (default: any); `expand(place)` whether a walker reaching `place` may go on from it (default: yes;
    starts included); `within` is the most steps walked (places that far are reached but not gone on from).
    A place refused from one neighbour may still be reached from another."""
    found: Reached[N] = Reached()
    dist, parent = found.dist, found.parent
    for start in starts:
        if start not in dist:
            dist[start] = 0
            parent[start] = None
    queue = deque(dist)
    popleft, append = queue.popleft, queue.append
    while queue:
        here = popleft()
        steps = dist[here]
        if within is not None and steps >= within:
            continue
        if expand is not None and not expand(here):
            continue
        steps += 1
        for there in neighbours(here):
            if there in dist or (enter is not None and not enter(here, there)):
                continue
            dist[there] = steps
            parent[there] = here
            append(there)
    return found
