"""Legal moves of Hero Realms: listing them with labels, and checking one without listing all."""

from __future__ import annotations

from typing import Any

from rules.base import Action, GameOver, IllegalAction, LegalAction, NotYourTurn
from rules.hero_realms import engine as E
from rules.hero_realms import variants as V
from rules.hero_realms.state import State
from rules.hero_realms.text import describe_list
from rules.text import Msg, SeatRef, msg

MAIN_KINDS = ("play", "play_all", "ally", "expend", "sacrifice", "buy", "attack", "give_gold", "pass_card",
              "end_turn")


def to_act(s: State) -> frozenset[int]:
    if s.winners is not None:
        return frozenset()
    b = E.blocking(s)
    if b is not None:
        return frozenset({b["seat"]})
    return frozenset(a for a in s.active if not s.players[a].done)


def _lit(s: State, cid: str):
    return E.cdef(s, cid).lit


def _first_by_key(s: State, ids: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for c in ids:
        key = s.cards[c]
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


# ---------------------------------------------------------------- decisions


def _option_label(s: State, d: dict[str, Any], option: Any) -> Msg:
    kind = d["kind"]
    seat = d["seat"]
    if option == "none":
        return msg("hr.la.sacrifice_none" if kind == "sacrifice" else "hr.la.decline")
    if kind == "choose":
        return msg("hr.la.option", effect=describe_list(d["options"][option]))
    if kind == "stun":
        return msg("hr.la.stun", card=_lit(s, option), seat=SeatRef(E.owner_of(s, option)))
    if kind == "prepare":
        return msg("hr.la.prepare", card=_lit(s, option))
    if kind == "to_top":
        return msg("hr.la.to_top", card=_lit(s, option))
    if kind == "draw_count":
        return msg("hr.la.draw_n", n=option)
    if kind == "discard":
        return msg("hr.la.discard", card=_lit(s, option))
    if kind == "opponent":
        return msg("hr.la.target_opponent", seat=SeatRef(int(option[1:])))
    if kind == "sacrifice":
        zone = "hand" if option in s.players[seat].hand else "discard"
        return msg(f"hr.la.sacrifice_from_{zone}", card=_lit(s, option))
    if kind == "pass_card":
        if option.startswith("deck:"):
            return msg("hr.la.pass_from_deck", card=E.CARDS[option[5:]].lit)
        return msg("hr.la.pass_to_emperor", card=_lit(s, option))
    raise ValueError(kind)


def _listed_options(s: State, d: dict[str, Any]) -> list[Any]:
    """Options with duplicate cards of one zone listed once (any copy is accepted when applied)."""
    options = E.decision_options(s, d)
    p = s.players[d["seat"]]
    seen: set[tuple[str, str]] = set()
    out = []
    for o in options:
        if isinstance(o, str) and o in s.cards:
            zone = "hand" if o in p.hand else "discard" if o in p.discard else o
            mark = (zone, s.cards[o])
            if mark in seen:
                continue
            seen.add(mark)
        out.append(o)
    return out


def decision_actions(s: State, d: dict[str, Any]) -> list[LegalAction]:
    return [
        LegalAction(Action.of("choose", option=o), _option_label(s, d, o), "decide")
        for o in _listed_options(s, d)
    ]


# ---------------------------------------------------------------- main phase


def _gold_cost(s: State, target: str) -> int:
    return E.CARDS["fire_gem"].cost if target == "gem" else E.cdef(s, target).cost


def main_actions(s: State, seat: int) -> list[LegalAction]:
    p = s.players[seat]
    out: list[LegalAction] = []
    add = out.append
    for c in _first_by_key(s, p.hand):
        add(LegalAction(Action.of("play", card=c), msg("hr.la.play", card=_lit(s, c)), "play"))
    if len(p.hand) > 1:
        add(LegalAction(Action.of("play_all"), msg("hr.la.play_all", n=len(p.hand)), "play"))
    for c in _first_by_key(s, [c for c in p.champions if c not in p.expended]):
        card = E.cdef(s, c)
        if "expend" in card.abilities:
            add(LegalAction(Action.of("expend", card=c),
                            msg("hr.la.expend", card=card.lit, effect=describe_list(card.abilities["expend"])),
                            "expend"))
    for c in _first_by_key(s, [c for c in E.in_play(p) if E.ally_ready(s, seat, c)]):
        card = E.cdef(s, c)
        add(LegalAction(Action.of("ally", card=c),
                        msg("hr.la.ally", card=card.lit, effect=describe_list(card.abilities["ally"])), "ally"))
    for c in _first_by_key(s, [c for c in E.in_play(p) if "sacrifice" in E.cdef(s, c).abilities]):
        card = E.cdef(s, c)
        add(LegalAction(Action.of("sacrifice", card=c),
                        msg("hr.la.sacrifice", card=card.lit, effect=describe_list(card.abilities["sacrifice"])),
                        "sacrifice"))
    for c in _first_by_key(s, s.market):
        card = E.cdef(s, c)
        if card.cost <= p.gold:
            add(LegalAction(Action.of("buy", card=c), msg("hr.la.buy", card=card.lit, cost=card.cost), "buy"))
    if s.gems and _gold_cost(s, "gem") <= p.gold:
        add(LegalAction(Action.of("buy", card="gem"),
                        msg("hr.la.buy", card=E.CARDS["fire_gem"].lit, cost=_gold_cost(s, "gem")), "buy"))
    if p.combat > 0:
        _attack_actions(s, seat, add)
    if p.gold > 0 and V.VARIANTS[s.variant].team_turns:
        for t in V.teammates(s, seat):
            if t in s.active and not s.players[t].done:
                add(LegalAction(Action.of("give_gold", to=t, amount=p.gold),
                                msg("hr.la.give_gold", seat=SeatRef(t), n=p.gold), "give"))
    if p.gold >= 1 and s.variant == "emperor":
        for t in _adjacent_teammates(s, seat):
            for c in _first_by_key(s, p.discard):
                add(LegalAction(Action.of("pass_card", card=c, to=t),
                                msg("hr.la.pass_card", card=_lit(s, c), seat=SeatRef(t)), "give"))
    add(LegalAction(Action.of("end_turn"), msg("hr.la.end_turn"), "end"))
    return out


def _attack_actions(s: State, seat: int, add) -> None:
    combat = s.players[seat].combat
    listed_pools: set[int] = set()
    for t in E.attackable_players(s, seat):
        if s.pool_of[t] in listed_pools:
            continue
        listed_pools.add(s.pool_of[t])
        add(LegalAction(Action.of("attack", target=f"p{t}", amount=combat),
                        msg("hr.la.attack_player", seat=SeatRef(t), n=combat), "attack"))
        if combat > 1:
            add(LegalAction(Action.of("attack", target=f"p{t}", amount=1),
                            msg("hr.la.attack_player", seat=SeatRef(t), n=1), "attack"))
    pooling = V.VARIANTS[s.variant].team_turns
    for c in E.targetable_champions(s, seat):
        card = E.cdef(s, c)
        need = card.defense - s.damage.get(c, 0)
        if need <= combat:
            amount = need
        elif pooling:
            amount = combat
        else:
            continue
        add(LegalAction(Action.of("attack", target=c, amount=amount),
                        msg("hr.la.attack_champion", card=card.lit, seat=SeatRef(E.owner_of(s, c)), n=amount),
                        "attack"))


def _adjacent_teammates(s: State, seat: int) -> list[int]:
    return [t for t in V.teammates(s, seat) if (t - seat) % s.n in (1, s.n - 1)]


# ---------------------------------------------------------------- checking one action


def _bad(key: str, **params) -> IllegalAction:
    return IllegalAction(msg(key, **params))


def _card_arg(action: Action, name: str = "card") -> str:
    value = action.get(name)
    if not isinstance(value, str):
        raise _bad("hr.err.missing_arg", arg=name)
    return value


def _int_arg(action: Action, name: str) -> int:
    value = action.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad("hr.err.missing_arg", arg=name)
    return value


def check(s: State, seat: int, action: Action) -> dict[str, Any] | None:
    """Raise a RuleError unless `action` is legal for `seat`; returns the decision it answers, if any."""
    if s.winners is not None:
        raise GameOver(msg("hr.err.game_over"))
    if seat not in to_act(s):
        raise NotYourTurn(msg("hr.err.not_your_turn"))
    d = E.pending_of(s, seat)
    if d is not None:
        if action.kind != "choose":
            raise _bad("hr.err.decide_first", prompt=msg(f"hr.prompt.{d['kind']}"))
        option = action.get("option")
        if isinstance(option, bool) or option not in E.decision_options(s, d):
            raise _bad("hr.err.bad_option", prompt=msg(f"hr.prompt.{d['kind']}"))
        return d
    p = s.players[seat]
    kind = action.kind
    if kind == "play":
        if _card_arg(action) not in p.hand:
            raise _bad("hr.err.not_in_hand")
    elif kind == "play_all":
        if not p.hand:
            raise _bad("hr.err.not_in_hand")
    elif kind == "ally":
        c = _card_arg(action)
        if c not in E.in_play(p) or not E.ally_ready(s, seat, c):
            raise _bad("hr.err.no_ally")
    elif kind == "expend":
        c = _card_arg(action)
        if c not in p.champions or c in p.expended or "expend" not in E.cdef(s, c).abilities:
            raise _bad("hr.err.cannot_expend")
    elif kind == "sacrifice":
        c = _card_arg(action)
        if c not in E.in_play(p) or "sacrifice" not in E.cdef(s, c).abilities:
            raise _bad("hr.err.cannot_sacrifice")
    elif kind == "buy":
        c = _card_arg(action)
        if (c == "gem" and not s.gems) or (c != "gem" and c not in s.market):
            raise _bad("hr.err.not_in_market")
        cost = _gold_cost(s, c)
        if cost > p.gold:
            raise _bad("hr.err.not_enough_gold", cost=cost, gold=p.gold)
    elif kind == "attack":
        target = _card_arg(action, "target")
        amount = _int_arg(action, "amount")
        if not 1 <= amount <= p.combat:
            raise _bad("hr.err.bad_amount", max=p.combat)
        if target.startswith("p") and target[1:].isdigit():
            if int(target[1:]) not in E.attackable_players(s, seat):
                raise _bad("hr.err.bad_target")
        elif target not in E.targetable_champions(s, seat):
            raise _bad("hr.err.bad_target")
    elif kind == "give_gold":
        to = _int_arg(action, "to")
        amount = _int_arg(action, "amount")
        if not V.VARIANTS[s.variant].team_turns or to not in V.teammates(s, seat) or s.players[to].done:
            raise _bad("hr.err.not_teammate")
        if not 1 <= amount <= p.gold:
            raise _bad("hr.err.bad_amount", max=p.gold)
    elif kind == "pass_card":
        c = _card_arg(action)
        to = _int_arg(action, "to")
        if s.variant != "emperor" or to not in _adjacent_teammates(s, seat):
            raise _bad("hr.err.not_teammate")
        if c not in p.discard:
            raise _bad("hr.err.not_in_discard")
        if p.gold < 1:
            raise _bad("hr.err.not_enough_gold", cost=1, gold=p.gold)
    elif kind != "end_turn":
        raise _bad("hr.err.unknown_action", valid=", ".join(MAIN_KINDS))
    return None


def perform(ctx: E.Ctx, seat: int, action: Action, decision: dict[str, Any] | None) -> None:
    """Carry out an action already accepted by `check`."""
    if decision is not None:
        E.answer(ctx, decision, action["option"])
        return
    kind = action.kind
    if kind == "play":
        E.play(ctx, seat, action["card"])
    elif kind == "play_all":
        E.play_all(ctx, seat)
    elif kind == "ally":
        E.use_ally(ctx, seat, action["card"])
    elif kind == "expend":
        E.expend(ctx, seat, action["card"])
    elif kind == "sacrifice":
        E.sacrifice(ctx, seat, action["card"])
    elif kind == "buy":
        E.buy(ctx, seat, action["card"])
    elif kind == "attack":
        E.attack(ctx, seat, action["target"], action["amount"])
    elif kind == "give_gold":
        E.give_gold(ctx, seat, action["to"], action["amount"])
    elif kind == "pass_card":
        E.pass_card(ctx, seat, action["card"], action["to"])
    else:
        E.end_turn(ctx, seat)
