"""The AI heroes: legal and repeatable moves, blocking, focusing the monster nearest the Gate, a whole game."""

from __future__ import annotations

import pytest

from rules.base import SYSTEM, Action
from rules.kings_armory import GAME, ai, figures
from rules.kings_armory.board import board, range_distance
from rules.kings_armory.shapes import State
from rules.rng import Rng
from tools.ka_ai_eval import play

from .helpers import add_hero, add_monster, ai_to_the_end, lane_square, open_square_at, scene


def _choose(s: State, seat: int = 0) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1))


def test_a_whole_solo_game_reaches_its_end_with_legal_ai_moves_only() -> None:
    s = ai_to_the_end(GAME.new(GAME.resolve_options({"map": "short-road"}), 1, 3), 3)
    assert GAME.outcome(s) is not None
    assert s["wave"] >= 2  # the team lives through the first wave at least


def test_the_same_state_gives_the_same_move() -> None:
    s = GAME.new(GAME.resolve_options({}), 3, 11)
    for _ in range(40):
        seat = min(GAME.to_act(s))
        if seat == SYSTEM:
            break
        first = GAME.ai_action(s, seat, Rng.from_seed(1))
        assert GAME.ai_action(GAME.copy_state(s), seat, Rng.from_seed(99)) == first
        s = GAME.apply(s, seat, first).state


def test_heroes_are_picked_tank_first() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    assert _choose(s) == Action.of("pick", hero="valcor")
    s = GAME.apply(s, 0, _choose(s)).state
    assert GAME.ai_action(s, 1, Rng.from_seed(1)) == Action.of("pick", hero="ember")


def test_set_up_builds_its_free_towers_beside_the_lanes_then_houses_its_hero() -> None:
    s = GAME.new(GAME.resolve_options({}), 1, 1)
    s = GAME.apply(s, 0, _choose(s)).state
    b = board(s["map"])
    while s["free_towers"]:
        action = _choose(s)
        assert action.kind == "build"
        s = GAME.apply(s, 0, action).state
    for t in s["towers"]:
        assert b.path_distance((t["at"][0], t["at"][1])) <= 3
    action = _choose(s)
    assert action.kind == "place"
    s = GAME.apply(s, 0, action).state
    assert _choose(s) == Action.of("ready")


def test_attacks_the_monster_nearest_the_gate() -> None:
    s = scene()
    far = add_monster(s, "goblin_raider", 10)
    near = add_monster(s, "goblin_raider", 14)
    spot = next(sq for sq in [open_square_at(s, lane_square(s, 12), d) for d in (2, 3)]
                if range_distance(sq, lane_square(s, 10)) <= 6 and range_distance(sq, lane_square(s, 14)) <= 6)
    ember = add_hero(s, "ember", spot)
    s["active"], ember["ap"] = ember["id"], figures.ally_card(ember)["ap"]
    action = _choose(s)
    assert action.kind == "attack" and action["target"] == near["id"] != far["id"]


def test_blocks_when_asked_and_ready_to_block_on_its_turn() -> None:
    s = scene()
    mon = add_monster(s, "orc_warrior", 8)
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 8), 1))
    s["ask"] = {"ally": valcor["id"], "mid": mon["id"]}
    assert _choose(s) == Action.of("block", ally=valcor["id"], monster=mon["id"])
    s["ask"] = None
    assert _choose(s) == Action.of("block", ally=valcor["id"], monster=mon["id"])


def test_never_hires_a_champion_into_the_last_slot_a_hero_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "TOWERS_WANTED", 0)  # no towers: the two parapets are the only houses
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    s = GAME.apply(s, 0, Action.of("pick", hero="valcor")).state
    s = GAME.apply(s, 1, Action.of("pick", hero="ember")).state
    s.update({"phase": "between", "gold": 1000, "free_towers": 0})
    valcor = s["allies"][0]
    valcor["pos"], valcor["house"], valcor["inside"] = list(board(s["map"]).parapets["PW"]), "PW", True
    assert ai._spare(s) == 0  # PE is the only free slot, and Ember still needs it
    assert any(la.action.kind == "hire" for la in GAME.legal_actions(s, 0))
    assert _choose(s) == Action.of("defer")  # it leaves the gold to its teammate first, and proposes no hire
    s["deferred"] = [0, 1]  # both seats have stepped back: now each shops for itself
    assert _choose(s) == Action.of("ready")
    assert GAME.ai_action(s, 1, Rng.from_seed(1)).kind == "place"


def test_the_ai_team_holds_out_longer_than_random_legal_play() -> None:
    seeds = (1, 2, 3)
    ai = [play(1, s, True, {"map": "short-road"})[1] for s in seeds]
    rand = [play(1, s, False, {"map": "short-road"})[1] for s in seeds]
    assert sum(ai) > sum(rand) and min(ai) >= 2, (ai, rand)
