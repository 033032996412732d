"""HeroQuest board image: rooms, corridors, walls, doors, furniture and figures, plus a heroes panel.

`render(view, lang) -> bytes` draws a PNG from the view the engine produces:

    {"viewer": "gm" | "hero" | "spectator",
     "quest": {"name": {"es": .., "en": ..}},
     "revealed": [[r, c], ...],          # squares the players have seen (GM view: all)
     "player_revealed": [[r, c], ...],   # optional, GM view: the squares the heroes have seen
     "reach": [[r, c], ...],             # optional: where the seat on turn may move now (its own view only)
     "unused": [[r, c], ...],            # optional: the quest's shaded squares (not part of it)
     "doors": [{"uid", "between": [[r, c], [r, c]], "open": bool, "secret": bool,
                "hidden": bool}],        # hidden (optional): GM view, not yet known to the players
     "objects": [{"uid", "kind", "ref", "squares": [[r, c], ...], "rotation", "hidden": bool}],
     "heroes": [{"uid", "hero", "name", "square": [r, c] | None, "body", "max_body", "mind",
                 "max_mind", "equipment": [str, ...], "dead": bool, "seat": int}],
     "monsters": [{"uid", "ref", "square": [r, c], "body", "max_body", "hidden": bool}],
     "turn": {"label": <message JSON> | {"es": .., "en": ..}, "hero": uid | None},
     "log": [<message JSON> | {"es": .., "en": ..}, ...]}    # message JSON: {"key", "params"}

The board is a `renderers.board` square grid: its edges print the square names every command and
message uses (`rules.coords`: "H11" is column H, row 11). The game master's map is the whole board with the
heroes' panel beside it. The players' image (hero and spectator views) is laid out for a phone, where
Discord shows it about 400 px wide: 800 px wide, the board cropped to the squares the heroes have seen and
stand on plus two squares (`crop`; the edges print the real names of the squares shown), larger squares and
tokens, a legend of only what it shows (each kind of monster by its code), and the heroes two to a row
under the board. Figure codes (`figure_code`) are fixed per language and never share or mirror letters.
The static layer (floors, the quest's unused
squares, every wall, the grid, the edge labels, the legend and the panel's frame) is drawn once per
quest, viewer kind and language and kept in a small cache; each render copies it and draws the rest.

Object kinds drawn: furniture, blocked (rocks too), stairs, trap (found or sprung; pits as holes,
falling blocks as rubble), marker; secret_door markers are ignored (doors come from "doors"). In the
players' views every square not in "revealed" is covered by the dark colour `UNSEEN`, and only walls
next to a seen square show; the GM sees everything, with things the players have not found drawn
faded and outlined with dashes, and the squares the heroes have not seen yet tinted and hatched.
The hero on turn ("turn"."hero") is framed; "reach" squares get the board kit's reach dots.

`quest_view(quest, viewer)` builds such a view for a quest's starting position (previews, tests).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from renderers import board as kit_board
from renderers import kit
from renderers.kit import PALETTE, Box, Canvas, Color
from rules.heroquest import board, catalog
from rules.heroquest.visibility import initial_revealed
from rules.readonly import loader
from rules.text import Msg

SQ = 36  # px per square
MARGIN = 14
HEADER = 46
PANEL_W = 330
GRID = kit_board.SquareGrid(board.COLS, board.ROWS, cell=SQ, x=MARGIN, y=HEADER)
LEGEND_SIZE = 13
LEGEND_ROW = round(LEGEND_SIZE * 1.6) + 6
LEGEND_H = 3 * LEGEND_ROW + 8
BOARD_W, BOARD_H = GRID.width, GRID.height
WIDTH = MARGIN + BOARD_W + MARGIN + PANEL_W + MARGIN
HEIGHT = HEADER + BOARD_H + LEGEND_H + MARGIN

UNSEEN: Color = (0x12, 0x13, 0x17)
UNUSED: Color = (0x3A, 0x3C, 0x44)
CORRIDOR: Color = (0xB4, 0xB7, 0xBE)
ROOM: Color = (0xD9, 0xC7, 0xA3)
GRID_LINE: Color = (0x8E, 0x8A, 0x80)
WALL: Color = (0x1A, 0x1A, 0x1A)
DOOR: Color = (0xB0, 0x66, 0x1C)
SECRET: Color = kit.OKABE_ITO["reddish_purple"]
FURNITURE: Color = (0x6E, 0x45, 0x22)
STAIRS: Color = (0x5E, 0x6A, 0x7A)
BLOCKED: Color = (0x4A, 0x4A, 0x4E)
TRAP: Color = kit.OKABE_ITO["yellow"]
PIT: Color = (0x0B, 0x0B, 0x0D)
HERO: Color = kit.OKABE_ITO["blue"]
MONSTER: Color = kit.OKABE_ITO["vermillion"]
MARKER: Color = kit.OKABE_ITO["bluish_green"]
#: The GM map's tint over the squares the heroes have not seen yet (with hatching, so it reads in grey).
NOT_SEEN_YET: Color = (0x2B, 0x3A, 0x67)

PIT_REFS = frozenset({"pit_trap", "deep_pit_trap", "long_pit_trap"})
ROCK_REFS = frozenset({"falling_block", "rock", "fallen_rock"})
WALL_W = max(3, round(SQ * 0.12))  # as renderers.board draws the static walls

# The players' image is laid out for a phone: Discord shows it about 400 px wide, so it is drawn 800 px
# wide (every size below is twice what the phone shows), the board cropped to what the heroes have seen.
PHONE_W = 800
PHONE_MARGIN = 16
PHONE_HEADER = 92
PHONE_BOARD_H = 940  # at most: a tall crop gets smaller squares rather than a scroll
PHONE_CELL = 72  # at most: a small crop does not blow up into a few huge squares
PHONE_LABEL = 20  # the edge labels (10 px on the phone)
PHONE_TEXT = 22
CROP_MARGIN = 2  # squares of dark shown around what the heroes have seen


def _wall_width(cell: int) -> int:
    return max(3, round(cell * 0.12))


@dataclass(frozen=True)
class Layout:
    """Where one image puts its board, legend and panel. The game master's map is the whole board with the
    panel beside it (`FULL`); the players' image (`phone`) is a crop of the board with the legend and the
    heroes under it, sized to read on a phone."""

    grid: kit_board.SquareGrid
    width: int
    height: int
    legend: Box
    panel: Box
    phone: bool = False

    @property
    def sq(self) -> int:
        return self.grid.cell

    def sq_box(self, sq: Sequence[int]) -> Box:
        return self.grid.cell_box((int(sq[0]), int(sq[1])))

    def span_box(self, squares: Iterable[Sequence[int]]) -> Box:
        sqs = list(squares)
        a = self.sq_box((min(s[0] for s in sqs), min(s[1] for s in sqs)))
        b = self.sq_box((max(s[0] for s in sqs), max(s[1] for s in sqs)))
        return Box(a.x, a.y, b.x2 - a.x, b.y2 - a.y)


FULL = Layout(GRID, WIDTH, HEIGHT, Box(MARGIN, HEADER + BOARD_H + 6, BOARD_W, LEGEND_H - 6),
              Box(MARGIN + BOARD_W + MARGIN, HEADER, PANEL_W, BOARD_H + LEGEND_H))


def crop(view: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """The squares the players' image shows, as (first row, first column, rows, columns): what the heroes have
    seen and where they stand, plus `CROP_MARGIN` squares, within the board. It depends on nothing the players
    do not know, so the crop itself tells nothing of the unexplored board."""
    squares = [(int(s[0]), int(s[1])) for s in view.get("revealed", [])]
    squares += [(int(h["square"][0]), int(h["square"][1])) for h in view.get("heroes", [])
                if h.get("square") is not None and not h.get("dead")]
    squares = [sq for sq in squares if 0 <= sq[0] < board.ROWS and 0 <= sq[1] < board.COLS]
    if not squares:
        return 0, 0, board.ROWS, board.COLS
    r0 = max(0, min(r for r, _ in squares) - CROP_MARGIN)
    c0 = max(0, min(c for _, c in squares) - CROP_MARGIN)
    r1 = min(board.ROWS, max(r for r, _ in squares) + CROP_MARGIN + 1)
    c1 = min(board.COLS, max(c for _, c in squares) + CROP_MARGIN + 1)
    return r0, c0, r1 - r0, c1 - c0


@lru_cache(maxsize=32)
def _phone_layout(window: tuple[int, int, int, int], legend_rows: int, heroes: int, log_lines: int) -> Layout:
    r0, c0, rows, cols = window
    inner = PHONE_W - 2 * PHONE_MARGIN
    fit = kit_board.SquareGrid.fit(cols, rows, inner, PHONE_BOARD_H, col0=c0, row0=r0, label_px=PHONE_LABEL,
                                   max_cell=PHONE_CELL)
    grid = kit_board.SquareGrid(cols, rows, fit.cell, (PHONE_W - fit.width) // 2, PHONE_HEADER, c0, r0, PHONE_LABEL)
    legend = Box(PHONE_MARGIN, grid.y + grid.height + 8, inner, legend_rows * _PHONE_LEGEND_ROW)
    panel_h = 20 + ((heroes + 1) // 2) * (_PHONE_CARD_H + 10) + (log_lines * _PHONE_LOG_LH + 14 if log_lines else 0)
    panel = Box(PHONE_MARGIN, legend.y2 + 8, inner, panel_h)
    return Layout(grid, PHONE_W, panel.y2 + PHONE_MARGIN, legend, panel, phone=True)

_SMALL_WORDS = {"de", "del", "la", "el", "of", "the", "and", "y"}


def _t(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _lit(value: Any, lang: str) -> str:
    """A text of the view: a message (key and parameters, as the engine writes them) or {es, en}."""
    if isinstance(value, dict) and "key" in value:
        return i18n.t(Msg.from_json(value), lang)
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or value.get("es") or "")
    return "" if value is None else str(value)


def ref_name(ref: str, lang: str) -> str:
    """Localized name of a monster, hero, furniture or trap ref (falls back to the ref in words)."""
    key = f"hq.q.ref.{ref}"
    return i18n.tk(key, lang) if i18n.has(key, lang) else ref.replace("_", " ").capitalize()


def abbrev(name: str) -> str:
    """Two letters for a figure token: initials of the main words, or the first two letters."""
    words = [w for w in name.replace("-", " ").split() if w.lower() not in _SMALL_WORDS]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    word = words[0] if words else name
    return word[:2].capitalize()


def _sq_box(sq: Sequence[int]) -> Box:
    return GRID.cell_box((int(sq[0]), int(sq[1])))


def _span_box(squares: Iterable[Sequence[int]]) -> Box:
    sqs = list(squares)
    a = _sq_box((min(s[0] for s in sqs), min(s[1] for s in sqs)))
    b = _sq_box((max(s[0] for s in sqs), max(s[1] for s in sqs)))
    return Box(a.x, a.y, b.x2 - a.x, b.y2 - a.y)


def _dashed_rect(draw: ImageDraw.ImageDraw, box: Box, color: Color, width: int = 2, dash: int = 5) -> None:
    if box.w > 1 and box.h > 1:
        draw.bitmap((box.x, box.y), _dashes(box.w, box.h, width, dash), fill=color)


@lru_cache(maxsize=128)
def _dashes(w: int, h: int, width: int, dash: int) -> Image.Image:
    """The dashed outline of a w×h box as a mask, drawn once per size (shared: never draw on it)."""
    mask = Image.new("1", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    x1, y1 = w - 1, h - 1
    for a, b in (((0, 0), (x1, 0)), ((x1, 0), (x1, y1)), ((x1, y1), (0, y1)), ((0, y1), (0, 0))):
        length = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
        for start in range(0, length, dash * 2):
            end = min(length, start + dash)
            t0, t1 = start / length, end / length
            draw.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                       (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=1, width=width)
    return mask


def _hatch(draw: ImageDraw.ImageDraw, box: Box, color: Color, step: int = 7) -> None:
    for k in range(-box.h, box.w, step):
        x0, y0 = box.x + max(k, 0), box.y + max(-k, 0)
        n = min(box.w - max(k, 0), box.h - max(-k, 0))
        if n > 0:
            draw.line([(x0, y0 + n - 1), (x0 + n - 1, y0)], fill=color, width=1)


# ---------------------------------------------------------------- the static layer


@lru_cache(maxsize=1)
def _wall_edges() -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """Every printed wall as (square, the square across it); across the board's rim that one is off the board."""
    out = []
    for sq in board.all_squares():
        top, right, bottom, left = board.wall_mask(sq)
        r, c = sq
        if top:
            out.append((sq, (r - 1, c)))
        if left:
            out.append((sq, (r, c - 1)))
        if bottom and r == board.ROWS - 1:
            out.append((sq, (r + 1, c)))
        if right and c == board.COLS - 1:
            out.append((sq, (r, c + 1)))
    return tuple(out)


def _walls_in(grid: kit_board.SquareGrid) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The walls a (cropped) grid draws: between two of its squares, or on the board's own rim."""
    def off_board(sq: tuple[int, int]) -> bool:
        return not (0 <= sq[0] < board.ROWS and 0 <= sq[1] < board.COLS)

    return tuple((a, b) for a, b in _wall_edges() if grid.contains(a) and (grid.contains(b) or off_board(b)))


@lru_cache(maxsize=16)
def _spec(unused: frozenset[tuple[int, int]], layout: Layout = FULL) -> kit_board.StaticSpec:
    corridor, dark = kit_board.Terrain(CORRIDOR), kit_board.Terrain(UNUSED, hatch=True)
    grid = layout.grid
    cells = {sq: dark if sq in unused else corridor for sq in grid.cells() if sq in unused or board.is_corridor(sq)}
    walls = _wall_edges() if layout == FULL else _walls_in(grid)
    return kit_board.StaticSpec(grid, cells, kit_board.Terrain(ROOM), walls=walls,
                                size=(layout.width, layout.height), line=GRID_LINE, wall=WALL)


@lru_cache(maxsize=16)
def _base(unused: frozenset[tuple[int, int]], lang: str, gm: bool, reach: bool, layout: Layout = FULL) -> Image.Image:
    """The board kit's static layer of this quest plus what never changes for this viewer: the legend and
    the panel's frame (the phone layout draws those per image) (shared: never draw on it)."""
    canvas = Canvas.from_image(kit_board.static_image(_spec(unused, layout)).copy())
    if not layout.phone:
        _legend(canvas, _legend_items(lang, gm, reach), layout.legend, LEGEND_SIZE)
        canvas.draw.rounded_rectangle(layout.panel.rect, radius=8, fill=PALETTE.panel)
    return canvas.image


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _shaded.cache_clear()
    _dashes.cache_clear()
    _base.cache_clear()
    _spec.cache_clear()
    _phone_layout.cache_clear()
    kit_board.clear_cache()


# ---------------------------------------------------------------- the board


class _Board:
    """Draws one view's board over the cached static layer; `gm` sees hidden things, faded."""

    def __init__(self, canvas: Canvas, view: dict[str, Any], lang: str, layout: Layout = FULL) -> None:
        self.c = canvas
        self.d = canvas.draw
        self.view = view
        self.lang = lang
        self.layout = layout
        self.grid = layout.grid
        self.sq = layout.sq
        self.gm = view.get("viewer") == "gm"
        self.revealed = {(int(s[0]), int(s[1])) for s in view.get("revealed", [])}
        if self.gm:
            self.revealed = set(board.all_squares())
        self.unused = {(int(s[0]), int(s[1])) for s in view.get("unused", [])}

    def seen(self, sq: Sequence[int]) -> bool:
        return (sq[0], sq[1]) in self.revealed

    def shown(self, squares: Iterable[Sequence[int]]) -> bool:
        """Whether any of these squares is in the image (a crop leaves some out)."""
        return any(self.grid.contains((int(s[0]), int(s[1]))) for s in squares)

    def draw(self, base: tuple[frozenset[tuple[int, int]], str, bool, bool]) -> None:
        """Everything over the static layer, which `base` (the arguments of `_base`) names."""
        if self.gm:
            self.not_seen_yet(base)
        self.stairs_and_blocks()
        self.furniture_and_traps()
        if not self.gm:
            self.cover_unseen()
        reach = tuple((int(s[0]), int(s[1])) for s in self.view.get("reach", []) if self.grid.contains((s[0], s[1])))
        if reach:  # under the doors, so an open door's leaf keeps its colour
            kit_board.draw_layers(self.c, self.grid, kit_board.Layers(reach=reach))
        self.doors()
        self.figures()

    def not_seen_yet(self, base: tuple[frozenset[tuple[int, int]], str, bool, bool]) -> None:
        """GM map: squares the heroes have not seen yet, tinted and hatched (their own map never shows them):
        copied, in runs along each row, from a cached fully shaded copy of the static layer."""
        if "player_revealed" not in self.view or self.layout != FULL:
            return
        seen = {(int(s[0]), int(s[1])) for s in self.view["player_revealed"]} | self.unused
        shaded = _shaded(*base)
        f = GRID.field
        for r, c0, c1 in _runs(GRID, lambda sq: sq not in seen):
            box = (f.x + c0 * SQ, f.y + r * SQ, f.x + c1 * SQ, f.y + (r + 1) * SQ)
            self.c.image.paste(shaded.crop(box), box[:2])

    def cover_unseen(self) -> None:
        """The players' views: the dark over every square they have not seen, in runs along each row; then
        the walls between a seen square and the dark again, which the cover cut in half."""
        grid, sq = self.grid, self.sq
        f = grid.field
        for r, c0, c1 in _runs(grid, lambda cell: cell not in self.revealed):
            x0, y0 = f.x + (c0 - grid.col0) * sq, f.y + (r - grid.row0) * sq
            self.d.rectangle([x0, y0, x0 + (c1 - c0) * sq - 1, y0 + sq - 1], fill=UNSEEN)
        for a, b in _wall_edges():
            if self.seen(a) != self.seen(b) and grid.contains(a) and grid.contains(b):
                self.d.line(_side(grid, a, b), fill=WALL, width=_wall_width(sq))

    def doors(self) -> None:
        for door in self.view.get("doors", []):
            a, b = ((int(s[0]), int(s[1])) for s in door["between"])
            if not self.gm and not (self.seen(a) or self.seen(b)):
                continue
            if not (self.grid.contains(a) and self.grid.contains(b)):
                continue
            draw_door(self.d, a, b, bool(door.get("open")), bool(door.get("secret")), bool(door.get("hidden")),
                      self.grid)

    def stairs_and_blocks(self) -> None:
        for obj in self.view.get("objects", []):
            if obj.get("kind") not in ("stairs", "blocked"):
                continue
            squares = [q for q in obj.get("squares") or [] if self.grid.contains((int(q[0]), int(q[1])))]
            if not squares:
                continue
            hidden = bool(obj.get("hidden"))
            for sq in squares:
                if obj["kind"] == "stairs":
                    stairs_tile(self.d, self.layout.sq_box(sq), hidden)
                else:
                    blocked_tile(self.d, self.layout.sq_box(sq), hidden)
            if hidden:
                _dashed_rect(self.d, self.layout.span_box(squares).inset(2), PALETTE.highlight)

    def furniture_and_traps(self) -> None:
        for obj in self.view.get("objects", []):
            kind = obj.get("kind")
            squares = obj.get("squares") or []
            if not squares or kind in ("stairs", "blocked", "door", "secret_door", "hero_start"):
                continue
            if not self.shown(squares):
                continue
            hidden = bool(obj.get("hidden"))
            if kind == "trap":
                for sq in squares:
                    if self.shown([sq]):
                        trap_tile(self.d, self.layout.sq_box(sq), obj.get("ref", ""), hidden)
            elif kind == "marker":
                if self.shown(squares[:1]):
                    self.marker(self.layout.sq_box(squares[0]), obj, hidden)
            else:
                self.furniture(self.layout.span_box(squares), obj.get("ref", ""), hidden)

    def furniture(self, box: Box, ref: str, hidden: bool) -> None:
        fill = kit.mix(FURNITURE, ROOM, 0.5) if hidden else FURNITURE
        inner = box.inset(max(3, self.sq // 12))
        self.d.rounded_rectangle(inner.rect, radius=max(5, self.sq // 7), fill=fill, outline=WALL, width=2)
        ink = kit.ink_on(fill)
        name = ref_name(ref, self.lang)
        size = max(11, round(self.sq * 0.3))
        two = 2 * self.sq - 8
        if inner.w < two and inner.h >= two:
            # tall and narrow: the name reads bottom to top
            label = Canvas(inner.h - 4, inner.w - 4, fill)
            kit.text(label.draw, label.box.center, name, size, ink, anchor="mm", max_width=inner.h - 8)
            self.c.paste(label, (inner.x + 2, inner.y + 2), rotate=90)
        elif inner.w >= two:
            lines = kit.wrap(name, size, inner.w - 6)[:3]
            lh = kit.line_height(size)
            y = inner.y + (inner.h - lh * len(lines)) / 2
            for line in lines:
                kit.text(self.d, (inner.x + inner.w / 2, y), line, size, ink, anchor="ma", max_width=inner.w - 4)
                y += lh
        else:
            kit.text(self.d, inner.center, abbrev(name), max(12, round(self.sq * 0.33)), ink, anchor="mm", bold=True)
        if hidden:
            _dashed_rect(self.d, box.inset(1), PALETTE.highlight)

    def marker(self, box: Box, obj: dict[str, Any], hidden: bool) -> None:
        label = obj.get("note") or obj.get("ref", "?").removeprefix("letter_").removeprefix("number_").upper()
        marker_tile(self.d, box, str(label), hidden)

    def figures(self) -> None:
        turn = self.view.get("turn") or {}
        acting = turn.get("hero")
        pieces: list[kit_board.Piece] = []
        faded: list[Box] = []
        codes = figure_codes(self.view, self.lang)
        for m in self.view.get("monsters", []):
            sq = m.get("square")
            if sq is None or not self.shown([sq]):
                continue
            hidden = bool(m.get("hidden"))
            body, max_body = m.get("body"), m.get("max_body")
            badge = f"{body}/{max_body}" if isinstance(body, int) and isinstance(max_body, int) and max_body > 1 else ""
            number = _number(m.get("name"))
            if number and self.layout.phone:  # "Orc 2": the name commands take, under the token
                badge = f"{number} · {badge}" if badge else number
            pieces.append(kit_board.Piece((int(sq[0]), int(sq[1])), codes.get(str(m.get("uid")), "?"),
                                          kit.mix(MONSTER, ROOM, 0.5) if hidden else MONSTER, "octagon", badge=badge))
            if hidden:
                faded.append(self.layout.sq_box(sq).inset(1))
        for h in self.view.get("heroes", []):
            sq = h.get("square")
            if sq is None or h.get("dead") or not self.shown([sq]):
                continue
            body, max_body = h.get("body"), h.get("max_body")
            bar = body / max_body if isinstance(body, int) and isinstance(max_body, int) and max_body > 0 else None
            pieces.append(kit_board.Piece((int(sq[0]), int(sq[1])), codes.get(str(h.get("uid")), "?"),
                                          HERO, "circle", bar=bar, active=h.get("uid") == acting))
        kit_board.draw_layers(self.c, self.grid, kit_board.Layers(pieces=tuple(pieces)))
        for box in faded:
            _dashed_rect(self.d, box, PALETTE.highlight)


def _number(name: Any) -> str:
    """The number the heroes know a monster by ("Orc 2" is 2), or nothing."""
    text = str(name.get("en") or "") if isinstance(name, dict) else ""
    last = text.rsplit(" ", 1)[-1]
    return last if last.isdigit() else ""


def _key(code: str) -> str:
    """What two codes must not share: the same letters in any order and any case ("DW", "Dw" and "WD" clash)."""
    return "".join(sorted(code.upper()))


def _candidates(name: str) -> Iterable[str]:
    """Two-letter codes for a name, best first: `abbrev`'s, then the first letter with each later letter of
    the second word (or of the word itself), in capitals."""
    yield abbrev(name)
    words = [w for w in name.replace("-", " ").split() if w.lower() not in _SMALL_WORDS] or [name]
    first = words[0][:1].upper()
    rest = words[1][1:] if len(words) > 1 else words[0][1:]
    for ch in rest:
        if ch.isalpha():
            yield first + ch.upper()
    for ch in "".join(words)[1:]:
        if ch.isalpha():
            yield first + ch.upper()


@loader(maxsize=4)
def _code_table(lang: str) -> Mapping[str, str]:
    """A code for every hero and monster of the catalog, fixed per language (heroes first, then the monsters in
    the catalog's order) so a figure keeps its code all game and the codes tell nothing of what is unseen."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for ref in [*catalog.heroes(), *catalog.monsters()]:
        name = ref_name(ref, lang)
        code = next((c for c in _candidates(name) if _key(c) not in used), None)
        if code is None:
            code = next(f"{name[:1].upper()}{n}" for n in range(1, 100) if _key(f"{name[:1].upper()}{n}") not in used)
        used.add(_key(code))
        out[ref] = code
    return out


def figure_code(ref: str, lang: str) -> str:
    """The letters on a hero's or monster's token: two, never the same letters as another kind's in any order or
    case (a ref outside the catalog gets its own letters and a digit when those clash)."""
    table = _code_table(lang if lang in i18n.LANGS else i18n.DEFAULT)
    if ref in table:
        return table[ref]
    code = abbrev(ref_name(ref, lang))
    used = {_key(c) for c in table.values()}
    return code if _key(code) not in used else code[:1] + "?"


def figure_codes(view: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The code on each figure's token, by uid."""
    out = {str(h.get("uid")): figure_code(str(h.get("hero", "?")), lang) for h in view.get("heroes", [])}
    out.update({str(m.get("uid")): figure_code(str(m.get("ref", "?")), lang) for m in view.get("monsters", [])})
    return out


@lru_cache(maxsize=8)
def _shaded(unused: frozenset[tuple[int, int]], lang: str, gm: bool, reach: bool) -> Image.Image:
    """The static layer with every square tinted and hatched as not yet seen (shared: never draw on it)."""
    canvas = Canvas.from_image(_base(unused, lang, gm, reach).copy())
    cells = tuple(sq for sq in board.all_squares() if sq not in unused)
    kit_board.draw_layers(canvas, GRID, kit_board.Layers(shades=(
        kit_board.Shade(cells, NOT_SEEN_YET, alpha=0.3),
        kit_board.Shade(cells, NOT_SEEN_YET, alpha=0.75, hatch=True))))
    return canvas.image


def _runs(grid: kit_board.SquareGrid, pick: Callable[[tuple[int, int]], bool]) -> Iterable[tuple[int, int, int]]:
    """(row, first column, column after the last) of each run of the grid's squares `pick` chooses, row by row."""
    last = grid.col0 + grid.cols
    for r in range(grid.row0, grid.row0 + grid.rows):
        c = grid.col0
        while c < last:
            if not pick((r, c)):
                c += 1
                continue
            start = c
            while c < last and pick((r, c)):
                c += 1
            yield r, start, c


def _side(grid: kit_board.SquareGrid, a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    for across, p, q in grid.sides(a):
        if across == b:
            return [p, q]
    raise ValueError(f"{a} and {b} are not neighbours")


# ---------------------------------------------------------------- tiles (the board and its legend share them)


def draw_door(d: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], is_open: bool, secret: bool,
              hidden: bool, grid: kit_board.SquareGrid = GRID) -> None:
    """A closed door is a solid leaf across the wall; an open one is a gap in the wall, framed by two jambs,
    with the leaf swung a right angle into one side and the swing's arc dashed."""
    color = SECRET if secret else DOOR
    sq = grid.cell
    (p, q) = _side(grid, a, b)
    vertical = p[0] == q[0]  # the wall between two squares side by side is vertical
    if is_open:
        floor = ROOM if not board.is_corridor(a) or not board.is_corridor(b) else CORRIDOR
        # the leaf swings into the room side (b's side when both or neither are rooms)
        inward = b if board.is_corridor(a) or not board.is_corridor(b) else a
        other = a if inward == b else b
        sign = 1 if (inward[0] - other[0]) + (inward[1] - other[1]) > 0 else -1
        open_door(d, p, q, vertical, sign, floor, color)
        return
    thick = max(10, sq // 3)
    if vertical:
        leaf = Box(p[0] - thick // 2, min(p[1], q[1]) + 2, thick, sq - 4)
    else:
        leaf = Box(min(p[0], q[0]) + 2, p[1] - thick // 2, sq - 4, thick)
    d.rectangle(leaf.rect, fill=color, outline=WALL, width=2)
    if hidden:
        _hatch(d, leaf.inset(2), kit.mix(color, WALL, 0.5), step=4)
    if secret:
        kit.text(d, leaf.center, "S", max(9, thick - 1), kit.ink_on(color), anchor="mm", bold=True)
    if hidden:
        _dashed_rect(d, leaf.inset(-2), PALETTE.highlight, width=1, dash=3)


def open_door(d: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int], vertical: bool, sign: int,
              floor: Color, color: Color) -> None:
    """An open door on the wall segment p-q: the wall cleared, two jambs, the leaf and its dashed swing."""
    sq = max(abs(q[0] - p[0]), abs(q[1] - p[1]))
    jamb = max(3, sq // 9)
    leaf_w = max(5, sq // 5)
    wall_w = _wall_width(sq)
    if vertical:
        x, y0, y1 = p[0], min(p[1], q[1]), max(p[1], q[1])
        d.rectangle([x - wall_w, y0 + 2, x + wall_w, y1 - 2], fill=floor)
        for y in (y0, y1):
            d.rectangle([x - wall_w, y - jamb // 2, x + wall_w, y + jamb // 2], fill=WALL)
        hinge, length = (x, y0 + jamb // 2), y1 - y0 - jamb
        tip = hinge[0] + sign * length
        d.rectangle([min(hinge[0], tip), hinge[1], max(hinge[0], tip), hinge[1] + leaf_w], fill=color, outline=WALL)
        start = 0 if sign > 0 else 90
    else:
        y, x0, x1 = p[1], min(p[0], q[0]), max(p[0], q[0])
        d.rectangle([x0 + 2, y - wall_w, x1 - 2, y + wall_w], fill=floor)
        for x in (x0, x1):
            d.rectangle([x - jamb // 2, y - wall_w, x + jamb // 2, y + wall_w], fill=WALL)
        hinge, length = (x0 + jamb // 2, y), x1 - x0 - jamb
        tip = hinge[1] + sign * length
        d.rectangle([hinge[0], min(hinge[1], tip), hinge[0] + leaf_w, max(hinge[1], tip)], fill=color, outline=WALL)
        start = 0 if sign > 0 else 270
    # the swing, dashed: short straight pieces (Pillow's arcs are slow)
    for a0 in range(start, start + 90, 15):
        a, b = math.radians(a0), math.radians(a0 + 8)
        d.line([(hinge[0] + length * math.cos(a), hinge[1] + length * math.sin(a)),
                (hinge[0] + length * math.cos(b), hinge[1] + length * math.sin(b))], fill=WALL, width=1)


def stairs_tile(d: ImageDraw.ImageDraw, box: Box, hidden: bool) -> None:
    inner = box.inset(2)  # the static walls stay visible around it
    d.rectangle(inner.rect, fill=kit.mix(STAIRS, ROOM, 0.4 if hidden else 0.0))
    for i in range(1, 6):
        y = box.y + i * box.h // 6
        d.line([(inner.x + 2, y), (inner.x2 - 3, y)], fill=kit.mix(STAIRS, PALETTE.ink, 0.6), width=2)


def blocked_tile(d: ImageDraw.ImageDraw, box: Box, hidden: bool) -> None:
    fill = kit.mix(BLOCKED, ROOM, 0.45) if hidden else BLOCKED
    d.rectangle(box.inset(2).rect, fill=fill)
    inner = box.inset(max(3, box.w // 5))
    d.line([(inner.x, inner.y), (inner.x2, inner.y2)], fill=PALETTE.muted, width=3)
    d.line([(inner.x, inner.y2), (inner.x2, inner.y)], fill=PALETTE.muted, width=3)


def trap_tile(d: ImageDraw.ImageDraw, box: Box, ref: str, hidden: bool) -> None:
    """A pit is a black hole ringed in trap yellow; a falling block is rubble; any other trap a warning sign."""
    inner = box.inset(max(2, box.w // 9))
    if ref in ROCK_REFS:
        d.rectangle(box.inset(2).rect, fill=kit.mix(BLOCKED, ROOM, 0.45) if hidden else BLOCKED)
        rubble = ((0.1, 0.9), (0.3, 0.15), (0.8, 0.3), (0.95, 0.85))
        d.polygon([(inner.x + inner.w * fx, inner.y + inner.h * fy) for fx, fy in rubble], fill=PALETTE.muted)
    elif ref in PIT_REFS:
        d.rectangle(inner.rect, fill=kit.mix(PIT, ROOM, 0.5) if hidden else PIT, outline=TRAP, width=3)
        d.rectangle(inner.inset(5).rect, outline=kit.mix(PIT, TRAP, 0.35), width=1)
    else:
        fill = kit.mix(TRAP, ROOM, 0.5) if hidden else TRAP
        d.polygon([(inner.x + inner.w / 2, inner.y), (inner.x2, inner.y2), (inner.x, inner.y2)], fill=fill,
                  outline=WALL)
        kit.text(d, (inner.x + inner.w / 2, inner.y2 - 2), "!", max(9, round(box.h * 0.42)), WALL, anchor="md",
                 bold=True)
    if hidden:
        _dashed_rect(d, box.inset(1), PALETTE.highlight)


def marker_tile(d: ImageDraw.ImageDraw, box: Box, label: str, hidden: bool) -> None:
    inner = box.inset(max(3, box.w // 4))
    d.ellipse(inner.rect, fill=kit.mix(MARKER, ROOM, 0.4 if hidden else 0.0), outline=WALL)
    kit.text(d, inner.center, label[:2], max(11, round(box.h * 0.3)), kit.ink_on(MARKER), anchor="mm", bold=True)


def furniture_tile(d: ImageDraw.ImageDraw, box: Box, hidden: bool) -> None:
    fill = kit.mix(FURNITURE, ROOM, 0.5) if hidden else FURNITURE
    d.rounded_rectangle(box.inset(2).rect, radius=4, fill=fill, outline=WALL, width=2)


# ---------------------------------------------------------------- legend


def _legend_items(lang: str, gm: bool, reach: bool,
                  keep: Callable[[str], bool] | None = None) -> list[tuple[str, Callable[[Canvas, Box], None]]]:
    """Every kind of thing the board draws, with a swatch drawn by the board's own code; `keep` (given the
    kind: "door", "pit", "active"...) picks some of them."""
    def floor(fill: Color) -> Callable[[Canvas, Box], None]:
        return lambda c, b: c.draw.rectangle(b.rect, fill=fill, outline=WALL)

    def on_floor(paint: Callable[[ImageDraw.ImageDraw, Box], None]) -> Callable[[Canvas, Box], None]:
        def swatch(c: Canvas, b: Box) -> None:
            c.draw.rectangle(b.rect, fill=ROOM, outline=GRID_LINE)
            paint(c.draw, b)
        return swatch

    def door(is_open: bool, secret: bool) -> Callable[[Canvas, Box], None]:
        def swatch(c: Canvas, b: Box) -> None:
            c.draw.rectangle(b.rect, fill=ROOM)
            x = b.x + b.w // 2
            if is_open:
                c.draw.rectangle([x - WALL_W // 2, b.y, x + WALL_W // 2, b.y2 - 1], fill=WALL)
                open_door(c.draw, (x, b.y), (x, b.y2 - 1), True, 1, ROOM, DOOR)
                return
            c.draw.rectangle([x - WALL_W // 2, b.y, x + WALL_W // 2, b.y2 - 1], fill=WALL)
            leaf = Box(x - 5, b.y + 2, 10, b.h - 4)
            color = SECRET if secret else DOOR
            c.draw.rectangle(leaf.rect, fill=color, outline=WALL)
            if secret:
                kit.text(c.draw, leaf.center, "S", 9, kit.ink_on(color), anchor="mm", bold=True)
        return swatch

    def piece(label: str, color: Color, shape: str) -> Callable[[Canvas, Box], None]:
        return lambda c, b: kit_board.swatch(c, b, kit_board.Piece((0, 0), label, color, shape))

    def mark(what: Any) -> Callable[[Canvas, Box], None]:
        return lambda c, b: kit_board.swatch(c, b, what)

    def unseen(c: Canvas, b: Box) -> None:
        c.draw.rectangle(b.rect, fill=UNSEEN, outline=PALETTE.line)

    def not_seen_yet(c: Canvas, b: Box) -> None:
        c.draw.rectangle(b.rect, fill=kit.mix(ROOM, NOT_SEEN_YET, 0.3), outline=WALL)
        _hatch(c.draw, b.inset(1), kit.mix(ROOM, NOT_SEEN_YET, 0.8), step=5)

    def hidden(c: Canvas, b: Box) -> None:
        c.draw.rectangle(b.rect, fill=kit.mix(MONSTER, ROOM, 0.5))
        _dashed_rect(c.draw, b, PALETTE.highlight, width=1, dash=3)

    def unused(c: Canvas, b: Box) -> None:
        c.draw.rectangle(b.rect, fill=UNUSED, outline=WALL)
        _hatch(c.draw, b.inset(1), kit.mix(UNUSED, kit_board.EDGE, 0.45), step=5)

    items: list[tuple[str, Callable[[Canvas, Box], None]]] = [
        ("hq.q.render.legend.hero", piece("He", HERO, "circle")),
        ("hq.q.render.legend.monster", piece("Mo", MONSTER, "octagon")),
        ("hq.q.render.legend.door", door(False, False)),
        ("hq.q.render.legend.open_door", door(True, False)),
        ("hq.q.render.legend.secret", door(False, True)),
        ("hq.q.render.legend.furniture", on_floor(lambda d, b: furniture_tile(d, b, False))),
        ("hq.q.render.legend.stairs", on_floor(lambda d, b: stairs_tile(d, b, False))),
        ("hq.q.render.legend.blocked", on_floor(lambda d, b: blocked_tile(d, b, False))),
        ("hq.q.render.legend.trap", on_floor(lambda d, b: trap_tile(d, b, "", False))),
        ("hq.q.render.legend.pit", on_floor(lambda d, b: trap_tile(d, b, "pit_trap", False))),
        ("hq.q.render.legend.rock", on_floor(lambda d, b: trap_tile(d, b, "falling_block", False))),
        ("hq.q.render.legend.corridor", floor(CORRIDOR)),
        ("hq.q.render.legend.room", floor(ROOM)),
    ]
    marks = kit_board.marks_legend(lang, reach=reach)
    items += [(f"board.{item.swatch}", mark(item.swatch)) for item in marks]
    labels = {f"board.{item.swatch}": item.label for item in marks}
    if gm:
        items += [("hq.q.render.legend.marker", on_floor(lambda d, b: marker_tile(d, b, "A", False))),
                  ("hq.q.render.legend.hidden", hidden),
                  ("hq.q.render.legend.not_seen_yet", not_seen_yet),
                  ("hq.q.render.legend.unused", unused)]
    else:
        items.append(("hq.q.render.legend.unseen", unseen))
    return [(labels.get(key) or _t(key, lang), paint) for key, paint in items
            if keep is None or keep(key.rsplit(".", 1)[-1])]


LegendEntry = tuple[str, Callable[[Canvas, Box], None]]


def _legend_rows(items: Sequence[LegendEntry], width: int, size: int) -> int:
    """How many rows `_legend` needs for `items` in `width` px."""
    sw, gap = round(size * 1.6), round(size * 1.1)
    x, rows = 0, 1 if items else 0
    for label, _ in items:
        w = sw + 6 + kit.text_width(label, size)
        if x > 0 and x + w > width:
            x, rows = 0, rows + 1
        x += w + gap
    return rows


def _legend(canvas: Canvas, items: Sequence[LegendEntry], area: Box, size: int) -> None:
    """Left to right in `area`, wrapping to new rows (as `renderers.board.legend` lays them out)."""
    sw = round(size * 1.6)
    gap = round(size * 1.1)
    row = sw + 6
    x, y = area.x, area.y
    for label, paint in items:
        w = sw + 6 + kit.text_width(label, size)
        if x > area.x and x + w > area.x2:
            x, y = area.x, y + row
        if y + sw > area.y2:
            break
        paint(canvas, Box(x, y, sw, sw))
        kit.text(canvas.draw, (x + sw + 6, y + sw / 2), label, size, PALETTE.muted, anchor="lm",
                 max_width=area.x2 - x - sw - 6)
        x += w + gap


def _panel_box() -> Box:
    return FULL.panel


def _panel(canvas: Canvas, view: dict[str, Any], lang: str) -> None:
    """The heroes' cards and the latest log lines, on the panel the static layer framed."""
    d = canvas.draw
    inner = _panel_box().inset(12)
    y = inner.y
    for h in _heroes(view):
        card_h = 118
        if y + card_h > inner.y2 - 140:
            break
        card = Box(inner.x, y, inner.w, card_h)
        dead = bool(h.get("dead"))
        d.rounded_rectangle(card.rect, radius=6, fill=PALETTE.panel_alt)
        token = Box(card.x + 8, card.y + 8, 30, 30)
        d.ellipse(token.rect, fill=PALETTE.neutral if dead else HERO, outline=PALETTE.ink, width=2)
        kit.text(d, token.center, figure_code(h.get("hero", "?"), lang), 12, PALETTE.ink, anchor="mm", bold=True)
        kit.text(d, (token.x2 + 8, token.y + 2), _hero_title(view, h, lang), 15,
                 PALETTE.muted if dead else PALETTE.ink, max_width=card.x2 - token.x2 - 16, bold=True)
        stats_y = token.y + 20
        _stat(d, Box(token.x2 + 8, stats_y, 120, 18), "heart", _t("hq.q.render.body", lang), h.get("body"),
              h.get("max_body"), PALETTE.health)
        _stat(d, Box(token.x2 + 136, stats_y, 130, 18), "star", _t("hq.q.render.mind", lang), h.get("mind"),
              h.get("max_mind"), PALETTE.info)
        kit.paragraph(d, Box(card.x + 10, token.y2 + 8, card.w - 20, card.y2 - token.y2 - 14), _equipment(h, lang),
                      12, PALETTE.muted, max_lines=3)
        y += card_h + 8
    log = [_lit(entry, lang) for entry in view.get("log", [])][-8:]
    if log:
        log_box = Box(inner.x, max(y, inner.y2 - 132), inner.w, min(132, inner.y2 - y))
        d.line([(log_box.x, log_box.y - 4), (log_box.x2, log_box.y - 4)], fill=PALETTE.line, width=1)
        lines: list[str] = []
        for entry in log:
            lines.extend(kit.wrap(entry, 12, log_box.w))
        lh = kit.line_height(12) + 1
        fit = max(0, (log_box.h - 4) // lh)
        for i, line in enumerate(lines[-fit:] if fit else []):
            kit.text(d, (log_box.x, log_box.y + 2 + i * lh), line, 12, PALETTE.muted, max_width=log_box.w)


def _heroes(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return sorted(view.get("heroes", []), key=lambda h: (h.get("seat", 0), h.get("uid", "")))


def _hero_title(view: Mapping[str, Any], h: Mapping[str, Any], lang: str) -> str:
    title = f"{_lit(h.get('name'), lang) or ref_name(h.get('hero', ''), lang)} · {_player(view, h)}".strip(" ·")
    if h.get("dead"):
        title += f" ({_t('hq.q.render.dead', lang)})"
    return title


def _equipment(h: Mapping[str, Any], lang: str) -> str:
    """The hero's equipment by name; no equipment reads as such, never as a lone dash. A hero waiting at the
    Door In (off the board) says so first."""
    gear = ", ".join(_item(str(e), lang) for e in h.get("equipment", [])) or _t("hq.render.phone.no_equipment", lang)
    return f"{_t('hq.render.at_door_in', lang)} · {gear}" if h.get("outside") else gear


def _player(view: Mapping[str, Any], h: Mapping[str, Any]) -> str:
    """The name of the player who plays this hero (`names` is added by the bot), else nothing."""
    names = view.get("names") or []
    seat = h.get("seat")
    return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _item(item: str, lang: str) -> str:
    entry = catalog.equipment().get(item)
    return _lit(entry["name"], lang) if entry else item.replace("_", " ")


def _stat(d: ImageDraw.ImageDraw, box: Box, icon: str, label: str, value: Any, top: Any, color: Color,
          size: int = 13) -> None:
    side = round(size * 1.2)
    kit.icon(d, icon, Box(box.x, box.y + 1, side, side), color)
    shown = f"{value}/{top}" if isinstance(top, int) else f"{value}"
    kit.text(d, (box.x + side + 4, box.y), f"{label} {shown}", size, PALETTE.ink, max_width=box.w - side - 4)


def _header(canvas: Canvas, view: dict[str, Any], lang: str) -> None:
    d = canvas.draw
    name = _lit((view.get("quest") or {}).get("name"), lang)
    viewer = view.get("viewer", "spectator")
    tag = _t(f"hq.q.render.viewer.{viewer}", lang) if viewer in ("gm", "hero", "spectator") else ""
    kit.text(d, (MARGIN, 12), name, 22, PALETTE.ink, max_width=BOARD_W - 260, bold=True)
    turn = _lit((view.get("turn") or {}).get("label"), lang)
    right = " · ".join(p for p in (turn, tag) if p)
    kit.text(
        d,
        (WIDTH - MARGIN, 16),
        right,
        16,
        PALETTE.highlight if viewer == "gm" else PALETTE.muted,
        anchor="ra",
        max_width=PANEL_W + 240,
    )


def render(view: dict[str, Any], lang: str) -> bytes:
    """PNG bytes of a HeroQuest view (see the module docstring for the view's shape)."""
    gm = view.get("viewer") == "gm"
    lang = lang if lang in i18n.LANGS else i18n.DEFAULT
    if not gm:
        return _render_phone(view, lang)
    unused = frozenset((int(s[0]), int(s[1])) for s in view.get("unused", []))
    base = (unused, lang, gm, bool(view.get("reach")))
    canvas = Canvas.from_image(_base(*base).copy())
    _header(canvas, view, lang)
    _Board(canvas, view, lang).draw(base)
    _panel(canvas, view, lang)
    return canvas.png()


# ---------------------------------------------------------------- the players' image, laid out for a phone

_PHONE_LEGEND = 20
_PHONE_LEGEND_ROW = round(_PHONE_LEGEND * 1.6) + 6
_PHONE_CARD_H = 108
_PHONE_LOG = 20
_PHONE_LOG_LH = kit.line_height(_PHONE_LOG) + 2
_PHONE_LOG_LINES = 3


def layout(view: Mapping[str, Any], lang: str = "en") -> Layout:
    """Where `render` puts the board of this view: the whole board for the game master, else the crop."""
    if view.get("viewer") == "gm":
        return FULL
    return _phone_layout_for(view, lang, _phone_legend(view, lang))


def _phone_layout_for(view: Mapping[str, Any], lang: str, items: Sequence[LegendEntry]) -> Layout:
    rows = _legend_rows(items, PHONE_W - 2 * PHONE_MARGIN, _PHONE_LEGEND)
    return _phone_layout(crop(view), rows, len(_heroes(view)), len(_log_lines(view, lang)))


def _phone_legend(view: Mapping[str, Any], lang: str) -> list[LegendEntry]:
    """The legend of the players' image: only what this image shows, and each kind of monster by its code."""
    window = crop(view)
    grid = kit_board.SquareGrid(window[3], window[2], 8, 0, 0, window[1], window[0])
    revealed = {(int(s[0]), int(s[1])) for s in view.get("revealed", [])}

    def inside(squares: Iterable[Sequence[int]]) -> bool:
        return any(grid.contains((int(q[0]), int(q[1]))) for q in squares)

    present: set[str] = {"unseen"} if len(revealed) < grid.rows * grid.cols else set()
    for door in view.get("doors", []):
        a, b = ((int(q[0]), int(q[1])) for q in door["between"])
        if (a in revealed or b in revealed) and grid.contains(a) and grid.contains(b):
            if door.get("open") or not door.get("secret"):
                present.add("open_door" if door.get("open") else "door")
            if door.get("secret"):  # drawn in the secret door's colour, open or shut
                present.add("secret")
    for obj in view.get("objects", []):
        if not inside(obj.get("squares") or []):
            continue
        kind, ref = obj.get("kind"), obj.get("ref", "")
        if kind == "trap":
            present.add("pit" if ref in PIT_REFS else "rock" if ref in ROCK_REFS else "trap")
        elif kind in ("stairs", "blocked"):
            present.add(str(kind))
        elif kind not in ("door", "secret_door", "hero_start", "marker"):
            present.add("furniture")
    acting = (view.get("turn") or {}).get("hero")
    heroes = view.get("heroes", [])
    if any(h.get("uid") == acting and h.get("square") is not None and not h.get("dead") for h in heroes):
        present.add("active")
    if view.get("reach"):
        present.add("reach")
    items = _legend_items(lang, False, bool(view.get("reach")), keep=present.__contains__)
    seen_refs: list[str] = []
    for m in view.get("monsters", []):
        ref = str(m.get("ref", "?"))
        if m.get("square") is not None and inside([m["square"]]) and ref not in seen_refs:
            seen_refs.append(ref)
    monsters = [(ref_name(ref, lang), _token_swatch(figure_code(ref, lang), MONSTER, "octagon")) for ref in seen_refs]
    return monsters + items


def _token_swatch(code: str, color: Color, shape: str) -> Callable[[Canvas, Box], None]:
    return lambda c, b: kit_board.swatch(c, b, kit_board.Piece((0, 0), code, color, shape))


def _log_lines(view: Mapping[str, Any], lang: str) -> list[str]:
    """The last lines of the log, wrapped to the phone's width."""
    lines: list[str] = []
    for entry in [_lit(e, lang) for e in view.get("log", [])][-_PHONE_LOG_LINES:]:
        lines.extend(kit.wrap(entry, _PHONE_LOG, PHONE_W - 2 * PHONE_MARGIN - 24))
    return lines[-_PHONE_LOG_LINES:]


def _render_phone(view: dict[str, Any], lang: str) -> bytes:
    """The players' image: a header, the board cropped to what the heroes have seen, the legend of what it
    shows, and the heroes two to a row under it, all sized to read at Discord's phone width."""
    items = _phone_legend(view, lang)
    where = _phone_layout_for(view, lang, items)
    base = (frozenset[tuple[int, int]](), lang, False, bool(view.get("reach")), where)
    canvas = Canvas.from_image(_base(*base).copy())
    _phone_header(canvas, view, lang)
    _Board(canvas, view, lang, where).draw(base[:4])
    _legend(canvas, items, where.legend, _PHONE_LEGEND)
    _phone_panel(canvas, view, lang, where)
    return canvas.png()


def _phone_header(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    d = canvas.draw
    width = PHONE_W - 2 * PHONE_MARGIN
    kit.text(d, (PHONE_MARGIN, 10), _lit((view.get("quest") or {}).get("name"), lang), 32, PALETTE.ink,
             max_width=width, bold=True)
    viewer = view.get("viewer", "spectator")
    tag = _t(f"hq.q.render.viewer.{viewer}", lang) if viewer in ("hero", "spectator") else ""
    turn = _lit((view.get("turn") or {}).get("label"), lang)
    kit.text(d, (PHONE_MARGIN, 54), " · ".join(p for p in (turn, tag) if p), 24, PALETTE.muted, max_width=width)


def _phone_panel(canvas: Canvas, view: Mapping[str, Any], lang: str, where: Layout) -> None:
    """Each hero as a card, two to a row (token, name and player, Body and Mind, equipment), then the log."""
    d = canvas.draw
    panel = where.panel
    d.rounded_rectangle(panel.rect, radius=10, fill=PALETTE.panel)
    inner = panel.inset(10)
    col_w = (inner.w - 10) // 2
    for i, h in enumerate(_heroes(view)):
        card = Box(inner.x + (i % 2) * (col_w + 10), inner.y + (i // 2) * (_PHONE_CARD_H + 10), col_w, _PHONE_CARD_H)
        dead = bool(h.get("dead"))
        d.rounded_rectangle(card.rect, radius=8, fill=PALETTE.panel_alt)
        token = Box(card.x + 8, card.y + 10, 46, 46)
        kit_board.draw_piece(canvas, token, kit_board.Piece((0, 0), figure_code(str(h.get("hero", "?")), lang),
                                                            HERO, "circle", faded=dead))
        text_x = token.x2 + 10
        kit.text(d, (text_x, card.y + 8), _hero_title(view, h, lang), 22, PALETTE.muted if dead else PALETTE.ink,
                 max_width=card.x2 - text_x - 8, bold=True)
        half = (card.x2 - text_x - 8) // 2
        _stat(d, Box(text_x, card.y + 40, half, 24), "heart", _t("hq.q.render.body", lang), h.get("body"),
              h.get("max_body"), PALETTE.health, size=20)
        _stat(d, Box(text_x + half, card.y + 40, half, 24), "star", _t("hq.q.render.mind", lang), h.get("mind"),
              h.get("max_mind"), PALETTE.info, size=20)
        kit.text(d, (card.x + 10, card.y + 74), _equipment(h, lang), 19, PALETTE.muted, max_width=card.w - 20)
    lines = _log_lines(view, lang)
    if lines:
        y = inner.y + ((len(_heroes(view)) + 1) // 2) * (_PHONE_CARD_H + 10) + 4
        d.line([(inner.x, y), (inner.x2, y)], fill=PALETTE.line, width=2)
        for i, line in enumerate(lines):
            kit.text(d, (inner.x + 4, y + 8 + i * _PHONE_LOG_LH), line, _PHONE_LOG, PALETTE.muted,
                     max_width=inner.w - 8)


# ---------------------------------------------------------------- previews


def quest_view(quest: Any, viewer: str = "gm", revealed: Iterable[Sequence[int]] | None = None) -> dict[str, Any]:
    """A render view of a `Quest` at its start: the heroes on the start squares, nothing opened.

    For viewer "gm" every object is shown (those outside the starting area marked hidden); for the
    players only what `revealed` (default: the starting area) holds.
    """
    from rules.heroquest.quest import HERO_ORDER

    seen = {tuple(s) for s in revealed} if revealed is not None else initial_revealed(quest.start)
    seen -= set(quest.dark)
    gm = viewer == "gm"

    def visible(squares: Iterable[Sequence[int]]) -> bool:
        return any(tuple(s) in seen for s in squares)

    doors, objects, monsters = [], [], []
    for o in quest.objects:
        shown = visible(o.squares)
        if o.kind in ("door", "secret_door"):
            known = o.kind == "door" and shown
            if gm or known:
                doors.append(
                    {
                        "uid": o.uid,
                        "between": [list(s) for s in o.between],
                        "open": o.ref == "open_door",
                        "secret": o.kind == "secret_door",
                        "hidden": not known,
                    }
                )
        elif o.kind == "monster":
            if gm or shown:
                monsters.append(
                    {
                        "uid": o.uid,
                        "ref": o.ref,
                        "square": list(o.squares[0]),
                        "body": None,
                        "max_body": None,
                        "hidden": not shown,
                    }
                )
        elif (o.kind in ("furniture", "stairs", "blocked", "treasure") and (gm or shown)) or (
            o.kind in ("trap", "marker") and gm
        ):
            hidden = not shown or o.kind in ("trap", "marker")
            objects.append(
                {
                    "uid": o.uid,
                    "kind": o.kind,
                    "ref": o.ref,
                    "squares": [list(s) for s in o.squares],
                    "rotation": o.rotation,
                    "hidden": hidden,
                    "note": o.note,
                }
            )
    heroes = []
    for i, sq in enumerate(quest.start[:4]):
        hero = HERO_ORDER[i]
        heroes.append(
            {
                "uid": hero,
                "hero": hero,
                "name": "",
                "square": list(sq),
                "body": 8,
                "max_body": 8,
                "mind": 2,
                "max_mind": 2,
                "equipment": [],
                "dead": False,
                "seat": i + 1,
            }
        )
    return {
        "viewer": viewer,
        "quest": {"name": {"es": quest.name.es, "en": quest.name.en}},
        "revealed": [list(s) for s in sorted(set(board.all_squares()) - set(quest.dark) if gm else seen)],
        "unused": [list(s) for s in sorted(quest.dark)],
        **({"player_revealed": [list(s) for s in sorted(seen)]} if gm else {}),
        "doors": doors,
        "objects": objects,
        "heroes": heroes,
        "monsters": monsters,
        "turn": {"label": {"es": "Preparación", "en": "Setup"}},
        "log": [],
    }
