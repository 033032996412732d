"""The hard AI against the last wave's boss (issue 23): the team readies for it in the last intermission, the
ally who can lower its resistances acts first and does so, and shots on it count the lowered resistances."""

from __future__ import annotations

from typing import Any

from rules.base import Action
from rules.kings_armory import GAME, ai, queries
from rules.kings_armory.board import board, range_distance
from rules.rng import Rng

from .helpers import add_hero, add_monster, lane_square, scene, tower_at_range


def _choose(s: dict[str, Any], level: str, seat: int = 0) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1), level)


def _exit_gap(s: dict[str, Any], sq: tuple[int, int]) -> int:
    return min(range_distance(sq, e) for e in board(s["map"]).exits.values())


def _last_intermission() -> tuple[dict[str, Any], dict[str, Any]]:
    """Between waves 4 and 5 (the boss's wave): an archer housed in a tower far from the exits, a tower by them."""
    s = scene()
    far_tid, far_sq = tower_at_range(s, lane_square(s, 10), 3)
    lane = board(s["map"]).lanes["L"]
    near_tid, _ = tower_at_range(s, lane[-3], 3)
    hero = add_hero(s, "ember", far_sq)
    hero.update(house=far_tid, inside=True)
    s.update(phase="between", wave=queries.last_wave(s) - 1, ready=[], gold=0)
    assert near_tid and _exit_gap(s, far_sq) > 8
    return s, hero


def test_hard_moves_its_shooters_in_reach_of_the_exits_before_the_boss_wave_and_normal_does_not() -> None:
    s, ember = _last_intermission()
    move = _choose(s, "hard")
    assert move.kind == "place" and move["ally"] == ember["id"]
    to = board(s["map"]).parse(str(move["at"]))
    assert to is not None and _exit_gap(s, to) <= ai._reach(ember)
    assert _choose(s, "normal").kind != "place"


def test_hard_leaves_its_shooters_where_they_are_in_earlier_intermissions() -> None:
    s, _ember = _last_intermission()
    s["wave"] = queries.last_wave(s) - 2
    assert _choose(s, "hard").kind != "place"


def _boss_in_reach_of_cyrus() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
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
