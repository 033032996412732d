"""Allies' and monsters' current statistics, status tokens, hit rolls and damage (rulebook §C2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from rules.kings_armory import data
from rules.kings_armory.shapes import (
    Ally,
    AllyCard,
    FigureCard,
    LevelledOption,
    Monster,
    MonsterCard,
    Option,
    Resistance,
    Statuses,
)
from rules.readonly import loader
from rules.text import Lit

STATUSES = ("bleed", "burn", "slow", "stun", "bless")
CAPS = {"bleed": 3, "burn": 2, "stun": 1, "bless": 1}  # Slow has no cap; Bleed + Burn at most 4
#: Option effects this engine resolves; other options stay in the data but are not offered yet.
SPECIAL_EFFECTS = frozenset({"tank_bonus", "slow", "heal", "heal_area", "bless", "bless_area", "dash", "rage",
                             "energy_shield", "guard", "enchant", "sunder", "gravity", "summon_guardian", "mind_fog",
                             "teleport_ally", "psychic_wall", "potion"})


def no_status() -> Statuses:
    return dict.fromkeys(STATUSES, 0)


def _resolve_option(opt: Option | LevelledOption, level: int) -> Option:
    """The option at `level`: a champion's per-level numbers (lists in its data file) read for that level."""
    out: dict[str, object] = dict(opt)
    for key in ("hit", "dmg", "amount"):
        value = out.get(key)
        if isinstance(value, list):
            out[key] = value[level - 1]
    return cast(Option, out)  # the only per-level values were the lists just resolved


def ally_card(ally: Ally) -> AllyCard:
    """The ally's statistics at its level with its equipment (heroes have one level); shared, never mutated."""
    gear = ally.get("gear")
    if gear:
        return _equipped(ally["kind"], ally["key"], ally["level"], tuple(sorted(gear)))
    return _card(ally["kind"], ally["key"], ally["level"])


@loader(maxsize=512)
def _equipped(kind: str, key: str, lvl: int, gear: tuple[str, ...]) -> AllyCard:
    """A hero's card with the bonuses of the equipment it carries (§8.6, P-15)."""
    base = _card(kind, key, lvl)
    res = dict(base["res"])
    options: list[Option] = [{**o} for o in base["options"]]
    card: AllyCard = {**base, "res": res, "options": options}
    attacks = [o for o in options if o["kind"] == "attack"]
    for piece_id in gear:
        piece = data.equipment()[piece_id]
        mods = piece["mods"]
        card["max"] += mods.get("max", 0)
        card["dodge"] += mods.get("dodge", 0)
        card["mv"] += mods.get("mv", 0)
        card["tank"] += mods.get("tank", 0)
        for kind, n in mods.get("res", {}).items():
            res[kind] += n
        if mods.get("primary_dmg") and attacks:
            attacks[0]["dmg"] += mods["primary_dmg"]
        for opt in attacks:
            opt["range"] += mods.get("type_range", {}).get(opt["type"], 0)
            hit = opt["hit"]
            if hit != "auto":
                opt["hit"] = int(hit) + mods.get("type_hit", {}).get(opt["type"], 0)
            opt["dmg"] += mods.get("type_dmg", {}).get(opt["type"], 0)
            extra = mods.get("type_crit", {}).get(opt["type"])
            if extra is not None and extra not in opt["crit"]:
                opt["crit"] = sorted([*opt["crit"], extra])
        if "option" in piece:
            options.append({**piece["option"]})
    return card


@loader(maxsize=256)
def _card(kind: str, key: str, lvl: int) -> AllyCard:
    if kind in ("hero", "summon"):
        card: FigureCard = data.heroes()[key] if kind == "hero" else data.summons()[key]
        return {**card, "max": card["hp"], "options": [_resolve_option(o, 1) for o in card["options"]]}
    champ = data.champions()[key]
    options = [_resolve_option(o, lvl) for o in champ["options"] if o["from"] <= lvl]
    return {"id": champ["id"], "ap": champ["ap"], "mv": champ["mv"], "max": champ["hp"][lvl - 1],
            "dodge": champ["dodge"][lvl - 1], "res": champ["res"][lvl - 1], "tank": champ["tank"][lvl - 1],
            "heal": champ["heal"][lvl - 1], "min_attacks": champ["min_attacks"], "options": options,
            "mind_cage": champ.get("mind_cage", False)}


def ally_name(ally: Ally) -> Lit:
    if ally["kind"] in ("hero", "summon"):
        card = data.heroes()[ally["key"]] if ally["kind"] == "hero" else data.summons()[ally["key"]]
        return Lit(card["es"], card["en"])
    champ = data.champions()[ally["key"]]
    name = champ["names"][ally["token"]]
    lvl = ally["level"] - 1
    return Lit(f"{name} ({champ['titles']['es'][lvl]})", f"{name} ({champ['titles']['en'][lvl]})")


def offered_options(ally: Ally) -> list[Option]:
    return [o for o in ally_card(ally)["options"] if o["kind"] == "attack" or o["effect"] in SPECIAL_EFFECTS]


def primary_type(ally: Ally) -> str | None:
    """The damage type of the primary attack (first attack option for champions), for attack priority #3."""
    attacks = [o for o in ally_card(ally)["options"] if o["kind"] == "attack"]
    return attacks[0]["type"] if attacks else None


def ally_dodge(ally: Ally) -> int:
    return int(ally_card(ally)["dodge"]) - ally.get("dodge_pen", 0)


def lowered(value: Resistance, by: int) -> Resistance:
    """A resistance lowered by Enchant Weapon / Psychic Sunder: never below 0, never touching immunity."""
    return value if value == "Im" or not by else max(0, int(value) - by)


def ally_res(ally: Ally, kind: str) -> Resistance:
    if ally.get("shield") and kind in ("R", "SN"):
        return "Im"
    value = ally_card(ally)["res"][kind]
    return value + (1 if ally["st"]["bless"] else 0)  # Bless: +1 to each resistance (P-18)


def ally_mv(ally: Ally) -> int:
    base = int(ally_card(ally)["mv"])
    return max(1, base - 2 * ally["st"]["slow"])


def tank(ally: Ally) -> int:
    return int(ally_card(ally)["tank"]) + ally.get("tank_bonus", 0)


def monster_card(mon: Monster) -> MonsterCard:
    return data.bosses()[mon["key"]] if mon["boss"] else data.monsters()[mon["key"]]


def monster_name(mon: Monster) -> Lit:
    card = monster_card(mon)
    return Lit(card["es"], card["en"])


def flags(mon: Monster) -> list[str]:
    return list(monster_card(mon)["flags"])


def flying(mon: Monster) -> bool:
    return "F" in flags(mon)


def siege(mon: Monster) -> bool:
    return "siege" in flags(mon)


def monster_mv(mon: Monster) -> int:
    """Movement after Slow: −2 per token (minimum 1); bosses −1 per token, never below 3 (A-20)."""
    base = int(monster_card(mon)["mv"])
    slow = mon["st"]["slow"]
    if mon["boss"]:
        return base if base < 3 else max(3, base - slow)
    return max(1, base - 2 * slow)


def add_status(tokens: Statuses, kind: str, count: int = 1) -> None:
    """Add tokens one at a time with the caps of §3.6: a kind at its cap takes nothing; a fifth Bleed/Burn
    token removes one of the other kind."""
    for _ in range(count):
        if kind == "slow":
            tokens["slow"] += 1
            continue
        if tokens[kind] >= CAPS[kind]:
            continue
        tokens[kind] += 1
        if kind in ("bleed", "burn") and tokens["bleed"] + tokens["burn"] > 4:
            tokens["burn" if kind == "bleed" else "bleed"] -= 1


#: What a boss is immune to: «inmunes a las muertes instantáneas, destrucción, eliminación y Aturdimiento».
BOSS_IMMUNE = ("stun", "instakill", "destroy", "eliminate")


def status_immune(mon: Monster, kind: str) -> bool:
    """Whether `mon` ignores this effect (a status, or an instant kill, destruction or elimination)."""
    if mon["boss"] and kind in BOSS_IMMUNE:
        return True
    return siege(mon) and kind in ("stun", "bleed", "instakill")


def roll_hit(nat: int | None, bonus: int, dodge: int, crit: Sequence[int]) -> tuple[bool, bool]:
    """(hit, critical) for a natural roll (None: an Auto attack) against a Dodge (§3.7.3, A-23)."""
    if nat is None:
        return True, False
    if nat == 1:
        return False, False
    if nat in crit:
        return True, True
    return nat + bonus >= dodge, False


def damage(base: int, hits: int, crit: bool, mod: float, flat: int, res: Resistance) -> list[int]:
    """Damage of each hit instance: base ×mod on a crit (rounded up), + flat bonuses, − resistance, min 1."""
    if res == "Im":
        return [0] * hits
    dealt = math.ceil(base * mod) if crit else base
    return [max(1, dealt + flat - int(res)) for _ in range(hits)]
