"""What people type for HeroQuest figures and things ("Goblin 2", "gob", "orco 1", "5,10") -> ids in a view."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

_NUMBERED = re.compile(r"^(.*?)[\s#_-]*(\d+)$")


def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive form for matching what people type."""
    text = unicodedata.normalize("NFKD", str(text).casefold().strip())
    return "".join(ch for ch in text if not unicodedata.combining(ch) and ch not in "'’`\"").strip()


def square_text(sq: Any) -> str:
    """A square as people read it (1-based "row,col", like the action labels)."""
    return f"{int(sq[0]) + 1},{int(sq[1]) + 1}"


def parse_square(text: str) -> str | None:
    """"15,4", "15 4", "(15,4)" or "15-4" (1-based, as labels show) -> the engine's "14-3"."""
    raw = text.strip().strip("()")
    for sep in (",", " ", "-", ";", "/"):
        if sep in raw:
            a, _, b = raw.partition(sep)
            a, b = a.strip(), b.strip()
            if a.isdigit() and b.isdigit() and int(a) >= 1 and int(b) >= 1:
                return f"{int(a) - 1}-{int(b) - 1}"
            return None
    return None


def _lit(value: Any, lang: str) -> str:
    if isinstance(value, Mapping):
        return str(value.get(lang) or value.get("en") or "")
    return "" if value is None else str(value)


def figure_label(fig: Mapping[str, Any], lang: str) -> str:
    """How a figure is offered in menus: "Goblin 2 (5,10)", a hidden one "Goblin (5,10) · hidden" style."""
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
        hits = [f["uid"] for f in pool if f.get("square") and f"{f['square'][0]}-{f['square'][1]}" == square]
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
