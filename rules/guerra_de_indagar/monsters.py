"""Monster automation [RB p.16-19]: script targets, shortest routes with the left turn, actions and victory."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules.base import Event
from rules.guerra_de_indagar.combat import start_attack
from rules.guerra_de_indagar.data import monster_name, monsters, tile_name
from rules.guerra_de_indagar.hexes import left_angle, unkey
from rules.guerra_de_indagar.state import AttackContext, Question, State
from rules.guerra_de_indagar.units import (
    adjacent_keys,
    impassable,
    juicy,
    lose_resource,
    monster_attack,
    monster_has,
    monster_level,
    monster_may_enter,
    placed,
    tile_kind,
    tile_label,
    type_info,
    unit_at,
)
from rules.rng import Rng
from rules.search import breadth_first
from rules.text import msg

Target = tuple[str, str]  # ("unit" | "post", tile) for things to attack, ("tile", tile) to stand on


def _steps_from(s: State, starts: Iterable[str], passable: Callable[[str], bool]) -> dict[str, int]:
    return breadth_first(starts, lambda k: adjacent_keys(s, k), enter=lambda _k, there: passable(there)).dist


def _goals(s: State, here: str, target: Target, passable: Callable[[str], bool]) -> set[str]:
    kind, k = target
    if kind == "tile":
        return {k} if k == here or passable(k) else set()
    return {beside for beside in adjacent_keys(s, k) if beside == here or passable(beside)}


def candidates(s: State, mid: str) -> list[Target]:
    """The script's targets (only juicy ones, RULING-34), else its fallback, else the Source (PROV-19)."""
    mon = s["monsters"][mid]
    attack = monster_attack(s, mid)
    heroes = [h["at"] for h in s["heroes"].values() if h["at"] is not None]
    juicy_heroes: list[Target] = [("unit", k) for k in heroes if juicy(s, attack, k)]
    card = mon["card"]
    found: list[Target] = []
    if mon["kind"] == "event":
        others = [m["at"] for o, m in s["monsters"].items() if o != mid and m["at"] is not None]
        posts = [k for k in s["outposts"] if card != "groxiah" or unit_at(s, k) is not None]
        found = juicy_heroes + [("unit", k) for k in others if juicy(s, attack, k)]
        found += [("post", k) for k in posts if unit_at(s, k) is None and juicy(s, attack, k)]
    elif card == "helgoth":
        counts = [sum(1 for p in s["outposts"].values() if p["owner"] == seat) for seat in range(len(s["players"]))]
        most = max(counts)
        leaders = {seat for seat, count in enumerate(counts) if count == most and most > 0}
        found = [("post", k) for k, p in s["outposts"].items() if p["owner"] in leaders and juicy(s, attack, k)]
    elif card == "tijian":
        found = [("tile", k) for k, t in s["tiles"].items()
                 if t["up"] and t["t"] in ("gold", "wood", "mineral") and not t["destroyed"]
                 and unit_at(s, k) is None and k not in s["outposts"]]
    elif card == "oryana":
        return [("tile", s["source_at"])]
    elif card == "walker" and s["last_ability"] is not None:
        found = [("unit", h["at"]) for h in s["heroes"].values()
                 if h["at"] is not None and h["owner"] == s["last_ability"] and juicy(s, attack, h["at"])]
    if not found and mon["kind"] == "primary":
        found = juicy_heroes
    return sorted(set(found)) or [("tile", s["source_at"])]


def _nearest(s: State, here: str, targets: list[Target], passable: Callable[[str], bool]) -> list[Target]:
    """The targets at the least distance along tiles `passable` allows (all of them when tied)."""
    dist = _steps_from(s, [here], passable)
    scored: list[tuple[int, Target]] = []
    for target in targets:
        reach = [dist[g] for g in _goals(s, here, target, passable) if g in dist]
        if reach:
            scored.append((min(reach), target))
    if not scored:
        return []
    best = min(d for d, _ in scored)
    return sorted(t for d, t in scored if d == best)


def _walk(s: State, mid: str, target: Target, goal_dist: dict[str, int], passable: Callable[[str], bool],
          events: list[Event], moves: int | None = None) -> str | None:
    """Move along the shortest route, turning left on ties (RULING-33); returns an occupied tile that
    blocks the route when occupied tiles were counted as passable."""
    mon = s["monsters"][mid]
    moves = _movement(s, mid) if moves is None else moves
    aim = unkey(target[1])
    path: list[str] = []
    while moves > 0 and (here := mon["at"]) is not None and goal_dist.get(here, 0) > 0:
        steps = [step for step in adjacent_keys(s, here)
                 if step in goal_dist and goal_dist[step] == goal_dist[here] - 1 and passable(step)]
        if not steps:
            break
        next_step = min(steps, key=lambda step: (left_angle(unkey(here), aim, unkey(step)), step))
        if not monster_may_enter(s, next_step):
            if path:
                events.append(Event(msg("gi.ev.monster_moves", monster=monster_name(mon["card"]),
                                        path=" ".join(tile_label(s, k) for k in path))))
            return next_step
        mon["at"] = next_step
        path.append(next_step)
        moves -= 1
        if type_info(tile_kind(s, next_step)).get("stops") and not monster_has(s, mid, "speed"):
            break
    if path:
        events.append(Event(msg("gi.ev.monster_moves", monster=monster_name(mon["card"]),
                                path=" ".join(tile_label(s, k) for k in path))))
    return None


def _movement(s: State, mid: str) -> int:
    mon = s["monsters"][mid]
    if mon["kind"] == "event":
        return int(monsters()["event"][mon["card"]]["move"])
    return int(monsters()["primary"][mon["card"]]["levels"][monster_level(s) - 1]["move"])


def take_turn(s: State, mid: str, ctx: AttackContext, rng: Rng, events: list[Event]) -> str:
    """One monster turn [RB p.17]: target, move, one action. Returns "attack" when it started one, "wait"
    when the last player in play order must break a tie first, else "done"."""
    mon = s["monsters"][mid]
    events.append(Event(msg("gi.ev.monster_turn", monster=monster_name(mon["card"]))))
    if monster_has(s, mid, "siphon") and mon["at"] == s["source_at"]:
        mon["dmg"] = max(0, mon["dmg"] - 2)
    targets = candidates(s, mid)
    mode = "free"
    tied = _nearest(s, placed(mon["at"]), targets, _passable(s, mode))
    if not tied:  # unable to reach: occupied tiles count as passable
        mode = "open"
        tied = _nearest(s, placed(mon["at"]), targets, _passable(s, mode))
    if not tied:
        mon["stuck"] = True
        events.append(Event(msg("gi.ev.monster_stuck", monster=monster_name(mon["card"]))))
        return "done"
    if len(tied) > 1 and s["monster_ties"] == "player":
        s["pending"].append({"kind": "monster_target", "seat": s["order"][-1], "monster": mid, "ctx": ctx,
                             "mode": mode, "options": [list(t) for t in tied]})
        return "wait"
    target = tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]
    return proceed(s, mid, ctx, target, mode, rng, events)


def aims(s: State, mid: str) -> list[Target]:
    """The targets the monster's next turn would head for (all of them when tied), from public facts only."""
    here = s["monsters"][mid]["at"]
    if here is None:
        return []
    targets = candidates(s, mid)
    return _nearest(s, here, targets, _passable(s, "free")) or _nearest(s, here, targets, _passable(s, "open"))


def _passable(s: State, mode: str) -> Callable[[str], bool]:
    if mode == "free":
        return lambda k: monster_may_enter(s, k)
    return lambda k: not impassable(s, k)


def proceed(s: State, mid: str, ctx: AttackContext, target: Target, mode: str, rng: Rng, events: list[Event]) -> str:
    """Move toward the chosen target, then act on it, else make an opportunity attack."""
    mon = s["monsters"][mid]
    here = placed(mon["at"])
    passable = _passable(s, mode)
    goal_dist = _steps_from(s, _goals(s, here, target, passable), lambda k: k == here or passable(k))
    blocker = _walk(s, mid, target, goal_dist, passable, events)
    kind, k = target
    if mode == "open":
        # Stop before the first occupied tile of the route and attack it, juicy or not.
        if blocker is None and kind != "tile" and k in adjacent_keys(s, placed(mon["at"])):
            blocker = k
        if blocker is not None and (unit_at(s, blocker) is not None or blocker in s["outposts"]):
            start_attack(s, ("monster", mid), blocker, ctx)
            return "attack"
        return _opportunity(s, mid, ctx, rng)
    if kind == "tile" and mon["at"] == k:
        if mon["card"] == "tijian" and s["tiles"][k]["t"] in ("gold", "wood", "mineral"):
            _destroy_tile(s, mid, k, events)
            return "done"
        if mon["card"] == "oryana" and k == s["source_at"]:
            mon["spirits"] += s["source"]
            events.append(Event(msg("gi.ev.oryana_spirits", n=s["source"], held=mon["spirits"])))
            s["source"] = 0
            return "done"
    elif kind != "tile" and _has_target(s, target):
        walked_to = placed(mon["at"])
        if k not in adjacent_keys(s, walked_to) and monster_has(s, mid, "charge") and goal_dist.get(walked_to) == 1:
            _walk(s, mid, target, goal_dist, passable, events, moves=1)  # Charge!: one more step, then attack
        if k in adjacent_keys(s, placed(mon["at"])):
            start_attack(s, ("monster", mid), k, ctx)
            return "attack"
    return _opportunity(s, mid, ctx, rng)


def _has_target(s: State, target: Target) -> bool:
    kind, k = target
    return unit_at(s, k) is not None if kind == "unit" else k in s["outposts"]


def _opportunity(s: State, mid: str, ctx: AttackContext, rng: Rng) -> str:
    """[RB p.18] one juicy adjacent hero, outpost or monster; Oryana never; Groxiah spares empty outposts."""
    mon = s["monsters"][mid]
    if mon["card"] == "oryana":
        return "done"
    attack = monster_attack(s, mid)
    options = []
    for k in adjacent_keys(s, placed(mon["at"])):
        unit = unit_at(s, k)
        if unit is None and (k not in s["outposts"] or mon["card"] == "groxiah"):
            continue
        if juicy(s, attack, k):
            options.append(k)
    if not options:
        return "done"
    options.sort()
    if len(options) > 1 and s["monster_ties"] == "player":
        s["pending"].append({"kind": "monster_opportunity", "seat": s["order"][-1], "monster": mid, "ctx": ctx,
                             "options": options})
        return "wait"
    start_attack(s, ("monster", mid), options[rng.below(len(options))] if len(options) > 1 else options[0], ctx)
    return "attack"


def resume(s: State, item: Question, chosen: str, rng: Rng, events: list[Event]) -> str:
    """Continue a monster turn after the last player in play order broke its tie."""
    mid, ctx = item["monster"], item["ctx"]
    if item["kind"] == "monster_opportunity":
        start_attack(s, ("monster", mid), chosen, ctx)
        return "attack"
    target = next((str(option[0]), str(option[1])) for option in item["options"] if option[1] == chosen)
    return proceed(s, mid, ctx, target, item["mode"], rng, events)


def _destroy_tile(s: State, mid: str, k: str, events: list[Event]) -> None:
    """Tijian's action: the tile produces nothing more; Pillage (level 2+) costs everyone 1 of it."""
    mon = s["monsters"][mid]
    tile = s["tiles"][k]
    kind = tile["t"]
    assert kind is not None, "Tijian destroys resource tiles only"
    tile["destroyed"] = True
    mon["count"] += 1
    events.append(Event(msg("gi.ev.tile_destroyed", monster=monster_name(mon["card"]), tile=tile_label(s, k),
                            kind=tile_name(kind))))
    if monster_has(s, mid, "pillage"):
        for seat in range(len(s["players"])):
            lose_resource(s, seat, kind)


def winner(s: State) -> str | None:
    """A primary monster that completed its victory condition (PROV-18), checked at once (RULING-29)."""
    players = len(s["players"])
    for mid, mon in sorted(s["monsters"].items()):
        if mon["kind"] != "primary":
            continue
        victory = monsters()["primary"][mon["card"]]["victory"]
        need = victory["solo"] if s["solo"] else victory["base"] + (players if victory.get("per_player", True) else 0)
        held = mon["spirits"] if victory["count"] == "spirits_held" else mon["count"]
        if held >= need:
            return mid
    return None
