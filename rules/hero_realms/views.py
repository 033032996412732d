"""What each seat (or a spectator) may see of a Hero Realms game, as JSON-able data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

from rules.base import View
from rules.hero_realms import engine, moves, variants
from rules.hero_realms.cards import CardDef, Effect
from rules.hero_realms.state import Option, PendingDecision, State
from rules.hero_realms.text import ability_texts
from rules.readonly import loader
from rules.text import LitJson, Msg, MsgJson, msg


class CardEntry(TypedDict):
    """A card's static facts for renderers (read-only: `card_entry` shares one per card)."""

    key: str
    name: LitJson
    type: str
    subtypes: Sequence[str]
    faction: str | None
    cost: int
    defense: int
    guard: bool
    abilities: Mapping[str, Sequence[Effect]]
    #: Each ability's effects in words.
    text: Mapping[str, MsgJson]


class CardView(CardEntry):
    """A card shown face up (market, hand, play area): its instance id and its facts."""

    id: str


class PlayedCardView(CardView):
    """An action or item in play."""

    ally_used: bool


class ChampionView(PlayedCardView):
    """A champion in play, with the damage it took this turn."""

    expended: bool
    damage: int


class BriefCardView(TypedDict):
    """A card in a pile (discard, sacrificed): the rest of its facts are in `card_entry(key)`."""

    id: str
    key: str
    name: LitJson


class PlayerView(TypedDict):
    """One seat as everyone sees it (its hand only as a count)."""

    seat: int
    team: int
    role: str
    health: int
    eliminated: bool
    active: bool
    done: bool
    deck: int
    hand: int
    discard_count: int
    discard: list[BriefCardView]
    in_play: list[PlayedCardView]
    champions: list[ChampionView]
    guarded: bool
    protected: bool
    pool: int
    waiting: bool
    gold: int
    combat: int
    owed_discards: int
    next_action_top: bool
    next_card_top: bool
    next_card_hand: bool


class OptionView(TypedDict, total=False):
    """One answer to the viewer's own pending decision: its words, and the card or effects it names."""

    label: MsgJson
    card: CardView | CardEntry
    effects: list[Effect]


class PendingView(TypedDict):
    """A pending decision; its answers only in the view of the seat deciding."""

    seat: int
    kind: str
    source: CardView | None
    count: int
    prompt: MsgJson
    options: NotRequired[list[OptionView]]


class BlockedView(TypedDict):
    """An opponent the acting seat may not attack, and why ("guard" or "reach")."""

    seat: int
    why: str


class TargetsView(TypedDict):
    """Whom an acting seat may attack now."""

    seat: int
    players: list[int]
    champions: list[str]
    blocked: list[BlockedView]


@loader(maxsize=256)
def card_entry(key: str) -> CardEntry:
    """Static facts of a card for renderers (shared; callers must not mutate it)."""
    card: CardDef = engine.CARDS[key]
    return {
        "key": card.key,
        "name": {"es": card.name_es, "en": card.name_en},
        "type": card.type,
        "subtypes": list(card.subtypes),
        "faction": card.faction,
        "cost": card.cost,
        "defense": card.defense,
        "guard": card.guard,
        "abilities": {k: [dict(e) for e in v] for k, v in card.abilities.items()},
        "text": ability_texts(card),
    }


def _card(s: State, cid: str) -> CardView:
    """A card in a zone shown face up as a card (market, hand, play area): id plus its full facts."""
    return {"id": cid, **card_entry(s.cards[cid])}


def _brief(s: State, cid: str) -> BriefCardView:
    """A card in a pile (discard, sacrificed): id, key and name; the rest is in `card_entry(key)`."""
    entry = card_entry(s.cards[cid])
    return {"id": cid, "key": entry["key"], "name": entry["name"]}


def _player(s: State, seat: int) -> PlayerView:
    p = s.players[seat]
    return {
        "seat": seat,
        "team": s.team_of[seat],
        "role": s.roles[seat],
        # An eliminated pool may have gone below zero; health is never shown negative.
        "health": max(0, s.health[s.pool_of[seat]]),
        "eliminated": p.eliminated,
        "active": seat in s.active,
        "done": p.done,
        "deck": len(p.deck),
        "hand": len(p.hand),
        "discard_count": len(p.discard),
        "discard": [_brief(s, c) for c in p.discard],
        "in_play": [{**_card(s, c), "ally_used": c in p.allies_used} for c in p.played],
        "champions": [
            {**_card(s, c), "expended": c in p.expended, "damage": s.damage.get(c, 0),
             "ally_used": c in p.allies_used}
            for c in p.champions
        ],
        "guarded": engine.has_ready_guard(s, seat),
        # A ready guard of this seat or (in team variants) of a teammate keeps attacks off them.
        "protected": any(engine.has_ready_guard(s, o) for o in variants.protectors(s, seat)),
        "pool": s.pool_of[seat],
        "waiting": p.waiting,
        "gold": p.gold,
        "combat": p.combat,
        "owed_discards": p.owed_discards,
        "next_action_top": p.next_action_top,
        "next_card_top": p.next_card_top,
        "next_card_hand": p.next_card_hand,
    }


def _pending(s: State, d: PendingDecision, viewer: int | None) -> PendingView:
    source = d.get("source")
    out: PendingView = {
        "seat": d["seat"],
        "kind": d["kind"],
        "source": None if source is None else _card(s, source),
        "count": d.get("count", d.get("left", d.get("up_to", 1))),
        "prompt": msg(f"hr.prompt.{d['kind']}").to_json(),
    }
    if viewer == d["seat"]:
        # Only the one deciding sees the answers (they may be cards of their own hand).
        out["options"] = [_option(s, d, la.action["option"], la.label) for la in moves.decision_actions(s, d)]
    return out


def _option(s: State, d: PendingDecision, option: Option, label: Msg) -> OptionView:
    entry: OptionView = {"label": label.to_json()}
    if isinstance(option, str) and option in s.cards:
        entry["card"] = _card(s, option)
    elif isinstance(option, str) and option.startswith("deck:"):
        entry["card"] = card_entry(option[5:])
    elif d["kind"] == "choose":
        entry["effects"] = [dict(e) for e in d["options"][engine.answer_number(option)]]
    return entry


def _targets(s: State, seat: int) -> TargetsView:
    """Whom an acting seat may attack now, and why each other opponent may not (public facts)."""
    players = engine.attackable_players(s, seat)
    reachable = variants.attackable_players(s, seat, lambda _o: False)
    blocked: list[BlockedView] = [{"seat": o, "why": "guard" if o in reachable else "reach"}
               for o in variants.opponents(s, seat) if o not in players]
    return {"seat": seat, "players": players, "champions": engine.targetable_champions(s, seat), "blocked": blocked}


def view(s: State, seat: int | None) -> View:
    own = seat is not None and 0 <= seat < s.n
    return {
        "game": "hero-realms",
        "variant": s.variant,
        "viewer": seat,
        "turn": s.turn_no,
        "active": list(s.active),
        "to_act": sorted(moves.to_act(s)),
        "teams": [[o for o in range(s.n) if s.team_of[o] == t] for t in sorted(set(s.team_of))],
        "market": [_card(s, c) for c in s.market],
        "market_deck": len(s.market_deck),
        "gems": len(s.gems),
        "gem": card_entry("fire_gem"),
        "sacrificed": [_brief(s, c) for c in s.sacrificed],
        "players": [_player(s, o) for o in range(s.n)],
        "hand": [_card(s, c) for c in s.players[seat].hand] if own and seat is not None else None,
        "pending": [_pending(s, d, seat) for d in s.pending],
        "targets": [_targets(s, a) for a in s.active if s.winners is None],
        "log": list(s.log),
        "winners": None if s.winners is None else list(s.winners),
    }
