"""Random and AI playouts of every variant: invariants hold, nothing hidden leaks, AI moves are legal."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

import pytest

from rules.base import Action, Event
from rules.hero_realms import GAME
from rules.hero_realms.ai import random_action
from rules.hero_realms.state import State
from rules.rng import Rng

_QUOTED = re.compile(r'"([^"\\]*)"')
SETUPS = [
    ("free-for-all", 2), ("free-for-all", 3), ("free-for-all", 5), ("hunter-first-blood", 3),
    ("hunter-first-blood", 5), ("hunter-last-standing", 4), ("hunter-last-standing", 6), ("hydra", 4),
    ("teams-of-three", 6), ("emperor", 6),
]


def _leaks(state: State, events: Sequence[Event]) -> list[str]:
    tokens = GAME.secret_tokens(state)
    problems: list[str] = []
    for viewer in [None, *range(state.n)]:
        forbidden = {t for t, allowed in tokens.items() if viewer is None or viewer not in allowed}
        texts = [json.dumps(GAME.view(state, viewer))]
        texts += [json.dumps(e.msg.to_json()) for e in events if e.visible_to(viewer)]
        shown = {m for x in texts for m in _QUOTED.findall(x)} & forbidden
        problems += [f"{t} shown to {viewer}" for t in sorted(shown)]
    return problems


def _playout(variant: str, seats: int, seed: int, policy: Callable[[State, int, Rng], Action], max_steps: int,
             leak_every: int = 0) -> tuple[State, int]:
    s = GAME.new({"variant": variant}, seats, seed)
    rng = Rng.from_seed(seed)
    for step_no in range(max_steps):
        if GAME.outcome(s) is not None:
            return s, step_no
        seat = rng.choice(sorted(GAME.to_act(s)))
        action = policy(s, seat, rng)
        assert GAME.is_legal(s, seat, action), action
        step = GAME.apply(s, seat, action)
        s = step.state
        assert GAME.check_invariants(s) == [], (step_no, action)
        if leak_every and step_no % leak_every == 0:
            assert _leaks(s, step.events) == []
    return s, max_steps


@pytest.mark.parametrize(("variant", "seats"), SETUPS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_keep_the_invariants(variant: str, seats: int, seed: int) -> None:
    _playout(variant, seats, seed, random_action, 1200, leak_every=10)


@pytest.mark.parametrize(("variant", "seats"), SETUPS)
def test_ai_playouts_finish(variant: str, seats: int) -> None:
    s, steps = _playout(variant, seats, 11, GAME.ai_action, 6000)
    assert GAME.outcome(s) is not None, f"{variant} with {seats} unfinished after {steps} actions"


def test_secret_tokens_cover_hands_for_their_owner_and_decks_for_nobody() -> None:
    s = GAME.new({}, 2, 5)
    tokens = GAME.secret_tokens(s)
    for seat, p in enumerate(s.players):
        assert all(tokens[c] == frozenset({seat}) for c in p.hand)
        assert all(tokens[c] == frozenset() for c in p.deck)
    assert all(tokens[c] == frozenset() for c in s.market_deck)
    assert not set(s.market) & set(tokens)


def test_views_show_the_own_hand_only_and_draw_events_are_private() -> None:
    s = GAME.new({}, 2, 5)
    v0, v1, spectator = GAME.view(s, 0), GAME.view(s, 1), GAME.view(s, None)
    assert [c["id"] for c in v0["hand"]] == s.players[0].hand
    assert v1["hand"] is not None and spectator["hand"] is None
    assert v1["players"][0]["hand"] == 3 and "deck" in v1["players"][0]
    step = GAME.apply(s, 0, GAME.legal_actions(s, 0)[-1].action)  # end the turn: draws five
    private = [e for e in step.events if e.to is not None]
    public = [e for e in step.events if e.to is None]
    assert private and all(e.to == frozenset({0}) for e in private)
    assert any(e.msg.key == "hr.ev.drew" and e.msg.params["n"] == 5 for e in public)
    assert _leaks(step.state, step.events) == []


@pytest.mark.parametrize(("variant", "seats"), [("free-for-all", 2), ("hydra", 4), ("emperor", 6)])
def test_no_step_that_moved_a_hidden_card_can_be_undone(variant: str, seats: int) -> None:
    """Undo policy (boardgame.io, Board Game Arena): never past a step that drew, shuffled or showed a hidden
    card. Property over random play: a step that changed who may see any card is never undoable."""
    s = GAME.new({"variant": variant}, seats, 21)
    rng = Rng(21)
    undoable = 0
    for _ in range(900):
        if s.winners is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(s)))
        action = random_action(s, seat, rng)
        before = GAME.secret_tokens(s)
        step = GAME.apply(s, seat, action)
        after = GAME.secret_tokens(step.state)
        moved = {t for t in set(before) | set(after) if before.get(t) != after.get(t)}
        if moved:
            assert not step.undoable, (action, sorted(moved)[:3])
        undoable += step.undoable
        s = step.state
    assert undoable, "some steps (attacks, gifts) stay undoable"


def test_playing_a_card_reveals_it_so_it_cannot_be_undone() -> None:
    s = GAME.new({}, 2, 4)
    (seat,) = s.active
    card = s.players[seat].hand[0]
    assert GAME.apply(s, seat, Action.of("play", card=card)).undoable is False
    assert GAME.apply(s, seat, Action.of("play_all")).undoable is False
