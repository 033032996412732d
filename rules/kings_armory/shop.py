"""Set-up and between waves (§2.2, §4.7): picking heroes, towers, hiring and levelling champions, placing
allies, and everyone readying up at once; the coin deck's exchange when a wave starts (A-33)."""

from __future__ import annotations

import math

from rules.base import Action, Event, LegalAction
from rules.kings_armory import data, enemy, figures, queries
from rules.kings_armory.board import Sq, footprint, range_distance
from rules.kings_armory.shapes import Ally, State
from rules.rng import Rng
from rules.text import Lit, Msg, Param, SeatRef, msg


def _offer(action: Action, key: str, **params: Param) -> LegalAction:
    return LegalAction(action, msg(f"ka.act.{key}", **params), group=action.kind, description=_description(action))


def _description(action: Action) -> Msg | None:
    """The line under a choice in menus: what a hero or a champion type does, when picking or hiring one."""
    if action.kind == "pick" and action.get("hero"):
        return msg(f"ka.desc.hero.{action['hero']}")
    if action.kind in ("pick", "hire") and action.get("type"):
        return msg(f"ka.desc.champion.{action['type']}")
    return None


def coin_values() -> list[int]:
    return sorted(int(v) for v, n in data.economy()["coins"].items() for _ in range(n))


def new_ally(seat: int, key: str, hp: int) -> Ally:
    return {"id": f"a{seat}", "kind": "hero", "key": key, "seat": seat, "level": 1, "token": 0, "hp": hp,
            "pos": None, "house": None, "inside": False, "st": figures.no_status(), "ko": False, "ap": 0, "attacks": 0,
            "done": False, "blocks": [], "tank_bonus": 0, "phalanx": False, "phalanx_used": False, "rage": 0,
            "dodge_pen": 0, "shield": False, "sprinted": False, "guarding": None, "enchanted": 0, "summoned": False,
            "gear": [], "once": []}


def new_champion(state: State, seat: int, kind: str) -> Ally:
    """A level-1 champion of `kind` on its first free token (its name comes with the token)."""
    champ = data.champions()[kind]
    used = {a["token"] for a in state["allies"] if a["kind"] == "champion" and a["key"] == kind}
    token = min(i for i in range(champ["limit"]) if i not in used)
    made: Ally = {**new_ally(seat, kind, champ["hp"][0]), "id": f"c{state['cseq']}", "kind": "champion", "token": token}
    state["cseq"] += 1
    return made


# ---------------------------------------------------------------- hero pick


def pick_legal(state: State, seat: int) -> list[LegalAction]:
    if seat != state["picker"]:
        return []
    if queries.variant(state, "not_enough"):  # General-ly Not Enough: a champion type with a token left (P-28)
        return [_offer(Action.of("pick", type=k), "pick_champion", champion=Lit(c["es"], c["en"]))
                for k, c in data.champions().items() if alive_of(state, k) < c["limit"]]
    taken = {a["key"] for a in state["allies"]}
    return [_offer(Action.of("pick", hero=k), "pick", hero=Lit(h["es"], h["en"]))
            for k, h in data.heroes().items() if k not in taken]


def pick(state: State, events: list[Event], seat: int, action: Action) -> None:
    if action.get("type") is not None:
        own: Ally = {**new_champion(state, seat, str(action["type"])), "own": True}
        state["allies"].append(own)
        events.append(Event(msg("ka.ev.pick", hero=figures.ally_name(own), seat=SeatRef(seat))))
    else:
        key = str(action["hero"])
        hero = data.heroes()[key]
        state["allies"].append(new_ally(seat, key, hero["hp"]))
        events.append(Event(msg("ka.ev.pick", hero=Lit(hero["es"], hero["en"]), seat=SeatRef(seat))))
    state["picker"] += 1
    if state["picker"] >= state["n"]:
        state["phase"] = "setup"


# ---------------------------------------------------------------- the shop


def build_squares(state: State) -> list[Sq]:
    b = queries.board_of(state)
    taken = queries.tower_squares(state)
    standing = {queries.pos(a) for a in state["allies"]}
    out = []
    for r in range(b.height - 1):
        for c in range(b.width - 1):
            cells = footprint((r, c))
            if all(b.open_ground(q) and q not in taken and q not in standing for q in cells):
                out.append((r, c))
    return out


def tower_price(state: State) -> int:
    return 0 if state["free_towers"] else queries.tower_eco(state, "build")


def can_build(state: State) -> bool:
    if len(state["towers"]) >= data.economy()["tower"]["max"]:
        return False
    return state["free_towers"] > 0 if state["phase"] == "setup" else state["gold"] >= queries.tower_eco(state, "build")


def alive_of(state: State, kind: str) -> int:
    return sum(1 for a in state["allies"] if a["kind"] == "champion" and a["key"] == kind)


def can_hire(state: State, kind: str) -> bool:
    champ = data.champions()[kind]
    if queries.variant(state, "generals"):
        return False  # General-ly Enough: no champions
    return state["phase"] == "between" and state["gold"] >= queries.champion_cost(state, kind, 0) \
        and alive_of(state, kind) + state["fallen"].get(kind, 0) < champ["limit"]


def place_targets(state: State, a: Ally) -> list[tuple[str, Sq]]:
    """(house, square): inside a house with a free slot, or within 2 squares of it (§4.7 step 6)."""
    out = []
    b = queries.board_of(state)
    here = queries.pos(a)
    towers = queries.tower_squares(state)
    allies = {p for p in (queries.pos(x) for x in state["allies"]) if p is not None}
    for hid, squares in queries.houses(state).items():
        if not queries.has_slot(state, hid, without=a["id"]):
            continue
        for sq in squares:
            if sq not in allies:
                out.append((hid, sq))
        for r in range(min(q[0] for q in squares) - 2, max(q[0] for q in squares) + 3):
            for c in range(min(q[1] for q in squares) - 2, max(q[1] for q in squares) + 3):
                sq = (r, c)
                if sq == here or sq in allies or not queries.walkable(state, sq, towers):
                    continue
                if min(range_distance(sq, q) for q in squares) <= 2 and (b.on_field(sq) or sq in b.exits.values()):
                    out.append((hid, sq))
    return out


def listed_builds(state: State) -> list[Sq]:
    """The builds `legal_actions` lists: the first corner (reading order) on each map tile. Every other corner
    stays legal and is offered when the move is built in steps (`choices`); listing all of them (well over a
    hundred) would drown every other move of a seat."""
    size = queries.board_of(state).tile_size
    seen: set[Sq] = set()
    out = []
    for sq in build_squares(state):
        tile = (sq[0] // size, sq[1] // size)
        if tile not in seen:
            seen.add(tile)
            out.append(sq)
    return out


def listed_places(state: State, a: Ally) -> list[tuple[str, Sq]]:
    """The placements `legal_actions` lists: per house, its first free interior square and the first free
    square around it; the others stay legal and are offered step by step (`choices`)."""
    out: list[tuple[str, Sq]] = []
    taken: set[tuple[str, bool]] = set()
    houses = queries.houses(state)
    for hid, sq in place_targets(state, a):
        key = (hid, sq in houses[hid])
        if key not in taken:
            taken.add(key)
            out.append((hid, sq))
    return out


def place_ok(state: State, a: Ally, house: str, sq: Sq) -> bool:
    """`place_targets` for one square, without listing them all."""
    squares = queries.houses(state).get(house)
    if squares is None or not queries.has_slot(state, house, without=a["id"]) or queries.ally_at(state, sq) is not None:
        return False
    if sq in squares:
        return True
    b = queries.board_of(state)
    return sq != queries.pos(a) and queries.walkable(state, sq) and min(range_distance(sq, q) for q in squares) <= 2 \
        and (b.on_field(sq) or sq in b.exits.values())


def build_ok(state: State, sq: Sq) -> bool:
    b = queries.board_of(state)
    taken = queries.tower_squares(state)
    standing = {queries.pos(a) for a in state["allies"]}
    return can_build(state) and all(b.open_ground(q) and q not in taken and q not in standing for q in footprint(sq))


def is_legal(state: State, seat: int, action: Action) -> bool:
    """Cheap checks for the two kinds with hundreds of options; the others are looked up in the list."""
    if seat in state["ready"]:
        return False
    b = queries.board_of(state)
    if action.kind == "place" and set(action.arg_dict) == {"ally", "house", "at"}:
        a = queries.find_ally(state, action["ally"])
        sq = b.parse(str(action["at"]))
        return a is not None and a["seat"] == seat and sq is not None and b.label(sq) == action["at"] \
            and place_ok(state, a, str(action["house"]), sq)
    if action.kind == "build" and set(action.arg_dict) == {"at"}:
        sq = b.parse(str(action["at"]))
        return sq is not None and b.label(sq) == action["at"] and build_ok(state, sq)
    return any(la.action == action for la in legal(state, seat, action.kind))


def seat_ready_ok(state: State, seat: int) -> bool:
    """Every ally of the seat housed (a benched champion and a summon need no house); a hero with no house
    slot left anywhere may stay where it stands, or the seat could never ready and the game would stall."""
    if state["phase"] == "setup" and state["free_towers"]:
        return False
    return all(queries.housed(state, a) or (a["kind"] == "champion" and a["pos"] is None) or a["kind"] == "summon"
               or (a["kind"] == "hero" and not place_targets(state, a)) for a in queries.seat_allies(state, seat))


def legal(state: State, seat: int, kind: str | None = None) -> list[LegalAction]:
    """The seat's legal moves (only those of one kind when `kind` is given, for cheap legality checks)."""
    if seat in state["ready"]:
        return []
    b = queries.board_of(state)
    out: list[LegalAction] = []
    if kind in (None, "build") and can_build(state):
        price = tower_price(state)
        squares = build_squares(state) if kind else listed_builds(state)
        out += [_offer(Action.of("build", at=b.label(sq)), "build", square=b.label(sq), gold=price) for sq in squares]
    if state["phase"] == "between" and kind in (None, "sell", "hire", "upgrade"):
        room = sum(queries.capacity(state, h) for h in queries.houses(state)) - queries.tower_eco(state, "slots")
        for t in state["towers"] if room >= len(queries.heroes(state)) else []:  # heroes must still fit (§5)
            if not any(a["house"] == t["id"] for a in state["allies"]):
                out.append(_offer(Action.of("sell", tower=t["id"]), "sell", square=b.label((t["at"][0], t["at"][1]))))
        for ctype, champ in data.champions().items():
            if can_hire(state, ctype):
                out.append(_offer(Action.of("hire", type=ctype), "hire", champion=Lit(champ["es"], champ["en"]),
                               gold=queries.champion_cost(state, ctype, 0)))
        for a in queries.seat_allies(state, seat):
            if a["kind"] == "champion" and a["level"] < 3:
                cost = queries.champion_cost(state, a["key"], a["level"])
                if state["gold"] >= cost:
                    out.append(_offer(Action.of("upgrade", ally=a["id"]), "upgrade", ally=figures.ally_name(a),
                                      gold=cost))
    if state["phase"] == "between" and kind in (None, "give"):
        out += give_legal(state, seat)
    for a in queries.seat_allies(state, seat) if kind in (None, "bench") else []:
        if a["kind"] == "champion" and a["pos"] is not None:
            out.append(_offer(Action.of("bench", ally=a["id"]), "bench", ally=figures.ally_name(a)))
    for a in queries.seat_allies(state, seat) if kind in (None, "place") else []:
        if a["kind"] == "summon":
            continue  # the Sword Golem needs no tower (§8.3)
        for hid, sq in (place_targets(state, a) if kind else listed_places(state, a)):
            out.append(_offer(Action.of("place", ally=a["id"], house=hid, at=b.label(sq)), "place",
                           ally=figures.ally_name(a), square=b.label(sq)))
    hard = queries.variant(state, "hard_stones")
    if hard and kind in (None, "repair") and state["phase"] == "between" and state["gate"] < state["gate_max"] \
            and state["gold"] >= hard["repair_gold"]:
        out.append(_offer(Action.of("repair"), "repair", hp=hard["repair_hp"], gold=hard["repair_gold"]))
    if kind in (None, "ready") and seat_ready_ok(state, seat):
        out.append(_offer(Action.of("ready"), "ready"))
    return out


def give_legal(state: State, seat: int) -> list[LegalAction]:
    """«El control de los campeones sólo se puede cambiar entre las oleadas durante la Reposición de aliados»: between
    waves a seat may hand one of its hired champions to another seat, who activates it from the next wave on (an
    own champion of General-ly Not Enough stays with its player)."""
    if state["phase"] != "between" or state["n"] < 2:
        return []
    return [_offer(Action.of("give", ally=a["id"], to=other), "give", ally=figures.ally_name(a), seat=SeatRef(other))
            for a in queries.seat_allies(state, seat) if a["kind"] == "champion" and not a.get("own")
            for other in range(state["n"]) if other != seat]


def apply(state: State, rng: Rng, events: list[Event], seat: int, action: Action) -> None:
    b = queries.board_of(state)
    kind = action.kind
    if kind == "give":
        a = queries.ally(state, str(action["ally"]))
        a["seat"] = int(action["to"])
        a.pop("order", None)  # a standing block order was its former player's
        events.append(Event(msg("ka.ev.give", ally=figures.ally_name(a), seat=SeatRef(a["seat"]))))
        return
    if kind == "build":
        sq = b.parse(str(action["at"]))
        assert sq is not None
        state["gold"] -= tower_price(state)
        if state["free_towers"]:
            state["free_towers"] -= 1
        state["towers"].append({"id": f"t{state['tseq']}", "at": [sq[0], sq[1]]})
        state["tseq"] += 1
        events.append(Event(msg("ka.ev.build", square=b.label(sq))))
    elif kind == "sell":
        t = next(t for t in state["towers"] if t["id"] == action["tower"])
        state["towers"].remove(t)
        state["gold"] += queries.tower_eco(state, "sell")
        events.append(Event(msg("ka.ev.sell", square=b.label((t["at"][0], t["at"][1])))))
    elif kind == "hire":
        state["gold"] -= queries.champion_cost(state, str(action["type"]), 0)
        hired = new_champion(state, seat, str(action["type"]))
        state["allies"].append(hired)
        events.append(Event(msg("ka.ev.hire", ally=figures.ally_name(hired), seat=SeatRef(seat))))
    elif kind == "upgrade":
        a = queries.ally(state, str(action["ally"]))
        state["gold"] -= queries.champion_cost(state, a["key"], a["level"])
        a["level"] += 1
        card = figures.ally_card(a)
        a["hp"] = min(card["max"], a["hp"] + card["heal"])  # each level-up heals by the new Heal rate
        events.append(Event(msg("ka.ev.upgrade", ally=figures.ally_name(a), level=a["level"])))
    elif kind == "place":
        a = queries.ally(state, str(action["ally"]))
        sq = b.parse(str(action["at"]))
        assert sq is not None
        house = str(action["house"])
        a["pos"], a["house"] = [sq[0], sq[1]], house
        a["inside"] = sq in queries.houses(state)[house]
        events.append(Event(msg("ka.ev.place", ally=figures.ally_name(a), square=b.label(sq))))
    elif kind == "bench":
        a = queries.ally(state, str(action["ally"]))
        a["pos"], a["house"], a["inside"] = None, None, False
        events.append(Event(msg("ka.ev.bench", ally=figures.ally_name(a))))
    elif kind == "repair":
        hard = queries.variant(state, "hard_stones")
        assert hard is not None
        state["gold"] -= hard["repair_gold"]
        state["gate"] = min(state["gate_max"], state["gate"] + hard["repair_hp"])
        events.append(Event(msg("ka.ev.repair", gate=state["gate"], gold=hard["repair_gold"])))
    elif kind == "ready":
        state["ready"].append(seat)
        events.append(Event(msg("ka.ev.ready", seat=SeatRef(seat))))
        if len(state["ready"]) == state["n"]:
            start_wave(state, rng, events)


def exchange(state: State, rng: Rng) -> None:
    """Saved gold is held as 100-cards and at most one 50-card; every other coin card is shuffled back (A-33)."""
    pool = coin_values()
    saved: list[int] = []
    left = state["gold"]
    for value in (100, 50):
        while left >= value and value in pool and (value == 100 or 50 not in saved):
            pool.remove(value)
            saved.append(value)
            left -= value
    for value in (250, 150, 100, 50):  # the 100s ran out: the fewest other cards that make the rest
        while left >= value and value in pool:
            pool.remove(value)
            saved.append(value)
            left -= value
    rng.shuffle(pool)
    state["coins"], state["saved"] = pool, sorted(saved)


def start_wave(state: State, rng: Rng, events: list[Event]) -> None:
    if state["phase"] == "between":
        exchange(state, rng)
        state["wave"] += 1
    state["ready"] = []
    state["eturn"] = 0
    card = data.wave_card()
    count = queries.wave_size(state)
    if state["arrival"] == "delayed":
        state["arrive"] = math.ceil(count / 2)  # half rounded up now, the rest at enemy turn 2
        state["later"] = count - state["arrive"]
    else:
        state["arrive"], state["later"] = count, 0
    if state["wave"] == state["waves"] and not queries.variant(state, "endurance"):  # Endurance has no bosses (P-28)
        state["boss_due"] = list(card["boss_turns"][str(state["waves"])][state["arrival"]])
    for a in state["allies"]:
        a["blocks"] = []
    state["gate_at_start"] = state["gate"]
    events.append(Event(msg("ka.ev.wave", wave=state["wave"], monsters=count)))
    enemy.start_enemy_turn(state, events)
