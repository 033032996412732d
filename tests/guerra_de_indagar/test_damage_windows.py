"""Defending and ignoring damage everywhere the rules allow: event monsters' attacks on the defender's own turn and
at the round's end, damage outside attacks (abilities, the swamp) with its ignore window, and Maelstrom exits."""

from __future__ import annotations

import json

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import BOOST_SECONDS, GAME, flow
from rules.guerra_de_indagar.invariants import check
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import adjacent_keys, hero_defence
from tools.playout import leaks

from .helpers import clear_board, dice, hero_at, lab, my_turn, put, started

NOTHING = {"gold": 0, "wood": 0, "mineral": 0}


def answers(s: State, seat: int) -> list[Action]:
    return [la.action for la in GAME.legal_actions(s, seat)]


def ability_ids(s: State, seat: int) -> set[str]:
    return {str(a["id"]) for a in answers(s, seat) if a.kind == "ability"}


# ---------------------------------------------------------------- event monsters against a defender


def sect_reveals(kind: str = "kakonositel") -> State:
    """Seat 1's Zhuan (Mutation in play, Monstrous Form unlocked) is active next to a face-down event monster;
    Sun Jun stands beside him."""
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    s["players"][1].update({"tree": "mutation", "unlocks": {"monstrous_form": "coin"}})
    put(s, "zhuan", "-1,0")
    put(s, "sunjun", "-2,0")
    s["tiles"]["-1,1"].update({"t": kind, "up": False})
    return my_turn(s, 1, "zhuan")


def test_an_event_monster_revealed_on_the_defenders_turn_lets_the_active_hero_defend_with_its_boosts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = sect_reveals()
    with dice(monkeypatch, [3, 3, 2], [1, 1]):
        s = GAME.apply(s, 1, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["pending"][0] == {"kind": "d_boost", "seat": 1} and s["attack"]["by"] == ["monster", "kakonositel"]
    # Digest §6.3: on its own turn the defender may use its active hero's boosts (Monstrous Form's +1 defence, the
    # tree's) besides the always-available ones (Sun Jun's Undead Immunity, adjacent).
    assert ability_ids(s, 1) == {"monstrous_form", "undead_immunity"}
    with dice(monkeypatch, [3]):
        s = GAME.apply(s, 1, Action.of("ability", id="monstrous_form", save="gold")).state
    assert s["attack"]["a"] == [3, 3, 2] and s["attack"]["d"] == [1, 1, 3]  # only its defending part counts
    assert s["players"][1]["res"]["mineral"] == 2 - 1 and s["mods"]["hero:zhuan"] == {"defence": 1}
    assert "monstrous_form" not in ability_ids(s, 1)  # once per turn
    s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 8 - 5
    assert hero_defence(s, "zhuan") == 2 + 1  # for the rest of the turn
    assert check(s) == []


def test_a_hero_attacked_on_someone_elses_turn_has_no_active_boosts() -> None:
    s = sect_reveals()
    s["heroes"]["zhuan"]["at"], s["act"] = "-1,0", None
    put(s, "ariane", "-1,-1" if "-1,-1" in s["tiles"] else "0,-1")
    s = my_turn(s, 0, "ariane")
    s["players"][1]["spirits"] = 1
    s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,0"))).state
    while s["pending"][0]["kind"] == "a_boost":
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
    assert s["pending"][0]["kind"] == "d_boost"
    assert ability_ids(s, 1) == {"undead_immunity"}


def test_an_event_monsters_round_end_attack_gets_every_defence_boost_of_the_defender(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    s["players"][1].update({"tree": "mutation", "unlocks": {"monstrous_form": "coin"}, "spirits": 1})
    s["monsters"] = {"groxiah": {"kind": "event", "card": "groxiah", "at": "0,-1", "dmg": 0, "home": -1,
                                 "retreat": 0, "turns": 0, "stuck": False, "count": 0, "spirits": 0, "gone": False,
                                 "order": 0}}
    put(s, "zhuan", "0,0" if s["tiles"]["0,0"]["t"] != "source" else "1,-1")
    target = hero_at(s, "zhuan")
    mate = next(k for k in adjacent_keys(s, target) if k != "0,-1" and s["tiles"][k]["t"] != "source")
    put(s, "sunjun", mate)
    s["heroes"]["sunjun"]["levels"] = ["shield", "shield"]  # Veil of Shadows (ignore 2, range 2)
    s["round"], s["phase"], s["turn"] = 2, "turns", None
    flow._to_round_end(s)
    with dice(monkeypatch, [1, 1, 1, 1, 2], [0, 0]):
        s = GAME.apply(s, SYSTEM, Action.of("event_turn")).state
    assert s["pending"][0] == {"kind": "d_boost", "seat": 1}
    assert ability_ids(s, 1) == {"undead_immunity", "veil_of_shadows"}  # not an own-turn boost
    kinds = {a.kind for a in answers(s, 1)}
    assert {"spirit_dice", "spirit_ignore", "done"} <= kinds
    [decision] = GAME.decisions(s)
    assert decision.private and decision.seconds == BOOST_SECONDS and decision.default == Action.of("done")
    s = GAME.apply(s, 1, Action.of("ability", id="veil_of_shadows")).state
    s = GAME.apply(s, 1, Action.of("spirit_ignore")).state
    s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 6 - 5  # 6 against 0, less 2 and 3 ignored


def test_an_event_monster_on_an_outposts_defender_adds_the_outpost_and_its_boosts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    s["players"][0].update({"tree": "steel_legion", "unlocks": {"bulwark": "bolt"}})
    s["tiles"]["-1,0"]["t"] = "gold"
    s["outposts"]["-1,0"] = {"owner": 0, "level": 2, "dmg": 0, "dropped": False}
    put(s, "ariane", "-1,0")
    s["monsters"] = {"groxiah": {"kind": "event", "card": "groxiah", "at": "-1,1", "dmg": 0, "home": -1,
                                 "retreat": 0, "turns": 0, "stuck": False, "count": 0, "spirits": 0, "gone": False,
                                 "order": 0}}
    s["round"], s["phase"], s["turn"] = 2, "turns", None
    flow._to_round_end(s)
    with dice(monkeypatch, [2, 2, 2, 1, 1], [1, 1, 1, 1]):  # Ariane 2 + the level-2 outpost's 2
        s = GAME.apply(s, SYSTEM, Action.of("event_turn")).state
    assert ability_ids(s, 0) == {"bulwark"}
    with dice(monkeypatch, [1, 1, 1]):  # +2, +1 for the bolt
        s = GAME.apply(s, 0, Action.of("ability", id="bulwark")).state
    s = GAME.apply(s, 0, Action.of("done")).state
    assert s["last_dice"]["damage"] == 8 - 7  # the outpost absorbs it
    assert s["outposts"]["-1,0"]["level"] == 2 and s["heroes"]["ariane"]["dmg"] == 0


# ---------------------------------------------------------------- ignoring damage outside attacks


def test_swamp_damage_can_be_ignored_by_an_always_available_ability() -> None:
    s = clear_board(started(2, factions=("tribes", "sect")))
    s["players"][0]["commander"] = "shaman"
    put(s, "warden", "-1,0")
    s["heroes"]["warden"]["levels"] = ["shield"]  # Oak Skin: ignore 1 (attack or effect)
    s["tiles"]["-1,1"]["t"] = "swamp"
    s = my_turn(s, 0, "warden")
    step = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1")))
    s = step.state
    assert s["heroes"]["warden"]["at"] == "-1,1" and s["heroes"]["warden"]["dmg"] == 0
    assert s["pending"][0]["kind"] == "ignore" and GAME.to_act(s) == frozenset({0})
    assert any(e.msg.key == "gi.ev.incoming" for e in step.events)
    [decision] = GAME.decisions(s)
    assert decision.default == Action.of("done") and decision.seconds == BOOST_SECONDS
    assert ability_ids(s, 0) == {"oak_skin"} and "spirit_ignore" not in {a.kind for a in answers(s, 0)}
    step = GAME.apply(s, 0, Action.of("ability", id="oak_skin"))
    s = step.state
    assert s["pending"] == [] and s["heroes"]["warden"]["dmg"] == 2 - 1 and s["players"][0]["res"]["wood"] == 1
    assert [e.msg.key for e in step.events if e.msg.key in ("gi.ev.ignored", "gi.ev.swamp")] == \
        ["gi.ev.ignored", "gi.ev.swamp"]
    assert check(s) == []


def test_without_a_way_to_ignore_the_damage_lands_at_once() -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"] = "paladin"
    put(s, "ariane", "-1,0")
    s["tiles"]["-1,1"]["t"] = "swamp"
    s = my_turn(s, 0, "ariane")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["pending"] == [] and s["heroes"]["ariane"]["dmg"] == 2


def arrow_at_zhuan(spirits: int = 0, commander: str = "zhuan") -> State:
    """Seat 0's Huntress (level 1: Arrow, 1 damage in range 3) aims at seat 1's hurt Zhuan (level 1: Mutated
    Flesh, ignore 1)."""
    s = clear_board(started(2, factions=("tribes", "sect")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "shaman", commander
    s["players"][1]["spirits"] = spirits
    put(s, "huntress", "-1,0")
    put(s, "zhuan", "-1,2")
    s["heroes"]["huntress"]["levels"] = ["sword"]
    s["heroes"]["zhuan"].update({"levels": ["shield"], "dmg": 6})
    return my_turn(s, 0, "huntress")


def test_ability_damage_opens_the_victims_window_and_mutated_flesh_ignores_it() -> None:
    s = arrow_at_zhuan()
    s = GAME.apply(s, 0, Action.of("skill", id="arrow", to=lab(s, "-1,2"))).state
    assert s["pending"][0]["kind"] == "ignore" and GAME.to_act(s) == frozenset({1})
    assert ability_ids(s, 1) == {"mutated_flesh"}
    s = GAME.apply(s, 1, Action.of("ability", id="mutated_flesh")).state
    assert s["heroes"]["zhuan"]["at"] == "-1,2" and s["heroes"]["zhuan"]["dmg"] == 6 and s["players"][0]["pp"] == 0
    assert GAME.to_act(s) == frozenset({0}) and s["act"]["hero"] == "huntress"


def test_an_ignored_window_left_to_its_default_still_scores_the_commander() -> None:
    s = arrow_at_zhuan(spirits=1)
    s = GAME.apply(s, 0, Action.of("skill", id="arrow", to=lab(s, "-1,2"))).state
    assert GAME.timeout_action(s, 1) == Action.of("done")
    s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["at"] is None and s["players"][0]["pp"] == 1  # RULING-25


def test_a_spirit_ignores_three_damage_outside_an_attack() -> None:
    s = arrow_at_zhuan(spirits=2)
    s["heroes"]["zhuan"]["levels"] = []
    s = GAME.apply(s, 0, Action.of("skill", id="arrow", to=lab(s, "-1,2"))).state
    assert ability_ids(s, 1) == set()
    s = GAME.apply(s, 1, Action.of("spirit_ignore")).state
    assert s["pending"] == [] and s["players"][1]["spirits"] == 1 and s["heroes"]["zhuan"]["dmg"] == 6


def test_shield_of_light_speaks_of_the_attack_under_way_only() -> None:
    s = clear_board(started(2, factions=("tribes", "arkland")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "shaman", "knight"
    put(s, "huntress", "-1,0")
    put(s, "ariane", "-1,2")
    put(s, "paladin", "-2,2")
    s["heroes"]["huntress"]["levels"] = ["sword"]
    s["heroes"]["paladin"]["levels"] = ["shield"]
    s["players"][1].update({"tree": "priests", "unlocks": {"blessing": "bolt"}})
    s = my_turn(s, 0, "huntress")
    s = GAME.apply(s, 0, Action.of("skill", id="arrow", to=lab(s, "-1,2"))).state
    assert ability_ids(s, 1) == {"blessing"}  # a tree's "ignores 2* damage" answers any damage
    s = GAME.apply(s, 1, Action.of("ability", id="blessing")).state
    assert s["pending"] == [] and s["heroes"]["ariane"]["dmg"] == 0 and s["players"][1]["res"]["mineral"] == 0


def test_wild_storm_asks_each_owner_in_turn_and_hurts_the_rest_at_once() -> None:
    s = clear_board(started(2, factions=("tribes", "sect")))
    s["players"][0].update({"commander": "huntress", "tree": "wild_lands", "unlocks": {"wild_storm": "coin"}})
    s["players"][1]["commander"] = "abomination"
    put(s, "shaman", "-1,0")
    put(s, "warden", "0,1")
    put(s, "zhuan", "-1,2")
    put(s, "sunjun", "1,1")
    s["heroes"]["warden"]["levels"] = ["shield"]
    s["heroes"]["zhuan"]["levels"] = ["shield"]
    s = my_turn(s, 0, "shaman")
    s = GAME.apply(s, 0, Action.of("skill", id="wild_storm", save="wood")).state
    asked = []
    while s["pending"]:
        item = s["pending"][0]
        assert item["kind"] == "ignore" and check(s) == []
        asked.append(item["hero"])
        answer = Action.of("ability", id="mutated_flesh") if item["hero"] == "zhuan" else Action.of("done")
        s = GAME.apply(s, item["seat"], answer).state
    assert sorted(asked) == ["warden", "zhuan"]  # the shaman and Sun Jun have nothing to ignore with
    assert {h: s["heroes"][h]["dmg"] for h in ("shaman", "warden", "zhuan", "sunjun")} == \
        {"shaman": 1, "warden": 1, "zhuan": 0, "sunjun": 1}
    assert GAME.to_act(s) == frozenset({0}) and s["act"]["hero"] == "shaman"


def test_falling_back_into_a_swamp_asks_the_defender_before_the_attack_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    s["players"][1]["spirits"] = 1
    put(s, "ariane", "-1,0")
    put(s, "zhuan", "-1,1")
    s["tiles"]["-1,2"]["t"] = "swamp"
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [2, 2, 1], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
    s = GAME.apply(s, 1, Action.of("done")).state  # the defence window: no boost
    assert s["pending"][0]["kind"] == "fall_back" and s["heroes"]["zhuan"]["dmg"] == 5
    s = GAME.apply(s, 1, Action.of("fall_back", to=lab(s, "-1,2"))).state
    assert s["pending"][0]["kind"] == "ignore" and s["attack"] is not None
    s = GAME.apply(s, 1, Action.of("spirit_ignore")).state  # 2 more would have sent him to retreat
    assert s["heroes"]["zhuan"]["at"] == "-1,2" and s["heroes"]["zhuan"]["dmg"] == 5
    assert s["pending"][0]["kind"] == "charge"  # the attack goes on


# ---------------------------------------------------------------- the Maelstrom's last player


@pytest.mark.parametrize(("order", "tree", "chooser"), [([1, 0], None, 0), ([0, 1], "tricks", 1)])
def test_falling_back_out_of_the_maelstrom_is_the_last_players_choice(
        monkeypatch: pytest.MonkeyPatch, order: list[int], tree: str | None, chooser: int) -> None:
    """[RB p.12] whoever leaves the Maelstrom: the last player in play order chooses, not the defender (seat 1)
    nor, under Tricks, the attacker (seat 0)."""
    s = clear_board(started(2, factions=("ramal", "sect")))
    s["players"][0].update({"commander": "sorceress", "tree": tree, "res": dict(NOTHING)})
    s["players"][1]["commander"] = "abomination"
    s["order"] = order
    put(s, "monarch", "-1,0")
    put(s, "zhuan", "-1,1")
    s["tiles"]["-1,1"]["t"] = "maelstrom"
    s = my_turn(s, 0, "monarch")
    with dice(monkeypatch, [3, 3, 0], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
    assert s["pending"][0] == {"kind": "maelstrom", "seat": chooser, "hero": "zhuan"}
    [decision] = GAME.decisions(s)
    assert decision.seat == chooser and decision.private and decision.seconds is not None
    assert decision.default == answers(s, chooser)[0] == GAME.timeout_action(s, chooser)
    s = GAME.apply(s, chooser, decision.default).state
    assert s["heroes"]["zhuan"]["at"] in adjacent_keys(s, "-1,1") and s["pending"][0]["kind"] == "charge"


def test_relief_out_of_the_maelstrom_lets_the_last_player_pick_the_step() -> None:
    s = clear_board(started(2, factions=("arkland", "sect")))
    s["players"][0].update({"commander": "paladin", "tree": "steel_legion", "unlocks": {"relief": "coin"}})
    s["order"] = [0, 1]
    put(s, "ariane", "-1,0")
    put(s, "knight", "-2,2")
    s["tiles"]["-2,2"]["t"] = "maelstrom"
    s = my_turn(s, 0, "ariane")
    reliefs = [a for a in answers(s, 0) if a.kind == "skill" and a["id"] == "relief"]
    assert {str(a.get("hero")) for a in reliefs} == {"knight"}
    assert [a for a in reliefs if a.get("pick")] == reliefs  # no tile named: the last player picks
    s = GAME.apply(s, 0, reliefs[0]).state
    assert s["pending"][0] == {"kind": "maelstrom", "seat": 1, "hero": "knight"}
    s = GAME.apply(s, 1, Action.of("maelstrom", to=lab(s, "-3,3"))).state
    assert s["heroes"]["knight"]["at"] == "-3,3" and s["act"]["hero"] == "ariane"


def test_relief_stops_on_a_maelstrom_it_walks_into() -> None:
    s = clear_board(started(2, factions=("arkland", "sect")))
    s["players"][0].update({"commander": "paladin", "tree": "steel_legion", "unlocks": {"relief": "bolt"}})  # 2 steps
    put(s, "ariane", "1,1")
    put(s, "knight", "-2,2")
    s["tiles"]["-1,2"]["t"] = "maelstrom"
    for k in ("-2,1", "-1,1", "-3,3", "-2,3"):  # walls: the knight's only way east is the Maelstrom
        s["tiles"][k]["t"] = "mountain"
    s = my_turn(s, 0, "ariane")
    tiles = {str(a["to"]) for a in answers(s, 0) if a.kind == "skill" and a["id"] == "relief"}
    assert tiles == {lab(s, "-1,2")}  # onto it, never through it


# ---------------------------------------------------------------- hidden information through the new paths


def test_the_maelstrom_choice_into_a_peeked_tile_leaks_nothing_and_cannot_be_undone() -> None:
    s = clear_board(started(2))
    s["players"][0]["commander"] = "paladin"
    s["order"] = [0, 1]
    put(s, "ariane", "-1,1")
    s["tiles"]["-1,1"]["t"] = "maelstrom"
    s["tiles"]["-2,2"].update({"t": "gold", "up": False})
    s["players"][1]["known"].append("-2,2")  # seat 1, the last player, has peeked at it
    s = my_turn(s, 0, "ariane")
    step = GAME.apply(s, 0, Action.of("leave_maelstrom"))
    s = step.state
    secret = f"{lab(s, '-2,2')}=gold"
    assert GAME.secret_tokens(s)[secret] == frozenset({1}) and leaks(GAME, s, step.events) == []
    for viewer in (None, 0):
        assert secret not in json.dumps(GAME.view(s, viewer))
    labels = json.dumps([la.label.to_json() for la in GAME.legal_actions(s, 1)])
    assert "gold" not in labels.lower() and "oro" not in labels.lower()
    step = GAME.apply(s, 1, Action.of("maelstrom", to=lab(s, "-2,2")))
    assert not step.undoable and step.state["heroes"]["ariane"]["at"] == "-2,2"


def test_an_ignore_window_shows_no_peeked_tile() -> None:
    s = arrow_at_zhuan()
    s["tiles"]["1,-1"].update({"t": "mountain", "up": False})
    s["players"][1]["known"].append("1,-1")
    step = GAME.apply(s, 0, Action.of("skill", id="arrow", to=lab(s, "-1,2")))
    assert step.state["pending"][0]["kind"] == "ignore" and leaks(GAME, step.state, step.events) == []
    step = GAME.apply(step.state, 1, Action.of("done"))
    assert leaks(GAME, step.state, step.events) == [] and step.undoable
