"""The AI rival: always legal, deterministic, builds on the tiles it reaches, and plays whole games."""

from __future__ import annotations

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import started
from tools import gi_ai_eval


def _all_ai(seats: int, seed: int) -> tuple[dict, int]:
    s = GAME.new(GAME.resolve_options({}), seats, seed)
    rng = Rng.from_seed(seed)
    steps = 0
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        if seat == SYSTEM:
            action = GAME.system_action(s)
        else:
            action = GAME.ai_action(s, seat, rng)
            assert GAME.is_legal(s, seat, action), action
        s = GAME.apply(s, seat, action).state
        steps += 1
    return s, steps


def test_ai_seats_play_whole_games_legally_in_every_size() -> None:
    assert GAME.supports_ai
    for seats in (1, 2, 4):
        s, _ = _all_ai(seats, 3)
        assert s["result"] is not None


def test_ai_is_deterministic() -> None:
    a, steps_a = _all_ai(2, 11)
    b, steps_b = _all_ai(2, 11)
    assert (steps_a, a["result"], a["outposts"]) == (steps_b, b["result"], b["outposts"])


def _players_turn(seed: int = 1) -> tuple[dict, int]:
    """A started game advanced to a player's own turn with no question pending."""
    s = started(2, seed)
    while SYSTEM in GAME.to_act(s) or s["pending"]:
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, Rng.from_seed(1))
        s = GAME.apply(s, seat, action).state
    return s, min(GAME.to_act(s))


def test_ai_builds_when_standing_on_a_free_resource_tile_it_can_pay() -> None:
    s, seat = _players_turn()
    hid = next(h for h, hero in sorted(s["heroes"].items()) if hero["owner"] == seat)
    spot = next(key for key, t in sorted(s["tiles"].items()) if t["t"] == "gold" and t["area"] == seat)
    s["tiles"][spot]["up"] = True
    s["heroes"][hid]["at"] = spot
    s["players"][seat]["res"]["gold"] = 5
    s = GAME.apply(s, seat, Action.of("activate", hero=hid)).state
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("build")


def test_ai_turns_spirits_into_points() -> None:
    s, seat = _players_turn()
    s["players"][seat]["spirits"] = 2
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_pp")


def test_eval_tool_reports_a_rate() -> None:
    winners, how = gi_ai_eval.play(0, 2, 5)
    assert how.startswith("gi.end.") and all(0 <= w < 2 for w in winners)
