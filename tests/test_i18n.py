"""Every message exists in Spanish and English with the same placeholders, and every key used exists."""

from __future__ import annotations

import re
from pathlib import Path

import i18n
import plurals
from rules import registry
from rules.text import Lit, Msg, SeatRef

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [p for d in ("rules", "table", "cogs", "renderers", "tools") for p in (ROOT / d).rglob("*.py")]
SOURCES.append(ROOT / "bot.py")
#: Every catalog's top-level prefix (core, bot, cmd, hr, hq, gg, ...), so a new game's keys are checked too.
PREFIXES = sorted({key.split(".")[0] for key in i18n.catalog("en")})
_ALTERNATIVES = "|".join(map(re.escape, PREFIXES))
KEY_RE = re.compile(rf"""["']((?:{_ALTERNATIVES})\.[a-z0-9_.]+[a-z0-9_])["']""")


def test_both_languages_have_the_same_keys() -> None:
    es, en = i18n.catalog("es"), i18n.catalog("en")
    assert sorted(set(es) - set(en)) == [], "keys only in Spanish"
    assert sorted(set(en) - set(es)) == [], "keys only in English"


def test_placeholders_match_between_languages() -> None:
    es, en = i18n.catalog("es"), i18n.catalog("en")
    mismatched = [k for k in en if i18n.placeholders(en[k]) != i18n.placeholders(es.get(k, ""))]
    assert mismatched == []


def test_no_empty_messages() -> None:
    for lang in i18n.LANGS:
        assert [k for k, v in i18n.catalog(lang).items() if not v.strip()] == []


def test_every_key_written_in_the_code_exists() -> None:
    catalog = i18n.catalog("en")
    missing = set()
    for path in SOURCES:
        for key in KEY_RE.findall(path.read_text(encoding="utf-8")):
            if key not in catalog and not key.endswith("."):
                missing.add(f"{path.relative_to(ROOT)}: {key}")
    assert sorted(missing) == []


def test_every_registered_game_has_a_name_in_both_languages() -> None:
    for game in registry.games().values():
        if game.id == "tiny":
            continue
        assert i18n.has(game.name_key, "es") and i18n.has(game.name_key, "en")
        for spec in game.options():
            assert i18n.has(spec.label.key, "es") and i18n.has(spec.label.key, "en"), spec.key


def test_resolution_follows_user_then_server_then_english() -> None:
    assert i18n.lang_of("es-ES", "en-US") == "es"
    assert i18n.lang_of("fr", "es-419") == "es"
    assert i18n.lang_of(None, None) == "en"
    assert i18n.lang_of("de", "ja") == "en"


def test_nested_messages_and_seat_names_resolve() -> None:
    line = Msg("core.error.not_your_turn", {"seats": Msg("core.list.2", {"s0": SeatRef(0), "s1": SeatRef(1)})})
    names = {0: "Ana", 1: "Ñoño"}
    assert i18n.t(line, "es", names.get) == "No es tu turno. Esperando a: Ana y Ñoño."
    assert i18n.t(line, "en", names.get) == "It is not your turn. Waiting for: Ana and Ñoño."


def test_log_lines_stored_with_row_and_col_read_as_square_names() -> None:
    """HeroQuest lines stored before squares were named "H11" carried 1-based row and col."""
    old = Msg("hq.ev.moved", {"hero": Lit("Ada", "Ada"), "row": 12, "col": 11})
    assert i18n.t(old, "en") == "Ada moves to K12."
    assert "K12" in i18n.t(old, "es") and "{sq}" not in i18n.t(old, "es")


def test_plural_blocks_follow_cldr_rules_in_both_languages() -> None:
    template = "{n, plural, =0 {nada} one {# paso} other {# pasos}} ({who})"
    assert plurals.expand(template, "es", {"n": 1}) == "1 paso ({who})"
    assert plurals.expand(template, "es", {"n": 2}) == "2 pasos ({who})"
    assert plurals.expand(template, "es", {"n": 0}) == "nada ({who})"
    assert plurals.category("en", 1) == "one" and plurals.category("en", 0) == "other"
    assert plurals.category("es", 1_000_000) == "many"  # CLDR's Spanish "many" falls back to "other" here
    assert plurals.expand("{n, plural, one {# step} other {# steps}}", "en", {"n": 1_000_000}) == "1000000 steps"
    assert i18n.placeholders("{n, plural, one {# {card}} other {# {card}s}} {who}") == {"n", "card", "who"}


def test_every_plural_block_in_the_catalogs_parses_and_has_other() -> None:
    for lang in i18n.LANGS:
        for key, template in i18n.catalog(lang).items():
            for _, _, _, branches in plurals.blocks(template):
                assert "other" in branches, key
