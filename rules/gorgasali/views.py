"""What each seat sees (everything on the table is public, A-47; the decks' order never is) and move labels."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from rules.base import Action
from rules.gorgasali import abilities, movement
from rules.gorgasali.board import Board, board_of
from rules.gorgasali.data import CHARACTERS, RULES, SLOTS
from rules.gorgasali.engine import card_name, seat_on_turn, square, to_act, zone_penalty
from rules.gorgasali.state import AREAS, CopiedAbility, Fighter, LastShot, State, Trade
from rules.text import Msg, Param, SeatRef, msg


class CardView(TypedDict):
    """A card on a mat: its id, its weapon or support key, whether it is in the backpack (weapons: loaded)."""

    id: str
    card: str
    backpack: bool
    loaded: NotRequired[bool]


class FighterView(TypedDict):
    seat: int
    char: str | None
    team: int
    hp: int
    alive: bool
    at: str | None  # square name
    ghost: str | None
    cooldown: int
    ability: str | None
    copy: CopiedAbility | None
    extra_chests: int
    mat: dict[str, list[CardView]]  # by mat category
    frozen: bool
    heal_block: bool
    skipped_last: bool


class MapView(TypedDict):
    w: int
    h: int
    rows: list[str]
    zones: list[str]


class BannerView(TypedDict):
    kind: str
    owner: int
    at: list[str]
    until_round: int


class DecksView(TypedDict):
    weapons: int
    support: int
    weapon_discards: int
    support_discards: int


class LootView(TypedDict):
    seat: int
    card: str  # the card's key
    id: str


class TurnView(TypedDict):
    """The public part of the turn being played."""

    stage: str
    dice: list[int]
    points: int
    moved: bool
    skipped: bool
    frozen: bool
    consumable: bool
    defensive: bool
    main: str | None
    throwable: bool
    xchest: bool
    revived: bool


class StepView(TypedDict):
    """A step the viewer may take now: direction, the square it leads to, its cost."""

    dir: str
    to: str
    cost: int


class View(TypedDict):
    """What a seat (or, without `you`, a spectator) sees; squares are named ("B7"), cards by key and id."""

    game: str
    mode: str
    phase: str
    round: int
    map: MapView
    chests: list[str]
    zone: int
    penalty: int
    next_close: int | None
    order: list[int]
    turn: int | None
    to_act: list[int]
    players: list[FighterView]
    banners: list[BannerView]
    decks: DecksView
    pending: list[LootView]
    trade: Trade | None
    last: LastShot | None
    shot_now: bool
    winners: list[int] | None
    out: list[int]
    turn_flags: NotRequired[TurnView]
    path: NotRequired[list[str]]  # the squares the current movement covered
    steps: NotRequired[list[StepView]]  # to the seat on turn while it moves
    you: NotRequired[int]
    names: NotRequired[list[str]]  # the seats' names, added by cogs/delivery.py for the picture


def description(s: State, a: Action) -> Msg | None:
    """The line shown under a move's label in menus: a character's ability when choosing who to play, what a
    weapon or a card does when firing, using, placing, throwing or passing it."""
    if a.kind == "pick":
        return msg(f"gg.desc.char.{a['char']}")
    card = a.get("weapon") if a.kind == "shoot" else a.get("card")
    if isinstance(card, str) and card in s["cards"]:
        return msg(f"gg.desc.card.{s['cards'][card]}")
    return None


def label(s: State, a: Action) -> Msg:
    """The label of a move, as a message: cards, seats, squares and directions resolved to parameters."""
    params: dict[str, Param] = {}
    for key, value in a.args:
        if key in ("card", "weapon", "ext", "into", "with") and isinstance(value, str) and value in s["cards"]:
            params[key] = card_name(s, value)
        elif key in ("target", "second") and isinstance(value, int):
            params[key] = SeatRef(value)
        elif key == "dir":
            params[key] = msg(f"gg.dir.{value}")
        elif key == "path" and isinstance(value, tuple):
            params[key] = " ".join(str(v) for v in value)
        elif key == "dice" and isinstance(value, tuple):
            params[key] = " ".join(str(int(v) + 1) for v in value) if value else "-"
        elif key == "char":
            params[key] = msg(f"gg.char.{value}")
        elif key == "into":
            params[key] = msg("gg.act.discard_it")
        else:
            params[key] = str(value)
    if a.kind == "ability":
        ability, _ = abilities.current(s, s["turn"]) if s["turn"] is not None else (None, 0)
        params["ability"] = msg(f"gg.ability.{ability}")
        variant = "_".join(k for k, _ in a.args) or "self"
        return msg(f"gg.act.ability.{variant}", **params)
    if a.kind == "defend":
        variant = "_".join(k for k, _ in a.args)
        return msg(f"gg.act.defend.{variant}", **params)
    if a.kind == "shoot" and "ext" in params:
        return msg("gg.act.shoot_ext", **params)
    if a.kind == "throw" and "target" not in params:
        return msg("gg.act.throw_self", **params)
    if a.kind == "arrange" and "with" not in params:
        return msg("gg.act.arrange_alone", **params)
    if a.kind == "place" and a.get("into") == "discard":
        return msg("gg.act.place_discard", **params)
    if a.kind == "step":
        here = square(s["players"][seat_on_turn(s)])
        board = board_of(s["board"])
        to = board.step(here, a["dir"])
        if to is not None:
            params["to"] = board.name(to)
            params["cost"] = movement.cost(s, board, to)
    return msg(f"gg.act.{a.kind}", **params)


def _mat(s: State, p: Fighter) -> dict[str, list[CardView]]:
    out: dict[str, list[CardView]] = {}
    for slot in SLOTS:
        cards = []
        for area in AREAS:
            for cid in p["mat"][slot][area]:
                entry: CardView = {"id": cid, "card": s["cards"][cid], "backpack": area == "p"}
                if cid[0] == "w":
                    entry["loaded"] = cid not in s["unloaded"]
                cards.append(entry)
        out[slot] = cards
    return out


def shot_now(s: State) -> bool:
    """Whether `last` is the shot of the turn being played: fired by the seat on turn, this turn (`t` is per turn
    and says its main action was a shot) and resolved; a shot of an earlier turn is history, not the board."""
    last, t = s["last"], s["t"]
    return bool(last and t and t.get("main") == "shoot" and t.get("shot") is None
                and last.get("shooter") == s["turn"])


def next_close(s: State) -> int | None:
    """The round after which the next zone closes (public: the zones are fixed rings, A-13), or None if none will."""
    closes = [int(x) for x in RULES["zone_closes_after"]]
    limit = 4 if s["final_zone"] == "shrink" else 3
    return closes[s["zone"]] if s["zone"] < min(limit, len(closes)) else None


def view(s: State, seat: int | None) -> View:
    board = board_of(s["board"])
    players: list[FighterView] = []
    for p in s["players"]:
        players.append({
            "seat": p["seat"], "char": p["char"], "team": p["team"], "hp": p["hp"], "alive": p["alive"],
            "at": board.name(p["pos"]) if p["pos"] is not None else None,
            "ghost": board.name(p["ghost"]) if p["ghost"] is not None else None,
            "cooldown": p["cd"], "ability": CHARACTERS[p["char"]].ability if p["char"] else None,
            "copy": p["copy"].copy() if p["copy"] else None, "extra_chests": p["xc"], "mat": _mat(s, p),
            "frozen": p["frozen"], "heal_block": p["heal_block"], "skipped_last": p["skipped"]})
    data: View = {
        "game": "gorgasali", "mode": s["mode"], "phase": s["phase"], "round": s["round"],
        "map": {"w": board.w, "h": board.h, "rows": list(s["board"]["rows"]), "zones": list(s["board"]["zones"])},
        "chests": [board.name(q) for q in s["chests"]], "zone": s["zone"], "penalty": zone_penalty(s),
        "next_close": next_close(s), "order": list(s["order"]), "turn": s["turn"],
        "to_act": sorted(to_act(s)), "players": players,
        "banners": [{"kind": b["kind"], "owner": b["owner"], "at": [board.name(q) for q in b["sq"]],
                     "until_round": b["round"] + int(RULES["banner_rounds"])} for b in s["banners"]],
        "decks": {"weapons": len(s["wdeck"]), "support": len(s["sdeck"]), "weapon_discards": len(s["wdisc"]),
                  "support_discards": len(s["sdisc"])},
        "pending": [{"seat": q["seat"], "card": s["cards"][q["card"]], "id": q["card"]} for q in s["pending"]],
        "trade": None if s["trade"] is None else s["trade"].copy(), "last": s["last"], "shot_now": shot_now(s),
        "winners": s["winners"],
        "out": list(s["out"])}
    t = s["t"]
    if t:
        data["turn_flags"] = {"stage": t["stage"], "dice": t["dice"], "points": t["points"], "moved": t["moved"],
                              "skipped": t["skipped"], "frozen": t["frozen"], "consumable": t["consumable"],
                              "defensive": t["defensive"], "main": t["main"], "throwable": t["throwable"],
                              "xchest": t["xchest"], "revived": t["revived"]}
        data["path"] = [board.name(q) for q in t["seen"]]
        if seat is not None and seat == s["turn"] and t["stage"] in ("rolled", "moving"):
            here = square(s["players"][seat])
            data["steps"] = [_step(s, board, here, d) for d in movement.legal_steps(s, board, seat)]
    if seat is not None:
        data["you"] = seat
    return data


def _step(s: State, board: Board, here: int, d: str) -> StepView:
    to = board.step(here, d)
    assert to is not None  # (a legal step stays on the island)
    return {"dir": d, "to": board.name(to), "cost": movement.cost(s, board, to)}
