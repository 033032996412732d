"""HeroScribe import: the 15 base quests load with the right geometry; broken files give QuestError."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import i18n
from rules.heroquest import board
from rules.heroquest.heroscribe import footprint, secret_door_between
from rules.heroquest.quest import Quest, QuestError
from rules.heroquest.upload import import_quest, load_quest

QUESTS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "heroquest" / "heroscribe" / "quests-eu-base"
FILES = sorted(QUESTS.glob("*.xml"))


def load(name: str) -> Quest:
    return load_quest((QUESTS / name).read_text(encoding="utf-8"), name)


def test_all_fifteen_import() -> None:
    assert len(FILES) == 15
    for path in FILES:
        quest = load_quest(path.read_text(encoding="utf-8"), path.name)
        summary = quest.summary()
        assert 9 <= summary["doors"] <= 16, path.name
        assert 6 <= sum(summary["monsters"].values()) <= 30, path.name
        assert len(quest.start) == 4
        assert quest.name.en and quest.id
        for obj in quest.of_kind("door", "secret_door"):
            assert obj.between and board.door_slot(*obj.between)
        assert Quest.from_json(quest.to_json()) == quest


def test_the_trial_counts() -> None:
    q = load("HQBase-01-TheTrial_EU.xml")
    assert q.name.en == "The Trial" and q.id == "the_trial"
    assert q.summary() == {
        "doors": 12,
        "secret_doors": 0,
        "monsters": {
            "chaos_warrior": 4,
            "fimir": 3,
            "gargoyle": 1,
            "goblin": 6,
            "mummy": 2,
            "orc": 4,
            "skeleton": 4,
            "zombie": 2,
        },
        "furniture": 15,
        "traps": 0,
        "blocked": 5,
    }
    # the stairway (left=2 top=15, rightward, 2x2) is where the heroes start, in room 20
    assert set(q.start) == {(14, 1), (14, 2), (15, 1), (15, 2)} and q.start_room() == 20
    assert set(q.notes) == {"A", "B", "C", "D", "note1"}
    assert q.notes["B"].en.startswith("This mummy is the guardian")
    assert "You have learnt well" in q.speech.en
    assert (0, 5) in q.dark and (1, 1) not in q.dark
    assert q.wandering_monster == ""


def test_the_maze_counts_and_heroes() -> None:
    q = load("HQBase-00-TheMaze_EU.xml")
    s = q.summary()
    assert (s["doors"], s["secret_doors"], s["monsters"], s["blocked"]) == (16, 4, {"orc": 6}, 11)
    # hero marks at the four corners, in the order barbarian, dwarf, elf, wizard
    assert q.start == ((0, 0), (0, 25), (18, 25), (18, 0))


def test_door_and_secret_door_geometry() -> None:
    trial = load("HQBase-01-TheTrial_EU.xml")
    doors = {o.between for o in trial.of_kind("door")}
    assert ((2, 4), (2, 5)) in doors  # left=5 top=3 rightward
    assert ((3, 3), (4, 3)) in doors  # left=4 top=4 downward
    maze = load("HQBase-00-TheMaze_EU.xml")
    secret = {o.between for o in maze.of_kind("secret_door")}
    assert secret == {((9, 3), (8, 3)), ((9, 5), (10, 5)), ((5, 8), (5, 9)), ((11, 16), (11, 17))}
    assert secret_door_between((4, 12), "rightward") == ((4, 12), (4, 11))


def test_footprints() -> None:
    assert footprint(3, 2, 2.0, 6.0, "rightward") == ((5, 1), (5, 2), (6, 1), (6, 2), (7, 1), (7, 2))
    assert footprint(3, 1, 2.5, 5.0, "downward") == ((4, 1), (4, 2), (4, 3))  # halves round down
    assert footprint(1, 1, 16.87, 3.0, "downward") == ((2, 16),)
    lair = load("HQBase-03-LairoftheOrcWarlord_EU.xml")
    fireplace = next(o for o in lair.objects if o.ref == "fireplace")
    assert fireplace.squares == ((4, 1), (4, 2), (4, 3))


def test_wandering_monster_and_notes() -> None:
    ragnar = load("HQBase-02-TheRescueofSirRagnar_EU.xml")
    assert ragnar.wandering_monster == "orc" and "wandering" not in ragnar.notes
    # "the ghost of Ollar appears, chuckles madly and disappears": no ghost in our catalogue, so the closest
    # one (an undead skeleton) with a warning for the game master, and the quest's words kept
    castle = import_quest((QUESTS / "HQBase-10-CastleofMystery_EU.xml").read_bytes())
    assert castle.quest.wandering_monster == "skeleton" and "Ollar" in castle.quest.notes["wandering"].en
    assert [w.key for w in castle.warnings] == ["hq.imp.warn.wandering_closest"]
    assert "Ollar" in i18n.t(castle.warnings[0], "en") and "Esqueleto" in i18n.t(castle.warnings[0], "es")


# ---------------------------------------------------------------- broken files

TRIAL = (QUESTS / "HQBase-01-TheTrial_EU.xml").read_text(encoding="utf-8")
HEAD = '<?xml version="1.0"?>\n<quest name="X" region="Europe" version="1.0" width="1" height="1">\n<board>\n'
TAIL = '<object id="Stairway" left="2.0" top="15.0" rotation="rightward" />\n</board>\n</quest>\n'


def english(exc: QuestError) -> str:
    return i18n.t(exc.reason, "en")


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ("<quest name='x'", "hq.q.error.xml", "line 1"),
        ("", "hq.q.error.unknown_format", "Unknown format"),
        ("hello", "hq.q.error.unknown_format", "Unknown format"),
        (TRIAL.replace('Europe" version="1.0"', 'Europe" version="2.7"', 1), "hq.q.error.version", "2.7"),
        (TRIAL.replace('name="The Trial" ', "", 1), "hq.q.error.no_name", "no name"),
        (TRIAL.replace('left="7.0" top="2.0"', 'left="27.0" top="2.0"', 1), "hq.imp.error.off_board", "outside"),
        (TRIAL.replace('left="7.0" top="2.0"', 'left="7.0" top="-3"', 1), "hq.imp.error.off_board", "square -3,7"),
        (TRIAL.replace('left="7.0" top="2.0"', 'left="seven" top="2.0"', 1), "hq.q.error.bad_number", "seven"),
        (TRIAL.replace('left="7.0" top="2.0"', 'left="nan" top="2.0"', 1), "hq.q.error.bad_number", "nan"),
        (TRIAL.replace('rotation="rightward"', 'rotation="sideways"', 1), "hq.q.error.rotation", "sideways"),
        (TRIAL.replace('width="1" height="1"', 'width="2" height="1"', 1), "hq.q.error.boards", "single"),
        (HEAD + '<object id="BattleRoom" left="2.0" top="2.0" />\n' + TAIL, "hq.q.error.unsupported_object", "line 4"),
        (HEAD + '<object left="2.0" top="2.0" />\n' + TAIL, "hq.q.error.missing_attr", "'id'"),
        (HEAD + "</board></quest>", "hq.q.error.no_start", "start"),
        ("<notaquest/>", "hq.q.error.root", "<notaquest>"),
        (
            '<?xml version="1.0"?><!DOCTYPE quest [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
            '<quest name="&b;" version="1.0"/>',
            "hq.q.error.entities",
            "entities",
        ),
        (
            '<?xml version="1.0"?><!DOCTYPE quest [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<quest name="&x;" version="1.0"/>',
            "hq.q.error.entities",
            "entities",
        ),
        ("<" + "a" * 1_000_001, "hq.q.error.too_big", "limit"),
        ("{", "hq.q.error.json", "Malformed JSON"),
        ("{}", "hq.q.error.field", "format"),
        ('{"format": "heroquest-quest", "version": 9}', "hq.q.error.version", "9"),
    ],
)
def test_broken_files(text: str, key: str, fragment: str) -> None:
    with pytest.raises(QuestError) as info:
        load_quest(text, "broken.xml")
    assert info.value.reason.key == key
    assert fragment in english(info.value)
    assert i18n.t(info.value.reason, "es") != english(info.value)


def test_bytes_input() -> None:
    assert load_quest(TRIAL.encode("utf-8")).id == "the_trial"
    with pytest.raises(QuestError) as info:
        load_quest(b"\xff\xfe<quest/>")
    assert info.value.reason.key == "hq.q.error.encoding"


def test_fuzzed_inputs_only_raise_quest_error() -> None:
    rng = random.Random(1234)
    sources = [p.read_text(encoding="utf-8") for p in FILES[:4]]
    for _ in range(300):
        text = rng.choice(sources)
        op = rng.randrange(4)
        i = rng.randrange(len(text))
        if op == 0:
            text = text[:i]
        elif op == 1:
            text = text[:i] + text[i + rng.randrange(1, 40) :]
        elif op == 2:
            text = text[:i] + rng.choice('<>"=/&;x1.-') + text[i:]
        else:
            j = rng.randrange(len(text))
            text = text[:i] + text[j : j + 30] + text[i:]
        try:
            load_quest(text)
        except QuestError as exc:
            assert i18n.t(exc.reason, "en")


# ---------------------------------------------------------------- our own quests


def _reachable(quest: Quest) -> set[tuple[int, int]]:
    """Squares reachable from the start with every door and secret door open, avoiding rocks and dark."""
    doors = {o.edge for o in quest.of_kind("door", "secret_door")}
    walls = {s for o in quest.of_kind("blocked") for s in o.squares} | set(quest.dark)
    todo, seen = list(quest.start), set(quest.start)
    while todo:
        sq = todo.pop()
        for n in board.orthogonal(sq):
            if n not in seen and n not in walls and board.passable(sq, n, doors):
                seen.add(n)
                todo.append(n)
    return seen


def test_builtin_quests() -> None:
    from rules.heroquest.quest import builtin_quests

    quests = builtin_quests()
    assert set(quests) == {"crypt_of_ulfgar", "well_of_whispers", "chaos_forge"}
    for quest in quests.values():
        assert quest.name.es != quest.name.en and quest.speech.es and quest.speech.en
        assert len(quest.notes) >= 3 and quest.wandering_monster
        summary = quest.summary()
        assert summary["secret_doors"] >= 2 and summary["traps"] >= 3 and summary["furniture"] >= 5
        assert sum(summary["monsters"].values()) >= 12
        assert quest.start_room() is not None
        assert not any(o.squares[0] in quest.start for o in quest.of_kind("monster"))
        reach = _reachable(quest)
        for obj in quest.of_kind("monster", "furniture", "trap"):
            # every figure, piece of furniture and trap can be reached (or touched from a reachable square)
            assert any(s in reach or any(n in reach for n in board.neighbours(s)) for s in obj.squares), obj.uid
        for key in {o.note for o in quest.objects if o.note}:
            assert key in quest.notes
        assert Quest.from_json(quest.to_json()) == quest
        assert load_quest(__import__("json").dumps(quest.to_json())) == quest
