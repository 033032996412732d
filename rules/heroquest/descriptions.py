"""One-line descriptions (catalog keys `hq.desc.*`) shown under a spell or a spell group in menus."""

from __future__ import annotations

from rules.heroquest import catalog
from rules.text import Lit, Msg, msg


def spell(sid: str) -> Msg:
    """What a spell (a hero's, a scroll's or a Chaos spell) does."""
    return msg(f"hq.desc.spell.{sid}")


def group(gid: str) -> Msg:
    """The spells a group holds, by name, for the Wizard's and the Elf's choice before the quest."""
    names = [catalog.spell_name(sid) for sid in catalog.spells()["groups"][gid]["spells"]]
    return msg("hq.desc.group", spells=Lit(", ".join(n.es for n in names), ", ".join(n.en for n in names)))


#: A weapon's or armour's traits, in the order they are named.
TRAITS = ("diagonal", "thrown", "ranged", "two_handed", "blunt", "half_move")


def item(iid: str) -> Msg | None:
    """What a piece of equipment, a potion, a scroll or a rune does (None for something the data does not know)."""
    entry = catalog.equipment().get(iid)
    if entry is None:
        return None
    if entry.get("scroll"):
        return spell(str(entry["scroll"]))
    if entry.get("rune"):
        return msg(f"hq.desc.rune.{entry['rune']}")
    if entry["slot"] == "potion":
        return msg(f"hq.desc.potion.{iid}")
    if entry.get("toolkit"):
        return msg("hq.desc.item.toolkit")
    parts = [msg("hq.desc.item.attack", n=entry["attack"])] if "attack" in entry else []
    parts += [msg("hq.desc.item.defend", n=entry["defend"])] if "defend" in entry else []
    parts += [msg(f"hq.desc.item.{trait}") for trait in TRAITS if entry.get(trait)]
    if not parts:
        return None
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = msg("hq.desc.join", a=part, b=out)
    return out
