"""Every trap kind: pits and jumps (the Elf's long jump), falling rock, arrows, axes, pits of darkness,
slippery stairs, traps in furniture, and disarming them."""

from __future__ import annotations

import pytest

from rules.base import IllegalAction
from rules.heroquest import GAME
from rules.heroquest.quest import PlacedJson
from tests.heroquest.hq_helpers import act, board_view, dice, fresh, hero, kinds, new, put, step, tokens


def trap(uid: str, ref: str, sq: tuple[int, int]) -> PlacedJson:
    return {"uid": uid, "kind": "trap", "ref": ref, "squares": [list(sq)]}


def test_walking_onto_a_hidden_pit() -> None:
    s = new([trap("pit_1", "pit_trap", (3, 1))])
    assert "trap-B4" in GAME.secret_tokens(s)
    result = step(s, 1, "move", to="B4")
    s = result.state
    assert not result.undoable
    assert hero(s, "barbarian")["body"] == 7 and hero(s, "barbarian")["sq"] == [3, 1]
    assert s.d["turn"]["i"] == 1  # the turn ended
    assert "trap-B4" not in GAME.secret_tokens(s)
    shown = {o["uid"]: o["ref"] for o in board_view(s, 1)["objects"]}
    assert shown["trap-B4"] == "pit_trap"


def test_hidden_trap_stops_the_hero_on_the_way() -> None:
    s = new([trap("spear_1", "spear_trap", (2, 1))])
    with dice("wshield"):
        s = act(s, 1, "move", to="B4")
    assert hero(s, "barbarian")["sq"] == [2, 1] and hero(s, "barbarian")["body"] == 8
    assert s.objects["trap-B3"]["disarmed"]  # arrows strike only the first hero


def test_arrow_trap_wounds_on_a_skull() -> None:
    s = new([trap("spear_1", "spear_trap", (3, 1))])
    with dice("bskull"):
        s = act(s, 1, "move", to="B4")
    assert hero(s, "barbarian")["body"] == 7


def test_found_pit_can_be_jumped_and_elf_jumps_two() -> None:
    s = new([trap("pit_1", "pit_trap", (2, 3)), trap("pit_2", "pit_trap", (2, 2))], heroes="dwarf,elf")
    s = act(s, 1, "choose_spells", group="air")
    s = act(s, 1, "search_traps")
    assert {o["ref"] for o in board_view(s, 1)["objects"] if o["kind"] == "trap"} == {"found_trap"}
    s = act(s, 1, "end_turn")
    put(s, "elf", (2, 1))
    s = fresh(s)
    assert "jump to=E3" in tokens(s, 1)
    with dice("wshield"):
        s = act(s, 1, "jump", to="E3")
    assert hero(s, "elf")["sq"] == [2, 4] and "jump" not in kinds(s, 1)


def test_failed_jump_falls_into_the_pit() -> None:
    s = new([trap("pit_1", "pit_trap", (2, 2))])
    s = act(s, 1, "search_traps")
    put(s, "barbarian", (2, 1))
    s = fresh(s)
    assert "jump to=D3" in tokens(s, 1)
    with dice("wskull"):
        s = act(s, 1, "jump", to="D3")
    assert hero(s, "barbarian")["sq"] == [2, 2] and hero(s, "barbarian")["body"] == 7
    assert s.d["turn"]["i"] == 1


def test_fighting_from_a_pit_costs_a_die() -> None:
    from tests.heroquest.hq_helpers import monster

    s = new([trap("pit_1", "pit_trap", (3, 1)), monster("m_1", "chaos_warrior", (3, 2))])
    s = act(s, 1, "move", to="B4")  # falls in, turn over
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    with dice("wshield", "wshield", "bskull", "bskull", "bskull", "bskull"):
        s = act(s, 1, "attack", target="chaos_warrior_1")  # broadsword 3 - 1 = 2 dice
    assert s.monsters["chaos_warrior_1"]["body"] == 3


def test_falling_rock_blocks_the_square_and_moves_the_hero() -> None:
    s = new([trap("rock_1", "falling_block", (3, 4))])
    with dice("wskull", "bskull", "wshield"):
        s = act(s, 1, "move", to="E4")
    b = hero(s, "barbarian")
    assert b["body"] == 6 and b["sq"] in ([2, 4], [3, 3])
    assert any(o["kind"] == "rock" and o["squares"] == [[3, 4]] for o in board_view(s, 1)["objects"])
    assert (3, 4) in s.blocked_squares()
    if s.d["pending"]:
        s = act(s, 1, "rock_step", to="D4")
        assert hero(s, "barbarian")["sq"] == [3, 3]


def test_helmet_saves_one_rock_die() -> None:
    s = new([trap("rock_1", "falling_block", (3, 4))])
    hero(s, "barbarian")["helmet"] = "helmet"
    s = fresh(s)
    with dice("wskull", "bskull") as left:
        s = act(s, 1, "move", to="E4")
    assert left == [] and hero(s, "barbarian")["body"] == 6


def test_axe_two_undefended_dice() -> None:
    s = new([trap("axe_1", "swinging_axe", (3, 1))])
    with dice("wskull", "bskull"):
        s = act(s, 1, "move", to="B4")
    assert hero(s, "barbarian")["body"] == 6


def test_pit_of_darkness_hurts_more_in_armour() -> None:
    s = new([trap("deep_1", "deep_pit_trap", (3, 1))])
    hero(s, "barbarian")["armour"] = "platearmour"
    s = fresh(s)
    with dice("wskull", "bskull"):
        s = act(s, 1, "move", to="B4")
    assert hero(s, "barbarian")["body"] == 5


def test_slippery_stairs_slide() -> None:
    s = new([])
    s = act(s, 0, "gm_place_object", type="trap", ref="slippery_stairs", at="D3", rotation="downward")
    s = fresh(s)
    with dice("wshield"):
        s = act(s, 1, "move", to="D3")
    assert hero(s, "barbarian")["sq"] == [3, 3] and hero(s, "barbarian")["body"] == 7


def test_trap_in_a_chest_springs_on_a_careless_treasure_search() -> None:
    chest: PlacedJson = {"uid": "chest_1", "kind": "furniture", "ref": "trapped_chest", "squares": [[3, 4]]}
    s = new([chest])
    assert "trap-E4" in GAME.secret_tokens(s)
    with dice("wskull"):
        s = act(s, 1, "search_treasure")
    assert hero(s, "barbarian")["body"] == 7 and s.d["turn"]["i"] == 1
    assert hero(s, "barbarian")["searched"] == []


def test_found_traps_block_treasure_until_disarmed_dwarf_without_kit() -> None:
    s = new([trap("pit_1", "pit_trap", (3, 4))])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    with pytest.raises(IllegalAction):
        act(s, 1, "search_treasure")
    put(s, "dwarf", (3, 4))  # on the trap
    s = fresh(s)
    assert "disarm trap=trap-E4" in tokens(s, 1)
    with dice("wshield"):
        s = act(s, 1, "disarm", trap="trap-E4")
    assert s.objects["trap-E4"]["disarmed"]
    assert "trap-E4" not in {o["uid"] for o in board_view(s, 1)["objects"]}


def test_disarming_needs_a_tool_kit_except_for_the_dwarf() -> None:
    s = new([trap("pit_1", "pit_trap", (2, 3))])
    s = act(s, 1, "search_traps")
    assert "disarm" not in kinds(s, 1)  # the barbarian has no tool kit
    hero(s, "barbarian")["items"].append("toolkit")
    s = fresh(s)
    put(s, "barbarian", (2, 3))  # on the trap
    s = fresh(s)
    assert "disarm" not in kinds(s, 1)  # already acted this turn
    s = act(s, 1, "end_turn")
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    with dice("wskull"):  # with the kit only a black skull fails
        s = act(s, 1, "disarm", trap="trap-D3")
    assert s.objects["trap-D3"]["disarmed"]


def test_dwarf_without_kit_fails_on_white_skull() -> None:
    s = new([trap("pit_1", "pit_trap", (3, 3))])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    put(s, "dwarf", (3, 3))  # on the trap
    s = fresh(s)
    with dice("wskull"):
        s = act(s, 1, "disarm", trap="trap-D4")
    assert hero(s, "dwarf")["sq"] == [3, 3] and hero(s, "dwarf")["body"] == 6


def test_a_found_pit_may_be_jumped_into_on_purpose() -> None:
    """«Saltar al interior de un pozo es una opción libre que se puede efectuar siempre que el jugador quiera»:
    one combat die, 1 Body Point on a skull, and the turn ends in the pit."""
    s = new([trap("pit_1", "pit_trap", (2, 2))])
    s = act(s, 1, "search_traps")
    put(s, "barbarian", (2, 1))
    s = fresh(s)
    assert "jump_in to=C3" in tokens(s, 1)
    with dice("bskull"):
        s = act(s, 1, "jump_in", to="C3")
    assert hero(s, "barbarian")["sq"] == [2, 2] and hero(s, "barbarian")["body"] == 7
    assert s.objects["trap-C3"]["sprung"]
    assert s.d["turn"]["i"] == 1  # the turn ended in the pit


def test_jumping_into_a_pit_on_a_shield_costs_nothing() -> None:
    s = new([trap("pit_1", "pit_trap", (2, 2))])
    s = act(s, 1, "search_traps")
    put(s, "barbarian", (2, 1))
    s = fresh(s)
    with dice("wshield"):
        s = act(s, 1, "jump_in", to="C3")
    assert hero(s, "barbarian")["sq"] == [2, 2] and hero(s, "barbarian")["body"] == 8


def test_a_corner_pit_cannot_be_jumped_over_only_into() -> None:
    """«Un pozo en una esquina no puede ser saltado, se deberá saltar al interior»."""
    s = new([trap("pit_1", "pit_trap", (1, 1))])
    s = act(s, 1, "search_traps")
    put(s, "barbarian", (2, 1))
    s = fresh(s)
    assert not [t for t in tokens(s, 1) if t.startswith("jump ")]
    assert "jump_in to=B2" in tokens(s, 1)


def test_only_a_found_pit_next_to_the_hero_can_be_jumped_into() -> None:
    s = new([trap("pit_1", "pit_trap", (2, 3))])
    s = fresh(s)
    assert not [t for t in tokens(s, 1) if t.startswith("jump_in")]  # not found yet: nothing to choose
    s = act(s, 1, "search_traps")
    put(s, "barbarian", (2, 1))
    s = fresh(s)
    assert not [t for t in tokens(s, 1) if t.startswith("jump_in")]  # found, but two squares away
    with pytest.raises(IllegalAction):
        act(s, 1, "jump_in", to="D3")
