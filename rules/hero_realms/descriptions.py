"""One-line card summaries (catalog keys `hr.desc.*`) shown under a card's name in menus: at most 100 characters."""

from __future__ import annotations

from collections.abc import Sequence

from rules.hero_realms.cards import CardDef, Effect
from rules.text import Msg, msg

#: The order a card's abilities are summarised in (as printed: the main text, then expend, ally, sacrifice).
SLOTS = ("primary", "expend", "ally", "sacrifice")


def _chain(parts: Sequence[Msg], key: str) -> Msg:
    """`a, b, c` (or `a · b · c`) as nested messages joined by the catalog's `key` ("{a}, {b}")."""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = msg(key, a=part, b=out)
    return out


def _gain(gain: Effect) -> Msg:
    ((pool, amount),) = gain.items()
    return msg(f"hr.desc.fx.{pool}", n=amount)


def effect(eff: Effect) -> Msg:
    """One effect in its shortest words ("+2 Gold", "draw 1", "stun a champion")."""
    ((name, arg),) = eff.items()
    if name in ("gold", "combat", "health"):
        return msg(f"hr.desc.fx.{name}", n=arg)
    if name == "draw":
        return msg("hr.desc.fx.draw", n=arg)
    if name == "choose":
        return _chain([effects(option) for option in arg], "hr.desc.or")
    if name == "stun_target_champion":
        return msg("hr.desc.fx.stun")
    if name == "prepare_champion":
        return msg("hr.desc.fx.prepare")
    if name == "discard_to_top":
        return msg("hr.desc.fx.champion_to_top" if arg.get("filter") == "champion" else "hr.desc.fx.discard_to_top")
    if name == "draw_then_discard":
        if "up_to" in arg:
            return msg("hr.desc.fx.draw_discard_may", n=arg["up_to"])
        return msg("hr.desc.fx.draw_discard", n=arg["count"])
    if name == "opponent_discards":
        return msg("hr.desc.fx.opponent_discards", n=arg)
    if name == "sacrifice_from_hand_or_discard":
        if arg.get("bonus"):
            return msg("hr.desc.fx.sacrifice_bonus", n=arg["up_to"], bonus=effects(arg["bonus"]))
        return msg("hr.desc.fx.sacrifice", n=arg["up_to"])
    if name in ("next_action_to_top", "next_acquired_to_top", "next_acquired_to_hand"):
        short = {"next_action_to_top": "next_action_top", "next_acquired_to_top": "next_card_top",
                 "next_acquired_to_hand": "next_card_hand"}[name]
        return msg(f"hr.desc.fx.{short}")
    if name in ("per_champion", "per_other_champion", "per_other_guard"):
        return msg(f"hr.desc.fx.{name}", gain=_gain(arg))
    if name == "per_faction_in_play":
        key = "hr.desc.fx.per_other_faction" if arg["other"] else "hr.desc.fx.per_faction"
        return msg(key, faction=msg(f"hr.faction.{arg['faction']}"), gain=_gain(arg["gain"]))
    raise ValueError(f"unknown effect {name}")


def effects(items: Sequence[Effect]) -> Msg:
    return _chain([effect(e) for e in items], "hr.desc.and")


def card(defn: CardDef) -> Msg:
    """What a card does, in one line: a champion's defense (and guard), then each of its abilities."""
    parts: list[Msg] = []
    if defn.champion:
        parts.append(msg("hr.desc.guard" if defn.guard else "hr.desc.champion", n=defn.defense))
    for slot in SLOTS:
        if defn.abilities.get(slot):
            fx = effects(defn.abilities[slot])
            parts.append(fx if slot == "primary" else msg(f"hr.desc.{slot}", fx=fx))
    return _chain(parts, "hr.desc.join")
