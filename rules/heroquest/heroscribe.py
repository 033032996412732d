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
- `<dark>` rectangles are the map's shaded squares: not part of this quest.
- Notes starting with a capital letter and spaces ("A  ...") are keyed by that letter; a note
  "Wandering monster: Orc" sets the wandering monster; other notes are keyed "note1", "note2"...

The parser is expat (as used by xml.etree) with entity declarations refused and no external entities
loaded, on inputs of at most `MAX_BYTES`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from xml.parsers import expat

from rules.heroquest import board
from rules.heroquest.board import Square
from rules.heroquest.quest import (
    MAX_BYTES,
    ROTATIONS,
    Placed,
    Quest,
    QuestError,
    check,
    default_start,
    monster_refs,
    object_table,
    where_line,
)
from rules.text import Lit, msg

SUPPORTED_VERSIONS = ("1.0",)
_LETTER_NOTE = re.compile(r"^([A-Z])\s+(\S.*)$", re.S)
_WANDERING = re.compile(r"^wandering monsters?\s*(?:in this quest)?\s*[:\-]\s*(.+)$", re.I | re.S)


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    text: list[str] = field(default_factory=list)
    children: list[_Node] = field(default_factory=list)


class _Refused(Exception):
    """An entity declaration (the billion-laughs family) was found."""


def _parse_xml(text: str) -> _Node:
    """A small element tree with line numbers; QuestError for malformed or unsafe XML."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Node] = []
    root: list[_Node] = []

    def refuse(*_args: object) -> None:
        raise _Refused

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].text.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    try:
        parser.Parse(text, True)
    except _Refused:
        raise QuestError(msg("hq.q.error.entities", where=where_line(parser.CurrentLineNumber))) from None
    except expat.ExpatError as exc:
        detail = expat.ErrorString(exc.code) if exc.code else str(exc)
        raise QuestError(msg("hq.q.error.xml", where=where_line(exc.lineno), detail=detail)) from None
    if not root:
        raise QuestError(msg("hq.q.error.xml", where=where_line(1), detail="no element"))
    return root[0]


def _attr(node: _Node, name: str) -> str:
    value = node.attrs.get(name)
    if value is None:
        raise QuestError(msg("hq.q.error.missing_attr", where=where_line(node.line), element=node.tag, attr=name))
    return value


def _number(node: _Node, name: str, integer: bool = False) -> float:
    raw = _attr(node, name)
    try:
        value = int(raw) if integer else float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or abs(value) > 1000:
        raise QuestError(
            msg("hq.q.error.bad_number", where=where_line(node.line), element=node.tag, attr=name, value=raw[:20])
        )
    return value


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


def parse_heroscribe(text: str, filename: str = "") -> Quest:
    """Parse a HeroScribe quest (XML text); QuestError naming the line and element of any problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise QuestError(msg("hq.q.error.too_big", size=len(text), limit=MAX_BYTES))
    root = _parse_xml(text)
    if root.tag != "quest":
        raise QuestError(msg("hq.q.error.root", where=where_line(root.line), tag=root.tag[:40]))
    version = root.attrs.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise QuestError(msg("hq.q.error.version", where=where_line(root.line), version=str(version)[:20]))
    name = root.attrs.get("name", "").strip()
    if not name:
        raise QuestError(msg("hq.q.error.no_name", where=where_line(root.line)))
    width = _number(root, "width", integer=True) if "width" in root.attrs else 1
    height = _number(root, "height", integer=True) if "height" in root.attrs else 1
    boards = [c for c in root.children if c.tag == "board"]
    if (width, height) != (1, 1) or len(boards) != 1:
        raise QuestError(msg("hq.q.error.boards", where=where_line(root.line), count=max(len(boards), 1)))

    table = object_table()
    dark: set[Square] = set()
    objects: list[Placed] = []
    counters: dict[str, int] = {}
    for node in boards[0].children:
        if node.tag == "dark":
            left, top = int(_number(node, "left", True)), int(_number(node, "top", True))
            w, h = int(_number(node, "width", True)), int(_number(node, "height", True))
            corners = ((top - 1, left - 1), (top + h - 2, left + w - 2))
            if w < 1 or h < 1 or not all(board.in_board(s) for s in corners):
                raise QuestError(msg("hq.q.error.off_board", where=where_line(node.line), id="dark"))
            dark.update((top - 1 + dr, left - 1 + dc) for dr in range(h) for dc in range(w))
        elif node.tag == "object":
            objects.append(_object(node, table, counters))
        else:
            raise QuestError(msg("hq.q.error.element", where=where_line(node.line), element=node.tag[:40]))

    speech = ""
    notes: dict[str, Lit] = {}
    wandering = ""
    plain = 0
    for node in root.children:
        body = "".join(node.text).strip()
        if node.tag == "speech":
            speech = body
        elif node.tag == "note":
            if not body:
                continue
            wander = _WANDERING.match(body)
            letter = _LETTER_NOTE.match(body)
            if wander and _monster_ref(wander.group(1)) and not wandering:
                wandering = _monster_ref(wander.group(1))
            elif wander and "wandering" not in notes:
                notes["wandering"] = Lit(wander.group(1).strip(), wander.group(1).strip())
            elif letter and letter.group(1) not in notes:
                notes[letter.group(1)] = Lit(letter.group(2).strip(), letter.group(2).strip())
            else:
                plain += 1
                notes[f"note{plain}"] = Lit(body, body)
        elif node.tag == "bridge":
            raise QuestError(msg("hq.q.error.boards", where=where_line(node.line), count=2))
        elif node.tag not in ("board",):
            raise QuestError(msg("hq.q.error.element", where=where_line(node.line), element=node.tag[:40]))

    placed = tuple(objects)
    quest = Quest(
        id=slug(name),
        name=Lit(name, name),
        speech=Lit(speech, speech),
        notes=notes,
        wandering_monster=wandering,
        dark=frozenset(dark),
        objects=placed,
        start=default_start(placed),
    )
    return check(quest)


def _monster_ref(text: str) -> str:
    candidate = slug(text.strip().rstrip("."))
    if candidate.endswith("s") and candidate not in monster_refs():
        candidate = candidate[:-1]
    return candidate if candidate in monster_refs() else ""


def _object(node: _Node, table: dict, counters: dict[str, int]) -> Placed:
    where = where_line(node.line)
    hs_id = _attr(node, "id")
    info = table.get(hs_id)
    if info is None:
        raise QuestError(msg("hq.q.error.unknown_object", where=where, id=hs_id[:40]))
    if info.kind is None:
        raise QuestError(msg("hq.q.error.unsupported_object", where=where, id=hs_id))
    rotation = node.attrs.get("rotation", "downward")
    if rotation not in ROTATIONS:
        raise QuestError(msg("hq.q.error.rotation", where=where, value=rotation[:20]))
    left, top = _number(node, "left"), _number(node, "top")
    squares = footprint(info.width, info.height, left, top, rotation)
    if not all(board.in_board(s) for s in squares):
        raise QuestError(msg("hq.q.error.off_board", where=where, id=hs_id))
    between: tuple[Square, Square] | None = None
    if info.kind == "door":
        between = (squares[0], squares[-1])
    elif info.kind == "secret_door":
        between = secret_door_between(squares[0], rotation)
        if not board.in_board(between[1]):
            raise QuestError(msg("hq.q.error.off_board", where=where, id=hs_id))
        squares = between
    if between is not None and not board.door_slot(*between):
        raise QuestError(msg("hq.q.error.not_on_wall", where=where, id=hs_id))
    counters[info.ref] = counters.get(info.ref, 0) + 1
    uid = f"{info.ref}_{counters[info.ref]}"
    note = None
    if info.kind == "marker" and info.ref.startswith("letter_"):
        note = info.ref.removeprefix("letter_").upper()
    return Placed(uid, info.kind, info.ref, squares, rotation, between, note)
