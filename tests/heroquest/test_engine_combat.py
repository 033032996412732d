"""Combat on the board with scripted dice: hits and shields, stun, poison, death and potions, shock, reach."""

from __future__ import annotations

import pytest

from rules.base import IllegalAction
from rules.heroquest import GAME
from rules.heroquest.state import HQState
from tests.heroquest.hq_helpers import act, dice, fresh, hero, kinds, monster, new, put, step, tokens


def duel(ref: str = "orc", sq: tuple[int, int] = (3, 3)) -> HQState:
    """The barbarian at (3,2) next to a monster in the starting room."""
    s = new([monster("m_1", ref, sq)])
    put(s, "barbarian", (3, 2))
    return fresh(s)


def test_attack_skulls_against_black_shields() -> None:
    s = duel()
    assert "attack target=orc_1" in tokens(s, 1) and "attack fists=!true target=orc_1" in tokens(s, 1)
    with dice("wskull", "bskull", "wshield", "bshield", "wskull") as left:
        result = step(s, 1, "attack", target="orc_1")
    assert left == [] and not result.undoable
    assert "orc_1" not in result.state.monsters  # 2 skulls, 1 black shield: 1 damage kills the orc


def test_monster_defends_only_with_black_shields() -> None:
    s = duel("fimir")
    with dice("wskull", "wshield", "wshield", "wshield", "wshield", "wshield"):
        s = act(s, 1, "attack", target="fimir_1")
    assert s.monsters["fimir_1"]["body"] == 1


def test_fimir_stunned_by_a_mace_loses_its_turn() -> None:
    s = duel("fimir")
    hero(s, "barbarian")["weapon"] = "mace"
    s = fresh(s)
    with dice("bskull", "wskull", "wskull", "wskull", "bshield"):
        s = act(s, 1, "attack", target="fimir_1")
    assert s.monsters["fimir_1"]["body"] == 2 and s.monsters["fimir_1"]["status"].get("stun")
    s = act(s, 1, "end_turn")
    s = act(s, 1, "end_turn")
    assert s.d["turn"]["who"] == "gm"
    assert not any(la.action.get("monster") == "fimir_1" for la in GAME.legal_actions(s, 0))


def test_unarmed_wizard_hits_only_on_black_skulls() -> None:
    s = new([monster("m_1", "orc", (3, 3))], heroes="barbarian,wizard")
    for group in ("air", "earth", "fire"):
        s = act(s, 1, "choose_spells", group=group)
    s = act(s, 1, "end_turn")
    put(s, "wizard", (3, 2))
    hero(s, "wizard")["weapon"] = None
    s = fresh(s)
    with dice("wskull"):
        s = act(s, 1, "attack", target="orc_1")
    assert "orc_1" in s.monsters


def test_poison_rolled_at_the_start_of_the_turn() -> None:
    s = duel()
    hero(s, "dwarf")["status"]["poison"] = True
    s = fresh(s)
    with dice("wskull"):
        s = act(s, 1, "end_turn")
    assert hero(s, "dwarf")["body"] == 6 and hero(s, "dwarf")["status"].get("poison")
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    with dice("bshield"):
        s = act(s, 1, "end_turn")
    assert not hero(s, "dwarf")["status"].get("poison") and hero(s, "dwarf")["body"] == 6


def test_giant_spider_poisons_on_a_wound() -> None:
    s = duel("giant_spider")
    s = act(s, 1, "end_turn")
    s = act(s, 1, "end_turn")
    with dice("wskull", "wskull", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="giant_spider_1", target="hero_barbarian")
    assert hero(s, "barbarian")["status"].get("poison") and hero(s, "barbarian")["body"] == 6


def gm_turn(s: HQState) -> HQState:
    s = act(s, 1, "end_turn")
    return act(s, 1, "end_turn")


def test_restoration_potion_saves_from_death_once_per_turn() -> None:
    s = duel("chaos_warrior")
    b = hero(s, "barbarian")
    b["body"] = 1
    b["items"] = ["restoration", "restoration"]
    s = gm_turn(fresh(s))
    with dice("wskull", "wskull", "bshield", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="chaos_warrior_1", target="hero_barbarian")
    assert GAME.to_act(s) == frozenset({1})
    assert kinds(s, 1) == {"drink", "accept_death"}
    s = act(s, 1, "drink", item="restoration")
    assert hero(s, "barbarian")["body"] == 3  # 4 restored from -1
    assert not hero(s, "barbarian")["dead"] and GAME.to_act(s) == frozenset({0})
    # a second killing blow in the same turn: no second potion
    s.monsters["chaos_warrior_1"]["acted"] = False
    hero(s, "barbarian")["body"] = 1
    s = fresh(s)
    with dice("wskull", "wskull", "wskull", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="chaos_warrior_1", target="hero_barbarian")
    b = hero(s, "barbarian")
    assert b["dead"] and b["sq"] is None
    corpse = s.objects["corpse_barbarian"]
    assert "broadsword" in corpse["items"] and "restoration" in corpse["items"]


def test_recovering_equipment_from_a_corpse() -> None:
    s = duel("chaos_warrior")
    hero(s, "barbarian")["body"] = 1
    s = gm_turn(fresh(s))
    with dice("wskull", "bshield", "bshield", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="chaos_warrior_1", target="hero_barbarian")
    assert hero(s, "barbarian")["dead"]
    assert "hero_dwarf" in s.objects["corpse_barbarian"]["witnesses"]
    del s.monsters["chaos_warrior_1"]
    s = fresh(s)
    s = act(s, 0, "end_turn")
    s = act(s, 1, "move", to="C4")
    s = act(s, 1, "recover")
    assert "broadsword" in hero(s, "dwarf")["items"]


def test_shock_limits_attack_and_defence_dice() -> None:
    s = duel("chaos_warrior")
    hero(s, "barbarian").update({"mind": 0, "shield": "shield", "helmet": "helmet"})
    s = fresh(s)
    with dice("wskull", "wshield", "wshield", "wshield", "wshield"):
        s = act(s, 1, "attack", target="chaos_warrior_1")  # one die only
    s = act(s, 1, "end_turn")
    s = act(s, 1, "end_turn")
    with dice("wskull", "wskull", "wskull", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="chaos_warrior_1", target="hero_barbarian")  # two defence dice only
    assert hero(s, "barbarian")["body"] == 5


def test_diagonal_only_with_weapons_that_allow_it() -> None:
    s = duel(sq=(2, 3))
    assert not any(la.action.kind == "attack" for la in GAME.legal_actions(s, 1))
    hero(s, "barbarian")["weapon"] = "longsword"
    s = fresh(s)
    assert "attack target=orc_1" in tokens(s, 1)


def test_crossbow_needs_distance_and_a_clear_line() -> None:
    s = duel(sq=(3, 3))
    hero(s, "barbarian")["weapon"] = "crossbow"
    s = fresh(s)
    assert "attack target=orc_1" not in tokens(s, 1)  # adjacent
    put(s, "barbarian", (1, 3))
    s = fresh(s)
    put(s, "dwarf", (2, 3))
    s = fresh(s)
    assert "attack target=orc_1" not in tokens(s, 1)  # the dwarf is in the way
    put(s, "dwarf", (1, 4))
    s = fresh(s)
    assert "attack target=orc_1" in tokens(s, 1)


def test_thrown_dagger_leaves_the_hand() -> None:
    s = duel(sq=(3, 4))
    hero(s, "barbarian")["weapon"] = "dagger"
    put(s, "barbarian", (1, 4))
    s = fresh(s)
    with dice("wshield"):
        s = act(s, 1, "attack", target="orc_1")
    assert hero(s, "barbarian")["weapon"] is None and s.d["thrown"][0]["item"] == "dagger"


def test_double_attack_is_two_attacks() -> None:
    s = duel("chaos_warrior")
    hero(s, "barbarian")["status"]["brew"] = True
    s = fresh(s)
    with dice("wshield", "wshield", "wshield"):
        s = act(s, 1, "attack", target="chaos_warrior_1")
    assert "attack" in kinds(s, 1)
    with dice("wshield", "wshield", "wshield"):
        s = act(s, 1, "attack", target="chaos_warrior_1")
    assert "attack" not in kinds(s, 1)
    with pytest.raises(IllegalAction):
        act(s, 1, "attack", target="chaos_warrior_1")


def test_dice_are_seeded() -> None:
    a = act(duel("chaos_warrior"), 1, "attack", target="chaos_warrior_1")
    b = act(duel("chaos_warrior"), 1, "attack", target="chaos_warrior_1")
    assert GAME.to_json(a) == GAME.to_json(b)
