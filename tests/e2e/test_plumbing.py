"""The shared cog plumbing: typed text to one legal action, refusals naming what is valid, autocomplete."""

from __future__ import annotations

from typing import cast

import pytest

from cogs.plumbing import MAX_CHOICES, Wording, listing, pair_choices
from rules.base import Action, IllegalAction, LegalAction
from rules.text import Lit, Msg

WORDS = Wording()
WORDS.prefix = "hr"


def _label(es: str, en: str) -> Msg:
    # Deliberately a name written in both languages, not a catalog message: i18n.t renders both alike, and the
    # plumbing must match what the player reads whichever it is.
    return cast(Msg, Lit(es, en))


def _legal(*names: tuple[str, str]) -> list[LegalAction]:
    return [LegalAction(Action.of("buy", card=f"c{i}"), _label(es, en)) for i, (es, en) in enumerate(names)]


LEGAL = _legal(("Espada corta", "Shortsword"), ("Daga", "Dagger"), ("Oro", "Gold"), ("Espada larga", "Longsword"))


def test_pick_by_token_label_in_either_language_or_unique_part() -> None:
    assert WORDS.pick(LEGAL, "buy card=c2", "en", {}) == LEGAL[2].action
    assert WORDS.pick(LEGAL, "  DAGA ", "en", {}) == LEGAL[1].action
    assert WORDS.pick(LEGAL, "gold", "es", {}) == LEGAL[2].action
    assert WORDS.pick(LEGAL, "long", "en", {}) == LEGAL[3].action


def test_ambiguous_and_unknown_text_are_refused_with_the_valid_choices_in_the_users_language() -> None:
    with pytest.raises(IllegalAction) as ambiguous:
        WORDS.pick(LEGAL, "espada", "es", {})
    assert ambiguous.value.reason.key == "bot.menu.ambiguous", "one wording for every game, asking to type more"
    assert ambiguous.value.reason.params["valid"] == "Espada corta; Espada larga"
    with pytest.raises(IllegalAction) as unknown:
        WORDS.pick(LEGAL, "axe", "en", {})
    assert unknown.value.reason.key == "hr.bot.error.no_match"
    assert unknown.value.reason.params["valid"] == "Shortsword, Dagger, Gold, Longsword"


def test_choices_filter_by_label_or_token_in_the_users_language_and_stop_at_25() -> None:
    assert [c.name for c in WORDS.choices(LEGAL, "espada", "es", {})] == ["Espada corta", "Espada larga"]
    assert [c.value for c in WORDS.choices(LEGAL, "c3", "en", {})] == ["buy card=c3"]
    assert WORDS.choices(LEGAL, "espada", "en", {}) == [], "English labels only for an English user"
    many = _legal(*[(f"Carta {i}", f"Card {i}") for i in range(60)])
    assert len(WORDS.choices(many, "", "en", {})) == MAX_CHOICES
    long = [LegalAction(Action.of("buy", card="x" * 120), _label("larga", "long"))]
    assert WORDS.choices(long, "", "en", {}) == [], "a value Discord cannot carry is never offered"


def test_pair_choices_clip_and_cap() -> None:
    pairs = [("n" * 150, f"v{i}") for i in range(40)]
    out = pair_choices(pairs, "")
    assert len(out) == MAX_CHOICES and all(len(c.name) <= 100 for c in out)
    assert [c.value for c in pair_choices(pairs, "v3")] == ["v3", *[f"v{i}" for i in range(30, 40)]]
    assert pair_choices([("Seat 1", "1")], "1", by_value=False) == pair_choices([("Seat 1", "1")], "seat")


def test_listing_names_a_few_then_an_ellipsis() -> None:
    assert listing([]) == "-"
    assert listing(["a", "b"], "; ") == "a; b"
    assert listing([str(i) for i in range(9)], limit=3) == "0, 1, 2, …"
