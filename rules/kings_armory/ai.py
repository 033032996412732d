"""AI heroes for The King's Armory: towers along the lanes, blockers at the front, fire at the Gate's nearest."""

from __future__ import annotations

from typing import Any

from rules.base import Action, LegalAction
from rules.kings_armory import coop, shop
from rules.kings_armory import figures as fg
from rules.kings_armory import round as rnd
from rules.kings_armory import state as st
from rules.kings_armory.board import Sq, footprint, rd
from rules.rng import Rng

S = dict[str, Any]
Fig = dict[str, Any]
#: Moves the AI never makes itself: trade offers and the enemy-turn pause are for people.
IGNORED = ("trade", "withdraw_trade", "hold", "unblock", "give", "transfer")
#: Heroes in the order the AI takes them: a tank, ranged damage, a healer, then the rest.
HERO_ORDER = ("valcor", "ember", "felicity", "midnight", "asphar", "cyrus", "boleslaw")
#: Champions in the order the AI hires them (ranged first: they fight from inside the towers).
HIRE_ORDER = ("archer", "sorcerer", "foot", "cleric", "psionicist")
#: Champions in the order the AI picks them when the players have no heroes: shooters first, who fight from inside
#: the towers (a lone foot soldier blocking at the path falls in the first wave and loses the game).
PICK_ORDER = ("archer", "sorcerer", "foot", "cleric", "psionicist")
#: Squares of a lane a tower is worth being near (its ranged attackers reach about this far).
TOWER_REACH = 4
#: Share of its HP below which an ally near monsters falls back.
RETREAT_AT = 0.35
#: Gold kept for levelling champions once this many towers stand.
TOWERS_WANTED = 4
#: Moves the AI looks ahead when it tells the team what it would buy (its plan never takes half as many).
PLAN_STEPS = 30


def choose(legal: list[LegalAction], s: S, seat: int, rng: Rng) -> Action:
    """The AI's move for `seat` among `legal` (never empty); deterministic for a state (`rng` breaks no ties)."""
    by: dict[str, list[Action]] = {}
    for la in legal:
        if la.action.kind not in IGNORED:
            by.setdefault(la.action.kind, []).append(la.action)
    if not by:
        return legal[0].action
    if "accept_trade" in by:
        return by["accept_trade"][0]  # a teammate asked for this piece: the AI hands it over
    if "reroll" in by:
        return by["reroll"][0] if _missed_all(s) else by["keep_roll"][0]
    if "go_on" in by:
        return by["go_on"][0]
    if "block" in by:
        return by["block"][0]
    if "wait" in by or "pass" in by:
        return (by.get("pass") or by["wait"])[0]
    if "pick" in by:
        return min(by["pick"], key=_pick_rank)
    if "defer" in by:  # the team's gold and towers wait for everyone else's choices; say what we would do
        plan = _plan(s, seat)
        return Action.of("defer", plan=tuple(plan)) if plan else by["defer"][0]
    if s["phase"] in ("setup", "between"):
        return _shop(s, seat, by)
    first = next((la.action for la in legal if la.action.kind not in IGNORED), legal[0].action)
    if s["active"] is None:
        return (by.get("activate") or by.get("end_turn") or [first])[0]
    return _activation(s, st.ally(s, s["active"]), by) or first


def _missed_all(s: S) -> bool:
    """Whether the roll waiting for the Lucky Charm's answer missed every monster it aimed at (then re-roll)."""
    r = s["reroll"]
    a = st.ally(s, r["ally"])
    attack = Action.from_json(r["action"])
    opt = next(o for o in fg.offered_options(a) if o["id"] == attack["opt"])
    bonus = int(opt["hit"]) + (2 if a["st"]["bless"] else 0)
    monsters, _ = rnd.aimed(s, a, opt, attack)
    return not any(fg.roll_hit(int(r["nat"]), bonus, fg.monster_card(m)["dodge"], list(opt["crit"]))[0]
                   for m in monsters)


def _pick_rank(action: Action) -> int:
    """Heroes in HERO_ORDER; in General-ly Not Enough champions in PICK_ORDER."""
    if action.get("type") is not None:
        kind = str(action["type"])
        return PICK_ORDER.index(kind) if kind in PICK_ORDER else 99
    hero = str(action["hero"])
    return HERO_ORDER.index(hero) if hero in HERO_ORDER else 99


# ---------------------------------------------------------------- the map, as the AI weighs it


def _urgency(s: S, sq: Sq) -> float:
    """How close to the Gate a lane square is: 1 at the entrance up to 3 at the exit."""
    b = st.bd(s)
    best = 0.0
    for lane in b.lanes.values():
        if sq in lane:
            best = max(best, lane.index(sq) / (len(lane) - 1))
    return 1 + 2 * best


def _lane_weights(s: S) -> list[tuple[Sq, float]]:
    return [(sq, _urgency(s, sq)) for sq in sorted(st.bd(s).path)]


def _cover(squares: list[Sq], lanes: list[tuple[Sq, float]], reach: int) -> float:
    return sum(w for sq, w in lanes if min(rd(sq, q) for q in squares) <= reach)


def _front(s: S) -> Fig | None:
    """The monster nearest the Gate (fewest squares left to walk)."""
    b = st.bd(s)
    if not s["monsters"]:
        return None
    return min(s["monsters"], key=lambda m: (b.route_left(m["lane"], m["i"]), -m["hp"], m["id"]))


def _ranged(a: Fig) -> bool:
    return fg.primary_type(a) in ("R", "SN") or fg.primary_type(a) is None


# ---------------------------------------------------------------- set-up and between waves


def _shop(s: S, seat: int, by: dict[str, list[Action]]) -> Action:
    lanes = _lane_weights(s)
    if "build" in by and (s["free_towers"] or len(s["towers"]) < TOWERS_WANTED):
        return max(by["build"], key=lambda a: (_build_score(s, a, lanes), str(a["at"])))
    mine = st.seat_allies(s, seat)
    for a in [x for x in mine if x["kind"] == "hero"] + [x for x in mine if x["kind"] == "champion"]:
        if st.housed(s, a) or (a["kind"] == "champion" and (a["pos"] is not None or _spare(s) < 1)):
            continue
        places = [x for x in by.get("place", []) if x["ally"] == a["id"]]
        if places:
            return max(places, key=lambda x: (_place_score(s, a, x, lanes), str(x["at"])))
    for kind in HIRE_ORDER:
        hire = next((a for a in by.get("hire", []) if a["type"] == kind), None)
        if hire is not None and _spare(s) >= 1:
            return hire
    if "upgrade" in by:
        return by["upgrade"][0]
    return (by.get("ready") or by.get("place") or [next(iter(by.values()))[0]])[0]


def _plan(s: S, seat: int) -> list[str]:
    """The shared moves (towers, champions, levels) this seat would make now, after those its teammates already
    proposed: its proposal to the team while it waits for the others (the moves placing its own allies are left
    out, they are nobody else's business)."""
    base = coop.after_proposals(s)
    sim = st.clone(base)
    rng = Rng(s["rng_state"])  # no shared move draws anything
    plan: list[str] = []
    for _ in range(PLAN_STEPS):
        by: dict[str, list[Action]] = {}
        for la in shop.legal(sim, seat):
            by.setdefault(la.action.kind, []).append(la.action)
        if not by:
            break
        action = _shop(sim, seat, by)
        if action.kind in coop.SHARED:
            plan.append(coop.item(action))
        elif action.kind not in ("place", "bench"):
            break  # ready: the rest is saved
        shop.apply(sim, rng, [], seat, action)
    plan = plan[:coop.MAX_PLAN]
    while plan and coop.try_plan(base, seat, plan) is None:  # only what the team could do in this order
        plan.pop()
    return plan


def _spare(s: S) -> int:
    """House slots left once every hero not yet housed has one: champions never take a hero's place."""
    free = sum(max(0, st.capacity(s, h) - st.slots_used(s, h)) for h in st.houses(s))
    return free - sum(1 for a in st.heroes(s) if not st.housed(s, a))


def _build_score(s: S, action: Action, lanes: list[tuple[Sq, float]]) -> float:
    corner = st.bd(s).parse(str(action["at"]))
    assert corner is not None
    cells = footprint(corner)
    taken = st.tower_squares(s)
    spread = min((rd(c, t) for c in cells for t in taken), default=9)
    return _cover(cells, lanes, TOWER_REACH) - (40 if spread <= 3 else 0)


def _place_score(s: S, a: Fig, action: Action, lanes: list[tuple[Sq, float]]) -> float:
    b = st.bd(s)
    sq = b.parse(str(action["at"]))
    assert sq is not None
    inside = sq in st.houses(s)[str(action["house"])]
    if _ranged(a):
        return _cover([sq], lanes, TOWER_REACH + 1) + (20 if inside else 0)
    if inside or sq in b.path:
        return -1.0
    # a fighter stands beside a lane, as near the Gate as it can, to block
    near = [w for p, w in lanes if rd(sq, p) <= 1]
    return max(near, default=0.0) * 10 + len(near)


# ---------------------------------------------------------------- an activation


def _activation(s: S, a: Fig, by: dict[str, list[Action]]) -> Action | None:
    heal = _heal(s, a, by.get("special", []))
    if heal is not None:
        return heal
    retreat = _retreat(s, a, by) if a["hp"] <= fg.ally_card(a)["max"] * RETREAT_AT else None
    if retreat is not None:
        return retreat
    best = max(by.get("attack", []), key=lambda x: (_attack_value(s, a, x), x.token()), default=None)
    if best is not None and _attack_value(s, a, best) > 0:
        return best
    move = _approach(s, a, by.get("move", []) + by.get("exit", []))
    if move is not None:
        return move
    ends = by.get("end")
    return ends[0] if ends else None


def _retreat(s: S, a: Fig, by: dict[str, list[Action]]) -> Action | None:
    """A hurt ally with monsters close by gets into a tower, or steps as far from them as it can."""
    p = st.pos(a)
    if p is None or a["inside"]:
        return None
    near = [st.msq(s, m) for m in s["monsters"]]
    if not near or min(rd(p, q) for q in near) > 2:
        return None
    if by.get("enter"):
        return by["enter"][0]
    b = st.bd(s)

    def away(action: Action) -> tuple[int, str]:
        sq = b.parse(str(action["to"]))
        assert sq is not None
        return min(rd(sq, q) for q in near), str(action["to"])

    best = max(by.get("move", []), key=away, default=None)
    return best if best is not None and away(best)[0] > min(rd(p, q) for q in near) else None


def _heal(s: S, a: Fig, specials: list[Action]) -> Action | None:
    hurt = {x["id"]: fg.ally_card(x)["max"] - x["hp"] for x in s["allies"] if not x["ko"]}
    for action in specials:
        opt = next(o for o in fg.offered_options(a) if o["id"] == action["opt"])
        if opt["effect"] == "heal" and hurt.get(str(action.get("target")), 0) >= 4:
            return action
        if opt["effect"] == "heal_area" and sum(1 for v in hurt.values() if v >= 4) >= 2:
            return action
    return None


def _attack_value(s: S, a: Fig, action: Action) -> float:
    opt = next(o for o in fg.offered_options(a) if o["id"] == action["opt"])
    bonus = 0 if opt["hit"] == "auto" else int(opt["hit"]) + (2 if a["st"]["bless"] else 0)
    if opt.get("area") is None:
        aims = [st.monster(s, action["target"]), st.monster(s, action.get("second"))]
        targets = [m for m in aims if m is not None]
        friends = 0
    else:
        cells = set(rnd.area_squares(s, a, opt, action))
        targets = [m for m in s["monsters"] if st.msq(s, m) in cells and rnd.can_target(opt, m)]
        friends = sum(1 for x in s["allies"] if not x["ko"] and st.pos(x) in cells and x["id"] != a["id"])
    value = 0.0
    for m in targets:
        card = fg.monster_card(m)
        res = card["res"][opt["type"]]
        if res == "Im":
            continue
        hit = 1.0 if opt["hit"] == "auto" else min(0.95, max(0.05, (21 - card["dodge"] + bonus) / 20))
        dealt = sum(fg.damage(int(opt["dmg"]), opt.get("hits", 1), False, 1.0, 0, int(res) + m["st"]["bless"]))
        urgent = _urgency(s, st.msq(s, m))
        value += hit * urgent * (min(dealt, m["hp"]) + (4 if dealt >= m["hp"] else 0))
    return value / max(1, int(opt["ac"])) - 100 * friends


def _approach(s: S, a: Fig, moves: list[Action]) -> Action | None:
    """A step toward the monster nearest the Gate (into range of it, for archers and casters: a tower with nothing
    in reach is no use to them)."""
    front = _front(s)
    p = st.pos(a)
    if front is None or p is None or not moves:
        return None
    b = st.bd(s)
    goal = st.msq(s, front)
    reach = max((int(o["range"]) for o in fg.offered_options(a) if o["kind"] == "attack"), default=1)
    want = 1 if not _ranged(a) else reach

    def score(action: Action) -> tuple[int, str]:
        sq = b.parse(str(action["to"]))
        assert sq is not None
        return abs(rd(sq, goal) - want), str(action["to"])

    best = min(moves, key=score)
    return best if score(best)[0] < abs(rd(p, goal) - want) else None
