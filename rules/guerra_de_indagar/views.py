"""What one seat (or a spectator) sees of a game: the view the board image and the Discord glue read."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from rules.guerra_de_indagar.data import numbers
from rules.guerra_de_indagar.hexes import unkey
from rules.guerra_de_indagar.state import Activation, LastDice, State
from rules.guerra_de_indagar.units import hero_resistance, monster_stats, primacy_points, tile_label


class TileView(TypedDict):
    at: str  #: the tile's label (e.g. `D4`)
    q: int
    r: int
    type: str | None  #: None while face down
    destroyed: bool
    area: int
    deploy: bool
    home: int


class HeroView(TypedDict):
    id: str
    owner: int
    at: str | None  #: a label, None in retreat
    dmg: int
    resistance: int
    xp: int
    levels: list[str]
    cache: list[str]
    done: bool
    commander: bool


class MonsterView(TypedDict):
    id: str
    kind: str
    at: str | None
    dmg: int
    resistance: int
    retreat: int
    count: int
    spirits: int
    stuck: bool
    turns: int


class PlayerView(TypedDict):
    seat: int
    faction: str | None
    commander: str | None
    res: dict[str, int]
    spirits: int
    pp: int  #: primacy points, outposts included
    traitors: bool
    tree: str | None
    unlocks: dict[str, str]


class OutpostView(TypedDict):
    at: str
    owner: int
    level: int
    dmg: int
    dropped: bool


class AttackView(TypedDict):
    at: str
    by: list[str]
    a: list[int]
    d: list[int]
    stage: str


class QuestionView(TypedDict):
    kind: str
    seat: int


class View(TypedDict):
    round: int
    phase: str
    order: list[int]
    target: int
    source: int
    tiles: list[TileView]
    heroes: list[HeroView]
    monsters: list[MonsterView]
    players: list[PlayerView]
    outposts: list[OutpostView]
    turn: list[str] | None
    ring: list[list[str]]
    ring_pos: int
    active: Activation | None
    attack: AttackView | None
    pending: list[QuestionView]
    last_dice: LastDice | None  #: its `at` a label
    level: int | None  #: the monsters' demon level this round
    you: NotRequired[int]  #: the viewer's seat (a private view)
    peeks: NotRequired[list[str]]  #: "label=type" of the face-down tiles the viewer has peeked at


def view_of(s: State, seat: int | None) -> View:
    tiles: list[TileView] = []
    for k, t in sorted(s["tiles"].items(), key=lambda i: (unkey(i[0])[1], unkey(i[0])[0])):
        q, r = unkey(k)
        tiles.append({"at": tile_label(s, k), "q": q, "r": r, "type": t["t"] if t["up"] else None,
                      "destroyed": t["destroyed"], "area": t["area"], "deploy": t["deploy"], "home": t["home"]})
    heroes: list[HeroView] = [
        {"id": hid, "owner": h["owner"], "at": tile_label(s, h["at"]) if h["at"] else None, "dmg": h["dmg"],
         "resistance": hero_resistance(s, hid), "xp": h["xp"], "levels": list(h["levels"]),
         "cache": list(h["cache"]), "done": h["done"],
         "commander": s["players"][h["owner"]]["commander"] == hid} for hid, h in sorted(s["heroes"].items())]
    mons: list[MonsterView] = [
        {"id": mid, "kind": m["kind"], "at": tile_label(s, m["at"]) if m["at"] else None, "dmg": m["dmg"],
         "resistance": monster_stats(s, mid)["resistance"], "retreat": m["retreat"], "count": m["count"],
         "spirits": m["spirits"], "stuck": m["stuck"], "turns": m["turns"]}
        for mid, m in sorted(s["monsters"].items()) if not m["gone"]]
    players: list[PlayerView] = [
        {"seat": i, "faction": p["faction"], "commander": p["commander"], "res": dict(p["res"]),
         "spirits": p["spirits"], "pp": primacy_points(s, i), "traitors": p["traitors"], "tree": p["tree"],
         "unlocks": dict(p["unlocks"])}
        for i, p in enumerate(s["players"])]
    att = s["attack"]
    last_dice = s.get("last_dice")
    data: View = {
        "round": s["round"], "phase": s["phase"], "order": list(s["order"]), "target": s["target"],
        "source": s["source"], "tiles": tiles, "heroes": heroes, "monsters": mons, "players": players,
        "outposts": [{"at": tile_label(s, k), **p} for k, p in sorted(s["outposts"].items())],
        "turn": list(s["turn"]) if s["turn"] else None, "ring": [list(slot) for slot in s["ring"]],
        "ring_pos": s["ring_pos"],
        "active": s["act"].copy() if s["act"] else None,
        "attack": None if att is None else {"at": tile_label(s, att["at"]), "by": list(att["by"]),
                                             "a": list(att["a"]), "d": list(att["d"]), "stage": att["stage"]},
        "pending": [{"kind": p["kind"], "seat": p["seat"]} for p in s["pending"]],
        "last_dice": None if last_dice is None else {**last_dice, "at": tile_label(s, last_dice["at"])},
        "level": None if s["round"] == 0 else numbers()["demon_heads"]["levels"][min(s["round"], 10) - 1],
    }
    if seat is not None and 0 <= seat < len(s["players"]):
        data["you"] = seat  # the private image marks the viewer's own row
        data["peeks"] = [f"{tile_label(s, k)}={s['tiles'][k]['t']}" for k in s["players"][seat]["known"]
                         if not s["tiles"][k]["up"]]
    return data
