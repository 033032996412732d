"""Spanish and English message catalogs (data/i18n/<lang>/*.json) and the resolver for `Msg` values."""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

import plurals
from rules import coords
from rules.text import Lit, Msg, Param, SeatRef

LANGS = ("es", "en")
DEFAULT = "en"
CATALOG_DIR = Path(__file__).resolve().parent / "data" / "i18n"

#: A seat's display name, or None when it has none (then the seat's number is shown; `names.get` fits).
SeatNamer = Callable[[int], str | None]


def lang_of(*locales: str | None) -> str:
    """The first supported language among Discord locales such as "es-ES", "es-419" or "en-US"."""
    for loc in locales:
        if not loc:
            continue
        base = str(loc).split("-")[0].split("_")[0].lower()
        if base in LANGS:
            return base
    return DEFAULT


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """Every key of one language, merged from all files in its folder (one file per game or area)."""
    merged: dict[str, str] = {}
    folder = CATALOG_DIR / lang
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"{path}: key {key!r} defined twice")
            if not isinstance(value, str):
                raise ValueError(f"{path}: key {key!r} is not a string")
            merged[key] = value
    return merged


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalog(lang)


def t(message: Msg | Lit | SeatRef | str | int, lang: str, seat_name: SeatNamer | None = None) -> str:
    """Resolve a message in `lang`; unknown keys show the key itself rather than crashing."""
    if isinstance(message, Msg):
        template = catalog(lang).get(message.key)
        if template is None:
            template = catalog(DEFAULT).get(message.key, message.key)
        params = {k: _param(v, lang, seat_name) for k, v in message.params.items()}
        row, col = message.params.get("row"), message.params.get("col")
        if "sq" not in params and isinstance(row, int) and isinstance(col, int) and row > 0 and col > 0:
            params["sq"] = coords.name(row - 1, col - 1)  # lines stored when squares were written "row,col"
        try:
            template = plurals.expand(template, lang, message.params)
            return template.format_map(_Defaulting(params))
        except (ValueError, IndexError):
            return template
    return _param(message, lang, seat_name)


def tk(key: str, lang: str, **params: Param) -> str:
    """Shorthand for `t(Msg(key, params), lang)`."""
    return t(Msg(key, params), lang)


def _param(value: Param, lang: str, seat_name: SeatNamer | None) -> str:
    if isinstance(value, Msg):
        return t(value, lang, seat_name)
    if isinstance(value, Lit):
        return value.es if lang == "es" else value.en
    if isinstance(value, SeatRef):
        name = seat_name(value.seat) if seat_name else None
        return name if name is not None else f"#{value.seat + 1}"
    return str(value)


class _Defaulting(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(template: str) -> set[str]:
    """Names used as `{name}` in a template, plural selectors and their branches included (for the catalog
    consistency test)."""
    found = plurals.names(template)
    for _, _, _, branches in plurals.blocks(template) if found else ():
        for branch in branches.values():
            found |= placeholders(branch)
    flat = template
    for start, end, _, _ in reversed(plurals.blocks(template)) if found else ():
        flat = flat[:start] + flat[end + 1:]
    return found | {name for _, name, _, _ in string.Formatter().parse(flat) if name}
