"""Gorgasali's state and the operations every move is made of: cards and mats, damage, elimination, turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar, cast

from rules.base import SYSTEM, Event, Scalar
from rules.gorgasali.board import Board, board_of
from rules.gorgasali.data import CHARACTERS, MAP, RULES, SLOTS, SUPPORT, WEAPONS
from rules.gorgasali.state import (
    AREAS,
    Banner,
    Deck,
    Discards,
    Fighter,
    MapData,
    Mat,
    State,
    TurnFlags,
)
from rules.rng import Rng
from rules.text import Msg, Param, SeatRef, msg

#: Parts of the state that never change after `new` (the table stores them once per game).
STATIC = ("board", "cards")
HP = int(RULES["hp"])


Json = TypeVar("Json")


def _copied(value: object) -> object:
    """A deep copy of JSON-like data (faster than copy.deepcopy for these plain values).

    The state's lists hold either only scalars or only containers, so a list of scalars is copied flat.
    """
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        if not value or not isinstance(value[0], (dict, list)):
            return value.copy()
        return [_copied(v) for v in value]
    return value


def clone(value: Json) -> Json:
    """A deep copy of JSON-like data, of the same type (a fresh, writable copy even of a read-only table)."""
    return cast(Json, _copied(value))  # the one cast of the deep copy: a copy has the type of its original


def copy_state(s: State) -> State:
    return cast(State, {k: (v if k in STATIC else _copied(v)) for k, v in s.items()})  # (as clone)


# ---------------------------------------------------------------- set-up


def card_catalog() -> dict[str, str]:
    """Every physical card: id -> weapon or support key ("w001".."w101", "s001".."s214")."""
    cards: dict[str, str] = {}
    n = 0
    for w in WEAPONS.values():
        for _ in range(w.count):
            n += 1
            cards[f"w{n:03d}"] = w.id
    n = 0
    for sp in SUPPORT.values():
        for _ in range(sp.count):
            n += 1
            cards[f"s{n:03d}"] = sp.id
    return cards


def empty_mat() -> Mat:
    return {slot: {"a": [], "p": []} for slot in SLOTS}


def new_player(seat: int, team: int) -> Fighter:
    return {"seat": seat, "char": None, "team": team, "pos": None, "ghost": None, "hp": HP, "alive": True,
            "cd": 0, "copy": None, "mat": empty_mat(), "xc": int(RULES["extra_chests"]), "skipped": False,
            "frozen": False, "heal_block": False, "turns": 0, "kills": 0}


def chests_of(board: Board) -> list[int]:
    return [i for i, ch in enumerate(board.terrain) if ch == "C"]


def new_state(options: Mapping[str, Scalar], seats: int, seed: int, map_data: MapData | None = None) -> State:
    """The initial state: decks shuffled, first player and sectors rolled (the rulebook's order)."""
    rng = Rng.from_seed(seed)
    duo = options.get("mode") == "duo"
    cards = card_catalog()
    board_data = clone(map_data or MAP)
    board = board_of(board_data)
    wdeck = sorted(c for c in cards if c[0] == "w")
    sdeck = sorted(c for c in cards if c[0] == "s")
    rng.shuffle(wdeck)
    rng.shuffle(sdeck)
    # Duo teams: seats that joined one after the other pair up (or a random pairing); teammates sit
    # opposite, so the turn order alternates teams (4 players: A1 B1 A2 B2).
    paired = list(range(seats))
    if duo and options.get("teams") == "random":
        rng.shuffle(paired)
    team = {seat: (i // 2 if duo else seat) for i, seat in enumerate(paired)}
    ring = paired[0::2] + paired[1::2] if duo else paired
    players = [new_player(i, team[i]) for i in range(seats)]
    s: State = {"board": board_data, "cards": cards, "mode": "duo" if duo else "ffa", "n": seats,
                "final_zone": str(options.get("final_zone", "shrink")), "wdeck": wdeck, "sdeck": sdeck, "wdisc": [],
                "sdisc": [], "unloaded": [], "chests": chests_of(board), "players": players, "banners": [],
                "round": 0, "order": [], "turn": None, "phase": "pick", "zone": 0, "zone_due": False, "t": {},
                "pending": [], "trade": None, "out": [], "winners": None, "last": None, "log_rolls": {},
                "rng": 0}  # (the generator's state is saved last, once the set-up's rolls are made)
    # first player: everyone rolls 2d6, the tied highest roll again (P-09)
    rolling = list(range(seats))
    rolls: dict[str, list[int]] = {}
    while len(rolling) > 1:
        sums = {seat: rng.die() + rng.die() for seat in rolling}
        for seat, total in sums.items():
            rolls.setdefault(str(seat), []).append(total)
        best = max(sums.values())
        rolling = [seat for seat in rolling if sums[seat] == best]
    first = rolling[0]
    start = ring.index(first)
    s["order"] = ring[start:] + ring[:start]
    s["log_rolls"] = {"first": rolls}
    # starting sectors: the d20 in turn order, re-rolled when taken (P-10); a duo team rolls once
    taken: dict[int, int] = {}
    sectors: dict[str, int] = {}
    for seat in s["order"]:
        if duo and any(players[o]["team"] == players[seat]["team"] for o in taken.values()):
            continue
        nsec = len(board.sectors)
        roll = rng.die(20) if nsec == 20 else rng.die(nsec)
        while roll in taken:
            roll = rng.die(20) if nsec == 20 else rng.die(nsec)
        taken[roll] = seat
        sectors[str(seat)] = roll
        players[seat]["pos"] = board.sectors[roll - 1][0]
        if duo:
            mate = next(p for p in players if p["team"] == players[seat]["team"] and p["seat"] != seat)
            mate["pos"] = board.sectors[roll - 1][1]
    s["log_rolls"]["sectors"] = sectors
    if options.get("characters") == "random":
        chars = sorted(CHARACTERS)
        rng.shuffle(chars)
        for p, ch in zip(players, chars, strict=False):
            set_character(p, ch)
        s["phase"] = "octor"
    s["rng"] = rng.state
    return s


def set_character(p: Fighter, char: str) -> None:
    p["char"] = char
    p["cd"] = CHARACTERS[char].cooldown or 0


# ---------------------------------------------------------------- the context of one move


class Ctx:
    """One move being applied: the copied state, its random generator, the events it emits."""

    def __init__(self, s: State) -> None:
        self.state = s
        self.rng = Rng(s["rng"])
        self.events: list[Event] = []
        self.undoable = True
        self.board = board_of(s["board"])

    def finish(self) -> None:
        self.state["rng"] = self.rng.state

    def say(self, key: str, **params: Param) -> None:
        self.events.append(Event(msg(key, **params)))

    def die(self) -> int:
        self.undoable = False
        return self.rng.die()

    def fighter(self, seat: int) -> Fighter:
        return self.state["players"][seat]

    @property
    def turn_flags(self) -> TurnFlags:
        return self.state["t"]


# ---------------------------------------------------------------- queries


def square(p: Fighter) -> int:
    """Where a fighter on the island stands (only an eliminated one has no square)."""
    pos = p["pos"]
    assert pos is not None, f"seat {p['seat']} is not on the island"
    return pos


def character(p: Fighter) -> str:
    """A fighter's character, once picked."""
    char = p["char"]
    assert char is not None, f"seat {p['seat']} has no character yet"
    return char


def seat_on_turn(s: State) -> int:
    """The seat whose turn it is, once the fight has begun."""
    seat = s["turn"]
    assert seat is not None, "no turn has begun"
    return seat


def card_key(s: State, cid: str) -> str:
    return s["cards"][cid]


def slot_of(s: State, cid: str) -> str:
    return "weapon" if cid[0] == "w" else SUPPORT[s["cards"][cid]].slot


def card_name(s: State, cid: str) -> Msg:
    return msg(f"gg.card.{s['cards'][cid]}")


def char_name(p: Fighter) -> Msg:
    return msg(f"gg.char.{p['char']}")


def enemies(s: State, a: int, b: int) -> bool:
    pa, pb = s["players"][a], s["players"][b]
    return a != b and pa["team"] != pb["team"]


def teammate(s: State, seat: int) -> int | None:
    if s["mode"] != "duo":
        return None
    team = s["players"][seat]["team"]
    return next((p["seat"] for p in s["players"] if p["team"] == team and p["seat"] != seat), None)


def living(s: State) -> list[int]:
    return [p["seat"] for p in s["players"] if p["alive"]]


def occupant(s: State, sq: int) -> int | None:
    for p in s["players"]:
        if p["alive"] and p["pos"] == sq:
            return p["seat"]
    return None


def banner_at(s: State, sq: int) -> Banner | None:
    for b in s["banners"]:
        if sq in b["sq"]:
            return b
    return None


def barrier_squares(s: State) -> set[int]:
    return {sq for b in s["banners"] if b["kind"] == "barrier" for sq in b["sq"]}


def blockers(s: State, board: Board) -> list[int]:
    """Squares that block a card's clear view: the Great Tree and barriers."""
    return [*board.tree, *sorted(barrier_squares(s))]


def vacant(s: State, board: Board, sq: int, ignore: int | None = None) -> bool:
    """The rulebook's "vacant square": no figure (but `ignore`), no unopened chest, no banner, not the tree."""
    if board.is_tree(sq) or sq in s["chests"] or banner_at(s, sq) is not None:
        return False
    who = occupant(s, sq)
    return who is None or who == ignore


def inactive(s: State, board: Board, sq: int) -> bool:
    return board.zone[sq] <= s["zone"]


def zone_penalty(s: State) -> int:
    return int(RULES["zone_penalty"][s["zone"] - 1]) if s["zone"] else 0


def has_smoke(s: State, seat: int) -> bool:
    pos = s["players"][seat]["pos"]
    return any(b["kind"] == "smoke" and b["owner"] == seat and pos in b["sq"] for b in s["banners"])


def on_banner(s: State, sq: int | None, kind: str) -> bool:
    return sq is not None and any(b["kind"] == kind and sq in b["sq"] for b in s["banners"])


def all_cards(p: Fighter) -> list[str]:
    return [c for slot in SLOTS for area in AREAS for c in p["mat"][slot][area]]


def active_cards(p: Fighter, slot: str) -> list[str]:
    return list(p["mat"][slot]["a"])


def capacity(slot: str) -> tuple[int, int]:
    a, b = RULES["slots"][slot]
    return int(a), int(b)


def ability_of(s: State, seat: int) -> str:
    return CHARACTERS[character(s["players"][seat])].ability


# ---------------------------------------------------------------- cards


def draw(ctx: Ctx, deck: Deck) -> str | None:
    """The top card of a deck; an empty deck is refilled from its shuffled discards first (P-24)."""
    s = ctx.state
    disc: Discards = "wdisc" if deck == "wdeck" else "sdisc"
    if not s[deck] and s[disc]:
        s[deck], s[disc] = s[disc], []
        ctx.rng.shuffle(s[deck])
        ctx.say("gg.ev.reshuffle", deck=msg(f"gg.deck.{deck}"))
    ctx.undoable = False
    return s[deck].pop() if s[deck] else None


def discard(ctx: Ctx, cid: str) -> None:
    s = ctx.state
    if cid[0] == "w":
        if cid in s["unloaded"]:
            s["unloaded"].remove(cid)
        s["wdisc"].append(cid)
    else:
        s["sdisc"].append(cid)


def gain(ctx: Ctx, seat: int, cid: str) -> None:
    """Place a gained card: an empty active slot, else an empty backpack slot, else the holder decides."""
    s = ctx.state
    slot = slot_of(s, cid)
    mat = s["players"][seat]["mat"][slot]
    act, pack = capacity(slot)
    if len(mat["a"]) < act:
        mat["a"].append(cid)
    elif len(mat["p"]) < pack:
        mat["p"].append(cid)
    else:
        s["pending"].append({"seat": seat, "card": cid})
        return
    ctx.say("gg.ev.gain", seat=SeatRef(seat), card=card_name(s, cid))


def remove_card(s: State, seat: int, cid: str) -> None:
    mat = s["players"][seat]["mat"][slot_of(s, cid)]
    for area in AREAS:
        if cid in mat[area]:
            mat[area].remove(cid)
            return
    raise ValueError(f"{cid} not on the mat of seat {seat}")


def use_card(ctx: Ctx, seat: int, cid: str) -> None:
    remove_card(ctx.state, seat, cid)
    discard(ctx, cid)


def open_chest(ctx: Ctx, seat: int, extra: bool) -> None:
    ctx.say("gg.ev.extra_chest" if extra else "gg.ev.chest", seat=SeatRef(seat),
            at=ctx.board.name(square(ctx.fighter(seat))))
    for _ in range(int(RULES["chest"]["support"])):
        cid = draw(ctx, "sdeck")
        if cid is not None:
            gain(ctx, seat, cid)
    for _ in range(int(RULES["chest"]["weapon"])):
        cid = draw(ctx, "wdeck")
        if cid is not None:
            gain(ctx, seat, cid)


def backpack_fill(s: State, seat: int) -> None:
    mat = s["players"][seat]["mat"]
    for slot in SLOTS:
        act, _ = capacity(slot)
        while mat[slot]["p"] and len(mat[slot]["a"]) < act:
            mat[slot]["a"].append(mat[slot]["p"].pop(0))


# ---------------------------------------------------------------- health, damage, elimination


def heal(ctx: Ctx, seat: int, amount: int, why: str) -> None:
    p = ctx.fighter(seat)
    before = p["hp"]
    p["hp"] = min(HP, p["hp"] + amount)
    ctx.say("gg.ev.heal", seat=SeatRef(seat), why=msg(f"gg.why.{why}"), before=before, after=p["hp"])


def damage(ctx: Ctx, victim: int, raw: int, source: int | None, kind: str, why: str) -> int:
    """Apply damage through the pipeline of §4.5; returns HP lost.

    kind: "card" (magic field, then armour), "pierce" (magic field only: Breathold), "ability" and "zone"
    (straight to HP). `source` is credited with the kill (None: nobody gets the cards).
    """
    s = ctx.state
    p = ctx.fighter(victim)
    if not p["alive"]:
        return 0
    d = raw
    field = False
    spent: list[Msg] = []
    if kind in ("card", "pierce") and on_banner(s, p["pos"], "field"):
        d //= 2
        field = True
    if kind == "card" and d > 0:
        helm = p["mat"]["helmet"]["a"][:1]
        body = p["mat"]["body"]["a"][:1]
        used: list[str] = []
        if helm and body:
            if d <= 10:
                used, d = helm, 0
            elif d <= 20:
                used, d = body, 0
            else:
                used, d = helm + body, max(0, d - 30)
        elif helm or body:
            card = (helm or body)[0]
            absorb = int(SUPPORT[s["cards"][card]].values["absorb"])
            used, d = [card], max(0, d - absorb)
        for cid in used:
            spent.append(card_name(s, cid))
            use_card(ctx, victim, cid)
    before = p["hp"]
    p["hp"] = max(0, p["hp"] - d)
    if source is not None and source != victim:  # damage dealt, kept for the records
        ctx.fighter(source)["dealt"] = ctx.fighter(source).get("dealt", 0) + before - p["hp"]
    ctx.say("gg.ev.damage", seat=SeatRef(victim), raw=raw, lost=before - p["hp"], hp=p["hp"],
            why=msg(f"gg.why.{why}"), field=msg("gg.ev.field") if field else "",
            armour=msg("gg.ev.armour", cards=listing(spent)) if spent else "")
    if p["hp"] == 0:
        eliminate(ctx, victim, source if kind != "zone" else None)
    return before - p["hp"]


def listing(items: Sequence[Param]) -> Msg:
    """"a, b and c" in the reader's language (the shared core.list keys)."""
    if len(items) <= 6:
        return msg(f"core.list.{len(items)}", **{f"s{i}": v for i, v in enumerate(items)})
    return msg("core.list.many", n=len(items) - 5, **{f"s{i}": v for i, v in enumerate(items[:5])})


def eliminate(ctx: Ctx, victim: int, killer: int | None) -> None:
    s = ctx.state
    p = ctx.fighter(victim)
    p["alive"] = False
    p["hp"] = 0
    p["frozen"] = p["heal_block"] = False
    if s["mode"] == "duo":
        p["ghost"] = p["pos"]
    p["pos"] = None
    s["out"].append(victim)
    cards = all_cards(p)
    p["mat"] = empty_mat()
    chests, p["xc"] = p["xc"], 0
    gets = killer is not None and ctx.fighter(killer)["alive"]
    if gets:
        assert killer is not None
        ctx.say("gg.ev.eliminated_by", seat=SeatRef(victim), killer=SeatRef(killer))
        ctx.fighter(killer)["kills"] = ctx.fighter(killer).get("kills", 0) + 1  # (older states have no count yet)
        ctx.fighter(killer)["xc"] += chests
        for cid in cards:
            gain(ctx, killer, cid)
    else:
        ctx.say("gg.ev.eliminated", seat=SeatRef(victim))
        for cid in cards:
            discard(ctx, cid)
    check_winner(ctx)


def resign(ctx: Ctx, seat: int) -> None:
    """A fighter whose player resigns is eliminated with nobody credited: the cards go to the discard piles, the
    loot it was placing too, and a trade it was part of is called off; the last team standing wins."""
    s = ctx.state
    for q in [q for q in s["pending"] if q["seat"] == seat]:
        s["pending"].remove(q)
        discard(ctx, q["card"])
    if s["trade"] is not None and seat in (s["trade"]["from"], s["trade"]["to"]):
        s["trade"] = None
        if s["t"]:
            s["t"]["draft"] = {"give": [], "take": [], "xg": 0, "xt": 0}
    eliminate(ctx, seat, None)
    if s["winners"] is None and s["zone_due"] and s["turn"] == seat:
        s["turn"] = next_seat(s, seat)[0]  # the round's first fighter after the zone closes


def check_winner(ctx: Ctx) -> None:
    s = ctx.state
    teams = {ctx.fighter(seat)["team"] for seat in living(s)}
    if len(teams) <= 1:
        winners = sorted(p["seat"] for p in s["players"] if p["team"] in teams)
        s["winners"] = winners
        s["phase"] = "over"
        for q in s["pending"]:  # nobody places loot once the game is won
            discard(ctx, q["card"])
        s["pending"] = []
        s["trade"] = None
        ctx.say("gg.ev.won", seats=listing([SeatRef(w) for w in winners]))


# ---------------------------------------------------------------- turns


def new_turn_flags(frozen: bool, heal_block: bool) -> TurnFlags:
    return {"stage": "start", "dice": [], "points": 0, "seen": [], "mods": [], "compass": False,
            "moved": False, "teleported": False, "skipped": False, "frozen": frozen, "heal_block": heal_block,
            "consumable": False, "defensive": False, "main": None, "throwable": False, "xchest": False,
            "kswap": None, "shot": None, "dober": None, "ignite": False, "drain": False, "revived": False,
            "draft": {"give": [], "take": [], "xg": 0, "xt": 0}}


def position(s: State, seat: int) -> int:
    return s["order"].index(seat)


def start_game(ctx: Ctx) -> None:
    s = ctx.state
    s["phase"] = "play"
    s["round"] = 1
    ctx.say("gg.ev.round", round=1)
    start_turn(ctx, s["order"][0])


def start_turn(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    s["turn"] = seat
    r = s["round"]
    mine = position(s, seat)
    keep = []
    for b in s["banners"]:
        # placed in round p: gone at the start of its owner's turn in round p + 2 (or when that turn would be)
        due = r > b["round"] + 2 or (r == b["round"] + 2 and position(s, b["owner"]) <= mine)
        if due:
            ctx.say("gg.ev.banner_gone", kind=msg(f"gg.banner.{b['kind']}"), owner=SeatRef(b["owner"]))
        else:
            keep.append(b)
    s["banners"] = keep
    p = ctx.fighter(seat)
    if p["cd"] > 0:
        p["cd"] -= 1
    if p["copy"] and p["copy"]["cd"] > 0:
        p["copy"]["cd"] -= 1
    s["t"] = new_turn_flags(p["frozen"], p["heal_block"])
    p["frozen"] = p["heal_block"] = False
    p["turns"] += 1
    ctx.say("gg.ev.turn", seat=SeatRef(seat), round=r)
    if s["t"]["frozen"]:
        ctx.say("gg.ev.frozen_turn", seat=SeatRef(seat))


def next_seat(s: State, seat: int) -> tuple[int | None, bool]:
    """The next living seat after `seat` in turn order, and whether a new round begins with it."""
    order = s["order"]
    start = order.index(seat)
    for k in range(1, len(order) + 1):
        cand = order[(start + k) % len(order)]
        if s["players"][cand]["alive"]:
            return cand, start + k >= len(order)
    return None, False


def end_turn(ctx: Ctx) -> None:
    """End-of-turn processing (A-29), then the next turn (or the zone closing first)."""
    s = ctx.state
    seat = seat_on_turn(s)
    p = ctx.fighter(seat)
    if p["alive"]:
        backpack_fill(s, seat)
        ball_lightning(ctx, seat)
    if p["alive"] and s["winners"] is None:
        ignite(ctx, seat)
    if p["alive"]:
        p["skipped"] = bool(s["t"]["skipped"])
    advance(ctx, seat)


def advance(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    if s["winners"] is not None:
        s["t"] = {}
        return
    nxt, new_round = next_seat(s, seat)
    if nxt is None:
        return
    s["t"] = {}
    if new_round:
        s["round"] += 1
        if s["round"] > int(RULES["max_rounds"]):
            s["winners"] = []
            s["phase"] = "over"
            ctx.say("gg.ev.draw_limit", rounds=int(RULES["max_rounds"]))
            return
        ctx.say("gg.ev.round", round=s["round"])
        closes = [int(x) for x in RULES["zone_closes_after"]]
        limit = 4 if s["final_zone"] == "shrink" else 3
        if s["zone"] < limit and s["round"] - 1 == closes[s["zone"]]:
            s["turn"] = nxt
            s["zone_due"] = True
            return
    start_turn(ctx, nxt)


def close_zone(ctx: Ctx) -> None:
    s = ctx.state
    s["zone"] += 1
    s["zone_due"] = False
    ctx.undoable = False
    ctx.say("gg.ev.zone_closed", zone=s["zone"], penalty=zone_penalty(s))
    start_turn(ctx, seat_on_turn(s))


def ball_lightning(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    for b in list(s["banners"]):
        if b["kind"] != "ball" or not enemies(s, b["owner"], seat):
            continue
        p = ctx.fighter(seat)
        if p["alive"] and ctx.board.dist(b["sq"][0], square(p)) <= int(SUPPORT["ball_lightning"].values["reach"]):
            owner = b["owner"] if ctx.fighter(b["owner"])["alive"] else None
            damage(ctx, seat, int(SUPPORT["ball_lightning"].values["damage"]), owner, "card", "ball")


def ignite(ctx: Ctx, seat: int) -> None:
    """Tharsis (or Octor's used copy) burns adjacent enemies at the end of his turn; enemies ending next to
    Tharsis burn too."""
    s = ctx.state
    p = ctx.fighter(seat)
    dmg = int(CHARACTERS["tharsis"].values["damage"])
    if ability_of(s, seat) == "ignite" or s["t"].get("ignite"):
        for o in list(s["players"]):
            if o["alive"] and enemies(s, seat, o["seat"]) and o["char"] != "emoon" \
                    and ctx.board.dist(square(o), square(p)) == 1:
                o["heal_block"] = True
                damage(ctx, o["seat"], dmg, seat, "ability", "ignite")
                if s["winners"] is not None:
                    return
    if p["char"] == "emoon":
        return
    for o in s["players"]:
        if o["alive"] and o["char"] == "tharsis" and enemies(s, seat, o["seat"]) and p["alive"] \
                and ctx.board.dist(square(o), square(p)) == 1:
            p["heal_block"] = True
            damage(ctx, seat, dmg, o["seat"], "ability", "ignite")


def to_act(s: State) -> frozenset[int]:
    if s["winners"] is not None:
        return frozenset()
    if s["pending"]:
        return frozenset({s["pending"][0]["seat"]})
    if s["trade"] is not None:
        return frozenset({s["trade"]["to"]})
    if s["phase"] == "pick":
        return frozenset({next(p["seat"] for p in s["players"] if p["char"] is None)})
    if s["phase"] == "octor":
        return frozenset({next(p["seat"] for p in s["players"] if p["char"] == "octor")})
    if s["zone_due"]:
        return frozenset({SYSTEM})
    return frozenset({seat_on_turn(s)})
