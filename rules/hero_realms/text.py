"""Localizable descriptions of cards and effects (catalog keys `hr.fx.*`), used in labels and views."""

from __future__ import annotations

from collections.abc import Sequence

from rules.hero_realms.cards import CardDef, Effect
from rules.text import Lit, Msg, MsgJson, Param, msg


def counted(key: str, n: int, **params: Param) -> Msg:
    """A message about `n` things; its catalog plural block says "a card" for one. (The `<key>_one` keys stay in the
    catalogs for logs stored before.)"""
    return msg(key, n=n, **params)


def card_names(defs: Sequence[CardDef]) -> Lit:
    """Several card names as one literal in both languages."""
    return Lit(", ".join(d.name_es for d in defs), ", ".join(d.name_en for d in defs))


def describe_list(effects: Sequence[Effect]) -> Msg:
    """One message for a sequence of effects ("gain 2 gold, then draw a card")."""
    if len(effects) == 1:
        return describe(effects[0])
    return msg("hr.fx.and", a=describe(effects[0]), b=describe_list(effects[1:]))


def _gain(gain: Effect) -> Msg:
    ((pool, amount),) = gain.items()
    return msg(f"hr.fx.{pool}", n=amount)


def describe(eff: Effect) -> Msg:
    ((name, arg),) = eff.items()
    if name in ("gold", "combat", "health"):
        return msg(f"hr.fx.{name}", n=arg)
    if name == "draw":
        return counted("hr.fx.draw", arg)
    if name == "choose":
        out = describe_list(arg[-1])
        for option in reversed(arg[:-1]):
            out = msg("hr.fx.or", a=describe_list(option), b=out)
        return out
    if name == "stun_target_champion":
        return msg("hr.fx.stun_may" if arg["optional"] else "hr.fx.stun")
    if name == "prepare_champion":
        return msg("hr.fx.prepare")
    if name == "discard_to_top":
        if arg["filter"] == "champion":
            return msg("hr.fx.champion_to_top")
        return msg("hr.fx.discard_to_top_may")
    if name == "draw_then_discard":
        if "up_to" in arg:
            return counted("hr.fx.draw_discard_may", arg["up_to"])
        return counted("hr.fx.draw_discard", arg["count"])
    if name == "opponent_discards":
        return counted("hr.fx.opponent_discards", arg)
    if name == "sacrifice_from_hand_or_discard":
        base = counted("hr.fx.sacrifice_may", arg["up_to"])
        if "bonus" in arg:
            return msg("hr.fx.sacrifice_bonus", a=base, bonus=describe_list(arg["bonus"]))
        return base
    if name == "next_action_to_top":
        return msg("hr.fx.next_action_top")
    if name == "next_acquired_to_top":
        return msg("hr.fx.next_card_top")
    if name == "next_acquired_to_hand":
        return msg("hr.fx.next_card_hand")
    if name in ("per_champion", "per_other_champion", "per_other_guard"):
        return msg(f"hr.fx.{name}", gain=_gain(arg))
    if name == "per_faction_in_play":
        key = "hr.fx.per_other_faction" if arg["other"] else "hr.fx.per_faction"
        return msg(key, faction=msg(f"hr.faction.{arg['faction']}"), gain=_gain(arg["gain"]))
    raise ValueError(f"unknown effect {name}")


def ability_texts(card: CardDef) -> dict[str, MsgJson]:
    """Each ability of a card as Msg JSON, for renderers."""
    return {ability: describe_list(effects).to_json() for ability, effects in card.abilities.items()}
