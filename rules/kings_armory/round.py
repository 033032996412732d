"""The allies' round (§3.9, §4.2): activating allies one at a time, moves, towers, attacks, special actions,
blocks declared on one's turn, and the behaviour minimums that may refuse ending an activation (A-27)."""

from __future__ import annotations

from rules.base import Action, Event, LegalAction
from rules.kings_armory import data, enemy, figures, queries
from rules.kings_armory.board import STEP, Sq, range_distance
from rules.kings_armory.shapes import Ally, Monster, Option, State
from rules.rng import Rng
from rules.text import Lit, Param, msg


def _offer(action: Action, key: str, **params: Param) -> LegalAction:
    return LegalAction(action, msg(f"ka.act.{key}", **params), group=action.kind)


# ---------------------------------------------------------------- targets


def can_target(opt: Option, mon: Monster) -> bool:
    """Melee never hits flyers, supernatural range 1 neither; ranged always does (§3.7.2)."""
    if figures.flying(mon) and not mon["grounded"]:
        return opt["type"] == "R" or (opt["type"] == "SN" and opt["range"] >= 2)
    return True


def attack_range(a: Ally, opt: Option) -> int:
    return int(opt["range"]) + (1 if a["inside"] and opt["type"] == "R" else 0)  # +1 in a tower


def usable_from(a: Ally, opt: Option) -> bool:
    """Melee (and supernatural range 1) never reach into or out of a tower."""
    return not a["inside"] or opt["type"] == "R" or (opt["type"] == "SN" and opt["range"] >= 2)


def _rectangle(anchor: Sq, rows: int, cols: int) -> list[Sq]:
    return [(anchor[0] + r, anchor[1] + c) for r in range(rows) for c in range(cols)]


def area_squares(state: State, a: Ally, opt: Option, action: Action) -> list[Sq]:
    p = queries.pos(a)
    assert p is not None
    area = opt.get("area")
    if area == "around":
        return [(p[0] + dr, p[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    if area == "line":
        dr, dc = STEP[str(action["dir"])]
        return [(p[0] + dr * k, p[1] + dc * k) for k in range(1, attack_range(a, opt) + 1)]
    anchor = queries.board_of(state).parse(str(action["at"]))
    assert anchor is not None
    anchor = (anchor[0] - int(action.get("up") or 0), anchor[1] - int(action.get("left") or 0))
    return _rectangle(anchor, int(action["rows"]), int(action["cols"]))


def _monsters_in(state: State, squares: list[Sq], opt: Option) -> list[Monster]:
    cells = set(squares)
    return [m for m in state["monsters"] if queries.monster_square(state, m) in cells and can_target(opt, m)]


def attack_actions(state: State, a: Ally) -> list[LegalAction]:
    out: list[LegalAction] = []
    p = queries.pos(a)
    if p is None or a["shield"]:
        return out
    b = queries.board_of(state)
    for opt in figures.offered_options(a):
        if opt["kind"] != "attack" or opt["ac"] > a["ap"] or not usable_from(a, opt):
            continue
        reach = attack_range(a, opt)
        area = opt.get("area")
        name = Lit(opt["es"], opt["en"])
        if area is None:
            targets = [m for m in state["monsters"]
                       if range_distance(p, queries.monster_square(state, m)) <= reach and can_target(opt, m)]
            for m in targets:
                out.append(_offer(Action.of("attack", opt=opt["id"], target=m["id"]), "attack", option=name,
                               monster=figures.monster_name(m), square=b.label(queries.monster_square(state, m))))
            if opt.get("targets", 1) == 2:
                for i, m in enumerate(targets):
                    for m2 in targets[i + 1:]:
                        out.append(_offer(Action.of("attack", opt=opt["id"], target=m["id"], second=m2["id"]),
                                       "attack_two", option=name, monster=figures.monster_name(m),
                                       other=figures.monster_name(m2)))
        elif area == "around":
            act = Action.of("attack", opt=opt["id"])
            if _monsters_in(state, area_squares(state, a, opt, act), opt):
                out.append(_offer(act, "attack_around", option=name))
        elif area == "line":
            for d in ("N", "E", "S", "W"):
                act = Action.of("attack", opt=opt["id"], dir=d)
                if _monsters_in(state, area_squares(state, a, opt, act), opt):
                    out.append(_offer(act, "attack_line", option=name, dir=d))
        else:
            out += _area_attacks(state, opt, p, reach, name)
    return out


def _area_attacks(state: State, opt: Option, p: Sq, reach: int, name: Lit) -> list[LegalAction]:
    """Every placement of a rectangular area wholly within range that holds a monster. «El AOE puede quedarse fuera
    del mapa, siempre y cuando el rango sea lo suficientemente grande»: it may hang off any edge. An area is named by
    its top-left square; one hanging off the top or left edge, whose top-left square is off the map, by its first
    square on the map and how far it reaches beyond it (`up`, `left`), so the squares off the map (the entrance
    squares, where monsters arrive) are still in it (A-44)."""
    b = queries.board_of(state)
    area = opt["area"]
    assert not isinstance(area, str)  # an area of rows by columns
    hit = {queries.monster_square(state, m) for m in state["monsters"] if can_target(opt, m)}
    out: list[LegalAction] = []
    for rows, cols in {(area[0], area[1]), (area[1], area[0])}:
        for r in range(p[0] - reach, p[0] + reach + 1):
            for c in range(p[1] - reach, p[1] + reach + 1):
                cells = _rectangle((r, c), rows, cols)
                if hit.isdisjoint(cells):  # no monster in it: nothing more to check
                    continue
                corner = (max(0, r), max(0, c))
                if not b.on_field(corner) or any(range_distance(p, q) > reach for q in cells) \
                        or not _monsters_in(state, cells, opt):
                    continue
                label = b.label(corner)
                beyond = {k: v for k, v in (("up", corner[0] - r), ("left", corner[1] - c)) if v}
                action = Action.of("attack", opt=opt["id"], at=label, rows=rows, cols=cols, **beyond)
                out.append(_offer(action, "attack_area_off" if beyond else "attack_area", option=name, square=label,
                               rows=rows, cols=cols))
    return out


def resistance(mon: Monster, kind: str, a: Ally | None = None) -> int | str:
    """The monster's resistance to this attack: Bless +1, then Enchant Weapon on the attacker and Psychic
    Sunder on the target each 2 lower (minimum 0, immunity untouched)."""
    value = figures.monster_card(mon)["res"][kind]
    if value == "Im":
        return value
    value = int(value) + (1 if mon["st"]["bless"] else 0)
    return figures.lowered(value, (a["enchanted"] if a else 0) + mon["sundered"])


def qualifies(state: State, a: Ally, action: Action) -> bool:
    """Whether this attack would count toward the attack minimum: it aims at a non-immune monster (§3.7.5)."""
    opt = next(o for o in figures.offered_options(a) if o["id"] == action["opt"])
    if opt.get("area") is None:
        aims = [queries.monster(state, action["target"]), queries.monster(state, action.get("second"))]
        targets = [m for m in aims if m is not None]
    else:
        targets = _monsters_in(state, area_squares(state, a, opt, action), opt)
    return any(resistance(m, opt["type"]) != "Im" for m in targets)


def minimum(state: State, a: Ally) -> int:
    card = figures.ally_card(a)
    need = int(card.get("min_attacks", 0))
    if len(state["monsters"]) <= 5:
        need = max(need, int(card.get("min_attacks_few", 0)))
    if need >= 2 and a.get("sprinted"):
        need = 1  # the Berserker: one attack suffices in a round he sprints
    return need


def may_stop(state: State, a: Ally, attacks: list[LegalAction] | None = None) -> bool:
    """A-27: refused only while below the minimum and a qualifying attack is possible right now (`attacks`: the
    active ally's attack actions, when the caller has them already)."""
    if a["attacks"] >= minimum(state, a) or a["ko"]:
        return True
    probe = a if a["id"] == state["active"] else {**a, "ap": figures.ally_card(a)["ap"]}
    if attacks is None or probe is not a:
        attacks = attack_actions(state, probe)
    return not any(qualifies(state, probe, la.action) for la in attacks)


# ---------------------------------------------------------------- listing


def block_actions(state: State, seat: int) -> list[LegalAction]:
    out = []
    for m in state["monsters"]:
        if m["blocked_by"] is not None:
            continue
        for a in enemy.blockers(state, m):
            if a["seat"] == seat:
                out.append(_offer(Action.of("block", ally=a["id"], monster=m["id"]), "block", ally=figures.ally_name(a),
                               monster=figures.monster_name(m)))
    return out


def unblock_actions(state: State, seat: int) -> list[LegalAction]:
    """«Puedes desbloquear en cualquier momento durante el turno del jugador»: during the allies' round the seat
    may drop any block its allies hold, for free (never during the enemy turn, §4.3)."""
    if state["phase"] != "allies":
        return []
    out = []
    for a in queries.seat_allies(state, seat):
        for mid in a["blocks"]:
            m = queries.monster(state, mid)
            if m is not None:
                out.append(_offer(Action.of("unblock", ally=a["id"], monster=mid), "unblock", ally=figures.ally_name(a),
                               monster=figures.monster_name(m)))
    return out


def unblock(state: State, events: list[Event], action: Action) -> None:
    a = queries.ally(state, str(action["ally"]))
    m = queries.monster(state, action["monster"])
    assert m is not None
    a["blocks"].remove(m["id"])
    m["blocked_by"] = None
    if "U" in figures.flags(m):
        a["phalanx_used"] = False  # the Personal Phalanx may take another unblockable monster
    events.append(Event(msg("ka.ev.unblock", ally=figures.ally_name(a), monster=figures.monster_name(m))))


def _champion_ok(state: State, a: Ally, sq: Sq) -> bool:
    return a["kind"] == "hero" or a["house"] is None or queries.near_house(state, a["house"], sq)


#: Which part of an active ally's options lists each kind of move (so checking one move lists only its part).
MOVE_KINDS = frozenset({"move", "exit", "enter", "transfer"})


def _gate_distance(state: State, house: str) -> int:
    b = queries.board_of(state)
    return min(b.gate_range(sq) for sq in queries.houses(state)[house])


def _nothing_in_reach(state: State, a: Ally) -> bool:
    """No monster within range of any of the ally's attacks now (section D's second case)."""
    p = queries.pos(a)
    assert p is not None
    for opt in figures.offered_options(a):
        if opt["kind"] == "attack" and usable_from(a, opt) and any(
                range_distance(p, queries.monster_square(state, m)) <= attack_range(a, opt) and can_target(opt, m)
                for m in state["monsters"]):
            return False
    return True


def transfer_actions(state: State, a: Ally) -> list[LegalAction]:
    """«Puede pasar de 1 Torre a otra torre válida si pueden hacer todo el viaje en 1 turno»: a champion with all
    its AP may spend them all to go to another tower with a free slot (inside it, or within 2 squares of it), when
    the whole trip fits in this activation, and only as section D allows: «Hay 6 o más monstruos en el tablero»,
    or nothing is in reach of its attacks now, or (5 or fewer monsters on the board) the new tower is nearer the
    Gate than its own (A-45)."""
    if a["kind"] != "champion" or a["house"] not in queries.houses(state) or a["ap"] < figures.ally_card(a)["ap"]:
        return []
    p = queries.pos(a)
    assert p is not None
    many, idle = len(state["monsters"]) >= 6, _nothing_in_reach(state, a)
    mv, ap = figures.ally_mv(a), int(a["ap"])
    houses = queries.houses(state)
    here = _gate_distance(state, a["house"])
    # where the trip may end: (square, AP left) after leaving the tower it stands in, if any
    starts = [(sq, ap - 1) for sq in queries.entry_squares(state, a["house"]) if queries.free_for_ally(state, sq)] \
        if a["inside"] else [(p, ap)]
    ends: dict[Sq, int] = {}
    for start, left in starts:
        if start != p:
            ends[start] = max(ends.get(start, -1), left)
        for k in range(1, left + 1):
            for sq in queries.reachable(state, start, k * mv):
                ends[sq] = max(ends.get(sq, -1), left - k)
    b = queries.board_of(state)
    out: list[LegalAction] = []
    for hid, squares in houses.items():
        if hid == a["house"] or not queries.has_slot(state, hid, without=a["id"]):
            continue
        if not (many or idle or _gate_distance(state, hid) < here):
            continue
        targets = [sq for sq in ends if queries.near_house(state, hid, sq)]
        entries = set(queries.entry_squares(state, hid))
        if any(ends[sq] >= 1 for sq in entries if sq in ends) or (not a["inside"] and p in entries and ap >= 1):
            targets += [sq for sq in squares if queries.ally_at(state, sq) is None]
        for sq in sorted(set(targets)):
            out.append(_offer(Action.of("transfer", house=hid, to=b.label(sq)), "transfer", ally=figures.ally_name(a),
                           square=b.label(sq)))
    return out


def ally_actions(state: State, a: Ally, kind: str | None = None) -> list[LegalAction]:
    """The active ally's moves; only those of `kind` (and perhaps a few others) when it is given."""
    out: list[LegalAction] = []
    p = queries.pos(a)
    assert p is not None
    b = queries.board_of(state)
    houses = queries.houses(state)
    if a["ap"] >= 1 and (kind is None or kind in MOVE_KINDS):
        if a["inside"]:
            here = queries.house_of_square(state, p)
            assert here is not None
            for sq in houses[here]:
                if sq != p and queries.ally_at(state, sq) is None:
                    out.append(_offer(Action.of("move", to=b.label(sq)), "move", square=b.label(sq)))
            for sq in queries.entry_squares(state, here):
                if queries.free_for_ally(state, sq) and _champion_ok(state, a, sq):
                    out.append(_offer(Action.of("exit", to=b.label(sq)), "exit", square=b.label(sq)))
        else:
            for sq in queries.reachable(state, p, figures.ally_mv(a)):
                if _champion_ok(state, a, sq):
                    out.append(_offer(Action.of("move", to=b.label(sq)), "move", square=b.label(sq)))
            for hid, squares in houses.items():
                if (a["kind"] == "champion" and a["house"] != hid) or a["kind"] == "summon":
                    continue
                if p not in queries.entry_squares(state, hid) or not queries.has_slot(state, hid, without=a["id"]):
                    continue
                for sq in squares:
                    if queries.ally_at(state, sq) is None:
                        out.append(_offer(Action.of("enter", house=hid, at=b.label(sq)), "enter", square=b.label(sq)))
    if kind in (None, "transfer"):
        out += transfer_actions(state, a)
    attacks = attack_actions(state, a) if kind in (None, "attack", "end") else []
    out += attacks if kind != "end" else []
    if kind in (None, "special"):
        out += _special_actions(state, a)
    if kind in (None, "block"):
        out += block_actions(state, a["seat"])
    if kind in (None, "unblock"):
        out += unblock_actions(state, a["seat"])
    if kind in (None, "end") and may_stop(state, a, attacks):
        out.append(_offer(Action.of("end"), "end", ally=figures.ally_name(a)))
    return out


def _special_actions(state: State, a: Ally) -> list[LegalAction]:
    out: list[LegalAction] = []
    p = queries.pos(a)
    assert p is not None
    b = queries.board_of(state)
    for opt in figures.offered_options(a):
        if opt["kind"] != "special" or opt["ac"] > a["ap"]:
            continue
        name = Lit(opt["es"], opt["en"])
        effect = opt["effect"]
        if effect == "potion" and "potion" in a["once"]:
            continue
        if effect in ("tank_bonus", "heal_area", "bless_area", "rage", "energy_shield", "potion"):
            out.append(_offer(Action.of("special", opt=opt["id"]), "special", option=name))
        elif effect == "slow":
            for m in state["monsters"]:
                if range_distance(p, queries.monster_square(state, m)) <= opt["range"] \
                        and not (opt.get("ground_only") and figures.flying(m)):
                    out.append(_offer(Action.of("special", opt=opt["id"], target=m["id"]), "special_on", option=name,
                                   target=figures.monster_name(m)))
        elif effect in ("heal", "bless"):
            for x in state["allies"]:
                xp = queries.pos(x)
                if not x["ko"] and xp is not None and range_distance(p, xp) <= opt["range"]:
                    out.append(_offer(Action.of("special", opt=opt["id"], target=x["id"]), "special_on", option=name,
                                   target=figures.ally_name(x)))
        elif effect == "guard":
            for x in state["allies"]:
                xp = queries.pos(x)
                if x["id"] != a["id"] and not x["ko"] and xp is not None and range_distance(p, xp) <= 1:
                    out.append(_offer(Action.of("special", opt=opt["id"], target=x["id"]), "special_on", option=name,
                                   target=figures.ally_name(x)))
        elif effect in ("enchant", "teleport_ally"):
            for x in state["allies"]:
                xp = queries.pos(x)
                if x["id"] == a["id"] or x["ko"] or xp is None or range_distance(p, xp) > opt["range"]:
                    continue
                if effect == "enchant":
                    out.append(_offer(Action.of("special", opt=opt["id"], target=x["id"]), "special_on", option=name,
                                   target=figures.ally_name(x)))
                    continue
                for sq in teleport_targets(state, a, x, int(opt["range"])):
                    out.append(_offer(Action.of("special", opt=opt["id"], target=x["id"], to=b.label(sq)),
                                   "special_send", option=name, target=figures.ally_name(x), square=b.label(sq)))
        elif effect in ("sunder", "gravity", "mind_fog"):
            for m in state["monsters"]:
                if range_distance(p, queries.monster_square(state, m)) > opt["range"] or not special_fits(effect, m):
                    continue
                out.append(_offer(Action.of("special", opt=opt["id"], target=m["id"]), "special_on", option=name,
                               target=figures.monster_name(m)))
        elif effect == "summon_guardian" and not a.get("summoned"):
            for sq in summon_squares(state, p, int(opt["range"])):
                out.append(_offer(Action.of("special", opt=opt["id"], to=b.label(sq)), "special_to", option=name,
                               square=b.label(sq)))
        elif effect == "psychic_wall":
            walls = {tuple(w) for w in state["walls"]}
            for sq in sorted(b.path):
                if range_distance(p, sq) <= opt["range"] and sq not in walls:
                    out.append(_offer(Action.of("special", opt=opt["id"], to=b.label(sq)), "special_to", option=name,
                                   square=b.label(sq)))
        elif effect == "dash" and not a["inside"]:
            for sq in queries.reachable(state, p, int(opt["amount"])):
                if _champion_ok(state, a, sq):
                    out.append(_offer(Action.of("special", opt=opt["id"], to=b.label(sq)), "special_to", option=name,
                                   square=b.label(sq)))
    return out


def special_fits(effect: str, m: Monster) -> bool:
    """Psychic Sunder: any monster; Gravity Well: a non-boss flyer still flying; Mind Fog: a non-boss monster."""
    if effect == "gravity":
        return not m["boss"] and figures.flying(m) and not m["grounded"]
    return effect == "sunder" or not m["boss"]


def summon_squares(state: State, p: Sq, reach: int) -> list[Sq]:
    """Free field squares outside towers within `reach` of `p` (Call the Guardian)."""
    b = queries.board_of(state)
    towers = queries.tower_squares(state)
    return [(r, c) for r in range(p[0] - reach, p[0] + reach + 1) for c in range(p[1] - reach, p[1] + reach + 1)
            if (r, c) != p and range_distance(p, (r, c)) <= reach and queries.walkable(state, (r, c), towers)
            and b.on_field((r, c)) and queries.free_for_ally(state, (r, c))]


def teleport_targets(state: State, a: Ally, x: Ally, reach: int) -> list[Sq]:
    """Where Teleport Ally may send `x`: a free square, or a free slot of a house, within `reach` of the
    psionicist `a`; a champion stays within 2 squares of its own tower, a summon stays out of towers."""
    p = queries.pos(a)
    assert p is not None
    out = [sq for sq in summon_squares(state, p, reach) if _champion_ok(state, x, sq)]
    if x["kind"] == "summon":
        return out
    for hid, squares in queries.houses(state).items():
        if (x["kind"] == "champion" and x["house"] != hid) or not queries.has_slot(state, hid, without=x["id"]):
            continue
        out += [sq for sq in squares if range_distance(p, sq) <= reach and queries.ally_at(state, sq) is None]
    return out


def out_of_turn(state: State, seat: int) -> list[LegalAction]:
    """Boleslaw's player may activate him between other allies' activations of the allies' round (P-25); he
    then spends his AP at once, and what he leaves unspent is lost."""
    if state["phase"] != "allies" or state["active"] is not None or seat == state["turn"] or state["turn"] < 0:
        return []
    return [_offer(Action.of("activate", ally=a["id"]), "activate", ally=figures.ally_name(a))
            for a in queries.seat_allies(state, seat)
            if figures.ally_card(a).get("out_of_turn") and not a["ko"] and not a["done"] and queries.pos(a) is not None]


def legal(state: State, seat: int, kind: str | None = None) -> list[LegalAction]:
    """The seat's moves in the allies' round; with `kind`, a shorter list that still holds every move of it."""
    if state["active"] is not None and queries.ally(state, state["active"])["seat"] == seat:
        return ally_actions(state, queries.ally(state, state["active"]), kind)
    if seat != state["turn"]:
        return []
    if state["active"] is None:
        ready = [a for a in queries.seat_allies(state, seat)
                 if not a["ko"] and not a["done"] and queries.pos(a) is not None]
        out = [_offer(Action.of("activate", ally=a["id"]), "activate", ally=figures.ally_name(a)) for a in ready]
        out += [_offer(Action.of("activate", ally=a["id"], charm=True), "activate_charm", ally=figures.ally_name(a))
                for a in ready if "hourglass" in a["gear"] and "hourglass" not in a["once"]]
        if kind in (None, "block"):
            out += block_actions(state, seat)
        if kind in (None, "unblock"):
            out += unblock_actions(state, seat)
        if kind in (None, "end_turn") \
                and all(may_stop(state, a) for a in queries.seat_allies(state, seat) if not a["done"]):
            out.append(_offer(Action.of("end_turn"), "end_turn"))
        return out
    return []  # another seat's Boleslaw is acting out of turn


# ---------------------------------------------------------------- applying


def _spend(state: State, events: list[Event], a: Ally, ac: int) -> None:
    a["ap"] -= ac
    if a["ap"] <= 0 and queries.find_ally(state, a["id"]) is not None:
        finish(state, events, a)


def finish(state: State, events: list[Event], a: Ally) -> None:
    a["done"] = True
    a["ap"] = 0
    a["rage"] = 0
    state["active"] = None
    if all(x["done"] or x["ko"] for x in queries.seat_allies(state, state["turn"])):
        enemy.next_seat(state, events)


def _refresh_blocks(state: State, a: Ally) -> None:
    """A block ends when the blocker leaves range 1 or goes into a tower (A-05)."""
    p = queries.pos(a)
    for mid in list(a["blocks"]):
        m = queries.monster(state, mid)
        if m is None or p is None or range_distance(p, queries.monster_square(state, m)) > 1 \
                or (a["inside"] and not figures.ally_card(a).get("mind_cage")):
            a["blocks"].remove(mid)
            if m is not None:
                m["blocked_by"] = None


def apply(state: State, rng: Rng, events: list[Event], seat: int, action: Action) -> bool:
    """Apply a legal allies'-round action; returns whether it rolled a die."""
    b = queries.board_of(state)
    kind = action.kind
    if kind == "activate":
        a = queries.ally(state, str(action["ally"]))
        a["ap"] = figures.ally_card(a)["ap"]
        if action.get("charm"):  # Hourglass Charm: more AP once per wave (§8.6)
            a["ap"] += int(data.equipment()["hourglass"]["mods"]["ap"])
            a["once"] = [*a["once"], "hourglass"]
        state["active"] = a["id"]
        return False
    if kind == "end_turn":
        for a in queries.seat_allies(state, seat):
            a["done"] = True
        state["active"] = None
        enemy.next_seat(state, events)
        return False
    if kind == "block":
        a = queries.ally(state, str(action["ally"]))
        m = queries.monster(state, action["monster"])
        assert m is not None
        enemy.block(state, a, m)
        events.append(Event(msg("ka.ev.block", ally=figures.ally_name(a), monster=figures.monster_name(m))))
        return False
    if kind == "unblock":
        unblock(state, events, action)
        return False
    a = queries.ally(state, str(state["active"]))
    if kind == "end":
        finish(state, events, a)
        return False
    if kind == "transfer":
        sq = b.parse(str(action["to"]))
        assert sq is not None
        house = str(action["house"])
        a["pos"], a["house"] = [sq[0], sq[1]], house
        a["inside"] = sq in queries.houses(state)[house]
        _refresh_blocks(state, a)
        events.append(Event(msg("ka.ev.transfer", ally=figures.ally_name(a), square=b.label(sq))))
        finish(state, events, a)  # the trip takes all its actions
        return False
    if kind in ("move", "exit", "enter"):
        sq = b.parse(str(action["at"] if kind == "enter" else action["to"]))
        assert sq is not None
        a["pos"] = [sq[0], sq[1]]
        if kind == "enter":
            a["inside"], a["house"] = True, str(action["house"])
        elif kind == "exit":
            a["inside"] = False
        _refresh_blocks(state, a)
        events.append(Event(msg(f"ka.ev.{kind}", ally=figures.ally_name(a), square=b.label(sq))))
        _spend(state, events, a, 1)
        return False
    opt = next(o for o in figures.offered_options(a) if o["id"] == action["opt"])
    if kind == "special":
        _special(state, events, a, opt, action)
        _spend(state, events, a, opt["ac"])
        return False
    rolled = _attack(state, rng, events, a, opt, action)
    if state["reroll"] is None:
        _after_attack(state, events, a, opt)
    return rolled


def _after_attack(state: State, events: list[Event], a: Ally, opt: Option) -> None:
    if queries.find_ally(state, a["id"]) is not None and not a["ko"] and state["phase"] == "allies" \
            and state["active"] == a["id"]:
        _spend(state, events, a, opt["ac"])


def reroll_legal(state: State) -> list[LegalAction]:
    """The Lucky Charm's question to its holder's player: roll the attack again, or keep the roll."""
    r = state["reroll"]
    assert r is not None
    name = figures.ally_name(queries.ally(state, r["ally"]))
    return [_offer(Action.of("reroll"), "reroll", ally=name, roll=r["nat"]),
            _offer(Action.of("keep_roll"), "keep_roll", ally=name, roll=r["nat"])]


def answer_reroll(state: State, rng: Rng, events: list[Event], action: Action) -> None:
    """The holder's answer: a re-roll spends the charm for this wave and the second roll stands (§8.6)."""
    r = state["reroll"]
    assert r is not None
    state["reroll"] = None
    a = queries.ally(state, r["ally"])
    attack = Action.from_json(r["action"])
    opt = next(o for o in figures.offered_options(a) if o["id"] == attack["opt"])
    nat = int(r["nat"])
    if action.kind == "reroll":
        a["once"] = [*a["once"], "lucky"]
        nat = rng.die(20)
        events.append(Event(msg("ka.ev.lucky", ally=figures.ally_name(a), roll=r["nat"], new=nat)))
    else:
        events.append(Event(msg("ka.ev.lucky_keep", ally=figures.ally_name(a), roll=nat)))
    _resolve_attack(state, events, a, opt, attack, nat, bool(r["counts"]))
    _after_attack(state, events, a, opt)


def _special(state: State, events: list[Event], a: Ally, opt: Option, action: Action) -> None:
    effect = opt["effect"]
    name = Lit(opt["es"], opt["en"])
    events.append(Event(msg("ka.ev.special", ally=figures.ally_name(a), option=name)))
    p = queries.pos(a)
    assert p is not None
    if effect == "tank_bonus":
        a["tank_bonus"] += int(opt["amount"])
        a["phalanx"] = a["phalanx"] or bool(opt.get("unblockable"))
    elif effect == "slow":
        m = queries.monster(state, action["target"])
        assert m is not None
        if "type" not in opt or figures.monster_card(m)["res"][opt["type"]] != "Im":
            figures.add_status(m["st"], "slow")
    elif effect in ("heal", "bless"):
        x = queries.ally(state, str(action["target"]))
        if effect == "heal":
            x["hp"] = min(figures.ally_card(x)["max"], x["hp"] + int(opt["amount"]))
        else:
            figures.add_status(x["st"], "bless")
    elif effect in ("heal_area", "bless_area"):
        for x in state["allies"]:
            xp = queries.pos(x)
            if not x["ko"] and xp is not None and range_distance(p, xp) <= opt["range"]:
                if effect == "heal_area":
                    x["hp"] = min(figures.ally_card(x)["max"], x["hp"] + int(opt["amount"]))
                else:
                    figures.add_status(x["st"], "bless")
    elif effect == "dash":
        sq = queries.board_of(state).parse(str(action["to"]))
        assert sq is not None
        a["pos"] = [sq[0], sq[1]]
        a["sprinted"] = a["sprinted"] or bool(opt.get("sprint"))
        _refresh_blocks(state, a)
    elif effect == "rage":
        a["rage"], a["dodge_pen"] = 2, 2
    elif effect == "guard":
        a["guarding"] = str(action["target"])
    elif effect == "potion":
        a["once"] = [*a["once"], "potion"]
        a["hp"] = min(figures.ally_card(a)["max"], a["hp"] + int(opt["amount"]))
    elif effect == "enchant":
        queries.ally(state, str(action["target"]))["enchanted"] = int(opt["amount"])
    elif effect in ("sunder", "gravity", "mind_fog"):
        m = queries.monster(state, action["target"])
        assert m is not None
        if effect == "mind_fog":
            m["fog"] = int(opt["amount"])
        elif figures.monster_card(m)["res"]["SN"] != "Im":  # supernatural: an immune target takes no effect
            if effect == "sunder":
                m["sundered"] = int(opt["amount"])
            else:
                m["grounded"] = True
    elif effect == "summon_guardian":
        sq = queries.board_of(state).parse(str(action["to"]))
        assert sq is not None
        a["summoned"] = True
        state["allies"].append(new_summon(state, "guardian", a["seat"], sq))
    elif effect == "teleport_ally":
        x = queries.ally(state, str(action["target"]))
        sq = queries.board_of(state).parse(str(action["to"]))
        assert sq is not None
        house = queries.house_of_square(state, sq)
        x["pos"], x["inside"] = [sq[0], sq[1]], house is not None
        if house is not None:
            x["house"] = house
        _refresh_blocks(state, x)
    elif effect == "psychic_wall":
        sq = queries.board_of(state).parse(str(action["to"]))
        assert sq is not None
        state["walls"].append([sq[0], sq[1]])
    elif effect == "energy_shield":
        a["shield"] = True


def new_summon(state: State, key: str, seat: int, sq: Sq) -> Ally:
    """A Guardian or Golem joining the allies under `seat`'s control; it needs no tower (P-12)."""
    card = data.summons()[key]
    summon: Ally = {"id": f"s{state['cseq']}", "kind": "summon", "key": key, "seat": seat, "level": 1, "token": 0,
                    "hp": card["hp"], "pos": [sq[0], sq[1]], "house": None, "inside": False,
                    "st": figures.no_status(), "ko": False, "ap": 0, "attacks": 0, "done": False, "blocks": [],
                    "tank_bonus": 0, "phalanx": False, "phalanx_used": False, "rage": 0, "dodge_pen": 0,
                    "shield": False, "sprinted": False, "guarding": None, "enchanted": 0, "summoned": False, "gear": [],
                    "once": []}
    state["cseq"] += 1
    return summon


def aimed(state: State, a: Ally, opt: Option, action: Action) -> tuple[list[Monster], list[Ally]]:
    """The monsters an attack aims at, and the allies its area catches."""
    if opt.get("area") is None:
        aims = [queries.monster(state, action["target"]), queries.monster(state, action.get("second"))]
        return [m for m in aims if m is not None], []
    cells = area_squares(state, a, opt, action)
    monsters = _monsters_in(state, cells, opt)
    if opt["area"] == "around":
        cells = [c for c in cells if c != queries.pos(a)]
    allies = [x for x in state["allies"] if not x["ko"] and queries.pos(x) in set(cells)
              and (opt["type"] == "R" or not x["inside"] or (opt["type"] == "SN" and opt["range"] >= 2))]
    return monsters, allies


def _attack(state: State, rng: Rng, events: list[Event], a: Ally, opt: Option, action: Action) -> bool:
    """One roll for the whole attack (A-26), compared with each target's Dodge; returns whether it rolled."""
    counts = qualifies(state, a, action)
    monsters, _ = aimed(state, a, opt, action)
    quick = queries.variant(state, "quick")
    nat = None if opt["hit"] == "auto" or quick else rng.die(20)  # Quick Game: every attack is Auto
    name = Lit(opt["es"], opt["en"])
    if nat is None:
        events.append(Event(msg("ka.ev.attack_auto", ally=figures.ally_name(a), option=name)))
    else:
        events.append(Event(msg("ka.ev.attack", ally=figures.ally_name(a), option=name, roll=nat)))
    bonus = 0 if nat is None else int(opt["hit"]) + (2 if a["st"]["bless"] else 0)
    if nat is not None and "lucky" in a["gear"] and "lucky" not in a["once"] and any(
            not figures.roll_hit(nat, bonus, figures.monster_card(m)["dodge"], list(opt["crit"]))[0] for m in monsters):
        # Lucky Charm: a roll that misses a monster it aims at may be rolled again (once per wave); the holder's
        # player is asked, and the attack waits for the answer
        state["reroll"] = {"ally": a["id"], "action": action.to_json(), "nat": nat, "counts": counts}
        events.append(Event(msg("ka.ev.lucky_ask", ally=figures.ally_name(a), roll=nat)))
        return True
    _resolve_attack(state, events, a, opt, action, nat, counts)
    return nat is not None


def _resolve_attack(state: State, events: list[Event], a: Ally, opt: Option, action: Action, nat: int | None,
                    counts: bool) -> None:
    """Damage, statuses and friendly fire of one attack whose roll is known."""
    monsters, allies = aimed(state, a, opt, action)
    quick = queries.variant(state, "quick")
    bonus = 0 if nat is None else int(opt["hit"]) + (2 if a["st"]["bless"] else 0)
    flat = (a["rage"] if opt["type"] == "M" else 0) + (quick["damage"] if quick else 0)
    for m in monsters:
        card = figures.monster_card(m)
        hit, crit = figures.roll_hit(nat, bonus, card["dodge"], list(opt["crit"]))
        if not hit:
            events.append(Event(msg("ka.ev.miss", monster=figures.monster_name(m))))
            continue
        res = resistance(m, opt["type"], a)
        hurt = sum(figures.damage(opt["dmg"], opt.get("hits", 1), crit, float(opt["mod"]), flat, res))
        m["hp"] -= hurt
        events.append(Event(msg("ka.ev.crit" if crit else "ka.ev.hit", monster=figures.monster_name(m), hp=hurt)))
        if res != "Im":
            effects = list(opt.get("on_hit", [])) + (list(opt.get("on_crit", [])) if crit else [])
            for kind, n in effects:
                if figures.status_immune(m, kind):
                    continue
                if kind == "instakill":
                    m["hp"] = 0
                else:
                    figures.add_status(m["st"], kind, n)
        if m["hp"] <= 0:
            enemy.kill(state, events, m)
    for x in allies:
        hit, crit = figures.roll_hit(nat, bonus, figures.ally_dodge(x), list(opt["crit"]))
        if not hit:
            continue
        res = figures.ally_res(x, opt["type"])
        hurt = sum(figures.damage(opt["dmg"], opt.get("hits", 1), crit, float(opt["mod"]), flat, res))
        x["hp"] = max(0, x["hp"] - hurt)
        events.append(Event(msg("ka.ev.friendly_hit", ally=figures.ally_name(x), hp=hurt)))
        if res != "Im":
            for kind, n in list(opt.get("on_hit", [])) + (list(opt.get("on_crit", [])) if crit else []):
                if kind != "instakill":
                    figures.add_status(x["st"], kind, n)
        if x["hp"] <= 0:
            enemy.fall(state, events, x)
    if counts:
        a["attacks"] += 1
    enemy.check_end(state, events)
