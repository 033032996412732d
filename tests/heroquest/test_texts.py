"""What the game says reads as words in both languages: dice in the rulebook's names, who moved, what a hazard did."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

import i18n
from rules.base import Event
from rules.heroquest import GAME
from rules.heroquest.upload import load_quest
from rules.rng import Rng
from tests.heroquest.hq_helpers import dice, fresh, new, step
from tests.reference import HQ_QUESTS

REFERENCE = HQ_QUESTS
FILES = sorted(REFERENCE.glob("*.xml"))[1:4]
RAW = re.compile(r"\b(bskull|wskull|wshield|bshield|hq\.[a-z_.]+)\b|[{}]")


def texts(events: Iterable[Event]) -> list[str]:
    return [i18n.t(e.msg, lang) for e in events for lang in ("en", "es")]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_text_of_a_random_quest_reads_as_words(path: Path) -> None:
    state = GAME.new_with_quest(load_quest(path.read_text(encoding="utf-8"), path.name), GAME.resolve_options({}), 3,
                                11)
    rng = Rng.from_seed(11)
    said: list[str] = []
    for _ in range(200):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        legal = [la for la in GAME.legal_actions(state, seat) if la.action.kind != "gm_end_quest"] or \
            GAME.legal_actions(state, seat)
        said += [i18n.t(la.label, lang) for la in legal for lang in ("en", "es")]
        r = GAME.apply(state, seat, rng.choice(legal).action)
        said += texts(r.events)
        state = r.state
    bad = [t for t in said if RAW.search(t)]
    assert bad == []
    assert any("calavera" in t or "escudo" in t for t in said)


def test_a_move_says_who_moved() -> None:
    r = step(new([]), 1, "move", to="D4")
    assert texts(r.events) == ["Barbarian moves to D4.", "Bárbaro se mueve a D4."]


def test_a_hazard_says_its_roll_and_its_damage() -> None:
    s = new([])
    s.d["deck"] = ["hazard_arrow_a", "gold_25a"]
    s = fresh(s)
    with dice("bskull"):
        r = step(s, 1, "search_treasure")
    said = texts(r.events)
    assert "Barbarian draws a hazard card, arrow trap: the die shows 1 black skull, 1 damage." in said
    assert "Bárbaro saca una carta de peligro, trampa de flechas: el dado muestra 1 calavera negra, 1 de daño." in said


def test_a_trap_says_its_roll() -> None:
    s = new([{"uid": "t", "kind": "trap", "ref": "spear_trap", "squares": [[3, 3]]}])
    with dice("wshield"):
        r = step(s, 1, "move", to="D4")
    assert "Roll for the arrow trap: 1 white shield, 0 damage." in texts(r.events)
