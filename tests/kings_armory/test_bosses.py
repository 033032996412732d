"""Bosses (§6, §8.5): each card's special rule, and the general boss rules (HP scaling, unstoppable, immune to
Stun and insta-kill, stacking, holding the exit)."""

from __future__ import annotations

from rules.base import Event
from rules.kings_armory import data, enemy, figures, queries
from rules.kings_armory.board import board
from rules.kings_armory.shapes import Monster, State

from .helpers import Dice, add_hero, add_monster, lane_square, open_square_at, scene, square_of


def _final_wave(seats: int = 1) -> State:
    s = scene(seats=seats)
    s.update({"phase": "enemy", "eturn": 2, "turn": -1, "wave": 5, "waves": 5})
    return s


def _boss_enters(s: State, key: str, *rolls: int) -> tuple[Monster, list[Event]]:
    s["boss_pile"] = [key, *[k for k in s["boss_pile"] if k != key]]
    events: list[Event] = []
    enemy._boss_arrives(s, Dice(*rolls), events)
    boss = next(m for m in s["monsters"] if m["boss"])
    return boss, events


def test_boss_hp_grows_by_ten_per_player_beyond_the_first() -> None:
    for seats, hp in ((1, 60), (3, 80), (7, 120)):
        s = _final_wave(seats)
        add_hero(s, "valcor", (0, 0))
        boss, _ = _boss_enters(s, "grukk", 7)
        assert boss["hp"] == boss["max"] == hp


def test_grukk_brings_two_level_two_monsters_that_arrive_right_after_him() -> None:
    s = _final_wave()
    add_hero(s, "valcor", (0, 0))
    grukk, _ = _boss_enters(s, "grukk", 7)
    assert grukk["lane"] == "L"  # an odd roll: the left entrance; then he moved and attacked at once
    assert s["extra"] == [2, 2]
    s["act"] = None
    for _ in range(2):
        enemy.step(s, Dice(4, 4, 4, 4, 4), [])
        s["act"] = s["ask"] = None
    escort = [m for m in s["monsters"] if not m["boss"]]
    assert len(escort) == 2 and all(figures.monster_card(m)["level"] == 2 for m in escort) and s["extra"] == []


def test_vyrax_attacks_twice_and_its_claws_look_for_another_target() -> None:
    s = _final_wave()
    vyrax = add_monster(s, "vyrax", 20, boss=True)
    sq = lane_square(s, 20)
    near = add_hero(s, "valcor", open_square_at(s, sq, 1))
    other = add_hero(s, "cyrus", open_square_at(s, sq, 1, avoid=(square_of(near),)))
    enemy._attack(s, Dice(20, 20), [], vyrax, moved=0)
    hurt = [a for a in (near, other) if a["hp"] < figures.ally_card(a)["max"]]
    assert len(hurt) == 2  # Fire Breath and Claws on two different allies
    assert sum(a["st"]["burn"] for a in (near, other)) == 1  # Fire Breath burns; the Claws do not


def test_vyrax_claws_take_the_same_ally_when_it_is_the_only_one() -> None:
    s = _final_wave()
    vyrax = add_monster(s, "vyrax", 20, boss=True)
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
    enemy._attack(s, Dice(20, 20), [], vyrax, moved=0)
    assert valcor["hp"] == 20 - (12 - 0) - (10 - 2)  # crit Fire Breath 12 (SN 0), crit Claws 10 − M 2


def test_morthul_summons_a_level_one_monster_after_each_activation_that_waits_its_turn() -> None:
    s = _final_wave()
    add_hero(s, "valcor", (0, 0))
    morthul = add_monster(s, "morthul", 20, boss=True)
    events: list[Event] = []
    enemy._start(s, Dice(3, 3, 3, 3), events, morthul, upkeep=True)
    summoned = [m for m in s["monsters"] if not m["boss"]]
    assert len(summoned) == 1 and figures.monster_card(summoned[0])["level"] == 1 and summoned[0]["acted"]


def test_gorgath_regenerates_five_unless_it_carries_burn() -> None:
    s = _final_wave()
    add_hero(s, "valcor", (0, 0))
    gorgath = add_monster(s, "gorgath", 20, boss=True)
    gorgath["hp"] = 50
    gorgath["st"]["bleed"] = 1
    enemy._upkeep(s, [], gorgath)
    assert gorgath["hp"] == 50 - 1 + 5
    gorgath["st"]["burn"] = 1
    enemy._upkeep(s, [], gorgath)
    assert gorgath["hp"] == 54 - 2


def test_the_siege_colossus_hits_only_the_gate_and_stays_once_in_range() -> None:
    s = _final_wave()
    b = board(s["map"])
    last = len(b.lanes["L"]) - 1
    colossus = add_monster(s, "colossus", last - 2, boss=True)
    add_hero(s, "valcor", open_square_at(s, b.lanes["L"][last - 2], 1))
    gate = s["gate"]
    enemy._start(s, Dice(), [], colossus, upkeep=True)
    assert colossus["i"] == last - 2  # the Gate already in range: no movement
    assert s["gate"] == gate - 15 and s["allies"][0]["hp"] == 20
    assert figures.status_immune(colossus, "stun") and figures.status_immune(colossus, "bleed")


def test_nyx_lashes_the_two_highest_priority_allies() -> None:
    s = _final_wave()
    nyx = add_monster(s, "nyx", 20, boss=True)
    sq = lane_square(s, 20)
    a1 = add_hero(s, "valcor", open_square_at(s, sq, 1))
    a2 = add_hero(s, "ember", open_square_at(s, sq, 2))
    a3 = add_hero(s, "cyrus", open_square_at(s, sq, 3))
    enemy._attack(s, Dice(20, 20), [], nyx, moved=0)
    assert a1["hp"] < 20 and a2["hp"] < 14 and a3["hp"] == 16


def test_taurok_charges_for_three_more_after_moving_four_squares() -> None:
    for moved, hurt in ((3, 10 - 2), (4, 13 - 2)):
        s = _final_wave()
        taurok = add_monster(s, "taurok", 20, boss=True)
        valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
        enemy._attack(s, Dice(15), [], taurok, moved=moved)
        assert valcor["hp"] == 20 - hurt


def test_bosses_cannot_be_blocked_stunned_or_insta_killed() -> None:
    s = _final_wave()
    boss = add_monster(s, "gorgath", 20, boss=True)
    add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))["phalanx"] = True
    assert enemy.blockers(s, boss) == []
    assert figures.status_immune(boss, "stun") and figures.status_immune(boss, "instakill")


def test_a_boss_stays_stacked_and_holds_the_exit_square() -> None:
    s = _final_wave()
    add_hero(s, "valcor", (0, 0))
    b = board(s["map"])
    last = len(b.lanes["L"]) - 1
    orc = add_monster(s, "orc_warrior", 14)
    grukk = add_monster(s, "grukk", 10, boss=True)  # Mv 4: lands on the orc and stays
    enemy._start(s, Dice(), [], grukk, upkeep=False)
    assert grukk["i"] == 14 and orc["i"] == 14
    taurok = add_monster(s, "taurok", last - 2, boss=True)
    enemy._start(s, Dice(), [], taurok, upkeep=False)
    assert taurok["i"] == last and queries.monster(s, taurok["id"]) is not None  # never enters the Armory
    assert data.bosses()["taurok"]["mv"] == 5
