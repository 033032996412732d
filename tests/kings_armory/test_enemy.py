"""The enemy turn: arrivals, landing, attack priority, the Gate, blocking windows, wave ends (TC-14 to TC-30)."""

from __future__ import annotations

from rules.base import SYSTEM, Action, Event
from rules.kings_armory import GAME, enemy, queries, shop
from rules.kings_armory.board import board, range_distance
from rules.kings_armory.shapes import State

from . import helpers as h


def _enemy(s: State) -> None:
    s.update({"phase": "enemy", "eturn": 1, "turn": -1})
    if not s["allies"]:
        h.add_hero(s, "boleslaw", (0, 0))  # someone to defend the Armory, far from everything


def test_tc14_odd_enters_left_even_enters_right() -> None:
    s = h.scene()
    _enemy(s)
    left = enemy.arrive(s, h.Dice(7), [])
    right = enemy.arrive(s, h.Dice(4), [])
    assert (left["lane"], right["lane"]) == ("L", "R")
    assert queries.monster_square(s, left) == board(s["map"]).entrance["L"]
    crowded = enemy.arrive(s, h.Dice(3), [])  # left entrance taken: forward to the first free square
    assert crowded["lane"] == "L" and crowded["i"] == 1


def test_tc16_delayed_arrival_splits_half_rounded_up() -> None:
    s = h.scene(seats=2, arrival="delayed")  # wave 1 with 2 players: 1 + 2 + 2 = 5 monsters
    s["phase"], s["wave"] = "setup", 1
    shop.start_wave(s, h.Dice(), [])
    assert (s["arrive"], s["later"]) == (3, 2)
    enemy.start_enemy_turn(s, [])
    assert (s["arrive"], s["later"]) == (2, 0)


def test_tc17_landing_backs_up_and_flyers_stack() -> None:
    s = h.scene()
    _enemy(s)
    h.add_monster(s, "orc_warrior", 10)
    mover = h.add_monster(s, "giant_rat", 5)  # Mv 5: lands on 10, backs up to 9
    enemy._start(s, h.Dice(), [], mover, upkeep=False)
    assert mover["i"] == 9
    bat = h.add_monster(s, "giant_bat", 5)  # a flyer stacks over the orc
    enemy._start(s, h.Dice(), [], bat, upkeep=False)
    assert bat["i"] == 10
    bat2 = h.add_monster(s, "giant_bat", 5)  # a second flyer may not: back to 9, over the rat
    enemy._start(s, h.Dice(), [], bat2, upkeep=False)
    assert bat2["i"] == 9
    assert GAME.check_invariants(s) == []


def test_tc20_attack_priority() -> None:
    s = h.scene()
    _enemy(s)
    archer_mon = h.add_monster(s, "goblin_archer", 20)
    here = h.lane_square(s, 20)
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, here, 2))
    archer = h.add_champion(s, "archer", h.open_square_at(s, here, 3))
    attack = enemy.monster_attacks(archer_mon)[0]
    assert enemy.choose_target(s, h.Dice(), archer_mon, attack, set()) is valcor  # nearest
    archer["pos"] = list(h.open_square_at(s, here, 2, avoid=(h.square_of(valcor),)))
    assert enemy.choose_target(s, h.Dice(), archer_mon, attack, set()) is archer  # same damage type (R)
    soldier = h.add_champion(s, "foot", h.open_square_at(s, here, 4))
    archer_mon["blocked_by"] = soldier["id"]
    assert enemy.choose_target(s, h.Dice(), archer_mon, attack, set()) is soldier  # the blocker first


def test_tc20_melee_raider_cannot_reach_into_a_tower() -> None:
    s = h.scene()
    raider = h.add_monster(s, "goblin_raider", 20)
    tower, square = h.tower_at_range(s, h.lane_square(s, 20), 1)
    hero = h.add_hero(s, "ember", square)
    hero.update({"inside": True, "house": tower})
    assert enemy.choose_target(s, h.Dice(), raider, enemy.monster_attacks(raider)[0], set()) is None
    shaman = h.add_monster(s, "hobgoblin_shaman", 21)
    if range_distance(h.lane_square(s, 21), square) <= 3:
        assert enemy.choose_target(s, h.Dice(), shaman, enemy.monster_attacks(shaman)[0], set()) is hero


def test_tc21_entering_the_armory_costs_full_damage() -> None:
    s = h.scene(seats=4)
    _enemy(s)
    last = len(board(s["map"]).lanes["L"]) - 1
    raider = h.add_monster(s, "goblin_raider", last - 2)
    s["gate"] = 40
    enemy._start(s, h.Dice(), [], raider, upkeep=False)
    assert s["gate"] == 38 and not s["monsters"]
    assert s["discard"]["1"] == ["goblin_raider"]
    rider = h.add_monster(s, "wolf_rider", last - 1)
    enemy._start(s, h.Dice(), [], rider, upkeep=False)
    assert s["gate"] == 34  # 2 + 2


def test_tc21_siege_stops_at_the_exit_and_hits_the_gate_each_turn() -> None:
    s = h.scene(seats=4)
    _enemy(s)
    last = len(board(s["map"]).lanes["L"]) - 1
    ram = h.add_monster(s, "battering_ram", last - 1)
    s["gate"] = 40
    enemy._start(s, h.Dice(), [], ram, upkeep=False)
    assert ram["i"] == last and s["gate"] == 34
    enemy._start(s, h.Dice(), [], ram, upkeep=True)
    assert s["gate"] == 28


def test_tc28_gate_at_zero_loses_at_once() -> None:
    s = h.scene()
    _enemy(s)
    last = len(board(s["map"]).lanes["L"]) - 1
    ram = h.add_monster(s, "battering_ram", last)
    s["gate"] = 3
    enemy._start(s, h.Dice(), [], ram, upkeep=False)
    assert s["gate"] == 0 and s["result"] == "gate"
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == frozenset()
    assert GAME.to_act(s) == frozenset()


def test_tc28_last_hero_knocked_out_loses_even_with_champions_standing() -> None:
    s = h.scene()
    troll = h.add_monster(s, "bridge_troll", 20)
    hero = h.add_hero(s, "boleslaw", h.open_square_at(s, h.lane_square(s, 20), 1))
    h.add_champion(s, "archer", h.open_square_at(s, h.lane_square(s, 20), 9))
    _enemy(s)
    hero["hp"] = 1
    enemy._attack(s, h.Dice(15), [], troll, moved=0)
    assert hero["ko"] and s["result"] == "heroes"


def _ask_loop(s: State, answer: str) -> list[Event]:
    """Run SYSTEM steps, answering every blocking window with `answer`, until the allies' round."""
    events: list[Event] = []
    for _ in range(200):
        if s["phase"] != "enemy":
            return events
        seats = GAME.to_act(s)
        if SYSTEM in seats:
            step = GAME.apply(s, SYSTEM, Action.of("step"))
        else:
            (seat,) = seats
            decision = GAME.decisions(s)[0]
            assert decision.default == Action.of("pass") and decision.seat == seat
            legal = [la.action for la in GAME.legal_actions(s, seat)]
            step = GAME.apply(s, seat, next(a for a in legal if a.kind == answer))
        assert step.state.keys() >= s.keys()  # the engine drops no key: the update replaces the whole state
        s.update(step.state)
        events += step.events
    raise AssertionError("the enemy turn did not end")


def test_tc22_blocking_window_stops_the_monster_where_declared() -> None:
    s = h.scene()
    s.update({"phase": "enemy", "eturn": 2, "turn": -1})
    orc = h.add_monster(s, "orc_warrior", 10)
    soldier = h.add_champion(s, "foot", h.open_square_at(s, h.lane_square(s, 12), 1))
    h.add_hero(s, "valcor", (0, 0))
    _ask_loop(s, "block")
    blocked = [m for m in s["monsters"] if m["id"] == orc["id"]]
    # blocks are cleared when the allies' round starts; the orc stopped within range 1 of the soldier
    assert blocked
    assert range_distance(queries.monster_square(s, blocked[0]),
                          h.square_of(queries.ally(s, soldier["id"]))) <= 1


def test_tc22_letting_pass_keeps_walking() -> None:
    s = h.scene()
    s.update({"phase": "enemy", "eturn": 2, "turn": -1})
    orc = h.add_monster(s, "orc_warrior", 10)
    h.add_champion(s, "foot", h.open_square_at(s, h.lane_square(s, 12), 1))
    h.add_hero(s, "valcor", (0, 0))
    _ask_loop(s, "pass")
    moved = next(m for m in s["monsters"] if m["id"] == orc["id"])
    assert moved["i"] == 13


def test_tc22_who_cannot_be_blocked() -> None:
    s = h.scene()
    soldier = h.add_champion(s, "foot", h.open_square_at(s, h.lane_square(s, 20), 1))
    assert enemy.blockers(s, h.add_monster(s, "orc_warrior", 20)) == [soldier]
    for key in ("giant_bat", "catapult", "stone_giant", "minotaur"):
        s["monsters"].clear()
        assert enemy.blockers(s, h.add_monster(s, key, 21 if key == "giant_bat" else 20)) == [] or key == "giant_bat"
    s["monsters"].clear()
    assert enemy.blockers(s, h.add_monster(s, "grukk", 20, boss=True)) == []
    s["monsters"].clear()
    soldier["blocks"] = ["x", "y"]  # Tank 2 used up
    assert enemy.blockers(s, h.add_monster(s, "orc_warrior", 20)) == []


def test_tc22_phalanx_blocks_one_unblockable() -> None:
    s = h.scene()
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, h.lane_square(s, 20), 1))
    minotaur = h.add_monster(s, "minotaur", 20)
    assert enemy.blockers(s, minotaur) == []
    valcor["phalanx"] = True
    assert enemy.blockers(s, minotaur) == [valcor]
    enemy.block(s, valcor, minotaur)
    assert enemy.blockers(s, h.add_monster(s, "death_knight", 20, lane="R")) == [] or \
        range_distance(h.lane_square(s, 20, "R"), h.square_of(valcor)) > 1


def test_tc30_wave_ends_when_the_last_monster_bleeds_out() -> None:
    s = h.scene()
    _enemy(s)
    rat = h.add_monster(s, "giant_rat", 10)
    rat["hp"], rat["st"]["bleed"] = 1, 1
    gold = s["gold"]
    enemy.step(s, h.Dice(), [])
    assert s["phase"] == "between" and s["gold"] > gold


def test_tc29_boss_arrives_after_the_others_in_the_final_wave() -> None:
    s = h.scene()
    h.add_hero(s, "valcor", (0, 0))
    s.update({"phase": "setup", "wave": 5})
    shop.start_wave(s, h.Dice(), [])
    assert s["boss_due"] == [2]
    s.update({"arrive": 0, "monsters": []})
    enemy.start_allies_round(s, [])
    assert s["result"] is None and s["phase"] == "allies"  # the wave cannot end before its boss came
    s["turn"] = 0
    GAME.apply(s, 0, Action.of("end_turn"))
    s.update(GAME.apply(s, 0, Action.of("end_turn")).state)
    assert s["phase"] == "enemy" and s["eturn"] == 2
    events: list[Event] = []
    enemy.step(s, h.Dice(3, 10), events)
    assert any(m["boss"] for m in s["monsters"]) and events[0].msg.key == "ka.ev.boss"


def test_tc34_pushing_a_giant_rat_along_the_lane() -> None:
    s = h.scene()
    _enemy(s)
    rat = h.add_monster(s, "giant_rat", 12)
    orc = h.add_monster(s, "orc_warrior", 10)  # Mv 3
    enemy._start(s, h.Dice(), [], orc, upkeep=False)
    assert (orc["i"], rat["i"]) == (13, 14)


def test_tc34_a_non_pushable_monster_in_front_stops_the_push() -> None:
    s = h.scene()
    _enemy(s)
    rat = h.add_monster(s, "giant_rat", 12)
    h.add_monster(s, "orc_warrior", 13)
    orc = h.add_monster(s, "orc_warrior", 10)
    enemy._start(s, h.Dice(), [], orc, upkeep=False)
    assert rat["i"] == 12 and orc["i"] == 11  # passes through, lands on 13 (taken), backs up past the rat to 11


def test_tc19_turn_priority() -> None:
    s = h.scene()
    near = h.add_monster(s, "orc_warrior", 30)
    far = h.add_monster(s, "wolf_rider", 20)
    assert enemy._next_by_priority(s, h.Dice(), [near, far]) is near  # nearest the Armory first
    s["monsters"].clear()
    slow = h.add_monster(s, "orc_warrior", 20, lane="L")  # Mv 3
    fast = h.add_monster(s, "orc_berserker", 20, lane="R")  # Mv 4
    assert enemy._next_by_priority(s, h.Dice(), [slow, fast]) is fast
    fast["st"]["slow"] = 1  # 4 − 2 = 2 < 3: the current movement counts
    assert enemy._next_by_priority(s, h.Dice(), [slow, fast]) is slow
    s["monsters"].clear()
    walker = h.add_monster(s, "giant_rat", 20, lane="R")  # Mv 5, yellow
    flyer = h.add_monster(s, "giant_bat", 20, lane="L")  # Mv 5, yellow, flying
    assert enemy._next_by_priority(s, h.Dice(), [walker, flyer]) is flyer
    s["monsters"].clear()
    red = h.add_monster(s, "goblin_raider", 20, lane="L")  # Mv 4, red
    yellow = h.add_monster(s, "orc_berserker", 20, lane="R")  # Mv 4, yellow
    assert enemy._next_by_priority(s, h.Dice(), [yellow, red]) is red
    s["monsters"].clear()
    left = h.add_monster(s, "goblin_raider", 20, lane="L")
    right = h.add_monster(s, "goblin_raider", 20, lane="R")
    assert enemy._next_by_priority(s, h.Dice(), [left, right]) is right


def test_tc15_arrivals_roll_one_monster_at_a_time() -> None:
    s = h.scene()
    _enemy(s)
    s["arrive"] = 2
    dice = h.Dice(1, 2)  # d12 for the first monster, then d12 for the second: no d20 (nobody in range)
    enemy.step(s, dice, [])
    assert len(s["monsters"]) == 1 and dice.rolls == [2] and s["arrive"] == 1
    enemy.step(s, dice, [])
    assert len(s["monsters"]) == 2 and dice.rolls == []


def test_blocking_decision_is_public_and_defaults_to_letting_pass() -> None:
    s = h.scene()
    s.update({"phase": "enemy", "eturn": 2, "turn": -1})
    h.add_monster(s, "orc_warrior", 10)
    soldier = h.add_champion(s, "foot", h.open_square_at(s, h.lane_square(s, 12), 1))
    h.add_hero(s, "valcor", (0, 0))
    for _ in range(10):
        if s["ask"] is not None:
            break
        s.update(GAME.apply(s, SYSTEM, Action.of("step")).state)
    (decision,) = GAME.decisions(s)
    assert decision.seat == soldier["seat"] and decision.default == Action.of("pass") and not decision.private
    assert GAME.timeout_action(s, decision.seat) == Action.of("pass")
    assert GAME.to_act(s) == frozenset({decision.seat})
