"""What the real HeroScribe pack files taught the importer (measured on 82 of them): a label drawn off the board,
gates across open floor, every object of a kind named with its ruling, the file's own names in the game master's
warnings, positions between two squares, and refusals that say what is missing without an internal word."""

from __future__ import annotations

import re

import pytest

import i18n
from rules.heroquest.heroscribe import parse_heroscribe
from rules.heroquest.quest import Quest, QuestError, review
from rules.text import Msg
from tests.heroquest.hs_fixture import STAIRWAY, xml

#: A word no player should read: a catalog key, a snake_case token, a `key=value`, a stray brace.
INTERNAL = re.compile(r"hq\.|[a-z]+_[a-z]+|\w=\w|[{}]")


def texts(message: Msg) -> list[str]:
    out = [i18n.t(message, lang) for lang in i18n.LANGS]
    for text in out:
        assert not INTERNAL.search(text), text
    return out


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_letter_drawn_off_the_board_is_left_out_not_a_refusal() -> None:
    """Return of the Witch Lord 3 (US) draws a letter C at column 27, past the board's edge: the whole quest was
    refused for a label."""
    text = xml([STAIRWAY, ("LetterC", 27, 6, "downward"), ("LetterC", 22, 4, "downward")], notes=["C. A chest."])
    imported = parse_heroscribe(text)
    assert [o.note for o in imported.quest.objects if o.kind == "marker"] == ["C"]
    told = [w for w in imported.warnings if w.key == "hq.imp.warn.mark_off_board"]
    assert len(told) == 1
    off_line = str(line_of(text, 'left="27'))
    assert all("LetterC" in t and off_line in t for t in texts(told[0]))
    # anything else off the board still refuses the file
    with pytest.raises(QuestError):
        parse_heroscribe(xml([STAIRWAY, ("Table", 27, 6, "downward")]))


@pytest.mark.parametrize("hs_id", ["Portcullis", "Door", "DoubleArrowDoor"])
def test_a_gate_across_open_floor_is_not_promised_as_a_door(hs_id: str) -> None:
    """Portcullises, doors and doorways across a corridor or through a room stand where our board has no wall:
    the game master was told "played as an ordinary door" and then "left out". Now one warning says where the
    way stays open and what to do while the quest says it is shut."""
    imported = parse_heroscribe(xml([STAIRWAY, (hs_id, 10, 2, "downward")]))
    assert not [o for o in imported.quest.objects if o.kind == "door"]
    assert not [w for w in imported.warnings if w.key.startswith("hq.imp.warn.ruling")]
    assert not [w for w in imported.warnings if w.key == "hq.imp.warn.not_on_wall"]
    told = [w for w in imported.warnings if w.key == "hq.imp.warn.gate_no_wall"]
    assert len(told) == 1
    en, es = sorted(texts(told[0]), key=lambda t: "between" not in t)
    assert "J2" in en and "J3" in en and "(provisional)" in en
    assert "J2" in es and "J3" in es and "(provisional)" in es


def test_an_open_doorway_across_open_floor_changes_nothing() -> None:
    imported = parse_heroscribe(xml([STAIRWAY, ("StoneDoorway", 18, 19, "rightward")]))
    told = [w for w in imported.warnings if w.key == "hq.imp.warn.open_doorway_no_wall"]
    assert len(told) == 1 and all("R19" in t and "S19" in t for t in texts(told[0]))
    assert not [w for w in imported.warnings if w.key.startswith("hq.imp.warn.ruling")]


def test_a_gate_on_a_printed_wall_is_still_a_door_with_its_ruling() -> None:
    imported = parse_heroscribe(xml([STAIRWAY, ("Portcullis", 3, 4, "downward")]))
    assert [o.between for o in imported.quest.objects if o.kind == "door"] == [((3, 2), (4, 2))]
    assert [w.key for w in imported.warnings if w.key.startswith("hq.imp.warn.ruling")] == ["hq.imp.warn.ruling"]


def test_every_mercenary_is_named_with_its_ruling() -> None:
    text = xml([STAIRWAY, ("Crossbowman", 8, 3, "downward"), ("Crossbowman", 9, 3, "downward"),
                ("Crossbowman", 10, 3, "downward"), ("Swordsman", 8, 12, "downward")])
    imported = parse_heroscribe(text)
    said = [w for w in imported.warnings if w.key.startswith("hq.imp.warn.ruling")]
    assert [(w.key, w.params["id"]) for w in said] == [("hq.imp.warn.ruling_many", "Crossbowman"),
                                                         ("hq.imp.warn.ruling", "Swordsman")]
    for t in texts(said[0]):
        assert "H3, I3, J3" in t and "3" in t
    lines = [line_of(text, f'"Crossbowman" left="{c}"') for c in (8, 9, 10)]
    assert said[0].params["lines"] == ", ".join(map(str, lines))


def test_a_long_list_of_one_kind_is_cut_but_counted() -> None:
    fog = [("Fog", c, 1, "downward") for c in range(1, 26)]
    imported = parse_heroscribe(xml([STAIRWAY, *fog]))
    said = next(w for w in imported.warnings if w.key == "hq.imp.warn.ruling_many")
    for t in texts(said):
        assert "25" in t and "…" in t and "Y1" not in t


def test_warnings_name_the_files_objects_not_made_up_ids() -> None:
    """Kellar's Keep 3 and The Frozen Horror showed the game master "object 'blocked_3' on square M6"."""
    text = xml([STAIRWAY, ("SingleBlockedSquare", 26, 9, "downward"), ("SingleBlockedSquare", 4, 4, "downward"),
                ("TreasureChest", 4, 4, "downward")], darks=[(26, 1, 1, 9)])
    imported = parse_heroscribe(text)
    dark = next(w for w in imported.warnings if w.key == "hq.imp.warn.in_dark")
    overlap = next(w for w in imported.warnings if w.key == "hq.imp.warn.overlap_piece")
    blocked_line = line_of(text, '"SingleBlockedSquare" left="26"')
    for t in texts(dark):
        assert "SingleBlockedSquare" in t and str(blocked_line) in t and "Z9" in t
    first_line = str(line_of(text, '"SingleBlockedSquare" left="4"'))
    for t in texts(overlap):
        assert "TreasureChest" in t and "SingleBlockedSquare" in t and first_line in t
    # our own JSON quests keep naming their objects by the uid their author wrote
    quest = imported.quest
    assert any(w.key == "hq.imp.warn.overlap" for w in review(quest).all_warnings())


def test_a_quest_with_no_start_says_so_without_naming_a_field() -> None:
    with pytest.raises(QuestError) as info:
        parse_heroscribe(xml([("Goblin", 10, 2, "downward")]))
    problem = next(p for p in info.value.problems if p.key == "hq.q.error.no_start")
    for t in texts(problem):
        assert "'start'" not in t and "«start»" not in t and "field" not in t and "campo" not in t
    assert "Door In" in i18n.t(problem, "en") and "escalera" in i18n.t(problem, "es")


def test_a_position_between_two_squares_is_told_to_the_game_master() -> None:
    """Against the Ogre Horde 6 draws a door at left 13.5; Lair of the Orc Warlord a fireplace at 2.5. The
    nearest square (halves down) is a guess: the game master is told. HeroScribe's small nudges of letters and
    numbers (left 7.05, top 9.95) and letters drawn between squares are labels, not worth a word."""
    text = xml([STAIRWAY, ("Goblin", 10.5, 3, "downward"), ("Orc", 12.05, 3, "downward"),
                ("LetterA", 7.5, 12.5, "downward"), ("Number1", 4.95, 9.95, "downward")], notes=["A. Here."])
    imported = parse_heroscribe(text)
    told = [w for w in imported.warnings if w.key == "hq.imp.warn.between_squares"]
    assert [w.params["id"] for w in told] == ["Goblin"]
    assert [o.squares for o in imported.quest.objects if o.ref == "goblin"] == [((2, 9),)]
    for t in texts(told[0]):
        assert "10.5" in t and "J3" in t and str(line_of(text, '"Goblin"')) in t


@pytest.mark.parametrize(("width", "height", "bridges", "boards"), [(2, 2, 16, 4), (1, 3, 0, 3)])
def test_a_quest_of_several_boards_says_what_is_missing(width: int, height: int, bridges: int, boards: int) -> None:
    """The Dark Company joins 4 boards with 16 bridges; the Adventure Design Kit's sheets stack 3 boards."""
    bridge = '<bridge column="1" row="1" position="7" orientation="horizontal"/>\n' * bridges
    with pytest.raises(QuestError) as info:
        parse_heroscribe(xml(width=width, height=height, boards=boards, extra=bridge))
    en, es = i18n.t(info.value.reason, "en"), i18n.t(info.value.reason, "es")
    texts(info.value.reason)
    assert f"{boards} boards" in en and f"{boards} tableros" in es
    assert "joining boards is not supported" in en and "unir tableros" in es
    if bridges:
        assert f"{bridges} bridges" in en and f"{bridges} puentes" in es
    else:
        assert "bridge" not in en and "puente" not in es


def test_json_quests_are_reviewed_as_before() -> None:
    """`review` without the file's names still names objects by uid (our format's authors write them)."""
    quest = parse_heroscribe(xml([STAIRWAY, ("SingleBlockedSquare", 26, 9, "downward")], darks=[(26, 1, 1, 9)])).quest
    assert isinstance(quest, Quest)
    dark = next(w for w in review(quest).all_warnings() if w.key == "hq.imp.warn.in_dark")
    assert "blocked_1" in i18n.t(dark, "en")


def test_letters_of_a_file_without_notes_are_one_warning() -> None:
    """Kellar's Keep in European wording has letters on the map and no notes at all: one warning, not four."""
    marks = [("LetterA", 8, 3, "downward"), ("LetterB", 9, 3, "downward"), ("LetterD", 10, 3, "downward")]
    imported = parse_heroscribe(xml([STAIRWAY, *marks]))
    said = [w for w in imported.warnings if w.key.startswith("hq.imp.warn.mark")]
    assert [w.key for w in said] == ["hq.imp.warn.marks_no_notes"]
    for t in texts(said[0]):
        assert "3" in t and "A, B, D" in t
    # with some notes, each letter without one is still named
    with_notes = parse_heroscribe(xml([STAIRWAY, *marks], notes=["A. Here."]))
    assert [w.params["letter"] for w in with_notes.warnings if w.key == "hq.imp.warn.mark_without_note"] == ["B", "D"]


def test_pictures_of_one_kind_are_one_warning() -> None:
    """Kellar's Keep 3 draws 14 flights of steps: one warning naming them, not 14."""
    steps = [("Stairs", c, 1, "downward") for c in (11, 13, 15)]
    imported = parse_heroscribe(xml([STAIRWAY, *steps]))
    said = [w for w in imported.warnings if w.params.get("id") == "Stairs"]
    assert [w.key for w in said] == ["hq.imp.warn.ruling_many"]
    for t in texts(said[0]):
        assert "K1, M1, O1" in t and "3" in t
    one = parse_heroscribe(xml([STAIRWAY, steps[0]]))
    assert [w.key for w in one.warnings if w.params.get("id") == "Stairs"] == ["hq.imp.warn.decor"]
