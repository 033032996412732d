"""Legal moves of Hero Realms: listing them with labels, and checking one without listing all."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.base import Action, ArgValue, GameOver, IllegalAction, LegalAction, NotYourTurn
from rules.hero_realms import descriptions as describe
from rules.hero_realms import engine, variants
from rules.hero_realms.state import Option, PendingDecision, State
from rules.hero_realms.text import describe_list
from rules.text import Lit, Msg, Param, SeatRef, msg


def to_act(s: State) -> frozenset[int]:
    if s.winners is not None:
        return frozenset()
    b = engine.blocking(s)
    if b is not None:
        return frozenset({b["seat"]})
    return frozenset(a for a in s.active if not s.players[a].done and not s.players[a].waiting)


def _lit(s: State, cid: str) -> Lit:
    return engine.card_of(s, cid).lit


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


def _option_label(s: State, d: PendingDecision, option: Option) -> Msg:
    kind = d["kind"]
    seat = d["seat"]
    if option == "none":
        return msg("hr.la.sacrifice_none" if kind == "sacrifice" else "hr.la.decline")
    if kind == "choose":
        return msg("hr.la.option", effect=describe_list(d["options"][engine.answer_number(option)]))
    if kind == "stun":
        card = engine.answer_text(option)
        return msg("hr.la.stun", card=_lit(s, card), seat=SeatRef(engine.owner_of(s, card)))
    if kind == "prepare":
        return msg("hr.la.prepare", card=_lit(s, engine.answer_text(option)))
    if kind == "to_top":
        return msg("hr.la.to_top", card=_lit(s, engine.answer_text(option)))
    if kind == "draw_count":
        return msg("hr.la.draw_n", n=option)
    if kind == "discard":
        return msg("hr.la.discard", card=_lit(s, engine.answer_text(option)))
    if kind == "opponent":
        return msg("hr.la.target_opponent", seat=SeatRef(int(engine.answer_text(option)[1:])))
    if kind == "sacrifice":
        card = engine.answer_text(option)
        zone = "hand" if card in s.players[seat].hand else "discard"
        return msg(f"hr.la.sacrifice_from_{zone}", card=_lit(s, card))
    if kind == "pass_card":
        card = engine.answer_text(option)
        if card.startswith("deck:"):
            return msg("hr.la.pass_from_deck", card=engine.CARDS[card[5:]].lit)
        return msg("hr.la.pass_to_emperor", card=_lit(s, card))
    raise ValueError(kind)


def _listed_options(s: State, d: PendingDecision) -> list[Option]:
    """Options with duplicate cards of one zone listed once (any copy is accepted when applied)."""
    options = engine.decision_options(s, d)
    p = s.players[d["seat"]]
    seen: set[tuple[str, str]] = set()
    out: list[Option] = []
    for o in options:
        if isinstance(o, str) and o in s.cards:
            zone = "hand" if o in p.hand else "discard" if o in p.discard else o
            mark = (zone, s.cards[o])
            if mark in seen:
                continue
            seen.add(mark)
        out.append(o)
    return out


def decision_actions(s: State, d: PendingDecision) -> list[LegalAction]:
    return [
        LegalAction(Action.of("choose", option=o), _option_label(s, d, o), "decide")
        for o in _listed_options(s, d)
    ]


# ---------------------------------------------------------------- main phase


def _gold_cost(s: State, target: str) -> int:
    return engine.CARDS["fire_gem"].cost if target == "gem" else engine.card_of(s, target).cost


def main_actions(s: State, seat: int) -> list[LegalAction]:
    p = s.players[seat]
    out: list[LegalAction] = []
    add = out.append
    for c in _first_by_key(s, p.hand):
        add(LegalAction(Action.of("play", card=c), msg("hr.la.play", card=_lit(s, c)), "play",
                        describe.card(engine.card_of(s, c))))
    if len(p.hand) > 1:
        add(LegalAction(Action.of("play_all"), msg("hr.la.play_all", n=len(p.hand)), "play"))
    for c in _first_by_key(s, [c for c in p.champions if c not in p.expended]):
        card = engine.card_of(s, c)
        if "expend" in card.abilities:
            add(LegalAction(Action.of("expend", card=c),
                            msg("hr.la.expend", card=card.lit, effect=describe_list(card.abilities["expend"])),
                            "expend"))
    for c in _first_by_key(s, [c for c in engine.in_play(p) if engine.ally_ready(s, seat, c)]):
        card = engine.card_of(s, c)
        add(LegalAction(Action.of("ally", card=c),
                        msg("hr.la.ally", card=card.lit, effect=describe_list(card.abilities["ally"])), "ally"))
    for c in _first_by_key(s, [c for c in engine.in_play(p) if "sacrifice" in engine.card_of(s, c).abilities]):
        card = engine.card_of(s, c)
        add(LegalAction(Action.of("sacrifice", card=c),
                        msg("hr.la.sacrifice", card=card.lit, effect=describe_list(card.abilities["sacrifice"])),
                        "sacrifice"))
    for c in _first_by_key(s, s.market):
        card = engine.card_of(s, c)
        if card.cost <= p.gold:
            add(LegalAction(Action.of("buy", card=c), msg("hr.la.buy", card=card.lit, cost=card.cost), "buy",
                            describe.card(card)))
    if s.gems and _gold_cost(s, "gem") <= p.gold:
        add(LegalAction(Action.of("buy", card="gem"),
                        msg("hr.la.buy", card=engine.CARDS["fire_gem"].lit, cost=_gold_cost(s, "gem")), "buy",
                        describe.card(engine.CARDS["fire_gem"])))
    if p.combat > 0:
        _attack_actions(s, seat, add)
    if p.gold > 0 and variants.VARIANTS[s.variant].team_turns:
        for t in variants.teammates(s, seat):
            if t in s.active and not s.players[t].done:
                add(LegalAction(Action.of("give_gold", to=t, amount=p.gold),
                                msg("hr.la.give_gold", seat=SeatRef(t), n=p.gold), "give"))
    if p.gold >= 1 and s.variant == "emperor":
        for t in adjacent_teammates(s, seat):
            for c in _first_by_key(s, p.discard):
                add(LegalAction(Action.of("pass_card", card=c, to=t),
                                msg("hr.la.pass_card", card=_lit(s, c), seat=SeatRef(t)), "give"))
    if can_wait(s, seat):
        add(LegalAction(Action.of("wait"), msg("hr.la.wait"), "end"))
    add(LegalAction(Action.of("end_turn"), msg("hr.la.end_turn"), "end"))
    return out


def _attack_actions(s: State, seat: int, add: Callable[[LegalAction], None]) -> None:
    combat = s.players[seat].combat
    listed_pools: set[int] = set()
    for t in engine.attackable_players(s, seat):
        if s.pool_of[t] in listed_pools:
            continue
        listed_pools.add(s.pool_of[t])
        add(LegalAction(Action.of("attack", target=f"p{t}", amount=combat),
                        msg("hr.la.attack_player", seat=SeatRef(t), n=combat), "attack"))
        if combat > 1:
            add(LegalAction(Action.of("attack", target=f"p{t}", amount=1),
                            msg("hr.la.attack_player", seat=SeatRef(t), n=1), "attack"))
    pooling = variants.VARIANTS[s.variant].team_turns
    for c in engine.targetable_champions(s, seat):
        card = engine.card_of(s, c)
        need = card.defense - s.damage.get(c, 0)
        if need <= combat:
            amount = need
        elif pooling:
            amount = combat
        else:
            continue
        add(LegalAction(Action.of("attack", target=c, amount=amount),
                        msg("hr.la.attack_champion", card=card.lit, seat=SeatRef(engine.owner_of(s, c)), n=amount),
                        "attack"))


def adjacent_teammates(s: State, seat: int) -> list[int]:
    return [t for t in variants.teammates(s, seat) if (t - seat) % s.n in (1, s.n - 1)]


# ---------------------------------------------------------------- checking one action

#: The arguments each move takes: an action with other or missing arguments is not legal.
ARGS: dict[str, frozenset[str]] = {
    "play": frozenset({"card"}), "play_all": frozenset(), "ally": frozenset({"card"}),
    "expend": frozenset({"card"}), "sacrifice": frozenset({"card"}), "buy": frozenset({"card"}),
    "attack": frozenset({"target", "amount"}), "give_gold": frozenset({"to", "amount"}),
    "pass_card": frozenset({"card", "to"}), "end_turn": frozenset(), "wait": frozenset(),
    "choose": frozenset({"option"}),
}
#: How many legal moves a refusal lists.
LISTED = 6


def _bad(key: str, **params: Param) -> IllegalAction:
    return IllegalAction(msg(key, **params))


def label_list(labels: Sequence[Param]) -> Param:
    """Several labels as one message ("a, b, c, …"), the first LISTED of them."""
    if not labels:
        return msg("hr.list.none")
    shown = labels[:LISTED]
    out = shown[-1] if len(labels) <= LISTED else msg("hr.list.more", a=shown[-1])
    for label in reversed(shown[:-1]):
        out = msg("hr.list.comma", a=label, b=out)
    return out


def _valid(s: State, seat: int, kinds: tuple[str, ...] = ()) -> Param:
    """The seat's legal moves (of `kinds`, or all when none of those are legal) as people read them."""
    d = engine.pending_of(s, seat)
    legal = decision_actions(s, d) if d is not None else main_actions(s, seat)
    wanted = [la for la in legal if la.action.kind in kinds]
    return label_list([la.label for la in wanted or legal])


def _card_name(s: State, cid: ArgValue | None) -> Lit | None:
    if isinstance(cid, str) and cid in s.cards:
        return engine.card_of(s, cid).lit
    return None


def _seat_arg(s: State, value: ArgValue) -> int | None:
    """A seat written as an integer (`to`) or as "p<seat>" (attack targets), when it exists."""
    if isinstance(value, str) and value.startswith("p") and value[1:].isdecimal():
        value = int(value[1:])
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < s.n:
        return value
    return None


def _why_not_attackable(s: State, seat: int, victim: int) -> IllegalAction:
    if s.team_of[victim] == s.team_of[seat]:
        return _bad("hr.err.own_team")
    if s.players[victim].eliminated:
        return _bad("hr.err.eliminated", seat=SeatRef(victim))
    reachable = variants.attackable_players(s, seat, lambda _o: False)
    if victim not in reachable:
        allowed = label_list([SeatRef(o) for o in reachable])
        return _bad("hr.err.out_of_reach", seat=SeatRef(victim), valid=allowed)
    guards = [c for p in variants.protectors(s, victim) for c in s.players[p].champions
              if engine.card_of(s, c).guard and c not in s.players[p].expended]
    return _bad("hr.err.guarded", seat=SeatRef(victim), card=engine.card_of(s, guards[0]).lit)


def _why_not_targetable(s: State, seat: int, cid: str) -> IllegalAction:
    owner = next((o for o in range(s.n) if cid in s.players[o].champions), None)
    if owner is None:
        return _bad("hr.err.not_a_champion", card=engine.card_of(s, cid).lit, valid=_valid(s, seat, ("attack",)))
    if s.team_of[owner] == s.team_of[seat]:
        return _bad("hr.err.own_team")
    if owner not in variants.champion_owners(s, seat):
        return _bad("hr.err.champion_out_of_reach", card=engine.card_of(s, cid).lit, seat=SeatRef(owner))
    guards = [c for p in variants.protectors(s, owner) for c in s.players[p].champions
              if engine.card_of(s, c).guard and c not in s.players[p].expended]
    return _bad("hr.err.champion_guarded", card=engine.card_of(s, cid).lit,
                guard=engine.card_of(s, guards[0]).lit if guards else engine.card_of(s, cid).lit)


def check(s: State, seat: int, action: Action) -> PendingDecision | None:
    """Raise a RuleError unless `action` is legal for `seat`; returns the decision it answers, if any.

    Refusals name cards and players as people read them and list what would be legal instead."""
    if s.winners is not None:
        raise GameOver(msg("hr.err.game_over"))
    if seat not in to_act(s):
        raise NotYourTurn(msg("hr.err.not_your_turn"))
    kind = action.kind
    if kind not in ARGS:
        raise _bad("hr.err.unknown_action", valid=_valid(s, seat))
    if set(action.arg_dict) != ARGS[kind]:
        raise _bad("hr.err.malformed", valid=_valid(s, seat, (kind,)))
    d = engine.pending_of(s, seat)
    if d is not None:
        if kind != "choose":
            raise _bad("hr.err.decide_first", prompt=msg(f"hr.prompt.{d['kind']}"), valid=_valid(s, seat))
        option = action["option"]
        if isinstance(option, bool) or option not in engine.decision_options(s, d):
            raise _bad("hr.err.bad_option", prompt=msg(f"hr.prompt.{d['kind']}"), valid=_valid(s, seat))
        return d
    if kind == "choose":
        raise _bad("hr.err.no_decision", valid=_valid(s, seat))
    p = s.players[seat]
    card = action.get("card")
    found = _card_name(s, card)
    if kind in ("play", "ally", "expend", "sacrifice", "pass_card") and found is None:
        raise _bad("hr.err.no_such_card", valid=_valid(s, seat, (kind,)))
    name: Param = found if found is not None else msg("hr.card.unknown")
    if kind == "play":
        if card not in p.hand:
            raise _bad("hr.err.not_in_hand", card=name, valid=_valid(s, seat, ("play",)))
    elif kind == "play_all":
        if not p.hand:
            raise _bad("hr.err.empty_hand", valid=_valid(s, seat))
    elif kind == "ally":
        if card not in engine.in_play(p) or not engine.ally_ready(s, seat, card):
            raise _bad("hr.err.no_ally", card=name, valid=_valid(s, seat, ("ally",)))
    elif kind == "expend":
        if card not in p.champions or card in p.expended or "expend" not in engine.card_of(s, card).abilities:
            raise _bad("hr.err.cannot_expend", card=name, valid=_valid(s, seat, ("expend",)))
    elif kind == "sacrifice":
        if card not in engine.in_play(p) or "sacrifice" not in engine.card_of(s, card).abilities:
            raise _bad("hr.err.cannot_sacrifice", card=name, valid=_valid(s, seat, ("sacrifice",)))
    elif kind == "buy":
        if card == "gem":
            if not s.gems:
                raise _bad("hr.err.no_gems", valid=_valid(s, seat, ("buy",)))
        elif card not in s.market:
            if name is None:
                raise _bad("hr.err.no_such_card", valid=_valid(s, seat, ("buy",)))
            raise _bad("hr.err.not_in_market", card=name, valid=_valid(s, seat, ("buy",)))
        cost = _gold_cost(s, card)
        if cost > p.gold:
            shown = engine.CARDS["fire_gem"].lit if card == "gem" else name
            raise _bad("hr.err.not_enough_gold", card=shown, cost=cost, gold=p.gold)
    elif kind == "attack":
        target, amount = action["target"], action["amount"]
        if isinstance(amount, bool) or not isinstance(amount, int) or not isinstance(target, str):
            raise _bad("hr.err.malformed", valid=_valid(s, seat, ("attack",)))
        if p.combat <= 0:
            raise _bad("hr.err.no_combat", valid=_valid(s, seat))
        if not 1 <= amount <= p.combat:
            raise _bad("hr.err.bad_amount", max=p.combat)
        victim = _seat_arg(s, target)
        if victim is not None:
            if victim not in engine.attackable_players(s, seat):
                raise _why_not_attackable(s, seat, victim)
        elif target in s.cards:
            if target not in engine.targetable_champions(s, seat):
                raise _why_not_targetable(s, seat, target)
        else:
            raise _bad("hr.err.no_such_target", valid=_valid(s, seat, ("attack",)))
    elif kind == "give_gold":
        to, amount = _seat_arg(s, action["to"]), action["amount"]
        if isinstance(action["to"], str) or to is None or not variants.VARIANTS[s.variant].team_turns \
                or to not in variants.teammates(s, seat) or s.players[to].done:
            raise _bad("hr.err.not_teammate", valid=_valid(s, seat, ("give_gold",)))
        if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= p.gold:
            raise _bad("hr.err.bad_gold", max=p.gold)
    elif kind == "pass_card":
        to = _seat_arg(s, action["to"])
        if isinstance(action["to"], str) or to is None or s.variant != "emperor" \
                or to not in adjacent_teammates(s, seat):
            raise _bad("hr.err.not_adjacent", valid=_valid(s, seat, ("pass_card",)))
        if card not in p.discard:
            raise _bad("hr.err.not_in_discard", card=name)
        if p.gold < 1:
            raise _bad("hr.err.not_enough_gold", card=name, cost=1, gold=p.gold)
    elif kind == "wait" and not can_wait(s, seat):
        raise _bad("hr.err.cannot_wait", valid=_valid(s, seat))
    return None


def can_wait(s: State, seat: int) -> bool:
    """In a shared turn, a seat may hold its moves until a teammate still playing ends or gives it gold."""
    if not variants.VARIANTS[s.variant].team_turns:
        return False
    return any(o != seat and acting(s, o) for o in s.active)


def acting(s: State, seat: int) -> bool:
    p = s.players[seat]
    return seat in s.active and not p.done and not p.waiting


def perform(ctx: engine.Ctx, seat: int, action: Action, decision: PendingDecision | None) -> None:
    """Carry out an action already accepted by `check` (so its arguments have the types read here)."""
    if decision is not None:
        engine.answer(ctx, decision, action["option"])
        return
    kind = action.kind
    if kind == "play":
        engine.play(ctx, seat, action.text("card"))
    elif kind == "play_all":
        engine.play_all(ctx, seat)
    elif kind == "ally":
        engine.use_ally(ctx, seat, action.text("card"))
    elif kind == "expend":
        engine.expend(ctx, seat, action.text("card"))
    elif kind == "sacrifice":
        engine.sacrifice(ctx, seat, action.text("card"))
    elif kind == "buy":
        engine.buy(ctx, seat, action.text("card"))
    elif kind == "attack":
        engine.attack(ctx, seat, action.text("target"), action.number("amount"))
    elif kind == "give_gold":
        engine.give_gold(ctx, seat, action.number("to"), action.number("amount"))
    elif kind == "pass_card":
        engine.pass_card(ctx, seat, action.text("card"), action.number("to"))
    elif kind == "wait":
        engine.wait(ctx, seat)
    else:
        engine.end_turn(ctx, seat)
