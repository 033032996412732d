"""The §7 variants and scenarios offered at /game new (P-28): one test each."""

from __future__ import annotations

from typing import Any

from rules.base import Action
from rules.kings_armory import GAME, enemy, shop
from rules.kings_armory import round as rnd
from rules.kings_armory import state as st

from .helpers import Dice, add_hero, add_monster, lane_square, open_square_at, scene


def _game(seats: int = 1, **variants: bool) -> dict[str, Any]:
    return GAME.new(GAME.resolve_options({k: str(v) for k, v in variants.items()}), seats, 3)  # type: ignore[no-any-return]


def _scene(**variants: bool) -> dict[str, Any]:
    s = scene()
    s["variants"] = sorted(k for k, on in variants.items() if on)
    return s


def test_every_variant_is_an_option_and_off_by_default() -> None:
    keys = {o.key: o.default for o in GAME.options()}
    for name in ("ettin", "quick", "stars", "gold_mining", "hard_stones", "generals", "scarce"):
        assert keys[name] is False
    assert _game()["variants"] == []


def test_quick_game_makes_every_attack_auto_and_one_damage_weaker() -> None:
    s = _scene(quick=True)
    orc = add_monster(s, "orc_warrior", 20)  # M resistance 1
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
    s["active"], valcor["ap"] = valcor["id"], 3
    rnd.apply(s, Dice(), [], 0, Action.of("attack", opt="mace", target=orc["id"]))  # type: ignore[arg-type]
    assert orc["hp"] == 9 - (4 - 1 - 1)  # no die used; 4 − 1 (Quick) − 1 (resistance)
    enemy._attack(s, Dice(), [], orc, moved=0)
    assert valcor["hp"] == 20 - max(1, 3 - 1 - 2)  # the orc hits automatically; minimum 1


def test_three_stars_pays_two_more_cards_for_an_untouched_gate_and_one_fewer_otherwise() -> None:
    for lost, cards in ((0, 1 + 1 + 2), (5, 1 + 1 - 1)):
        s = _scene(stars=True)
        add_hero(s, "valcor", (0, 0))
        s["coins"] = [50] * 26
        s["gate_at_start"] = s["gate"]
        s["gate"] -= lost
        enemy.end_wave(s, [])
        assert s["gold"] == 50 * cards


def test_gold_mining_starts_with_gold_and_banks_fifty_per_natural_twelve() -> None:
    assert _game(3, gold_mining=True)["gold"] == 150
    s = _scene(gold_mining=True)
    add_hero(s, "valcor", (0, 0))
    s.update(phase="enemy", eturn=1)
    enemy.arrive(s, Dice(12), [])
    enemy.arrive(s, Dice(11), [])
    assert s["banked"] == 50
    s["coins"] = [100] * 26
    enemy.end_wave(s, [])
    assert s["gold"] == 2 * 100 + 50 and s["banked"] == 0


def test_hard_stones_towers_cost_150_sell_for_75_hold_four_and_the_gate_can_be_repaired() -> None:
    s = _scene(hard_stones=True)
    s.update(phase="between", gold=400, ready=[])
    add_hero(s, "valcor", (0, 0))
    assert shop.tower_price(s) == 150
    corner = shop.build_squares(s)[0]
    s = GAME.apply(s, 0, Action.of("build", at=st.bd(s).label(corner))).state
    assert s["gold"] == 250 and st.capacity(s, s["towers"][0]["id"]) == 4 and st.capacity(s, "PW") == 1
    s["gate"] -= 7
    s = GAME.apply(s, 0, Action.of("repair")).state
    assert (s["gate_max"] - s["gate"], s["gold"]) == (2, 200)
    s = GAME.apply(s, 0, Action.of("repair")).state
    assert s["gate"] == s["gate_max"] and not GAME.is_legal(s, 0, Action.of("repair"))
    plain = scene()
    plain.update(phase="between", gold=400, ready=[], gate=5)
    add_hero(plain, "valcor", (0, 0))
    assert not GAME.is_legal(plain, 0, Action.of("repair"))


def test_generally_enough_means_no_champions_and_unlocked_starting_equipment() -> None:
    s = _game(2, generals=True)
    assert all(not g["locked"] for g in s["gear"]) and s["gear_gate"]
    s.update(phase="between", gold=1000)
    assert not shop.can_hire(s, "foot")


def test_scarce_and_underpaid_costs_more_and_pays_less() -> None:
    s = _scene(scarce=True)
    assert st.champion_cost(s, "foot", 0) == 200 and st.champion_cost(s, "foot", 1) == 150
    add_hero(s, "valcor", (0, 0))
    s["coins"] = [50] * 26
    enemy.end_wave(s, [])
    assert s["gold"] == 50 * 1  # 1 player + wave 1 − 1


def test_ettin_monsters_hit_one_better() -> None:
    for ettin, hp in ((False, 20), (True, 20 - 1)):
        s = _scene(ettin=ettin)
        orc = add_monster(s, "orc_warrior", 20)  # +4 against Dodge 13
        valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
        enemy._attack(s, Dice(8), [], orc, moved=0)  # 12, or 13 with Ettin
        assert valcor["hp"] == hp
