"""What each seat (or a spectator) may see of a Hero Realms game, as JSON-able data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.hero_realms import engine as E
from rules.hero_realms import moves as M
from rules.hero_realms import variants as V
from rules.hero_realms.cards import CardDef
from rules.hero_realms.state import State
from rules.hero_realms.text import ability_texts
from rules.readonly import loader
from rules.text import Msg, msg


@loader(maxsize=256)
def card_entry(key: str) -> Mapping[str, Any]:
    """Static facts of a card for renderers (shared; callers must not mutate it)."""
    card: CardDef = E.CARDS[key]
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


def _card(s: State, cid: str) -> dict[str, Any]:
    """A card in a zone shown face up as a card (market, hand, play area): id plus its full facts."""
    return {"id": cid, **card_entry(s.cards[cid])}


def _brief(s: State, cid: str) -> dict[str, Any]:
    """A card in a pile (discard, sacrificed): id, key and name; the rest is in `card_entry(key)`."""
    entry = card_entry(s.cards[cid])
    return {"id": cid, "key": entry["key"], "name": entry["name"]}


def _player(s: State, seat: int) -> dict[str, Any]:
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
        "guarded": E.has_ready_guard(s, seat),
        # A ready guard of this seat or (in team variants) of a teammate keeps attacks off them.
        "protected": any(E.has_ready_guard(s, o) for o in V.protectors(s, seat)),
        "pool": s.pool_of[seat],
        "waiting": p.waiting,
        "gold": p.gold,
        "combat": p.combat,
        "owed_discards": p.owed_discards,
        "next_action_top": p.next_action_top,
        "next_card_top": p.next_card_top,
        "next_card_hand": p.next_card_hand,
    }


def _pending(s: State, d: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    source = d.get("source")
    out = {
        "seat": d["seat"],
        "kind": d["kind"],
        "source": None if source is None else _card(s, source),
        "count": d.get("count", d.get("left", d.get("up_to", 1))),
        "prompt": msg(f"hr.prompt.{d['kind']}").to_json(),
    }
    if viewer == d["seat"]:
        # Only the one deciding sees the answers (they may be cards of their own hand).
        out["options"] = [_option(s, d, la.action["option"], la.label) for la in M.decision_actions(s, d)]
    return out


def _option(s: State, d: dict[str, Any], option: Any, label: Msg) -> dict[str, Any]:
    entry: dict[str, Any] = {"label": label.to_json()}
    if isinstance(option, str) and option in s.cards:
        entry["card"] = _card(s, option)
    elif isinstance(option, str) and option.startswith("deck:"):
        entry["card"] = card_entry(option[5:])
    elif d["kind"] == "choose":
        entry["effects"] = [dict(e) for e in d["options"][option]]
    return entry


def _targets(s: State, seat: int) -> dict[str, Any]:
    """Whom an acting seat may attack now, and why each other opponent may not (public facts)."""
    players = E.attackable_players(s, seat)
    reachable = V.attackable_players(s, seat, lambda _o: False)
    blocked = [{"seat": o, "why": "guard" if o in reachable else "reach"}
               for o in V.opponents(s, seat) if o not in players]
    return {"seat": seat, "players": players, "champions": E.targetable_champions(s, seat), "blocked": blocked}


def view(s: State, seat: int | None) -> dict[str, Any]:
    own = seat is not None and 0 <= seat < s.n
    return {
        "game": "hero-realms",
        "variant": s.variant,
        "viewer": seat,
        "turn": s.turn_no,
        "active": list(s.active),
        "to_act": sorted(M.to_act(s)),
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
