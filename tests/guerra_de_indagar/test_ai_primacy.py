"""Issue 23, AI second pass: the hard level plays for primacy points (spirits into points late, outposts while
Helgoth could not win on them, upgrades toward Merchant Crown's point paid with spare gold), and every level plays
whole games legally."""

from __future__ import annotations

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.state import State
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import build_under_helgoth, clear_board, my_turn, put, started


def _field() -> tuple[State, int]:
    """A clean meadow field in round 3 for seat 0 (Arkland) against Helgoth and Oryana."""
    s = clear_board(started(2, 1))
    s["round"] = 3
    return s, 0


def _own_turn(seed: int = 1) -> tuple[State, int]:
    s = started(2, seed)
    while SYSTEM in GAME.to_act(s) or s["pending"]:
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, Rng.from_seed(1))
        s = GAME.apply(s, seat, action).state
    return s, min(GAME.to_act(s))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_whole_games_legally(level: str) -> None:
    for seed in (7, 8):
        s = GAME.new(GAME.resolve_options({}), 2, seed)
        rng = Rng.from_seed(seed)
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            if seat == SYSTEM:
                action = GAME.system_action(s)
            else:
                action = GAME.ai_action(s, seat, rng, level=level if seat == 0 else "normal")
                assert GAME.is_legal(s, seat, action), (level, seed, action)
            s = GAME.apply(s, seat, action).state


def test_hard_turns_its_spirit_reserve_into_points_late_in_the_game() -> None:
    s, seat = _own_turn()
    assert ai._oryana(s)  # normal keeps two spirits for the fight while she is about
    s["players"][seat]["spirits"] = 2
    s["round"] = ai.LEVELS["hard"].spend_from - 1
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("spirit_pp")
    s["round"] = ai.LEVELS["hard"].spend_from
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="normal") != Action.of("spirit_pp")
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("spirit_pp")
    helgoth = next(mid for mid, m in s["monsters"].items() if m["card"] == "helgoth")
    s["monsters"][helgoth]["count"] = ai._need(s, "helgoth") - 1  # a monster near its victory: the reserve stays
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("spirit_pp")


def test_hard_builds_while_helgoth_could_not_win_on_its_outposts_even_when_it_leads() -> None:
    s, seat = build_under_helgoth()
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="normal") != Action.of("build")  # it would lead
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("build")
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - 1 - ai.LEVELS["hard"].margin  # just enough room
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("build")
    s["monsters"]["helgoth"]["count"] += 1  # taking it, he would come within `margin` of his victory
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("build")


def test_hard_counts_the_rivals_outposts_as_helgoths_food_before_building() -> None:
    """Helgoth wins on any player's outposts (he takes the leader's): hard keeps its margin over all of them, so a
    rival that builds everywhere does not lead it to feed him the last ones."""
    assert ai.LEVELS["hard"].rivals_posts and not ai.LEVELS["normal"].rivals_posts
    s, seat = build_under_helgoth()
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - 2 - ai.LEVELS["hard"].margin  # room for two
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("build")
    s["outposts"]["2,-2"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("build")  # one rival outpost: room
    s["outposts"]["2,-1"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("build")  # two: he could win


def test_hard_trades_spare_gold_to_upgrade_toward_merchant_crowns_point() -> None:
    s, seat = _field()
    for mon in s["monsters"].values():
        mon.update({"at": None, "gone": True})
    s["tiles"]["0,2"]["t"] = "gold"
    s["outposts"]["0,2"] = {"owner": seat, "level": 1, "dmg": 0, "dropped": False}
    put(s, "ariane", "0,2")
    s["players"][seat]["tree"] = "merchant_crown"
    s["players"][seat]["res"] = {"gold": 6, "wood": 1, "mineral": 2}  # level 2 costs 1 gold and 2 wood
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="normal").kind != "trade"
    trade = GAME.ai_action(s, seat, Rng.from_seed(1), level="hard")
    assert trade == Action.of("trade", give=["gold"] * 3, get="wood")
    s = GAME.apply(s, seat, trade).state
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("upgrade")
    s = GAME.apply(s, seat, Action.of("upgrade")).state
    assert s["outposts"]["0,2"]["level"] == 2


def test_affordable_counts_three_spare_resources_for_each_missing_one() -> None:
    s, seat = _field()
    cost = {"gold": 1, "wood": 2}
    s["players"][seat]["res"] = {"gold": 7, "wood": 0, "mineral": 0}
    assert ai._affordable(s, seat, cost)  # 6 spare gold: two wood
    s["players"][seat]["res"] = {"gold": 6, "wood": 0, "mineral": 0}
    assert not ai._affordable(s, seat, cost)  # 5 spare: one wood only
    s["players"][seat]["res"] = {"gold": 4, "wood": 1, "mineral": 0}
    assert ai._affordable(s, seat, cost)
