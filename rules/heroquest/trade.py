"""Handing things between heroes: give, receive or exchange one item per turn, with the other player's consent.

Rulebook (Intercambiar equipo entre personajes): on a hero's turn it may give, receive or exchange one
object with an adjacent hero, when no monster is next to either; it is not an action. Receiving or
exchanging takes something from a hero another player controls, so that player answers first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from rules.base import Action, ArgValue, LegalAction
from rules.heroquest import board, catalog, quest_treasures
from rules.heroquest.shapes import Hero, Offer, Pending
from rules.heroquest.state import Ctx, HQState, as_square, hero_label, hero_square, refuse
from rules.text import Lit, msg


def holdings(h: Hero) -> list[str]:
    """What a hero may hand over: carried items (not what it wears) and Quest Treasures."""
    return sorted(set(h["items"]) | set(h["quest_treasures"]))


def thing_name(x: str) -> Lit:
    return catalog.item_name(x) if x in catalog.equipment() else quest_treasures.name(x)


def monster_next_to(s: HQState, sq: tuple[int, int]) -> bool:
    return any(m["revealed"] and board.adjacent(sq, as_square(m["sq"])) for m in s.monsters.values())


def partners(s: HQState, h: Hero) -> list[Hero]:
    """Adjacent heroes to trade with now (none while a monster is next to either)."""
    sq = hero_square(h)
    if s.d["turn"].get("gave") or monster_next_to(s, sq):
        return []
    return [o for o in s.on_board_heroes()
            if o is not h and board.adjacent(sq, hero_square(o)) and not monster_next_to(s, hero_square(o))]


def offers(s: HQState, h: Hero, add: Offer) -> None:
    name = hero_label(h)
    for other in partners(s, h):
        mine, theirs = holdings(h), holdings(other)
        for x in mine:
            add("give", msg("hq.act.give", hero=name, item=thing_name(x), other=hero_label(other)), "items",
                item=x, to=other["uid"])
        for y in theirs:
            add("take", msg("hq.act.take", hero=name, item=thing_name(y), other=hero_label(other)), "items",
                item=y, **{"from": other["uid"]})
        for x in mine:
            for y in theirs:
                if x != y:
                    add("swap", msg("hq.act.swap", hero=name, item=thing_name(x), other=hero_label(other),
                                    want=thing_name(y)), "items", item=x, want=y, to=other["uid"])


def _move(a: Hero, b: Hero, x: str) -> None:
    key: Literal["items", "quest_treasures"] = "items" if x in a["items"] else "quest_treasures"
    a[key].remove(x)
    b[key].append(x)


def act(ctx: Ctx, h: Hero, kind: str, args: Mapping[str, ArgValue]) -> None:
    """`give item to`, `take item from`, `swap item want to`: done at once between heroes of one player,
    else offered to the other player (a pending decision)."""
    s = ctx.state
    other_uid = args.get("to") if kind != "take" else args.get("from")
    other = s.hero(str(other_uid))
    if s.d["turn"].get("gave"):
        raise refuse("hq.err.one_exchange")
    if other is None or other is h or other not in partners(s, h):
        raise refuse("hq.err.cannot_give")
    asked_give = args.get("item") if kind in ("give", "swap") else None
    asked_want = args.get("want") if kind == "swap" else args.get("item") if kind == "take" else None
    if asked_give is not None and asked_give not in holdings(h):
        raise refuse("hq.err.not_owned")
    if asked_want is not None and asked_want not in holdings(other):
        raise refuse("hq.err.other_lacks", other=hero_label(other))
    # what is held is text: past the checks above, an argument is None or the id of a thing held
    give = asked_give if isinstance(asked_give, str) else None
    want = asked_want if isinstance(asked_want, str) else None
    if kind == "swap" and give == want:
        raise refuse("hq.err.cannot_give")
    if want is None or other["seat"] == h["seat"]:
        _complete(ctx, h, other, give, want)
        return
    s.d["pending"].append({"kind": "trade", "hero": other["uid"], "from": h["uid"], "give": give, "want": want})
    if give is None:
        ctx.say("hq.ev.asks", hero=hero_label(h), other=hero_label(other), want=thing_name(str(want)))
    else:
        ctx.say("hq.ev.offers", hero=hero_label(h), other=hero_label(other), item=thing_name(str(give)),
                want=thing_name(str(want)))


def _complete(ctx: Ctx, h: Hero, other: Hero, give: str | None, want: str | None) -> None:
    if give is not None:
        _move(h, other, give)
    if want is not None:
        _move(other, h, want)
    ctx.state.d["turn"]["gave"] = True
    if give is not None and want is not None:
        ctx.say("hq.ev.swaps", hero=hero_label(h), other=hero_label(other), item=thing_name(give),
                want=thing_name(want))
    elif give is not None:
        ctx.say("hq.ev.gives", hero=hero_label(h), item=thing_name(give), other=hero_label(other))
    else:
        assert want is not None
        ctx.say("hq.ev.gives", hero=hero_label(other), item=thing_name(want), other=hero_label(h))


def pending_offers(s: HQState, p: Pending) -> list[LegalAction]:
    other = s.hero(p["hero"])
    assert other is not None
    return [LegalAction(Action.of("accept_trade"), msg("hq.act.accept_trade", hero=hero_label(other)), "items"),
            LegalAction(Action.of("decline_trade"), msg("hq.act.decline_trade", hero=hero_label(other)), "items")]


def resolve(ctx: Ctx, p: Pending, kind: str) -> None:
    """The other player answers: on acceptance the exchange happens if it still may (nothing changed since)."""
    s = ctx.state
    h, other = s.hero(p["from"]), s.hero(p["hero"])
    if kind not in ("accept_trade", "decline_trade") or h is None or other is None:
        raise refuse("hq.err.decide_first")
    s.d["pending"].pop(0)
    if kind == "decline_trade":
        ctx.say("hq.ev.trade_declined", other=hero_label(other), hero=hero_label(h))
        return
    give, want = p.get("give"), p.get("want")
    still = (other in partners(s, h) and (give is None or give in holdings(h))
             and (want is None or want in holdings(other)))
    if not still:
        raise refuse("hq.err.cannot_give")
    _complete(ctx, h, other, give, want)
