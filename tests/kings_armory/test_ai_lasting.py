"""The hard AI (issue 23): Burn and Bleed tokens counted for the damage they keep doing (they never
wear off and no resistance lowers them)."""

from __future__ import annotations

from rules.base import Action
from rules.kings_armory import GAME, ai
from rules.kings_armory.shapes import State
from rules.rng import Rng

from .helpers import add_hero, add_monster, lane_square, open_square_at, scene


def _choose(s: State, level: str, seat: int = 0) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1), level)


def test_hard_sets_the_boss_alight_where_normal_takes_the_bigger_hit() -> None:
    """Vyrax resists supernatural 3: Midnight's Blast (3) and Flamer (2) both do 1 a hit, but the Flamer's Burn
    token takes 1 more on each of the dragon's turns until it dies."""
    s = scene()
    boss = add_monster(s, "vyrax", 20, boss=True)
    midnight = add_hero(s, "midnight", open_square_at(s, lane_square(s, 20), 3))
    s["active"], midnight["ap"] = midnight["id"], 3
    hard, normal = _choose(s, "hard"), _choose(s, "normal")
    assert hard.kind == "attack" and hard["opt"] == "flamer", hard
    assert normal.kind == "attack" and normal["opt"] == "blast" and normal["target"] == boss["id"], normal


def test_a_burning_boss_is_worth_no_more_burn_than_its_cap() -> None:
    s = scene()
    boss = add_monster(s, "vyrax", 20, boss=True)
    assert ai._lasting_worth(s, boss, [("burn", 1)]) > 0
    boss["st"]["burn"] = 2  # Burn's cap
    assert ai._lasting_worth(s, boss, [("burn", 1)]) == 0
