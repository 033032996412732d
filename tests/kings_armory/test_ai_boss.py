"""The hard AI against a boss (issue 23): the ally who can lower its resistances (Psychic Sunder) acts first and
does so, and the shots that follow count the lowered resistances."""

from __future__ import annotations

from rules.base import Action
from rules.kings_armory import GAME, ai, queries
from rules.kings_armory.board import board
from rules.kings_armory.shapes import Ally, Monster, State
from rules.rng import Rng

from .helpers import add_hero, add_monster, lane_square, scene


def _choose(s: State, level: str, seat: int = 0) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1), level)


def _boss_in_reach_of_cyrus() -> tuple[State, Monster, Ally, Ally]:
    s = scene()
    boss = add_monster(s, "nyx", 40, boss=True)
    at = lane_square(s, 40)
    ember = add_hero(s, "ember", (at[0], at[1] - 5) if at[1] >= 5 else (at[0], at[1] + 5))
    cyrus = add_hero(s, "cyrus", (at[0], at[1] - 3) if at[1] >= 5 else (at[0], at[1] + 3))
    for a in (ember, cyrus):
        assert board(s["map"]).on_field(queries.pos(a))  # type: ignore[arg-type]
    return s, boss, ember, cyrus


def test_hard_activates_the_ally_who_can_sunder_the_boss_first_and_sunders_it() -> None:
    s, boss, ember, cyrus = _boss_in_reach_of_cyrus()
    move = _choose(s, "hard")
    assert move == Action.of("activate", ally=cyrus["id"])
    assert _choose(s, "normal") == Action.of("activate", ally=ember["id"])
    s = GAME.apply(s, 0, move).state
    move = _choose(s, "hard")
    assert move.kind == "special" and move["target"] == boss["id"]
    s = GAME.apply(s, 0, move).state
    assert queries.monster(s, boss["id"])["sundered"] == 2  # type: ignore[index]
    assert _choose(s, "normal").kind != "special"


def test_hard_counts_a_sundered_boss_s_lowered_resistance_in_a_shot_s_worth() -> None:
    """Nyx resists Ranged 2: Ember's Longbow (2 damage) does 1 (the minimum) until Psychic Sunder lowers it to 0."""
    s, boss, ember, _cyrus = _boss_in_reach_of_cyrus()
    s["active"], ember["ap"] = ember["id"], 4
    shot = next(la.action for la in GAME.legal_actions(s, 0)
                if la.action.kind == "attack" and la.action["opt"] == "longbow" and la.action["target"] == boss["id"])
    before = ai._attack_value(s, ember, shot, lowered=True)
    boss["sundered"] = 2
    assert ai._attack_value(s, ember, shot, lowered=True) == 2 * before
    assert ai._attack_value(s, ember, shot) == before  # what normal counts: the printed resistance
