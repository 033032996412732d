"""Hit rolls, damage, crits, immunity and status tokens: the digest's worked examples TC-01 to TC-13, TC-31."""

from __future__ import annotations

import pytest

from rules.base import Action, Event
from rules.kings_armory import GAME, enemy, figures
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import STEP, board, range_distance
from rules.kings_armory.shapes import Ally, Monster, State

from .helpers import (
    Dice,
    add_champion,
    add_hero,
    add_monster,
    figure,
    lane_square,
    open_square_at,
    scene,
    square_of,
    tower_at_range,
)


def _activate(s: State, ally: Ally) -> None:
    s["active"] = ally["id"]
    ally["ap"] = figures.ally_card(ally)["ap"]


def _attack(s: State, ally: Ally, action: Action, *rolls: int) -> list[Event]:
    _activate(s, ally)
    assert GAME.is_legal(s, ally["seat"], action), action
    events: list[Event] = []
    allies_round.apply(s, Dice(*rolls), events, ally["seat"], action)
    return events


def _archer_and_troll(distance: int = 6) -> tuple[State, Ally, Monster]:
    s = scene()
    troll = add_monster(s, "bridge_troll", 20)
    archer = add_champion(s, "archer", open_square_at(s, lane_square(s, 20), distance))
    return s, archer, troll


@pytest.mark.parametrize(("natural", "hp"), [(8, 15), (7, 15), (6, 16), (20, 15), (1, 16)])
def test_tc01_level_1_archer_against_the_bridge_troll(natural: int, hp: int) -> None:
    s, archer, troll = _archer_and_troll()
    _attack(s, archer, Action.of("attack", opt="bow", target=troll["id"]), natural)
    assert troll["hp"] == hp


def test_tc01_range_seven_is_out_of_reach_but_a_tower_adds_one() -> None:
    s, archer, troll = _archer_and_troll(7)
    _activate(s, archer)
    action = Action.of("attack", opt="bow", target=troll["id"])
    assert not GAME.is_legal(s, 0, action)
    tower, square = tower_at_range(s, lane_square(s, 20), 7)
    archer.update({"pos": list(square), "inside": True, "house": tower})
    assert GAME.is_legal(s, 0, action)


@pytest.mark.parametrize(("natural", "hp", "bleed"), [(10, 15, 0), (19, 11, 1), (20, 11, 1)])
def test_tc02_valcor_mace_strike(natural: int, hp: int, bleed: int) -> None:
    s = scene()
    troll = add_monster(s, "bridge_troll", 20)
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
    _attack(s, valcor, Action.of("attack", opt="mace", target=troll["id"]), natural)
    assert (troll["hp"], troll["st"]["bleed"]) == (hp, bleed)


def test_tc02_bleed_at_upkeep_and_its_cap() -> None:
    s = scene()
    troll = add_monster(s, "bridge_troll", 20)
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
    troll["hp"] = troll["max"] = 40  # sturdier than printed, to see the cap
    for _ in range(4):
        _attack(s, valcor, Action.of("attack", opt="mace", target=troll["id"]), 19)
        s["turn"] = 0
    assert troll["st"]["bleed"] == 3
    hp = troll["hp"]
    assert enemy._upkeep(s, [], troll)
    assert troll["hp"] == hp - 3 and troll["st"]["bleed"] == 3


def test_tc02_melee_cannot_leave_a_tower() -> None:
    s = scene()
    troll = add_monster(s, "bridge_troll", 20)
    tower, square = tower_at_range(s, lane_square(s, 20), 1)
    valcor = add_hero(s, "valcor", square)
    valcor.update({"inside": True, "house": tower})
    _activate(s, valcor)
    assert not GAME.is_legal(s, 0, Action.of("attack", opt="mace", target=troll["id"]))


def test_tc03_head_shot_on_an_immune_wind_drake_does_nothing() -> None:
    s = scene()
    drake = add_monster(s, "wind_drake", 20)
    ember = add_hero(s, "ember", open_square_at(s, lane_square(s, 20), 4))
    _attack(s, ember, Action.of("attack", opt="headshot", target=drake["id"]), 20)
    assert drake["hp"] == 16 and not any(drake["st"].values())
    assert ember["attacks"] == 0  # an attack on an immune target never counts toward the minimum


@pytest.mark.parametrize(("key", "boss", "survives"), [("bridge_troll", False, False), ("battering_ram", False, True),
                                                       ("grukk", True, True)])
def test_tc03_head_shot_insta_kill_and_its_immunities(key: str, boss: bool, survives: bool) -> None:
    s = scene()
    target = add_monster(s, key, 20, boss=boss)
    ember = add_hero(s, "ember", open_square_at(s, lane_square(s, 20), 4))
    start = target["hp"]
    _attack(s, ember, Action.of("attack", opt="headshot", target=target["id"]), 20)
    alive = any(m["id"] == target["id"] for m in s["monsters"])
    assert alive == survives
    if survives:
        assert target["hp"] < start


def test_tc04_minimum_one_and_immunity() -> None:
    assert figures.damage(1, 1, False, 2, 0, 4) == [1]
    assert figures.damage(3, 1, True, 2, 0, "Im") == [0]


def test_tc05_auto_never_rolls() -> None:
    s = scene()
    cultist = add_monster(s, "dark_cultist", 20)
    boleslaw = add_hero(s, "boleslaw", open_square_at(s, lane_square(s, 20), 3))
    _attack(s, boleslaw, Action.of("attack", opt="bolt", target=cultist["id"]))  # no die scripted: none is used
    assert cultist["hp"] == 8 - 1


def test_tc06_natural_one_and_crit_range() -> None:
    assert figures.roll_hit(1, 30, 5, [20]) == (False, False)
    assert figures.roll_hit(19, -10, 20, [19, 20]) == (True, True)
    assert figures.roll_hit(7, 5, 12, [20]) == (True, False)


def test_tc07_half_again_rounds_up() -> None:
    assert figures.damage(5, 1, True, 1.5, 0, 1) == [7]
    assert figures.damage(2, 1, True, 1.5, 0, 0) == [3]


def test_tc08_double_hits_are_reduced_one_by_one() -> None:
    assert sum(figures.damage(2, 2, False, 2, 0, 3)) == 2
    assert sum(figures.damage(2, 2, True, 2, 0, 3)) == 2
    assert sum(figures.damage(2, 2, True, 2, 0, 1)) == 6


@pytest.mark.parametrize(("start", "kind", "result"), [
    ((3, 0), "bleed", (3, 0)), ((0, 2), "burn", (0, 2)), ((2, 2), "bleed", (3, 1)), ((3, 1), "burn", (2, 2)),
    ((3, 1), "bleed", (3, 1)), ((1, 2), "bleed", (2, 2)), ((2, 1), "burn", (2, 2))])
def test_tc11_bleed_and_burn_caps(start: tuple[int, int], kind: str, result: tuple[int, int]) -> None:
    tokens = figures.no_status()
    tokens["bleed"], tokens["burn"] = start
    figures.add_status(tokens, kind)
    assert (tokens["bleed"], tokens["burn"]) == result


@pytest.mark.parametrize(("boss", "slow", "mv"), [(False, 1, 3), (False, 2, 1), (False, 3, 1), (True, 1, 4),
                                                  (True, 2, 3), (True, 4, 3)])
def test_tc12_slow(boss: bool, slow: int, mv: int) -> None:
    mon = figure("vyrax" if boss else "giant_bat", boss=boss, slow=slow)
    if boss:
        mon["key"] = "vyrax"  # Mv 5
    assert figures.monster_mv(mon) == mv


def test_tc12_slow_boss_below_three_keeps_its_movement() -> None:
    mon = figure("colossus", boss=True, slow=2)
    assert figures.monster_mv(mon) == 2


def test_tc13_stun_costs_the_turn_after_bleed_and_burn() -> None:
    s = scene()
    troll = add_monster(s, "bridge_troll", 20)
    troll["st"].update({"stun": 1, "bleed": 1, "burn": 1})
    assert not enemy._upkeep(s, [], troll)
    assert troll["hp"] == 14 and troll["st"]["stun"] == 0
    assert enemy._upkeep(s, [], troll)


def test_tc13_bosses_and_siege_ignore_stun() -> None:
    assert figures.status_immune(figure("grukk", boss=True), "stun")
    assert figures.status_immune(figure("catapult", boss=False), "stun")
    assert not figures.status_immune(figure("orc_warrior", boss=False), "stun")


def test_tc31_range_counting() -> None:
    assert [range_distance((5, 5), sq) for sq in [(6, 6), (5, 7), (7, 6), (7, 7)]] == [1, 2, 3, 4]


def test_tc09_area_must_fit_in_range_and_hits_allies_too() -> None:
    s = scene()
    ember = add_hero(s, "ember", open_square_at(s, lane_square(s, 20), 3))
    rat = add_monster(s, "giant_rat", 20)
    _activate(s, ember)
    legal = [la.action for la in GAME.legal_actions(s, 0) if la.action.get("opt") == "rain"]
    assert legal
    p = square_of(ember)
    for action in legal:
        cells = allies_round.area_squares(s, ember, figures.offered_options(ember)[1], action)
        assert all(range_distance(p, q) <= 7 for q in cells)
        assert lane_square(s, 20) in cells
    # one die for the area: the rat (Dodge 9) is hit with 6 + 4; a Felicity standing in it is not (Dodge 12)
    action = legal[0]
    cells = allies_round.area_squares(s, ember, figures.offered_options(ember)[1], action)
    spot = next(q for q in cells if s and q != lane_square(s, 20) and 0 <= q[0] < 16 and 0 <= q[1] < 16
                and q != p)
    felicity = add_hero(s, "felicity", spot)
    _attack(s, ember, action, 6)
    assert rat["hp"] == 3 - 1 and felicity["hp"] == 14


def test_tc32_chain_lightning_line_hits_everything_on_it_with_one_roll() -> None:
    s = scene()
    target = lane_square(s, 20)
    rat = add_monster(s, "giant_rat", 20)
    b = board(s["map"])
    start = next(q for q in [(target[0] - 3 * dr, target[1] - 3 * dc) for dr, dc in STEP.values()] if b.open_ground(q))
    sorcerer = add_champion(s, "sorcerer", start, level=3)
    _activate(s, sorcerer)
    lines = [la.action for la in GAME.legal_actions(s, 0) if la.action.get("opt") == "chain"]
    assert len(lines) == 1
    chain = next(o for o in figures.offered_options(sorcerer) if o["id"] == "chain")
    cells = allies_round.area_squares(s, sorcerer, chain, lines[0])
    assert len(cells) == 5 and target in cells and all(range_distance(start, q) <= 5 for q in cells)
    _attack(s, sorcerer, lines[0], 15)
    assert not any(m["id"] == rat["id"] for m in s["monsters"])  # 3 SN damage on a 3-HP rat


def test_tc10_flame_thrower_burns_on_every_hit() -> None:
    s = scene()
    orc = add_monster(s, "orc_warrior", 20)
    midnight = add_hero(s, "midnight", open_square_at(s, lane_square(s, 20), 2))
    _activate(s, midnight)
    flames = [la.action for la in GAME.legal_actions(s, 0) if la.action.get("opt") == "flamer"]
    assert flames
    _attack(s, midnight, flames[0], 10)
    assert orc["hp"] == 9 - 2 and orc["st"]["burn"] == 1


def test_tc36_bless_adds_two_to_hit_and_one_to_resistances_until_the_next_round() -> None:
    s = scene()
    troll = add_monster(s, "bridge_troll", 20)
    archer = add_champion(s, "archer", open_square_at(s, lane_square(s, 20), 5))
    archer["st"]["bless"] = 1
    _attack(s, archer, Action.of("attack", opt="bow", target=troll["id"]), 5)  # 5 + 5 + 2 = 12 hits Dodge 12
    assert troll["hp"] == 15
    assert figures.ally_res(archer, "R") == 2
    s["turn"] = -1
    enemy.start_allies_round(s, [])
    assert archer["st"]["bless"] == 0 and figures.ally_res(archer, "R") == 1
