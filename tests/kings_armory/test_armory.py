"""Equipment, reinforcement and Armory cards (§4.5, §4.6, §8.6–8.8, TC-25), one test per shop item and per card;
moves out of turn through `may_act` (card play, blocks, Boleslaw, P-25)."""

from __future__ import annotations

from typing import Literal

import pytest

from rules.base import SYSTEM, Action, ArgValue, IllegalAction, Scalar
from rules.kings_armory import GAME, armory, data, enemy, figures, queries
from rules.kings_armory.board import board
from rules.kings_armory.shapes import Ally, GearPiece, State

from .helpers import (
    Dice,
    add_champion,
    add_hero,
    add_monster,
    lane_square,
    on_board,
    open_square_at,
    scene,
    square_of,
)


def _between(seats: int = 1, gold: int = 0) -> State:
    s = scene(seats=seats)
    s.update({"phase": "between", "gold": gold, "ready": []})
    for seat in range(seats):
        add_hero(s, ["valcor", "ember", "boleslaw"][seat], (seat, 0), seat=seat)
    return s


def _act(s: State, seat: int, action: Action) -> State:
    return GAME.apply(s, seat, action).state


def _give(s: State, card: str, seat: int = 0) -> GearPiece:
    """Put an unlocked piece in `seat`'s hands (taken from the deck or from another seat's locked pair)."""
    piece = next((g for g in s["gear"] if g["card"] == card), None)
    if piece is None:
        s["gear_deck"].remove(card)
        piece = {"id": f"e{len(s['gear']) + 90}", "card": card, "seat": seat, "locked": False, "on": None}
        s["gear"].append(piece)
    piece.update({"seat": seat, "locked": False})
    return piece


def _equip(card: str, hero: str = "valcor") -> tuple[State, Ally]:
    s = scene()
    a = add_hero(s, hero, (8, 8))
    piece = _give(s, card)
    s.update({"phase": "between", "gold": 0, "ready": []})
    s = _act(s, 0, Action.of("equip", gear=piece["id"], ally=a["id"]))
    return s, queries.ally(s, a["id"])


# ---------------------------------------------------------------- equipment: the shop items


def test_every_seat_starts_with_two_locked_pieces() -> None:
    s = GAME.new(GAME.resolve_options({}), 7, 5)
    assert [sum(1 for g in s["gear"] if g["seat"] == seat and g["locked"]) for seat in range(7)] == [2] * 7
    assert s["gear_deck"] == []  # 7 × 2 = all 14 cards
    view = GAME.view(s, None)
    assert "gear_deck" not in view and "rdeck" not in view and "adeck" not in view  # blind decks stay hidden


def test_tc25_unlocking_a_starting_piece_costs_150_and_a_locked_one_cannot_be_sold_or_worn() -> None:
    s = _between(gold=200)
    piece = s["gear"][0]
    hero = s["allies"][0]
    assert not GAME.is_legal(s, 0, Action.of("sell_gear", gear=piece["id"]))
    assert not GAME.is_legal(s, 0, Action.of("equip", gear=piece["id"], ally=hero["id"]))
    s = _act(s, 0, Action.of("unlock", gear=piece["id"]))
    assert s["gold"] == 50 and not s["gear"][0]["locked"]
    assert not GAME.is_legal(s, 0, Action.of("unlock", gear=s["gear"][1]["id"]))  # 50 < 150


def test_tc25_blind_equipment_waits_until_someone_has_unlocked_both_starting_pieces() -> None:
    s = _between(gold=500)
    assert not GAME.is_legal(s, 0, Action.of("buy_gear"))
    s = _act(s, 0, Action.of("unlock", gear=s["gear"][0]["id"]))
    assert not GAME.is_legal(s, 0, Action.of("buy_gear"))
    s = _act(s, 0, Action.of("unlock", gear=s["gear"][1]["id"]))
    step = GAME.apply(s, 0, Action.of("buy_gear"))
    s = step.state
    assert s["gold"] == 100 and len(s["gear"]) == 3 and not s["gear"][2]["locked"] and not step.undoable
    assert GAME.check_invariants(s) == []


def test_tc25_selling_unlocked_unworn_equipment_gives_50() -> None:
    s = _between(gold=150)
    s = _act(s, 0, Action.of("unlock", gear=s["gear"][0]["id"]))
    gid = s["gear"][0]["id"]
    s = _act(s, 0, Action.of("equip", gear=gid, ally=s["allies"][0]["id"]))
    assert not GAME.is_legal(s, 0, Action.of("sell_gear", gear=gid))  # worn
    s = _act(s, 0, Action.of("unequip", gear=gid))
    s = _act(s, 0, Action.of("sell_gear", gear=gid))
    assert s["gold"] == 50 and all(g["id"] != gid for g in s["gear"]) and GAME.check_invariants(s) == []


def test_a_hero_carries_at_most_two_pieces() -> None:
    s, a = _equip("cloak")
    for card in ("boots", "ring"):
        _give(s, card)
    boots, ring = (next(g for g in s["gear"] if g["card"] == c) for c in ("boots", "ring"))
    s = _act(s, 0, Action.of("equip", gear=boots["id"], ally=a["id"]))
    assert not GAME.is_legal(s, 0, Action.of("equip", gear=ring["id"], ally=a["id"]))
    assert sorted(queries.ally(s, a["id"])["gear"]) == ["boots", "cloak"]


def test_equipment_is_handled_between_waves_only() -> None:
    s, _ = _equip("cloak")
    s["phase"], s["turn"] = "allies", 0
    gid = next(g["id"] for g in s["gear"] if g["card"] == "cloak")
    assert not GAME.is_legal(s, 0, Action.of("unequip", gear=gid))


# ---------------------------------------------------------------- equipment: the fourteen cards


def test_whetstone_adds_one_damage_to_the_primary_attack_only() -> None:
    _, a = _equip("whetstone")
    card = figures.ally_card(a)
    assert [o["dmg"] for o in card["options"] if o["kind"] == "attack"] == [5, 2]  # Mace 4 → 5, Shield Bash 2


def test_chainmail_hauberk_warding_ring_cloak_boots_and_tower_shield_change_the_card() -> None:
    base = figures.ally_card(add_hero(scene(), "valcor", (8, 8)))
    res = base["res"]
    expected: dict[str, tuple[Literal["res", "dodge", "mv"], object]] = {
        "hauberk": ("res", {"M": res["M"] + 1, "R": res["R"] + 1, "SN": res["SN"]}),
        "ring": ("res", {**res, "SN": res["SN"] + 2}),
        "cloak": ("dodge", base["dodge"] + 1), "boots": ("mv", base["mv"] + 1)}
    for card, (stat, value) in expected.items():
        _, a = _equip(card)
        assert figures.ally_card(a)[stat] == value, card
    _, a = _equip("tower_shield")
    assert (figures.tank(a), figures.ally_mv(a)) == (base["tank"] + 1, base["mv"] - 1)


def test_amulet_of_vigor_raises_max_and_current_hp_and_takes_them_back_when_removed() -> None:
    s, a = _equip("amulet")
    assert (a["hp"], figures.ally_card(a)["max"]) == (24, 24)
    a["hp"] = 3
    s = _act(s, 0, Action.of("unequip", gear=next(g["id"] for g in s["gear"] if g["card"] == "amulet")))
    assert queries.ally(s, a["id"])["hp"] == 1  # −4, minimum 1


def test_eagle_eye_quiver_focus_crystal_and_keen_gauntlets_work_by_attack_type() -> None:
    _, ember = _equip("quiver", "ember")
    bow = next(o for o in figures.ally_card(ember)["options"] if o["id"] == "longbow")
    assert (bow["range"], bow["hit"]) == (7, 7)
    _, midnight = _equip("crystal", "midnight")
    blast = next(o for o in figures.ally_card(midnight)["options"] if o["id"] == "blast")
    assert blast["dmg"] == 4
    _, valcor = _equip("gauntlets")
    bash = next(o for o in figures.ally_card(valcor)["options"] if o["id"] == "bash")
    assert bash["crit"] == [19, 20]


def test_throwing_axes_add_an_attack_option() -> None:
    s, a = _equip("axes")
    s.update({"phase": "allies", "turn": 0, "active": a["id"]})
    a = queries.ally(s, a["id"])
    a["ap"] = 3
    orc = add_monster(s, "orc_warrior", 20)
    a["pos"] = list(open_square_at(s, lane_square(s, 20), 3))
    assert Action.of("attack", opt="axes", target=orc["id"]) in [la.action for la in GAME.legal_actions(s, 0)]


def test_potion_belt_heals_six_once_per_wave() -> None:
    s, a = _equip("potions")
    s.update({"phase": "allies", "turn": 0, "active": a["id"]})
    a = queries.ally(s, a["id"])
    a["ap"], a["hp"] = 3, 5
    s = _act(s, 0, Action.of("special", opt="potion"))
    assert queries.ally(s, a["id"])["hp"] == 11
    assert Action.of("special", opt="potion") not in [la.action for la in GAME.legal_actions(s, 0)]
    enemy.end_wave(s, [])
    assert queries.ally(s, a["id"])["once"] == []


def test_hourglass_charm_gives_one_more_action_point_once_per_wave() -> None:
    s, a = _equip("hourglass")
    s.update({"phase": "allies", "turn": 0, "active": None})
    add_monster(s, "orc_warrior", 40)
    s = _act(s, 0, Action.of("activate", ally=a["id"], charm=True))
    assert queries.ally(s, a["id"])["ap"] == 4
    s = _act(s, 0, Action.of("end"))
    queries.ally(s, a["id"])["done"] = False
    assert Action.of("activate", ally=a["id"], charm=True) not in [la.action for la in GAME.legal_actions(s, 0)]


# ---------------------------------------------------------------- reinforcement and Armory cards: buying


def test_tc25_reinforcements_cost_150_and_the_team_holds_at_most_three() -> None:
    s = _between(gold=1000)
    for _ in range(3):
        s = _act(s, 0, Action.of("buy_card"))
    assert s["gold"] == 550 and len(s["hand"]) == 3
    assert not GAME.is_legal(s, 0, Action.of("buy_card"))
    assert GAME.check_invariants(s) == []


def test_reinforcements_can_be_bought_and_played_during_the_enemy_turn_by_anyone() -> None:
    s = scene(seats=2)
    add_hero(s, "valcor", (0, 0))
    add_hero(s, "ember", (0, 2), seat=1)
    orc = add_monster(s, "orc_warrior", 20)
    s.update({"phase": "enemy", "turn": -1, "gold": 300})
    assert GAME.to_act(s) == {SYSTEM}
    buy = Action.of("buy_card")
    assert GAME.may_act(s, 1, buy) and GAME.is_legal(s, 1, buy)
    s["rdeck"].remove("flash_bomb")
    s["rdeck"].append("flash_bomb")  # the top card
    step = GAME.apply(s, 1, buy)
    assert step.state["hand"] == ["flash_bomb"] and not step.undoable
    play = Action.of("play", card="flash_bomb", targets=[orc["id"]])
    assert GAME.may_act(step.state, 0, play)
    s2 = GAME.apply(step.state, 0, play).state
    assert on_board(s2, orc["id"])["st"]["stun"] == 1 and s2["hand"] == [] and s2["used_cards"] == ["flash_bomb"]


def test_tc25_the_armory_card_costs_1000_or_1200_only_between_waves_one_at_a_time() -> None:
    s = _between(gold=2500)
    s = _act(s, 0, Action.of("buy_armory"))
    assert s["gold"] == 1500 and s["armory"] is not None
    assert not GAME.is_legal(s, 0, Action.of("buy_armory"))
    seven = _between(gold=1200)
    seven["waves"] = 7
    assert _act(seven, 0, Action.of("buy_armory"))["gold"] == 0
    during = scene()
    during.update({"gold": 5000})
    add_hero(during, "valcor", (0, 0))
    assert not GAME.is_legal(during, 0, Action.of("buy_armory"))  # the allies' round of a wave


def test_cards_are_not_played_between_waves() -> None:
    s = _between(gold=0)
    s["hand"] = ["supply_wagon"]
    s["rdeck"].remove("supply_wagon")
    assert not GAME.is_legal(s, 0, Action.of("play", card="supply_wagon"))


# ---------------------------------------------------------------- the cards, one by one


def _with_card(key: str) -> State:
    s = scene()
    if data.cards()[key]["deck"] == "armory":
        s["adeck"].remove(key)
        s["armory"] = key
    else:
        s["rdeck"].remove(key)
        s["hand"] = [key]
    return s


def _play(s: State, **args: ArgValue | list[Scalar]) -> State:
    key = s["armory"] or s["hand"][0]
    action = Action.of("play", card=key, **args)
    assert GAME.is_legal(s, 0, action), action
    out = GAME.apply(s, 0, action).state
    assert GAME.check_invariants(out) == []
    return out


def test_catapult_barrage_hits_every_figure_in_a_3x3_area_with_3_ranged() -> None:
    s = _with_card("catapult_barrage")
    orc = add_monster(s, "orc_warrior", 20)  # R resistance 0
    sq = lane_square(s, 20)
    valcor = add_hero(s, "valcor", open_square_at(s, sq, 1))  # R resistance 1
    anchor = (min(sq[0], square_of(valcor)[0]), min(sq[1], square_of(valcor)[1]))
    s = _play(s, at=board(s["map"]).label(anchor))
    assert on_board(s, orc["id"])["hp"] == 6 and queries.ally(s, valcor["id"])["hp"] == 18


def test_ballista_bolt_hits_monsters_on_eight_squares_from_the_edge() -> None:
    s = _with_card("ballista_bolt")
    add_hero(s, "valcor", (0, 0))
    b = board(s["map"])
    sq = next(q for q in b.lanes["L"] if b.on_field(q) and q[1] < 8)
    orc = add_monster(s, "orc_warrior", b.lanes["L"].index(sq))
    s = _play(s, edge="W", line=sq[0])
    assert on_board(s, orc["id"])["hp"] == 9 - 5


def test_boiling_oil_burns_monsters_near_an_exit() -> None:
    s = _with_card("boiling_oil")
    add_hero(s, "valcor", (0, 0))
    b = board(s["map"])
    k = len(b.lanes["L"]) - 3
    orc = add_monster(s, "orc_warrior", k)
    sq = b.lanes["L"][k]
    s = _play(s, at=b.label(sq))
    m = on_board(s, orc["id"])
    assert m["hp"] == 9 - 4 and m["st"]["burn"] == 1
    far = _with_card("boiling_oil")
    assert not GAME.is_legal(far, 0, Action.of("play", card="boiling_oil", at="A1"))  # not within 4 of an exit


def test_cavalry_charge_hits_ground_monsters_on_six_lane_squares() -> None:
    s = _with_card("cavalry_charge")
    add_hero(s, "valcor", (0, 0))
    orc = add_monster(s, "orc_warrior", 12)
    bat = add_monster(s, "giant_bat", 13)
    s = _play(s, lane="L", start=10)
    assert on_board(s, orc["id"])["hp"] == 9 - (4 - 1) and on_board(s, bat["id"])["hp"] == 5


def test_powder_keg_hits_every_figure_in_a_2x2_area_with_6_ranged() -> None:
    s = _with_card("powder_keg")
    orc = add_monster(s, "orc_warrior", 20)
    add_hero(s, "valcor", (0, 0))
    s = _play(s, at=board(s["map"]).label(lane_square(s, 20)))
    assert on_board(s, orc["id"])["hp"] == 3


def test_net_throwers_slow_up_to_three_non_boss_monsters() -> None:
    s = _with_card("net_throwers")
    add_hero(s, "valcor", (0, 0))
    ms = [add_monster(s, "orc_warrior", i) for i in (10, 12, 14)]
    boss = add_monster(s, "grukk", 20, boss=True)
    assert not GAME.is_legal(s, 0, Action.of("play", card="net_throwers", targets=[boss["id"]]))
    s = _play(s, targets=[m["id"] for m in ms])
    assert [on_board(s, m["id"])["st"]["slow"] for m in ms] == [1, 1, 1]


def test_flash_bomb_stuns_one_non_boss_non_siege_monster() -> None:
    s = _with_card("flash_bomb")
    add_hero(s, "valcor", (0, 0))
    ram = add_monster(s, "battering_ram", 10)
    orc = add_monster(s, "orc_warrior", 12)
    assert not GAME.is_legal(s, 0, Action.of("play", card="flash_bomb", targets=[ram["id"]]))
    s = _play(s, targets=[orc["id"]])
    assert on_board(s, orc["id"])["st"]["stun"] == 1


def test_supply_wagon_heals_every_standing_ally_four() -> None:
    s = _with_card("supply_wagon")
    add_monster(s, "orc_warrior", 30)
    a = add_hero(s, "valcor", (0, 0))
    a["hp"] = 10
    s = _play(s)
    assert queries.ally(s, a["id"])["hp"] == 14


def test_eagle_riders_hit_up_to_two_flyers() -> None:
    s = _with_card("eagle_riders")
    add_hero(s, "valcor", (0, 0))
    bats = [add_monster(s, "giant_bat", i) for i in (10, 12)]
    orc = add_monster(s, "orc_warrior", 14)
    assert not GAME.is_legal(s, 0, Action.of("play", card="eagle_riders", targets=[orc["id"]]))
    s = _play(s, targets=[bats[0]["id"]])
    assert queries.monster(s, bats[0]["id"]) is None  # 5 R on 5 HP


def test_gnome_sappers_destroy_one_siege_monster() -> None:
    s = _with_card("gnome_sappers")
    add_hero(s, "valcor", (0, 0))
    ram = add_monster(s, "battering_ram", 10)
    add_monster(s, "orc_warrior", 30)
    s = _play(s, targets=[ram["id"]])
    assert queries.monster(s, ram["id"]) is None and "battering_ram" in s["discard"]["2"]


def test_royal_blessing_blesses_up_to_three_allies() -> None:
    s = _with_card("royal_blessing")
    add_monster(s, "orc_warrior", 30)
    allies = [add_hero(s, k, (0, i)) for i, k in enumerate(("valcor", "ember"))]
    s = _play(s, targets=[a["id"] for a in allies])
    assert [queries.ally(s, a["id"])["st"]["bless"] for a in allies] == [1, 1]


def test_dwarven_thunder_cannon_hits_monsters_in_a_5x5_area() -> None:
    s = _with_card("thunder_cannon")
    troll = add_monster(s, "bridge_troll", 20)
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
    sq = lane_square(s, 20)
    s = _play(s, at=board(s["map"]).label((max(0, sq[0] - 2), max(0, sq[1] - 2))))
    assert on_board(s, troll["id"])["hp"] == 16 - 9  # monsters only
    assert queries.ally(s, valcor["id"])["hp"] == 20


def test_gnomish_lightning_engine_hits_every_monster() -> None:
    s = _with_card("lightning_engine")
    add_hero(s, "valcor", (0, 0))
    orc, cultist = add_monster(s, "orc_warrior", 10), add_monster(s, "dark_cultist", 30)
    s = _play(s)
    assert on_board(s, orc["id"])["hp"] == 3 and on_board(s, cultist["id"])["hp"] == 8 - 3


def test_the_sword_golem_enters_next_to_an_exit_for_the_rest_of_the_game() -> None:
    s = _with_card("sword_golem")
    valcor = add_hero(s, "valcor", (0, 0))
    add_monster(s, "orc_warrior", 30)
    spot = armory.golem_squares(s)[0]
    s = _play(s, at=board(s["map"]).label(spot))
    golem = next(a for a in s["allies"] if a["kind"] == "summon")
    assert golem["key"] == "golem" and queries.pos(golem) == spot and golem["hp"] == 25 and s["armory"] is None
    enemy.end_wave(s, [])
    assert golem["id"] in [a["id"] for a in s["allies"]]  # it stays for the rest of the game
    parapet = board(s["map"]).parapets["PW"]
    queries.ally(s, valcor["id"]).update({"pos": list(parapet), "house": "PW", "inside": True})
    assert Action.of("ready") in [la.action for la in GAME.legal_actions(s, 0)]  # the Golem needs no tower


def test_hourglass_of_the_king_holds_non_boss_monsters_for_one_enemy_turn() -> None:
    s = _with_card("hourglass")
    add_hero(s, "valcor", (0, 0))
    orc = add_monster(s, "orc_warrior", 10)
    s = _play(s)
    orc = on_board(s, orc["id"])
    s["turn"] = s["n"]
    enemy.start_enemy_turn(s, [])
    enemy._start(s, Dice(), [], orc, upkeep=True)
    assert orc["i"] == 10
    enemy.start_allies_round(s, [])
    enemy.start_enemy_turn(s, [])
    enemy._start(s, Dice(), [], orc, upkeep=True)
    assert orc["i"] == 13
    s["hourglass"] = "now"
    enemy.end_wave(s, [])
    assert s["hourglass"] is None  # spent on the turn that ended the wave: nothing carries over


def test_earthshaker_hammer_hits_and_stuns_ground_monsters_only() -> None:
    s = _with_card("earthshaker")
    add_hero(s, "valcor", (0, 0))
    troll, bat, ram = (add_monster(s, k, i)
                       for k, i in (("bridge_troll", 10), ("giant_bat", 12), ("battering_ram", 14)))
    s = _play(s)
    assert on_board(s, troll["id"])["hp"] == 16 - 5 and on_board(s, troll["id"])["st"]["stun"] == 1
    assert on_board(s, bat["id"])["hp"] == 5
    assert on_board(s, ram["id"])["hp"] == 12 - 6 and on_board(s, ram["id"])["st"]["stun"] == 0  # siege


def test_phoenix_standard_revives_and_heals_everyone() -> None:
    s = _with_card("phoenix")
    add_monster(s, "orc_warrior", 30)
    valcor, ember = add_hero(s, "valcor", (0, 0)), add_hero(s, "ember", (0, 2))
    ember.update({"hp": 0, "ko": True})
    valcor["hp"] = 2
    s = _play(s)
    assert (queries.ally(s, valcor["id"])["hp"], queries.ally(s, ember["id"])["hp"],
            queries.ally(s, ember["id"])["ko"]) == \
        (20, 14, False)


def test_dragonbone_ballista_hits_every_monster_on_a_row() -> None:
    s = _with_card("dragonbone")
    add_hero(s, "valcor", (0, 0))
    troll = add_monster(s, "bridge_troll", 20)
    s = _play(s, axis="row", line=lane_square(s, 20)[0])
    assert queries.monster(s, troll["id"]) is None  # 20 − 3 = 17 ≥ 16


# ---------------------------------------------------------------- out of turn (may_act)


def test_boleslaw_acts_out_of_turn_between_other_allies_activations() -> None:
    s = scene(seats=2)
    add_monster(s, "orc_warrior", 30)
    valcor = add_hero(s, "valcor", (0, 0))
    boleslaw = add_hero(s, "boleslaw", (0, 2), seat=1)
    s.update({"turn": 0, "active": None})
    wake = Action.of("activate", ally=boleslaw["id"])
    assert 1 not in GAME.to_act(s) and GAME.may_act(s, 1, wake) and GAME.is_legal(s, 1, wake)
    s = GAME.apply(s, 1, wake).state
    assert GAME.to_act(s) == {1} and not GAME.is_legal(s, 0, Action.of("activate", ally=valcor["id"]))
    s = GAME.apply(s, 1, Action.of("end")).state
    assert GAME.to_act(s) == {0} and queries.ally(s, boleslaw["id"])["done"]
    s = GAME.apply(s, 0, Action.of("activate", ally=valcor["id"])).state
    assert not GAME.may_act(s, 1, wake)  # not in the middle of another ally's activation


def test_other_heroes_do_not_act_out_of_turn() -> None:
    s = scene(seats=2)
    add_hero(s, "valcor", (0, 0))
    ember = add_hero(s, "ember", (0, 2), seat=1)
    s.update({"turn": 0})
    action = Action.of("activate", ally=ember["id"])
    assert not GAME.may_act(s, 1, action)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 1, action)


def test_anyone_may_block_during_the_allies_round() -> None:
    s = scene(seats=2)
    add_hero(s, "valcor", (0, 0))
    orc = add_monster(s, "orc_warrior", 20)
    soldier = add_champion(s, "foot", open_square_at(s, lane_square(s, 20), 1), seat=1)
    s.update({"turn": 0})
    block = Action.of("block", ally=soldier["id"], monster=orc["id"])
    assert GAME.may_act(s, 1, block)
    s = GAME.apply(s, 1, block).state
    assert on_board(s, orc["id"])["blocked_by"] == soldier["id"]


def test_moves_out_of_turn_are_listed_for_the_cog() -> None:
    s = scene(seats=2)
    add_monster(s, "orc_warrior", 30)
    add_hero(s, "valcor", (0, 0))
    boleslaw = add_hero(s, "boleslaw", (0, 2), seat=1)
    s.update({"turn": 0, "gold": 150})
    kinds = {la.action.kind for la in GAME.anytime_actions(s, 1)}
    assert kinds == {"buy_card", "activate", "hold", "order"}  # Boleslaw can block: he takes standing orders
    assert GAME.anytime_actions(s, 0) == []  # on turn: its moves are the ordinary legal actions
    assert all(GAME.may_act(s, 1, la.action) and GAME.is_legal(s, 1, la.action) for la in GAME.anytime_actions(s, 1))
    assert boleslaw["seat"] == 1


@pytest.mark.parametrize("key", sorted(k for k, c in data.cards().items() if c["target"] not in ("monsters", "allies")))
def test_the_direct_aim_check_agrees_with_the_full_listing(key: str) -> None:
    s = _with_card(key)
    add_hero(s, "valcor", (0, 0))
    add_monster(s, "orc_warrior", 20)
    every = armory.plays(s, key, full=True)
    assert every and all(armory.play_ok(s, a) for a in every)
    assert set(armory.plays(s, key, full=False)) <= set(every)
    for wrong in (Action.of("play", card=key, at="Z99"), Action.of("play", card=key, edge="N", line=99),
                  Action.of("play", card=key, axis="row", line=-1), Action.of("play", card=key, lane="Q", start=1),
                  Action.of("play", card=key, at="A1", extra=1)):
        assert not armory.play_ok(s, wrong) or wrong in every
