"""Quest Treasures (Tesoros de Reto): the named items quests hide, which heroes keep between quests."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

from rules.heroquest.shapes import LitJson
from rules.readonly import loader
from rules.text import Lit

DATA_FILE = Path(__file__).resolve().parents[2] / "data" / "heroquest" / "quest_treasures.json"
#: A treasure the game master names freely (not in the table) is kept as typed, up to this many characters.
MAX_NAME = 40
_PRINTABLE = re.compile(r"^[^\x00-\x1f\x7f]+$")


class TreasureEntry(TypedDict):
    name: LitJson
    #: Other names a note or the game master may use for it.
    also: NotRequired[Sequence[str]]


@loader()
def table() -> Mapping[str, TreasureEntry]:
    data: dict[str, TreasureEntry] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    data.pop("provisional", None)
    for tid, entry in data.items():
        name = entry.get("name")
        if not (isinstance(name, dict) and all(isinstance(name.get(k), str) and name[k] for k in ("es", "en"))):
            raise ValueError(f"data/heroquest/quest_treasures.json:{tid}: name {{es,en}}")
        if not all(isinstance(a, str) for a in entry.get("also", [])):
            raise ValueError(f"data/heroquest/quest_treasures.json:{tid}: also is a list of strings")
    return data


def fold(text: str) -> str:
    """Lower case without accents or apostrophes, for matching names in notes and in what people type."""
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in text if not unicodedata.combining(ch) and ch not in "'’`").strip()


def name(tid: str) -> Lit:
    """The treasure's name in both languages; a freely named one is shown as the game master typed it."""
    entry = table().get(tid)
    return Lit(entry["name"]["es"], entry["name"]["en"]) if entry else Lit(tid, tid)


def resolve(text: str) -> str | None:
    """The table id `text` names (id, Spanish or English name), else the text itself when it is a usable
    free name, else None."""
    raw = text.strip()
    if raw in table():
        return raw
    needle = fold(raw)
    for tid, entry in table().items():
        if needle in (fold(entry["name"]["es"]), fold(entry["name"]["en"]), *(fold(a) for a in entry.get("also", []))):
            return tid
    return raw if 0 < len(raw) <= MAX_NAME and _PRINTABLE.match(raw) else None


def named_in(*texts: str) -> str | None:
    """The first table treasure a quest note names (in English or Spanish), if any."""
    folded = [fold(t) for t in texts]
    for tid, entry in table().items():
        names = (entry["name"]["es"], entry["name"]["en"], *entry.get("also", []))
        if any(fold(n) in t for n in names for t in folded):
            return tid
    return None
