"""HeroQuest quests as immutable values: placed objects, our JSON format, validation and loading."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rules.base import RuleError
from rules.heroquest import board
from rules.heroquest.board import Square
from rules.text import Lit, Msg, msg

QUEST_DIR = Path(__file__).resolve().parents[2] / "data" / "heroquest" / "quests"
OBJECTS_FILE = Path(__file__).resolve().parents[2] / "data" / "heroquest" / "objects.json"
#: Largest quest file we accept (HeroScribe or JSON), in bytes.
MAX_BYTES = 1_000_000
FORMAT = "heroquest-quest"
FORMAT_VERSION = 1

KINDS = frozenset(
    {"monster", "furniture", "trap", "door", "secret_door", "blocked", "stairs", "treasure", "marker", "hero_start"}
)
ROTATIONS = ("downward", "rightward", "upward", "leftward")
#: Kinds that sit on an edge between two squares (`Placed.between` is set).
EDGE_KINDS = frozenset({"door", "secret_door"})
#: Kinds whose footprint must stay inside one area without a wall through it.
SOLID_KINDS = frozenset({"monster", "furniture", "trap", "blocked", "stairs", "treasure", "hero_start"})
HERO_ORDER = ("barbarian", "dwarf", "elf", "wizard")
_UID = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,63}$")


class QuestError(RuleError):
    """A quest file that cannot be used; `reason` names the first problem, `problems` lists all found."""

    code = "quest"

    def __init__(self, reason: Msg, problems: list[Msg] | None = None) -> None:
        super().__init__(reason)
        self.problems = problems or [reason]


def where_line(line: int) -> Msg:
    return msg("hq.q.where.line", line=line)


def where_uid(uid: str) -> Msg:
    return msg("hq.q.where.object", uid=uid)


def where_field(name: str) -> Msg:
    return msg("hq.q.where.field", field=name)


@dataclass(frozen=True)
class Placed:
    """One thing the quest map places on the board.

    `squares` are the squares it covers. Doors and secret doors sit on an edge: `between` holds the two
    squares they separate (also their `squares`); for a secret door the first one is the square the
    HeroScribe tile stands on. `rotation` is one of `ROTATIONS` (as in HeroScribe, "downward" is the
    default). `note` links the object to a quest note key (e.g. "A").
    """

    uid: str
    kind: str
    ref: str
    squares: tuple[Square, ...]
    rotation: str = "downward"
    between: tuple[Square, Square] | None = None
    note: str | None = None

    @property
    def edge(self) -> frozenset[Square] | None:
        return frozenset(self.between) if self.between else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "uid": self.uid,
            "kind": self.kind,
            "ref": self.ref,
            "squares": [list(s) for s in self.squares],
            "rotation": self.rotation,
        }
        if self.between:
            out["between"] = [list(s) for s in self.between]
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Quest:
    """A whole quest: texts in both languages, the map's objects, unused ("dark") squares and the start.

    `dark` are the squares the map shades as not part of this quest: nobody enters or sees them.
    `start` are the squares the heroes start on (the stairway, or the heroes' marks), in order.
    `wandering_monster` is a monster ref, or "" when the quest does not name one.
    """

    id: str
    name: Lit
    speech: Lit
    notes: dict[str, Lit] = field(hash=False)
    wandering_monster: str
    dark: frozenset[Square]
    objects: tuple[Placed, ...]
    start: tuple[Square, ...]

    # ---- queries

    def of_kind(self, *kinds: str) -> list[Placed]:
        return [o for o in self.objects if o.kind in kinds]

    def object(self, uid: str) -> Placed:
        for o in self.objects:
            if o.uid == uid:
                return o
        raise KeyError(uid)

    def start_room(self) -> int | None:
        """The room the heroes start in (None when they start in a corridor)."""
        rooms = {board.room_of(s) for s in self.start}
        return rooms.pop() if len(rooms) == 1 else None

    def summary(self) -> dict[str, Any]:
        """Counts used by the quest checker and tests."""
        monsters = Counter(o.ref for o in self.of_kind("monster"))
        return {
            "doors": len(self.of_kind("door")),
            "secret_doors": len(self.of_kind("secret_door")),
            "monsters": dict(sorted(monsters.items())),
            "furniture": len(self.of_kind("furniture")),
            "traps": len(self.of_kind("trap")),
            "blocked": sum(len(o.squares) for o in self.of_kind("blocked")),
        }

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "id": self.id,
            "name": _lit_json(self.name),
            "speech": _lit_json(self.speech),
            "notes": {k: _lit_json(v) for k, v in self.notes.items()},
            "wandering_monster": self.wandering_monster,
            "start": [list(s) for s in self.start],
            "dark": [list(s) for s in sorted(self.dark)],
            "objects": [o.to_json() for o in self.objects],
        }

    @staticmethod
    def from_json(data: Any) -> Quest:
        """Build and validate a quest from our JSON format; raises QuestError naming the bad field."""
        return _from_json(data)


def _lit_json(lit: Lit) -> dict[str, str]:
    return {"es": lit.es, "en": lit.en}


# ---------------------------------------------------------------- object table


@dataclass(frozen=True)
class ObjectInfo:
    """What a HeroScribe object id means to us (data/heroquest/objects.json)."""

    hs_id: str
    name: str
    kind: str | None
    ref: str
    width: int
    height: int


@cache
def object_table() -> dict[str, ObjectInfo]:
    """HeroScribe object id -> ObjectInfo; validated on first use."""
    data = json.loads(OBJECTS_FILE.read_text(encoding="utf-8"))
    out: dict[str, ObjectInfo] = {}
    for hs_id, entry in data["objects"].items():
        kind = entry["kind"]
        if kind is not None and kind not in KINDS:
            raise ValueError(f"{OBJECTS_FILE}: {hs_id} has unknown kind {kind!r}")
        if not (1 <= entry["width"] <= 8 and 1 <= entry["height"] <= 8):
            raise ValueError(f"{OBJECTS_FILE}: {hs_id} has a bad size")
        out[hs_id] = ObjectInfo(hs_id, entry["name"], kind, entry["ref"], entry["width"], entry["height"])
    return out


@cache
def monster_refs() -> frozenset[str]:
    """Every monster ref we know of (from the object table)."""
    return frozenset(info.ref for info in object_table().values() if info.kind == "monster")


# ---------------------------------------------------------------- validation


def problems(quest: Quest) -> list[Msg]:
    """Everything wrong with a quest's geometry and references (empty when it is playable)."""
    out: list[Msg] = []
    seen: set[str] = set()
    occupied: dict[Square, str] = {}
    kinds: dict[str, str] = {}
    for o in quest.objects:
        where = where_uid(o.uid)
        if o.uid in seen:
            out.append(msg("hq.q.error.duplicate_uid", where=where, uid=o.uid))
        seen.add(o.uid)
        if o.kind not in KINDS:
            out.append(msg("hq.q.error.bad_kind", where=where, kind=o.kind))
            continue
        if not o.squares or not all(board.in_board(s) for s in o.squares):
            out.append(msg("hq.q.error.off_board", where=where, id=o.ref))
            continue
        if o.rotation not in ROTATIONS:
            out.append(msg("hq.q.error.rotation", where=where, value=o.rotation))
        if o.kind in EDGE_KINDS:
            if o.between is None or not board.door_slot(*o.between):
                out.append(msg("hq.q.error.not_on_wall", where=where, id=o.ref))
            continue
        if o.kind in SOLID_KINDS and not _one_area(o.squares):
            out.append(msg("hq.q.error.walled_object", where=where, id=o.ref))
        if o.kind != "marker" and any(s in quest.dark for s in o.squares):
            s = next(s for s in o.squares if s in quest.dark)
            out.append(msg("hq.q.error.in_dark", where=where, row=s[0], col=s[1]))
        # figures, furniture, rocks and stairs exclude each other; traps and marks may share a square
        if o.kind in ("monster", "blocked", "hero_start", "furniture", "stairs"):
            for s in o.squares:
                other = occupied.get(s)
                if other is not None and not {o.kind, kinds[other]} <= {"hero_start", "stairs"}:
                    out.append(msg("hq.q.error.overlap", where=where, other=other, row=s[0], col=s[1]))
                occupied[s] = o.uid
                kinds[o.uid] = o.kind
    if not quest.start:
        out.append(msg("hq.q.error.no_start", where=where_field("start")))
    for s in quest.start:
        if not board.in_board(s) or s in quest.dark:
            out.append(msg("hq.q.error.bad_start", where=where_field("start"), row=s[0], col=s[1]))
    if quest.wandering_monster and quest.wandering_monster not in monster_refs():
        out.append(
            msg("hq.q.error.unknown_monster", where=where_field("wandering_monster"), ref=quest.wandering_monster)
        )
    for key, note in quest.notes.items():
        if not note.es.strip() or not note.en.strip():
            out.append(msg("hq.q.error.empty_text", where=where_field(f"notes.{key}")))
    if not quest.name.es.strip() or not quest.name.en.strip():
        out.append(msg("hq.q.error.no_name", where=where_field("name")))
    return out


def _one_area(squares: tuple[Square, ...]) -> bool:
    """All squares connected to each other without crossing a wall."""
    todo = [squares[0]]
    reached = {squares[0]}
    wanted = set(squares)
    while todo:
        sq = todo.pop()
        for n in board.neighbours(sq):
            if n in wanted and n not in reached:
                reached.add(n)
                todo.append(n)
    return reached == wanted


def check(quest: Quest) -> Quest:
    """Return `quest` when it is playable; raise QuestError listing every problem otherwise."""
    found = problems(quest)
    if found:
        raise QuestError(found[0], found)
    return quest


# ---------------------------------------------------------------- our JSON format


def _bad(field_name: str, detail: str) -> QuestError:
    return QuestError(msg("hq.q.error.field", where=where_field(field_name), detail=detail))


def _square(value: Any, field_name: str) -> Square:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _bad(field_name, "[row, col]")
    sq = (value[0], value[1])
    if not board.in_board(sq):
        raise QuestError(msg("hq.q.error.square_off_board", where=where_field(field_name), row=sq[0], col=sq[1]))
    return sq


def _lit(value: Any, field_name: str, required: bool = True) -> Lit:
    if value is None and not required:
        return Lit("", "")
    if not isinstance(value, Mapping) or not all(isinstance(value.get(k), str) for k in ("es", "en")):
        raise _bad(field_name, '{"es": "...", "en": "..."}')
    return Lit(value["es"], value["en"])


def _dark(value: Any) -> frozenset[Square]:
    """Dark squares: a list of [row, col], {"room": id} or {"rect": [row, col, height, width]} items."""
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise _bad("dark", "a list")
    out: set[Square] = set()
    for i, item in enumerate(value):
        name = f"dark[{i}]"
        if isinstance(item, list):
            out.add(_square(item, name))
        elif isinstance(item, Mapping) and "room" in item:
            try:
                out |= board.room_squares(int(item["room"]))
            except (KeyError, TypeError, ValueError):
                raise _bad(name, "room 1..22") from None
        elif isinstance(item, Mapping) and "rect" in item:
            rect = item["rect"]
            if not (isinstance(rect, list) and len(rect) == 4 and all(isinstance(v, int) for v in rect)):
                raise _bad(name, "rect [row, col, height, width]")
            r0, c0, h, w = rect
            for r in range(r0, r0 + h):
                for c in range(c0, c0 + w):
                    out.add(_square([r, c], name))
        else:
            raise _bad(name, "[row, col], {room} or {rect}")
    return frozenset(out)


def _placed(item: Any, index: int) -> Placed:
    name = f"objects[{index}]"
    if not isinstance(item, Mapping):
        raise _bad(name, "an object")
    uid = item.get("uid")
    if not isinstance(uid, str) or not _UID.match(uid):
        raise _bad(f"{name}.uid", "lower-case letters, digits, _ or -")
    kind, ref = item.get("kind"), item.get("ref")
    if kind not in KINDS:
        raise QuestError(msg("hq.q.error.bad_kind", where=where_uid(uid), kind=str(kind)))
    if not isinstance(ref, str) or not _UID.match(ref):
        raise _bad(f"{name}.ref", "lower_snake id")
    rotation = item.get("rotation", "downward")
    if rotation not in ROTATIONS:
        raise QuestError(msg("hq.q.error.rotation", where=where_uid(uid), value=str(rotation)))
    between = None
    if item.get("between") is not None:
        pair = item["between"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise _bad(f"{name}.between", "[[row, col], [row, col]]")
        between = (_square(pair[0], f"{name}.between"), _square(pair[1], f"{name}.between"))
    raw_squares = item.get("squares")
    if raw_squares is None and between is not None:
        squares: tuple[Square, ...] = between
    else:
        if not isinstance(raw_squares, list) or not raw_squares:
            raise _bad(f"{name}.squares", "a non-empty list of [row, col]")
        squares = tuple(_square(s, f"{name}.squares") for s in raw_squares)
    if kind in EDGE_KINDS and between is None:
        if len(squares) != 2:
            raise QuestError(msg("hq.q.error.not_on_wall", where=where_uid(uid), id=ref))
        between = (squares[0], squares[1])
    note = item.get("note")
    if note is not None and not isinstance(note, str):
        raise _bad(f"{name}.note", "a note key")
    return Placed(uid, kind, ref, squares, rotation, between, note)


def _from_json(data: Any) -> Quest:
    if not isinstance(data, Mapping):
        raise _bad("(root)", "an object")
    if data.get("format") != FORMAT:
        raise _bad("format", FORMAT)
    if data.get("version") != FORMAT_VERSION:
        raise QuestError(msg("hq.q.error.version", where=where_field("version"), version=str(data.get("version"))))
    quest_id = data.get("id")
    if not isinstance(quest_id, str) or not _UID.match(quest_id):
        raise _bad("id", "lower_snake id")
    if "name" not in data:
        raise QuestError(msg("hq.q.error.no_name", where=where_field("name")))
    name = _lit(data["name"], "name")
    speech = _lit(data.get("speech"), "speech", required=False)
    raw_notes = data.get("notes", {})
    if not isinstance(raw_notes, Mapping):
        raise _bad("notes", "an object of {key: {es, en}}")
    notes = {str(k): _lit(v, f"notes.{k}") for k, v in raw_notes.items()}
    wandering = data.get("wandering_monster", "")
    if not isinstance(wandering, str):
        raise _bad("wandering_monster", "a monster id")
    raw_objects = data.get("objects")
    if not isinstance(raw_objects, list):
        raise _bad("objects", "a list")
    objects = tuple(_placed(item, i) for i, item in enumerate(raw_objects))
    raw_start = data.get("start")
    if raw_start is None:
        start = default_start(objects)
    elif isinstance(raw_start, list):
        start = tuple(_square(s, "start") for s in raw_start)
    else:
        raise _bad("start", "a list of [row, col]")
    quest = Quest(quest_id, name, speech, notes, wandering, _dark(data.get("dark")), objects, start)
    return check(quest)


def default_start(objects: tuple[Placed, ...]) -> tuple[Square, ...]:
    """Heroes' marks in the usual order when the map has them, else the stairway's squares."""
    heroes = sorted(
        (o for o in objects if o.kind == "hero_start"),
        key=lambda o: (HERO_ORDER.index(o.ref) if o.ref in HERO_ORDER else len(HERO_ORDER), o.uid),
    )
    if heroes:
        return tuple(o.squares[0] for o in heroes)
    for o in objects:
        if o.kind == "stairs":
            return tuple(sorted(o.squares))
    return ()


# ---------------------------------------------------------------- loading


def load_quest(text: str | bytes, filename: str = "") -> Quest:
    """Parse a quest file: HeroScribe XML (starts with '<') or our JSON (starts with '{').

    Raises QuestError (and nothing else) for anything broken or unsupported.
    """
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise QuestError(msg("hq.q.error.too_big", size=len(text), limit=MAX_BYTES))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise QuestError(msg("hq.q.error.encoding")) from None
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise QuestError(msg("hq.q.error.too_big", size=len(text.encode("utf-8", "surrogatepass")), limit=MAX_BYTES))
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("<"):
        from rules.heroquest.heroscribe import parse_heroscribe

        return parse_heroscribe(body, filename)
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, RecursionError) as exc:
            detail = f"line {exc.lineno}: {exc.msg}" if isinstance(exc, json.JSONDecodeError) else "too deep"
            raise QuestError(msg("hq.q.error.json", detail=detail)) from None
        return Quest.from_json(data)
    raise QuestError(msg("hq.q.error.unknown_format"))


@cache
def builtin_quests() -> dict[str, Quest]:
    """Our own quests from data/heroquest/quests/*.json, by id (in file-name order)."""
    out: dict[str, Quest] = {}
    for path in sorted(QUEST_DIR.glob("*.json")):
        quest = load_quest(path.read_text(encoding="utf-8"), path.name)
        if quest.id in out:
            raise ValueError(f"{path}: quest id {quest.id!r} defined twice")
        out[quest.id] = quest
    return out
