"""Attacks: the rulebook's worked example (T-01) and the digest's derived cases T-02..T-04, T-07, T-08, T-09."""

from __future__ import annotations

from typing import cast

import pytest

from rules.base import Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.combat import damage_total
from rules.guerra_de_indagar.state import Attack, State

from .helpers import clear_board, dice, lab, my_turn, put, started


def duel(resources: int = 0) -> State:
    """Trish (seat 0, Arkland) and Marcos (seat 1, Sect); neither Ariane nor Zhuan is a commander. With no
    resources nobody can pay for an ability, so no boost window opens unless spirits are held."""
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    for player in s["players"]:
        player["res"] = {"gold": resources, "wood": resources, "mineral": resources}
    put(s, "ariane", "-1,0")
    put(s, "zhuan", "-1,1")
    put(s, "sunjun", "0,1")
    return s


def test_t01_the_rulebook_example_with_flaming_sword_and_undead_immunity(monkeypatch: pytest.MonkeyPatch) -> None:
    s = my_turn(duel(resources=2), 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [3], [2, 2], [2]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        assert s["attack"]["a"] == [1, 1, 2]  # 4: "definitely needs help"
        s = GAME.apply(s, 0, Action.of("ability", id="flaming_sword")).state  # pays 1 gold + 1 mineral
        assert s["attack"]["a"] == [1, 1, 2, 3] and s["attack"]["min"] == 2
        assert s["players"][0]["res"] == {"gold": 1, "wood": 2, "mineral": 1}
        assert not GAME.is_legal(s, 0, Action.of("ability", id="flaming_sword"))  # once per turn
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
        assert s["attack"]["d"] == [2, 2]
        # Marcos uses Sun Jun's always-available ability on Trish's turn; Trish can add nothing now.
        assert GAME.legal_actions(s, 0) == [] and GAME.to_act(s) == frozenset({1})
        s = GAME.apply(s, 1, Action.of("ability", id="undead_immunity")).state
        assert s["attack"]["d"] == [2, 2, 2] and s["players"][1]["res"]["mineral"] == 1
        s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 2  # max(7 - 6, 2): the minimum damage, not 1
    assert s["last_ability"] == 1  # the Spirit Walker's memory: the last player who used an ability
    s = GAME.apply(s, 1, Action.of("fall_back", to=lab(s, "-2,2"))).state
    assert s["heroes"]["ariane"]["xp"] == 1 and s["heroes"]["zhuan"]["xp"] == 0
    assert {la.action.kind for la in GAME.legal_actions(s, 0)} == {"charge", "stay"}


def test_t01a_without_undead_immunity_three_damage(monkeypatch: pytest.MonkeyPatch) -> None:
    s = my_turn(duel(resources=2), 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [3], [2, 2]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        s = GAME.apply(s, 0, Action.of("ability", id="flaming_sword")).state
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
        s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 3
    assert s["used"] == ["flaming_sword"]
    s = GAME.apply(s, 1, Action.of("fall_back", to=lab(s, "-2,2"))).state
    s = GAME.apply(s, 0, Action.of("stay")).state
    s = GAME.apply(s, 0, Action.of("end")).state
    assert s["used"] == []  # usable again in a later turn


def test_t05_ignore_beats_minimum_damage() -> None:
    # Deliberately partial attacks: only the keys damage_total reads.
    att = {"a": [3], "d": [5], "extra": 0, "min": 2, "ignore": 1}
    assert damage_total(cast(Attack, att)) == 1
    assert damage_total(cast(Attack, {**att, "min": 0, "extra": 1})) == 0  # additional damage only on a hit
    assert damage_total(cast(Attack, {"a": [4], "d": [1], "extra": 1, "min": 0, "ignore": 0})) == 4


def test_t01_attack_fall_back_xp_and_charge(monkeypatch: pytest.MonkeyPatch) -> None:
    s = my_turn(duel(), 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [1, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["heroes"]["zhuan"]["dmg"] == 3
    # Zhuan took >= 2: Marcos must move him, a decision with a default that the table can play.
    assert GAME.to_act(s) == frozenset({1})
    decision = GAME.decisions(s)[0]
    assert decision.seat == 1 and decision.default.kind == "fall_back"
    assert GAME.timeout_action(s, 1) == decision.default
    s = GAME.apply(s, 1, Action.of("fall_back", to=lab(s, "-2,2"))).state
    assert s["heroes"]["zhuan"]["at"] == "-2,2"
    assert s["heroes"]["ariane"]["xp"] == 1 and s["heroes"]["zhuan"]["xp"] == 0
    # Trish may charge into the freed tile at no movement cost.
    assert {la.action.kind for la in GAME.legal_actions(s, 0)} == {"charge", "stay"}
    moves_left = s["act"]["mv"]
    s = GAME.apply(s, 0, Action.of("charge")).state
    assert s["heroes"]["ariane"]["at"] == "-1,1" and s["act"]["mv"] == moves_left
    assert s["act"]["acted"] and not any(la.action.kind == "attack" for la in GAME.legal_actions(s, 0))


def test_t01_attacker_window_closes_when_the_defender_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["players"][0]["spirits"], s["players"][1]["spirits"] = 2, 1
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [3, 0], [2, 2], [2, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        # RULING-07: spirits may also buy resources or a point inside the window (no resources to trade here)
        assert {la.action.kind for la in GAME.legal_actions(s, 0)} == {"spirit_dice", "roll_defence", "spirit_res",
                                                                       "spirit_pp"}
        s = GAME.apply(s, 0, Action.of("spirit_dice")).state  # 2 extra attack dice: 4 + 3 = 7
        assert s["attack"]["a"] == [1, 1, 2, 3, 0]
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
        # Marcos defends out of turn; Trish can add nothing any more.
        assert GAME.to_act(s) == frozenset({1}) and GAME.legal_actions(s, 0) == []
        assert not GAME.is_legal(s, 0, Action.of("spirit_dice"))
        assert GAME.decisions(s)[0].default == Action.of("done")
        s = GAME.apply(s, 1, Action.of("spirit_dice")).state  # 4 + 2 = 6
        s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 1  # 7 - 6
    assert s["heroes"]["ariane"]["xp"] == 0 and s["heroes"]["zhuan"]["xp"] == 0  # neither succeeded
    assert s["pending"] == [] and GAME.to_act(s) == frozenset({0})


def test_t01b_retreat_gives_three_xp_and_a_commander_point(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["players"][1]["commander"] = "zhuan"
    s["heroes"]["zhuan"]["dmg"] = 7 - 2
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [0, 0, 0]):  # commander: 3 defence dice
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["heroes"]["zhuan"]["at"] is None and s["heroes"]["zhuan"]["dmg"] == 0
    assert s["heroes"]["ariane"]["xp"] == 0 and s["heroes"]["ariane"]["levels"] == [""]  # 3 XP: level 1
    assert s["players"][0]["pp"] == 1
    assert GAME.to_act(s) == frozenset({0}) and s["pending"][0]["kind"] == "level_up"


def test_t02_outpost_absorbs_first_and_is_destroyed(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["tiles"]["-1,1"]["t"] = "wood"
    s["outposts"]["-1,1"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    s["players"][0]["res"]["wood"] = 0
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [3, 3, 2], [1, 1, 1]):  # the hero's 2 dice plus the outpost's 1
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    assert "-1,1" not in s["outposts"]
    assert s["players"][0]["res"]["wood"] == 1  # the outpost's level in the tile's resource
    assert s["heroes"]["zhuan"]["dmg"] == 5 - 3  # 8 - 3 = 5: the outpost absorbed 3
    assert s["pending"][0]["kind"] == "fall_back"


def test_t03_degrade_without_fall_back_capture_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["tiles"]["-1,1"]["t"] = "gold"
    s["outposts"]["-1,1"] = {"owner": 1, "level": 2, "dmg": 0, "dropped": False}
    s["players"][0]["res"]["gold"] = 0
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [3, 3, 3], [1, 1, 1, 1]):  # 9 - 4 = 5
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["outposts"]["-1,1"]["level"] == 1 and s["heroes"]["zhuan"]["dmg"] == 1
    options = {la.action.get("choice") for la in GAME.legal_actions(s, 0)}
    assert options == {"leave", "destroy"}  # RULING-27: an enemy hero still stands there
    s = GAME.apply(s, 0, Action.of("degrade", choice="destroy")).state
    assert "-1,1" not in s["outposts"] and s["players"][0]["res"]["gold"] == 2
    assert s["heroes"]["ariane"]["xp"] == 1
    assert s["pending"] == [] and s["heroes"]["ariane"]["at"] == "-1,0"  # no Charge: the tile is not free


def test_t04_capture_a_lone_level_three_outpost(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["heroes"]["zhuan"]["at"] = None
    s["tiles"]["-1,1"]["t"] = "mineral"
    s["outposts"]["-1,1"] = {"owner": 1, "level": 3, "dmg": 0, "dropped": False}
    s = my_turn(s, 0, "ariane")
    assert (GAME.view(s, None)["players"][0]["pp"], GAME.view(s, None)["players"][1]["pp"]) == (0, 1)
    with dice(monkeypatch, [3, 3, 2], [1, 1, 1]):  # 8 - 3 = 5: resistance 5 reached
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    s = GAME.apply(s, 0, Action.of("degrade", choice="capture")).state
    assert s["outposts"]["-1,1"]["owner"] == 0 and s["outposts"]["-1,1"]["level"] == 2
    assert (GAME.view(s, None)["players"][0]["pp"], GAME.view(s, None)["players"][1]["pp"]) == (1, 0)
    assert s["outposts"]["-1,1"]["dropped"]  # it takes no more damage this turn
    s = GAME.apply(s, 0, Action.of("charge")).state  # its own outpost now: free for Ariane
    assert s["heroes"]["ariane"]["at"] == "-1,1"


def test_t07_flanking_counts_friends_adjacent_to_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    put(s, "paladin", "-2,1")  # adjacent to Zhuan and to Ariane
    put(s, "knight", "-1,2")  # adjacent to Zhuan only
    s["heroes"]["sunjun"]["at"] = None
    put(s, "sunjun", "1,1")
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [0, 0, 0, 0, 0], [0, 0]):  # 3 + 2 flanking
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state


def test_t08_fall_back_into_a_hidden_mountain(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["players"][1]["commander"] = "zhuan"
    s["tiles"]["-2,2"].update({"t": "mountain", "up": False})
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 0], [0, 0, 0]):  # 2 damage: Zhuan must fall back
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    s = GAME.apply(s, 1, Action.of("fall_back", to=lab(s, "-2,2"))).state
    assert s["tiles"]["-2,2"]["up"] and s["heroes"]["zhuan"]["at"] is None
    assert s["heroes"]["ariane"]["xp"] == 1 and s["players"][0]["pp"] == 0


def test_t09_outpost_damage_is_discarded_at_the_end_of_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["heroes"]["zhuan"]["at"] = None
    s["tiles"]["-1,1"]["t"] = "gold"
    s["outposts"]["-1,1"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 1], [1]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["outposts"]["-1,1"]["dmg"] == 2
    s = GAME.apply(s, 0, Action.of("end")).state
    assert s["outposts"]["-1,1"]["dmg"] == 0
