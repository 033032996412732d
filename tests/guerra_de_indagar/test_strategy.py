"""Strategic powers [RB p.15-16, digest §1.12 PROV-13] and the round-start declaration (§3.1, §3.8)."""

from __future__ import annotations

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import hero_defence, hero_resistance

from .helpers import clear_board, dice, lab, my_turn, put, started


def duel(tree0: str | None = None, tree1: str | None = None) -> State:
    s = clear_board(started(2, factions=("arkland", "sect")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    s["players"][0]["tree"], s["players"][1]["tree"] = tree0, tree1
    for player in s["players"]:
        player["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    return s


def test_each_player_declares_in_play_order_then_heals_and_redeploys() -> None:
    s = clear_board(started(2, factions=("arkland", "sect")))
    s["order"] = [1, 0]
    s["phase"], s["round"] = "round_start", 3
    put(s, "paladin", "1,1")
    s["heroes"]["paladin"]["dmg"] = 3
    for hid, k in (("zhuan", "2,-2"), ("sunjun", "2,-1"), ("abomination", "1,-1")):
        put(s, hid, k)
    s["players"][0]["tree"] = "merchant_crown"
    s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
    assert [p["seat"] for p in s["pending"]] == [1, 0] and GAME.to_act(s) == frozenset({1})
    s = GAME.apply(s, 1, GAME.decisions(s)[0].default).state
    decision = GAME.decisions(s)[0]
    assert decision.seat == 0 and decision.default == Action.of("declare", tree="merchant_crown")
    s = GAME.apply(s, 0, Action.of("declare", tree="priests")).state
    assert s["heroes"]["paladin"]["dmg"] == 1  # 1, and 1 more under the Priests of the Light
    assert s["pending"][0]["kind"] == "redeploy" and s["pending"][0]["seat"] == 0


def test_steel_legion_and_mutation_change_the_stats() -> None:
    s = duel("steel_legion", "mutation")
    put(s, "ariane", "0,1")
    assert hero_defence(s, "ariane") == 2
    put(s, "knight", "1,1")
    assert hero_defence(s, "ariane") == 3
    assert hero_resistance(s, "zhuan") == 8


def test_wild_lands_ignores_mud() -> None:
    s = clear_board(started(2, factions=("tribes", "sect")))
    s["players"][0]["tree"] = "wild_lands"
    put(s, "warden", "-1,0")
    s["tiles"]["-1,1"]["t"] = "mud"
    s = my_turn(s, 0, "warden")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["act"]["mv"] == 1


def test_tricks_lets_the_attacker_pick_the_fall_back_and_reaping_energy_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2, factions=("ramal", "sect")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "sorceress", "abomination"
    s["players"][0]["tree"] = "tricks"
    for player in s["players"]:
        player["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    put(s, "monarch", "-1,0")
    put(s, "zhuan", "-1,1")
    s = my_turn(s, 0, "monarch")
    with dice(monkeypatch, [1, 1, 0], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        assert s["pending"][0]["kind"] == "a_boost"  # the Monarch's Blood Pact is free to use
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
    assert s["pending"][0]["kind"] == "fall_back" and GAME.to_act(s) == frozenset({0})
    s = clear_board(started(2, factions=("arkland", "sect")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "zhuan"
    s["players"][0]["tree"], s["players"][1]["tree"] = None, "reaping_energy"
    put(s, "abomination", "-1,0")
    put(s, "ariane", "-1,1")
    s["heroes"]["ariane"]["dmg"] = 5
    s["players"][1]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    s = my_turn(s, 1, "abomination")
    with dice(monkeypatch, [1, 0, 0, 0], [0, 0]):
        s = GAME.apply(s, 1, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["heroes"]["ariane"]["at"] is None and s["pending"][0]["kind"] == "reap"
    s = GAME.apply(s, 1, Action.of("reap", get=["gold", "mineral"])).state
    assert s["players"][1]["res"] == {"gold": 1, "wood": 0, "mineral": 1}


def test_ancestors_add_one_xp_to_a_success(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2, factions=("tribes", "sect")))
    s["players"][0]["tree"] = "ancestors"
    for player in s["players"]:
        player["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    put(s, "huntress", "-1,0")
    put(s, "sunjun", "-1,1")
    s = my_turn(s, 0, "huntress")
    s["players"][1]["commander"] = "zhuan"
    with dice(monkeypatch, [1, 1, 1], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    s = GAME.apply(s, 1, GAME.decisions(s)[0].default).state  # Sun Jun falls back
    assert s["heroes"]["huntress"]["xp"] == 2


def test_devastation_scores_the_first_destroyed_outpost_of_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel(None, "devastation")
    for k, kind in (("-1,1", "gold"), ("-2,1", "wood")):
        s["tiles"][k]["t"] = kind
        s["outposts"][k] = {"owner": 0, "level": 1, "dmg": 0, "dropped": False}
    put(s, "abomination", "-1,0")
    s = my_turn(s, 1, "abomination")
    with dice(monkeypatch, [3, 3, 0, 0], [0]):
        s = GAME.apply(s, 1, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["players"][1]["pp"] == 1 and "-1,1" not in s["outposts"]
    assert s["players"][1]["res"]["gold"] == 1  # the destroyed outpost's level in its resource
    s["players"][1]["res"]["gold"] = 0  # (no Rend window in the way)
    s["act"]["acted"] = False  # a second destruction the same round scores nothing more
    s = GAME.apply(s, 1, Action.of("stay")).state if s["pending"] else s
    with dice(monkeypatch, [3, 3, 0, 0], [0]):
        s = GAME.apply(s, 1, Action.of("attack", to=lab(s, "-2,1"))).state
    assert s["players"][1]["pp"] == 1 and "-2,1" not in s["outposts"]


def test_shadow_steps_first_gathering_of_the_round_scores() -> None:
    s = clear_board(started(2, factions=("ramal", "sect")))
    s["players"][0]["tree"] = "shadow_steps"
    s["source"] = 1
    put(s, "monarch", "0,0")
    s = my_turn(s, 0, "monarch")
    s = GAME.apply(s, 0, Action.of("gather")).state
    assert s["players"][0]["pp"] == 1 and "shadow_steps" in s["players"][0]["flags"]


def test_merchant_crown_and_expansion_score_at_round_end() -> None:
    s = clear_board(started(2, factions=("arkland", "tribes")))
    s["players"][0]["tree"], s["players"][1]["tree"] = "merchant_crown", "expansion"
    spots = ["-1,1", "0,1", "1,1", "-2,2", "-1,2"]
    for i, k in enumerate(spots):
        s["tiles"][k]["t"] = "gold"
        s["outposts"][k] = {"owner": 0 if i < 3 else 1, "level": 2 if i < 3 else 1, "dmg": 0, "dropped": False}
    s["phase"], s["round"], s["end_queue"], s["window"] = "round_end", 4, [], True
    s = GAME.apply(s, SYSTEM, Action.of("round_end")).state
    assert s["players"][0]["pp"] == 1  # three level-2 outposts
    assert s["players"][1]["pp"] == 0  # 2 outposts are not more than 3


def test_blood_magic_once_per_attack_never_into_retreat(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2, factions=("ramal", "sect")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "sorceress", "abomination"
    s["players"][0]["tree"] = "blood_magic"
    for player in s["players"]:
        player["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    put(s, "assassin", "-1,0")
    put(s, "zhuan", "-1,1")
    s = my_turn(s, 0, "assassin")
    with dice(monkeypatch, [0, 0, 0], [2], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        s = GAME.apply(s, 0, Action.of("blood_magic")).state
        assert s["heroes"]["assassin"]["dmg"] == 1 and s["attack"]["a"] == [0, 0, 0, 2]
        assert not GAME.is_legal(s, 0, Action.of("blood_magic"))
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
    s["heroes"]["assassin"]["dmg"] = 4
    assert hero_resistance(s, "assassin") == 5
