"""HeroQuest data tables (heroes, monsters, equipment, spells, treasure, skills, runes), validated on load."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rules.readonly import loader
from rules.text import Lit

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "heroquest"
HERO_IDS = ("barbarian", "dwarf", "elf", "wizard")
SLOTS = ("weapon", "shield", "helmet", "armour", "item", "potion")


def _load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise ValueError(f"data/heroquest/{where}: {what}")


def _lit(entry: dict[str, Any], where: str) -> Lit:
    name: Any = entry.get("name")
    _need(isinstance(name, dict) and all(isinstance(name.get(k), str) for k in ("es", "en")), where, "name {es,en}")
    return Lit(name["es"], name["en"])


@loader()
def heroes() -> Mapping[str, dict[str, Any]]:
    data = _load("heroes.json")
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
def monsters() -> Mapping[str, dict[str, Any]]:
    data = _load("monsters.json")
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


def monster(ref: str) -> dict[str, Any]:
    """Stats of a monster ref (every monster a quest may hold has them: imports refuse unknown ones)."""
    table = monsters()
    if ref not in table:
        raise KeyError(f"monster {ref!r} has no stats in data/heroquest/monsters.json")
    return table[ref]


def monster_name(ref: str) -> Lit:
    n = monster(ref)["name"]
    return Lit(n["es"], n["en"])


@loader()
def equipment() -> Mapping[str, dict[str, Any]]:
    data = _load("equipment.json")
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
def spells() -> Mapping[str, Any]:
    data = _load("spells.json")
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


def spell(sid: str) -> dict[str, Any]:
    data = spells()
    return data["spells"].get(sid) or data["chaos"][sid]


def spell_name(sid: str) -> Lit:
    n = spell(sid)["name"]
    return Lit(n["es"], n["en"])


def group_name(gid: str) -> Lit:
    n = spells()["groups"][gid]["name"]
    return Lit(n["es"], n["en"])


@loader()
def treasure_deck() -> Sequence[dict[str, Any]]:
    deck = _load("treasure.json")["deck"]
    ids = [c["id"] for c in deck]
    _need(len(ids) == len(set(ids)), "treasure.json", "card ids are unique")
    for c in deck:
        _need(c.get("kind") in ("gold", "item", "nothing", "wandering", "trap"), f"treasure.json:{c['id']}", "kind")
        if c["kind"] == "item":
            _need(c.get("item") in equipment(), f"treasure.json:{c['id']}", "known item")
    return deck


def treasure_card(cid: str) -> dict[str, Any]:
    for c in treasure_deck():
        if c["id"] == cid:
            return c
    raise KeyError(cid)


@loader()
def skills() -> Mapping[str, dict[str, Any]]:
    data = _load("skills.json")
    for sid, s in data.items():
        where = f"skills.json:{sid}"
        _lit(s, where)
        _need(s.get("category") in ("survival", "combat", "magic", "knowledge"), where, "category")
        _need(isinstance(s.get("level"), int) and 1 <= s["level"] <= 10, where, "level 1..10")
        _need(isinstance(s.get("price"), int) and s["price"] >= 0, where, "price")
    return data


@loader()
def runes() -> Mapping[str, dict[str, Any]]:
    data = _load("runes.json")
    for rid, r in data.items():
        _lit(r, f"runes.json:{rid}")
        _need(r.get("type") in ("effect", "target", "power"), f"runes.json:{rid}", "type effect/target/power")
    return data


def hero_name(hid: str) -> Lit:
    n = heroes()[hid]["name"]
    return Lit(n["es"], n["en"])
