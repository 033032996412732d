"""Rules the engine used to miss: saving potions, found traps, searches by corridors and open doors."""

from __future__ import annotations

import pytest

from rules.base import IllegalAction
from tests.heroquest.hq_helpers import act, dice, door, fresh, hero, kinds, monster, new, put, tokens

TOP_DOOR = door("door_2", (1, 3), (0, 3))


def trap(ref: str, sq: tuple[int, int]) -> dict:
    return {"uid": f"{ref}_{sq[0]}_{sq[1]}", "kind": "trap", "ref": ref, "squares": [list(sq)]}


def gm_turn(s):
    s = act(s, 1, "end_turn")
    return act(s, 1, "end_turn")


# ---------------------------------------------------------------- potions


def test_only_a_restoration_potion_saves_a_dying_hero() -> None:
    s = gm_turn(new([monster("o", "orc", (3, 3))]))
    put(s, "barbarian", (3, 2))
    b = hero(s, "barbarian")
    b["body"], b["items"] = 1, ["healing"]
    s = fresh(s)
    with dice("wskull", "wskull", "bskull", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="orc_1", target="hero_barbarian")
    assert hero(s, "barbarian")["dead"] and not s.d["pending"]
    # with a restoration potion the same blow leaves a choice
    s = gm_turn(new([monster("o", "orc", (3, 3))]))
    put(s, "barbarian", (3, 2))
    b = hero(s, "barbarian")
    b["body"], b["items"] = 1, ["healing", "restoration"]
    s = fresh(s)
    with dice("wskull", "wskull", "bskull", "bshield", "bshield"):
        s = act(s, 0, "gm_attack", monster="orc_1", target="hero_barbarian")
    assert s.d["pending"] and tokens(s, 1) == {"drink item=restoration", "accept_death"}


# ---------------------------------------------------------------- found traps


def test_a_found_trap_does_not_go_off_under_a_hero_who_steps_onto_it() -> None:
    s = new([trap("spear_trap", (3, 3))])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    with dice() as left:  # no die may be rolled
        s = act(s, 1, "move", to="3-3")
    d = hero(s, "dwarf")
    assert d["sq"] == [3, 3] and d["body"] == d["max_body"] and left == []
    assert not s.objects["trap-3-3"]["sprung"] and s.d["turn"]["moves"] == 0
    # standing on it, the dwarf (no kit needed) may disarm it
    assert "disarm trap=trap-3-3" in tokens(s, 1)


def test_disarming_is_done_standing_on_the_trap_not_beside_it() -> None:
    s = new([trap("pit_trap", (3, 3))])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    put(s, "dwarf", (3, 2))
    s = fresh(s)
    assert "disarm" not in kinds(s, 1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "disarm", trap="trap-3-3")
    assert err.value.reason.key == "hq.err.stand_on_trap"
    s = act(s, 1, "move", to="3-3")
    with dice("wshield"):
        s = act(s, 1, "disarm", trap="trap-3-3")
    assert s.objects["trap-3-3"]["disarmed"]


def test_a_trap_in_a_chest_is_disarmed_from_beside_the_chest() -> None:
    chest = {"uid": "chest_9", "kind": "furniture", "ref": "trapped_chest", "squares": [[3, 4]]}
    s = new([chest])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    put(s, "dwarf", (3, 3))
    s = fresh(s)
    assert "disarm trap=trap-3-4" in tokens(s, 1)


def test_an_open_pit_is_still_jumped_into_when_walked_into() -> None:
    s = new([trap("pit_trap", (3, 3))])
    with dice():
        s = act(s, 1, "move", to="3-3")  # falls in: 1 body, the turn ends
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    s = act(s, 1, "move", to="3-2")
    with dice("bskull"):
        s = act(s, 1, "move", to="3-3")
    assert hero(s, "barbarian")["body"] == 6 and hero(s, "barbarian")["sq"] == [3, 3]


# ---------------------------------------------------------------- searching


def test_corridor_searches_ignore_monsters_seen_outside_the_corridor() -> None:
    s = new([TOP_DOOR, monster("o", "orc", (3, 4))])
    put(s, "barbarian", (0, 3))
    s.objects["door_2"]["open"] = True
    s = fresh(s)
    assert s.monsters["orc_1"]["revealed"]
    assert {"search_secret", "search_traps"} <= kinds(s, 1)
    assert "search_treasure" not in kinds(s, 1)
    s = act(s, 1, "search_secret")


def test_a_trap_search_beside_an_open_door_also_covers_the_room_beyond() -> None:
    s = new([TOP_DOOR, trap("spear_trap", (3, 4))])
    put(s, "barbarian", (0, 3))
    put(s, "dwarf", (0, 5))
    s.objects["door_2"]["open"] = True
    s = fresh(s)
    s = act(s, 1, "search_traps")
    assert s.objects["trap-3-4"]["found"]


def test_the_room_beyond_an_open_door_is_not_searched_while_a_monster_is_in_it() -> None:
    s = new([TOP_DOOR, trap("spear_trap", (3, 4)), monster("g", "goblin", (2, 4))])
    put(s, "barbarian", (0, 3))
    put(s, "dwarf", (0, 5))
    s.objects["door_2"]["open"] = True
    s = fresh(s)
    s = act(s, 1, "search_traps")
    assert not s.objects["trap-3-4"]["found"]


def test_no_search_in_a_room_with_a_monster_in_sight() -> None:
    s = new([monster("o", "orc", (3, 4))])
    assert not {"search_secret", "search_traps", "search_treasure"} & kinds(s, 1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "search_secret")
    assert err.value.reason.key == "hq.err.monsters_in_sight"
