"""What people type for HeroQuest figures and things ("Goblin 2", "gob", "orco 1", "H11") -> ids in a view."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from rules import coords
from rules.heroquest import board

_NUMBERED = re.compile(r"^(.*?)[\s#_-]*(\d+)$")


def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive form for matching what people type."""
    text = unicodedata.normalize("NFKD", str(text).casefold().strip())
    return "".join(ch for ch in text if not unicodedata.combining(ch) and ch not in "'’`\"").strip()


def square_text(sq: Any) -> str:
    """A square as the board's edges print it: "H11" (`rules.coords`, from the view's 0-based [row, col])."""
    return coords.name(int(sq[0]), int(sq[1]))


def parse_square(text: str) -> str | None:
    """"H11", "h11", "H-11", "(H 11)" (`rules.coords.parse`) -> the square's label "H11", or None."""
    sq = coords.parse(text.strip().strip("()"), board.COLS, board.ROWS)
    return None if sq is None else coords.name(*sq)


def _lit(value: Any, lang: str) -> str:
    if isinstance(value, Mapping):
        return str(value.get(lang) or value.get("en") or "")
    return "" if value is None else str(value)


def figure_label(fig: Mapping[str, Any], lang: str) -> str:
    """How a figure is offered in menus: "Goblin 2 (H11)"."""
    where = f" ({square_text(fig['square'])})" if fig.get("square") else ""
    return f"{_lit(fig.get('name'), lang)}{where}"


def figures(view: Mapping[str, Any], monsters: bool = True, heroes: bool = False) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    if heroes:
        out += [h for h in view.get("heroes", []) if not h.get("dead")]
    if monsters:
        out += list(view.get("monsters", []))
    return out


def _names(fig: Mapping[str, Any]) -> list[str]:
    names = [fold(_lit(fig.get("name"), lang)) for lang in ("es", "en")]
    return [n for n in names if n]


def _base(name: str) -> tuple[str, str | None]:
    """"goblin 2" -> ("goblin", "2"); "goblin" -> ("goblin", None)."""
    found = _NUMBERED.match(name)
    return (found.group(1).strip(), found.group(2)) if found and found.group(1).strip() else (name, None)


def match_figures(pool: Iterable[Mapping[str, Any]], text: str) -> list[str]:
    """The uids `text` may mean, best first: an id, a square, a full display name ("Goblin 2", in either
    language), a name without its number or a unique beginning of one ("gob", "gob 2")."""
    pool = list(pool)
    raw = text.strip()
    if not raw:
        return []
    exact = [f["uid"] for f in pool if f["uid"] == raw]
    if exact:
        return exact
    inner = raw.rpartition("(")[2].rstrip(")") if "(" in raw else raw
    square = parse_square(inner)
    if square is not None:
        hits = [f["uid"] for f in pool if f.get("square") and square_text(f["square"]) == square]
        named = fold(raw.partition("(")[0])
        if named:
            hits = [u for u in hits if any(n.startswith(named) or named.startswith(n)
                                           for f in pool if f["uid"] == u for n in _names(f))] or hits
        if hits:
            return hits
    needle = fold(raw.partition("(")[0])
    full = [f["uid"] for f in pool if needle in _names(f)]
    if full:
        return full
    stem, number = _base(needle)
    out = []
    for f in pool:
        for name in _names(f):
            base, n = _base(name)
            if base.startswith(stem) and (number is None or n == number):
                out.append(f["uid"])
                break
    return out
