"""The game master's autoplay: every revealed monster closes on the nearest hero and attacks, by the rules."""

from __future__ import annotations

from collections import deque

from rules.heroquest import board, catalog, fight, moves
from rules.heroquest.board import Square
from rules.heroquest.monsters import attack_targets, can_act, can_move
from rules.heroquest.state import Ctx, HQState, monster_label, sq_token, tsq


def _distance_to_heroes(s: HQState) -> dict[Square, int]:
    """Steps from each revealed square to the nearest square next to a hero (monsters' way of walking)."""
    open_e = s.open_edges()
    blocked = s.blocked_squares()
    heroes = {tsq(h["sq"]) for h in s.on_board_heroes()}
    dist: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for hq in heroes:
        for n in board.orthogonal(hq):
            if n not in heroes and n not in blocked and board.passable(hq, n, open_e) and n not in dist:
                dist[n] = 0
                queue.append(n)
    while queue:
        sq = queue.popleft()
        for n in board.orthogonal(sq):
            if n in dist or n in heroes or n in blocked or n in s.dark or not s.is_revealed(n):
                continue
            if board.passable(sq, n, open_e):
                dist[n] = dist[sq] + 1
                queue.append(n)
    return dist


def _strike(ctx: Ctx, m: dict) -> None:
    targets = attack_targets(ctx.s, m)
    if targets and can_act(m):
        target = min(targets, key=lambda h: (h["body"], h["uid"]))
        m["acted"] = True
        fight.monster_attacks(ctx, m, target)


def autoplay(ctx: Ctx) -> None:
    """Play every monster that has not acted yet; stops early when a hero must decide (e.g. a potion).

    Every monster played says what it did (a monster that can do nothing waits), so the table always
    hears something.
    """
    s = ctx.s
    played = 0
    for uid in sorted(s.monsters):
        if s.d["pending"] or s.d["over"]:
            return
        m = s.monsters.get(uid)
        if m is None or not m["revealed"] or not (can_act(m) or can_move(m)):
            continue
        played += 1
        heard = len(ctx.events)
        if attack_targets(s, m):
            _strike(ctx, m)
        elif can_move(m):
            dist = _distance_to_heroes(s)
            options = moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"])
            here = tsq(m["sq"])
            best = min(options, key=lambda q: (dist.get(q, 10_000), abs(q[0] - here[0]) + abs(q[1] - here[1]), q),
                       default=None)
            if best is not None and dist.get(best, 10_000) < dist.get(here, 10_000):
                m["sq"] = list(best)
                ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(best))
            _strike(ctx, m)
        if m["uid"] in s.monsters:
            m["moved"] = m["acted"] = True
        if len(ctx.events) == heard:
            ctx.say("hq.ev.monster_waits", monster=monster_label(m))
    if not played:
        ctx.say("hq.ev.autoplay_idle")
