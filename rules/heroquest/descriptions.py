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
