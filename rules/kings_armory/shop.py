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


def new_champion(s: State, seat: int, kind: str) -> Ally:
    """A level-1 champion of `kind` on its first free token (its name comes with the token)."""
    champ = data.champions()[kind]
    used = {a["token"] for a in s["allies"] if a["kind"] == "champion" and a["key"] == kind}
    token = min(i for i in range(champ["limit"]) if i not in used)
    made: Ally = {**new_ally(seat, kind, champ["hp"][0]), "id": f"c{s['cseq']}", "kind": "champion", "token": token}
    s["cseq"] += 1
    return made


# ---------------------------------------------------------------- hero pick


def pick_legal(s: State, seat: int) -> list[LegalAction]:
    if seat != s["picker"]:
        return []
    if queries.variant(s, "not_enough"):  # General-ly Not Enough: a champion type with a token left (P-28)
        return [_offer(Action.of("pick", type=k), "pick_champion", champion=Lit(c["es"], c["en"]))
                for k, c in data.champions().items() if alive_of(s, k) < c["limit"]]
    taken = {a["key"] for a in s["allies"]}
    return [_offer(Action.of("pick", hero=k), "pick", hero=Lit(h["es"], h["en"]))
            for k, h in data.heroes().items() if k not in taken]


def pick(s: State, events: list[Event], seat: int, action: Action) -> None:
    if action.get("type") is not None:
        own: Ally = {**new_champion(s, seat, str(action["type"])), "own": True}
        s["allies"].append(own)
        events.append(Event(msg("ka.ev.pick", hero=figures.ally_name(own), seat=SeatRef(seat))))
    else:
        key = str(action["hero"])
        hero = data.heroes()[key]
        s["allies"].append(new_ally(seat, key, hero["hp"]))
        events.append(Event(msg("ka.ev.pick", hero=Lit(hero["es"], hero["en"]), seat=SeatRef(seat))))
    s["picker"] += 1
    if s["picker"] >= s["n"]:
        s["phase"] = "setup"


# ---------------------------------------------------------------- the shop


def build_squares(s: State) -> list[Sq]:
    b = queries.board_of(s)
    taken = queries.tower_squares(s)
    standing = {queries.pos(a) for a in s["allies"]}
    out = []
    for r in range(b.height - 1):
        for c in range(b.width - 1):
            cells = footprint((r, c))
            if all(b.open_ground(q) and q not in taken and q not in standing for q in cells):
                out.append((r, c))
    return out


def tower_price(s: State) -> int:
    return 0 if s["free_towers"] else queries.tower_eco(s, "build")


def can_build(s: State) -> bool:
    if len(s["towers"]) >= data.economy()["tower"]["max"]:
        return False
    return s["free_towers"] > 0 if s["phase"] == "setup" else s["gold"] >= queries.tower_eco(s, "build")


def alive_of(s: State, kind: str) -> int:
    return sum(1 for a in s["allies"] if a["kind"] == "champion" and a["key"] == kind)


def can_hire(s: State, kind: str) -> bool:
    champ = data.champions()[kind]
    if queries.variant(s, "generals"):
        return False  # General-ly Enough: no champions
    return s["phase"] == "between" and s["gold"] >= queries.champion_cost(s, kind, 0) \
        and alive_of(s, kind) + s["fallen"].get(kind, 0) < champ["limit"]


def place_targets(s: State, a: Ally) -> list[tuple[str, Sq]]:
    """(house, square): inside a house with a free slot, or within 2 squares of it (§4.7 step 6)."""
    out = []
    b = queries.board_of(s)
    here = queries.pos(a)
    towers = queries.tower_squares(s)
    allies = {p for p in (queries.pos(x) for x in s["allies"]) if p is not None}
    for hid, squares in queries.houses(s).items():
        if not queries.has_slot(s, hid, without=a["id"]):
            continue
        for sq in squares:
            if sq not in allies:
                out.append((hid, sq))
        for r in range(min(q[0] for q in squares) - 2, max(q[0] for q in squares) + 3):
            for c in range(min(q[1] for q in squares) - 2, max(q[1] for q in squares) + 3):
                sq = (r, c)
                if sq == here or sq in allies or not queries.walkable(s, sq, towers):
                    continue
                if min(range_distance(sq, q) for q in squares) <= 2 and (b.on_field(sq) or sq in b.exits.values()):
                    out.append((hid, sq))
    return out


def listed_builds(s: State) -> list[Sq]:
    """The builds `legal_actions` lists: the first corner (reading order) on each map tile. Every other corner
    stays legal and is offered when the move is built in steps (`choices`); listing all of them (well over a
    hundred) would drown every other move of a seat."""
    size = queries.board_of(s).tile_size
    seen: set[Sq] = set()
    out = []
    for sq in build_squares(s):
        tile = (sq[0] // size, sq[1] // size)
        if tile not in seen:
            seen.add(tile)
            out.append(sq)
    return out


def listed_places(s: State, a: Ally) -> list[tuple[str, Sq]]:
    """The placements `legal_actions` lists: per house, its first free interior square and the first free
    square around it; the others stay legal and are offered step by step (`choices`)."""
    out: list[tuple[str, Sq]] = []
    taken: set[tuple[str, bool]] = set()
    houses = queries.houses(s)
    for hid, sq in place_targets(s, a):
        key = (hid, sq in houses[hid])
        if key not in taken:
            taken.add(key)
            out.append((hid, sq))
    return out


def place_ok(s: State, a: Ally, house: str, sq: Sq) -> bool:
    """`place_targets` for one square, without listing them all."""
    squares = queries.houses(s).get(house)
    if squares is None or not queries.has_slot(s, house, without=a["id"]) or queries.ally_at(s, sq) is not None:
        return False
    if sq in squares:
        return True
    b = queries.board_of(s)
    return sq != queries.pos(a) and queries.walkable(s, sq) and min(range_distance(sq, q) for q in squares) <= 2 \
        and (b.on_field(sq) or sq in b.exits.values())


def build_ok(s: State, sq: Sq) -> bool:
    b = queries.board_of(s)
    taken = queries.tower_squares(s)
    standing = {queries.pos(a) for a in s["allies"]}
    return can_build(s) and all(b.open_ground(q) and q not in taken and q not in standing for q in footprint(sq))


def is_legal(s: State, seat: int, action: Action) -> bool:
    """Cheap checks for the two kinds with hundreds of options; the others are looked up in the list."""
    if seat in s["ready"]:
        return False
    b = queries.board_of(s)
    if action.kind == "place" and set(action.arg_dict) == {"ally", "house", "at"}:
        a = queries.find_ally(s, action["ally"])
        sq = b.parse(str(action["at"]))
        return a is not None and a["seat"] == seat and sq is not None and b.label(sq) == action["at"] \
            and place_ok(s, a, str(action["house"]), sq)
    if action.kind == "build" and set(action.arg_dict) == {"at"}:
        sq = b.parse(str(action["at"]))
        return sq is not None and b.label(sq) == action["at"] and build_ok(s, sq)
    return any(la.action == action for la in legal(s, seat, action.kind))


def seat_ready_ok(s: State, seat: int) -> bool:
    """Every ally of the seat housed (a benched champion and a summon need no house); a hero with no house
    slot left anywhere may stay where it stands, or the seat could never ready and the game would stall."""
    if s["phase"] == "setup" and s["free_towers"]:
        return False
    return all(queries.housed(s, a) or (a["kind"] == "champion" and a["pos"] is None) or a["kind"] == "summon"
               or (a["kind"] == "hero" and not place_targets(s, a)) for a in queries.seat_allies(s, seat))


def legal(s: State, seat: int, kind: str | None = None) -> list[LegalAction]:
    """The seat's legal moves (only those of one kind when `kind` is given, for cheap legality checks)."""
    if seat in s["ready"]:
        return []
    b = queries.board_of(s)
    out: list[LegalAction] = []
    if kind in (None, "build") and can_build(s):
        price = tower_price(s)
        squares = build_squares(s) if kind else listed_builds(s)
        out += [_offer(Action.of("build", at=b.label(sq)), "build", square=b.label(sq), gold=price) for sq in squares]
    if s["phase"] == "between" and kind in (None, "sell", "hire", "upgrade"):
        room = sum(queries.capacity(s, h) for h in queries.houses(s)) - queries.tower_eco(s, "slots")
        for t in s["towers"] if room >= len(queries.heroes(s)) else []:  # heroes must still fit (§5)
            if not any(a["house"] == t["id"] for a in s["allies"]):
                out.append(_offer(Action.of("sell", tower=t["id"]), "sell", square=b.label((t["at"][0], t["at"][1]))))
        for ctype, champ in data.champions().items():
            if can_hire(s, ctype):
                out.append(_offer(Action.of("hire", type=ctype), "hire", champion=Lit(champ["es"], champ["en"]),
                               gold=queries.champion_cost(s, ctype, 0)))
        for a in queries.seat_allies(s, seat):
            if a["kind"] == "champion" and a["level"] < 3:
                cost = queries.champion_cost(s, a["key"], a["level"])
                if s["gold"] >= cost:
                    out.append(_offer(Action.of("upgrade", ally=a["id"]), "upgrade", ally=figures.ally_name(a),
                                      gold=cost))
    if s["phase"] == "between" and kind in (None, "give"):
        out += give_legal(s, seat)
    for a in queries.seat_allies(s, seat) if kind in (None, "bench") else []:
        if a["kind"] == "champion" and a["pos"] is not None:
            out.append(_offer(Action.of("bench", ally=a["id"]), "bench", ally=figures.ally_name(a)))
    for a in queries.seat_allies(s, seat) if kind in (None, "place") else []:
        if a["kind"] == "summon":
            continue  # the Sword Golem needs no tower (§8.3)
        for hid, sq in (place_targets(s, a) if kind else listed_places(s, a)):
            out.append(_offer(Action.of("place", ally=a["id"], house=hid, at=b.label(sq)), "place",
                           ally=figures.ally_name(a), square=b.label(sq)))
    hard = queries.variant(s, "hard_stones")
    if hard and kind in (None, "repair") and s["phase"] == "between" and s["gate"] < s["gate_max"] \
            and s["gold"] >= hard["repair_gold"]:
        out.append(_offer(Action.of("repair"), "repair", hp=hard["repair_hp"], gold=hard["repair_gold"]))
    if kind in (None, "ready") and seat_ready_ok(s, seat):
        out.append(_offer(Action.of("ready"), "ready"))
    return out


def give_legal(s: State, seat: int) -> list[LegalAction]:
    """«El control de los campeones sólo se puede cambiar entre las oleadas durante la Reposición de aliados»: between
    waves a seat may hand one of its hired champions to another seat, who activates it from the next wave on (an
    own champion of General-ly Not Enough stays with its player)."""
    if s["phase"] != "between" or s["n"] < 2:
        return []
    return [_offer(Action.of("give", ally=a["id"], to=other), "give", ally=figures.ally_name(a), seat=SeatRef(other))
            for a in queries.seat_allies(s, seat) if a["kind"] == "champion" and not a.get("own")
            for other in range(s["n"]) if other != seat]


def apply(s: State, rng: Rng, events: list[Event], seat: int, action: Action) -> None:
    b = queries.board_of(s)
    kind = action.kind
    if kind == "give":
        a = queries.ally(s, str(action["ally"]))
        a["seat"] = int(action["to"])
        a.pop("order", None)  # a standing block order was its former player's
        events.append(Event(msg("ka.ev.give", ally=figures.ally_name(a), seat=SeatRef(a["seat"]))))
        return
    if kind == "build":
        sq = b.parse(str(action["at"]))
        assert sq is not None
        s["gold"] -= tower_price(s)
        if s["free_towers"]:
            s["free_towers"] -= 1
        s["towers"].append({"id": f"t{s['tseq']}", "at": [sq[0], sq[1]]})
        s["tseq"] += 1
        events.append(Event(msg("ka.ev.build", square=b.label(sq))))
    elif kind == "sell":
        t = next(t for t in s["towers"] if t["id"] == action["tower"])
        s["towers"].remove(t)
        s["gold"] += queries.tower_eco(s, "sell")
        events.append(Event(msg("ka.ev.sell", square=b.label((t["at"][0], t["at"][1])))))
    elif kind == "hire":
        s["gold"] -= queries.champion_cost(s, str(action["type"]), 0)
        hired = new_champion(s, seat, str(action["type"]))
        s["allies"].append(hired)
        events.append(Event(msg("ka.ev.hire", ally=figures.ally_name(hired), seat=SeatRef(seat))))
    elif kind == "upgrade":
        a = queries.ally(s, str(action["ally"]))
        s["gold"] -= queries.champion_cost(s, a["key"], a["level"])
        a["level"] += 1
        card = figures.ally_card(a)
        a["hp"] = min(card["max"], a["hp"] + card["heal"])  # each level-up heals by the new Heal rate
        events.append(Event(msg("ka.ev.upgrade", ally=figures.ally_name(a), level=a["level"])))
    elif kind == "place":
        a = queries.ally(s, str(action["ally"]))
        sq = b.parse(str(action["at"]))
        assert sq is not None
        house = str(action["house"])
        a["pos"], a["house"] = [sq[0], sq[1]], house
        a["inside"] = sq in queries.houses(s)[house]
        events.append(Event(msg("ka.ev.place", ally=figures.ally_name(a), square=b.label(sq))))
    elif kind == "bench":
        a = queries.ally(s, str(action["ally"]))
        a["pos"], a["house"], a["inside"] = None, None, False
        events.append(Event(msg("ka.ev.bench", ally=figures.ally_name(a))))
    elif kind == "repair":
        hard = queries.variant(s, "hard_stones")
        assert hard is not None
        s["gold"] -= hard["repair_gold"]
        s["gate"] = min(s["gate_max"], s["gate"] + hard["repair_hp"])
        events.append(Event(msg("ka.ev.repair", gate=s["gate"], gold=hard["repair_gold"])))
    elif kind == "ready":
        s["ready"].append(seat)
        events.append(Event(msg("ka.ev.ready", seat=SeatRef(seat))))
        if len(s["ready"]) == s["n"]:
            start_wave(s, rng, events)


def exchange(s: State, rng: Rng) -> None:
    """Saved gold is held as 100-cards and at most one 50-card; every other coin card is shuffled back (A-33)."""
    pool = coin_values()
    saved: list[int] = []
    left = s["gold"]
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
    s["coins"], s["saved"] = pool, sorted(saved)


def start_wave(s: State, rng: Rng, events: list[Event]) -> None:
    if s["phase"] == "between":
        exchange(s, rng)
        s["wave"] += 1
    s["ready"] = []
    s["eturn"] = 0
    card = data.wave_card()
    count = queries.wave_size(s)
    if s["arrival"] == "delayed":
        s["arrive"] = math.ceil(count / 2)  # half rounded up now, the rest at enemy turn 2
        s["later"] = count - s["arrive"]
    else:
        s["arrive"], s["later"] = count, 0
    if s["wave"] == s["waves"] and not queries.variant(s, "endurance"):  # Endurance has no bosses (P-28)
        s["boss_due"] = list(card["boss_turns"][str(s["waves"])][s["arrival"]])
    for a in s["allies"]:
        a["blocks"] = []
    s["gate_at_start"] = s["gate"]
    events.append(Event(msg("ka.ev.wave", wave=s["wave"], monsters=count)))
    enemy.start_enemy_turn(s, events)
