"""Hero abilities that boost an attack or a defence [RB p.10-11, p.13-14]: who may use them, when, and what they do."""

from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.rng import Rng
from rules.text import Lit, SeatRef, msg

from .data import abilities, hero_card
from .hexes import distance, unkey
from .units import State, can_pay, roll, spend


def _ready(s: State, seat: int, aid: str) -> bool:
    """Owned, on the board (RULING-05), the slot open, not used this turn [RB p.10], and affordable."""
    card = abilities()[aid]
    hero = s["heroes"].get(card["hero"])
    if hero is None or hero["owner"] != seat or hero["at"] is None or aid in s["used"]:
        return False
    slot = card["slot"]
    if slot == "command" and s["players"][seat]["commander"] != card["hero"]:
        return False
    if isinstance(slot, int) and len(hero["levels"]) < slot:
        return False
    return can_pay(s, seat, card["cost"])


def usable(s: State, seat: int, window: str) -> list[str]:
    """Abilities `seat` may use now in the attack's "attack" or "defence" window."""
    att = s["attack"]
    out = []
    for aid, card in sorted(abilities().items()):
        if not _ready(s, seat, aid):
            continue
        if window == "attack":
            if card["who"] != "attacker" or att["by"] != ["hero", card["hero"]]:
                continue
            if card.get("moved") and (s["act"] is None or s["act"]["moved"] < card["moved"]):
                continue
        else:
            target = att["target"]
            if card["who"] == "attacker" or target is None or target[0] != "hero":
                continue
            defender = s["heroes"][target[1]]
            if defender["owner"] != seat or defender["at"] != att["at"] or not _covers(s, card, target[1]):
                continue
        out.append(aid)
    return out


def _covers(s: State, card: dict[str, Any], defender: str) -> bool:
    own = s["heroes"][card["hero"]]["at"]
    gap = distance(unkey(own), unkey(s["heroes"][defender]["at"]))
    if card["who"] == "self":
        return defender == card["hero"]
    if card["who"] == "adjacent":
        return gap == 1
    return gap <= int(card["range"])


def use(s: State, seat: int, aid: str, rng: Rng, events: list[Event]) -> None:
    """Pay, mark it used this turn, remember the user (the Spirit Walker's target) and apply the boost."""
    card = abilities()[aid]
    spend(s, seat, card["cost"])
    s["used"].append(aid)
    s["last_ability"] = seat
    att = s["attack"]
    effect = card["effect"]
    extra: list[int] = []
    if effect.get("attack_dice"):
        extra = roll(rng, effect["attack_dice"])
        att["a"] += extra
    if effect.get("defence_dice"):
        extra = roll(rng, effect["defence_dice"])
        att["d"] += extra
    if effect.get("reroll_attack"):
        att["a"] = roll(rng, len(att["a"]))  # "reroll all" [RB p.19]
        extra = list(att["a"])
    att["min"] = max(att["min"], int(effect.get("min_damage", 0)))
    att["extra"] += int(effect.get("extra_damage", 0))
    att["ignore"] += int(effect.get("ignore", 0))
    events.append(Event(msg("gi.ev.ability", seat=SeatRef(seat), hero=Lit(hero_card(card["hero"])["es"],
                                                                           hero_card(card["hero"])["en"]),
                            ability=Lit(card["es"], card["en"]), dice=" ".join(map(str, extra)) or "-")))
