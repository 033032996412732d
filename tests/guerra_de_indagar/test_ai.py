"""The AI rival: always legal, deterministic, builds on the tiles it reaches, and plays whole games."""

from __future__ import annotations

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.combat import start_attack
from rules.guerra_de_indagar.units import adjacent_keys
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import clear_board, k, lab, my_turn, put, started
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


def _field() -> tuple[dict, int]:
    """A clean meadow field in round 3 for seat 0 (Arkland) against Helgoth and Oryana."""
    s = clear_board(started(2, 1))
    s["round"] = 3
    return s, 0


def test_ai_hunts_the_primary_monster_nearest_its_victory() -> None:
    s, _ = _field()
    s["monsters"]["helgoth"].update(at="-2,0", count=1)
    s["monsters"]["oryana"].update(at="2,0", spirits=0)
    assert ai._prey(s) == "helgoth"
    s["source"] = 3  # what Oryana would drink brings her within 2 of her 5 spirits (PROV-18)
    assert ai._prey(s) == "oryana"


def test_ai_strikes_the_hunted_monster_when_beside_it() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update(at=None, gone=True)
    s["monsters"]["helgoth"].update(at="-2,0", count=4)
    put(s, "ariane", "-1,0")
    put(s, "paladin", "-2,1")  # flanking: one more die
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("attack", to=lab(s, "-2,0"))


def test_ai_closes_in_on_the_hunted_monster() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update(at=None, gone=True)
    s["monsters"]["helgoth"].update(at="-3,0", count=4)
    put(s, "ariane", "0,2")
    s = my_turn(s, seat, "ariane")
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "move"
    prey = {n for n in adjacent_keys(s, "-3,0")}
    assert ai._dist_from(s, [k(s, action["to"])], None, prey) < ai._dist_from(s, ["0,2"], None, prey)


def test_ai_spends_spirit_dice_on_a_short_roll_against_the_hunted_monster() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update(at=None, gone=True)
    s["monsters"]["helgoth"].update(at="-2,0", count=4)
    s["players"][seat]["spirits"] = 1
    put(s, "ariane", "-1,0")
    start_attack(s, ("hero", "ariane"), "-2,0", "player")
    s["attack"]["a"] = [1, 1, 1]
    s["pending"] = [{"kind": "a_boost", "seat": seat}]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_dice")
    s["attack"]["a"] = [6, 6, 6, 6]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) != Action.of("spirit_dice")


def test_ai_keeper_takes_the_source_from_under_oryanas_nose() -> None:
    s, seat = _field()
    s["monsters"]["helgoth"]["at"] = None
    s["monsters"]["oryana"]["at"] = "-1,0"  # beside the Source: stepping there invites her attack, yet it must
    s["source"] = 2
    put(s, "ariane", "1,0")
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("move", to=lab(s, "0,0"))


def test_ai_waits_beside_the_home_of_the_hunted_monster_in_retreat() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update(at=None, gone=True)
    s["monsters"]["helgoth"].update(at=None, retreat=2, count=4)
    home = next(key for key, t in s["tiles"].items() if t["home"] == s["monsters"]["helgoth"]["home"])
    beside = set(adjacent_keys(s, home))
    put(s, "ariane", "1,1")
    s = my_turn(s, seat, "ariane")
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "move"
    assert ai._dist_from(s, [k(s, action["to"])], None, beside) < ai._dist_from(s, ["1,1"], None, beside)
    s["heroes"]["ariane"]["at"] = sorted(beside)[0]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("end")
