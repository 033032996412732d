"""Spells: the heroes' elemental groups (once each per quest) and the game master's Chaos spells."""

from __future__ import annotations

from typing import Any

from rules.heroquest import board, catalog, combat, sight
from rules.heroquest.dice import BLACK_SHIELD, WHITE_SHIELD
from rules.heroquest.fight import resolve_attack
from rules.heroquest.state import HIDDEN_PREFIX, Ctx, HQState, hero_label, monster_label, publish_monster, sq_token, tsq
from rules.heroquest.turns import damage_hero, damage_monster


def can_target(s: HQState, caster_sq: tuple[int, int], target_sq: tuple[int, int]) -> bool:
    """Spells need the target in sight (same room always; walls, closed doors and figures block)."""
    return caster_sq == target_sq or sight.sees(s, caster_sq, target_sq, figures_block=True)


def hero_casts(ctx: Ctx, h: dict[str, Any], spell_id: str, target: dict[str, Any], target_is_hero: bool) -> None:
    spell = catalog.spell(spell_id)
    h["spells"].remove(spell_id)
    h["cast"].append(spell_id)
    who = hero_label(h)
    whom = hero_label(target) if target_is_hero else monster_label(target)
    ctx.say("hq.ev.casts", caster=who, spell=catalog.spell_name(spell_id), target=whom)
    effect(ctx, spell, who, target, target_is_hero)


def chaos_casts(ctx: Ctx, m: dict[str, Any], spell_id: str, target: dict[str, Any] | None) -> None:
    spell = catalog.spell(spell_id)
    m["cast"].append(spell_id)
    who = monster_label(m)
    whom = hero_label(target) if target is not None else who
    ctx.say("hq.ev.casts", caster=who, spell=catalog.spell_name(spell_id), target=whom)
    if spell["effect"] == "escape":
        del ctx.s.monsters[m["uid"]]
        ctx.say("hq.ev.escapes", monster=who)
        return
    if spell["effect"] == "summon":
        summon(ctx, m, spell["monster"], spell["count"])
        return
    assert target is not None
    effect(ctx, spell, who, target, True)


def _resisted(ctx: Ctx, target: dict[str, Any], is_hero: bool, spell: dict[str, Any]) -> bool:
    if spell.get("resist") != "mind":
        return False
    faces = ctx.roll(max(1, target["mind"]))
    return (WHITE_SHIELD if is_hero else BLACK_SHIELD) in faces


def effect(ctx: Ctx, spell: dict[str, Any], who: Any, target: dict[str, Any], is_hero: bool) -> None:
    """Apply a spell (cast, read from a scroll or by a Chaos creature) to its target."""
    kind = spell["effect"]
    whom = hero_label(target) if is_hero else monster_label(target)
    if kind == "attack":
        faces = ctx.roll(spell["dice"])
        resolve_attack(ctx, who, whom, faces, target_hero=target if is_hero else None,
                       target_monster=None if is_hero else target)
    elif kind == "damage":
        faces = ctx.roll(spell.get("resist_dice", 0))
        saved = combat.count_shields(faces, "white" if is_hero else "black")
        damage = max(0, spell["damage"] - saved)
        ctx.say("hq.ev.spell_damage", target=whom, damage=damage)
        if is_hero:
            damage_hero(ctx, target, damage)
        else:
            damage_monster(ctx, target, damage)
    elif kind == "heal":
        before = target["body"]
        target["body"] = min(target["max_body"], target["body"] + spell["body"])
        ctx.say("hq.ev.healed", target=whom, amount=target["body"] - before)
    elif kind == "status":
        if _resisted(ctx, target, is_hero, spell):
            ctx.say("hq.ev.resists", target=whom)
            return
        target["status"][spell["status"]] = True
        ctx.say(f"hq.status.{spell['status']}", target=whom)
    elif kind == "sleep":
        undead = not is_hero and catalog.monster(target["ref"]).get("undead")
        if undead or _resisted(ctx, target, is_hero, {"resist": "mind"}):
            ctx.say("hq.ev.resists", target=whom)
            return
        target["status"]["sleep"] = True
        ctx.say("hq.status.sleep", target=whom)
    elif kind == "rust":
        for slot in ("armour", "weapon", "shield", "helmet"):
            item = target.get(slot)
            if item and item not in ("staff", "dagger"):
                target[slot] = None
                ctx.say("hq.ev.rusted", target=whom, item=catalog.item_name(item))
                return
        ctx.say("hq.ev.resists", target=whom)


def summon(ctx: Ctx, near: dict[str, Any], ref: str, count: int) -> list[dict[str, Any]]:
    """Put up to `count` monsters on free revealed squares next to `near` (nearest first)."""
    s = ctx.s
    origin = tsq(near["sq"])
    blocked = s.blocked_squares()
    out: list[dict[str, Any]] = []
    candidates = sorted(
        (q for q in board.all_squares() if s.is_revealed(q) and q not in blocked and q not in s.dark),
        key=lambda q: (abs(q[0] - origin[0]) + abs(q[1] - origin[1]), q),
    )
    for q in candidates:
        if len(out) >= count:
            break
        if q in s.figure_at():
            continue
        out.append(spawn(ctx, ref, q, revealed=True))
    return out


def spawn(ctx: Ctx, ref: str, sq: tuple[int, int], revealed: bool, ready: bool = False) -> dict[str, Any]:
    """A new monster on `sq`; `ready` lets it move and act on the game master's turn it arrives in."""
    s = ctx.s
    s.d["spawned"] += 1
    uid = f"{HIDDEN_PREFIX}{ref}-x{s.d['spawned']}"
    stats = catalog.monster(ref)
    m = {"uid": uid, "ref": ref, "sq": list(sq), "body": stats["body"], "max_body": stats["body"],
         "mind": stats["mind"], "max_mind": stats["mind"], "revealed": False, "status": {},
         "moved": not ready, "acted": not ready, "cast": []}
    s.monsters[uid] = m
    if revealed:
        publish_monster(s, m)
        ctx.say("hq.ev.monster_appears", monster=monster_label(m), sq=sq_token(sq))
    return m
