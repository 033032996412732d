"""What each seat sees: the GM everything, heroes and spectators only what has been revealed."""

from __future__ import annotations

from collections.abc import Mapping

from rules import coords
from rules.base import LegalAction
from rules.heroquest import board, catalog
from rules.heroquest.setup import TRAPPED_FURNITURE
from rules.heroquest.shapes import (
    BoardObject,
    BoardView,
    DoorView,
    HeroView,
    LitJson,
    MonsterView,
    ObjectView,
    PendingView,
)
from rules.heroquest.state import (
    GM,
    LOG_SIZE,
    HQState,
    as_square,
    hero_label,
    is_outside,
    json_copy,
    monster_label,
    parse_sq,
)
from rules.text import Lit, Msg, msg

#: Actions whose "to" is a square the hero may move to now.
REACH_KINDS = frozenset({"move", "enter", "jump", "jump_in", "rock_step"})
#: Object kinds shown to the players once revealed (traps only once found or sprung, markers never).
SHOWN_KINDS = frozenset({"furniture", "blocked", "stairs", "rock", "corpse"})


def _lit(value: Lit | Mapping[str, str]) -> LitJson:
    return {"es": value["es"], "en": value["en"]} if isinstance(value, Mapping) else {"es": value.es, "en": value.en}


def trap_known(o: BoardObject) -> bool:
    return bool(o.get("found") or o.get("sprung"))


def object_visible(o: BoardObject) -> bool:
    """Whether the players know this object is there."""
    kind = o["kind"]
    if kind == "trap":
        return trap_known(o) and not o.get("disarmed")
    if kind in SHOWN_KINDS:
        return bool(o["revealed"])
    return False


def door_visible(o: BoardObject) -> bool:
    if o["kind"] == "secret_door":
        return bool(o["found"])
    return bool(o["revealed"])


def public_object(o: BoardObject) -> tuple[str, str]:
    """The id and ref the heroes see: a trapped chest is a chest (its trap shows as a found-trap token once
    found), a found trap is a bare mechanism until sprung, and furniture is named by its place, not its quest id."""
    kind, ref = o["kind"], o["ref"]
    if kind == "trap":
        return o["uid"], ref if o.get("sprung") else "found_trap"
    if kind in ("furniture", "blocked", "stairs"):
        ref = TRAPPED_FURNITURE.get(ref, ref)
        first = o["squares"][0]
        return f"{kind}-{coords.name(first[0], first[1])}", ref
    return o["uid"], ref


def hidden_uids(s: HQState) -> set[str]:
    """Every uid the players must not see yet (doors are not secret, only where they stand)."""
    out = {m["uid"] for m in s.monsters.values() if not m["revealed"]}
    for o in s.objects.values():
        kind = o["kind"]
        if kind == "door":
            continue
        if kind == "secret_door":
            hidden = not o["found"]
        elif kind == "trap":
            hidden = not trap_known(o)
        else:
            hidden = not object_visible(o)
        if hidden:
            out.add(o["uid"])
    return out


def build(s: HQState, seat: int | None) -> BoardView:
    gm = seat == GM
    viewer = "gm" if gm else ("hero" if seat is not None else "spectator")
    quest = s.quest
    revealed = [list(q) for q in board.all_squares()] if gm else [list(q) for q in s.revealed_squares()]
    doors: list[DoorView] = []
    objects: list[ObjectView] = []
    heroes: list[HeroView] = []
    monsters: list[MonsterView] = []
    for o in sorted(s.objects.values(), key=lambda o: o["uid"]):
        if o["kind"] in ("door", "secret_door"):
            if gm or door_visible(o):
                door: DoorView = {"uid": o["uid"], "between": o["between"], "open": bool(o.get("open")),
                                  "secret": o["kind"] == "secret_door"}
                if gm:
                    door["hidden"] = not door_visible(o)
                doors.append(door)
            continue
        if o["kind"] == "trap" and o.get("disarmed") and not gm:
            continue
        visible = object_visible(o)
        if not (gm or visible):
            continue
        ref, uid = o["ref"], o["uid"]
        if not gm:
            uid, ref = public_object(o)
        entry: ObjectView = {"uid": uid, "kind": o["kind"], "ref": ref, "squares": o["squares"],
                             "rotation": o["rotation"], "hidden": not visible}
        if gm and o["kind"] == "trap":
            entry.update({"found": bool(o.get("found")), "sprung": bool(o.get("sprung")),
                          "disarmed": bool(o.get("disarmed"))})
        note = o.get("note")
        if gm and note:
            entry["note"] = note
        objects.append(entry)
    # in the heroes' order too: sorted by what they see, not by the quest's ids
    objects.sort(key=lambda e: e["uid"])
    for h in s.heroes:
        heroes.append({
            "uid": h["uid"], "hero": h["hero"], "name": _lit(hero_label(h)),
            "square": h["sq"], "body": h["body"], "max_body": h["max_body"], "mind": h["mind"],
            "max_mind": h["max_mind"],
            "equipment": [i for i in (h["weapon"], h["shield"], h["helmet"], h["armour"]) if i],
            "items": list(h["items"]), "gold": h["gold"], "dead": h["dead"], "left": h["left"],
            "outside": is_outside(h), "seat": h["seat"],
            "spells": list(h["spells"]), "cast": list(h["cast"]), "status": sorted(h["status"]),
            "quest_treasures": list(h["quest_treasures"]), "skills": list(h.get("skills", [])),
        })
    for m in sorted(s.monsters.values(), key=lambda m: m["uid"]):
        if gm or m["revealed"]:
            shown: MonsterView = {"uid": m["uid"], "ref": m["ref"], "name": _lit(monster_label(m)),
                                  "square": m["sq"], "body": m["body"], "max_body": m["max_body"],
                                  "hidden": not m["revealed"], "status": sorted(m["status"])}
            if gm:
                shown["spells"] = [x for x in m.get("spells", []) if x not in m["cast"]]
            monsters.append(shown)
    for thrown in s.d["thrown"]:
        spot = thrown["sq"]
        objects.append({"uid": f"thrown_{thrown['item']}_{spot[0]}_{spot[1]}", "kind": "dropped",
                        "ref": thrown["item"], "squares": [spot], "rotation": "downward", "hidden": False})
    turn = s.d["turn"]
    over = s.d["over"]
    current = s.current_hero() if not over else None
    entries = [e for e in s.d["log"] if e["to"] is None or (seat is not None and seat in e["to"])]
    out: BoardView = {
        "viewer": viewer,
        "seat": seat,
        "quest": {"name": _lit(quest["name"])},
        "revealed": revealed,
        "doors": doors,
        "objects": objects,
        "heroes": heroes,
        "monsters": monsters,
        # texts stay message keys (rules know no catalog): renderers and the bot resolve them per language
        "turn": {"label": turn_label(s).to_json(), "round": s.d["round"],
                 "who": "over" if over else turn["who"], "hero": current["uid"] if current else None},
        "log": [json_copy(e["msg"]) for e in entries[-LOG_SIZE:]],
        "pending": pending_view(s),
    }
    if over:
        out["over"] = over.copy()
    if gm:
        out["notes"] = {k: {"es": v.es, "en": v.en, "read": k in s.d["notes_read"], "used": k in s.d["notes_used"]}
                        for k, v in s.quest_obj.notes.items()}
        out["player_revealed"] = [list(q) for q in s.revealed_squares()]
        out["unused"] = [list(q) for q in sorted(s.dark)]
        out["wandering_monster"] = s.quest.get("wandering_monster", "")
        out["deck_size"] = len(s.d["deck"])
        out["chaos_spells"] = sorted(catalog.spells()["chaos"])
        out["import_warnings"] = list(s.d.get("import_warnings", []))
    else:
        out["notes_read"] = {k: _lit(s.quest_obj.notes[k]) for k in s.d["notes_read"] if k in s.quest_obj.notes}
    return out


def turn_label(s: HQState) -> Msg:
    if s.d["over"]:
        return msg("hq.turn.over")
    if s.d["pending"]:
        h = s.hero(s.d["pending"][0]["hero"])
        return msg("hq.turn.pending", hero=hero_label(h) if h else "?")
    if s.d["picks"]:
        h = s.hero(s.d["picks"][0])
        return msg("hq.turn.spells", hero=hero_label(h) if h else "?")
    turn = s.d["turn"]
    if turn["who"] == "gm":
        return msg("hq.turn.gm", round=s.d["round"])
    return msg("hq.turn.hero", hero=hero_label(s.heroes[turn["i"]]), round=s.d["round"])


def pending_view(s: HQState) -> PendingView | None:
    if s.d["pending"]:
        p = s.d["pending"][0]
        h = s.hero(p["hero"])
        return {"kind": p["kind"], "hero": p["hero"], "seat": h["seat"] if h else None}
    if s.d["picks"]:
        h = s.hero(s.d["picks"][0])
        return {"kind": "spells", "hero": s.d["picks"][0], "seat": h["seat"] if h else None}
    if s.d.get("verdict"):
        return {"kind": "verdict", "seat": GM}
    return None


def reach(legal: list[LegalAction]) -> list[list[int]]:
    """The squares a hero's legal moves lead to (walks, jumps, a step aside), for the board's reach marks."""
    found = {parse_sq(la.action.get("to")) for la in legal if la.action.kind in REACH_KINDS}
    return [list(q) for q in sorted(q for q in found if q is not None)]


def squares_of(o: BoardObject) -> list[tuple[int, int]]:
    return [as_square(q) for q in o["squares"]]
