"""Every message key the engine writes exists in both catalogs; every provisional value is listed in NOTES.md."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import i18n
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.data import DATA, abilities, cards, factions, layouts, monsters, numbers, strategy, tiles

ROOT = Path(__file__).resolve().parents[2]
KEY_RE = re.compile(r"""["'](gi\.[a-z0-9_.]+[a-z0-9_])["']""")


def test_every_key_in_the_engine_exists_in_both_languages() -> None:
    keys = {key for path in (ROOT / "rules" / "guerra_de_indagar").glob("*.py")
            for key in KEY_RE.findall(path.read_text(encoding="utf-8"))}
    assert len(keys) > 50
    for lang in ("es", "en"):
        assert sorted(k for k in keys if not i18n.has(k, lang)) == []
    assert i18n.has(GAME.name_key, "es")


def test_catalogs_hold_only_keys_the_engine_uses() -> None:
    keys = {key for path in (ROOT / "rules" / "guerra_de_indagar").glob("*.py")
            for key in KEY_RE.findall(path.read_text(encoding="utf-8"))}
    catalog = json.loads((ROOT / "data" / "i18n" / "en" / "guerra_de_indagar.json").read_text(encoding="utf-8"))
    assert sorted(set(catalog) - keys) == []


def test_the_data_files_load_and_every_provisional_tag_is_in_the_notes() -> None:
    layouts(), tiles(), numbers(), factions(), monsters(), abilities()
    notes = (DATA / "NOTES.md").read_text(encoding="utf-8")
    text = "".join((DATA / name).read_text(encoding="utf-8") for name in sorted(p.name for p in DATA.glob("*.json")))
    tags = set(re.findall(r"PROV-\d\d", text)) | set(re.findall(r"RULING-\d\d", text))
    assert tags and sorted(t for t in tags if t not in notes) == []
    # Every card records that its numbers are provisional; the engine never reads the flag, so its types omit it.
    provisional: list[Mapping[str, object]] = [
        *factions()["heroes"].values(), *monsters()["primary"].values(), *abilities().values(),
        *strategy()["abilities"].values(), *strategy()["trees"].values(), strategy()["tokens"]]
    for card in provisional:
        assert card["provisional"] is True
    assert len(abilities()) == 60 and len(strategy()["abilities"]) == 36 and len(cards()) == 96
