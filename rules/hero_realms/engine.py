"""Hero Realms mechanics on a mutable state copy: drawing, effects, decisions, combat, turns, eliminations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from rules.base import Event
from rules.hero_realms import variants
from rules.hero_realms.cards import CardDef, Effect, cards
from rules.hero_realms.state import LOG_SIZE, Option, PendingDecision, Player, State
from rules.hero_realms.text import card_names, counted, describe_list
from rules.rng import Rng
from rules.text import Msg, SeatRef, msg

CARDS = cards()
HAND_SIZE = 5
HUNTER_BONUS_HEALTH = 10

#: Effects that may stop resolution for a decision.
DECISION_EFFECTS = frozenset({
    "choose", "stun_target_champion", "prepare_champion", "discard_to_top", "draw_then_discard",
    "opponent_discards", "sacrifice_from_hand_or_discard",
})


def card_of(state: State, cid: str) -> CardDef:
    """The card definition of the card instance `cid`."""
    return CARDS[state.cards[cid]]


class Ctx:
    """One `apply` in progress: the state copy being changed, the events, and whether it drew or revealed."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.events: list[Event] = []
        self.hidden = False
        self._rng: Rng | None = None

    @property
    def rng(self) -> Rng:
        if self._rng is None:
            self._rng = Rng(self.s.rng)
        return self._rng

    def finish(self) -> None:
        if self._rng is not None:
            self.s.rng = self._rng.state

    def announce(self, message: Msg) -> None:
        """A public event, also kept in the state's log of recent events (views show it)."""
        self.events.append(Event(message))
        self.s.log.append(message.to_json())
        if len(self.s.log) > LOG_SIZE:
            del self.s.log[: len(self.s.log) - LOG_SIZE]

    def tell(self, seat: int, message: Msg) -> None:
        """An event only `seat` sees."""
        self.events.append(Event(message, frozenset({seat})))


# ---------------------------------------------------------------- queries


def has_ready_guard(state: State, seat: int) -> bool:
    p = state.players[seat]
    return any(card_of(state, c).guard and c not in p.expended for c in p.champions)


def attackable_players(state: State, seat: int) -> list[int]:
    return variants.attackable_players(state, seat, lambda s: has_ready_guard(state, s))


def targetable_champions(state: State, seat: int) -> list[str]:
    """Opposing champions `seat` may attack or target now (guards respected)."""
    out: list[str] = []
    for owner in variants.champion_owners(state, seat):
        protected = any(has_ready_guard(state, p) for p in variants.protectors(state, owner))
        for c in state.players[owner].champions:
            if not protected or card_of(state, c).guard:
                out.append(c)
    return out


def owner_of(state: State, cid: str) -> int:
    for seat, p in enumerate(state.players):
        if cid in p.champions or cid in p.played or cid in p.hand or cid in p.discard or cid in p.deck:
            return seat
    raise KeyError(cid)


def in_play(p: Player) -> list[str]:
    return p.played + p.champions


def ally_ready(state: State, seat: int, cid: str) -> bool:
    """Whether the ally ability of a card `seat` has in play can be used now."""
    p = state.players[seat]
    card = card_of(state, cid)
    if "ally" not in card.abilities or cid in p.allies_used or card.faction is None:
        return False
    return any(o != cid and card_of(state, o).faction == card.faction for o in in_play(p))


def pending_of(state: State, seat: int) -> PendingDecision | None:
    for d in state.pending:
        if d["seat"] == seat:
            return d
    return None


def blocking(state: State) -> PendingDecision | None:
    """A pending decision of a seat outside the current turn: it must be answered before anything else."""
    for d in state.pending:
        if d["seat"] not in state.active:
            return d
    return None


# ---------------------------------------------------------------- card movement


def draw(ctx: Ctx, seat: int, n: int) -> int:
    """Draw up to n cards, shuffling the discard pile into a new deck when the deck runs out."""
    s = ctx.s
    p = s.players[seat]
    drawn: list[str] = []
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break
            p.deck, p.discard = p.discard, []
            ctx.rng.shuffle(p.deck)
            ctx.hidden = True
            ctx.announce(msg("hr.ev.shuffle", seat=SeatRef(seat)))
        drawn.append(p.deck.pop())
    if drawn:
        ctx.hidden = True
        p.hand.extend(drawn)
        ctx.announce(counted("hr.ev.drew", len(drawn), seat=SeatRef(seat)))
        ctx.tell(seat, msg("hr.ev.drew_private", cards=card_names([card_of(s, c) for c in drawn])))
    return len(drawn)


def to_sacrifice_pile(s: State, cid: str) -> None:
    """Sacrificed cards leave the game; a Fire Gem goes back to the gem pile instead."""
    if s.cards[cid] == "fire_gem":
        s.gems.append(cid)
    else:
        s.sacrificed.append(cid)


def stun(ctx: Ctx, cid: str) -> None:
    s = ctx.s
    owner = owner_of(s, cid)
    p = s.players[owner]
    p.champions.remove(cid)
    p.expended.discard(cid)
    s.damage.pop(cid, None)
    p.discard.append(cid)
    ctx.announce(msg("hr.ev.stunned", card=card_of(s, cid).lit, seat=SeatRef(owner)))


def owe_discard(ctx: Ctx, target: int, n: int) -> None:
    ctx.s.players[target].owed_discards += n
    ctx.hidden = True
    ctx.announce(counted("hr.ev.owes_discard", n, seat=SeatRef(target)))


def gain(ctx: Ctx, seat: int, pool: str, amount: int) -> None:
    s = ctx.s
    if amount <= 0:
        return
    if pool == "health":
        s.health[s.pool_of[seat]] += amount
        ctx.announce(msg("hr.ev.healed", seat=SeatRef(seat), n=amount, health=s.health[s.pool_of[seat]]))
    elif pool == "gold":
        s.players[seat].gold += amount
    else:
        s.players[seat].combat += amount


# ---------------------------------------------------------------- effects


def _count_for(s: State, seat: int, name: str, arg: Mapping[str, object], source: str | None) -> int:
    p = s.players[seat]
    if name == "per_champion":
        return len(p.champions)
    if name == "per_other_champion":
        return len([c for c in p.champions if c != source])
    if name == "per_other_guard":
        return len([c for c in p.champions if c != source and card_of(s, c).guard])
    faction = arg["faction"]
    return len([c for c in in_play(p) if card_of(s, c).faction == faction and not (arg["other"] and c == source)])


class _DecisionBase(TypedDict):
    """What every decision an effect asks for carries: who decides, the card that asked, the effects left after."""

    seat: int
    source: str | None
    rest: list[Effect]


def _push(s: State, decision: PendingDecision, index: int | None = None) -> None:
    if index is None:
        s.pending.append(decision)
    else:
        s.pending.insert(index, decision)


def resolve(ctx: Ctx, seat: int, effects: Sequence[Effect], source: str | None) -> None:
    """Resolve effects in order; stop at the first one that needs a decision (it keeps the rest)."""
    s = ctx.s
    for i, eff in enumerate(effects):
        if s.winners is not None:
            return
        ((name, arg),) = eff.items()
        rest = list(effects[i + 1:])
        base: _DecisionBase = {"seat": seat, "source": source, "rest": rest}
        if name in ("gold", "combat", "health"):
            gain(ctx, seat, name, arg)
        elif name == "draw":
            draw(ctx, seat, arg)
        elif name in ("per_champion", "per_other_champion", "per_other_guard"):
            ((pool, amount),) = arg.items()
            gain(ctx, seat, pool, amount * _count_for(s, seat, name, arg, source))
        elif name == "per_faction_in_play":
            ((pool, amount),) = arg["gain"].items()
            gain(ctx, seat, pool, amount * _count_for(s, seat, name, arg, source))
        elif name == "next_action_to_top":
            s.players[seat].next_action_top = True
        elif name == "next_acquired_to_top":
            s.players[seat].next_card_top = True
        elif name == "next_acquired_to_hand":
            s.players[seat].next_card_hand = True
        elif name == "choose":
            _push(s, {**base, "kind": "choose", "options": [list(o) for o in arg]})
            return
        elif name == "stun_target_champion":
            targets = targetable_champions(s, seat)
            if not targets:
                continue
            if len(targets) == 1 and not arg["optional"]:
                stun(ctx, targets[0])
                continue
            _push(s, {**base, "kind": "stun", "optional": arg["optional"]})
            return
        elif name == "prepare_champion":
            p = s.players[seat]
            ready = [c for c in p.champions if c in p.expended]
            if not ready:
                continue
            if len(ready) == 1:
                prepare(ctx, seat, ready[0])
                continue
            _push(s, {**base, "kind": "prepare"})
            return
        elif name == "discard_to_top":
            optional = "up_to" in arg
            options = discard_to_top_options(s, seat, arg["filter"])
            if not options:
                continue
            if not optional and len({s.cards[c] for c in options}) == 1:
                to_top(ctx, seat, options[0])
                continue
            _push(s, {**base, "kind": "to_top", "optional": optional, "filter": arg["filter"]})
            return
        elif name == "draw_then_discard":
            p = s.players[seat]
            if "count" in arg:
                drawn = draw(ctx, seat, arg["count"])
                if drawn and p.hand:
                    _push(s, {**base, "kind": "discard", "count": min(drawn, len(p.hand))})
                    return
                continue
            if not p.deck and not p.discard:
                continue
            _push(s, {**base, "kind": "draw_count", "up_to": arg["up_to"]})
            return
        elif name == "opponent_discards":
            victims = variants.discard_targets(s, seat)
            if len(victims) == 1:
                owe_discard(ctx, victims[0], arg)
            elif victims:
                _push(s, {**base, "kind": "opponent", "count": arg})
                return
        elif name == "sacrifice_from_hand_or_discard":
            p = s.players[seat]
            if not p.hand and not p.discard:
                continue
            _push(s, {**base, "kind": "sacrifice", "left": arg["up_to"], "done": 0,
                      "bonus": list(arg.get("bonus", []))})
            return
        else:  # pragma: no cover - the loader rejects unknown effects
            raise ValueError(name)


def prepare(ctx: Ctx, seat: int, cid: str) -> None:
    ctx.s.players[seat].expended.discard(cid)
    ctx.announce(msg("hr.ev.prepared", seat=SeatRef(seat), card=card_of(ctx.s, cid).lit))


def to_top(ctx: Ctx, seat: int, cid: str) -> None:
    p = ctx.s.players[seat]
    p.discard.remove(cid)
    p.deck.append(cid)
    ctx.announce(msg("hr.ev.to_top", seat=SeatRef(seat), card=card_of(ctx.s, cid).lit))


def discard_to_top_options(s: State, seat: int, flt: str) -> list[str]:
    return [c for c in s.players[seat].discard if flt == "any" or card_of(s, c).champion]


def decision_options(s: State, d: PendingDecision) -> Sequence[Option]:
    """The raw option values of a pending decision (card ids, seats as "p<n>", ints, "none"...)."""
    seat, kind = d["seat"], d["kind"]
    p = s.players[seat]
    if kind == "choose":
        return list(range(len(d["options"])))
    if kind == "stun":
        return targetable_champions(s, seat) + (["none"] if d["optional"] else [])
    if kind == "prepare":
        return [c for c in p.champions if c in p.expended]
    if kind == "to_top":
        return discard_to_top_options(s, seat, d["filter"]) + (["none"] if d["optional"] else [])
    if kind == "draw_count":
        return list(range(d["up_to"] + 1))
    if kind == "discard":
        return list(p.hand)
    if kind == "opponent":
        return [f"p{t}" for t in variants.discard_targets(s, seat)]
    if kind == "sacrifice":
        return [*p.hand, *p.discard, "none"]
    if kind == "pass_card":
        decks = sorted({f"deck:{s.cards[c]}" for c in p.deck})
        return [*p.hand, *p.discard, *decks, "none"]
    raise ValueError(kind)


def answer_text(option: Option) -> str:
    """An answer that is text (a card id, "p<seat>", "deck:<key>", "none"), as `moves.check` accepted it."""
    if not isinstance(option, str):
        raise TypeError(f"expected a text answer, got {option!r}")
    return option


def answer_number(option: Option) -> int:
    """An answer that is a number (an option's index, how many cards to draw), as `moves.check` accepted it."""
    if not isinstance(option, int):
        raise TypeError(f"expected a number answer, got {option!r}")
    return option


def answer(ctx: Ctx, d: PendingDecision, option: Option) -> None:
    """Apply a decision's answer (already validated) and continue resolving what followed it."""
    s = ctx.s
    seat, kind = d["seat"], d["kind"]
    index = s.pending.index(d)
    s.pending.pop(index)
    p = s.players[seat]
    rest = d["rest"]
    if kind == "choose":
        chosen = d["options"][answer_number(option)]
        ctx.announce(msg("hr.ev.chose", seat=SeatRef(seat), effect=describe_list(chosen)))
        rest = list(chosen) + rest
    elif kind == "stun":
        if option != "none":
            stun(ctx, answer_text(option))
    elif kind == "prepare":
        prepare(ctx, seat, answer_text(option))
    elif kind == "to_top":
        if option != "none":
            to_top(ctx, seat, answer_text(option))
    elif kind == "draw_count":
        drawn = draw(ctx, seat, answer_number(option)) if option else 0
        if drawn and p.hand:
            _push(s, {**d, "kind": "discard", "count": min(drawn, len(p.hand))}, index)
            return
    elif kind == "discard":
        cid = answer_text(option)
        p.hand.remove(cid)
        p.discard.append(cid)
        ctx.hidden = True
        ctx.announce(msg("hr.ev.discarded", seat=SeatRef(seat), card=card_of(s, cid).lit))
        if d["count"] > 1 and p.hand:
            _push(s, {**d, "count": d["count"] - 1}, index)
            return
    elif kind == "opponent":
        owe_discard(ctx, int(answer_text(option)[1:]), d["count"])
    elif kind == "sacrifice":
        if option != "none":
            cid = answer_text(option)
            zone = p.hand if cid in p.hand else p.discard
            if zone is p.hand:
                ctx.hidden = True
            zone.remove(cid)
            to_sacrifice_pile(s, cid)
            ctx.announce(msg("hr.ev.sacrificed", seat=SeatRef(seat), card=card_of(s, cid).lit))
            d = {**d, "left": d["left"] - 1, "done": d["done"] + 1}
            if d["left"] > 0 and (p.hand or p.discard):
                _push(s, d, index)
                return
        if d["done"] and d["bonus"]:
            rest = list(d["bonus"]) + rest
    elif kind == "pass_card":
        if option != "none":
            _pass_to_emperor(ctx, seat, answer_text(option))
        return
    resolve(ctx, seat, rest, d["source"])


def _pass_to_emperor(ctx: Ctx, seat: int, option: str) -> None:
    s = ctx.s
    p = s.players[seat]
    if option.startswith("deck:"):
        key = option[5:]
        cid = next(c for c in reversed(p.deck) if s.cards[c] == key)
        p.deck.remove(cid)
        ctx.hidden = True
    else:
        cid = option
        if cid in p.hand:
            ctx.hidden = True
        (p.hand if cid in p.hand else p.discard).remove(cid)
    emperor = next(o for o in range(s.n) if s.team_of[o] == s.team_of[seat] and s.roles[o] == "emperor")
    s.players[emperor].discard.append(cid)
    ctx.announce(msg("hr.ev.passed", seat=SeatRef(seat), card=card_of(s, cid).lit, to=SeatRef(emperor)))


# ---------------------------------------------------------------- main-phase moves


def play(ctx: Ctx, seat: int, cid: str) -> None:
    s = ctx.s
    p = s.players[seat]
    p.hand.remove(cid)
    # The card was hidden in the hand and everyone has now seen it: no undo past this (see NOTES.md).
    ctx.hidden = True
    card = card_of(s, cid)
    (p.champions if card.champion else p.played).append(cid)
    ctx.announce(msg("hr.ev.played", seat=SeatRef(seat), card=card.lit))
    if "primary" in card.abilities:
        resolve(ctx, seat, list(card.abilities["primary"]), cid)


def _play_order(s: State, cid: str) -> int:
    """Champions first (cards counting champions then see them), cards asking for decisions last."""
    card = card_of(s, cid)
    if card.champion:
        return 0
    if any(next(iter(e)) in DECISION_EFFECTS for e in card.abilities.get("primary", ())):
        return 2
    return 1


def play_all(ctx: Ctx, seat: int) -> None:
    """Play every card in hand, stopping when a decision is needed."""
    s = ctx.s
    p = s.players[seat]
    while p.hand and pending_of(s, seat) is None and s.winners is None:
        cid = min(p.hand, key=lambda c: _play_order(s, c))
        play(ctx, seat, cid)


def use_ally(ctx: Ctx, seat: int, cid: str) -> None:
    s = ctx.s
    s.players[seat].allies_used.add(cid)
    card = card_of(s, cid)
    ctx.announce(msg("hr.ev.ally", seat=SeatRef(seat), card=card.lit))
    resolve(ctx, seat, list(card.abilities["ally"]), cid)


def expend(ctx: Ctx, seat: int, cid: str) -> None:
    s = ctx.s
    s.players[seat].expended.add(cid)
    card = card_of(s, cid)
    ctx.announce(msg("hr.ev.expended", seat=SeatRef(seat), card=card.lit))
    resolve(ctx, seat, list(card.abilities["expend"]), cid)


def sacrifice(ctx: Ctx, seat: int, cid: str) -> None:
    s = ctx.s
    p = s.players[seat]
    if cid in p.champions:
        p.champions.remove(cid)
        p.expended.discard(cid)
        s.damage.pop(cid, None)
    else:
        p.played.remove(cid)
    to_sacrifice_pile(s, cid)
    card = card_of(s, cid)
    ctx.announce(msg("hr.ev.sacrificed_ability", seat=SeatRef(seat), card=card.lit))
    resolve(ctx, seat, list(card.abilities["sacrifice"]), cid)


def buy(ctx: Ctx, seat: int, target: str) -> None:
    s = ctx.s
    p = s.players[seat]
    if target == "gem":
        cid = s.gems.pop()
    else:
        cid = target
        index = s.market.index(cid)
        if s.market_deck:
            s.market[index] = s.market_deck.pop()
            ctx.hidden = True
        else:
            s.market.pop(index)
    card = card_of(s, cid)
    p.gold -= card.cost
    where = "discard"
    if p.next_card_hand:
        where = "hand"
    elif p.next_card_top or (p.next_action_top and card.type == "action"):
        where = "top"
    p.next_card_hand = False
    p.next_card_top = False
    if card.type == "action":
        p.next_action_top = False
    {"hand": p.hand, "top": p.deck, "discard": p.discard}[where].append(cid)
    ctx.announce(msg(f"hr.ev.bought_{where}", seat=SeatRef(seat), card=card.lit, cost=card.cost))


def attack(ctx: Ctx, seat: int, target: str, amount: int) -> None:
    s = ctx.s
    p = s.players[seat]
    p.combat -= amount
    if target.startswith("p"):
        victim = int(target[1:])
        pool = s.pool_of[victim]
        s.health[pool] -= amount
        if s.health[pool] > 0:
            ctx.announce(msg("hr.ev.attack_player", seat=SeatRef(seat), target=SeatRef(victim), n=amount,
                        health=s.health[pool]))
        else:  # health is never shown below zero
            ctx.announce(msg("hr.ev.attack_player_out", seat=SeatRef(seat), target=SeatRef(victim), n=amount))
        if s.health[pool] <= 0:
            eliminate(ctx, [o for o in range(s.n) if s.pool_of[o] == pool and not s.players[o].eliminated])
        return
    card = card_of(s, target)
    s.damage[target] = s.damage.get(target, 0) + amount
    ctx.announce(msg("hr.ev.attack_champion", seat=SeatRef(seat), card=card.lit, n=amount))
    if s.damage[target] >= card.defense:
        stun(ctx, target)


def give_gold(ctx: Ctx, seat: int, to: int, amount: int) -> None:
    s = ctx.s
    s.players[seat].gold -= amount
    s.players[to].gold += amount
    # A teammate holding its moves gets them back: it has gold to spend now.
    s.players[to].waiting = False
    ctx.announce(msg("hr.ev.gave_gold", seat=SeatRef(seat), to=SeatRef(to), n=amount))


def pass_card(ctx: Ctx, seat: int, cid: str, to: int) -> None:
    s = ctx.s
    p = s.players[seat]
    p.gold -= 1
    p.discard.remove(cid)
    s.players[to].discard.append(cid)
    ctx.announce(msg("hr.ev.passed", seat=SeatRef(seat), card=card_of(s, cid).lit, to=SeatRef(to)))


# ---------------------------------------------------------------- eliminations and the end


def eliminate(ctx: Ctx, seats: list[int]) -> None:
    s = ctx.s
    for seat in seats:
        p = s.players[seat]
        p.eliminated = True
        for c in p.champions:
            s.damage.pop(c, None)
        p.discard.extend(p.played + p.champions)
        p.played.clear()
        p.champions.clear()
        p.expended.clear()
        p.gold = p.combat = p.owed_discards = 0
        s.pending = [d for d in s.pending if d["seat"] != seat]
        s.eliminated_order.append(seat)
        if seat in s.active:
            s.active.remove(seat)
            wake_if_idle(s)
        ctx.announce(msg("hr.ev.eliminated", seat=SeatRef(seat)))
    for seat in seats:
        if s.winners is not None:
            return
        _after_elimination(ctx, seat)
    if s.winners is None:
        teams = {s.team_of[o] for o in range(s.n) if not s.players[o].eliminated}
        if len(teams) == 1:
            (team,) = teams
            _win(ctx, [o for o in range(s.n) if s.team_of[o] == team])


def resign(ctx: Ctx, seat: int) -> None:
    """A player who resigns is eliminated like one whose health ran out (the variant's rules for an elimination
    apply: a hunter's prey, the emperor's fall), but is asked nothing more (no card to pass on); when it was their
    turn and nobody else shares it, the next turn begins."""
    s = ctx.s
    was_active = seat in s.active
    eliminate(ctx, [seat])
    s.pending = [d for d in s.pending if d["seat"] != seat]
    if s.winners is None and was_active and not s.active:
        start_turn(ctx, next_turn_seats(s, seat))


def _after_elimination(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    if s.variant == "hunter-first-blood":
        _win(ctx, [variants.right_of(s, seat)])
    elif s.variant == "hunter-last-standing":
        right = variants.right_of(s, seat)
        if right != seat:
            s.health[s.pool_of[right]] += HUNTER_BONUS_HEALTH
            ctx.announce(msg("hr.ev.hunter_bonus", seat=SeatRef(right), n=HUNTER_BONUS_HEALTH))
            draw(ctx, right, 1)
    elif s.variant == "emperor":
        if s.roles[seat] == "emperor":
            _win(ctx, [o for o in range(s.n) if s.team_of[o] != s.team_of[seat]])
        else:
            p = s.players[seat]
            if p.hand or p.deck or p.discard:
                s.pending.append({"seat": seat, "kind": "pass_card", "source": None, "rest": []})


def _win(ctx: Ctx, winners: list[int]) -> None:
    s = ctx.s
    s.winners = sorted(winners)
    s.pending = []
    s.active = []
    key = "hr.ev.won_one" if len(s.winners) == 1 else "hr.ev.won_many"
    ctx.announce(msg(key, seats=_seat_list(s.winners)))


def _seat_list(seats: list[int]) -> Msg:
    out = msg("hr.seat", seat=SeatRef(seats[-1]))
    for seat in reversed(seats[:-1]):
        out = msg("hr.seats_and", a=SeatRef(seat), b=out)
    return out


# ---------------------------------------------------------------- turns


def start_turn(ctx: Ctx, seats: list[int]) -> None:
    s = ctx.s
    s.active = list(seats)
    s.turn_no += 1
    for seat in seats:
        p = s.players[seat]
        p.done = p.waiting = False
        if p.owed_discards and p.hand:
            s.pending.append({"seat": seat, "kind": "discard", "count": min(p.owed_discards, len(p.hand)),
                              "source": None, "rest": []})
        p.owed_discards = 0
    ctx.announce(msg("hr.ev.turn", seats=_seat_list(seats)))


def wait(ctx: Ctx, seat: int) -> None:
    ctx.s.players[seat].waiting = True
    ctx.announce(msg("hr.ev.waiting", seat=SeatRef(seat)))


def end_turn(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    s.players[seat].done = True
    ctx.announce(msg("hr.ev.end_turn", seat=SeatRef(seat)))
    if all(s.players[a].done for a in s.active):
        finish_turn(ctx)
    else:
        wake_if_idle(s)


def wake_if_idle(s: State) -> None:
    """When nobody in the turn is left playing, teammates who were holding their moves take them now."""
    if all(s.players[a].done or s.players[a].waiting for a in s.active):
        for a in s.active:
            s.players[a].waiting = False


def finish_turn(ctx: Ctx) -> None:
    """Discard phase and draw phase for every seat of the turn, then the next turn starts."""
    s = ctx.s
    last = s.active[-1]
    for seat in s.active:
        p = s.players[seat]
        p.gold = p.combat = 0
        p.discard.extend(p.played)
        p.discard.extend(p.hand)
        p.played.clear()
        p.hand.clear()
        p.expended.clear()
        p.allies_used.clear()
        p.next_action_top = p.next_card_top = p.next_card_hand = False
        draw(ctx, seat, HAND_SIZE)
    s.damage.clear()
    start_turn(ctx, next_turn_seats(s, last))


def next_turn_seats(s: State, last: int) -> list[int]:
    if variants.VARIANTS[s.variant].team_turns:
        teams = sorted(set(s.team_of))
        current = s.team_of[last]
        for step in range(1, len(teams) + 1):
            team = teams[(teams.index(current) + step) % len(teams)]
            seats = [o for o in range(s.n) if s.team_of[o] == team and not s.players[o].eliminated]
            if seats:
                return seats
    return [variants.left_of(s, last)]
