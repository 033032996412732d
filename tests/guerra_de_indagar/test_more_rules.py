"""More derived cases: upgrades, tile stats, Tough, spirits in defence, monster retreat and return, event monsters."""

from __future__ import annotations

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, flow
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.units import adjacent_keys, hero_attack, hero_defence

from .helpers import clear_board, dice, lab, my_turn, put, started


def test_upgrade_one_level_per_action_with_its_cost_and_fortified_xp() -> None:
    s = clear_board(started(2))
    s["tiles"]["-1,0"]["t"] = "wood"
    s["outposts"]["-1,0"] = {"owner": 0, "level": 2, "dmg": 0, "dropped": False}
    put(s, "paladin", "-1,0")
    s["players"][0]["res"] = {"gold": 1, "wood": 1, "mineral": 2}
    s = my_turn(s, 0, "paladin")
    s = GAME.apply(s, 0, Action.of("upgrade")).state
    assert s["outposts"]["-1,0"]["level"] == 3 and s["players"][0]["res"] == {"gold": 0, "wood": 0, "mineral": 0}
    assert s["heroes"]["paladin"]["xp"] == 2  # Fortified: 2 XP for a level-3 upgrade
    s["act"]["acted"] = False
    assert not any(la.action.kind == "upgrade" for la in GAME.legal_actions(s, 0))  # level 3 is the top


def test_mist_and_fortress_add_to_the_hero_on_them() -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"] = "paladin"
    put(s, "ariane", "-1,0")
    s["tiles"]["-1,0"]["t"] = "mist"
    assert hero_attack(s, "ariane") == 4
    s["tiles"]["-1,0"]["t"] = "fortress"
    assert hero_attack(s, "ariane") == 3 and hero_defence(s, "ariane") == 3


def test_tough_heroes_heal_two_at_round_start() -> None:
    s = clear_board(started(2, factions=("tribes", "sect")))
    for hid, k in (("warden", "-1,0"), ("shaman", "0,1"), ("huntress", "1,1"),
                   ("zhuan", "2,-2"), ("sunjun", "2,-1"), ("abomination", "1,-1")):
        put(s, hid, k)
    s["heroes"]["warden"]["dmg"] = s["heroes"]["shaman"]["dmg"] = 3
    s["phase"] = "round_start"
    s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
    while s["pending"]:
        seat = s["pending"][0]["seat"]
        s = GAME.apply(s, seat, Action.of("declare", tree="expansion" if seat == 0 else "devastation")).state
    assert (s["heroes"]["warden"]["dmg"], s["heroes"]["shaman"]["dmg"]) == (1, 2)


def test_a_spirit_ignores_three_damage_in_defence(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    for player in s["players"]:
        player["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    s["players"][1]["spirits"] = 1
    put(s, "ariane", "-1,0")
    put(s, "zhuan", "-1,1")
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [3, 3, 3], [1, 1]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        s = GAME.apply(s, 1, Action.of("spirit_ignore")).state
        s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 4 and s["players"][1]["spirits"] == 0  # 9 - 2 - 3


def test_a_primary_monster_in_retreat_returns_at_the_start_of_the_round_after_next() -> None:
    s = clear_board(started(2))
    s["monsters"] = {"helgoth": primary("helgoth", "-2,0", 0)}
    s["monsters"]["helgoth"].update({"at": None, "retreat": 1})
    s["round"] = 3
    for expected_at in (None, "-2,0"):
        s["phase"], s["pending"] = "round_start", []  # (the players' declarations are not the point here)
        s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
        assert s["monsters"]["helgoth"]["at"] == expected_at
    put(s, "ariane", "-2,0")  # the home taken: the nearest free tile instead
    s["monsters"]["helgoth"].update({"at": None, "retreat": 2})
    s["phase"], s["pending"] = "round_start", []
    s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
    assert s["monsters"]["helgoth"]["at"] in adjacent_keys(s, "-2,0")


def test_event_monsters_act_once_at_the_end_of_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"] = "paladin"
    s["monsters"] = {"groxiah": {"kind": "event", "card": "groxiah", "at": "0,-1", "dmg": 0, "home": -1, "retreat": 0,
                                 "turns": 0, "stuck": False, "count": 0, "spirits": 0, "gone": False, "order": 0}}
    put(s, "ariane", "-1,1")
    s["tiles"]["2,-2"]["t"] = "gold"
    s["outposts"]["2,-2"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}  # unoccupied: Groxiah ignores it
    s["round"], s["phase"], s["turn"] = 2, "turns", None
    flow._to_round_end(s)
    assert s["end_queue"] == ["groxiah"] and GAME.system_action(s) == Action.of("event_turn")
    with dice(monkeypatch, [0, 0, 0, 0, 0], [0, 0]):
        s = GAME.apply(s, SYSTEM, Action.of("event_turn")).state
    assert s["end_queue"] == [] and s["heroes"]["ariane"]["at"] in adjacent_keys(s, s["monsters"]["groxiah"]["at"])
    assert "2,-2" in s["outposts"]
