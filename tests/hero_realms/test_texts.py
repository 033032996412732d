"""What Hero Realms says: announced choices and health gains, plurals, no negative health, rulebook words."""

from __future__ import annotations

import re

import i18n
from rules.base import Step
from rules.hero_realms import GAME
from rules.hero_realms.state import State
from tests.hero_realms.hr_helpers import act, clean, put

NAMES = {0: "Ada", 1: "Bo", 2: "Cy", 3: "Di"}


def _public(step: Step[State], lang: str = "en") -> list[str]:
    return [i18n.t(e.msg, lang, NAMES.get) for e in step.events if e.to is None]


def test_a_choice_and_the_health_it_gives_are_announced() -> None:
    s = clean()
    darian = put(s, 0, "darian", "champions")
    s = act(s, 0, "expend", card=darian).state
    step = act(s, 0, "choose", option=1)
    assert "Ada chooses “+4 health”." in _public(step)
    assert "Ada gains 4 health (54 now)." in _public(step)
    assert "Ada elige «+4 de Vida»." in _public(step, "es")
    assert "Ada gana 4 de Vida (ahora 54)." in _public(step, "es")


def test_kraka_health_gains_are_announced() -> None:
    s = clean()
    kraka = put(s, 0, "kraka", "champions")
    put(s, 0, "gold", "deck")
    step = act(s, 0, "expend", card=kraka)
    lines = _public(step)
    assert "Ada gains 2 health (52 now)." in lines and "Ada draws a card." in lines


def test_counts_of_one_and_more_read_naturally() -> None:
    s = clean()
    step = act(s, 0, "end_turn")
    assert "Ada draws 5 cards." in _public(step) and "Ada roba 5 cartas." in _public(step, "es")
    s = clean()
    spark = put(s, 0, "spark")
    step = act(s, 0, "play", card=spark)
    assert "Bo will discard a card at the start of their turn." in _public(step)
    assert "Bo descartará una carta al empezar su turno." in _public(step, "es")
    for lang in i18n.LANGS:
        hr = {k: v for k, v in i18n.catalog(lang).items() if k.startswith(("hr.", "render.hr."))}
        assert [k for k, v in hr.items() if "(s)" in v] == [], lang


def test_health_is_never_shown_below_zero_and_the_win_is_said_once() -> None:
    s = clean()
    s.health[1] = 5
    s.players[0].combat = 18
    step = act(s, 0, "attack", target="p1", amount=18)
    lines = _public(step)
    assert "Ada attacks Bo for 18: no health left." in lines
    assert not any(re.search(r"-\d", line) for line in lines)
    assert GAME.view(step.state, None)["players"][1]["health"] == 0
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    summary = i18n.t(outcome.summary, "en", NAMES.get)
    assert summary == "Final standing: 1. Ada (50 health), 2. Bo (eliminated)."
    said = [*lines, summary]
    assert sum("wins" in line or "won" in line for line in said) == 1, said


def test_a_team_win_ranks_both_winners_first() -> None:
    s = clean("hydra", 4)
    s.health[1] = 2
    s.players[0].combat = 2
    step = act(s, 0, "attack", target="p2", amount=2)
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    summary = i18n.t(outcome.summary, "es", NAMES.get)
    assert summary == ("Clasificación final: 1. Ada (75 de Vida), 1. Bo (75 de Vida), 2. Di (eliminado), "
                       "2. Cy (eliminado).")




def test_spanish_hero_realms_strings_use_the_rulebook_words() -> None:
    spanish = {k: v for k, v in i18n.catalog("es").items()
               if k.startswith(("hr.", "render.hr.", "cmd.hr"))}
    wrong = {k: v for k, v in spanish.items() if re.search(r"salud|aturd|rival|gemas? de fuego", v, re.I)}
    assert wrong == {}
    lower_vida = {k: v for k, v in spanish.items() if re.search(r"\bvida\b", v) and "puntos de vida" not in v}
    assert lower_vida == {}, "the resource is «Vida», capitalised as in the rulebook"


def test_a_decision_answer_is_announced_in_spanish_too() -> None:
    s = clean()
    priest = put(s, 0, "tithe_priest", "champions")
    s = act(s, 0, "expend", card=priest).state
    assert "Ada elige «+1 de Oro»." in _public(act(s, 0, "choose", option=0), "es")
