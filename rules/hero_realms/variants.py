"""Multiplayer variants: seat counts, teams, starting health and hands, and who may target whom."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.hero_realms.state import State


@dataclass(frozen=True)
class Variant:
    key: str
    low: int
    high: int
    #: Teams share one turn (Hydra, teams of three).
    team_turns: bool = False
    #: A ready guard of any teammate protects the whole team.
    team_guard: bool = False
    #: Seats per team (0: every seat plays alone).
    team_size: int = 0
    shared_health: int = 0


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("free-for-all", 2, 6),
        Variant("hunter-first-blood", 3, 6),
        Variant("hunter-last-standing", 3, 6),
        Variant("hydra", 4, 4, team_turns=True, team_guard=True, team_size=2, shared_health=75),
        Variant("teams-of-three", 6, 6, team_turns=True, team_guard=True, team_size=3, shared_health=100),
        Variant("emperor", 6, 6, team_size=3),
    )
}
DEFAULT_VARIANT = "free-for-all"
HEALTH = 50
EMPEROR_HEALTH = 60
#: In the emperor variant the emperors sit opposite each other, flanked by their captains.
EMPEROR_SEATS = (1, 4)


def first_seats(variant: str, n: int, first: int) -> list[int]:
    """The seats taking the first turn when `first` (a seat, or a team in team variants) was drawn to start."""
    v = VARIANTS[variant]
    if v.team_turns:
        return [seat for seat in range(n) if seat // v.team_size == first]
    if v.team_size:
        # Emperor: the first team opens, starting with its first seat clockwise ("jugador 1").
        return [first * v.team_size]
    return [first]


def first_choices(variant: str, n: int) -> int:
    """How many seats (or, in team variants, teams) the first player is drawn from."""
    v = VARIANTS[variant]
    return n // v.team_size if v.team_size else n


def layout(variant: str, n: int, first: int) -> tuple[list[int], list[int], list[int], list[str], list[int]]:
    """Team of each seat, health pool of each seat, starting health per pool, roles and opening hand sizes,
    when `first` (a seat, or a team in team variants) takes the first turn."""
    v = VARIANTS[variant]
    if v.team_size:
        team_of = [seat // v.team_size for seat in range(n)]
    else:
        team_of = list(range(n))
    if v.shared_health:
        pool_of = team_of[:]
        health = [v.shared_health] * (n // v.team_size)
    else:
        pool_of = list(range(n))
        health = [HEALTH] * n
    roles = ["player"] * n
    if variant == "emperor":
        for seat in range(n):
            roles[seat] = "emperor" if seat in EMPEROR_SEATS else "captain"
            if roles[seat] == "emperor":
                health[seat] = EMPEROR_HEALTH
    if v.team_size:
        # The team that opens draws three cards each, the other team five.
        hands = [3 if team_of[seat] == first else 5 for seat in range(n)]
    else:
        # Counting clockwise from the first player: three cards, then four (with three or more), then five.
        order = [(first + k) % n for k in range(n)]
        opening = [3, 5] if n == 2 else [3, 4] + [5] * (n - 2)
        hands = [0] * n
        for seat, size in zip(order, opening, strict=True):
            hands[seat] = size
    return team_of, pool_of, health, roles, hands


def alive(state: State, seat: int) -> bool:
    return not state.players[seat].eliminated


def left_of(state: State, seat: int) -> int:
    """The next living seat clockwise (the player to the left, who plays next)."""
    n = state.n
    for step in range(1, n):
        other = (seat + step) % n
        if alive(state, other):
            return other
    return seat


def right_of(state: State, seat: int) -> int:
    """The previous living seat clockwise (the player to the right)."""
    n = state.n
    for step in range(1, n):
        other = (seat - step) % n
        if alive(state, other):
            return other
    return seat


def opponents(state: State, seat: int) -> list[int]:
    return [o for o in range(state.n) if alive(state, o) and state.team_of[o] != state.team_of[seat]]


def teammates(state: State, seat: int) -> list[int]:
    """Living teammates other than `seat`."""
    return [o for o in range(state.n) if o != seat and alive(state, o) and state.team_of[o] == state.team_of[seat]]


def opposite(seat: int, n: int) -> int:
    return (seat + n // 2) % n


def _reachable(state: State, seat: int, champions: bool) -> list[int]:
    """Opponents whose health (or, with `champions`, whose champions) `seat` may target, ignoring guards."""
    variant = state.variant
    if variant.startswith("hunter-"):
        left, right = left_of(state, seat), right_of(state, seat)
        seats = [left] if not champions else sorted({left, right})
        return [s for s in seats if s != seat]
    if variant == "emperor" and state.roles[seat] == "captain":
        facing = opposite(seat, state.n)
        if alive(state, facing):
            return [facing]
        return [s for s in opponents(state, seat) if state.roles[s] == "emperor"]
    return opponents(state, seat)


def protectors(state: State, owner: int) -> list[int]:
    """Seats whose ready guards protect `owner`."""
    if VARIANTS[state.variant].team_guard:
        return [s for s in range(state.n) if state.team_of[s] == state.team_of[owner] and alive(state, s)]
    return [owner]


def attackable_players(state: State, seat: int, guard_of: Callable[[int], bool]) -> list[int]:
    """Opponents `seat` may attack now; `guard_of(seat)` says whether a seat has a ready guard."""
    return [o for o in _reachable(state, seat, False) if not any(guard_of(p) for p in protectors(state, o))]


def champion_owners(state: State, seat: int) -> list[int]:
    """Opponents whose champions `seat` may attack or target (guards are checked per champion)."""
    return _reachable(state, seat, True)


def discard_targets(state: State, seat: int) -> list[int]:
    """Opponents `seat` may make discard a card ("target opponent").

    The hunter variants restrict only attacks and champions ("únicamente puedes atacar al jugador sentado
    a tu izquierda y solo puedes atacar o elegir como objetivos a campeones..."), so any opponent may be
    targeted there; an emperor's captain may only target the captain facing them ("al capitán que tienen
    enfrente"), then the enemy emperor."""
    if state.variant.startswith("hunter-"):
        return opponents(state, seat)
    return _reachable(state, seat, True)
