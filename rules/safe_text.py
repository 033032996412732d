"""Text that comes from outside (names in uploaded files, typed options) made safe to show in Discord.

Removed: control characters, bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) and
every other invisible format character (zero-width space, joiners, BOM, soft hyphen...), line and paragraph
separators, private-use and surrogate code points. Whitespace runs become one space. An "@" becomes the
full-width "＠", so `<@1234>`, `@everyone` or `@here` in a name reads as written but can never be a mention,
whatever the message's allowed mentions say. A name made only of removed characters comes out empty: callers
refuse it with a localized message.
"""

from __future__ import annotations

import re
import unicodedata

#: Unicode categories never shown: controls, format characters (bidi controls, zero-width), line and paragraph
#: separators, private use and lone surrogates.
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})
#: The bidirectional controls, named for the record (all are category Cf or Cc, so already dropped).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: Zero-width characters that are not format characters (so not dropped by category alone).
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u115f\u1160\u3164\uffa0")
#: A character that makes a Discord mention; its full-width twin never does.
MENTION_SIGN, SAFE_SIGN = "@", "\uff20"
_SPACES = re.compile(r"\s+")


def dropped(ch: str) -> bool:
    """Whether `ch` is invisible or a control and never reaches a player."""
    return ch in ZERO_WIDTH or ch in BIDI_CONTROLS or unicodedata.category(ch) in DROPPED_CATEGORIES


def clean_name(text: str, limit: int) -> str:
    """`text` as a one-line name: no controls or invisible characters, single spaces, no mention sign, at most
    `limit` characters (cut at a character, trailing space removed). Empty when nothing visible is left."""
    kept = "".join(" " if ch in "\t\n\r\x0b\x0c" else ch for ch in text if ch in "\t\n\r\x0b\x0c" or not dropped(ch))
    kept = _SPACES.sub(" ", kept).strip().replace(MENTION_SIGN, SAFE_SIGN)
    return kept[:limit].rstrip()


def clean_text(text: str, limit: int) -> str:
    """`text` as a multi-line passage (a quest's parchment text, a note): like `clean_name`, but line breaks stay
    (at most two in a row) and spaces and tabs inside a line are kept as they are."""
    lines = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        kept = "".join(ch for ch in line if ch == "\t" or not dropped(ch))  # tabs stay: they may mark a note's key
        lines.append(kept.rstrip().replace(MENTION_SIGN, SAFE_SIGN))
    joined = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return joined[:limit].rstrip()


def only_invisible(text: str) -> bool:
    """Something was written, but nothing of it can be seen (only controls, bidi or zero-width characters)."""
    return any(dropped(ch) for ch in text) and not clean_name(text, len(text) + 1)
