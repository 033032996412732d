"""Loads and checks The King's Armory data files (heroes, champions, monsters, bosses, Wave Card, maps)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.readonly import loader

DATA = Path(__file__).resolve().parents[2] / "data" / "kings_armory"
TYPES = ("M", "R", "SN")


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    if not data.get("provisional"):
        raise ValueError(f"{name}.json must say which of its values are provisional")
    return data


def _check_option(owner: str, opt: dict[str, Any]) -> None:
    if opt["kind"] == "attack":
        if opt["type"] not in TYPES or opt["ac"] < 1 or opt["range"] < 1:
            raise ValueError(f"{owner}: bad attack option {opt['id']}")
    elif opt["kind"] != "special":
        raise ValueError(f"{owner}: option {opt['id']} is neither attack nor special")


@loader()
def heroes() -> Mapping[str, dict[str, Any]]:
    out = {}
    for hero in _load("heroes")["heroes"]:
        if len(hero["options"]) != 4:
            raise ValueError(f"{hero['id']}: every hero has exactly 4 options [R]")
        for opt in hero["options"]:
            _check_option(hero["id"], opt)
        out[hero["id"]] = hero
    return out


@loader()
def champions() -> Mapping[str, dict[str, Any]]:
    out = {}
    for champ in _load("champions")["champions"]:
        for key in ("cost", "hp", "dodge", "res", "tank", "heal"):
            if len(champ[key]) != 3:
                raise ValueError(f"{champ['id']}: {key} needs three levels")
        if len(champ["names"]) != champ["limit"]:
            raise ValueError(f"{champ['id']}: one name per token set")
        for opt in champ["options"]:
            _check_option(champ["id"], opt)
        out[champ["id"]] = champ
    return out


@loader()
def monsters() -> Mapping[str, dict[str, Any]]:
    data = _load("monsters")["monsters"]
    for level in range(1, 6):
        if sum(m["count"] for m in data if m["level"] == level) != 17:
            raise ValueError(f"level {level} must have 17 monster tokens (P-13)")
    return {m["id"]: m for m in data}


@loader()
def summons() -> Mapping[str, dict[str, Any]]:
    """Figures that join the allies during play: Felicity's Guardian, the Armory card's Sword Golem (P-12)."""
    out = {}
    for summon in _load("summons")["summons"]:
        for opt in summon["options"]:
            _check_option(summon["id"], opt)
        out[summon["id"]] = summon
    return out


@loader()
def equipment() -> Mapping[str, dict[str, Any]]:
    out = {}
    for card in _load("equipment")["cards"]:
        if "option" in card:
            _check_option(card["id"], card["option"])
        out[card["id"]] = card
    return out


@loader()
def cards() -> Mapping[str, dict[str, Any]]:
    """Reinforcement and Armory cards by id, each marked with its deck."""
    raw = _load("cards")
    out = {}
    for deck in ("reinforcements", "armory"):
        for card in raw[deck]:
            if card["id"] in out:
                raise ValueError(f"card id {card['id']} is used twice")
            out[card["id"]] = {**card, "deck": deck}
    if sum(c["copies"] for c in raw["reinforcements"]) != 16 or len(raw["armory"]) != 7:
        raise ValueError("the box has 16 reinforcement cards and 7 Armory cards [R]")
    return out


@loader()
def variants() -> Mapping[str, dict[str, Any]]:
    """The §7 variants and scenarios the digest makes playable, with their provisional numbers (P-28)."""
    return dict(_load("variants")["variants"])


@loader()
def bosses() -> Mapping[str, dict[str, Any]]:
    return {b["id"]: b for b in _load("bosses")["bosses"]}


@loader()
def boss_hp_step() -> int:
    return int(_load("bosses")["hp_per_extra_player"])


@loader()
def wave_card() -> Mapping[str, Any]:
    return _load("wave_card")


@loader()
def economy() -> Mapping[str, Any]:
    return _load("economy")


@loader()
def maps_file() -> Mapping[str, Any]:
    return _load("maps")


def maps() -> dict[str, dict[str, Any]]:
    """The preset maps, unchecked (rules.kings_armory.maps checks them on use)."""
    return {m["id"]: m for m in maps_file()["maps"]}


def level_for_roll(wave: int, roll: int) -> int:
    """The monster level the Wave Card gives for a d12 roll in this wave; past its last row (Endurance), that
    row again."""
    rows = wave_card()["levels"]
    for level, top in enumerate(rows[str(min(wave, len(rows)))], start=1):
        if roll <= top:
            return level
    raise ValueError(f"wave {wave}: roll {roll} has no level")
