"""The rest of the digest's §10 cases: TC-18 (landing on an ally), TC-23 (tower reach), TC-28 (victory), TC-29
(the second boss of a 7-wave game), and the allies' own upkeep of status tokens (A-19)."""

from __future__ import annotations

from rules.base import Action, Event
from rules.kings_armory import GAME, enemy, figures, queries, shop
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import range_distance
from rules.kings_armory.shapes import Ally, State

from . import helpers as h


def _legal(s: State, ally: Ally) -> list[Action]:
    s["turn"], s["active"] = ally["seat"], ally["id"]
    ally["ap"] = figures.ally_card(ally)["ap"]
    return [la.action for la in GAME.legal_actions(s, ally["seat"])]


def test_tc18_a_monster_landing_on_an_ally_shares_its_square_and_can_be_hit_at_range_0_and_blocked() -> None:
    s = h.scene()
    sq = h.lane_square(s, 14)
    valcor = h.add_hero(s, "valcor", sq)
    s.update({"phase": "enemy", "eturn": 1, "turn": -1})
    orc = h.add_monster(s, "orc_warrior", 11)  # Mv 3: ends on Valcor's square
    valcor["blocks"] = ["x", "y"]  # his Tank is full: no blocking window on the way
    enemy._start(s, h.Dice(20), [], orc, upkeep=False)
    assert queries.monster_square(s, orc) == sq == queries.pos(valcor)
    valcor["blocks"] = []
    assert valcor in enemy.blockers(s, orc)
    s["phase"] = "allies"
    assert Action.of("attack", opt="mace", target=orc["id"]) in _legal(s, valcor)
    assert GAME.check_invariants(s) == []


def test_tc23_ranged_and_supernatural_reach_into_a_tower_and_an_archer_gains_a_square() -> None:
    s = h.scene()
    s.update({"phase": "enemy", "eturn": 1, "turn": -1})
    tower, inside = h.tower_at_range(s, h.lane_square(s, 20), 3)
    hero = h.add_hero(s, "ember", inside)
    hero.update({"inside": True, "house": tower})
    for key in ("goblin_archer", "hobgoblin_shaman"):  # R range 4, SN range 3: both reach in
        mon = h.add_monster(s, key, 20)
        assert enemy.choose_target(s, h.Dice(), mon, enemy.monster_attacks(mon)[0], set()) is hero
        s["monsters"].remove(mon)
    near_tower, next_to_path = h.tower_at_range(s, h.lane_square(s, 30), 1)
    valcor = h.add_hero(s, "valcor", next_to_path)
    valcor.update({"inside": True, "house": near_tower})
    raider = h.add_monster(s, "goblin_raider", 30)
    assert range_distance(h.square_of(valcor), queries.monster_square(s, raider)) == 1
    assert enemy.choose_target(s, h.Dice(), raider, enemy.monster_attacks(raider)[0], set()) is None  # M: not in
    champion = h.add_champion(s, "archer", (0, 0))
    champion["inside"] = True
    bow = next(o for o in figures.ally_card(champion)["options"] if o["id"] == "bow")
    assert allies_round.attack_range(champion, bow) == 7
    s["phase"] = "allies"
    assert not any(a.kind == "attack" for a in _legal(s, valcor))  # no melee out of a tower


def test_tc28_the_last_boss_falling_with_the_gate_standing_wins() -> None:
    s = h.scene()
    s.update({"wave": 5, "waves": 5, "boss_due": [], "arrive": 0, "later": 0})
    boss = h.add_monster(s, "grukk", 20, boss=True)
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, h.lane_square(s, 20), 1))
    s["gate"] = 1
    boss["hp"] = 1
    s["active"], valcor["ap"] = valcor["id"], 3
    allies_round.apply(s, h.Dice(20), [], 0, Action.of("attack", opt="mace", target=boss["id"]))
    outcome = GAME.outcome(s)
    assert s["result"] == "won" and outcome is not None and outcome.winners == {0}


def test_tc29_seven_waves_a_second_boss_enters_on_the_other_side_without_a_roll() -> None:
    s = h.scene()
    h.add_hero(s, "valcor", (0, 0))
    s.update({"phase": "setup", "wave": 7, "waves": 7})
    shop.start_wave(s, h.Dice(), [])
    assert s["boss_due"] == [2, 3]
    first_events: list[Event] = []
    s.update({"phase": "enemy", "act": None, "ask": None})
    enemy._boss_arrives(s, h.Dice(5), first_events)
    s["act"] = s["ask"] = None
    enemy._boss_arrives(s, h.Dice(), [])  # no die: h.Dice() would fail if rolled
    bosses = [m for m in s["monsters"] if m["boss"]]
    assert [m["lane"][-1] for m in bosses] == ["L", "R"]
    delayed = h.scene(arrival="delayed")
    h.add_hero(delayed, "valcor", (0, 0))
    delayed.update({"phase": "setup", "wave": 7, "waves": 7})
    shop.start_wave(delayed, h.Dice(), [])
    assert delayed["boss_due"] == [3, 4]


def test_a19_allies_bleed_burn_and_lose_their_activation_to_stun_at_their_controllers_turn() -> None:
    s = h.scene(seats=2)
    h.add_monster(s, "orc_warrior", 40)
    valcor = h.add_hero(s, "valcor", (0, 0))
    ember = h.add_hero(s, "ember", (0, 2), seat=1)
    ember["st"].update({"bleed": 1, "burn": 1})
    valcor["st"]["stun"] = 1
    s.update({"phase": "enemy", "turn": -1})
    enemy.start_allies_round(s, [])
    assert s["turn"] == 1  # Valcor's turn passed: stunned, he loses it
    assert valcor["st"]["stun"] == 0 and valcor["done"]
    assert ember["hp"] == 14 - 2 and ember["st"]["bleed"] == 1  # tokens stay; only Stun and Bless go
