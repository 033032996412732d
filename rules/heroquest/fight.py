"""Attacks between figures on the board: dice counts, ranged and diagonal reach, stun and poison."""

from __future__ import annotations

from rules.heroquest import board, catalog, combat, dice, sight
from rules.heroquest.catalog import EquipmentEntry
from rules.heroquest.moves import adjacent_open, diagonal_open
from rules.heroquest.shapes import Hero, Monster
from rules.heroquest.state import Ctx, HQState, as_square, hero_label, hero_square, monster_label
from rules.heroquest.traps import in_pit
from rules.heroquest.turns import damage_hero, damage_monster
from rules.text import Lit


def weapon_of(h: Hero) -> EquipmentEntry | None:
    return catalog.equipment().get(h["weapon"]) if h["weapon"] else None


def hero_attack_dice(s: HQState, h: Hero, fists: bool, consume: bool) -> int:
    weapon_stats = None if fists else weapon_of(h)
    base = weapon_stats["attack"] if weapon_stats else 1
    status = h["status"]
    bonus = (2 if status.get("courage") else 0) + int(status.get("strength", 0))
    if consume:
        status.pop("strength", None)
    n = dice.dice_count(base + bonus, 1 if in_pit(s, hero_square(h)) else 0)
    if h["mind"] <= 0 or status.get("fear"):
        n = min(n, 1)
    return n


def hero_defence_dice(s: HQState, h: Hero, consume: bool) -> int:
    table = catalog.equipment()
    base = catalog.heroes()[h["hero"]]["defend"]
    for worn in (h["shield"], h["helmet"], h["armour"]):
        if worn:
            entry = table.get(worn)
            base += 0 if entry is None else entry.get("defend", 0)
    status = h["status"]
    base += ((1 if status.get("rock_skin") else 0) + int(status.get("defence", 0))
             + (1 if "dodge" in h.get("skills", ()) else 0))
    if consume:
        status.pop("defence", None)
    n = dice.dice_count(base, 1 if in_pit(s, hero_square(h)) else 0)
    if h["mind"] <= 0:
        n = min(n, 2)
    return n


def reach_mode(s: HQState, h: Hero, target_sq: tuple[int, int], fists: bool) -> str | None:
    """"melee", "ranged" or "thrown" when the hero's weapon reaches the target square, else None."""
    sq = hero_square(h)
    weapon_stats = None if fists else weapon_of(h)
    adjacent = adjacent_open(s, sq, target_sq)
    if adjacent:
        return None if weapon_stats and weapon_stats.get("ranged") else "melee"
    if weapon_stats and weapon_stats.get("diagonal") and diagonal_open(s, sq, target_sq):
        return "melee"
    if (weapon_stats and (weapon_stats.get("ranged") or weapon_stats.get("thrown")) and not in_pit(s, sq)
            and not board.adjacent(sq, target_sq)
            and sight.clear_shot(s, sq, target_sq)):
        return "ranged" if weapon_stats.get("ranged") else "thrown"
    return None


def hero_attacks(ctx: Ctx, h: Hero, m: Monster, fists: bool) -> None:
    s = ctx.state
    mode = reach_mode(s, h, as_square(m["sq"]), fists)
    weapon_stats = None if fists else weapon_of(h)
    n = hero_attack_dice(s, h, fists, consume=True)
    faces = ctx.roll(n)
    nature = catalog.heroes()[h["hero"]]["unarmed"]
    if s.d["opts"]["die"] == "original":
        nature = "any"
    hits = dice.unarmed_hits(faces, nature) if weapon_stats is None else None
    blunt = bool(weapon_stats and weapon_stats.get("blunt"))
    if mode == "thrown":
        weapon = h["weapon"]
        assert weapon is not None  # only a weapon is thrown
        ctx.say("hq.ev.throws", hero=hero_label(h), item=catalog.item_name(weapon))
        s.d["thrown"].append({"item": weapon, "sq": list(m["sq"]), "owner": h["uid"]})
        h["weapon"] = None
    resolve_attack(ctx, hero_label(h), monster_label(m), faces, target_monster=m, hits=hits, blunt=blunt)


def monster_attacks(ctx: Ctx, m: Monster, h: Hero, dice_n: int | None = None) -> None:
    stats = catalog.monster(m["ref"])
    faces = ctx.roll(dice_n if dice_n is not None else stats["attack"])
    resolve_attack(ctx, monster_label(m), hero_label(h), faces, target_hero=h, blunt=bool(stats.get("blunt")),
                   poison=bool(stats.get("poison")))


def resolve_attack(ctx: Ctx, who: Lit, whom: Lit, faces: list[str], *, target_hero: Hero | None = None,
                   target_monster: Monster | None = None, hits: int | None = None, blunt: bool = False,
                   poison: bool = False) -> None:
    """An attack roll of `faces` by `who` landing on a hero or a monster (`whom`): the defence roll, then the
    damage, a stun and poison. Weapons, spells and runes that strike all end here; `hits` overrides the
    skulls counted (bare hands), `blunt` lets a black skull through a miss."""
    s = ctx.state
    skulls = hits if hits is not None else combat.count_skulls(faces)
    if skulls == 0 and not (blunt and "bskull" in faces):
        ctx.say("hq.ev.attack_misses", attacker=who, target=whom, roll=dice.roll_text(faces))
        return
    if target_hero is not None:
        defence = ctx.roll(hero_defence_dice(s, target_hero, consume=True))
    else:
        m = target_monster
        assert m is not None
        m["status"].pop("sleep", None)
        defence = ctx.roll(catalog.monster(m["ref"])["defend"])
    blow = combat.resolve(faces, defence, defender_is_hero=target_hero is not None, blunt=blunt, hits=hits)
    ctx.say("hq.ev.attack", attacker=who, target=whom, roll=dice.roll_text(faces), defence=dice.roll_text(defence),
            damage=blow.damage)
    if target_hero is not None:
        if blow.stunned:
            target_hero["status"]["stun"] = True
            ctx.say("hq.ev.stunned", who=whom)
        if poison and blow.damage > 0:
            target_hero["status"]["poison"] = True
            ctx.say("hq.ev.poisoned", who=whom)
        damage_hero(ctx, target_hero, blow.damage)
    else:
        assert target_monster is not None
        if blow.stunned:
            target_monster["status"]["stun"] = True
            ctx.say("hq.ev.stunned", who=whom)
        damage_monster(ctx, target_monster, blow.damage)
