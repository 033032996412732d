"""One-line descriptions (catalog keys `gi.desc.*`) shown under a choice in menus: factions, commanders, monsters,
strategy trees and abilities; at most 100 characters once rendered."""

from __future__ import annotations

from rules.guerra_de_indagar.data import factions
from rules.text import Lit, Msg, msg


def faction(key: str) -> Msg:
    return msg(f"gi.desc.faction.{key}")


def commander(hero: str) -> Msg:
    """A hero's numbers and special rules, read off its card."""
    card = factions()["heroes"][hero]
    names = [factions()["special_rules"][rule] for rule in card["rules"] if rule in factions()["special_rules"]]
    rules = Lit("".join(f" · {rule['es']}" for rule in names), "".join(f" · {rule['en']}" for rule in names))
    return msg("gi.desc.hero", move=card["move"], attack=card["attack"], defence=card["defence"],
               resistance=card["resistance"], rules=rules)


def monster(key: str) -> Msg:
    return msg(f"gi.desc.monster.{key}")


def tree(key: str) -> Msg:
    return msg(f"gi.desc.tree.{key}")


def ability(key: str) -> Msg:
    return msg(f"gi.desc.ability.{key}")
