"""One test per tile type, outpost level, primacy source and monster rule that the other files left out."""

from __future__ import annotations

from typing import Literal

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, combat, flow, monsters
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import (
    adjacent_keys,
    hero_defence,
    monster_defence,
    outpost_defence,
    pieces_free,
    primacy_points,
)

from .helpers import clear_board, dice, k, lab, my_turn, put, started, victory_need


def explorer(kind: str, hero: str = "ariane") -> State:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    for player in s["players"]:
        player["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    put(s, hero, "-1,0")
    s["tiles"]["-1,1"].update({"t": kind, "up": False})
    return my_turn(s, 0, hero)


# ---------------------------------------------------------------- tile types


@pytest.mark.parametrize(("kind", "attack", "xp"), [("groxiah", 5, 5), ("kelfeerazen", 4, 4)])
def test_great_event_monsters_appear_attack_the_revealer_and_pay_their_xp(
        monkeypatch: pytest.MonkeyPatch, kind: str, attack: int, xp: int) -> None:
    s = explorer(kind)
    s = GAME.apply(s, 0, Action.of("explore", to=lab(s, "-1,1"))).state
    with dice(monkeypatch, [0] * attack, [0, 0]):  # their printed attack [RB p.17]; Ariane rolls 2
        s = GAME.apply(s, 0, Action.of("reveal")).state
    assert s["monsters"][kind]["at"] == "-1,1" and s["heroes"]["ariane"]["xp"] == 1
    s["monsters"][kind]["dmg"] = 7
    s["heroes"]["ariane"]["xp"] = 0
    with dice(monkeypatch, [3, 3, 3], [0] * (attack - 1)):  # defence = attack - 1 for both
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    assert s["monsters"][kind]["gone"]
    hero = s["heroes"]["ariane"]
    assert (len(hero["levels"]), hero["xp"]) == (1, xp - 3)  # 3 for level 1, the rest carried


def test_armour_cache_gives_a_defence_token() -> None:
    s = explorer("armour")
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert GAME.decisions(s)[0].default == Action.of("cache", hero="ariane")
    s = GAME.apply(s, 0, Action.of("cache", hero="ariane")).state
    assert s["heroes"]["ariane"]["cache"] == ["defence"] and hero_defence(s, "ariane") == 2 + 1


def test_mystic_clearing_heals_two_once_per_activation() -> None:
    s = explorer("clearing")
    s["heroes"]["ariane"]["dmg"] = 3
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert Action.of("clearing") in [la.action for la in GAME.legal_actions(s, 0)]
    s = GAME.apply(s, 0, Action.of("clearing")).state
    assert s["heroes"]["ariane"]["dmg"] == 1
    assert Action.of("clearing") not in [la.action for la in GAME.legal_actions(s, 0)]


def test_local_traitors_block_the_revealers_tree_abilities_for_the_round() -> None:
    s = explorer("traitors")
    s["players"][0].update({"tree": "merchant_crown", "unlocks": {"taxes": "bolt"}})
    assert any(la.action.get("id") == "taxes" for la in GAME.legal_actions(s, 0))
    s = GAME.apply(s, 0, Action.of("move", to=lab(s, "-1,1"))).state
    assert s["players"][0]["traitors"]
    assert not any(la.action.get("id") == "taxes" for la in GAME.legal_actions(s, 0))
    assert not s["players"][1]["traitors"]
    s["pending"], s["act"], s["phase"] = [], None, "round_start"
    s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
    assert not s["players"][0]["traitors"]  # only for the rest of that round


# ---------------------------------------------------------------- outpost levels


@pytest.mark.parametrize("level", [1, 2, 3])
def test_each_outpost_level_has_its_defence_resistance_yield_and_pieces(level: int) -> None:
    s = clear_board(started(2))
    s["tiles"]["1,1"]["t"] = "gold"
    s["outposts"]["1,1"] = {"owner": 0, "level": level, "dmg": 0, "dropped": False}
    assert outpost_defence(s, "1,1") == level  # 1 / 2 / 3
    combat.ability_hits_outpost(s, 1, "1,1", level + 1, [])  # resistance 3 / 4 / 5 minus one
    assert s["outposts"]["1,1"]["level"] == level
    combat.ability_hits_outpost(s, 1, "1,1", 1, [])
    post = s["outposts"].get("1,1")
    assert (post["level"] if post is not None else None) == (level - 1 if level > 1 else None)
    s["outposts"]["1,1"] = {"owner": 0, "level": level, "dmg": 0, "dropped": False}
    gold = s["players"][0]["res"]["gold"]
    s["round"], s["phase"] = 3, "round_end"
    flow.end_round(s, [])
    assert s["players"][0]["res"]["gold"] == gold + level  # yields its level
    spots = iter(sorted(t for t in s["tiles"] if t not in s["outposts"] and t != "0,0"))
    for _ in range({1: 6, 2: 4, 3: 2}[level] - 1):  # pieces per level [RB p.8]
        assert pieces_free(s, 0, level)
        spot = next(spots)
        s["tiles"][spot]["t"] = "mineral"
        s["outposts"][spot] = {"owner": 0, "level": level, "dmg": 0, "dropped": False}
    assert not pieces_free(s, 0, level) and pieces_free(s, 1, level)


# ---------------------------------------------------------------- primacy sources


def test_primacy_from_outposts_is_lost_with_them() -> None:
    s = clear_board(started(2))
    s["tiles"]["1,1"]["t"] = "gold"
    s["outposts"]["1,1"] = {"owner": 0, "level": 2, "dmg": 0, "dropped": False}
    assert primacy_points(s, 0) == 1
    combat.ability_hits_outpost(s, 1, "1,1", 4, [])
    assert primacy_points(s, 0) == 1  # degraded, still there
    s["outposts"]["1,1"]["dropped"] = False
    combat.ability_hits_outpost(s, 1, "1,1", 3, [])
    assert primacy_points(s, 0) == 0


def test_primacy_for_an_enemy_commander_sent_to_retreat_by_an_ability() -> None:
    s = clear_board(started(2, factions=("tribes", "sect")))
    s["players"][0]["commander"], s["players"][1]["commander"] = "shaman", "zhuan"
    put(s, "huntress", "0,1")
    put(s, "zhuan", "2,0")
    s["heroes"]["huntress"]["levels"] = ["sword"]
    s["heroes"]["zhuan"]["dmg"] = 6
    s = my_turn(s, 0, "huntress")
    s = GAME.apply(s, 0, Action.of("skill", id="arrow", to=lab(s, "2,0"))).state
    assert s["heroes"]["zhuan"]["at"] is None and s["players"][0]["pp"] == 1  # RULING-25: an ability counts


def test_primacy_for_two_spirits_on_ones_own_turn() -> None:
    s = explorer("meadow")
    s["players"][0]["spirits"] = 3
    s = GAME.apply(s, 0, Action.of("spirit_pp")).state
    assert s["players"][0]["spirits"] == 1 and primacy_points(s, 0) == 1


# ---------------------------------------------------------------- monster rules


def field() -> State:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    return s


def turn_of(s: State, mid: str, at: str, round_no: int = 2) -> State:
    s["monsters"] = {mid: primary(mid, at, 0)}
    s["phase"], s["round"], s["turn"] = "turns", round_no, ["m", mid]
    s["ring"], s["ring_pos"] = [["p", "0"], ["m", mid], ["p", "1"]], 1
    return s


def bog(s: State, start: str) -> State:
    """Every tile mud but the monster's start: it stops after one step [RB p.11], so we know where."""
    for key, tile in s["tiles"].items():
        if key not in (start, "0,0"):
            tile["t"] = "mud"
    return s


def _stop(s: State, mid: str, at: str) -> str:
    dry = GAME.apply(turn_of(GAME.copy_state(s), mid, at), SYSTEM, Action.of("monster")).state
    return str(dry["monsters"][mid]["at"])


def _beside(s: State, stop: str, start: str) -> str:
    """A tile next to where the monster stopped and not next to where it started (so not in its way)."""
    return next(n for n in sorted(adjacent_keys(s, stop)) if n != start and n not in adjacent_keys(s, start))


def test_opportunity_attack_on_a_juicy_hero_next_to_where_it_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    s = bog(field(), "2,-3")
    s["tiles"]["-3,5"]["t"] = "gold"
    s["outposts"]["-3,5"] = {"owner": 0, "level": 1, "dmg": 0, "dropped": False}
    stop = _stop(s, "helgoth", "2,-3")
    put(s, "sunjun", _beside(s, stop, "2,-3"))
    with dice(monkeypatch, [0, 0, 0, 0], [0, 0]):
        s = GAME.apply(turn_of(s, "helgoth", "2,-3"), SYSTEM, Action.of("monster")).state
    assert s["monsters"]["helgoth"]["at"] == stop and s["heroes"]["sunjun"]["xp"] == 1  # it defended


def test_oryana_never_makes_opportunity_attacks() -> None:
    s = bog(field(), "-3,6")
    stop = _stop(s, "oryana", "-3,6")
    put(s, "sunjun", _beside(s, stop, "-3,6"))
    s = GAME.apply(turn_of(s, "oryana", "-3,6"), SYSTEM, Action.of("monster")).state
    assert s["monsters"]["oryana"]["at"] == stop and s["attack"] is None and s["heroes"]["sunjun"]["xp"] == 0


def test_spirit_walker_hunts_the_last_player_who_used_an_ability(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    put(s, "ariane", "1,0")  # seat 0, next to it
    put(s, "sunjun", "-2,2")  # seat 1, farther
    s["last_ability"] = 1
    with dice(monkeypatch, [0, 0, 0, 0], [0, 0]):
        s = GAME.apply(turn_of(s, "walker", "0,0"), SYSTEM, Action.of("monster")).state
    assert s["monsters"]["walker"]["at"] in adjacent_keys(s, "-2,2")


def test_monster_fall_back_is_chosen_by_the_last_player_in_play_order(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    s["monsters"] = {"helgoth": primary("helgoth", "0,1", 0)}
    put(s, "ariane", "-1,1")
    s["order"] = [0, 1]
    s = my_turn(s, 0, "ariane")
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    with dice(monkeypatch, [2, 1, 0], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "0,1"))).state
    assert s["pending"][0] == {"kind": "monster_fall_back", "seat": 1, "monster": "helgoth"}
    assert GAME.decisions(s)[0].seat == 1
    options = [la.action for la in GAME.legal_actions(s, 1)]
    s = GAME.apply(s, 1, options[-1]).state
    assert s["monsters"]["helgoth"]["at"] == k(s, str(options[-1]["to"]))


def test_siege_ward_siphon_and_tough_by_level(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    s["monsters"] = {"helgoth": primary("helgoth", "0,1", 0), "oryana": primary("oryana", "0,0", 1),
                     "tijian": primary("tijian", "2,-2", 2)}
    s["tiles"]["1,1"]["t"] = "gold"
    s["outposts"]["1,1"] = {"owner": 0, "level": 1, "dmg": 0, "dropped": False}
    s["round"] = 4  # level 2: Siege, Ward
    combat.start_attack(s, ("monster", "helgoth"), "1,1", "monster")
    assert combat.attack_dice(s) == 5 + 1
    assert monster_defence(s, "oryana") == 4 + 1
    s["round"], s["attack"] = 3, None
    assert monster_defence(s, "oryana") == 3  # level 1: no Ward
    s["round"] = 8  # level 3: Siphon heals Oryana on the Source at the start of her turn; Tijian is Tough
    s["monsters"]["oryana"]["dmg"] = 3
    s["monsters"]["tijian"]["dmg"] = 3
    s["phase"], s["turn"] = "turns", ["m", "oryana"]
    s["ring"], s["ring_pos"] = [["p", "0"], ["m", "oryana"], ["p", "1"]], 1
    s = GAME.apply(s, SYSTEM, Action.of("monster")).state
    assert s["monsters"]["oryana"]["dmg"] == 1
    s["phase"], s["pending"], s["turn"], s["act"] = "round_start", [], None, None
    s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
    assert s["monsters"]["tijian"]["dmg"] == 1


def test_devour_souls_and_the_walkers_victory(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    put(s, "ariane", "1,0")
    s["heroes"]["ariane"]["dmg"] = 5
    s["players"][0]["spirits"] = 1
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    s = turn_of(s, "walker", "0,0", round_no=8)
    s["monsters"]["walker"]["count"] = victory_need("walker") - 1  # one more hero sent to retreat wins
    with dice(monkeypatch, [3] * 6, [0, 0]):
        s = GAME.apply(s, SYSTEM, Action.of("monster")).state
        s = GAME.apply(s, 0, Action.of("done")).state  # her defence window: the spirit stays unspent
    assert s["heroes"]["ariane"]["at"] is None and s["players"][0]["spirits"] == 0 and s["source"] == 1
    assert s["result"] == {"winners": [], "key": "gi.end.monster", "monster": "walker"}  # everybody loses


@pytest.mark.parametrize(("mid", "count"), [("helgoth", "count"), ("tijian", "count"), ("oryana", "spirits")])
def test_each_primary_monsters_victory_count(mid: str, count: Literal["count", "spirits"]) -> None:
    need = victory_need(mid)
    s = field()
    s["monsters"] = {mid: primary(mid, "0,1", 0)}
    s["monsters"][mid][count] = need - 1
    assert monsters.winner(s) is None
    s["monsters"][mid][count] = need
    assert monsters.winner(s) == mid


def test_monsters_walk_over_face_down_tiles_without_revealing_them() -> None:
    s = field()
    s["tiles"]["1,-1"].update({"t": "mountain", "up": False})  # the only tile between it and the gold
    s["tiles"]["2,-2"]["t"] = "gold"
    s = GAME.apply(turn_of(s, "tijian", "0,0"), SYSTEM, Action.of("monster")).state
    assert not s["tiles"]["1,-1"]["up"] and s["tiles"]["2,-2"]["destroyed"]  # RULING-32: a plain tile for it

