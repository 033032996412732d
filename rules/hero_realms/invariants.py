"""Consistency checks over a Hero Realms state (used by tests and the contract's playouts)."""

from __future__ import annotations

from collections import Counter

from rules.hero_realms import engine, moves, variants
from rules.hero_realms.state import State


def check_invariants(s: State) -> list[str]:
    problems: list[str] = []
    zones: list[str] = [*s.market_deck, *s.market, *s.gems, *s.sacrificed]
    for p in s.players:
        zones += [*p.deck, *p.hand, *p.discard, *p.played, *p.champions]
    counts = Counter(zones)
    if len(counts) != len(s.cards) or set(counts) != set(s.cards):
        problems.append(f"cards created or lost: {len(counts)} distinct in zones, {len(s.cards)} made")
    doubled = [c for c, k in counts.items() if k > 1]
    if doubled:
        problems.append(f"cards in two places: {doubled[:5]}")
    if any(s.cards[c] != "fire_gem" for c in s.gems):
        problems.append("a non-gem card in the gem pile")
    if len(s.market) > 5 or (len(s.market) < 5 and s.market_deck):
        problems.append("the market row is not full while the market deck has cards")
    for seat, p in enumerate(s.players):
        if p.gold < 0 or p.combat < 0 or p.owed_discards < 0:
            problems.append(f"seat {seat} has a negative pool")
        if not p.expended <= set(p.champions):
            problems.append(f"seat {seat} has expended cards that are not champions in play")
        if any(engine.card_of(s, c).champion for c in p.played) \
                or any(not engine.card_of(s, c).champion for c in p.champions):
            problems.append(f"seat {seat} has a card in the wrong play area")
        health = s.health[s.pool_of[seat]]
        if p.eliminated:
            if seat in s.active:
                problems.append(f"eliminated seat {seat} has the turn")
            if p.champions or p.played:
                problems.append(f"eliminated seat {seat} still has cards in play")
        elif health <= 0 and s.winners is None:
            problems.append(f"seat {seat} is alive with {health} health")
    if s.winners is None:
        if not s.active:
            problems.append("nobody has the turn")
        elif not moves.to_act(s):
            problems.append("nobody may act")
        for seat, p in enumerate(s.players):
            if p.waiting and (seat not in s.active or p.done or not variants.VARIANTS[s.variant].team_turns):
                problems.append(f"seat {seat} waits outside a shared turn")
        for d in s.pending:
            if s.players[d["seat"]].eliminated and d["kind"] != "pass_card":
                problems.append(f"an eliminated seat {d['seat']} has a pending decision")
        if len({d["seat"] for d in s.pending}) != len(s.pending):
            problems.append("a seat has two pending decisions")
    elif s.active or s.pending:
        problems.append("the game is over but someone still acts")
    for cid, dmg in s.damage.items():
        if dmg < 0 or not any(cid in p.champions for p in s.players):
            problems.append(f"damage recorded on {cid}, which is not a champion in play")
    return problems
