"""The turn message's buttons come from the engine's legal moves, never re-derived from a view."""

from __future__ import annotations

from rules import registry
from rules.base import Action
from rules.hero_realms.game import HeroRealms
from rules.rng import Rng


def _registered() -> HeroRealms:
    """Hero Realms as the table finds it, through the registry."""
    game = registry.get("hero-realms")
    assert isinstance(game, HeroRealms)
    return game


GAME = _registered()


def test_quick_actions_are_legal_moves_of_the_seats_on_turn() -> None:
    rng = Rng.from_seed(3)
    saw_attack = False
    for seed in range(6):
        state = GAME.new(GAME.resolve_options({}), 2, seed)
        for _ in range(200):
            if GAME.outcome(state) is not None:
                break
            quick = GAME.quick_actions(state)
            seats = sorted(GAME.to_act(state))
            legal = {la.action for s in seats for la in GAME.legal_actions(state, s)}
            assert quick is not None and len(quick) <= 8
            assert all(action in legal for _, action in quick), "a button for a move that is not legal"
            if Action.of("end_turn") in legal:
                assert quick[-1][1] == Action.of("end_turn")
            attacks = [a for a in legal if a.kind == "attack" and str(a["target"]).startswith("p")]
            if attacks:
                best = max(int(a["amount"]) for a in attacks)
                shown = [a for _, a in quick if a.kind == "attack"]
                assert shown and int(shown[0]["amount"]) == best, "one opponent: attack with everything"
                saw_attack = True
            seat = rng.choice(seats)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).action).state
    assert saw_attack
