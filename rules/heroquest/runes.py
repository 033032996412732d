"""Magic runes (Runic Knowledge skill): one effect rune combined with target and power runes."""

from __future__ import annotations

from rules.base import RuleError
from rules.heroquest import catalog
from rules.text import msg


class RuneError(RuleError):
    code = "rune"


def reach(runes: list[str]) -> int:
    """Squares away an effect reaches: adjacent alone, else the sum of the distance runes' ranges.

    The Druid example fixes this: one distance rune leaves an orc 4 squares away two squares short,
    the second one reaches it (each distance rune ranges 2; see RULES_NOTES).
    """
    table = catalog.runes()
    return max(1, sum(table[r].get("range", 0) for r in runes if table[r]["type"] == "target"))


def cast(runes: list[str], distance: int) -> int:
    """Combat dice of a rune combination thrown at a target `distance` squares away (1 = adjacent, 0 = self).

    Exactly one effect rune; any number of target and power runes. Raises RuneError otherwise or when
    the target is out of reach.
    """
    table = catalog.runes()
    if any(r not in table for r in runes):
        raise RuneError(msg("hq.err.rune_effect"))
    effects = [r for r in runes if table[r]["type"] == "effect"]
    if len(effects) != 1:
        raise RuneError(msg("hq.err.rune_effect"))
    if distance > reach(runes):
        raise RuneError(msg("hq.err.rune_reach", reach=reach(runes)))
    return table[effects[0]]["dice"] + sum(table[r].get("dice", 0) for r in runes if table[r]["type"] == "power")
