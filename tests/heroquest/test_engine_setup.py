"""Seats, options, uploaded quests, spell choice order and once-per-quest spells."""

from __future__ import annotations

import pytest

from rules.base import BadOptions, IllegalAction, NotYourTurn
from rules.heroquest import GAME
from rules.heroquest.upload import load_quest
from tests.heroquest.hq_helpers import act, fresh, hero, kinds, new, placed
from tests.reference import HQ_QUESTS

REFERENCE = HQ_QUESTS


def test_seat_roles_and_counts() -> None:
    opts = GAME.resolve_options({})
    assert GAME.seat_role(opts, 0) == "gm" and GAME.seat_role(opts, 3) == "player"
    GAME.check_seats(opts, 2)
    GAME.check_seats(opts, 5)
    with pytest.raises(BadOptions):
        GAME.check_seats(opts, 1)
    with pytest.raises(BadOptions):
        GAME.check_seats(opts, 7)
    with pytest.raises(BadOptions):
        GAME.check_seats(GAME.resolve_options({"heroes": "barbarian,dwarf"}), 4)


def test_heroes_round_robin_to_player_seats() -> None:
    s = new(heroes="barbarian,dwarf,elf,wizard", seats=3)
    assert [h["seat"] for h in s.heroes] == [1, 2, 1, 2]
    assert all(h["sq"] is not None for h in s.heroes)
    assert len({placed(h) for h in s.heroes}) == 4


def test_default_options_start_a_builtin_quest() -> None:
    s = GAME.new(GAME.resolve_options({}), 5, 3)
    assert GAME.to_act(s) == frozenset({4})  # the wizard's player picks spells first
    assert s.d["opts"]["movement"] == "fixed" and s.d["opts"]["die"] == "hqes"


def test_spell_choice_order_wizard_elf_then_wizard_takes_the_rest() -> None:
    s = new(heroes="barbarian,dwarf,elf,wizard", seats=5)
    wizard, elf = hero(s, "wizard"), hero(s, "elf")
    assert GAME.to_act(s) == frozenset({wizard["seat"]})
    with pytest.raises(NotYourTurn):
        act(s, elf["seat"], "choose_spells", group="fire")
    s = act(s, wizard["seat"], "choose_spells", group="fire")
    assert GAME.to_act(s) == frozenset({elf["seat"]})
    with pytest.raises(IllegalAction):
        act(s, elf["seat"], "choose_spells", group="fire")
    s = act(s, elf["seat"], "choose_spells", group="water")
    assert hero(s, "elf")["groups"] == ["water"]
    assert sorted(hero(s, "wizard")["groups"]) == ["air", "earth", "fire"]
    assert len(hero(s, "wizard")["spells"]) == 9 and len(hero(s, "elf")["spells"]) == 3
    assert GAME.to_act(s) == frozenset({hero(s, "barbarian")["seat"]})


def test_wizard_alone_picks_three_groups() -> None:
    s = new(heroes="barbarian,wizard", seats=2)
    for group in ("air", "earth", "water"):
        s = act(s, 1, "choose_spells", group=group)
    assert hero(s, "wizard")["groups"] == ["air", "earth", "water"]
    assert "choose_spells" not in kinds(s, 1)


def test_each_spell_once_per_quest() -> None:
    s = new(heroes="barbarian,wizard", seats=2)
    for group in ("earth", "air", "fire"):
        s = act(s, 1, "choose_spells", group=group)
    s = act(s, 1, "end_turn")  # the barbarian
    hero(s, "wizard")["body"] = 1
    s = fresh(s)
    s = act(s, 1, "cast", spell="heal_body", target="hero_wizard")
    assert hero(s, "wizard")["body"] == 4 and "heal_body" in hero(s, "wizard")["cast"]
    s = act(s, 1, "end_turn")
    s = act(s, 0, "end_turn")
    s = act(s, 1, "end_turn")
    with pytest.raises(IllegalAction):
        act(s, 1, "cast", spell="heal_body", target="hero_wizard")


def test_new_with_uploaded_heroscribe_quest_and_json_round_trip() -> None:
    path = REFERENCE / "HQBase-01-TheTrial_EU.xml"
    quest = load_quest(path.read_text(encoding="utf-8"), path.name)
    s = GAME.new_with_quest(quest, GAME.resolve_options({}), 3, 7)
    assert s.quest["id"] == quest.id
    data = GAME.to_json(s)
    again = GAME.from_json(data)
    assert GAME.to_json(again) == data
    assert again.quest_obj.name == quest.name
