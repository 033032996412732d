"""Readers for what the bot says at a table: which language a line is in, raw internal tokens, cut messages.

Language of a line (`classify`). The vocabulary comes from the bot's own words, never from a dictionary:

1. Every value of the Spanish catalogs (data/i18n/es) and of the English ones (data/i18n/en), with the
   `{placeholders}` and the plural-block syntax taken out, plus every name the games' data files give in both
   languages (`{"es": ..., "en": ...}` pairs in data/<game>/), split into lower-case words of letters.
2. A word is a *marker* of Spanish when it occurs in the Spanish material and nowhere in the English, and the
   other way round ("turno", "¡te", "mano" against "turn", "your", "hand"); words both languages use (names
   such as "Gorgasali", "Tijian", shared words such as "no", "a") mark nothing. Words of two letters or fewer
   never mark, nor do the names of the people at the table (passed as `ignore`), mentions (<@id>), channel
   links, timestamps (<t:..>), numbers, squares ("H11", "IN-L"), emoji and text inside `code spans` (commands
   shown to be typed, which Discord keeps in the user's command language).
3. A line is Spanish when its Spanish markers outnumber its English ones by two to one or more (and at least
   one), English the other way round, and undecided otherwise (mixed or markerless lines are never counted as
   wrong). `wrong_language(line, lang)` is True only for a line decided for the other language.

Raw tokens (`key=value`, snake_case ids) are taken out before a line is read, so "Opciones: variant=hydra" counts
as a raw token once and not also as an English line.

Calibration: no catalog value of either language is ever decided for the other (tests/test_table_talk.py checks
it), a line of each language is decided right (pings, turn notices), and every line of the seeded runs of
tools/table_talk.py on main (five games, both server languages, 10 and 30 moves) was read: the only lines decided
wrong are real mistakes (Gorgasali's menu labels "pick" and "step" shown to a Spanish player). NEUTRAL lists,
up front, the loan words and option names both languages use at a table, which must never decide a line.
Reversing the policy on purpose (public text in English in a Spanish server, private answers in Spanish to an
English player) is caught line by line.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import i18n

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"

#: Words that occur in one catalog only but are used by both languages at a table (loan words, game terms,
#: proper names written the same way), so they never decide a line.
NEUTRAL = frozenset({
    "ok", "emoji", "id", "dm", "dms", "png", "xml", "json", "discord", "url", "bot", "bots", "ia", "ai",
    "stop", "hp", "mv", "ap", "pv", "gm", "hq", "hr", "ka", "gi", "br", "log", "top", "rol", "set", "chat",
    "total", "final", "normal", "general", "generales", "original", "tabletop", "heroscribe", "helgoth",
    "mercenaries", "oryana", "arkland", "tijian", "ulfgar", "kellar", "witch", "lord", "zargon", "mentor",
    "sir", "ettin", "quick", "stars", "scarce", "endurance", "not", "enough", "hard", "stones", "gold",
    "mining", "generals", "control", "error", "menu", "online", "offline",
})

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_PLURAL_HEAD = re.compile(r"\{\s*\w+\s*,\s*plural\s*,")
_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
#: Parts of a line that are never words of a language.
_NOT_TEXT = re.compile(
    r"`[^`]*`"                      # code spans: commands to type
    r"|<[@#]!?&?\d+>"               # mentions and channel links
    r"|<t:\d+(?::\w)?>"             # Discord timestamps
    r"|<a?:\w+:\d+>"                # custom emoji
    r"|https?://\S+"                # links
    r"|\b[A-Z]{1,2}\d{1,2}\b"       # squares and hexes: H11, AD30
    r"|\b(?:IN|OUT)-[LR]\b"         # King's Armory off-board squares
)


def _catalog_text(value: str) -> str:
    """A catalog template as words: plural blocks opened up, placeholders removed."""
    text = _PLURAL_HEAD.sub(" ", value)
    text = re.sub(r"\b(?:one|other|few|many|zero|two)\s*\{", " ", text)
    text = re.sub(r"=\d+\s*\{", " ", text)
    previous = None
    while previous != text:
        previous, text = text, _PLACEHOLDER.sub(" ", text)
    return text.replace("{", " ").replace("}", " ").replace("#", " ")


def _pairs(node: object) -> Iterable[tuple[str, str]]:
    if isinstance(node, dict):
        if isinstance(node.get("es"), str) and isinstance(node.get("en"), str):
            yield node["es"], node["en"]
        for value in node.values():
            yield from _pairs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _pairs(value)


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORDS.findall(text)]


@cache
def vocabulary() -> dict[str, frozenset[str]]:
    """The marker words of each language (see the module docstring)."""
    seen: dict[str, Counter[str]] = {"es": Counter(), "en": Counter()}
    for lang in ("es", "en"):
        for value in i18n.catalog(lang).values():
            seen[lang].update(words(_catalog_text(value)))
    for path in sorted(DATA.glob("*/**/*.json")):
        if "i18n" in path.parts:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        for es, en in _pairs(data):
            seen["es"].update(words(es))
            seen["en"].update(words(en))
    markers = {}
    for lang, other in (("es", "en"), ("en", "es")):
        markers[lang] = frozenset(w for w in seen[lang] if w not in seen[other] and len(w) > 2 and w not in NEUTRAL)
    return markers


def counts(line: str, ignore: Iterable[str] = ()) -> tuple[int, int]:
    """(Spanish markers, English markers) in a line; raw tokens (counted apart) are no language's words."""
    skip = {w.lower() for name in ignore for w in words(name)}
    text = _NOT_TEXT.sub(" ", line)
    for _, pattern in RAW_PATTERNS:
        text = pattern.sub(" ", text)
    found = [w for w in words(text) if w not in skip]
    vocab = vocabulary()
    return sum(w in vocab["es"] for w in found), sum(w in vocab["en"] for w in found)


def classify(line: str, ignore: Iterable[str] = ()) -> str | None:
    """"es", "en" or None (undecided): two markers of one language for each of the other, and at least one."""
    es, en = counts(line, ignore)
    if es and es >= 2 * en:
        return "es"
    if en and en >= 2 * es:
        return "en"
    return None


def wrong_language(line: str, lang: str, ignore: Iterable[str] = ()) -> bool:
    found = classify(line, ignore)
    return found is not None and found != lang


# ---------------------------------------------------------------- raw tokens

_CATALOG_PREFIXES = ("bot", "core", "hr", "hq", "gg", "ka", "gi", "cmd", "board", "render")
RAW_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("catalog key", re.compile(r"\b(?:" + "|".join(_CATALOG_PREFIXES) + r")\.[a-z_]+(?:\.[a-z0-9_]+)+\b")),
    ("key=value", re.compile(r"(?<![\w/])[a-z_]+=[\w\-\[\],\"']+")),
    ("snake_case", re.compile(r"(?<![\w/.\-])[a-z]+(?:_[a-z0-9]+)+\b")),
    # card and ally ids (s035, a0); dice as players write them (d6, d12) are words of the games
    ("id", re.compile(r"(?<![\w/.\-#@])(?!d(?:4|6|8|10|12|20)\b)(?:[a-z]\d{1,3}|[a-z]{1,2}\d{3})(?![\w/.\-])")),
    ("None", re.compile(r"\bNone\b")),
    ("lone -", re.compile(r"(?:^|[:=(]\s*)-\s*$|^\s*-\s*$|\(\s*-\s*\)")),
    ("{placeholder}", re.compile(r"\{[A-Za-z_][\w ,#=]*\}")),
    ("lone …", re.compile(r"^\s*…\s*$")),
)


def raw_tokens(text: str) -> list[tuple[str, str]]:
    """(kind, token) of every internal word in a text a player reads (code spans, mentions, links excepted)."""
    cleaned = re.sub(r"`[^`]*`|<[@#]!?&?\d+>|<t:\d+(?::\w)?>|https?://\S+", " ", text)
    found = []
    for line in cleaned.splitlines():
        for kind, pattern in RAW_PATTERNS:
            for m in pattern.finditer(line):
                found.append((kind, m.group(0).strip()))
    return found


# ---------------------------------------------------------------- cut messages

@cache
def _catalog_ellipses() -> frozenset[str]:
    """Words the catalogs themselves end with "…" ("choose…"), which are whole, not cut."""
    out: set[str] = set()
    for lang in ("es", "en"):
        for value in i18n.catalog(lang).values():
            out.update(m.lower() for m in re.findall(r"([^\W\d_]+)…", value))
    return frozenset(out)


def truncated(text: str, *, limit: int = 2000) -> str | None:
    """Why a text looks cut: exactly Discord's limit long, or a word cut short by "…" with nothing saying
    that more follows (the catalogs' own "… 3 earlier lines" says so); None when whole."""
    if len(text) >= limit:
        return f"{len(text)} characters (the limit)"
    for m in re.finditer(r"([^\W\d_]+)…", text):
        if m.group(1).lower() in _catalog_ellipses():
            continue
        rest = text[m.end():m.end() + 40]
        if re.match(r"\s*(?:\(|and |y |\d)", rest):
            continue
        start = max(0, m.start() - 40)
        return f"cut mid-word: …{text[start:m.end()]}"
    return None
