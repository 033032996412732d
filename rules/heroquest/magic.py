"""Spells: the heroes' elemental groups (once each per quest) and the game master's Chaos spells."""

from __future__ import annotations

from rules.heroquest import board, catalog, combat, sight
from rules.heroquest.catalog import SpellEntry
from rules.heroquest.dice import BLACK_SHIELD, WHITE_SHIELD
from rules.heroquest.fight import resolve_attack
from rules.heroquest.shapes import EquipSlot, Figure, Hero, Monster
from rules.heroquest.state import (
    HIDDEN_PREFIX,
    Ctx,
    HQState,
    as_square,
    figure_label,
    hero_label,
    monster_label,
    publish_monster,
    sq_token,
)
from rules.heroquest.turns import damage_hero, damage_monster
from rules.text import Lit


def can_target(s: HQState, caster_sq: tuple[int, int], target_sq: tuple[int, int]) -> bool:
    """Spells need the target in sight (same room always; walls, closed doors and figures block)."""
    return caster_sq == target_sq or sight.sees(s, caster_sq, target_sq, figures_block=True)


def hero_casts(ctx: Ctx, h: Hero, spell_id: str, target: Figure) -> None:
    spell = catalog.spell(spell_id)
    h["spells"].remove(spell_id)
    h["cast"].append(spell_id)
    who = hero_label(h)
    whom = figure_label(target)
    ctx.say("hq.ev.casts", caster=who, spell=catalog.spell_name(spell_id), target=whom)
    effect(ctx, spell, who, target)


def chaos_casts(ctx: Ctx, m: Monster, spell_id: str, target: Hero | None) -> None:
    spell = catalog.spell(spell_id)
    m["cast"].append(spell_id)
    who = monster_label(m)
    whom = hero_label(target) if target is not None else who
    ctx.say("hq.ev.casts", caster=who, spell=catalog.spell_name(spell_id), target=whom)
    if spell["effect"] == "escape":
        del ctx.state.monsters[m["uid"]]
        ctx.say("hq.ev.escapes", monster=who)
        return
    if spell["effect"] == "summon":
        summon(ctx, m, spell["monster"], spell["count"])
        return
    assert target is not None
    effect(ctx, spell, who, target)


def _resisted(ctx: Ctx, target: Figure, resist: str | None) -> bool:
    if resist != "mind":
        return False
    faces = ctx.roll(max(1, target["mind"]))
    return (WHITE_SHIELD if "hero" in target else BLACK_SHIELD) in faces


def effect(ctx: Ctx, spell: SpellEntry, who: Lit, target: Figure) -> None:
    """Apply a spell (cast, read from a scroll or by a Chaos creature) to its target, a hero or a monster."""
    kind = spell["effect"]
    whom = figure_label(target)
    if kind == "attack":
        faces = ctx.roll(spell["dice"])
        if "hero" in target:
            resolve_attack(ctx, who, whom, faces, target_hero=target)
        else:
            resolve_attack(ctx, who, whom, faces, target_monster=target)
    elif kind == "damage":
        faces = ctx.roll(spell.get("resist_dice", 0))
        saved = combat.count_shields(faces, "white" if "hero" in target else "black")
        damage = max(0, spell["damage"] - saved)
        ctx.say("hq.ev.spell_damage", target=whom, damage=damage)
        if "hero" in target:
            damage_hero(ctx, target, damage)
        else:
            damage_monster(ctx, target, damage)
    elif kind == "heal":
        before = target["body"]
        target["body"] = min(target["max_body"], target["body"] + spell["body"])
        ctx.say("hq.ev.healed", target=whom, amount=target["body"] - before)
    elif kind == "status":
        if _resisted(ctx, target, spell.get("resist")):
            ctx.say("hq.ev.resists", target=whom)
            return
        target["status"][spell["status"]] = True
        ctx.say(f"hq.status.{spell['status']}", target=whom)
    elif kind == "sleep":
        undead = "ref" in target and catalog.monster(target["ref"]).get("undead")
        if undead or _resisted(ctx, target, "mind"):
            ctx.say("hq.ev.resists", target=whom)
            return
        target["status"]["sleep"] = True
        ctx.say("hq.status.sleep", target=whom)
    elif kind == "rust":
        if "hero" in target:  # a monster wears nothing: it always resists
            slots: tuple[EquipSlot, ...] = ("armour", "weapon", "shield", "helmet")
            for slot in slots:
                item = target[slot]
                if item and item not in ("staff", "dagger"):
                    target[slot] = None
                    ctx.say("hq.ev.rusted", target=whom, item=catalog.item_name(item))
                    return
        ctx.say("hq.ev.resists", target=whom)


def summon(ctx: Ctx, near: Monster, ref: str, count: int) -> list[Monster]:
    """Put up to `count` monsters on free revealed squares next to `near` (nearest first)."""
    s = ctx.state
    origin = as_square(near["sq"])
    blocked = s.blocked_squares()
    out: list[Monster] = []
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


def spawn(ctx: Ctx, ref: str, sq: tuple[int, int], revealed: bool, ready: bool = False) -> Monster:
    """A new monster on `sq`; `ready` lets it move and act on the game master's turn it arrives in."""
    s = ctx.state
    s.d["spawned"] += 1
    uid = f"{HIDDEN_PREFIX}{ref}-x{s.d['spawned']}"
    stats = catalog.monster(ref)
    m: Monster = {"uid": uid, "ref": ref, "sq": list(sq), "body": stats["body"], "max_body": stats["body"],
         "mind": stats["mind"], "max_mind": stats["mind"], "revealed": False, "status": {},
         "moved": not ready, "acted": not ready, "cast": []}
    s.monsters[uid] = m
    if revealed:
        publish_monster(s, m)
        ctx.say("hq.ev.monster_appears", monster=monster_label(m), sq=sq_token(sq))
    return m
