"""Monster automation [digest §6]: script targets, juiciness, the left turn, actions, stuck monsters, victory."""

from __future__ import annotations

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, flow
from rules.guerra_de_indagar.data import monsters
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import adjacent_keys

from .helpers import clear_board, dice, ended, lab, put, started


def monster_turn(s: State, mid: str, at: str, round_no: int = 2) -> State:
    s = monster_turn_setup(s, mid, at, round_no)
    assert GAME.to_act(s) == frozenset({SYSTEM}) and GAME.system_action(s) == Action.of("monster")
    return GAME.apply(s, SYSTEM, Action.of("monster")).state


def field() -> State:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    return s


def test_tijian_turns_left_on_equal_routes_and_destroys_the_tile() -> None:
    s = field()
    s["tiles"]["1,1"]["t"] = "gold"
    step = GAME.apply(monster_turn_setup(s, "tijian", "0,0"), SYSTEM, Action.of("monster"))
    s = step.state
    moved = [e.msg for e in step.events if e.msg.key == "gi.ev.monster_moves"]
    assert moved[0].params["path"] == f"{lab(s, '1,0')} {lab(s, '1,1')}"  # (1,0) lies left of the line to the target
    assert s["tiles"]["1,1"]["destroyed"] and s["monsters"]["tijian"]["count"] == 1
    assert not step.undoable


def monster_turn_setup(s: State, mid: str, at: str, round_no: int = 2) -> State:
    """Only `mid` is on the board (the others are set aside), and it is its turn."""
    s["monsters"] = {mid: primary(mid, at, 0)}
    s["phase"], s["round"], s["turn"] = "turns", round_no, ["m", mid]
    s["ring"], s["ring_pos"] = [["p", "0"], ["m", mid], ["p", "1"]], 1
    return s


def test_pillage_from_level_two_costs_every_player_one_of_the_tile() -> None:
    s = field()
    s["tiles"]["1,1"]["t"] = "gold"
    s["players"][1]["res"]["gold"] = 0
    s = monster_turn(s, "tijian", "0,0", round_no=4)
    assert s["players"][0]["res"]["gold"] == 2 and s["players"][1]["res"]["gold"] == 0


def test_spirit_walker_skips_heroes_too_tough_to_be_juicy(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    put(s, "abomination", "1,0")  # defence 2 + commander 1 + 2 shields = 5 > attack 4: not juicy
    s["heroes"]["abomination"]["levels"] = ["shield", "shield"]
    put(s, "sunjun", "-2,3")  # defence 2, farther away
    with dice(monkeypatch, [0, 0, 0, 0], [0, 0]):
        s = monster_turn(s, "walker", "0,0")
    at = s["monsters"]["walker"]["at"]
    assert at is not None and at != "0,0" and s["heroes"]["sunjun"]["at"] in adjacent_keys(s, at)


def test_oryana_collects_the_source_and_wins_on_her_victory_count() -> None:
    need = int(monsters()["primary"]["oryana"]["victory"]["base"])  # PROV-18: the same for every player count
    s = field()
    s["source"] = 3
    s = monster_turn_setup(s, "oryana", "2,0")
    s["monsters"]["oryana"]["spirits"] = need - 3
    s = GAME.apply(s, SYSTEM, Action.of("monster")).state
    assert s["monsters"]["oryana"]["at"] == "0,0" and s["source"] == 0
    assert ended(s).winners == frozenset()  # RULING-29: at once, everyone loses


def test_occupied_source_oryana_attacks_its_holder_even_if_not_juicy(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    put(s, "paladin", "0,0")  # defence 3: Oryana's attack is 3 at level 1, so juicy; make it tougher
    s["heroes"]["paladin"]["levels"] = ["shield", "shield"]
    with dice(monkeypatch, [0, 0, 0], [0, 0, 0, 0, 0, 0]):  # defence 3 + commander + 2 shields
        s = monster_turn(s, "oryana", "2,0")
    assert s["monsters"]["oryana"]["at"] in adjacent_keys(s, "0,0")


def test_a_monster_walled_in_by_mountains_is_stuck() -> None:
    s = field()
    for k in adjacent_keys(s, "2,0"):
        s["tiles"][k]["t"] = "mountain"
    s = monster_turn(s, "helgoth", "2,0")
    assert s["monsters"]["helgoth"]["stuck"]
    assert s["turn"] is None or s["turn"] != ["m", "helgoth"]


def test_helgoth_attacks_the_outposts_of_the_leader_and_destroys_them(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    s["tiles"]["2,-1"]["t"] = "wood"
    s["tiles"]["-2,2"]["t"] = "gold"
    s["outposts"] = {"2,-1": {"owner": 1, "level": 1, "dmg": 0, "dropped": False},
                     "-2,2": {"owner": 0, "level": 1, "dmg": 0, "dropped": False},
                     "-3,3": {"owner": 0, "level": 1, "dmg": 0, "dropped": False}}
    s["tiles"]["-3,3"]["t"] = "mineral"
    with dice(monkeypatch, [3, 3, 1, 0], [0]):
        s = monster_turn(s, "helgoth", "2,0")
    assert "2,-1" in s["outposts"]  # seat 1 is not the leader
    assert "-2,2" not in s["outposts"] and s["monsters"]["helgoth"]["count"] == 1


def test_monsters_never_leave_the_ring_cap_of_three_turns() -> None:
    s = field()
    s = monster_turn_setup(s, "helgoth", "2,0")
    s["monsters"]["helgoth"]["turns"] = 3
    assert not flow.monster_may_act(s, "helgoth")


def test_equal_targets_are_chosen_by_the_last_player_in_play_order(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    s["order"] = [1, 0]
    put(s, "zhuan", "2,0")
    put(s, "sunjun", "-2,0")  # both one step from standing next to them
    s = monster_turn(s, "walker", "0,0")
    assert GAME.to_act(s) == frozenset({0}) and s["pending"][0]["kind"] == "monster_target"
    decision = GAME.decisions(s)[0]
    assert decision.seat == 0 and decision.default in [la.action for la in GAME.legal_actions(s, 0)]
    with dice(monkeypatch, [0, 0, 0, 0], [0, 0]):
        s = GAME.apply(s, 0, Action.of("monster_target", to=lab(s, "-2,0"))).state
    assert s["heroes"]["sunjun"]["at"] in adjacent_keys(s, s["monsters"]["walker"]["at"])
    assert s["turn"] != ["m", "walker"]  # its turn is over


def test_auto_ties_need_nobody() -> None:
    s = GAME.new(GAME.resolve_options({"monster_ties": "auto"}), 2, 1)
    assert s["monster_ties"] == "auto"
    s = field()
    s["monster_ties"] = "auto"
    put(s, "zhuan", "2,0")
    put(s, "sunjun", "-2,0")
    s = monster_turn(s, "walker", "0,0")
    assert s["pending"] == [] or s["pending"][0]["kind"] != "monster_target"


def test_helgoth_charges_one_step_at_level_three(monkeypatch: pytest.MonkeyPatch) -> None:
    s = field()
    put(s, "zhuan", "-3,3")
    for round_no, expect_attack in ((8, True), (4, False)):
        state = monster_turn_setup({**s, "heroes": {k: {**v} for k, v in s["heroes"].items()}}, "helgoth", "2,0",
                                   round_no)
        rolls = ([[0] * 6, [0, 0]] if expect_attack else [])
        with dice(monkeypatch, *rolls):
            step = GAME.apply(state, SYSTEM, Action.of("monster"))
        assert any(e.msg.key == "gi.ev.attack" for e in step.events) == expect_attack
