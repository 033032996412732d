"""Searches (treasure, notes first, wandering monsters), the game master's tools and permissions, autoplay."""

from __future__ import annotations

import pytest

from rules.base import IllegalAction, NotYourTurn
from rules.heroquest import GAME
from rules.heroquest.quest import PlacedJson
from rules.heroquest.state import HQState
from tests.heroquest.hq_helpers import act, dice, door, fresh, hero, kinds, monster, new, placed, put, step, tokens

NOTE_A = {"A": {"es": "En el cofre hay 100 monedas de oro.", "en": "The chest holds 100 gold coins."},
          "B": {"es": "Verag lucha como una gárgola.", "en": "Verag fights as a gargoyle."}}
MARK_A: PlacedJson = {"uid": "letter_a_1", "kind": "marker", "ref": "letter_a", "squares": [[3, 4]], "note": "A"}


def gm_turn(s: HQState) -> HQState:
    s = act(s, 1, "end_turn")
    return act(s, 1, "end_turn")


def test_treasure_note_first_then_the_deck_once_per_hero() -> None:
    s = new([MARK_A], notes=NOTE_A)
    assert NOTE_A["A"]["en"] in GAME.secret_tokens(s)
    result = step(s, 1, "search_treasure")
    s = result.state
    assert hero(s, "barbarian")["gold"] == 100 and not result.undoable
    gm_only = [e for e in result.events if e.to == frozenset({0})]
    assert gm_only and gm_only[0].msg.key == "hq.ev.gm_note_treasure"
    assert NOTE_A["A"]["en"] not in str(GAME.view(s, 1))
    assert "search_treasure" not in kinds(s, 1)
    s = act(s, 1, "end_turn")
    deck_before = len(s.d["deck"])
    s = act(s, 1, "search_treasure")  # the dwarf draws from the deck
    assert len(s.d["deck"]) in (deck_before - 1, deck_before)
    assert sorted(s.d["deck"] + ["x"] * 0) == sorted(s.d["deck"])


def test_no_searching_with_monsters_in_sight() -> None:
    s = new([monster("m_1", "orc", (3, 4))])
    assert "search_treasure" not in kinds(s, 1) and "search_traps" not in kinds(s, 1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "search_treasure")
    assert err.value.reason.key == "hq.err.monsters_in_sight"


def test_wandering_monster_card_goes_back_and_attacks() -> None:
    s = new([], wandering="fimir")
    s.d["deck"] = ["wandering_a", "gold_25a"]
    s = fresh(s)
    with dice("wshield", "wshield", "wshield", "wshield", "wshield"):
        s = act(s, 1, "search_treasure")
    fimirs = [m for m in s.monsters.values() if m["ref"] == "fimir"]
    assert len(fimirs) == 1 and fimirs[0]["revealed"]
    assert sorted(s.d["deck"]) == ["gold_25a", "wandering_a"]
    assert s.d["turn"]["i"] == 1  # the hero's turn is over


def test_gm_tools_are_seat_zero_only() -> None:
    s = new([])
    with pytest.raises(IllegalAction):
        act(s, 1, "gm_place", ref="orc", at="E4")
    with pytest.raises(IllegalAction):
        act(s, 1, "gm_note", note="A")
    assert not any(k.startswith("gm_") for k in kinds(s, 1))
    assert GAME.legal_actions(s, 0) == []
    with pytest.raises((IllegalAction, NotYourTurn)):
        act(s, 0, "gm_autoplay")  # only on Morcar's turn
    with pytest.raises(NotYourTurn):
        act(s, 0, "end_turn")


def test_gm_places_removes_adjusts_reads_and_reveals() -> None:
    s = new([door("door_1", (2, 4), (2, 5))], notes=NOTE_A)
    r = step(s, 0, "gm_place", ref="orc", at="G3")  # behind the closed door: hidden
    s = r.state
    hidden = next(m for m in s.monsters.values() if m["ref"] == "orc")
    assert not hidden["revealed"] and all(e.to == frozenset({0}) for e in r.events)
    assert hidden["uid"] in GAME.secret_tokens(s)
    s = act(s, 0, "gm_place", ref="goblin", at="E4")
    goblin = next(m for m in s.monsters.values() if m["ref"] == "goblin")
    assert goblin["revealed"]
    s = act(s, 0, "gm_adjust", uid="hero_dwarf", stat="body", delta=-2)
    assert hero(s, "dwarf")["body"] == 5
    s = act(s, 0, "gm_remove", uid=goblin["uid"])
    assert goblin["uid"] not in s.monsters
    r = step(s, 0, "gm_note", note="B")
    assert r.events[0].to is None and NOTE_A["B"]["en"] not in GAME.secret_tokens(r.state)
    s = act(r.state, 0, "gm_reveal", at="G3")
    assert s.is_revealed((1, 8)) and hidden["uid"] not in s.monsters
    shown = next(m for m in s.monsters.values() if m["ref"] == "orc")
    assert shown["revealed"] and shown["uid"] == "orc_1"  # its public id, numbered as the heroes meet orcs


def test_gm_moves_and_attacks_on_its_turn() -> None:
    s = new([monster("m_1", "orc", (3, 4))])
    s = gm_turn(s)
    assert "gm_move monster=orc_1 to=D4" in tokens(s, 0)
    s = act(s, 0, "gm_move", monster="orc_1", to="C3")
    with pytest.raises(IllegalAction):
        act(s, 0, "gm_move", monster="orc_1", to="D4")  # one move per turn
    assert "gm_attack monster=orc_1 target=hero_dwarf" in tokens(s, 0)
    with dice("wskull", "wskull", "wskull", "wshield", "wshield"):
        s = act(s, 0, "gm_attack", monster="orc_1", target="hero_dwarf")
    assert hero(s, "dwarf")["body"] == 6
    s = act(s, 0, "end_turn")
    assert GAME.to_act(s) == frozenset({1}) and s.d["round"] == 2


def test_gm_casts_a_chaos_spell_once() -> None:
    s = new([monster("m_1", "chaos_warrior", (3, 4))])
    s = act(s, 0, "gm_spell", monster="chaos_warrior_1", spell="c_ball_of_flame")
    s = gm_turn(s)
    with dice("wshield", "bshield"):
        s = act(s, 0, "gm_cast", spell="c_ball_of_flame", caster="chaos_warrior_1", target="hero_barbarian")
    assert hero(s, "barbarian")["body"] == 7
    with pytest.raises(IllegalAction):
        act(s, 0, "gm_cast", spell="c_ball_of_flame", caster="chaos_warrior_1", target="hero_barbarian")


def test_autoplay_closes_in_and_attacks() -> None:
    s = new([monster("m_1", "goblin", (3, 4)), monster("m_2", "orc", (3, 3))])
    put(s, "barbarian", (1, 1))
    put(s, "dwarf", (1, 2))
    s = gm_turn(fresh(s))
    before = sum(h["body"] for h in s.heroes)
    s = act(s, 0, "gm_autoplay")
    for m in s.monsters.values():
        assert m["moved"] and m["acted"]
        assert any(abs(m["sq"][0] - placed(h)[0]) + abs(m["sq"][1] - placed(h)[1]) == 1 for h in s.on_board_heroes())
    assert sum(h["body"] for h in s.heroes) <= before
    assert "gm_autoplay" not in kinds(s, 0)


def test_gm_ends_the_quest() -> None:
    s = gm_turn(new([]))
    s = act(s, 0, "gm_end_quest", result="win")
    out = GAME.outcome(s)
    assert out is not None and out.winners == frozenset({1})
    assert GAME.to_act(s) == frozenset()


def test_all_heroes_dead_ends_the_quest() -> None:
    s = gm_turn(new([]))
    for h in s.heroes:
        h["body"] = 1
    s = fresh(s)
    s = act(s, 0, "gm_adjust", uid="hero_barbarian", stat="body", delta=-1)
    s = act(s, 0, "gm_adjust", uid="hero_dwarf", stat="body", delta=-1)
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({0})


def test_skip_action_ends_the_turn() -> None:
    s = new([])
    skip = GAME.skip_action(s, 1)
    assert skip is not None and skip.kind == "end_turn"
    assert GAME.skip_action(s, 0) is None
