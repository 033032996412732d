"""Loads and checks The King's Armory data files (heroes, champions, monsters, bosses, Wave Card, maps)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict, TypeVar, cast

from rules.kings_armory.shapes import (
    Card,
    ChampionData,
    Economy,
    EquipmentCard,
    FigureCard,
    LevelledOption,
    MapFile,
    MapsFile,
    MonsterCard,
    Option,
    Variant,
    WaveCard,
)
from rules.readonly import loader

DATA = Path(__file__).resolve().parents[2] / "data" / "kings_armory"
TYPES = ("M", "R", "SN")
File = TypeVar("File")


class _Heroes(TypedDict):
    heroes: Sequence[FigureCard]


class _Champions(TypedDict):
    champions: Sequence[ChampionData]


class _Monsters(TypedDict):
    monsters: Sequence[MonsterCard]


class _Summons(TypedDict):
    summons: Sequence[FigureCard]


class _Equipment(TypedDict):
    cards: Sequence[EquipmentCard]


class _Cards(TypedDict):
    reinforcements: Sequence[Card]
    armory: Sequence[Card]


class _Variants(TypedDict):
    variants: Mapping[str, Variant]


class _Bosses(TypedDict):
    hp_per_extra_player: int
    bosses: Sequence[MonsterCard]


def _load(name: str, shape: type[File]) -> File:
    """A data file read as `shape`: the one place its JSON gets a type (the loaders below check what they use)."""
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    if not data.get("provisional"):
        raise ValueError(f"{name}.json must say which of its values are provisional")
    return cast(File, data)


def _check_option(owner: str, opt: Option | LevelledOption) -> None:
    if opt["kind"] == "attack":
        if opt["type"] not in TYPES or opt["ac"] < 1 or opt["range"] < 1:
            raise ValueError(f"{owner}: bad attack option {opt['id']}")
    elif opt["kind"] != "special":
        raise ValueError(f"{owner}: option {opt['id']} is neither attack nor special")


@loader()
def heroes() -> Mapping[str, FigureCard]:
    out = {}
    for hero in _load("heroes", _Heroes)["heroes"]:
        if len(hero["options"]) != 4:
            raise ValueError(f"{hero['id']}: every hero has exactly 4 options [R]")
        for opt in hero["options"]:
            _check_option(hero["id"], opt)
        out[hero["id"]] = hero
    return out


@loader()
def champions() -> Mapping[str, ChampionData]:
    out = {}
    for champ in _load("champions", _Champions)["champions"]:
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
def monsters() -> Mapping[str, MonsterCard]:
    data = _load("monsters", _Monsters)["monsters"]
    for level in range(1, 6):
        if sum(m["count"] for m in data if m["level"] == level) != 17:
            raise ValueError(f"level {level} must have 17 monster tokens (P-13)")
    return {m["id"]: m for m in data}


@loader()
def summons() -> Mapping[str, FigureCard]:
    """Figures that join the allies during play: Felicity's Guardian, the Armory card's Sword Golem (P-12)."""
    out = {}
    for summon in _load("summons", _Summons)["summons"]:
        for opt in summon["options"]:
            _check_option(summon["id"], opt)
        out[summon["id"]] = summon
    return out


@loader()
def equipment() -> Mapping[str, EquipmentCard]:
    out = {}
    for card in _load("equipment", _Equipment)["cards"]:
        if "option" in card:
            _check_option(card["id"], card["option"])
        out[card["id"]] = card
    return out


@loader()
def cards() -> Mapping[str, Card]:
    """Reinforcement and Armory cards by id, each marked with its deck."""
    raw = _load("cards", _Cards)
    out: dict[str, Card] = {}
    for deck in ("reinforcements", "armory"):
        for card in raw[deck]:
            if card["id"] in out:
                raise ValueError(f"card id {card['id']} is used twice")
            out[card["id"]] = {**card, "deck": deck}
    if sum(c["copies"] for c in raw["reinforcements"]) != 16 or len(raw["armory"]) != 7:
        raise ValueError("the box has 16 reinforcement cards and 7 Armory cards [R]")
    return out


@loader()
def variants() -> Mapping[str, Variant]:
    """The §7 variants and scenarios the digest makes playable, with their provisional numbers (P-28)."""
    return dict(_load("variants", _Variants)["variants"])


@loader()
def bosses() -> Mapping[str, MonsterCard]:
    return {b["id"]: b for b in _load("bosses", _Bosses)["bosses"]}


@loader()
def boss_hp_step() -> int:
    return int(_load("bosses", _Bosses)["hp_per_extra_player"])


@loader()
def wave_card() -> WaveCard:
    return _load("wave_card", WaveCard)


@loader()
def economy() -> Economy:
    return _load("economy", Economy)


@loader()
def maps_file() -> MapsFile:
    return _load("maps", MapsFile)


def maps() -> dict[str, MapFile]:
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
