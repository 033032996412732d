"""Import of HeroScribe quest files (quest DTD 1.4, file version 1.0, one 26x19 board) into `Quest`.

Geometry, checked against the 15 European base quests and the printed walls:
- `left`/`top` are 1-based column/row of the object's top-left square; fractional values (HeroScribe
  nudges letters and numbers for looks) are rounded to the nearest square, halves down.
- An object's footprint is width x height from Objects.xml for "downward"/"upward" and height x width
  for "rightward"/"leftward".
- A door (1x2 object) separates the two squares of its footprint: (top, left) and the one below it
  when downward/upward, the one to its right when rightward/leftward.
- A secret door (1x1) stands on a square and its wall is behind the direction it faces: "downward"
  is the wall above the square, "upward" below, "rightward" to its left, "leftward" to its right.
- Door In / Door Out (Kellar's Keep, Return of the Witch Lord) stand on the board's edge: one square of
  the footprint is on the board (where the heroes come in, or leave), the other outside it.
- `<dark>` rectangles are the map's shaded squares: not part of this quest.
- Notes keyed by a letter ("A  text" in European files, "A. text" in American ones, also "A: ", "A) ",
  "(A) ", "A - ") explain the letter marks; "Wandering Monster in this Quest: Orc" names the wandering
  monster; other notes are keyed "note1", "note2"...

The parser is expat with entity declarations refused and no external entities loaded; it streams the
file and keeps only what the limits in `rules.heroquest.quest` allow, so any input of at most `MAX_BYTES`
is read in one linear pass. Problems that make a quest unplayable are errors (all reported together);
the rest are warnings for the game master, and whatever cannot be placed is left out.
"""

from __future__ import annotations

import difflib
import math
import re
from collections import deque
from dataclasses import dataclass, field, replace
from typing import NoReturn
from xml.parsers import expat

from rules.heroquest import board, catalog
from rules.heroquest.board import Square
from rules.heroquest.quest import (
    EXIT_REF,
    MAX_DARK_RECTS,
    MAX_NAME,
    MAX_NOTE,
    MAX_NOTES,
    MAX_NOTES_TOTAL,
    MAX_OBJECTS,
    MAX_SPEECH,
    ROTATIONS,
    WALKABLE_FURNITURE,
    Imported,
    ObjectInfo,
    Placed,
    Problems,
    Quest,
    QuestError,
    default_start,
    object_table,
    review,
    square_label,
    where_line,
    where_square,
)
from rules.safe_text import clean_name, clean_text, only_invisible
from rules.text import Lit, Msg, msg

SUPPORTED_VERSIONS = ("1.0",)
#: `<object>` elements read before the file is refused (identical ones are merged, then `MAX_OBJECTS` applies).
MAX_OBJECT_ELEMENTS = 4 * MAX_OBJECTS
#: Room tiles where a quest without a stairway, Door In or hero marks begins: The Frozen Horror's Ice Cave
#: Entrance and Against the Ogre Horde's Surface (provisional) -> the name the game master is told.
START_TILES = {"IceCaveEntrance": "hq.imp.place.ice_cave_entrance", "Surface": "hq.imp.place.surface"}
#: Squares (and lines) named in one ruling warning; the count says how many there are in all.
RULING_LIST = 10
#: The "ruling" of a picture with no effect (Stairs, Short and Long Stairway): left out, said once per kind.
PICTURE = ""
#: How many heroes start next to an entrance door (the most a quest has).
START_SQUARES = 4
_WANDERING = re.compile(
    r"^(?:wandering monsters?|monstruos? errantes?)\s*(?:in this quest|en este reto)?\s*[:\-]\s*(.+)$", re.I | re.S
)
_LETTER = re.compile(
    r"^(?:[Nn]ote[ \t]+)?[(\[]?(?P<key>[A-Z])(?P<close>[)\]])?"
    r"(?:[ \t]*(?P<punct>[.:;\-\u2013\u2014]))?(?P<space>\s*)(?P<rest>\S.*)$",
    re.S,
)
#: Elements some HeroScribe versions write under <quest> that say nothing about the map (object kinds).
_METADATA = frozenset({"kind"})
_WORD = re.compile(r"[^\W\d_]+(?:[’'][^\W\d_]+)?")


class _Stop(Exception):
    """Reading stops: the file broke a limit (already recorded as an error)."""


class _Refused(Exception):
    """An entity declaration (the billion-laughs family) was found."""


@dataclass
class _Text:
    """Character data of one `<speech>` or `<note>`, kept up to one past its limit."""

    tag: str
    line: int
    limit: int
    parts: list[str] = field(default_factory=list)
    kept: int = 0
    size: int = 0

    def add(self, data: str) -> None:
        self.size += len(data)
        room = self.limit + 1 - self.kept
        if room > 0:
            self.parts.append(data[:room])
            self.kept += min(room, len(data))

    def value(self) -> str:
        return clean_text("".join(self.parts), self.limit + 1)


@dataclass
class _Raw:
    """What the streaming reader keeps of a file: bounded lists of elements with their line numbers."""

    root: dict[str, str] | None = None
    root_line: int = 1
    boards: int = 0
    bridges: int = 0
    darks: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    objects: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    speech: _Text | None = None
    notes: list[_Text] = field(default_factory=list)


class _Reader:
    """One expat pass over the file, keeping `_Raw` and recording structural errors."""

    def __init__(self, found: Problems) -> None:
        self.found = found
        self.raw = _Raw()
        self.stack: list[str] = []
        self.text: _Text | None = None
        #: Depth of the unknown element being skipped (its content is skipped with it), or 0.
        self.skipping = 0
        self.elements = {"dark": 0, "object": 0}
        parser = expat.ParserCreate()
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.buffer_text = True
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.chars
        parser.EntityDeclHandler = self.refuse
        parser.UnparsedEntityDeclHandler = self.refuse
        parser.ExternalEntityRefHandler = self.refuse
        self.parser = parser

    @staticmethod
    def refuse(*_args: object) -> NoReturn:
        raise _Refused

    def read(self, text: str) -> _Raw:
        try:
            self.parser.Parse(text, True)
        except _Stop:
            pass
        except _Refused:
            self.found.error(msg("hq.q.error.entities", where=where_line(self.parser.CurrentLineNumber)))
        except expat.ExpatError as exc:
            detail = expat.ErrorString(exc.code) if exc.code else str(exc)
            self.found.error(msg("hq.q.error.xml", where=where_line(exc.lineno), detail=detail))
        if self.raw.root is None and not self.found.errors:
            self.found.error(msg("hq.q.error.xml", where=where_line(1), detail="no element"))
        return self.raw

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber
        parent = self.stack[-1] if self.stack else None
        self.stack.append(tag)
        raw = self.raw
        if self.skipping:
            return
        if self.text is not None:
            # markup inside a note or the parchment text (<b>, <br/>...): keep its words, a line break for <br>
            if tag == "br":
                self.text.add("\n")
            return
        if parent is None:
            if tag != "quest":
                self.found.error(msg("hq.q.error.root", where=where_line(line), tag=tag[:40]))
                raise _Stop
            raw.root, raw.root_line = attrs, line
        elif parent == "quest" and tag == "board":
            raw.boards += 1
        elif parent == "quest" and tag == "bridge":
            raw.bridges += 1
        elif parent == "quest" and tag in ("speech", "note"):
            self.text = _Text(tag, line, MAX_SPEECH if tag == "speech" else MAX_NOTE)
        elif parent == "board" and tag in ("dark", "object"):
            self.elements[tag] += 1
            limit = MAX_DARK_RECTS if tag == "dark" else MAX_OBJECT_ELEMENTS
            if self.elements[tag] > limit:
                what = "hq.imp.what.dark" if tag == "dark" else "hq.imp.what.object_elements"
                self.found.error(msg("hq.imp.error.limit_at", where=where_line(line), what=msg(what), limit=limit))
                raise _Stop
            if raw.boards == 1:
                (raw.darks if tag == "dark" else raw.objects).append((line, attrs))
        else:
            # newer HeroScribe versions add elements we do not use; nothing of the map is lost by skipping them
            self.skipping = len(self.stack)
            if not (parent == "quest" and tag in _METADATA):
                self.found.warn_lazily(lambda: msg("hq.imp.warn.element", where=where_line(line), element=tag[:40]))

    def end(self, tag: str) -> None:
        if self.skipping == len(self.stack):
            self.skipping = 0
        self.stack.pop()
        text = self.text
        if text is None or len(self.stack) != 1:
            return
        self.text = None
        if text.size > text.limit:
            what = "hq.imp.what.speech" if text.tag == "speech" else "hq.imp.what.note"
            self.found.error(msg("hq.imp.error.text_at", where=where_line(text.line), what=msg(what),
                                 count=text.size, limit=text.limit))
        if text.tag == "speech":
            self.raw.speech = text
            return
        self.raw.notes.append(text)
        if len(self.raw.notes) > MAX_NOTES:
            self.found.error(msg("hq.imp.error.limit_at", where=where_line(text.line), what=msg("hq.imp.what.notes"),
                                 limit=MAX_NOTES))
            raise _Stop

    def chars(self, data: str) -> None:
        if self.text is not None and not self.skipping:
            self.text.add(data)


# ---------------------------------------------------------------- geometry


def _square_index(value: float) -> int:
    """1-based HeroScribe coordinate -> 0-based index of the nearest square (halves round down)."""
    return math.ceil(value - 0.5) - 1


def footprint(width: int, height: int, left: float, top: float, rotation: str) -> tuple[Square, ...]:
    """Squares covered by an object of Objects.xml size `width` x `height` placed at `left`, `top`."""
    if rotation in ("rightward", "leftward"):
        width, height = height, width
    col0, row0 = _square_index(left), _square_index(top)
    return tuple((row0 + dr, col0 + dc) for dr in range(height) for dc in range(width))


_SECRET_WALL = {"downward": (-1, 0), "upward": (1, 0), "rightward": (0, -1), "leftward": (0, 1)}


def secret_door_between(square: Square, rotation: str) -> tuple[Square, Square]:
    """The two squares a HeroScribe secret door tile on `square` separates."""
    dr, dc = _SECRET_WALL[rotation]
    return square, (square[0] + dr, square[1] + dc)


def slug(name: str) -> str:
    """A quest id from its name: lower-case ascii letters and digits joined by underscores."""
    text = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return (text or "quest")[:64]


def _number(attrs: dict[str, str], name: str, element: str, line: int, found: Problems,
            integer: bool = False) -> float | None:
    raw = attrs.get(name)
    if raw is None:
        found.error(msg("hq.q.error.missing_attr", where=where_line(line), element=element, attr=name))
        return None
    try:
        value = int(raw) if integer else float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or abs(value) > 1000:
        found.error(msg("hq.q.error.bad_number", where=where_line(line), element=element, attr=name, value=raw[:20]))
        return None
    return value


# ---------------------------------------------------------------- the file as a quest


@dataclass
class _Piece:
    """One object of the map, placed: what it is, where, and the line it came from."""

    line: int
    info: ObjectInfo
    squares: tuple[Square, ...]
    rotation: str
    between: tuple[Square, Square] | None = None


def parse_heroscribe(text: str, filename: str = "") -> Imported:
    """A HeroScribe quest (XML text) and its warnings; QuestError listing every problem that refuses it."""
    found = Problems()
    raw = _Reader(found).read(text)
    root = raw.root
    if root is None:
        found.raise_errors()
        raise QuestError(msg("hq.q.error.xml", where=where_line(1), detail="no element"))
    name = _root(raw, root, found)
    dark = _dark(raw, found)
    pieces, entries, caves = _pieces(raw, found)
    letters = {p.info.ref.removeprefix("letter_").upper() for p in pieces
               if p.info.kind == "marker" and p.info.ref.startswith("letter_")}
    notes, wandering = _notes(raw, letters, found)
    found.raise_errors()
    placed, start, names = _place(pieces, entries, dark, found)
    if not start and caves:
        start = _cave_start(caves, placed, dark, found)
    speech = raw.speech.value() if raw.speech else ""
    quest = Quest(
        id=slug(name),
        name=Lit(name, name),
        speech=Lit(speech, speech),
        notes=notes,
        wandering_monster=wandering,
        dark=frozenset(dark),
        objects=tuple(placed),
        start=start,
    )
    checked = review(quest, names)
    for problem in checked.all_errors():
        found.error(problem)
    found.raise_errors()
    for warning in checked.all_warnings():
        found.warn(warning)
    return Imported(quest, tuple(found.all_warnings()))


def _root(raw: _Raw, root: dict[str, str], found: Problems) -> str:
    """The quest's name; errors for a wrong version, a missing or long name, or more than one board."""
    where = where_line(raw.root_line)
    version = root.get("version")
    if version not in SUPPORTED_VERSIONS:
        found.error(msg("hq.q.error.version", where=where, version=str(version)[:20]))
    written = root.get("name", "")
    name = clean_name(written, len(written))
    if only_invisible(written):
        found.error(msg("hq.q.error.name_invisible", where=where))
    elif not name:
        found.error(msg("hq.q.error.no_name", where=where))
    elif len(name) > MAX_NAME:
        found.error(msg("hq.imp.error.text_at", where=where, what=msg("hq.imp.what.name"), count=len(name),
                        limit=MAX_NAME))
    width = _number(root, "width", "quest", raw.root_line, found, integer=True) if "width" in root else 1
    height = _number(root, "height", "quest", raw.root_line, found, integer=True) if "height" in root else 1
    grid = int(width * height) if width and height and width > 0 and height > 0 else 1
    count = max(raw.boards, grid)
    if raw.bridges:
        found.error(msg("hq.imp.error.boards_bridges", where=where, count=count, bridges=raw.bridges))
    elif count != 1:
        found.error(msg("hq.q.error.boards", where=where, count=count))
    elif raw.boards == 0:
        found.error(msg("hq.q.error.boards", where=where, count=0))
    return name[:MAX_NAME]


def _dark(raw: _Raw, found: Problems) -> set[Square]:
    """The shaded squares; an error for a rectangle that is not inside the board."""
    rows = [0] * board.ROWS
    for line, attrs in raw.darks:
        values = [_number(attrs, key, "dark", line, found, integer=True) for key in ("left", "top", "width", "height")]
        numbers = [int(v) for v in values if v is not None]
        if len(numbers) < len(values):
            continue
        left, top, w, h = numbers
        corners = ((top - 1, left - 1), (top + h - 2, left + w - 2))
        outside = next((c for c in corners if not board.in_board(c)), None)
        if w < 1 or h < 1 or outside is not None:
            found.error(msg("hq.imp.error.off_board", where=where_square(line, outside or corners[0]), id="dark"))
            continue
        mask = ((1 << w) - 1) << (left - 1)
        for r in range(top - 1, top - 1 + h):
            rows[r] |= mask
    return {(r, c) for r in range(board.ROWS) for c in range(board.COLS) if rows[r] >> c & 1}


def _pieces(raw: _Raw, found: Problems) -> tuple[list[_Piece], list[_Piece], list[tuple[str, tuple[Square, ...]]]]:
    """Every object of the map placed on its squares (identical ones merged), the entrance doors, and the
    squares of each room tile a quest without stairway may begin in (START_TILES), with its name's key."""
    table = object_table()
    pieces: list[_Piece] = []
    entries: list[_Piece] = []
    caves: list[tuple[str, tuple[Square, ...]]] = []
    seen: set[tuple[str, tuple[Square, ...], str]] = set()
    #: every object played by a ruling, by its HeroScribe id in the order met: its rule and where each one is
    ruled: dict[str, tuple[str, list[tuple[int, Square]]]] = {}
    merged = 0
    for line, attrs in raw.objects:
        hs_id = attrs.get("id")
        if hs_id is None:
            found.error(msg("hq.q.error.missing_attr", where=where_line(line), element="object", attr="id"))
            continue
        rotation = attrs.get("rotation", "downward")
        if rotation not in ROTATIONS:
            found.error(msg("hq.q.error.rotation", where=where_line(line), value=rotation[:20]))
            continue
        left = _number(attrs, "left", "object", line, found)
        top = _number(attrs, "top", "object", line, found)
        if left is None or top is None:
            continue
        info = table.get(hs_id)
        corner = (_square_index(top), _square_index(left))
        if info is None:
            found.warn(msg("hq.imp.warn.unknown_object", where=where_square(line, corner), id=hs_id[:40]))
            continue
        if info.kind is None:
            found.error(msg("hq.q.error.unsupported_object", where=where_square(line, corner), id=hs_id))
            continue
        squares = footprint(info.width, info.height, left, top, rotation)
        if info.kind != "marker" and _between_squares(left, top):
            # HeroScribe draws it straddling two squares: the nearest one (halves down) is a guess worth saying
            found.warn(msg("hq.imp.warn.between_squares", where=where_square(line, corner), id=hs_id,
                           left=_coordinate(left), top=_coordinate(top)))
        if info.kind == "decor":
            if hs_id in START_TILES:
                caves.append((START_TILES[hs_id], squares))
            # a picture (Kellar's Keep's steps) is told like a ruling: once per kind, naming every one
            _rule(ruled, hs_id, info.ruling or PICTURE, line, squares)
            continue
        if info.kind == "marker" and not all(board.in_board(sq) for sq in squares):
            # a letter or number is only a label: one drawn off the board is left out, the quest still plays
            found.warn(msg("hq.imp.warn.mark_off_board", where=where_square(line, corner), id=hs_id))
            continue
        key = (hs_id, squares, rotation)
        if key in seen:
            merged += 1
            continue
        seen.add(key)
        if info.kind == "door" and sum(board.in_board(sq) for sq in squares) == 1:
            # a door on the board's outer edge (the packs' Double Arrow Door): where the heroes come in
            found.warn(msg("hq.imp.warn.edge_door", where=where_square(line, next(
                sq for sq in squares if board.in_board(sq))), id=hs_id))
            info = replace(info, kind="entry")
        piece = _fit(line, info, squares, rotation, found)
        if piece is None:
            continue
        if info.ruling is not None and info.kind != "entry":
            _rule(ruled, hs_id, info.ruling, line, squares)
        if info.kind == "entry":
            entries.append(piece)
        else:
            pieces.append(piece)
    for hs_id, (ruling, where) in ruled.items():
        found.warn(_ruling_message(hs_id, ruling, where))
    if merged:
        found.warn(msg("hq.imp.warn.merged", count=merged))
    if len(pieces) > MAX_OBJECTS:
        found.error(msg("hq.imp.error.limit", what=msg("hq.imp.what.objects"), count=len(pieces), limit=MAX_OBJECTS))
    return pieces, entries, caves


def _between_squares(left: float, top: float) -> bool:
    """Whether a position is drawn across two squares (a fraction from a quarter to three quarters): HeroScribe's
    small nudges of letters and numbers (0.05, 0.13...) are not."""
    return any(0.25 <= value - math.floor(value) <= 0.75 for value in (left, top))


def _coordinate(value: float) -> str:
    """A file coordinate as written in messages: "7.5", "12"."""
    return f"{value:g}"


def _rule(ruled: dict[str, tuple[str, list[tuple[int, Square]]]], hs_id: str, ruling: str, line: int,
          squares: tuple[Square, ...]) -> None:
    """Record one object played by `ruling`, at its first square on the board."""
    square = next((sq for sq in squares if board.in_board(sq)), squares[0])
    ruled.setdefault(hs_id, (ruling, []))[1].append((line, square))


def _ruling_message(hs_id: str, ruling: str, where: list[tuple[int, Square]]) -> Msg:
    """The game master's warning for every object of one kind played by a ruling (or left out as a mere
    picture): where each one is."""
    if ruling == PICTURE and len(where) == 1:
        return msg("hq.imp.warn.decor", where=where_square(*where[0]), id=hs_id)
    rule = msg("hq.imp.rule.picture" if ruling == PICTURE else f"hq.imp.rule.{ruling}")
    if len(where) == 1:
        return msg("hq.imp.warn.ruling", where=where_square(*where[0]), id=hs_id, ruling=rule)
    more = ", …" if len(where) > RULING_LIST else ""
    return msg("hq.imp.warn.ruling_many", id=hs_id, count=len(where), ruling=rule,
               squares=", ".join(square_label(sq) for _, sq in where[:RULING_LIST]) + more,
               lines=", ".join(str(line) for line, _ in where[:RULING_LIST]) + more)


def _cave_start(caves: list[tuple[str, tuple[Square, ...]]], placed: list[Placed], dark: set[Square],
                found: Problems) -> tuple[Square, ...]:
    """Where the heroes start in a quest with neither stairway, entrance door nor hero marks but an entrance
    room tile (START_TILES): the tile's free squares, nearest its corner first; a provisional ruling the game
    master is shown."""
    place, squares = caves[0]
    taken = {s for o in placed if o.kind in ("monster", "furniture", "blocked", "trap") for s in o.squares}
    inside = [s for s in sorted(squares) if board.in_board(s) and s not in dark]
    start = _near(inside, taken | dark, set()) if inside else ()
    if start:
        found.warn(msg("hq.imp.warn.cave_start", place=msg(place), count=len(start)))
    return start


def _fit(line: int, info: ObjectInfo, squares: tuple[Square, ...], rotation: str, found: Problems) -> _Piece | None:
    """The object on the board, or None (with an error or a warning) when it cannot stand where the file says."""
    inside = tuple(s for s in squares if board.in_board(s))
    if info.kind in ("entry", "exit"):
        if len(inside) == 1:
            return _Piece(line, info, inside, rotation)
        if len(inside) == 2 and board.door_slot(*inside):
            return _Piece(line, info, inside, rotation, (inside[0], inside[1]))
        if len(inside) == 2:
            found.warn(msg("hq.imp.warn.not_on_wall", where=where_square(line, inside[0]), id=info.hs_id))
            return None
    if len(inside) != len(squares) or not inside:
        outside = next(s for s in squares if not board.in_board(s))
        found.error(msg("hq.imp.error.off_board", where=where_square(line, outside), id=info.hs_id))
        return None
    between: tuple[Square, Square] | None = None
    if info.kind == "door":
        between = (squares[0], squares[-1])
    elif info.kind == "secret_door":
        between = secret_door_between(squares[0], rotation)
        if not board.in_board(between[1]):
            found.error(msg("hq.imp.error.off_board", where=where_square(line, between[1]), id=info.hs_id))
            return None
        squares = between
    if between is not None and not board.door_slot(*between):
        a, b = between
        if info.kind == "door" and board.adjacent(a, b):
            # a gate across open floor (the packs' portcullises and doorways across corridors, doors that split
            # a room): our board has no wall there to hang a door on
            key = "hq.imp.warn.open_doorway_no_wall" if info.ref == "open_door" else "hq.imp.warn.gate_no_wall"
            found.warn(msg(key, where=where_square(line, a), id=info.hs_id, a=square_label(a), b=square_label(b)))
        else:
            found.warn(msg("hq.imp.warn.not_on_wall", where=where_square(line, squares[0]), id=info.hs_id))
        return None
    return _Piece(line, info, squares, rotation, between)


def _place(pieces: list[_Piece], entries: list[_Piece], dark: set[Square],
           found: Problems) -> tuple[list[Placed], tuple[Square, ...], dict[str, tuple[str, int]]]:
    """Pieces as `Placed` objects with uids, leaving out figures that cannot stand where they are; the start;
    and for each uid the file's name of its object and its line (what messages show the game master)."""
    solid: set[Square] = set(dark)
    for p in pieces:
        if p.info.kind == "blocked" or (p.info.kind == "furniture" and p.info.ref not in WALKABLE_FURNITURE):
            solid.update(p.squares)
    figures: set[Square] = set()
    kept: list[_Piece] = []
    for p in pieces:
        if p.info.kind in ("monster", "hero_start"):
            bad = next((s for s in p.squares if s in solid or (p.info.kind == "monster" and s in figures)), None)
            if bad is not None:
                why = "dark" if bad in dark else ("taken" if bad in figures else "solid")
                found.warn(msg("hq.imp.warn.figure_left_out", where=where_square(p.line, bad), id=p.info.hs_id,
                               why=msg(f"hq.imp.why.{why}")))
                continue
            if p.info.kind == "monster":
                figures.update(p.squares)
        kept.append(p)
    counters: dict[str, int] = {}
    placed: list[Placed] = []
    names: dict[str, tuple[str, int]] = {}

    def add(p: _Piece, kind: str, ref: str, squares: tuple[Square, ...], between: tuple[Square, Square] | None,
            ) -> None:
        counters[ref] = counters.get(ref, 0) + 1
        note = ref.removeprefix("letter_").upper() if kind == "marker" and ref.startswith("letter_") else None
        uid = f"{ref}_{counters[ref]}"
        names[uid] = (p.info.hs_id, p.line)
        placed.append(Placed(uid, kind, ref, squares, p.rotation, between, note))

    exits: list[Square] = []
    for p in kept:
        if p.info.kind == "exit":
            square = _inner(p, dark, found)
            if p.between is not None:
                add(p, "door", "door", p.between, p.between)
            add(p, "stairs", EXIT_REF, (square,), None)
            exits.append(square)
        else:
            add(p, str(p.info.kind), p.info.ref, p.squares, p.between)
    start = default_start(tuple(placed)) if any(o.kind == "hero_start" for o in placed) else ()
    doors_in: list[Square] = []
    stairway = default_start(tuple(placed))
    for p in entries:
        square = _inner(p, dark, found)
        if p.between is not None:
            add(p, "door", "door", p.between, p.between)
        if square not in dark and (p.info.ref == "door_in" or not stairway):  # an edge door yields to stairs
            doors_in.append(square)
    if not start and doors_in:
        traps = {s for o in placed if o.kind == "trap" for s in o.squares}
        start = _near(doors_in, solid | figures, traps)
        if len(start) < START_SQUARES:
            # the heroes who do not fit wait at the door and enter one by one (setup.py, NOTES.md)
            found.warn(msg("hq.imp.info.enter_one_by_one", count=len(start)))
    if not start:
        start = default_start(tuple(placed))
    return placed, start, names


def _inner(p: _Piece, dark: set[Square], found: Problems) -> Square:
    """The square inside an entrance or exit door: its only one on the board, or the side that is not dark."""
    if p.between is None:
        return p.squares[0]
    lit = [s for s in p.between if s not in dark]
    if len(lit) != 1:
        found.warn(msg("hq.imp.warn.door_side", where=where_square(p.line, p.between[0]), id=p.info.hs_id))
    return (lit or list(p.between))[0]


def _near(seeds: list[Square], taken: set[Square], traps: set[Square]) -> tuple[Square, ...]:
    """Up to `START_SQUARES` free squares nearest the entrance squares, walking around walls (and over
    traps, where nobody is put: the heroes file in one by one past them in the quest books)."""
    out: list[Square] = []
    seen = set(seeds)
    todo = deque(seeds)
    while todo and len(out) < START_SQUARES:
        sq = todo.popleft()
        if sq in taken:
            continue
        if sq not in traps:
            out.append(sq)
        for n in sorted(board.neighbours(sq)):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return tuple(out)


# ---------------------------------------------------------------- notes and the wandering monster


def _notes(raw: _Raw, markers: set[str], found: Problems) -> tuple[dict[str, Lit], str]:
    """Notes keyed by their letter (or note1, note2...) and the wandering monster's ref."""
    total = sum(min(n.size, MAX_NOTE) for n in raw.notes)
    if total > MAX_NOTES_TOTAL:
        found.error(msg("hq.imp.error.limit", what=msg("hq.imp.what.notes_chars"), count=total, limit=MAX_NOTES_TOTAL))
    strong: list[tuple[str, str]] = []
    weak: list[tuple[int, str, str, str]] = []
    plain: list[tuple[int, str]] = []
    wandering = ""
    wandering_text = ""
    for i, note in enumerate(raw.notes):
        body = note.value()
        if not body:
            continue
        wander = _WANDERING.match(body)
        if wander and not wandering_text:
            wandering_text = wander.group(1).strip()
            wandering = _wandering(wandering_text, found)
            continue
        key = _LETTER.match(body)
        if key is None:
            plain.append((i, body))
        elif key["close"] or key["punct"] or len(key["space"]) >= 2 or "\n" in key["space"] or "\t" in key["space"]:
            strong.append((key["key"], key["rest"].strip()))
        elif len(key["space"]) == 1:
            weak.append((i, key["key"], key["rest"].strip(), body))
        else:
            plain.append((i, body))
    notes: dict[str, str] = {}
    for letter, text in strong:
        notes[letter] = f"{notes[letter]}\n{text}" if letter in notes else text
    for i, letter, text, body in weak:
        # "A Hero who..." is a sentence, not note A, unless the map has an A and no other note claims it
        if letter in markers and letter not in notes:
            notes[letter] = text
        else:
            plain.append((i, body))
    out = {letter: Lit(text, text) for letter, text in sorted(notes.items())}
    for n, (_, body) in enumerate(sorted(plain), 1):
        out[f"note{n}"] = Lit(body, body)
    if wandering_text and (not wandering or wandering not in _named(wandering_text)):
        out["wandering"] = Lit(wandering_text, wandering_text)
    unexplained = sorted(markers - set(notes))
    if unexplained and not raw.notes:
        # many pack files carry no notes at all (Kellar's Keep in European wording): one word, not one per letter
        found.warn(msg("hq.imp.warn.marks_no_notes", count=len(unexplained), letters=", ".join(unexplained)))
        unexplained = []
    for letter in unexplained:
        found.warn(msg("hq.imp.warn.mark_without_note", letter=letter))
    for letter in sorted(set(notes) - markers):
        found.warn(msg("hq.imp.warn.note_without_mark", letter=letter))
    return out, wandering


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def _phrases(words: list[str]) -> list[tuple[int, str]]:
    """Every run of one to four words with its position, plurals also in the singular ("mummies" -> "mummy")."""
    out = [(i, " ".join(words[i:i + n])) for i in range(len(words)) for n in range(1, 5) if i + n <= len(words)]
    singular = [(i, p[:-3] + "y") for i, p in out if p.endswith("ies") and len(p) > 4]
    singular += [(i, p[:-1]) for i, p in out if p.endswith("s") and len(p) > 3]
    return out + singular


def _names() -> dict[str, str]:
    """Every monster's names (English, Spanish, ref words) folded to lower case -> its ref."""
    out: dict[str, str] = {}
    for ref, entry in catalog.monsters().items():
        for name in (entry["name"]["en"], entry["name"]["es"], ref.replace("_", " ")):
            out[" ".join(_words(name))] = ref
    return out


def _named(text: str) -> set[str]:
    """Monster refs named outright in `text`."""
    names = _names()
    return {names[p] for _, p in _phrases(_words(text)) if p in names}


def _wandering(text: str, found: Problems) -> str:
    """The monster a quest names as its wandering monster: by name, else the closest we have (with a warning)."""
    phrases = _phrases(_words(text))
    names = _names()
    hits = sorted((i, -len(p), names[p]) for i, p in phrases if p in names)
    if hits:
        return hits[0][2]
    kin = {word: ref for ref, entry in catalog.monsters().items() for word in entry.get("kin", [])}
    close = sorted((i, kin[p]) for i, p in phrases if p in kin)
    if not close:
        for i, p in phrases:
            match = difflib.get_close_matches(p, list(names), n=1, cutoff=0.8)
            if match:
                close.append((i, names[match[0]]))
                break
    shown = text if len(text) <= 80 else text[:79] + "…"
    if close:
        ref = close[0][1]
        found.warn(msg("hq.imp.warn.wandering_closest", text=shown, monster=catalog.monster_name(ref)))
        return ref
    found.warn(msg("hq.imp.warn.wandering_unknown", text=shown))
    return ""

