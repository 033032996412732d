"""The game master's autoplay: every revealed monster closes on the nearest hero and attacks, by the rules.

At the table's AI level (`/game new ai_level:`): "normal" closes on the nearest hero and strikes the weakest in
reach; "hard" also closes on the weakest hero it can reach, so the monsters gang up on one; "easy" strikes the
strongest hero in reach and only walks toward heroes already close by."""

from __future__ import annotations

from rules.heroquest import board, catalog, fight, moves
from rules.heroquest.board import Square
from rules.heroquest.monsters import attack_targets, can_act, can_move
from rules.heroquest.state import Ctx, HQState, monster_label, sq_token, tsq
from rules.search import breadth_first

#: At the "easy" level a monster stays where it is unless a hero is within this many steps of it.
EASY_REACH = 3


def _distance_to_heroes(s: HQState, only: dict | None = None) -> dict[Square, int]:
    """Steps from each revealed square to the nearest square next to a hero (or next to the hero `only`), as
    monsters walk."""
    open_e = s.open_edges()
    blocked = s.blocked_squares()
    heroes = {tsq(h["sq"]) for h in s.on_board_heroes()}
    goals = heroes if only is None else {tsq(only["sq"])}
    starts = [n for hq in goals for n in board.orthogonal(hq)
              if n not in heroes and n not in blocked and board.passable(hq, n, open_e)]

    def enter(sq: Square, n: Square) -> bool:
        return (n not in heroes and n not in blocked and n not in s.dark and s.is_revealed(n)
                and board.passable(sq, n, open_e))

    return breadth_first(starts, board.orthogonal, enter=enter).dist


def _strike(ctx: Ctx, m: dict, level: str = "normal") -> None:
    targets = attack_targets(ctx.s, m)
    if targets and can_act(m):
        sign = -1 if level == "easy" else 1
        target = min(targets, key=lambda h: (sign * h["body"], h["uid"]))
        m["acted"] = True
        fight.monster_attacks(ctx, m, target)


def _prey(s: HQState, m: dict) -> dict | None:
    """The hero a "hard" monster closes on: the weakest it can walk next to, the nearest of those."""
    reach = []
    for h in s.on_board_heroes():
        dist = _distance_to_heroes(s, only=h)
        if dist.get(tsq(m["sq"])) is not None:
            reach.append((h["body"], dist[tsq(m["sq"])], h["uid"], h))
    return min(reach, key=lambda r: r[:3])[3] if reach else None


def autoplay(ctx: Ctx, level: str = "normal") -> None:
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
            _strike(ctx, m, level)
        elif can_move(m):
            prey = _prey(s, m) if level == "hard" else None
            dist = _distance_to_heroes(s, only=prey)
            options = moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"])
            here = tsq(m["sq"])
            best = min(options, key=lambda q: (dist.get(q, 10_000), abs(q[0] - here[0]) + abs(q[1] - here[1]), q),
                       default=None)
            lazy = level == "easy" and dist.get(here, 10_000) > EASY_REACH
            if best is not None and not lazy and dist.get(best, 10_000) < dist.get(here, 10_000):
                m["sq"] = list(best)
                ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(best))
            _strike(ctx, m, level)
        if m["uid"] in s.monsters:
            m["moved"] = m["acted"] = True
        if len(ctx.events) == heard:
            ctx.say("hq.ev.monster_waits", monster=monster_label(m))
    if not played:
        ctx.say("hq.ev.autoplay_idle")
