"""The game master's autoplay: every revealed monster closes on the nearest hero and attacks, by the rules.

At the table's AI level (`/game new ai_level:`): "normal" closes on the nearest hero and strikes the weakest in
reach; "hard" also closes on the weakest hero it can reach, so the monsters gang up on one; "easy" strikes the
strongest hero in reach and only walks toward heroes already close by."""

from __future__ import annotations

from rules.heroquest import board, catalog, fight, moves
from rules.heroquest.board import Square
from rules.heroquest.monsters import attack_targets, can_act, can_move
from rules.heroquest.shapes import Hero, Monster
from rules.heroquest.state import Ctx, HQState, as_square, hero_square, monster_label, sq_token
from rules.search import breadth_first

#: At the "easy" level a monster stays where it is unless a hero is within this many steps of it.
EASY_REACH = 3


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


def _prey(s: HQState, m: Monster) -> Hero | None:
    """The hero a "hard" monster closes on when it cannot strike this turn: the weakest it can walk next to, the
    nearest of those."""
    reach = []
    for h in s.on_board_heroes():
        dist = _distance_to_heroes(s, only=h)
        if dist.get(as_square(m["sq"])) is not None:
            reach.append((h["body"], dist[as_square(m["sq"])], h["uid"], h))
    return min(reach, key=lambda r: r[:3])[3] if reach else None


def _exposure(s: HQState, m: Monster, q: Square) -> int:
    """How many heroes could stand beside `m` on `q` to strike it: the open squares around it (a doorway or a
    corridor leaves fewer than the middle of a room)."""
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    others = {as_square(o["sq"]) for o in s.monsters.values() if o["uid"] != m["uid"]}
    return sum(1 for n in board.orthogonal(q)
               if board.in_board(n) and n not in blocked and n not in others and board.passable(q, n, open_edges))


def _striking_square(s: HQState, m: Monster, options: list[Square]) -> Square | None:
    """The square ("hard") from which `m` strikes the hero a blow most likely kills; among equals the one the
    fewest heroes can strike back from, then staying put; None when no square in reach strikes anyone."""
    here = as_square(m["sq"])
    best: tuple[tuple[float, int, str], int, int, Square] | None = None
    for q in [here, *options]:
        m["sq"] = list(q)
        targets = attack_targets(s, m)
        if targets:
            key = (min(_threat(s, m, h) for h in targets), _exposure(s, m, q), int(q != here), q)
            if best is None or key < best:
                best = key
    m["sq"] = list(here)
    return None if best is None else best[3]


def _move(ctx: Ctx, m: Monster, to: Square) -> None:
    if to != as_square(m["sq"]):
        m["sq"] = list(to)
        m["moved"] = True
        ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(to))


def _hard(ctx: Ctx, m: Monster) -> None:
    """A "hard" monster: walks to the square of the likeliest killing blow and strikes (the monsters gang up on
    the weakest hero); one that struck without walking then steps back (`_step_back`); one that cannot strike
    closes on the weakest hero it can reach."""
    s = ctx.state
    budget = catalog.monster(m["ref"])["move"]
    options = moves.monster_destinations(s, m, budget) if can_move(m) else []
    spot = _striking_square(s, m, options) if can_act(m) else None
    if spot is None:
        if can_move(m):
            _walk(ctx, m, "hard")
        return
    _move(ctx, m, spot)
    _strike(ctx, m, "hard")
    if m["uid"] not in s.monsters or m["moved"] or s.d["pending"] or s.d["over"] or not s.on_board_heroes():
        return
    _step_back(ctx, m, budget)


def _answer(s: HQState, m: Monster, q: Square, reach: dict[str, dict[Square, int]]) -> int:
    """How many heroes could strike `m` on `q` on their next turn: those who can walk beside it (their
    movement allowance), at most as many as there are open squares around it."""
    walkers = sum(1 for h in s.on_board_heroes()
                  if reach[h["uid"]].get(q, 10_000) <= catalog.heroes()[h["hero"]]["move"])
    return min(walkers, _exposure(s, m, q))


def _step_back(ctx: Ctx, m: Monster, budget: int) -> None:
    """After striking where it stood, a "hard" monster may still move (rulebook: «Los monstruos pueden moverse y
    luego atacar o atacar y luego moverse»): it steps back to where fewer heroes can strike it next turn (out of
    their walk, into a doorway, a corridor or a corner), close enough to come back and strike again."""
    s = ctx.state
    here = as_square(m["sq"])
    reach = {h["uid"]: _distance_to_heroes(s, only=h) for h in s.on_board_heroes()}
    near = _distance_to_heroes(s)
    now = _answer(s, m, here, reach)
    calmer = [(answer, _exposure(s, m, q), near[q], q) for q in moves.monster_destinations(s, m, budget)
              if near.get(q, 10_000) <= budget and (answer := _answer(s, m, q, reach)) < now]
    if calmer:
        _move(ctx, m, min(calmer)[3])


def _walk(ctx: Ctx, m: Monster, level: str) -> None:
    """Move `m` toward the heroes at `level` ("hard": toward the weakest it can reach; "easy": only when a hero is
    close by)."""
    s = ctx.state
    here = as_square(m["sq"])
    options = moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"])
    prey = _prey(s, m) if level == "hard" else None
    dist = _distance_to_heroes(s, only=prey)
    best = min(options, key=lambda q: (dist.get(q, 10_000), abs(q[0] - here[0]) + abs(q[1] - here[1]), q),
               default=None)
    lazy = level == "easy" and dist.get(here, 10_000) > EASY_REACH
    if best is not None and not lazy and dist.get(best, 10_000) < dist.get(here, 10_000):
        m["sq"] = list(best)
        ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(best))


def autoplay(ctx: Ctx, level: str = "normal") -> None:
    """Play every monster that has not acted yet; stops early when a hero must decide (e.g. a potion).

    Every monster played says what it did (a monster that can do nothing waits), so the table always
    hears something.
    """
    s = ctx.state
    played = 0
    for uid in sorted(s.monsters):
        if s.d["pending"] or s.d["over"]:
            return
        m = s.monsters.get(uid)
        if m is None or not m["revealed"] or not (can_act(m) or can_move(m)):
            continue
        played += 1
        heard = len(ctx.events)
        if level == "hard":
            _hard(ctx, m)
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
