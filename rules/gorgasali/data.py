"""Gorgasali's data files (map, characters, weapons, support cards, rule numbers), loaded and validated once."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict, TypeVar, cast

from rules.coords import parse
from rules.gorgasali.state import MapData
from rules.readonly import freeze

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "gorgasali"
TERRAINS = frozenset(".CFMWHTS")
SLOTS = ("weapon", "helmet", "body", "defensive", "consumable", "throwable")
RARITIES = ("common", "rare", "epic", "legendary")
GROUPS = ("six", "striker", "massive", "scout")


class DataError(ValueError):
    """A data file of the game is malformed."""


# ---------------------------------------------------------------- the files' shapes, as written in data/gorgasali


class RuleNumbers(TypedDict):
    """rules.json: the numbers of the rules that are not on a card (read-only once loaded)."""

    hp: int
    slots: Mapping[str, Sequence[int]]  # per mat category: [active slots, backpack slots]
    chest: Mapping[str, int]  # cards in a chest: "support", "weapon"
    extra_chests: int
    healing_point: int
    terrain_cost: Mapping[str, int]
    zone_closes_after: Sequence[int]
    zone_penalty: Sequence[int]
    banner_rounds: int
    scout_min: Sequence[int]
    eagle_eye: int
    seven_as: int
    seven_as_three_dice: int
    ibex_diagonal_unit: int
    kbraus_bonus: int
    kbraus_face: int
    tochinator_keep: int
    jalugar_heal: int
    kondor_bonus: int
    kondor_sum: int
    dober_min: int
    dober_steps: int
    max_rounds: int


class _CharacterEntry(TypedDict):
    id: str
    ability: str
    kind: str
    range: NotRequired[list[int] | None]
    cooldown: NotRequired[int | None]
    values: NotRequired[dict[str, int]]


class _CharactersFile(TypedDict):
    characters: list[_CharacterEntry]


class _WeaponGroup(TypedDict):
    range: int


class _WeaponEntry(TypedDict):
    id: str
    group: str
    rarity: str
    dice: int
    unit: NotRequired[int]
    fixed: NotRequired[int]
    min: NotRequired[int]
    count: int
    special: NotRequired[str | None]


class _WeaponsFile(TypedDict):
    groups: dict[str, _WeaponGroup]
    weapons: list[_WeaponEntry]


class SupportValues(TypedDict, total=False):
    """A support card's own numbers (each card has the few its use needs)."""

    reach: int
    damage: int
    min: int
    absorb: int
    heal: int
    terrain: str  # a terrain letter that costs 1 this turn
    group: str  # the weapon group an extension fits


class _SupportEntry(SupportValues):
    id: str
    slot: str
    use: str
    rarity: str
    count: int


class _SupportFile(TypedDict):
    support: list[_SupportEntry]


class MapSector(TypedDict):
    """A starting sector in map.json: its number, its square and the duo teammate's square."""

    n: int
    at: str
    duo: str


class MapFile(TypedDict):
    """A map as written in map.json (or built by a test): size, terrain rows, zone rows, starting sectors."""

    width: int
    height: int
    rows: list[str]
    zones: list[str]
    sectors: NotRequired[list[MapSector]]


FileShape = TypeVar("FileShape")


@dataclass(frozen=True)
class Character:
    id: str
    ability: str
    active: bool
    range: tuple[int, int] | None
    cooldown: int | None
    values: Mapping[str, int]


@dataclass(frozen=True)
class Weapon:
    id: str
    group: str
    rarity: str
    dice: int
    unit: int  # bullet weapons: damage per point of the dice; 0 for fixed-damage weapons
    fixed: int  # fixed-damage weapons: damage on a hit; 0 for bullet weapons
    min: int  # massive weapons: the lowest die that hits; 0 otherwise
    count: int
    special: str | None
    range: int


@dataclass(frozen=True)
class Support:
    id: str
    slot: str
    use: str
    rarity: str
    count: int
    values: SupportValues


def _load(name: str, shape: type[FileShape]) -> FileShape:
    try:
        data = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{name}: {exc}") from exc
    if not isinstance(data, dict):
        raise DataError(f"{name}: not an object")
    return cast(FileShape, data)  # JSON read from a file: its loader checks what it relies on


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise DataError(what)


def load_rules() -> RuleNumbers:
    rules = _load("rules.json", RuleNumbers)
    for key in ("hp", "slots", "chest", "terrain_cost", "zone_closes_after", "zone_penalty", "scout_min"):
        _need(key in rules, f"rules.json: missing {key}")
    _need(set(rules["slots"]) == set(SLOTS), "rules.json: slots must name every mat category")
    _need(len(rules["zone_closes_after"]) == 4 == len(rules["zone_penalty"]), "rules.json: four zones")
    _need(len(rules["scout_min"]) == 4, "rules.json: scout_min has one value per range 1-4")
    return rules


def load_characters() -> dict[str, Character]:
    out: dict[str, Character] = {}
    for c in _load("characters.json", _CharactersFile)["characters"]:
        rng = c.get("range")
        _need(c["id"] not in out, f"characters.json: {c['id']} twice")
        _need(c["kind"] in ("active", "passive"), f"characters.json: {c['id']} kind")
        out[c["id"]] = Character(c["id"], c["ability"], c["kind"] == "active",
                                 (int(rng[0]), int(rng[1])) if rng else None, c.get("cooldown"),
                                 freeze(dict(c.get("values", {}))))
    _need(len(out) == 10, "characters.json: ten characters")
    return out


def load_weapons() -> dict[str, Weapon]:
    data = _load("weapons.json", _WeaponsFile)
    groups = data["groups"]
    _need(set(groups) == set(GROUPS), "weapons.json: the four groups")
    out: dict[str, Weapon] = {}
    for w in data["weapons"]:
        _need(w["group"] in GROUPS and w["rarity"] in RARITIES, f"weapons.json: {w['id']} group/rarity")
        _need(("unit" in w) != ("fixed" in w), f"weapons.json: {w['id']} has unit or fixed damage")
        _need(w["group"] != "massive" or "min" in w, f"weapons.json: {w['id']} needs min")
        out[w["id"]] = Weapon(w["id"], w["group"], w["rarity"], int(w["dice"]), int(w.get("unit", 0)),
                              int(w.get("fixed", 0)), int(w.get("min", 0)), int(w["count"]), w.get("special"),
                              int(groups[w["group"]]["range"]))
    _need(sum(w.count for w in out.values()) == 101, "weapons.json: 101 weapon cards")
    return out


def load_support() -> dict[str, Support]:
    out: dict[str, Support] = {}
    for s in _load("support.json", _SupportFile)["support"]:
        _need(s["slot"] in SLOTS and s["slot"] != "weapon", f"support.json: {s['id']} slot")
        values = {k: v for k, v in s.items() if k not in ("id", "slot", "use", "rarity", "count", "provisional")}
        out[s["id"]] = Support(s["id"], s["slot"], s["use"], s["rarity"], int(s["count"]), freeze(values))
    _need(sum(s.count for s in out.values()) == 214, "support.json: 214 support cards")
    return out


def load_map() -> MapData:
    """The standard island as the state keeps it: terrain rows, zone rows and sectors as square indexes."""
    data = _load("map.json", MapFile)
    return check_map(data)


def check_map(data: MapFile) -> MapData:
    """Validate a map (the standard one or a test board) and return it in the state's form."""
    w, h = int(data["width"]), int(data["height"])
    rows, zones = list(data["rows"]), list(data["zones"])
    _need(len(rows) == h and all(len(r) == w for r in rows), "map: rows do not match the size")
    _need(len(zones) == h and all(len(r) == w for r in zones), "map: zones do not match the size")
    _need(all(ch in TERRAINS for r in rows for ch in r), "map: unknown terrain letter")
    _need(all(ch in "1234" for r in zones for ch in r), "map: zones are 1-4")
    sectors = []
    for s in data.get("sectors", []):
        at, duo = parse(s["at"], w, h), parse(s["duo"], w, h)
        _need(at is not None and duo is not None, f"map: sector {s} off the board")
        assert at is not None and duo is not None
        sectors.append([at[0] * w + at[1], duo[0] * w + duo[1]])
    return {"w": w, "h": h, "rows": rows, "zones": zones, "sectors": sectors}


# Read-only tables shared by every game in the process (see rules/readonly.py)
RULES: RuleNumbers = freeze(load_rules())
CHARACTERS: Mapping[str, Character] = freeze(load_characters())
WEAPONS: Mapping[str, Weapon] = freeze(load_weapons())
SUPPORT: Mapping[str, Support] = freeze(load_support())
MAP: MapData = freeze(load_map())
