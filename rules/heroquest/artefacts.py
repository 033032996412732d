"""Magic scrolls (a spell anyone may carry, only magic heroes read) and runes (Runic Knowledge): offers and effects."""

from __future__ import annotations

from rules.base import ArgValue, IllegalAction
from rules.heroquest import catalog, combat, magic, runes
from rules.heroquest import descriptions as describe
from rules.heroquest.dice import roll_text
from rules.heroquest.fight import resolve_attack
from rules.heroquest.shapes import Figure, Hero, Offer
from rules.heroquest.state import Ctx, HQState, as_square, figure_label, figure_square, hero_label, hero_square, refuse
from rules.text import Lit, Msg, msg

#: The rune items a hero carries, by what they do.
EFFECT_RUNES = ("inflict_damage", "heal")


def scroll_spell(item: str) -> str | None:
    entry = catalog.equipment().get(item)
    return None if entry is None else entry.get("scroll")


def rune_of(item: str) -> str | None:
    entry = catalog.equipment().get(item)
    return None if entry is None else entry.get("rune")


def is_magic(h: Hero) -> bool:
    return bool(catalog.heroes()[h["hero"]].get("magic"))


def _targets(s: HQState, h: Hero, kind: str) -> list[Figure]:
    """Figures `h` can aim at (in sight; a hero always at itself): heroes for "hero" spells, monsters otherwise."""
    sq = hero_square(h)
    if kind == "hero":
        return [o for o in s.on_board_heroes() if magic.can_target(s, sq, hero_square(o))]
    return [m for m in s.monsters.values() if m["revealed"] and magic.can_target(s, sq, as_square(m["sq"]))]


# ---------------------------------------------------------------- scrolls


def scroll_offers(s: HQState, h: Hero, add: Offer) -> None:
    """Reading a scroll is casting its spell (an action), for magic heroes only (rulebook, Pergaminos Mágicos)."""
    if not is_magic(h):
        return
    for item in sorted({i for i in h["items"] if scroll_spell(i)}):
        sid = scroll_spell(item)
        assert sid is not None
        for target in _targets(s, h, catalog.spell(sid)["target"]):
            add("read_scroll", msg("hq.act.read_scroll", hero=hero_label(h), item=catalog.item_name(item),
                                   target=figure_label(target)), "spell", describe.spell(sid), item=item,
                target=target["uid"])


def read_scroll(ctx: Ctx, h: Hero, item: str, target_uid: str) -> None:
    s = ctx.state
    sid = scroll_spell(item)
    if item not in h["items"] or sid is None:
        raise refuse("hq.err.no_scroll")
    if not is_magic(h):
        raise refuse("hq.err.not_magic")
    spell = catalog.spell(sid)
    target = spell_target(s, h, target_uid, spell["target"] == "hero")
    h["items"].remove(item)
    ctx.undoable = False
    ctx.say("hq.ev.reads_scroll", hero=hero_label(h), item=catalog.item_name(item), target=figure_label(target))
    magic.effect(ctx, spell, hero_label(h), target)


def spell_target(s: HQState, h: Hero, uid: str, hero_target: bool) -> Figure:
    """The hero (on the board, alive) or the revealed monster `uid`, in `h`'s sight; else the refusal."""
    target: Figure | None
    if hero_target:
        hero = s.hero(uid)
        if hero is None or hero["sq"] is None or hero["dead"]:
            raise refuse("hq.err.no_target")
        target = hero
    else:
        monster = s.monsters.get(uid)
        if monster is None or not monster["revealed"]:
            raise refuse("hq.err.no_target")
        target = monster
    if not magic.can_target(s, hero_square(h), figure_square(target)):
        raise refuse("hq.err.not_in_sight")
    return target


# ---------------------------------------------------------------- runes


def _owned(h: Hero, rune: str) -> int:
    return sum(1 for i in h["items"] if rune_of(i) == rune)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Squares between two figures as movement counts them (0 = itself, 1 = adjacent)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def distance_runes(d: int) -> int:
    """The fewest distance runes that reach `d` squares (an effect rune alone reaches an adjacent square)."""
    reach = catalog.runes()["distance"]["range"]
    return 0 if d <= 1 else -(-d // reach)


def rune_offers(s: HQState, h: Hero, add: Offer) -> None:
    """Throwing runes needs the Runic Knowledge skill and counts as the action (rulebook, Runas Mágicas)."""
    if "runic_knowledge" not in h.get("skills", ()):
        return
    sq = hero_square(h)
    have_distance, have_power = _owned(h, "distance"), _owned(h, "bonus")
    for effect in EFFECT_RUNES:
        if not _owned(h, effect):
            continue
        kind = "hero" if effect == "heal" else "monster"
        for target in _targets(s, h, kind):
            if distance_runes(distance(sq, figure_square(target))) > have_distance:
                continue
            for power in range(have_power + 1):
                add("rune", rune_label(h, effect, figure_label(target), power), "spell", rune=effect,
                    target=target["uid"], power=power)


def rune_label(h: Hero, effect: str, target: Lit, power: int) -> Msg:
    rune = _rune_name(effect)
    if power:
        return msg("hq.act.rune_power", hero=hero_label(h), rune=rune, target=target, power=power)
    return msg("hq.act.rune", hero=hero_label(h), rune=rune, target=target)


def _rune_name(rune: str) -> Lit:
    name = catalog.runes()[rune]["name"]
    return Lit(name["es"], name["en"])


def throw_rune(ctx: Ctx, h: Hero, effect: str, target_uid: str, power: ArgValue | None) -> None:
    s = ctx.state
    if "runic_knowledge" not in h.get("skills", ()):
        raise refuse("hq.err.no_runic_knowledge")
    if effect not in EFFECT_RUNES or not _owned(h, effect):
        raise refuse("hq.err.no_rune")
    if not isinstance(power, int) or isinstance(power, bool) or not 0 <= power <= _owned(h, "bonus"):
        raise refuse("hq.err.rune_power", power=_owned(h, "bonus"))
    target = spell_target(s, h, target_uid, effect == "heal")
    d = distance(hero_square(h), figure_square(target))
    need = distance_runes(d)
    if need > _owned(h, "distance"):
        raise IllegalAction(msg("hq.err.rune_reach", reach=max(1, 2 * _owned(h, "distance"))))
    used = [effect] + ["distance"] * need + ["bonus"] * power
    dice = runes.cast(used, d)
    for rune in used:
        h["items"].remove(next(i for i in h["items"] if rune_of(i) == rune))
    ctx.undoable = False
    who, whom = hero_label(h), figure_label(target)
    ctx.say("hq.ev.rune", hero=who, rune=_rune_name(effect), target=whom, dice=dice)
    faces = ctx.roll(dice)
    if effect == "heal":
        before = target["body"]
        target["body"] = min(target["max_body"], target["body"] + combat.count_skulls(faces))
        ctx.say("hq.ev.rune_heals", target=whom, roll=roll_text(faces), amount=target["body"] - before)
        return
    assert "ref" in target  # every rune but healing strikes a monster
    resolve_attack(ctx, who, whom, faces, target_monster=target)
