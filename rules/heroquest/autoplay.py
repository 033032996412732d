"""The game master's autoplay: every revealed monster closes on the nearest hero and attacks, by the rules.

At the table's AI level (`/game new ai_level:`): "normal" closes on the nearest hero and strikes the weakest in
reach; "hard" plays the monsters as a team (they gang up on the hero they can most likely bring down, a monster
that struck where it stood steps aside for one that could not reach, and none crowds another out of the only
square it could strike from); "easy" strikes the strongest hero in reach, only walks toward heroes already close
by, and walks or strikes, not both."""

from __future__ import annotations

from math import comb

from rules.heroquest import board, catalog, fight, moves
from rules.heroquest.board import Square
from rules.heroquest.monsters import attack_targets, can_act, can_move
from rules.heroquest.shapes import Hero, Monster
from rules.heroquest.state import Ctx, HQState, as_square, hero_square, monster_label, sq_token
from rules.readonly import BoundedCache
from rules.search import breadth_first

#: At the "easy" level a monster stays where it is unless a hero is within this many steps of it.
EASY_REACH = 3
#: Steps to a square nobody can reach.
FAR = 10_000


def _distance_to_heroes(s: HQState, only: Hero | None = None) -> dict[Square, int]:
    """Steps from each revealed square to the nearest square next to a hero (or next to the hero `only`), as
    monsters walk."""
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    heroes = {hero_square(h) for h in s.on_board_heroes()}
    goals = heroes if only is None else {hero_square(only)}
    starts = [n for goal in goals for n in board.orthogonal(goal)
              if n not in heroes and n not in blocked and board.passable(goal, n, open_edges)]

    def enter(sq: Square, n: Square) -> bool:
        return (n not in heroes and n not in blocked and n not in s.dark and s.is_revealed(n)
                and board.passable(sq, n, open_edges))

    return breadth_first(starts, board.orthogonal, enter=enter).dist


def _threat(s: HQState, m: Monster, h: Hero) -> tuple[float, int, str]:
    """How close a blow from `m` comes to killing `h` (lower: closer): Body left less the expected damage (half
    the attack dice hit, a third of the defence dice save), then Body, then the hero's id."""
    attack = catalog.monster(m["ref"])["attack"]
    expected = attack / 2 - fight.hero_defence_dice(s, h, consume=False) / 3
    return (h["body"] - expected, h["body"], h["uid"])


def _target(s: HQState, m: Monster, targets: list[Hero], level: str) -> Hero:
    """Whom `m` strikes: "easy" the healthiest hero (spreading the blows), "normal" the one with the least Body,
    "hard" the one a blow most likely kills (focus fire)."""
    if level == "easy":
        return max(targets, key=lambda h: (h["body"], h["uid"]))
    if level == "hard":
        return min(targets, key=lambda h: _threat(s, m, h))
    return min(targets, key=lambda h: (h["body"], h["uid"]))


def _strike(ctx: Ctx, m: Monster, level: str = "normal") -> None:
    targets = attack_targets(ctx.state, m)
    if targets and can_act(m):
        target = _target(ctx.state, m, targets, level)
        m["acted"] = True
        fight.monster_attacks(ctx, m, target)


def _exposure(s: HQState, m: Monster, q: Square) -> int:
    """How many heroes could stand beside `m` on `q` to strike it: the open squares around it (a doorway or a
    corridor leaves fewer than the middle of a room)."""
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    others = {as_square(o["sq"]) for o in s.monsters.values() if o["uid"] != m["uid"]}
    return sum(1 for n in board.orthogonal(q)
               if board.in_board(n) and n not in blocked and n not in others and board.passable(q, n, open_edges))


def _move(ctx: Ctx, m: Monster, to: Square) -> None:
    if to != as_square(m["sq"]):
        m["sq"] = list(to)
        m["moved"] = True
        ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(to))


#: Expected Body lost by (attack dice, defence dice): a few dozen pairs at most.
_EXPECTED: BoundedCache[tuple[int, int], float] = BoundedCache(256)


def _expected_damage(attack: int, defence: int) -> float:
    """Body a hero loses on average to `attack` dice against its `defence` dice (a skull is 1 face in 2, a
    hero's white shield 1 in 3)."""
    return _EXPECTED.get((attack, defence), lambda: _work_out_damage(attack, defence))


def _work_out_damage(attack: int, defence: int) -> float:
    total = 0.0
    for skulls in range(attack + 1):
        p_skulls = comb(attack, skulls) / 2 ** attack
        for shields in range(defence + 1):
            p_shields = comb(defence, shields) * 2 ** (defence - shields) / 3 ** defence
            total += p_skulls * p_shields * max(0, skulls - shields)
    return total


def _expected(s: HQState, m: Monster, h: Hero) -> float:
    return _expected_damage(catalog.monster(m["ref"])["attack"], fight.hero_defence_dice(s, h, consume=False))


#: For one monster: the heroes it can strike this turn, each with the squares it can strike them from.
Plan = dict[str, list[Square]]


def _plan(s: HQState, m: Monster) -> Plan:
    """Where `m` can strike from this turn (where it stands, or any square its move reaches): hero uid ->
    squares, in board order with where it stands first."""
    if not can_act(m):
        return {}
    here = as_square(m["sq"])
    options = moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"]) if can_move(m) else []
    out: Plan = {}
    for q in [here, *options]:
        m["sq"] = list(q)
        for h in attack_targets(s, m):
            out.setdefault(h["uid"], []).append(q)
    m["sq"] = list(here)
    return out


def _focus(s: HQState, plans: dict[str, Plan]) -> str | None:
    """The hero the monsters gang up on this turn: the one with the least Body left once every monster that
    can reach it has struck it (on average), then the least Body; None when no monster can strike anyone."""
    best: tuple[float, int, str] | None = None
    for h in s.on_board_heroes():
        strikers = [s.monsters[uid] for uid, plan in plans.items() if h["uid"] in plan]
        if strikers:
            key = (h["body"] - sum(_expected(s, m, h) for m in strikers), h["body"], h["uid"])
            best = key if best is None or key < best else best
    return None if best is None else best[2]


def _next_hard(s: HQState, ready: list[Monster]) -> tuple[Monster, str | None, dict[str, Plan]]:
    """Which monster plays next ("hard"): first those that can strike from where they stand (those beside the
    focus hero first), so they can strike and make room; then those that can walk up to the focus hero, the one
    with the fewest squares to strike it from first (so it is not crowded out); else the first in order.
    Returns it, the focus and every monster's plan."""
    plans = {m["uid"]: _plan(s, m) for m in ready}
    focus = _focus(s, plans)
    standing = [m for m in ready if any(as_square(m["sq"]) in squares for squares in plans[m["uid"]].values())]
    if standing:
        return min(standing, key=lambda m: (focus not in plans[m["uid"]], m["uid"])), focus, plans
    strikers = [m for m in ready if focus is not None and focus in plans[m["uid"]]]
    if strikers:
        return min(strikers, key=lambda m: (len(plans[m["uid"]][str(focus)]), m["uid"])), focus, plans
    return ready[0], focus, plans


def _hard(ctx: Ctx, m: Monster, focus: str | None, plans: dict[str, Plan]) -> None:
    """A "hard" monster: strikes the focus hero if it can reach it, else the hero beside it (or, when none is,
    the hero it can reach) its blow most likely kills; from where it stands when it can (then makes room,
    `_make_room`), else from the square the fewest heroes can stand beside, leaving the squares other monsters
    need to reach the same hero. One that cannot strike walks
    toward the nearest hero as at the normal level."""
    s = ctx.state
    plan = plans[m["uid"]]
    here = as_square(m["sq"])
    if not plan:
        if can_move(m):
            _walk(ctx, m, "normal")
        return
    standing = [uid for uid, squares in plan.items() if here in squares]
    uid = focus if focus in plan else min(standing or plan, key=lambda u: _threat(s, m, _hero(s, u)))
    if here not in plan[uid]:
        wanted = [q for other, p in plans.items() if other != m["uid"] and other in s.monsters
                  and not (s.monsters[other]["acted"] and s.monsters[other]["moved"]) for q in p.get(uid, [])]
        _move(ctx, m, min(plan[uid], key=lambda q: (wanted.count(q), _exposure(s, m, q), q)))
    m["acted"] = True
    fight.monster_attacks(ctx, m, _hero(s, uid))
    if m["uid"] in s.monsters and not (m["moved"] or s.d["pending"] or s.d["over"]) and s.on_board_heroes():
        _make_room(ctx, m)


def _make_room(ctx: Ctx, m: Monster) -> None:
    """After striking where it stood, a "hard" monster steps aside (the rulebook lets monsters strike, then move:
    «Los monstruos pueden moverse y luego atacar o atacar y luego moverse») when a monster that has not played
    yet and cannot strike now could walk onto its square: so both strike. It steps to a square beside no hero
    (those are left to the others), where the fewest heroes can strike it next turn, then the nearest."""
    s = ctx.state
    here = as_square(m["sq"])
    waiting = [o for uid, o in sorted(s.monsters.items()) if uid != m["uid"] and o["revealed"] and can_act(o)
               and can_move(o) and not attack_targets(s, o)]
    if not any(here in moves.monster_paths(s, o, catalog.monster(o["ref"])["move"]) for o in waiting):
        return
    near = _distance_to_heroes(s)
    reach = {h["uid"]: _distance_to_heroes(s, only=h) for h in s.on_board_heroes()}
    options = moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"])
    if options:
        _move(ctx, m, min(options, key=lambda q: (near.get(q, FAR) == 0, _answer(s, m, q, reach),
                                                  near.get(q, FAR), q)))


def _hero(s: HQState, uid: str) -> Hero:
    return next(h for h in s.heroes if h["uid"] == uid)


def _answer(s: HQState, m: Monster, q: Square, reach: dict[str, dict[Square, int]]) -> int:
    """How many heroes could strike `m` on `q` on their next turn: those who can walk beside it (their
    movement allowance), at most as many as there are open squares around it."""
    walkers = sum(1 for h in s.on_board_heroes()
                  if reach[h["uid"]].get(q, FAR) <= catalog.heroes()[h["hero"]]["move"])
    return min(walkers, _exposure(s, m, q))


def _walk(ctx: Ctx, m: Monster, level: str) -> None:
    """Move `m` toward the nearest hero ("easy": only when a hero is close by)."""
    s = ctx.state
    here = as_square(m["sq"])
    options = moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"])
    dist = _distance_to_heroes(s)
    best = min(options, key=lambda q: (dist.get(q, FAR), abs(q[0] - here[0]) + abs(q[1] - here[1]), q),
               default=None)
    lazy = level == "easy" and dist.get(here, FAR) > EASY_REACH
    if best is not None and not lazy and dist.get(best, FAR) < dist.get(here, FAR):
        m["sq"] = list(best)
        ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(best))


def autoplay(ctx: Ctx, level: str = "normal") -> None:
    """Play every monster that has not acted yet; stops early when a hero must decide (e.g. a potion).

    Every monster played says what it did (a monster that can do nothing waits), so the table always
    hears something. "hard" chooses which monster plays next (`_next_hard`); the others play in order.
    """
    s = ctx.state
    played: set[str] = set()
    while not (s.d["pending"] or s.d["over"]):
        ready = [m for uid, m in sorted(s.monsters.items())
                 if uid not in played and m["revealed"] and (can_act(m) or can_move(m))]
        if not ready:
            break
        if level == "hard":
            m, focus, plans = _next_hard(s, ready)
        else:
            m = ready[0]
        played.add(m["uid"])
        heard = len(ctx.events)
        if level == "hard":
            _hard(ctx, m, focus, plans)
        else:
            if can_move(m) and not attack_targets(s, m):
                _walk(ctx, m, level)
            if level != "easy" or heard == len(ctx.events):  # an "easy" monster that walked does not strike too
                _strike(ctx, m, level)
        if m["uid"] in s.monsters:
            m["moved"] = m["acted"] = True
        if len(ctx.events) == heard:
            ctx.say("hq.ev.monster_waits", monster=monster_label(m))
    if not played:
        ctx.say("hq.ev.autoplay_idle")
