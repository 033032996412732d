"""Issues 20 and 21's bars, measured by tools/table_talk.py on one short seeded game of every kind, in a Spanish
and in an English server: nothing in the wrong language, no raw tokens, no cut messages, nobody waited on without
being told, and a quiet channel (at most 2 new messages and 1 new board image per turn, 1 DM per player per turn).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

import i18n
from tools import table_talk as tt
from tools import talk_checks as tc

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 1
MOVES = 10


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    rows = asyncio.run(tt.run(list(tt.GAMES), ["es", "en"], SEED, 1, MOVES))
    return {"games": tt.combine(rows), "segments": rows}


def check(figures: dict[str, Any], game: str, key: str) -> None:
    f = figures["games"][game]
    assert f[key] <= tt.BARS[key], (f"{game}: {key} = {f[key]} (bar {tt.BARS[key]})",
                                    f["examples"].get(key, []))


def test_the_run_exercised_what_it_measures(figures: dict[str, Any]) -> None:
    """Every game had human turns, a reminder and a time-out in both server languages, and moves went through
    the buttons or the panel as well as through /game act."""
    for row in figures["segments"]:
        where = f"{row['game']}/{row['server']}"
        assert row["human_turns"] >= 2, where
        assert row["reminders"] >= 1 and row["timeouts"] >= 1, where
        assert row["routes"].get("act", 0) and (row["routes"].get("panel", 0) or row["routes"].get("button", 0)), \
            (where, row["routes"])
        assert not row["examples"]["problems"], (where, row["examples"]["problems"])
    assert all(row["routes"].get("gm", 0) for row in figures["segments"] if row["game"] == "heroquest"), \
        "the HeroQuest game master acted"


#: Each bar of the issues, by the figure that measures it.
BARS = {
    "public_wrong_lang": "public lines speak the table's language",
    "addressed_wrong_lang": "addressed lines speak the reader's language",
    "raw_tokens": "no raw internal words",
    "truncated": "no cut messages",
    "untold_waits": "nobody is waited on without being told",
    "channel_per_turn": "at most two channel messages per turn",
    "images_per_turn": "at most one new board image per turn",
    "dms_per_player_turn": "at most one DM per player per turn",
}


@pytest.mark.parametrize("game", tt.GAMES)
@pytest.mark.parametrize("key", list(BARS))
def test_the_bar_holds(figures: dict[str, Any], key: str, game: str) -> None:
    check(figures, game, key)


# ---------------------------------------------------------------- the readers themselves


def test_the_language_reader_never_reads_a_catalog_line_as_the_other_language() -> None:
    for lang, other in (("es", "en"), ("en", "es")):
        wrong = [k for k, v in i18n.catalog(lang).items() if tc.classify(tc._catalog_text(v)) == other]
        assert not wrong, (lang, wrong[:10])


def test_the_language_reader_tells_the_languages_apart() -> None:
    assert tc.classify("👉 <@123> — ¡te toca! ⏰ el tiempo se acaba <t:1795821642:R>.") == "es"
    assert tc.classify("👉 <@123> — your turn! ⏰ time runs out <t:1795821642:R>.") == "en"
    assert tc.wrong_language("It is not your turn right now; you will be pinged when it is.", "es")
    assert tc.wrong_language("Ahora no es tu turno; te avisaré cuando lo sea.", "en")
    assert not tc.wrong_language("ann plays Gold. (×3)", "en", ["ann"])
    assert tc.classify("H11 3 ⚔️ berta", ["berta"]) is None, "squares, numbers, emoji and names are no language"


def test_the_raw_token_reader() -> None:
    kinds = {k for text in ("Options: variant=hydra", "plays s035", "target: None", "{who} moves", "bot.ping.turn",
                            "card_kind", "…") for k, _ in tc.raw_tokens(text)}
    assert kinds == {"key=value", "id", "None", "{placeholder}", "catalog key", "snake_case", "lone …"}, kinds
    assert not tc.raw_tokens("Ada moves to H11. Type `/game act action:end` — <@12> <t:17:R> https://x.y/a_b")


def test_the_cut_message_reader() -> None:
    assert tc.truncated("x" * 2000)
    assert tc.truncated("the guardian of Ulfg…")
    assert not tc.truncated("Step 1: choose…")
    assert not tc.truncated("… 3 earlier lines in `/game log`")
