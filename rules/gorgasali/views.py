"""What each seat sees (everything on the table is public, A-47; the decks' order never is) and move labels."""

from __future__ import annotations

from typing import Any

from rules.base import Action
from rules.gorgasali import abilities as AB
from rules.gorgasali import movement as MV
from rules.gorgasali.board import board_of
from rules.gorgasali.data import CHARACTERS, RULES, SLOTS
from rules.gorgasali.engine import State, card_name, to_act, zone_penalty
from rules.text import Msg, SeatRef, msg


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
    params: dict[str, Any] = {}
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
        ability, _ = AB.current(s, s["turn"]) if s["turn"] is not None else (None, 0)
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
        s2 = s["players"][s["turn"]]["pos"]
        board = board_of(s["board"])
        to = board.step(s2, a["dir"])
        if to is not None:
            params["to"] = board.name(to)
            params["cost"] = MV.cost(s, board, to)
    return msg(f"gg.act.{a.kind}", **params)


def _mat(s: State, p: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for slot in SLOTS:
        cards = []
        for area in ("a", "p"):
            for cid in p["mat"][slot][area]:
                entry: dict[str, Any] = {"id": cid, "card": s["cards"][cid], "backpack": area == "p"}
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


def view(s: State, seat: int | None) -> dict[str, Any]:
    board = board_of(s["board"])
    players = []
    for p in s["players"]:
        players.append({
            "seat": p["seat"], "char": p["char"], "team": p["team"], "hp": p["hp"], "alive": p["alive"],
            "at": board.name(p["pos"]) if p["pos"] is not None else None,
            "ghost": board.name(p["ghost"]) if p["ghost"] is not None else None,
            "cooldown": p["cd"], "ability": CHARACTERS[p["char"]].ability if p["char"] else None,
            "copy": dict(p["copy"]) if p["copy"] else None, "extra_chests": p["xc"], "mat": _mat(s, p),
            "frozen": p["frozen"], "heal_block": p["heal_block"], "skipped_last": p["skipped"]})
    data: dict[str, Any] = {
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
        "trade": None if s["trade"] is None else dict(s["trade"]), "last": s["last"], "shot_now": shot_now(s),
        "winners": s["winners"],
        "out": list(s["out"])}
    t = s["t"]
    if t:
        data["turn_flags"] = {k: t[k] for k in ("stage", "dice", "points", "moved", "skipped", "frozen", "consumable",
                                                 "defensive", "main", "throwable", "xchest", "revived")}
        data["path"] = [board.name(q) for q in t["seen"]]
        if seat is not None and seat == s["turn"] and t["stage"] in ("rolled", "moving"):
            here = s["players"][seat]["pos"]
            data["steps"] = [{"dir": d, "to": board.name(board.step(here, d)),  # type: ignore[arg-type]
                              "cost": MV.cost(s, board, board.step(here, d))}  # type: ignore[arg-type]
                             for d in MV.legal_steps(s, board, seat)]
    if seat is not None:
        data["you"] = seat
    return data
