"""The eight special actions added in phase 2 (§8.2, §8.3): Guard Ally, Enchant Weapon, Psychic Sunder, Gravity
Well, Call the Guardian, Mind Fog, Teleport Ally and Psychic Wall, with the rounds they last."""

from __future__ import annotations

from rules.base import Action, Event
from rules.kings_armory import GAME, enemy, figures, queries
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import board, range_distance
from rules.kings_armory.shapes import Ally, State

from . import helpers as h


def _do(s: State, ally: Ally, action: Action, *rolls: int) -> list[Event]:
    """Activate `ally` (fresh AP) and apply one of its legal actions with scripted dice."""
    s["turn"], s["active"] = ally["seat"], ally["id"]
    ally["ap"] = figures.ally_card(ally)["ap"]
    assert GAME.is_legal(s, ally["seat"], action), action
    events: list[Event] = []
    allies_round.apply(s, h.Dice(*rolls), events, ally["seat"], action)
    return events


def _enemy_turn(s: State) -> None:
    """What happens between the allies' round and the monsters acting: the round's effects end."""
    s["turn"] = s["n"]
    enemy.start_enemy_turn(s, [])


def _legal(s: State, ally: Ally) -> list[Action]:
    s["turn"], s["active"] = ally["seat"], ally["id"]
    ally["ap"] = figures.ally_card(ally)["ap"]
    return [la.action for la in GAME.legal_actions(s, ally["seat"])]


def test_guard_ally_redirects_attacks_to_valcor_while_he_stays_adjacent() -> None:
    s = h.scene()
    raider = h.add_monster(s, "goblin_raider", 20)
    sq = h.lane_square(s, 20)
    archer = h.add_champion(s, "archer", h.open_square_at(s, sq, 1))
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, h.square_of(archer), 1, avoid=(sq,)))
    assert range_distance(h.square_of(valcor), sq) > 1
    far = h.add_hero(s, "ember", (0, 0))
    assert Action.of("special", opt="guard", target=far["id"]) not in _legal(s, valcor)  # not adjacent
    _do(s, valcor, Action.of("special", opt="guard", target=archer["id"]))
    _enemy_turn(s)
    assert enemy.choose_target(s, h.Dice(), raider, enemy.monster_attacks(raider)[0], set()) is archer
    enemy._attack(s, h.Dice(20), [], raider, moved=0)  # a natural 20: hits whatever the Dodge
    assert archer["hp"] == 7 and valcor["hp"] < 20  # Valcor took the blow (his resistance applies)
    assert valcor["hp"] == 20 - max(1, 4 - 2)  # 2 × 2 = 4 on a crit, M resistance 2
    enemy.start_allies_round(s, [])
    assert valcor["guarding"] is None  # over when the next allies' round starts


def test_guard_ally_lapses_when_the_guarded_ally_is_no_longer_adjacent() -> None:
    s = h.scene()
    raider = h.add_monster(s, "goblin_raider", 20)
    archer = h.add_champion(s, "archer", h.open_square_at(s, h.lane_square(s, 20), 1))
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, h.square_of(archer), 1))
    _do(s, valcor, Action.of("special", opt="guard", target=archer["id"]))
    valcor["pos"] = [0, 0]
    _enemy_turn(s)
    enemy._attack(s, h.Dice(20), [], raider, moved=0)
    assert archer["hp"] < 7 and valcor["hp"] == 20


def test_enchant_weapon_lowers_resistances_by_two_for_the_round_only() -> None:
    s = h.scene()
    troll = h.add_monster(s, "bridge_troll", 20)  # M resistance 3
    sq = h.lane_square(s, 20)
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, sq, 1))
    boleslaw = h.add_hero(s, "boleslaw", h.open_square_at(s, sq, 3))
    assert Action.of("special", opt="enchant", target=boleslaw["id"]) not in _legal(s, boleslaw)  # another ally
    _do(s, boleslaw, Action.of("special", opt="enchant", target=valcor["id"]))
    _do(s, valcor, Action.of("attack", opt="mace", target=troll["id"]), 10)
    assert troll["hp"] == 16 - (4 - 1)  # resistance 3 counts as 1
    _enemy_turn(s)
    assert valcor["enchanted"] == 0


def test_enchant_and_psychic_sunder_stack_but_never_touch_immunity_or_go_below_zero() -> None:
    s = h.scene()
    troll = h.add_monster(s, "bridge_troll", 20)
    sq = h.lane_square(s, 20)
    cyrus = h.add_hero(s, "cyrus", h.open_square_at(s, sq, 1))
    boleslaw = h.add_hero(s, "boleslaw", h.open_square_at(s, sq, 3, avoid=(h.square_of(cyrus),)))
    _do(s, cyrus, Action.of("special", opt="sunder", target=troll["id"]))
    assert troll["sundered"] == 2
    _do(s, boleslaw, Action.of("special", opt="enchant", target=cyrus["id"]))
    _do(s, cyrus, Action.of("attack", opt="blades", target=troll["id"]), 10)
    assert troll["hp"] == 16 - 2 - 2  # 3 − 2 − 2 → 0: each blade does its full 2
    assert allies_round.resistance(troll, "M", cyrus) == 0 and allies_round.resistance(troll, "M") == 1
    drake = h.add_monster(s, "wind_drake", 24)  # Im to ranged
    drake["sundered"] = 2
    assert allies_round.resistance(drake, "R", cyrus) == "Im"
    _enemy_turn(s)
    assert troll["sundered"] == 0


def test_gravity_well_grounds_a_flyer_until_the_enemy_turn_ends() -> None:
    s = h.scene()
    bat = h.add_monster(s, "giant_bat", 20)
    sq = h.lane_square(s, 20)
    boleslaw = h.add_hero(s, "boleslaw", h.open_square_at(s, sq, 4))
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, sq, 1))
    assert Action.of("attack", opt="mace", target=bat["id"]) not in _legal(s, valcor)  # melee never hits flyers
    assert enemy.blockers(s, bat) == []
    raider = h.add_monster(s, "goblin_raider", 22)
    assert Action.of("special", opt="gravity", target=raider["id"]) not in _legal(s, boleslaw)  # flyers only
    _do(s, boleslaw, Action.of("special", opt="gravity", target=bat["id"]))
    assert bat["grounded"]
    assert Action.of("attack", opt="mace", target=bat["id"]) in _legal(s, valcor)
    _enemy_turn(s)
    assert bat["grounded"] and enemy.blockers(s, bat) == [valcor]  # still grounded in the enemy turn
    enemy.start_allies_round(s, [])
    assert not bat["grounded"]


def test_gravity_well_cannot_ground_a_boss() -> None:
    s = h.scene()
    vyrax = h.add_monster(s, "vyrax", 20, boss=True)
    boleslaw = h.add_hero(s, "boleslaw", h.open_square_at(s, h.lane_square(s, 20), 3))
    assert Action.of("special", opt="gravity", target=vyrax["id"]) not in _legal(s, boleslaw)


def test_call_the_guardian_once_per_wave_and_it_leaves_when_the_wave_ends() -> None:
    s = h.scene()
    h.add_monster(s, "goblin_raider", 40)
    felicity = h.add_hero(s, "felicity", (8, 8))
    square = board(s["map"]).label((8, 9))
    _do(s, felicity, Action.of("special", opt="guardian", to=square))
    guardian = next(a for a in s["allies"] if a["kind"] == "summon")
    assert guardian["seat"] == felicity["seat"] and queries.pos(guardian) == (8, 9) and guardian["hp"] == 12
    assert guardian["house"] is None
    assert not any(a.kind == "special" and a["opt"] == "guardian" for a in _legal(s, felicity))  # once per wave
    assert GAME.check_invariants(s) == []
    enemy.end_wave(s, [])
    assert all(a["kind"] != "summon" for a in s["allies"]) and not felicity["summoned"]


def test_a_guardian_that_falls_is_not_a_fallen_champion() -> None:
    s = h.scene()
    felicity = h.add_hero(s, "felicity", (8, 8))
    _do(s, felicity, Action.of("special", opt="guardian", to=board(s["map"]).label((8, 9))))
    guardian = next(a for a in s["allies"] if a["kind"] == "summon")
    enemy.fall(s, [], guardian)
    assert guardian not in s["allies"] and s["fallen"] == {}


def test_mind_fog_takes_two_from_the_monsters_hit_rolls_through_the_enemy_turn() -> None:
    s = h.scene()
    orc = h.add_monster(s, "orc_warrior", 20)  # hit +4
    sq = h.lane_square(s, 20)
    psion = h.add_champion(s, "psionicist", h.open_square_at(s, sq, 4))
    valcor = h.add_hero(s, "valcor", h.open_square_at(s, sq, 1))  # Dodge 13
    _do(s, psion, Action.of("special", opt="fog", target=orc["id"]))
    _enemy_turn(s)
    enemy._attack(s, h.Dice(9), [], orc, moved=0)  # 9 + 4 − 2 = 11 < 13: a miss
    assert valcor["hp"] == 20
    enemy._attack(s, h.Dice(11), [], orc, moved=0)  # 11 + 2 = 13: a hit
    assert valcor["hp"] == 20 - (3 - 2)
    enemy.start_allies_round(s, [])
    assert orc["fog"] == 0


def test_teleport_ally_moves_an_ally_to_a_free_square_or_a_free_tower_slot_within_five() -> None:
    s = h.scene()
    h.add_monster(s, "goblin_raider", 40)
    tower, inside = h.tower_at_range(s, h.lane_square(s, 20), 3)
    psion = h.add_champion(s, "psionicist", h.open_square_at(s, inside, 2), level=2)
    psion["house"] = tower
    ember = h.add_hero(s, "ember", h.open_square_at(s, inside, 4, avoid=(h.square_of(psion),)))
    label = board(s["map"]).label(inside)
    legal = _legal(s, psion)
    assert range_distance(h.square_of(psion), inside) == 2
    _do(s, psion, Action.of("special", opt="teleport", target=ember["id"], to=label))
    assert queries.pos(ember) == inside and ember["inside"] and ember["house"] == tower
    far = board(s["map"]).label(h.open_square_at(s, h.square_of(psion), 6))
    assert Action.of("special", opt="teleport", target=ember["id"], to=far) not in legal
    assert not any(a.kind == "special" and a.get("target") == psion["id"] for a in legal)  # another ally only


def test_teleport_ally_is_a_level_two_power() -> None:
    s = h.scene()
    psion = h.add_champion(s, "psionicist", (8, 8))
    h.add_hero(s, "ember", (8, 10))
    assert not any(a.kind == "special" and a["opt"] == "teleport" for a in _legal(s, psion))


def test_psychic_wall_stops_ground_monsters_before_it_until_the_next_allies_round() -> None:
    s = h.scene()
    h.add_hero(s, "valcor", (0, 0))
    orc = h.add_monster(s, "orc_warrior", 10)  # Mv 3
    wall = h.lane_square(s, 12)
    psion = h.add_champion(s, "psionicist", h.open_square_at(s, wall, 3), level=3)
    _do(s, psion, Action.of("special", opt="pwall", to=board(s["map"]).label(wall)))
    assert s["walls"] == [list(wall)]
    psion["pos"] = [0, 2]  # out of blocking reach: the wall alone stops the orc
    _enemy_turn(s)
    enemy._start(s, h.Dice(), [], orc, upkeep=False)
    assert orc["i"] == 11 and orc["blocked_by"] is None
    bat = h.add_monster(s, "giant_bat", 10)  # flyers pass over it
    enemy._start(s, h.Dice(), [], bat, upkeep=False)
    assert bat["i"] > 12
    giant = h.add_monster(s, "stone_giant", 9)  # unstoppable
    enemy._start(s, h.Dice(), [], giant, upkeep=False)
    assert giant["i"] >= 12
    enemy.start_allies_round(s, [])
    assert s["walls"] == []
