"""The shipped card data: schema, the 80-card market, and agreement with the publisher's card list."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from rules.hero_realms.cards import DATA_PATH, CardDataError, cards, load_cards, market_keys, parse_cards
from tests.reference import HR_CARDS_CSV, HR_RULEBOOK_CARD_LIST

CSV = HR_CARDS_CSV
RULEBOOK = HR_RULEBOOK_CARD_LIST  # the rulebook's card list (its last page), vendored
FACTIONS = {"Imperial": "imperial", "Guild": "guild", "Necros": "necros", "Wild": "wild", "": None}


def _csv_rows() -> list[dict[str, str]]:
    with CSV.open(encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["Role"] != "Scorecard"]


def test_the_data_file_loads_and_validates() -> None:
    loaded = load_cards()
    assert len(loaded) == 59
    assert len(market_keys()) == 80


def test_every_card_matches_the_publisher_list() -> None:
    by_en = {c.name_en: c for c in cards().values()}
    rows = _csv_rows()
    assert len(rows) == len(by_en)
    for row in rows:
        card = by_en[row["Name"]]
        typ = row["Type"].split("◆")[0].strip().lower()
        assert card.type == typ, row["Name"]
        assert card.faction == FACTIONS[row["Faction / Color"]], row["Name"]
        assert card.cost == int(row["Cost"] or 0), row["Name"]
        if row["Role"] == "Personal Deck":
            assert card.deck == "starting" and card.quantity * 4 == int(row["Qty"]), row["Name"]
        else:
            assert card.quantity == int(row["Qty"]), row["Name"]
        if card.champion:
            defense = row["Defense"]
            assert card.defense == int(defense.split()[0]), row["Name"]
            assert card.guard == ("Guard" in defense), row["Name"]
        text = row["Text"]
        assert ("{Expend}" in text) == ("expend" in card.abilities), row["Name"]
        assert ("Ally}" in text) == ("ally" in card.abilities), row["Name"]
        assert ("{Sacrifice}" in text) == ("sacrifice" in card.abilities), row["Name"]


def test_spanish_names_follow_the_rulebook_list() -> None:
    text = RULEBOOK.read_text(encoding="utf-8").lower()
    provisional = {"lys", "tyrannor"}  # spelling corrected, see data/hero_realms/NOTES.md
    for card in cards().values():
        if card.key in provisional:
            continue
        assert card.name_es.lower() in text, card.name_es


def test_market_has_twenty_cards_per_faction() -> None:
    counts: dict[str | None, int] = {}
    for key in market_keys():
        faction = cards()[key].faction
        counts[faction] = counts.get(faction, 0) + 1
    assert counts == {"imperial": 20, "guild": 20, "necros": 20, "wild": 20}


def _doc() -> dict[str, Any]:
    return json.loads(DATA_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"][0]["abilities"]["expend"].append({"teleport": 1}), "unknown effect"),
        (lambda d: d["cards"][0]["abilities"]["expend"].append({"combat": -1}), "integer"),
        (lambda d: d["cards"][0].pop("cost"), "missing"),
        (lambda d: d["cards"][0].update(faction="pirates"), "faction"),
        (lambda d: d["cards"][1].update(quantity=2), "81 cards"),
        (lambda d: d["cards"][0]["abilities"].update(primary=[{"gold": 1}]), "primary"),
        (lambda d: d["cards"][0]["abilities"]["expend"].append({"choose": [[{"gold": 1}]]}), "choose"),
        (lambda d: d["cards"].append(dict(d["cards"][0])), "duplicate"),
    ],
)
def test_the_loader_rejects_broken_data(mutate: Callable[[dict[str, Any]], object], message: str) -> None:
    doc = _doc()
    mutate(doc)
    with pytest.raises(CardDataError, match=re.escape(message)):
        parse_cards(doc)
