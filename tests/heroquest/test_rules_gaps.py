"""Rules the engine used to miss: saving potions, found traps, searches by corridors and open doors."""

from __future__ import annotations

import pytest

from rules.base import IllegalAction
from rules.heroquest import GAME
from rules.heroquest.quest import PlacedJson
from rules.heroquest.state import HQState, as_square
from tests.heroquest.hq_helpers import act, board_view, dice, door, fresh, hero, kinds, monster, new, put, step, tokens

TOP_DOOR = door("door_2", (1, 3), (0, 3))


def trap(ref: str, sq: tuple[int, int]) -> PlacedJson:
    return {"uid": f"{ref}_{sq[0]}_{sq[1]}", "kind": "trap", "ref": ref, "squares": [list(sq)]}


def gm_turn(s: HQState) -> HQState:
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
        s = act(s, 1, "move", to="D4")
    d = hero(s, "dwarf")
    assert d["sq"] == [3, 3] and d["body"] == d["max_body"] and left == []
    assert not s.objects["trap-D4"]["sprung"] and s.d["turn"]["moves"] == 0
    # standing on it, the dwarf (no kit needed) may disarm it
    assert "disarm trap=trap-D4" in tokens(s, 1)


def test_disarming_is_done_standing_on_the_trap_not_beside_it() -> None:
    s = new([trap("pit_trap", (3, 3))])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    put(s, "dwarf", (3, 2))
    s = fresh(s)
    assert "disarm" not in kinds(s, 1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "disarm", trap="trap-D4")
    assert err.value.reason.key == "hq.err.stand_on_trap"
    s = act(s, 1, "move", to="D4")
    with dice("wshield"):
        s = act(s, 1, "disarm", trap="trap-D4")
    assert s.objects["trap-D4"]["disarmed"]


def test_a_trap_in_a_chest_is_disarmed_from_beside_the_chest() -> None:
    chest: PlacedJson = {"uid": "chest_9", "kind": "furniture", "ref": "trapped_chest", "squares": [[3, 4]]}
    s = new([chest])
    s = act(s, 1, "search_traps")
    s = act(s, 1, "end_turn")
    put(s, "dwarf", (3, 3))
    s = fresh(s)
    assert "disarm trap=trap-E4" in tokens(s, 1)


def test_an_open_pit_is_still_jumped_into_when_walked_into() -> None:
    s = new([trap("pit_trap", (3, 3))])
    with dice():
        s = act(s, 1, "move", to="D4")  # falls in: 1 body, the turn ends
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    s = act(s, 1, "move", to="C4")
    with dice("bskull"):
        s = act(s, 1, "move", to="D4")
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
    assert s.objects["trap-E4"]["found"]


def test_the_room_beyond_an_open_door_is_not_searched_while_a_monster_is_in_it() -> None:
    s = new([TOP_DOOR, trap("spear_trap", (3, 4)), monster("g", "goblin", (2, 4))])
    put(s, "barbarian", (0, 3))
    put(s, "dwarf", (0, 5))
    s.objects["door_2"]["open"] = True
    s = fresh(s)
    s = act(s, 1, "search_traps")
    assert not s.objects["trap-E4"]["found"]


def test_no_search_in_a_room_with_a_monster_in_sight() -> None:
    s = new([monster("o", "orc", (3, 4))])
    assert not {"search_secret", "search_traps", "search_treasure"} & kinds(s, 1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "search_secret")
    assert err.value.reason.key == "hq.err.monsters_in_sight"


# ---------------------------------------------------------------- the game master


def test_only_the_creatures_the_quest_names_cast_chaos_spells() -> None:
    s = gm_turn(new([monster("w", "chaos_warrior", (3, 4)), monster("o", "orc", (3, 3))]))
    assert "gm_cast" not in kinds(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "gm_cast", caster="orc_1", spell="c_fear", target="hero_barbarian")
    assert err.value.reason.key == "hq.err.not_a_caster"
    r = step(s, 0, "gm_spell", monster="chaos_warrior_1", spell="c_fear")
    assert [e.to for e in r.events] == [frozenset({0})]  # who casts is the quest's secret
    s = r.state
    assert "gm_cast caster=chaos_warrior_1 spell=c_fear target=hero_barbarian" in tokens(s, 0)
    assert not any(la.action.get("caster") == "orc_1" for la in GAME.legal_actions(s, 0))
    assert board_view(s, 0)["monsters"][0]["spells"] == ["c_fear"] and "spells" not in board_view(s, 1)["monsters"][0]
    with dice("bshield", "bshield"):
        s = act(s, 0, "gm_cast", caster="chaos_warrior_1", spell="c_fear", target="hero_barbarian")
    assert hero(s, "barbarian")["status"].get("fear")
    with pytest.raises(IllegalAction):
        act(s, 0, "gm_cast", caster="chaos_warrior_1", spell="c_fear", target="hero_dwarf")


def test_a_monster_the_game_master_places_acts_that_turn() -> None:
    s = gm_turn(new([]))
    s = act(s, 0, "gm_place", ref="goblin", at="B3")
    assert "gm_attack monster=goblin_1 target=hero_barbarian" in tokens(s, 0)
    with dice("wshield", "wshield"):
        r = step(s, 0, "gm_autoplay")
    assert [e.msg.key for e in r.events][:1] == ["hq.ev.attack_misses"]


def test_autoplay_always_says_what_happened() -> None:
    s = gm_turn(new([]))
    r = step(s, 0, "gm_autoplay")
    assert [e.msg.key for e in r.events] == ["hq.ev.autoplay_idle"] and r.events[0].to is None
    # a monster that cannot reach anybody waits, and says so
    s = gm_turn(new([door("door_1", (2, 4), (2, 5))]))
    s = act(s, 0, "gm_place", ref="goblin", at="E3")
    s = act(s, 0, "gm_place", ref="zombie", at="E4")
    s = act(s, 0, "gm_place", ref="orc", at="E2")
    put(s, "barbarian", (3, 3))
    put(s, "dwarf", (2, 3))
    s = fresh(s)
    with dice(*["wshield"] * 20):
        r = step(s, 0, "gm_autoplay")
    assert r.events and all(e.to is None for e in r.events)


# ---------------------------------------------------------------- Quest Treasures

NOTES = {"A": {"es": "Quien busque tesoros encontrará la Espada del Espíritu y 50 monedas de oro.",
               "en": "Any player who searches for treasure will find the Spirit Blade and 50 gold coins."}}
MARK_A: PlacedJson = {"uid": "letter_a_1", "kind": "marker", "ref": "letter_a", "squares": [[3, 4]], "note": "A"}


def test_a_quest_treasure_named_in_the_note_is_recorded_and_kept() -> None:
    s = new([MARK_A], notes=NOTES)
    r = step(s, 1, "search_treasure")
    b = hero(r.state, "barbarian")
    assert b["quest_treasures"] == ["spirit_blade"] and b["gold"] == 50
    assert "hq.ev.finds_named_treasure" in [e.msg.key for e in r.events if e.to is None]
    assert board_view(r.state, 2)["heroes"][0]["quest_treasures"] == ["spirit_blade"]
    s = act(act(r.state, 1, "end_turn"), 1, "end_turn")
    s = act(s, 0, "gm_end_quest", result="win")
    sheet = GAME.profile_updates(s)["barbarian"]
    assert sheet["quest_treasures"] == ["spirit_blade"]


def test_the_game_master_awards_items_treasures_and_gold() -> None:
    s = new([])
    r = step(s, 0, "gm_award", hero="hero_dwarf", item="Pócima Curativa", gold=30)
    d = hero(r.state, "dwarf")
    assert "healing" in d["items"] and d["gold"] == 30
    assert all(e.to is None for e in r.events)
    s = act(r.state, 0, "gm_award", hero="hero_dwarf", item="borin's armor")
    s = act(s, 0, "gm_award", hero="hero_dwarf", item="Melar's Key")
    assert hero(s, "dwarf")["quest_treasures"] == ["borins_armour", "Melar's Key"]
    for bad in ({"hero": "hero_elf", "item": "shield"}, {"hero": "hero_dwarf"},
                {"hero": "hero_dwarf", "gold": -5}, {"hero": "hero_dwarf", "item": "x" * 80}):
        with pytest.raises(IllegalAction):
            act(s, 0, "gm_award", **bad)
    with pytest.raises(IllegalAction):
        act(s, 1, "gm_award", hero="hero_barbarian", gold=100)


def test_quest_treasures_stay_with_a_fallen_hero_until_recovered() -> None:
    s = new([])
    s = act(s, 0, "gm_award", hero="hero_dwarf", item="spirit_blade")
    s = act(s, 0, "gm_adjust", uid="hero_dwarf", stat="body", delta=-7)
    assert hero(s, "dwarf")["dead"] and hero(s, "dwarf")["quest_treasures"] == []
    corpse = s.objects["corpse_dwarf"]
    assert corpse["treasures"] == ["spirit_blade"]
    put(s, "barbarian", as_square(corpse["squares"][0]))
    s = fresh(s)
    s = act(s, 1, "recover")  # the barbarian saw the dwarf fall
    assert hero(s, "barbarian")["quest_treasures"] == ["spirit_blade"]
