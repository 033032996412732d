"""Building Hero Realms states by hand for scenario tests."""

from __future__ import annotations

from collections.abc import Sequence

from rules.base import Action, ArgValue, Scalar, Step
from rules.hero_realms import GAME, engine, variants
from rules.hero_realms.state import Option, PendingDecision, State


def clean(variant: str = "free-for-all", seats: int = 2, seed: int = 1) -> State:
    """A new game whose hands went back into the decks (so tests choose every card), nothing pending,
    and seat 0 (in team variants, team 0) taking the first turn whoever the seed drew."""
    s = GAME.new({"variant": variant}, seats, seed)
    s.cards = dict(s.cards)
    for p in s.players:
        p.deck = p.hand + p.deck
        p.hand = []
    s.pending = []
    s.active = variants.first_seats(variant, seats, 0)
    return s


def put(s: State, seat: int, key: str, zone: str = "hand") -> str:
    """Create a new instance of card `key` in a zone of `seat` ("hand", "played", "champions", "discard",
    "deck" (on top)) and return its id."""
    cid = f"c{len(s.cards) + 1:03d}"
    s.cards[cid] = key
    getattr(s.players[seat], zone).append(cid)
    return cid


def act(s: State, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> Step[State]:
    return GAME.apply(s, seat, Action.of(kind, **args))


def answer(s: State, seat: int, option: Option) -> State:
    return act(s, seat, "choose", option=option).state


def pending(s: State, seat: int) -> PendingDecision:
    d = engine.pending_of(s, seat)
    assert d is not None, "no pending decision"
    return d


def options(s: State, seat: int) -> Sequence[Option]:
    return engine.decision_options(s, pending(s, seat))


def kinds(s: State, seat: int) -> set[str]:
    return {la.action.kind for la in GAME.legal_actions(s, seat)}


def health(s: State, seat: int) -> int:
    return s.health[s.pool_of[seat]]
