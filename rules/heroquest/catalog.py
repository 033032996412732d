"""HeroQuest data tables (heroes, monsters, equipment, spells, treasure, skills, runes), validated on load."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from rules.heroquest.shapes import LitJson
from rules.readonly import loader
from rules.text import Lit

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "heroquest"
HERO_IDS = ("barbarian", "dwarf", "elf", "wizard")
SLOTS = ("weapon", "shield", "helmet", "armour", "item", "potion")

# The tables' entries as the data files hold them (read-only: the loaders freeze them). Each loader checks
# the keys its rules rely on; the optional keys are the flags only some entries carry.


class HeroStats(TypedDict):
    name: LitJson
    magic: bool
    attack: int
    defend: int
    move: int
    body: int
    mind: int
    #: Which faces of the combat die hit with bare hands: any/white/black.
    unarmed: str
    #: Where the level-up point goes every third level: body/mind/balanced.
    affinity: str
    spell_groups: int
    start: Sequence[str]
    #: Extra gold per skill level, by skill category.
    skill_penalty: Mapping[str, int]
    provisional: NotRequired[Sequence[str]]
    disarm_without_kit: NotRequired[bool]
    #: Longest pit the hero jumps over (1 when absent).
    pit_jump: NotRequired[int]


class MonsterStats(TypedDict):
    name: LitJson
    move: int
    attack: int
    defend: int
    body: int
    mind: int
    color: NotRequired[str]
    kin: NotRequired[Sequence[str]]
    undead: NotRequired[bool]
    provisional: NotRequired[bool]
    poison: NotRequired[bool]
    mercenary: NotRequired[bool]


class EquipmentEntry(TypedDict):
    name: LitJson
    #: One of `SLOTS`.
    slot: str
    price: int
    attack: NotRequired[int]
    defend: NotRequired[int]
    forbidden: NotRequired[Sequence[str]]
    diagonal: NotRequired[bool]
    thrown: NotRequired[bool]
    ranged: NotRequired[bool]
    two_handed: NotRequired[bool]
    blunt: NotRequired[bool]
    provisional: NotRequired[bool]
    #: Armour: "medium" or "heavy" (a pit of darkness hurts more), and whether it halves movement.
    weight: NotRequired[str]
    half_move: NotRequired[bool]
    toolkit: NotRequired[bool]
    #: Potions.
    heal_body: NotRequired[int]
    heal_body_die: NotRequired[bool]
    saves: NotRequired[bool]
    attack_bonus: NotRequired[int]
    defend_bonus: NotRequired[int]
    double_attack: NotRequired[bool]
    kill_undead: NotRequired[bool]
    #: Scrolls: the spell read; runes: which rune it is.
    scroll: NotRequired[str]
    rune: NotRequired[str]


class SpellEntry(TypedDict):
    name: LitJson
    #: "hero", "monster" or "self".
    target: str
    #: attack, status, heal, damage, sleep, rust, escape or summon; the keys below serve some effects.
    effect: str
    dice: NotRequired[int]
    status: NotRequired[str]
    body: NotRequired[int]
    damage: NotRequired[int]
    resist_dice: NotRequired[int]
    #: "mind": the target rolls its mind points to shrug it off.
    resist: NotRequired[str]
    monster: NotRequired[str]
    count: NotRequired[int]
    provisional: NotRequired[bool]


class SpellGroup(TypedDict):
    name: LitJson
    spells: Sequence[str]


class SpellTables(TypedDict):
    groups: Mapping[str, SpellGroup]
    order: Sequence[str]
    spells: Mapping[str, SpellEntry]
    chaos: Mapping[str, SpellEntry]


class TreasureCard(TypedDict):
    id: str
    #: gold, item, nothing, wandering or trap.
    kind: str
    gold: NotRequired[int]
    item: NotRequired[str]
    trap: NotRequired[str]
    damage: NotRequired[int]
    damage_dice: NotRequired[int]


class SkillEntry(TypedDict):
    name: LitJson
    category: str
    level: int
    price: int
    requires: NotRequired[Sequence[str]]
    provisional: NotRequired[bool]


class RuneEntry(TypedDict):
    name: LitJson
    type: str
    dice: NotRequired[int]
    range: NotRequired[int]
    provisional: NotRequired[bool]


def _load(name: str) -> Any:
    """A data file's JSON (each loader checks the keys its rules rely on before anything reads them)."""
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise ValueError(f"data/heroquest/{where}: {what}")


def _lit(entry: Mapping[str, object], where: str) -> Lit:
    name = entry.get("name")
    _need(isinstance(name, dict) and all(isinstance(name.get(k), str) for k in ("es", "en")), where, "name {es,en}")
    assert isinstance(name, dict)  # _need raised otherwise
    return Lit(name["es"], name["en"])


@loader()
def heroes() -> Mapping[str, HeroStats]:
    data: dict[str, HeroStats] = _load("heroes.json")
    for hid, h in data.items():
        where = f"heroes.json:{hid}"
        _lit(h, where)
        for key in ("attack", "defend", "move", "body", "mind", "spell_groups"):
            _need(isinstance(h.get(key), int) and h[key] >= 0, where, f"{key} must be a non-negative integer")
        _need(h.get("unarmed") in ("any", "white", "black"), where, "unarmed is any/white/black")
        _need(h.get("affinity") in ("body", "mind", "balanced"), where, "affinity is body/mind/balanced")
        _need(all(item in equipment() for item in h.get("start", [])), where, "unknown start equipment")
    _need(all(h in data for h in HERO_IDS), "heroes.json", "the four base heroes are required")
    return data


@loader()
def monsters() -> Mapping[str, MonsterStats]:
    data: dict[str, MonsterStats] = _load("monsters.json")
    for mid, m in data.items():
        where = f"monsters.json:{mid}"
        _lit(m, where)
        for key in ("move", "attack", "defend", "body", "mind"):
            _need(isinstance(m.get(key), int) and m[key] >= 0, where, f"{key} must be a non-negative integer")
        _need(m["body"] >= 1, where, "body >= 1")
        kin = m.get("kin", [])
        _need(isinstance(kin, list) and all(isinstance(w, str) and w == w.casefold() for w in kin), where,
              "kin is a list of lower-case words")
    return data


def monster(ref: str) -> MonsterStats:
    """Stats of a monster ref (every monster a quest may hold has them: imports refuse unknown ones)."""
    table = monsters()
    if ref not in table:
        raise KeyError(f"monster {ref!r} has no stats in data/heroquest/monsters.json")
    return table[ref]


def monster_name(ref: str) -> Lit:
    n = monster(ref)["name"]
    return Lit(n["es"], n["en"])


@loader()
def equipment() -> Mapping[str, EquipmentEntry]:
    data: dict[str, EquipmentEntry] = _load("equipment.json")
    for iid, e in data.items():
        where = f"equipment.json:{iid}"
        _lit(e, where)
        _need(e.get("slot") in SLOTS, where, f"slot in {SLOTS}")
        _need(isinstance(e.get("price"), int) and e["price"] >= 0, where, "price >= 0")
        if e["slot"] == "weapon":
            _need(isinstance(e.get("attack"), int) and e["attack"] >= 1, where, "weapons have attack >= 1")
    return data


def item_name(item: str) -> Lit:
    e = equipment().get(item)
    if e is None:
        return Lit(item, item)
    return Lit(e["name"]["es"], e["name"]["en"])


@loader()
def spells() -> SpellTables:
    data: SpellTables = _load("spells.json")
    groups, table, chaos = data["groups"], data["spells"], data["chaos"]
    _need(list(data["order"]) == sorted(groups) or set(data["order"]) == set(groups), "spells.json", "order")
    for gid, g in groups.items():
        _lit(g, f"spells.json:groups.{gid}")
        _need(len(g["spells"]) == 3 and all(s in table for s in g["spells"]), f"spells.json:{gid}", "3 known spells")
    for sid, s in {**table, **chaos}.items():
        _lit(s, f"spells.json:{sid}")
        _need(s.get("target") in ("hero", "monster", "self"), f"spells.json:{sid}", "target hero/monster/self")
        _need(s.get("effect") in ("attack", "status", "heal", "damage", "sleep", "rust", "escape", "summon"),
              f"spells.json:{sid}", "known effect")
    return data


def spell(sid: str) -> SpellEntry:
    data = spells()
    return data["spells"].get(sid) or data["chaos"][sid]


def spell_name(sid: str) -> Lit:
    n = spell(sid)["name"]
    return Lit(n["es"], n["en"])


def group_name(gid: str) -> Lit:
    n = spells()["groups"][gid]["name"]
    return Lit(n["es"], n["en"])


@loader()
def treasure_deck() -> Sequence[TreasureCard]:
    deck: list[TreasureCard] = _load("treasure.json")["deck"]
    ids = [c["id"] for c in deck]
    _need(len(ids) == len(set(ids)), "treasure.json", "card ids are unique")
    for c in deck:
        _need(c.get("kind") in ("gold", "item", "nothing", "wandering", "trap"), f"treasure.json:{c['id']}", "kind")
        if c["kind"] == "item":
            _need(c.get("item") in equipment(), f"treasure.json:{c['id']}", "known item")
    return deck


def treasure_card(cid: str) -> TreasureCard:
    for c in treasure_deck():
        if c["id"] == cid:
            return c
    raise KeyError(cid)


@loader()
def skills() -> Mapping[str, SkillEntry]:
    data: dict[str, SkillEntry] = _load("skills.json")
    for sid, s in data.items():
        where = f"skills.json:{sid}"
        _lit(s, where)
        _need(s.get("category") in ("survival", "combat", "magic", "knowledge"), where, "category")
        _need(isinstance(s.get("level"), int) and 1 <= s["level"] <= 10, where, "level 1..10")
        _need(isinstance(s.get("price"), int) and s["price"] >= 0, where, "price")
    return data


@loader()
def runes() -> Mapping[str, RuneEntry]:
    data: dict[str, RuneEntry] = _load("runes.json")
    for rid, r in data.items():
        _lit(r, f"runes.json:{rid}")
        _need(r.get("type") in ("effect", "target", "power"), f"runes.json:{rid}", "type effect/target/power")
    return data


def hero_name(hid: str) -> Lit:
    n = heroes()[hid]["name"]
    return Lit(n["es"], n["en"])
