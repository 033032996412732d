"""Exploring and tiles [digest §1.4, §3.4-3.5, §8]: private peeks, reveals and their effects, mud and swamp."""

from __future__ import annotations

import json

import pytest

from rules.base import Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import hero_attack, retreat_hero
from tools.playout import leaks

from .helpers import activation, clear_board, dice, lab, my_turn, put, started


def explorer(kind: str) -> State:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    put(s, "ariane", "-1,0")
    s["tiles"]["-1,1"].update({"t": kind, "up": False})
    return my_turn(s, 0, "ariane")


def test_a_peek_is_seen_by_the_explorer_only_and_may_stay_hidden() -> None:
    s = explorer("mountain")
    secret = f"{lab(s, '-1,1')}=mountain"
    assert GAME.secret_tokens(s)[secret] == frozenset()
    step = GAME.apply(s, 0, Action.of("explore", to=lab(s, "-1,1")))
    s = step.state
    assert not step.undoable and s["act"]["mv"] == 2
    private = [e for e in step.events if e.msg.key == "gi.ev.peek"]
    assert len(private) == 1 and private[0].to == frozenset({0})
    assert GAME.secret_tokens(s)[secret] == frozenset({0})
    assert secret in GAME.view(s, 0)["peeks"]
    for viewer in (None, 1):
        assert secret not in json.dumps(GAME.view(s, viewer))
    assert leaks(GAME, s, step.events) == []
    assert {la.action.kind for la in GAME.legal_actions(s, 0)} == {"reveal", "keep_hidden"}
    s = GAME.apply(s, 0, Action.of("keep_hidden")).state
    tile = next(t for t in GAME.view(s, 1)["tiles"] if t["at"] == lab(s, "-1,1"))
    assert tile["type"] is None
    # Moving into the (known) mountain: revealed, the step is spent and Ariane stays.
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["tiles"]["-1,1"]["up"] and s["heroes"]["ariane"]["at"] == "-1,0" and s["act"]["mv"] == 1
    assert secret not in GAME.secret_tokens(s)


def test_revealing_a_spirit_cache_pays_the_revealer() -> None:
    s = explorer("spirits")
    s = GAME.apply(s, 0, Action.of("explore", to=lab(s, "-1,1"))).state
    s = GAME.apply(s, 0, Action.of("reveal")).state
    assert s["tiles"]["-1,1"]["up"] and s["players"][0]["spirits"] == 2


def test_a_cache_token_goes_on_a_hero_of_the_players_choice_and_is_lost_in_retreat() -> None:
    s = explorer("weapons")
    put(s, "knight", "2,0")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["heroes"]["ariane"]["at"] == "-1,1"
    decision = GAME.decisions(s)[0]
    assert decision.seat == 0 and decision.default == Action.of("cache", hero="ariane")  # RULING-04
    assert {la.action.get("hero") for la in GAME.legal_actions(s, 0)} == {"ariane", "knight"}
    s = GAME.apply(s, 0, Action.of("cache", hero="knight")).state
    assert s["heroes"]["knight"]["cache"] == ["attack"] and s["heroes"]["ariane"]["cache"] == []
    assert hero_attack(s, "knight") == 4
    retreat_hero(s, "knight", [])
    assert s["heroes"]["knight"]["cache"] == []


def test_charge_step_only_toward_a_target_and_then_an_attack_is_owed(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    put(s, "ariane", "-1,0")  # Charge!
    put(s, "zhuan", "-1,2")
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}  # no boost window
    s = my_turn(s, 0, "ariane")
    activation(s)["mv"] = 0
    steps = {la.action.get("to") for la in GAME.legal_actions(s, 0) if la.action.kind == "charge_step"}
    assert steps == {lab(s, "-1,1")}  # the only free tile next to both
    s = GAME.apply(s, 0, Action.of("charge_step", to=lab(s, "-1,1"))).state
    kinds = {la.action.kind for la in GAME.legal_actions(s, 0)}
    assert "attack" in kinds and "end" not in kinds and "charge_step" not in kinds and "move" not in kinds
    with dice(monkeypatch, [0, 0, 0], [0, 0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,2"))).state
    assert "end" in {la.action.kind for la in GAME.legal_actions(s, 0)}


def test_leaving_the_maelstrom_is_decided_by_the_last_player_in_play_order() -> None:
    s = explorer("maelstrom")
    s["tiles"]["-1,1"]["up"] = True
    s["heroes"]["ariane"]["at"] = "-1,1"
    s["order"] = [0, 1]
    s["tiles"]["-2,2"].update({"t": "mountain", "up": False})
    kinds = {la.action.kind for la in GAME.legal_actions(s, 0)}
    assert "leave_maelstrom" in kinds and "move" not in kinds  # RULING-15
    s = GAME.apply(s, 0, Action.of("leave_maelstrom")).state
    assert GAME.to_act(s) == frozenset({1}) and GAME.decisions(s)[0].seat == 1
    s = GAME.apply(s, 1, Action.of("maelstrom", to=lab(s, "-2,2"))).state  # a hidden mountain: retreat
    assert s["heroes"]["ariane"]["at"] is None and s["act"] is None


def test_the_portal_swaps_with_any_hero_but_an_enemy_on_an_outpost() -> None:
    s = explorer("portal")
    s["tiles"]["-1,1"]["up"] = True
    s["heroes"]["ariane"]["at"] = "-1,1"
    put(s, "zhuan", "2,0")
    put(s, "sunjun", "2,-2")
    s["outposts"]["2,-2"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    s["tiles"]["2,-2"]["t"] = "gold"
    targets = {la.action.get("to") for la in GAME.legal_actions(s, 0) if la.action.kind == "portal"}
    assert lab(s, "2,0") in targets and lab(s, "2,-2") not in targets
    s = GAME.apply(s, 0, Action.of("portal", to=lab(s, "2,0"))).state
    assert s["heroes"]["ariane"]["at"] == "2,0" and s["heroes"]["zhuan"]["at"] == "-1,1" and s["act"]["mv"] == 0


def test_abandoned_outposts_become_the_revealers_outpost() -> None:
    s = explorer("abandoned")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["outposts"]["-1,1"]["owner"] == 0 and s["heroes"]["ariane"]["at"] == "-1,1"
    assert GAME.view(s, None)["players"][0]["pp"] == 1


def test_mud_stops_a_hero_that_enters_it_but_not_a_fast_one() -> None:
    s = explorer("mud")
    s["tiles"]["-1,1"]["up"] = True
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["act"]["mv"] == 0
    assert {la.action.kind for la in GAME.legal_actions(s, 0)} & {"move", "explore"} == set()
    s = clear_board(started(2, factions=("tribes", "sect")))
    put(s, "huntress", "-1,0")
    s["tiles"]["-1,1"]["t"] = "mud"
    s = my_turn(s, 0, "huntress")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["act"]["mv"] == 3  # Speed


def test_swamp_hurts_on_every_entry() -> None:
    s = explorer("swamp")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["heroes"]["ariane"]["dmg"] == 2 and s["act"]["mv"] == 0


def test_a_revealed_event_monster_attacks_the_revealer_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    s = explorer("kakonositel")
    with dice(monkeypatch, [0, 0, 0], [0, 0]):
        step = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1")))
    s = step.state
    assert s["monsters"]["kakonositel"]["at"] == "-1,1" and s["heroes"]["ariane"]["at"] == "-1,0"
    assert any(e.msg.key == "gi.ev.attack" for e in step.events)
    assert s["heroes"]["ariane"]["xp"] == 1  # a successful defence
    assert GAME.to_act(s) == frozenset({0}) and s["attack"] is None


def test_build_and_upgrade_pay_and_score(monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    s["tiles"]["-1,0"]["t"] = "gold"
    put(s, "paladin", "-1,0")  # Fortified
    s["players"][0]["res"] = {"gold": 3, "wood": 2, "mineral": 0}
    s = my_turn(s, 0, "paladin")
    s = GAME.apply(s, 0, Action.of("build")).state
    assert s["outposts"]["-1,0"] == {"owner": 0, "level": 1, "dmg": 0, "dropped": False}
    assert s["players"][0]["res"]["gold"] == 1 and s["heroes"]["paladin"]["xp"] == 1
    assert not any(la.action.kind == "upgrade" for la in GAME.legal_actions(s, 0))  # one action only
    assert GAME.view(s, None)["players"][0]["pp"] == 1


def test_the_sect_burns_and_does_not_build() -> None:
    s = clear_board(started(2))
    s["tiles"]["1,0"]["t"] = "gold"
    put(s, "zhuan", "1,0")
    s = my_turn(s, 1, "zhuan")
    assert not any(la.action.kind == "build" for la in GAME.legal_actions(s, 1))


def test_gather_takes_every_spirit_on_the_source() -> None:
    s = clear_board(started(2))
    s["source"] = 3
    put(s, "ariane", "0,0")
    s = my_turn(s, 0, "ariane")
    s = GAME.apply(s, 0, Action.of("gather")).state
    assert s["players"][0]["spirits"] == 3 and s["source"] == 0
    s = GAME.apply(s, 0, Action.of("spirit_pp")).state
    assert s["players"][0]["spirits"] == 1 and s["players"][0]["pp"] == 1
    s = GAME.apply(s, 0, Action.of("trade", give=["gold", "gold", "wood"], get="mineral")).state
    assert s["players"][0]["res"] == {"gold": 1, "wood": 1, "mineral": 3}


def test_an_absent_player_is_skipped_without_trading_away_their_resources() -> None:
    s = clear_board(started(2))
    put(s, "ariane", "-1,0")
    put(s, "zhuan", "-1,2")
    s = my_turn(s, 0, "ariane")
    activation(s)["mv"] = 0
    s = GAME.apply(s, 0, Action.of("charge_step", to=lab(s, "-1,1"))).state
    skip = GAME.skip_action(s, 0)
    assert skip is not None and skip.kind == "attack"


def test_a_hero_redeployed_onto_a_swamp_takes_its_damage_too() -> None:
    s = clear_board(started(2))  # RULING-16: "el héroe que entre a esta loseta recibe 2 daños", every entry
    owner = s["heroes"]["paladin"]["owner"]
    spot = sorted(key for key, t in s["tiles"].items() if t["deploy"] and t["area"] == owner)[0]
    s["tiles"][spot].update({"t": "swamp", "up": True})
    s["players"][owner]["spirits"] = 0  # nothing to ignore it with
    s["pending"] = [{"kind": "redeploy", "seat": owner, "hero": "paladin"}]
    s = GAME.apply(s, owner, Action.of("redeploy", to=lab(s, spot))).state
    assert s["heroes"]["paladin"]["at"] == spot and s["heroes"]["paladin"]["dmg"] == 2
