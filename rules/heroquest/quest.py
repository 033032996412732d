"""HeroQuest quests as immutable values: placed objects, our JSON format, validation and loading."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NotRequired, TypedDict

from rules import coords
from rules.base import RuleError
from rules.heroquest import board, catalog
from rules.heroquest.board import Square
from rules.readonly import freeze, loader
from rules.safe_text import clean_name, clean_text, only_invisible
from rules.text import Lit, Msg, MsgJson, msg

QUEST_DIR = Path(__file__).resolve().parents[2] / "data" / "heroquest" / "quests"
OBJECTS_FILE = Path(__file__).resolve().parents[2] / "data" / "heroquest" / "objects.json"
# Bounds on everything a quest keeps (data/heroquest/NOTES.md): over them a file is refused, so a stored
# set-up stays small whatever is uploaded.
#: Largest quest file we accept (HeroScribe or JSON), in bytes.
MAX_BYTES = 1_000_000
#: Characters in the quest's name, its parchment text, one note and all notes together; number of notes.
MAX_NAME = 120
MAX_SPEECH = 3_000
MAX_NOTE = 2_000
MAX_NOTES = 40
MAX_NOTES_TOTAL = 10_000
#: Objects on the map (after identical ones are merged) and `<dark>` rectangles in a HeroScribe file.
MAX_OBJECTS = 300
MAX_DARK_RECTS = 600
#: Problems listed for one file (the rest are counted).
MAX_PROBLEMS = 40
FORMAT = "heroquest-quest"
FORMAT_VERSION = 1

KINDS = frozenset(
    {"monster", "furniture", "trap", "door", "secret_door", "blocked", "stairs", "treasure", "marker", "hero_start"}
)
#: HeroScribe-only kinds in objects.json: the heroes' entrance and exit doors, and pictures with no effect.
IMPORT_KINDS = KINDS | {"entry", "exit", "decor"}
#: Furniture that figures may stand on.
WALKABLE_FURNITURE = frozenset({"trap_door"})
#: The stairs `ref` of an exit door (the heroes leave there; it is not where they start).
EXIT_REF = "door_out"
ROTATIONS = ("downward", "rightward", "upward", "leftward")
#: Kinds that sit on an edge between two squares (`Placed.between` is set).
EDGE_KINDS = frozenset({"door", "secret_door"})
#: Kinds whose footprint must stay inside one area without a wall through it.
SOLID_KINDS = frozenset({"monster", "furniture", "trap", "blocked", "stairs", "treasure", "hero_start"})
HERO_ORDER = ("barbarian", "dwarf", "elf", "wizard")
_UID = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,63}$")
#: JSON as read from a file or a stored set-up, not checked yet: its readers narrow it with isinstance.
RawJson = object


class PlacedJson(TypedDict):
    """`Placed` as stored: defaults left out (a door's `squares` are its `between`, "downward", no note)."""

    uid: str
    kind: str
    ref: str
    squares: NotRequired[list[list[int]]]
    between: NotRequired[list[list[int]]]
    rotation: NotRequired[str]
    note: NotRequired[str]


class QuestJson(TypedDict):
    """A quest in our JSON format (`Quest.to_json`); a note or the parchment text is one string when both
    languages say the same."""

    format: str
    version: int
    id: str
    name: dict[str, str]
    speech: str | dict[str, str]
    notes: dict[str, str | dict[str, str]]
    wandering_monster: str
    start: list[list[int]]
    dark: list[list[int]]
    objects: list[PlacedJson]


class QuestSummary(TypedDict):
    """What a quest holds, counted (`Quest.summary`): for the quest checker and tests."""

    doors: int
    secret_doors: int
    monsters: dict[str, int]
    furniture: int
    traps: int
    blocked: int


class SetupJson(TypedDict):
    """The set-up an uploaded quest gives a new game (`Imported.setup`): warnings are `rules.text.Msg` JSON."""

    quest: QuestJson
    title: dict[str, str]
    warnings: list[MsgJson]


class QuestError(RuleError):
    """A quest file that cannot be used; `reason` names the first problem, `problems` lists all found."""

    code = "quest"

    def __init__(self, reason: Msg, problems: list[Msg] | None = None) -> None:
        super().__init__(reason)
        self.problems = problems or [reason]

    def summary(self, shown: int = 4) -> Msg:
        """One message naming the first `shown` problems and how many more there are."""
        if len(self.problems) == 1:
            return self.problems[0]
        rest: Msg | str = ""
        if len(self.problems) > shown:
            rest = msg("hq.imp.error.more", count=len(self.problems) - shown)
        for problem in reversed(self.problems[1:shown]):
            rest = msg("hq.imp.error.next", problem=problem, rest=rest)
        return msg("hq.imp.error.several", count=len(self.problems), first=self.problems[0], rest=rest)


class Problems:
    """Errors (the quest is refused) and warnings (the game master is told) found while reading a quest."""

    def __init__(self) -> None:
        self.errors: list[Msg] = []
        self.warnings: list[Msg] = []
        self.more_errors = 0
        self.more_warnings = 0

    def error(self, problem: Msg) -> None:
        if len(self.errors) < MAX_PROBLEMS:
            self.errors.append(problem)
        else:
            self.more_errors += 1

    def warn(self, problem: Msg) -> None:
        if len(self.warnings) < MAX_PROBLEMS:
            self.warnings.append(problem)
        else:
            self.more_warnings += 1

    def warn_lazily(self, make: Callable[[], Msg]) -> None:
        """`warn(make())`, without building the message once the list is full (hostile files repeat things)."""
        if len(self.warnings) < MAX_PROBLEMS:
            self.warnings.append(make())
        else:
            self.more_warnings += 1

    def all_errors(self) -> list[Msg]:
        extra = [msg("hq.imp.error.more", count=self.more_errors)] if self.more_errors else []
        return self.errors + extra

    def all_warnings(self) -> list[Msg]:
        extra = [msg("hq.imp.warn.more", count=self.more_warnings)] if self.more_warnings else []
        return self.warnings + extra

    def raise_errors(self) -> None:
        if self.errors:
            found = self.all_errors()
            raise QuestError(found[0], found)


def square_label(sq: Square) -> str:
    """A square as the board's edges and every command name it ("H11", `rules.coords`); a square left or
    above the board, which has no such name, as its 0-based [row, col]."""
    if sq[0] < 0 or sq[1] < 0:
        return f"[{sq[0]}, {sq[1]}]"
    return coords.name(sq[0], sq[1])


def square_params(sq: Square) -> dict[str, str]:
    """A square as a message parameter `sq`."""
    return {"sq": square_label(sq)}


def where_line(line: int) -> Msg:
    return msg("hq.q.where.line", line=line)


def where_square(line: int, sq: Square) -> Msg:
    return msg("hq.imp.where.square", line=line, **square_params(sq))


def where_uid(uid: str) -> Msg:
    return msg("hq.q.where.object", uid=uid)


def where_object(o: Placed) -> Msg:
    """An object in messages: its uid and its first square."""
    if not o.squares or not board.in_board(o.squares[0]):
        return where_uid(o.uid)
    return msg("hq.imp.where.object", uid=o.uid, **square_params(o.squares[0]))


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

    def to_json(self) -> PlacedJson:
        out: PlacedJson = {"uid": self.uid, "kind": self.kind, "ref": self.ref}
        # defaults are left out (a door's squares are its `between`) to keep stored set-ups small
        if self.between and self.squares == self.between:
            out["between"] = [list(s) for s in self.between]
        else:
            out["squares"] = [list(s) for s in self.squares]
            if self.between:
                out["between"] = [list(s) for s in self.between]
        if self.rotation != "downward":
            out["rotation"] = self.rotation
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

    def summary(self) -> QuestSummary:
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

    def to_json(self) -> QuestJson:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "id": self.id,
            "name": _lit_json(self.name),
            "speech": _text_json(self.speech),
            "notes": {k: _text_json(v) for k, v in self.notes.items()},
            "wandering_monster": self.wandering_monster,
            "start": [list(s) for s in self.start],
            "dark": [list(s) for s in sorted(self.dark)],
            "objects": [o.to_json() for o in self.objects],
        }

    @staticmethod
    def from_json(data: RawJson) -> Quest:
        """Build and validate a quest from our JSON format; raises QuestError naming the bad field."""
        return _from_json(data)


def _lit_json(lit: Lit) -> dict[str, str]:
    return {"es": lit.es, "en": lit.en}


def _text_json(lit: Lit) -> str | dict[str, str]:
    """A note or parchment text: one string when both languages say the same (imported quests), to store it once."""
    return lit.en if lit.es == lit.en else _lit_json(lit)


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
    #: The provisional ruling the game master is shown when a quest uses this object (hq.imp.rule.<ruling>).
    ruling: str | None = None


@loader()
def object_table() -> Mapping[str, ObjectInfo]:
    """HeroScribe object id -> ObjectInfo; validated on first use."""
    data = json.loads(OBJECTS_FILE.read_text(encoding="utf-8"))
    out: dict[str, ObjectInfo] = {}
    for hs_id, entry in data["objects"].items():
        kind = entry["kind"]
        if kind is not None and kind not in IMPORT_KINDS:
            raise ValueError(f"{OBJECTS_FILE}: {hs_id} has unknown kind {kind!r}")
        if not (1 <= entry["width"] <= 8 and 1 <= entry["height"] <= 8):
            raise ValueError(f"{OBJECTS_FILE}: {hs_id} has a bad size")
        out[hs_id] = ObjectInfo(hs_id, entry["name"], kind, entry["ref"], entry["width"], entry["height"],
                                entry.get("ruling"))
    return out


@dataclass(frozen=True)
class Imported:
    """An uploaded quest and what the game master should know about it (objects left out, guesses made)."""

    quest: Quest
    warnings: tuple[Msg, ...] = ()

    def setup(self) -> SetupJson:
        """The JSON set-up a game starts from: the quest, its title (shown in the lobby) and its warnings."""
        return {"quest": self.quest.to_json(), "title": _lit_json(self.quest.name),
                "warnings": [w.to_json() for w in self.warnings]}


@loader()
def monster_refs() -> frozenset[str]:
    """Every monster ref we know of (from the object table)."""
    return frozenset(info.ref for info in object_table().values() if info.kind == "monster")


# ---------------------------------------------------------------- validation


def review(quest: Quest, names: Mapping[str, tuple[str, int]] | None = None) -> Problems:
    """Everything wrong with a quest: errors make it unplayable, warnings are for the game master.

    `names` maps an object's uid to what the quest file calls it and its line (a HeroScribe import): messages
    then name the file's object ("'Tomb' at line 73, square M6"), never the uid we made up for it."""
    found = Problems()
    seen: set[str] = set()
    figures: dict[Square, str] = {}
    solids: dict[Square, tuple[str, str, bool]] = {}
    known_monsters = catalog.monsters()
    if len(quest.objects) > MAX_OBJECTS:
        found.error(msg("hq.imp.error.limit", what=msg("hq.imp.what.objects"), count=len(quest.objects),
                        limit=MAX_OBJECTS))
        return found
    names = names or {}
    for o in quest.objects:
        where = _where(o, names)
        if o.uid in seen:
            found.error(msg("hq.q.error.duplicate_uid", where=where, uid=o.uid))
        seen.add(o.uid)
        if o.kind not in KINDS:
            found.error(msg("hq.q.error.bad_kind", where=where, kind=o.kind))
            continue
        if not o.squares or not all(board.in_board(s) for s in o.squares):
            found.error(msg("hq.q.error.off_board", where=where, id=o.ref))
            continue
        if o.rotation not in ROTATIONS:
            found.error(msg("hq.q.error.rotation", where=where, value=o.rotation))
        if o.kind in EDGE_KINDS:
            if o.between is None or not board.door_slot(*o.between):
                found.error(msg("hq.q.error.not_on_wall", where=where, id=o.ref))
            continue
        if o.kind == "monster":
            _check_monster(quest, o, known_monsters, figures, solids, found, names)
            continue
        if o.kind in SOLID_KINDS and not _one_area(o.squares):
            found.warn(msg("hq.imp.warn.walled", where=where))
        dark = next((s for s in o.squares if s in quest.dark), None)
        if dark is not None and o.kind != "marker":
            found.warn(msg("hq.imp.warn.in_dark", where=_where(o, names, dark)))
        if o.kind in ("blocked", "furniture", "stairs", "hero_start"):
            for s in o.squares:
                other = solids.get(s)
                if other is not None and not {o.kind, other[1]} <= {"hero_start", "stairs"}:
                    found.warn(_taken("hq.imp.warn.overlap", where, other[0], names, s))
                if s in figures and o.kind != "hero_start" and not _walkable(o):
                    figure = figures[s]
                    where_figure = (msg("hq.imp.where.piece_line", id=names[figure][0], line=names[figure][1])
                                    if figure in names else where_uid(figure))
                    found.error(_taken("hq.imp.error.figure_on", where_figure, o.uid, names, s))
                if other is None or o.kind != "hero_start":
                    solids[s] = (o.uid, o.kind, _walkable(o))
    if not quest.start:
        found.error(msg("hq.q.error.no_start"))
    for s in quest.start:
        if not board.in_board(s) or s in quest.dark:
            found.error(msg("hq.q.error.bad_start", where=where_field("start"), **square_params(s)))
    if quest.wandering_monster and quest.wandering_monster not in known_monsters:
        found.error(
            msg("hq.q.error.unknown_monster", where=where_field("wandering_monster"), ref=quest.wandering_monster)
        )
    _check_texts(quest, found)
    return found


def _walkable(o: Placed) -> bool:
    """Figures may stand on traps, marks, stairs and walkable furniture (a trap door)."""
    return o.kind in ("stairs", "hero_start", "trap", "marker") or (
        o.kind == "furniture" and o.ref in WALKABLE_FURNITURE)


def _where(o: Placed, names: Mapping[str, tuple[str, int]], sq: Square | None = None) -> Msg:
    """An object in messages: the file's name for it and its line when it was imported, else its uid."""
    named = names.get(o.uid)
    square = sq if sq is not None else (o.squares[0] if o.squares else None)
    if named is None:
        if sq is not None:
            return msg("hq.imp.where.object", uid=o.uid, **square_params(sq))
        return where_object(o)
    if square is None or not board.in_board(square):
        return msg("hq.imp.where.piece_line", id=named[0], line=named[1])
    return msg("hq.imp.where.piece", id=named[0], line=named[1], **square_params(square))


def _taken(key: str, where: Msg, other: str, names: Mapping[str, tuple[str, int]], sq: Square) -> Msg:
    """`key` ("{where} ... already taken by '{other}'"), or its imported twin naming the other object's line."""
    named = names.get(other)
    if named is None:
        return msg(key, where=where, other=other, **square_params(sq))
    return msg(f"{key}_piece", where=where, other=named[0], other_line=named[1], **square_params(sq))


def _check_monster(quest: Quest, o: Placed, known: Mapping[str, object], figures: dict[Square, str],
                   solids: dict[Square, tuple[str, str, bool]], found: Problems,
                   names: Mapping[str, tuple[str, int]]) -> None:
    """A monster needs stats and a free square that is part of the quest (the engine relies on both)."""
    where = _where(o, names)
    if o.ref not in known:
        found.error(msg("hq.imp.error.unknown_monster", where=where, ref=o.ref))
    for s in o.squares:
        taken = figures.get(s)
        solid = solids.get(s)
        if s in quest.dark:
            found.error(msg("hq.imp.error.monster_in_dark", where=where, **square_params(s)))
        elif taken is not None:
            found.error(_taken("hq.imp.error.figure_on", where, taken, names, s))
        elif solid is not None and not solid[2]:
            found.error(_taken("hq.imp.error.figure_on", where, solid[0], names, s))
        figures[s] = o.uid


def _check_texts(quest: Quest, found: Problems) -> None:
    if not quest.name.es.strip() or not quest.name.en.strip():
        found.error(msg("hq.q.error.no_name", where=where_field("name")))
    texts = [("name", quest.name, MAX_NAME), ("speech", quest.speech, MAX_SPEECH)]
    texts += [(f"notes.{key}", note, MAX_NOTE) for key, note in quest.notes.items()]
    for name, text, limit in texts:
        longest = max(len(text.es), len(text.en))
        if longest > limit:
            found.error(msg("hq.imp.error.text_limit", where=where_field(name), count=longest, limit=limit))
    for key, note in quest.notes.items():
        if not note.es.strip() or not note.en.strip():
            found.error(msg("hq.q.error.empty_text", where=where_field(f"notes.{key}")))
    if len(quest.notes) > MAX_NOTES:
        found.error(msg("hq.imp.error.limit", what=msg("hq.imp.what.notes"), count=len(quest.notes), limit=MAX_NOTES))
    total = max(sum(len(n.es) for n in quest.notes.values()), sum(len(n.en) for n in quest.notes.values()))
    if total > MAX_NOTES_TOTAL:
        found.error(msg("hq.imp.error.limit", what=msg("hq.imp.what.notes_chars"), count=total,
                        limit=MAX_NOTES_TOTAL))


def problems(quest: Quest) -> list[Msg]:
    """Everything that makes a quest unplayable (empty when it can be played)."""
    return review(quest).all_errors()


def warnings(quest: Quest) -> list[Msg]:
    """What the game master should know about a playable quest (objects in the dark, overlaps...)."""
    return review(quest).all_warnings()


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
    review(quest).raise_errors()
    return quest


# ---------------------------------------------------------------- our JSON format


def _bad(field_name: str, detail: str) -> QuestError:
    return QuestError(msg("hq.q.error.field", where=where_field(field_name), detail=detail))


def _square(value: object, field_name: str) -> Square:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _bad(field_name, "[row, col]")
    sq = (value[0], value[1])
    if not board.in_board(sq):
        raise QuestError(msg("hq.q.error.square_off_board", where=where_field(field_name), raw=f"[{sq[0]}, {sq[1]}]",
                             **square_params(sq)))
    return sq


def _lit(value: object, field_name: str, required: bool = True, plain: bool = False) -> Lit:
    if value is None and not required:
        return Lit("", "")
    if plain and isinstance(value, str):
        return Lit(value, value)
    if not isinstance(value, Mapping) or not all(isinstance(value.get(k), str) for k in ("es", "en")):
        raise _bad(field_name, '{"es": "...", "en": "..."}')
    return Lit(value["es"], value["en"])


def _dark(value: object) -> frozenset[Square]:
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


def _placed(item: object, index: int) -> Placed:
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


def _from_json(data: object) -> Quest:
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
    if only_invisible(name.es) or only_invisible(name.en):
        raise QuestError(msg("hq.q.error.name_invisible", where=where_field("name")))
    name = Lit(clean_name(name.es, len(name.es)), clean_name(name.en, len(name.en)))
    speech = _lit(data.get("speech"), "speech", required=False, plain=True)
    speech = Lit(clean_text(speech.es, len(speech.es)), clean_text(speech.en, len(speech.en)))
    raw_notes = data.get("notes", {})
    if not isinstance(raw_notes, Mapping):
        raise _bad("notes", "an object of {key: {es, en}}")
    if len(raw_notes) > MAX_NOTES:
        raise QuestError(msg("hq.imp.error.limit", what=msg("hq.imp.what.notes"), count=len(raw_notes),
                             limit=MAX_NOTES))
    notes = {str(k): _lit(v, f"notes.{k}", plain=True) for k, v in raw_notes.items()}
    notes = {k: Lit(clean_text(v.es, len(v.es)), clean_text(v.en, len(v.en))) for k, v in notes.items()}
    wandering = data.get("wandering_monster", "")
    if not isinstance(wandering, str):
        raise _bad("wandering_monster", "a monster id")
    raw_objects = data.get("objects")
    if not isinstance(raw_objects, list):
        raise _bad("objects", "a list")
    if len(raw_objects) > MAX_OBJECTS:
        raise QuestError(msg("hq.imp.error.limit", what=msg("hq.imp.what.objects"), count=len(raw_objects),
                             limit=MAX_OBJECTS))
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
    """Heroes' marks in the usual order when the map has them, else the stairway's squares (not an exit's)."""
    heroes = sorted(
        (o for o in objects if o.kind == "hero_start"),
        key=lambda o: (HERO_ORDER.index(o.ref) if o.ref in HERO_ORDER else len(HERO_ORDER), o.uid),
    )
    if heroes:
        return tuple(o.squares[0] for o in heroes)
    for o in objects:
        if o.kind == "stairs" and o.ref != EXIT_REF:
            return tuple(sorted(o.squares))
    return ()


# ---------------------------------------------------------------- loading


def quest_from_json_text(text: str) -> Quest:
    """Our JSON format from text; QuestError for malformed JSON or an unplayable quest."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        detail = f"line {exc.lineno}: {exc.msg}" if isinstance(exc, json.JSONDecodeError) else "too deep"
        raise QuestError(msg("hq.q.error.json", detail=detail)) from None
    return Quest.from_json(data)


@loader()
def builtin_quests() -> Mapping[str, Quest]:
    """Our own quests from data/heroquest/quests/*.json, by id (in file-name order)."""
    out: dict[str, Quest] = {}
    for path in sorted(QUEST_DIR.glob("*.json")):
        quest = quest_from_json_text(path.read_text(encoding="utf-8"))
        if quest.id in out:
            raise ValueError(f"{path}: quest id {quest.id!r} defined twice")
        out[quest.id] = replace(quest, notes=freeze(quest.notes))  # shared by every game: read-only
    return out
