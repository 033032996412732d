"""Expansion objects of HeroScribe packs: each one loads, plays by its ruling, and the game master is told how."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import i18n
from rules.heroquest import catalog, heroscribe, quest
from rules.heroquest.heroscribe import parse_heroscribe
from rules.heroquest.quest import QuestError
from rules.text import Msg
from tests.heroquest.hq_helpers import GAME, placed
from tests.heroquest.hs_fixture import STAIRWAY, xml

OBJECTS = json.loads((Path(__file__).resolve().parents[2] / "data" / "heroquest" / "objects.json").read_text())
RULED = sorted(k for k, v in OBJECTS["objects"].items() if v.get("ruling"))


def rulings(warnings: tuple[Msg, ...]) -> list[Msg]:
    return [w for w in warnings if w.key == "hq.imp.warn.ruling"]


def test_every_object_we_know_can_be_imported() -> None:
    """The packs' objects that used to refuse a quest (Crossbowman, Portcullis, ice, fog, room tiles...)."""
    assert not [k for k, v in OBJECTS["objects"].items() if v["kind"] is None]
    assert {"Crossbowman", "StoneDoorway", "SlipperyIce2x1", "DoubleArrowDoor", "Portcullis", "IceSlide",
            "TeleportTrapA", "Fog", "ThroneRoom", "BottomlessChasm", "CrystalKey"} <= set(RULED)


@pytest.mark.parametrize("hs_id", RULED)
def test_each_pack_object_loads_with_its_ruling_for_the_game_master(hs_id: str) -> None:
    # column 10, row 2: even the tallest (Icy River 1x8) and widest (Chaos Room 8x7) fit on the board there;
    # a door-like object goes on the printed wall below room 1 (C4|C5): in open floor it is no door at all
    left, top = (3, 4) if OBJECTS["objects"][hs_id]["kind"] == "door" else (10, 2)
    imported = parse_heroscribe(xml([STAIRWAY, (hs_id, left, top, "downward")]))
    said = rulings(imported.warnings)
    assert len(said) == 1
    for lang in i18n.LANGS:
        text = i18n.t(said[0], lang)
        assert "hq.imp" not in text and "{" not in text and len(text) > 40


def test_one_ruling_per_kind_of_object_naming_every_one() -> None:
    """Every object played by a ruling is named where it is (only the first one was, before), once per kind."""
    imported = parse_heroscribe(xml([STAIRWAY, ("Fog", 8, 3, "downward"), ("Fog", 9, 3, "downward"),
                                     ("CloudOfChaos", 10, 14, "downward")]))
    said = [w for w in imported.warnings if w.key in ("hq.imp.warn.ruling", "hq.imp.warn.ruling_many")]
    assert [w.params["id"] for w in said] == ["Fog", "CloudOfChaos"]
    for lang in i18n.LANGS:
        fog = i18n.t(said[0], lang)
        assert "H3, I3" in fog and "2" in fog and "{" not in fog


def test_a_mercenary_is_a_monster_with_its_public_stats() -> None:
    imported = parse_heroscribe(xml([STAIRWAY, ("Crossbowman", 8, 3, "downward"), ("Swordsman", 9, 3, "downward")]))
    refs = sorted(o.ref for o in imported.quest.objects if o.kind == "monster")
    assert refs == ["crossbowman", "swordsman"]
    assert (catalog.monster("swordsman")["attack"], catalog.monster("swordsman")["defend"]) == (4, 5)
    assert catalog.monster("scout")["move"] == 9
    state = GAME.new_with_setup(imported.setup(), GAME.resolve_options({"heroes": "barbarian"}), 2, 3)
    assert {m["ref"] for m in state.monsters.values()} == {"crossbowman", "swordsman"}


def test_a_chasm_cannot_be_entered() -> None:
    imported = parse_heroscribe(xml([STAIRWAY, ("IcyRiver1x3", 20, 2, "downward")]))
    blocked = [o for o in imported.quest.objects if o.kind == "blocked"]
    assert len(blocked) == 1 and len(blocked[0].squares) == 3


def test_stone_doorway_is_an_open_door_and_portcullis_a_door() -> None:
    assert OBJECTS["objects"]["StoneDoorway"]["ref"] == "open_door"
    assert OBJECTS["objects"]["Portcullis"]["kind"] == "door"


def test_an_object_we_do_not_support_still_refuses_the_quest(monkeypatch: pytest.MonkeyPatch) -> None:
    table = dict(quest.object_table())
    table["Fog"] = replace(table["Fog"], kind=None)
    monkeypatch.setattr(heroscribe, "object_table", lambda: table)
    with pytest.raises(QuestError) as info:
        parse_heroscribe(xml([STAIRWAY, ("Fog", 8, 3, "downward")]))
    assert "hq.q.error.unsupported_object" in {p.key for p in info.value.problems}


def test_two_boards_are_refused_saying_what_is_missing() -> None:
    with pytest.raises(QuestError) as info:
        parse_heroscribe(xml(width=2, boards=2))
    text = i18n.t(info.value.reason, "en")
    assert "2 boards" in text and "single" in text


@pytest.mark.parametrize(("name", "tile", "size"), [
    ("TRIAL_BY_ICE", ("the Ice Cave Entrance", "la Entrada de la Cueva de Hielo"), (6, 5, 1.0, 14.0, "rightward")),
    ("OGRE_FORTRESS", ("the Surface", "la Superficie"), (8, 5, 19.0, 15.0, "downward")),
])
def test_a_pack_quest_without_a_stairway_starts_in_its_entrance_tile(name: str, tile: tuple[str, str],
                                                                       size: tuple) -> None:
    """Trial by Ice (The Frozen Horror) and Search for the Ogre Fortress (Against the Ogre Horde) have no
    stairway, entrance door or hero marks: their heroes begin on the entrance room tile (a provisional ruling,
    shown to the game master in both languages), and four heroes set up there."""
    import tests.reference

    imported = parse_heroscribe(getattr(tests.reference, name).read_bytes())
    start = imported.quest.start
    assert len(start) == 4
    assert set(start) <= set(heroscribe.footprint(*size))
    told = [w for w in imported.warnings if w.key == "hq.imp.warn.cave_start"]
    assert len(told) == 1
    for lang, place in zip(("en", "es"), tile, strict=True):
        assert place in i18n.t(told[0], lang) and "4" in i18n.t(told[0], lang)
    state = GAME.new_with_setup(imported.setup(), GAME.resolve_options({"heroes": "barbarian,dwarf,elf,wizard"}), 5, 3)
    assert {placed(h) for h in state.heroes} == set(start)


def test_a_quest_with_no_start_at_all_is_still_refused() -> None:
    with pytest.raises(QuestError) as refused:
        parse_heroscribe(xml([("Goblin", 10, 2, "downward")]))
    # said in the map's words, in both languages: a HeroScribe file has no field called "start"
    assert refused.value.reason.key == "hq.q.error.no_start"
    for lang in i18n.LANGS:
        text = i18n.t(refused.value.reason, lang)
        assert "'start'" not in text


def test_a_door_on_the_board_edge_is_an_entrance_not_a_refusal() -> None:
    """Mage of the Mirror and the Solo Quests put a Double Arrow Door on the board's outer edge, half off the
    board: it used to refuse the whole quest; it is now an entrance door where the heroes start."""
    imported = parse_heroscribe(xml([("DoubleArrowDoor", 0, 10, "rightward"), ("Goblin", 10, 2, "downward")]))
    assert len(imported.quest.start) == 4
    told = [w for w in imported.warnings if w.key == "hq.imp.warn.edge_door"]
    assert len(told) == 1 and all("DoubleArrowDoor" in i18n.t(told[0], lang) for lang in i18n.LANGS)
    # the same door with a stairway on the map: the heroes start on the stairway, as always
    with_stairs = parse_heroscribe(xml([STAIRWAY, ("DoubleArrowDoor", 0, 10, "rightward")]))
    assert with_stairs.quest.start == parse_heroscribe(xml([STAIRWAY])).quest.start
