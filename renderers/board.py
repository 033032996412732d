"""Square and hex boards for renderers: labelled grids, a cached static layer, pieces and overlays.

A game renderer describes its board as plain data and gets a PIL image (or PNG bytes) back:

    GRID = board.SquareGrid(cols=30, rows=30, cell=34, x=12, y=52)
    spec = board.StaticSpec(GRID, cells={(r, c): TERRAIN[kind] for ...}, default=TERRAIN["plain"],
                            size=(1500, 1140))            # room for the game's own header and panel
    layers = board.Layers(pieces=(board.Piece((4, 7), "AR", color, badge="80/100", active=True), ...),
                          reach=cells_the_viewer_may_move_to, arrows=(board.Arrow(last_path),))
    canvas = board.render(spec, layers)                   # a kit.Canvas: a copy of the static layer
    kit.text(canvas.draw, ...)                            # the game's header, side panel, legend
    return canvas.png()

The static layer (background, terrain, walls, blocks, the grid and its coordinate labels) is drawn
once per distinct `StaticSpec` and kept in a bounded cache (`STATIC_CACHE_SIZE` entries); every
call draws the dynamic layers on a copy, so the cached image is never touched. A `StaticSpec` is its
own cache key: two equal specs share one image, a changed map gets a new one.

Coordinates come from `rules.coords`, the codec every command and message uses: square boards print
column letters on the top and bottom edges and row numbers on the left and right; hex maps print
each hex's label inside it. Cells are the engine's own numbers: `(row, col)` from 0 on a square
board, axial `(q, r)` on a hex map.

Nothing here reads by colour alone: the acting piece gets a framed cell and a white-edged token,
cells a piece can reach get a white dot with a dark rim as well as a tint, piece shapes tell sides
apart, and each terrain can carry a glyph. Labels are finished strings: a renderer resolves its
message keys with `i18n` for the viewer's language before building the spec (`marks_legend` does it
for this module's own marks).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Protocol, cast

from PIL import Image, ImageDraw

import i18n
from renderers import kit
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules import coords

Cell = tuple[int, int]
Point = tuple[float, float]

#: How many static layers are kept (each is one RGB image, about 4 MB at 1200×1200).
STATIC_CACHE_SIZE = 16

REACH: Color = OKABE_ITO["sky_blue"]
ACTIVE: Color = PALETTE.highlight
EDGE: Color = (0x11, 0x11, 0x11)  # the dark rim around tokens, dots and highlights
SHAPES = ("circle", "square", "octagon", "diamond", "hexagon", "triangle")

_SS = 4  # shapes are drawn 4× larger, then shrunk, for smooth edges


# ---------------------------------------------------------------- geometry


class Grid(Protocol):
    """What the drawing code needs from a board's geometry."""

    @property
    def box(self) -> Box: ...
    @property
    def cell_px(self) -> int: ...
    def cells(self) -> tuple[Cell, ...]: ...
    def contains(self, cell: Cell) -> bool: ...
    def center(self, cell: Cell) -> tuple[int, int]: ...
    def outline(self, cell: Cell) -> list[tuple[int, int]]: ...
    def cell_box(self, cell: Cell) -> Box: ...
    def sides(self, cell: Cell) -> list[tuple[Cell, tuple[int, int], tuple[int, int]]]: ...
    def token_box(self, cell: Cell) -> Box: ...
    def name(self, cell: Cell) -> str: ...
    def parse(self, text: str) -> Cell | None: ...
    def draw_labels(self, canvas: Canvas, spec: StaticSpec) -> None: ...


def _label_size(cell_px: int) -> int:
    return max(12, min(20, round(cell_px * 0.42)))


@dataclass(frozen=True)
class SquareGrid:
    """A `cols`×`rows` square board whose labelled frame has its top-left corner at `(x, y)`;
    `cell` px per square. The label band around the squares is `band` px on every side.

    A window on a larger board (a crop) starts at column `col0` and row `row0`: its cells keep the
    big board's numbers and its edges print their real names (`col0=3` prints D first). `label_px`
    sets the edge labels' size (0: from the cell size), and the band grows to fit them."""

    cols: int
    rows: int
    cell: int = 36
    x: int = 0
    y: int = 0
    col0: int = 0
    row0: int = 0
    label_px: int = 0

    def __post_init__(self) -> None:
        if self.cols < 1 or self.rows < 1 or self.cell < 8:
            raise ValueError(f"bad board size {self.cols}x{self.rows} at {self.cell} px")
        if self.col0 < 0 or self.row0 < 0:
            raise ValueError(f"a window cannot start before the board: column {self.col0}, row {self.row0}")

    @classmethod
    def fit(cls, cols: int, rows: int, max_width: int, max_height: int | None = None, x: int = 0,
            y: int = 0, *, col0: int = 0, row0: int = 0, label_px: int = 0, max_cell: int = 64) -> SquareGrid:
        """The largest cells (at most `max_cell` px) that fit the labelled board in `max_width`×`max_height`."""
        for cell in range(max(8, max_cell), 7, -1):
            g = cls(cols, rows, cell, x, y, col0, row0, label_px)
            if g.width <= max_width and (max_height is None or g.height <= max_height):
                return g
        return cls(cols, rows, 8, x, y, col0, row0, label_px)

    @property
    def band(self) -> int:
        # wide enough for a two-digit row number at the label size, beside the squares
        return max(18, round(self.cell * 0.62), round(self.label_px * 1.45))

    @property
    def cell_px(self) -> int:
        return self.cell

    @property
    def left(self) -> int:
        return self.x + self.band

    @property
    def top(self) -> int:
        return self.y + self.band

    @property
    def width(self) -> int:
        return self.cols * self.cell + 2 * self.band

    @property
    def height(self) -> int:
        return self.rows * self.cell + 2 * self.band

    @property
    def box(self) -> Box:
        return Box(self.x, self.y, self.width, self.height)

    @property
    def field(self) -> Box:
        """The squares alone, without the label band."""
        return Box(self.left, self.top, self.cols * self.cell, self.rows * self.cell)

    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.row0, self.row0 + self.rows)
                     for c in range(self.col0, self.col0 + self.cols))

    def contains(self, cell: Cell) -> bool:
        return self.row0 <= cell[0] < self.row0 + self.rows and self.col0 <= cell[1] < self.col0 + self.cols

    def cell_box(self, cell: Cell) -> Box:
        r, c = cell[0] - self.row0, cell[1] - self.col0
        return Box(self.left + c * self.cell, self.top + r * self.cell, self.cell, self.cell)

    def center(self, cell: Cell) -> tuple[int, int]:
        return self.cell_box(cell).center

    def outline(self, cell: Cell) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = self.cell_box(cell).rect
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def sides(self, cell: Cell) -> list[tuple[Cell, tuple[int, int], tuple[int, int]]]:
        """Each side of a cell as (the cell across it, one end, the other end)."""
        r, c = cell
        b = self.cell_box(cell)
        tl, tr, br, bl = (b.x, b.y), (b.x2, b.y), (b.x2, b.y2), (b.x, b.y2)
        return [((r - 1, c), tl, tr), ((r, c + 1), tr, br), ((r + 1, c), br, bl), ((r, c - 1), bl, tl)]

    def token_box(self, cell: Cell) -> Box:
        return self.cell_box(cell).inset(max(1, round(self.cell * 0.07)))

    def name(self, cell: Cell) -> str:
        return coords.name(*cell)

    def parse(self, text: str) -> Cell | None:
        found = coords.parse(text, self.col0 + self.cols, self.row0 + self.rows)
        return found if found is not None and self.contains(found) else None

    def draw_labels(self, canvas: Canvas, spec: StaticSpec) -> None:
        size = self.label_px or _label_size(self.cell)
        f = self.field
        # each band less the frame line's pixel, so the labels sit alike on opposite edges
        mid = (self.band - 1) / 2
        for c in range(self.cols):
            label = coords.column_name(self.col0 + c)
            cx = f.x + c * self.cell + self.cell / 2
            for cy in (self.y + mid, f.y2 + 1 + mid):
                kit.text(canvas.draw, (cx, cy), label, size, spec.label_color, anchor="mm", bold=True)
        for r in range(self.rows):
            label = str(self.row0 + r + 1)
            cy = f.y + r * self.cell + self.cell / 2
            for cx in (self.x + mid, f.x2 + 1 + mid):
                kit.text(canvas.draw, (cx, cy), label, size, spec.label_color, anchor="mm", bold=True)


# pointy-top corners, clockwise from the top, and the axial step to the hex across each side
_HEX_CORNERS = tuple((math.cos(math.radians(-90 + 60 * i)), math.sin(math.radians(-90 + 60 * i))) for i in range(6))
_HEX_ACROSS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # across side (corner i, corner i+1)


@dataclass(frozen=True)
class HexGrid:
    """A map of pointy-top hexes (axial `(q, r)`, north is negative r, as in `rules.coords`); `size`
    is the centre-to-corner radius in px and `(x, y)` the top-left of the map's bounding box."""

    hexes: frozenset[Cell]
    size: int = 30
    x: int = 0
    y: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", frozenset((int(q), int(r)) for q, r in self.hexes))
        if not self.hexes or self.size < 8:
            raise ValueError("a hex map needs hexes and a size of at least 8 px")

    @cached_property
    def codec(self) -> coords.HexCodec:
        return coords.HexCodec(self.hexes)

    @cached_property
    def _frame(self) -> tuple[float, float, int, int]:
        # x of each centre in half-widths is 2q + r; y in rows is r
        xs = [2 * q + r for q, r in self.hexes]
        rs = [r for _, r in self.hexes]
        half_w, pad = self.size * math.sqrt(3) / 2, self.pad
        x0 = self.x + pad + half_w - min(xs) * half_w
        y0 = self.y + pad + self.size - min(rs) * self.size * 1.5
        w = round((max(xs) - min(xs)) * half_w + 2 * half_w + 2 * pad)
        h = round((max(rs) - min(rs)) * self.size * 1.5 + 2 * self.size + 2 * pad)
        return x0, y0, w, h

    @cached_property
    def _corners(self) -> tuple[tuple[int, int], ...]:
        return tuple((round(cx * self.size), round(cy * self.size)) for cx, cy in _HEX_CORNERS)

    @property
    def pad(self) -> int:
        return max(4, round(self.size * 0.15))

    @property
    def cell_px(self) -> int:
        """The hex's width, flat side to flat side."""
        return round(self.size * math.sqrt(3))

    @property
    def width(self) -> int:
        return self._frame[2]

    @property
    def height(self) -> int:
        return self._frame[3]

    @property
    def box(self) -> Box:
        return Box(self.x, self.y, self.width, self.height)

    def cells(self) -> tuple[Cell, ...]:
        return self._cells

    @cached_property
    def _cells(self) -> tuple[Cell, ...]:
        return tuple(sorted(self.hexes, key=lambda h: (h[1], h[0])))

    def contains(self, cell: Cell) -> bool:
        return cell in self.hexes

    def center(self, cell: Cell) -> tuple[int, int]:
        q, r = cell
        x0, y0, _, _ = self._frame
        # whole pixels, so every hex has the same outline and the same cached masks
        return round(x0 + (2 * q + r) * self.size * math.sqrt(3) / 2), round(y0 + r * self.size * 1.5)

    def outline(self, cell: Cell) -> list[tuple[int, int]]:
        cx, cy = self.center(cell)
        return [(cx + dx, cy + dy) for dx, dy in self._corners]

    def cell_box(self, cell: Cell) -> Box:
        pts = self.outline(cell)
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        return Box(x0, y0, max(p[0] for p in pts) - x0 + 1, max(p[1] for p in pts) - y0 + 1)

    def sides(self, cell: Cell) -> list[tuple[Cell, tuple[int, int], tuple[int, int]]]:
        q, r = cell
        pts = self.outline(cell)
        return [((q + dq, r + dr), pts[i], pts[(i + 1) % 6]) for i, (dq, dr) in enumerate(_HEX_ACROSS)]

    def token_box(self, cell: Cell) -> Box:
        # below the hex's own label, which stays readable above the token
        cx, cy = self.center(cell)
        d = round(self.size * 1.08)
        return Box(cx - d // 2, cy + round(self.size * 0.2) - d // 2, d, d)

    def label_y(self, cell: Cell) -> float:
        return self.center(cell)[1] - self.size * 0.5

    def name(self, cell: Cell) -> str:
        return self.codec.name(*cell)

    def parse(self, text: str) -> Cell | None:
        return self.codec.parse(text)

    def draw_labels(self, canvas: Canvas, spec: StaticSpec) -> None:
        size = max(10, min(18, round(self.size * 0.36)))
        terrain = spec.terrain()
        for cell in self.cells():
            fill = terrain.get(cell, spec.default).fill
            ink = kit.mix(fill, kit.ink_on(fill), 0.8)
            kit.text(canvas.draw, (self.center(cell)[0], self.label_y(cell)), self.name(cell), size, ink,
                     anchor="mm", bold=True)


# ---------------------------------------------------------------- the static layer


@dataclass(frozen=True)
class Terrain:
    """How one kind of cell looks: a fill, and a glyph (a `kit` icon name) so it reads without
    colour; `hatch` adds diagonal lines (for cells out of play)."""

    fill: Color
    glyph: str | None = None
    glyph_color: Color | None = None
    hatch: bool = False


@dataclass(frozen=True)
class Block:
    """A feature drawn over several cells of the static layer (a great tree, a tower, a room name):
    a rounded plate over their bounding box (square boards) or over each hex, with a finished label."""

    cells: tuple[Cell, ...]
    fill: Color
    label: str = ""
    icon: str | None = None


@dataclass(frozen=True)
class StaticSpec:
    """Everything in the static layer; equal specs share one cached image. `cells` gives the terrain
    of the cells that are not `default` (a mapping is accepted and stored sorted); `walls` are pairs
    of neighbouring cells with a wall between them; `size` is the whole image (default: the board
    with its own x, y as margins)."""

    grid: SquareGrid | HexGrid
    cells: tuple[tuple[Cell, Terrain], ...] | Mapping[Cell, Terrain] = ()
    default: Terrain = Terrain((0xB4, 0xB7, 0xBE))
    walls: tuple[tuple[Cell, Cell], ...] = ()
    blocks: tuple[Block, ...] = ()
    size: tuple[int, int] | None = None
    background: Color = PALETTE.background
    line: Color = (0x5A, 0x5E, 0x6B)
    wall: Color = (0x15, 0x15, 0x18)
    label_color: Color = PALETTE.ink

    def __post_init__(self) -> None:
        cells = self.cells.items() if isinstance(self.cells, Mapping) else self.cells
        normal = tuple(sorted(((tuple(c), t) for c, t in cells), key=lambda ct: ct[0]))
        for cell, _ in normal:
            if not self.grid.contains(cell):  # type: ignore[arg-type]
                raise ValueError(f"terrain for {cell}, which is not on the board")
        object.__setattr__(self, "cells", normal)
        object.__setattr__(self, "walls", tuple((tuple(a), tuple(b)) for a, b in self.walls))

    def terrain(self) -> dict[Cell, Terrain]:
        """The cells whose terrain is not the default."""
        return dict(cast(tuple[tuple[Cell, Terrain], ...], self.cells))

    @property
    def image_size(self) -> tuple[int, int]:
        g = self.grid
        return self.size or (g.x + g.width + g.x, g.y + g.height + g.y)


def static_image(spec: StaticSpec) -> Image.Image:
    """The static layer of `spec`, from the cache when it is there (shared: never draw on it)."""
    return _static(spec)


@lru_cache(maxsize=STATIC_CACHE_SIZE)
def _static(spec: StaticSpec) -> Image.Image:
    canvas = Canvas(*spec.image_size, bg=spec.background)
    grid = spec.grid
    terrain = spec.terrain()
    d = canvas.draw
    if isinstance(grid, SquareGrid):
        d.rectangle(grid.field.rect, fill=spec.default.fill)
    for cell in grid.cells():
        t = terrain.get(cell, spec.default)
        if isinstance(grid, HexGrid):
            d.polygon(grid.outline(cell), fill=t.fill)
        elif t is not spec.default:
            d.rectangle(grid.cell_box(cell).rect, fill=t.fill)
        if t.hatch:
            _paste_cell(canvas, grid, cell, kit.mix(t.fill, EDGE, 0.45), _hatch_mask(grid, 255))
        if t.glyph:
            _glyph(canvas, grid, cell, t)
    _grid_lines(canvas, grid, spec)
    for a, b in spec.walls:
        seg = _shared_side(grid, a, b)
        d.line(seg, fill=spec.wall, width=max(3, round(grid.cell_px * 0.12)))
    for block in spec.blocks:
        _block(canvas, grid, block)
    grid.draw_labels(canvas, spec)
    return canvas.image


def _grid_lines(canvas: Canvas, grid: Grid, spec: StaticSpec) -> None:
    d = canvas.draw
    if isinstance(grid, SquareGrid):
        f = grid.field
        for c in range(grid.cols + 1):
            x = min(f.x + c * grid.cell, f.x2 - 1)
            d.line([(x, f.y), (x, f.y2 - 1)], fill=spec.line, width=1)
        for r in range(grid.rows + 1):
            y = min(f.y + r * grid.cell, f.y2 - 1)
            d.line([(f.x, y), (f.x2 - 1, y)], fill=spec.line, width=1)
        d.rectangle(f.inset(-1).rect, outline=spec.line, width=1)
        return
    for cell in grid.cells():
        pts = grid.outline(cell)
        d.line([*pts, pts[0]], fill=spec.line, width=max(1, round(grid.cell_px / 40)))


def _shared_side(grid: Grid, a: Cell, b: Cell) -> list[tuple[int, int]]:
    for across, p, q in grid.sides(a):
        if across == tuple(b):
            return [p, q]
    raise ValueError(f"{a} and {b} are not neighbours")


def _glyph(canvas: Canvas, grid: Grid, cell: Cell, t: Terrain) -> None:
    box = grid.token_box(cell)
    side = round(box.w * 0.5)
    # in a corner, so a piece on the cell leaves it visible
    gb = Box(box.x2 - side, box.y2 - side, side, side) if isinstance(grid, SquareGrid) else box.centered(side, side)
    glyph(canvas.draw, t.glyph or "", gb, _glyph_color(t))


def _glyph_color(t: Terrain) -> Color:
    return t.glyph_color or kit.mix(t.fill, kit.ink_on(t.fill), 0.5)


def _block(canvas: Canvas, grid: Grid, block: Block) -> None:
    if not block.cells:
        return
    d = canvas.draw
    if isinstance(grid, SquareGrid):
        rs = [c[0] for c in block.cells]
        cs = [c[1] for c in block.cells]
        a, b = grid.cell_box((min(rs), min(cs))), grid.cell_box((max(rs), max(cs)))
        area = Box(a.x, a.y, b.x2 - a.x, b.y2 - a.y).inset(max(2, grid.cell // 12))
        d.rounded_rectangle(area.rect, radius=max(4, grid.cell // 5), fill=block.fill, outline=EDGE, width=2)
    else:
        for cell in block.cells:
            d.polygon(grid.outline(cell), fill=block.fill, outline=EDGE)
        boxes = [grid.cell_box(c) for c in block.cells]
        area = Box(min(b.x for b in boxes), min(b.y for b in boxes), 0, 0)
        area = Box(area.x, area.y, max(b.x2 for b in boxes) - area.x, max(b.y2 for b in boxes) - area.y)
        area = area.inset(grid.cell_px // 4)
    ink = kit.ink_on(block.fill)
    if block.icon:
        side = min(area.w, area.h, grid.cell_px * 2) // (2 if block.label else 1)
        top = area.y + (area.h - side) // 2 - (side // 3 if block.label else 0)
        glyph(d, block.icon, Box(area.x + (area.w - side) // 2, top, side, side), ink)
    if block.label:
        size = max(11, min(18, grid.cell_px // 3))
        lines = kit.wrap(block.label, size, max(1, area.w - 6))[:3]
        lh = kit.line_height(size)
        y = area.y + area.h / 2 - lh * len(lines) / 2 + (area.h // 5 if block.icon else 0)
        for line in lines:
            kit.text(d, (area.x + area.w / 2, y), line, size, ink, anchor="ma", max_width=area.w - 4, bold=True)
            y += lh


# ---------------------------------------------------------------- terrain glyphs


def _paint_tree(d: ImageDraw.ImageDraw, n: float) -> None:
    d.polygon([(0.5 * n, 0.04 * n), (0.86 * n, 0.5 * n), (0.14 * n, 0.5 * n)], fill=255)
    d.polygon([(0.5 * n, 0.26 * n), (0.94 * n, 0.78 * n), (0.06 * n, 0.78 * n)], fill=255)
    d.rectangle([0.42 * n, 0.74 * n, 0.58 * n, 0.96 * n], fill=255)


def _paint_mountain(d: ImageDraw.ImageDraw, n: float) -> None:
    d.polygon([(0.36 * n, 0.14 * n), (0.72 * n, 0.9 * n), (0.0, 0.9 * n)], fill=255)
    d.polygon([(0.7 * n, 0.36 * n), (1.0 * n, 0.9 * n), (0.44 * n, 0.9 * n)], fill=255)
    d.polygon([(0.36 * n, 0.14 * n), (0.46 * n, 0.36 * n), (0.26 * n, 0.36 * n)], fill=0)  # snow cap


def _paint_waves(d: ImageDraw.ImageDraw, n: float) -> None:
    for y in (0.3, 0.55, 0.8):
        pts = [(n * (0.04 + 0.92 * i / 24), n * (y - 0.08 * math.sin(i / 24 * 4 * math.pi))) for i in range(25)]
        d.line(pts, fill=255, width=max(1, round(n * 0.09)), joint="curve")


def _paint_cross(d: ImageDraw.ImageDraw, n: float) -> None:
    d.rectangle([0.36 * n, 0.08 * n, 0.64 * n, 0.92 * n], fill=255)
    d.rectangle([0.08 * n, 0.36 * n, 0.92 * n, 0.64 * n], fill=255)


def _paint_chest(d: ImageDraw.ImageDraw, n: float) -> None:
    d.rounded_rectangle([0.06 * n, 0.2 * n, 0.94 * n, 0.5 * n], radius=0.14 * n, fill=255)
    d.rectangle([0.06 * n, 0.44 * n, 0.94 * n, 0.88 * n], fill=255)
    d.rectangle([0.06 * n, 0.44 * n, 0.94 * n, 0.5 * n], fill=0)  # the lid's seam
    d.rectangle([0.42 * n, 0.4 * n, 0.58 * n, 0.62 * n], fill=0)  # the lock


_GLYPHS = {"tree": _paint_tree, "mountain": _paint_mountain, "waves": _paint_waves, "cross": _paint_cross,
           "chest": _paint_chest}


def glyph_names() -> list[str]:
    """Every glyph `glyph` draws: this module's terrain glyphs and the kit's icons."""
    return sorted(set(_GLYPHS) | set(kit.icon_names()))


def glyph(draw: ImageDraw.ImageDraw, name: str, box: Box, color: Color) -> None:
    """A terrain glyph (tree, mountain, waves, cross, chest) or any `kit.icon`, in the square of `box`."""
    if name not in _GLYPHS:
        kit.icon(draw, name, box, color)
        return
    sq = box.square()
    if sq.w >= 2:
        draw.bitmap((sq.x, sq.y), _glyph_mask(name, sq.w), fill=color)


@lru_cache(maxsize=256)
def _glyph_mask(name: str, side: int) -> Image.Image:
    n = side * _SS
    mask = Image.new("L", (n, n), 0)
    _GLYPHS[name](ImageDraw.Draw(mask), float(n))
    return mask.resize((side, side), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------- dynamic layers


@dataclass(frozen=True)
class Piece:
    """A token: a short label (1–3 characters) on a `shape` in `color`; optional `badge` text under
    it ("12/20"), an HP `bar` (0..1), a `ring` (a team colour), `faded` (knocked out: greyed with a
    cross) and `active` (the piece acting now: framed cell and white-edged token)."""

    cell: Cell
    label: str
    color: Color
    shape: str = "circle"
    badge: str = ""
    bar: float | None = None
    ring: Color | None = None
    faded: bool = False
    active: bool = False

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown piece shape {self.shape!r}; one of {SHAPES}")


@dataclass(frozen=True)
class Shade:
    """A translucent tint over cells (a closed zone, fog); `hatch` adds lines so it reads in grey."""

    cells: tuple[Cell, ...]
    color: Color = EDGE
    alpha: float = 0.55
    hatch: bool = False


@dataclass(frozen=True)
class Outline:
    """The border of a set of cells (the active zone, a room), solid or dashed."""

    cells: tuple[Cell, ...]
    color: Color = PALETTE.warn
    width: int = 3
    dashed: bool = False


@dataclass(frozen=True)
class Mark:
    """A `kit` icon in a cell (a chest, a healing point); `corner` puts it small in the top-right."""

    cell: Cell
    icon: str
    color: Color = PALETTE.ink
    corner: bool = False


@dataclass(frozen=True)
class Arrow:
    """A path from cell to cell (a move's trail, an attack), with a head at the end; `dashed` for a
    jump; `label` (finished text, e.g. "-12") sits on the last stretch. Ends on a piece stop at its cell."""

    path: tuple[Cell, ...]
    color: Color = PALETTE.ink
    dashed: bool = False
    label: str = ""


@dataclass(frozen=True)
class Layers:
    """What changes from turn to turn, drawn in this order: shades, outlines, reach, marks, arrows,
    pieces. `reach` is for the private image of the seat on turn only."""

    shades: tuple[Shade, ...] = ()
    outlines: tuple[Outline, ...] = ()
    reach: tuple[Cell, ...] | frozenset[Cell] = ()
    reach_color: Color = REACH
    marks: tuple[Mark, ...] = ()
    pieces: tuple[Piece, ...] = ()
    arrows: tuple[Arrow, ...] = ()


def render(spec: StaticSpec, layers: Layers = Layers()) -> Canvas:
    """A new canvas: the static layer of `spec` (cached) with `layers` drawn on it."""
    canvas = Canvas.from_image(static_image(spec).copy())
    draw_layers(canvas, spec.grid, layers)
    return canvas


def render_png(spec: StaticSpec, layers: Layers = Layers()) -> bytes:
    """`render(spec, layers).png()`."""
    return render(spec, layers).png()


def draw_layers(canvas: Canvas, grid: SquareGrid | HexGrid, layers: Layers) -> None:
    """Draw the dynamic layers on `canvas` (which holds `grid`'s static layer)."""
    for cell in _cells_of(grid, layers):
        if not grid.contains(cell):
            raise ValueError(f"{cell} is not on the board")
    for shade in layers.shades:
        mask = _hatch_mask(grid, round(255 * shade.alpha)) if shade.hatch else _cell_mask(grid, shade.alpha)
        for cell in shade.cells:
            _paste_cell(canvas, grid, cell, shade.color, mask)
    for outline in layers.outlines:
        _outline(canvas, grid, outline)
    reach_mask = _cell_mask(grid, 0.38)
    for cell in sorted(set(layers.reach)):
        _paste_cell(canvas, grid, cell, layers.reach_color, reach_mask)
        _dot(canvas.draw, grid.token_box(cell))
    for mark in layers.marks:
        box = grid.token_box(mark.cell)
        if mark.corner:
            side = box.w // 3
            box = Box(box.x2 - side, box.y, side, side)
        else:
            box = box.inset(box.w // 5)
        glyph(canvas.draw, mark.icon, box, mark.color)
    occupied = {p.cell for p in layers.pieces}
    for arrow in layers.arrows:  # under the pieces, so a path never hides one; heads stop at their cells
        _arrow(canvas.draw, grid, arrow, occupied)
    for piece in layers.pieces:
        if piece.active:
            _active_frame(canvas.draw, grid, piece.cell)
        draw_piece(canvas, grid.token_box(piece.cell), piece)


def _cells_of(grid: Grid, layers: Layers) -> Iterable[Cell]:
    for shade in layers.shades:
        yield from shade.cells
    for outline in layers.outlines:
        yield from outline.cells
    yield from layers.reach
    yield from (m.cell for m in layers.marks)
    yield from (p.cell for p in layers.pieces)
    for arrow in layers.arrows:
        yield from arrow.path


def _paste_cell(canvas: Canvas, grid: Grid, cell: Cell, color: Color, mask: Image.Image) -> None:
    """Blend `color` into one cell through `mask` (a cell-shaped coverage; its values are the alpha)."""
    box = grid.cell_box(cell)
    canvas.image.paste(color, (box.x, box.y, box.x + mask.width, box.y + mask.height), mask)


def _cell_mask(grid: Grid, alpha: float) -> Image.Image:
    return _cell_mask_for(_shape_key(grid), round(255 * alpha))


def _hatch_mask(grid: Grid, value: int) -> Image.Image:
    return _hatch_mask_for(_shape_key(grid), value)


def _shape_key(grid: Grid) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The outline of a cell relative to its box: the same for every cell of a grid."""
    cell = (0, 0) if isinstance(grid, SquareGrid) else grid.cells()[0]
    box = grid.cell_box(cell)
    kind = "square" if isinstance(grid, SquareGrid) else "hex"
    return kind, tuple((x - box.x, y - box.y) for x, y in grid.outline(cell))


@lru_cache(maxsize=64)
def _cell_mask_for(key: tuple[str, tuple[tuple[int, int], ...]], value: int) -> Image.Image:
    kind, pts = key
    w, h = max(p[0] for p in pts) + 1, max(p[1] for p in pts) + 1
    if kind == "square":
        return Image.new("L", (w, h), value)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(list(pts), fill=value)
    return mask


@lru_cache(maxsize=64)
def _hatch_mask_for(key: tuple[str, tuple[tuple[int, int], ...]], value: int) -> Image.Image:
    shape = _cell_mask_for(key, 255)
    lines = Image.new("L", shape.size, 0)
    d = ImageDraw.Draw(lines)
    step = max(5, shape.width // 5)
    for k in range(-shape.height, shape.width, step):
        d.line([(k, shape.height), (k + shape.height, 0)], fill=value, width=max(1, shape.width // 24))
    return Image.composite(lines, Image.new("L", shape.size, 0), shape)


def _dot(draw: ImageDraw.ImageDraw, token: Box) -> None:
    """The reach mark: a white dot with a dark rim, seen on light and dark cells and without colour."""
    r = max(3.0, token.w * 0.14)
    cx, cy = token.x + token.w / 2, token.y + token.h / 2
    draw.ellipse([cx - r - 1.5, cy - r - 1.5, cx + r + 1.5, cy + r + 1.5], fill=EDGE)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=PALETTE.ink)


def _outline(canvas: Canvas, grid: Grid, outline: Outline) -> None:
    inside = set(outline.cells)
    for cell in outline.cells:
        for across, p, q in grid.sides(cell):
            if across in inside:
                continue
            if outline.dashed:
                _dashed(canvas.draw, p, q, outline.color, outline.width, dash=max(4, grid.cell_px // 6))
            else:
                canvas.draw.line([p, q], fill=outline.color, width=outline.width)


def _dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, color: Color, width: int, dash: int) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    n = max(1, round(length / (2 * dash)))
    for i in range(n):
        t0, t1 = i / n, (i + 0.5) / n
        draw.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                   (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=color, width=width)


def _active_frame(draw: ImageDraw.ImageDraw, grid: SquareGrid | HexGrid, cell: Cell) -> None:
    """A thick yellow frame with dark edges just inside the acting piece's cell (drawn under the token,
    which covers at most its inner half)."""
    w = _frame_width(grid.cell_px)
    if isinstance(grid, SquareGrid):
        box = grid.cell_box(cell)
        draw.rectangle(box.rect, outline=EDGE, width=w + 2)
        draw.rectangle(box.inset(1).rect, outline=ACTIVE, width=w)
        return
    cx, cy = grid.center(cell)
    # one path for both strokes, far enough in from the sides (the apothem, not the radius) to stay inside
    k = 1 - ((w + 2) / 2 + 1) / (grid.size * math.sqrt(3) / 2)
    pts = [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in grid.outline(cell)]
    for color, width in ((EDGE, w + 2), (ACTIVE, w)):
        draw.line([*pts, pts[0], pts[1]], fill=color, width=width, joint="curve")


def draw_active_frame(draw: ImageDraw.ImageDraw, grid: SquareGrid | HexGrid, cell: Cell) -> None:
    """The acting piece's cell frame, for a renderer that draws its own tokens (as `draw_layers` frames it)."""
    _active_frame(draw, grid, cell)


def _frame_width(cell_px: int) -> int:
    return max(3, round(cell_px * 0.09))


@lru_cache(maxsize=256)
def shape_mask(shape: str, side: int) -> Image.Image:
    """A piece shape's coverage at `side` px, drawn large then shrunk (shared: never draw on it)."""
    n = side * _SS
    mask = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(mask)
    c = n / 2
    if shape == "circle":
        d.ellipse([0, 0, n - 1, n - 1], fill=255)
    elif shape == "square":
        d.rounded_rectangle([n * 0.06, n * 0.06, n * 0.94, n * 0.94], radius=n * 0.14, fill=255)
    elif shape == "diamond":
        d.polygon([(c, 0), (n, c), (c, n), (0, c)], fill=255)
    elif shape == "triangle":
        d.polygon([(c, n * 0.02), (n * 0.98, n * 0.9), (n * 0.02, n * 0.9)], fill=255)
    else:
        sides, rot = (8, 22.5) if shape == "octagon" else (6, 30.0)
        d.regular_polygon((c, c, c), sides, rotation=rot, fill=255)
    return mask.resize((side, side), Image.Resampling.LANCZOS)


def draw_piece(canvas: Canvas, box: Box, piece: Piece) -> None:
    """One token fitted to `box` (a grid's `token_box`, or a legend swatch): the shape with its label,
    then the badge and the bar stacked under it."""
    d = canvas.draw
    side = min(box.w, box.h)
    box = box.centered(side, side)
    badge_font = max(9, round(side * 0.27))
    badge_h = badge_font + 3 if piece.badge else 0
    bar_h = max(3, round(side * 0.1)) if piece.bar is not None else 0
    overlap = round(badge_h * 0.5)
    strip = badge_h - overlap + (bar_h + 1 if bar_h else 0)
    t_side = max(round(side * 0.5), side - strip)
    token = Box(box.x + (side - t_side) // 2, box.y if strip else box.y + (side - t_side) // 2, t_side, t_side)
    fill = kit.mix(piece.color, PALETTE.neutral, 0.65) if piece.faded else piece.color
    if piece.ring is not None:
        d.bitmap((token.x, token.y), shape_mask(piece.shape, token.w), fill=EDGE)
        inner = token.inset(1)
        d.bitmap((inner.x, inner.y), shape_mask(piece.shape, inner.w), fill=piece.ring)
        token = token.inset(max(2, round(t_side / 9)))
    if piece.active:
        # white rim between two dark lines: the acting piece reads as such in greyscale too
        rim = max(2, round(token.w / 12))
        rims: tuple[tuple[Box, Color], ...] = ((token, EDGE), (token.inset(1), PALETTE.ink), (token.inset(rim), EDGE))
        body = token.inset(rim + 1)
    else:
        rims = ((token, EDGE),)
        body = token.inset(max(1, round(token.w / 16)))
    for b, color in rims:
        d.bitmap((b.x, b.y), shape_mask(piece.shape, b.w), fill=color)
    d.bitmap((body.x, body.y), shape_mask(piece.shape, body.w), fill=fill)
    ink = kit.ink_on(fill)
    cy = body.y + body.h / 2 + (body.h * 0.1 if piece.shape == "triangle" else 0)
    size = max(9, round(body.w * (0.48 if len(piece.label) <= 2 else 0.36)))
    kit.text(d, (body.x + body.w / 2, cy), piece.label, size, ink, anchor="mm", max_width=body.w - 2, bold=True)
    if piece.faded:
        k = body.inset(max(2, body.w // 5))
        lw = max(2, t_side // 12)
        d.line([(k.x, k.y), (k.x2, k.y2)], fill=EDGE, width=lw)
        d.line([(k.x, k.y2), (k.x2, k.y)], fill=EDGE, width=lw)
    y = token.y2 - overlap if strip else box.y2
    if piece.badge:
        tw = min(kit.text_width(piece.badge, badge_font) + 6, side)
        pill = Box(round(box.x + side / 2 - tw / 2), y, tw, badge_h)
        d.rounded_rectangle(pill.rect, radius=badge_h // 3, fill=EDGE)
        kit.text(d, (pill.x + pill.w / 2, pill.y + pill.h / 2), piece.badge, badge_font, PALETTE.ink,
                 anchor="mm", max_width=pill.w - 2)
        y = pill.y2
    if piece.bar is not None:
        bar = Box(box.x + (side - t_side) // 2, y + 1, t_side, bar_h)
        d.rectangle(bar.rect, fill=EDGE)
        full = bar.inset(1)
        filled = round(full.w * min(1.0, max(0.0, piece.bar)))
        if filled:
            d.rectangle(Box(full.x, full.y, filled, full.h).rect, fill=PALETTE.health)


def _arrow(draw: ImageDraw.ImageDraw, grid: Grid, arrow: Arrow, occupied: set[Cell]) -> None:
    if len(arrow.path) < 2:
        return
    pts: list[Point] = [grid.center(c) for c in arrow.path]
    trim = grid.cell_px / 2  # a piece's bar and badge reach the cell's edge: stop there
    if arrow.path[0] in occupied:
        pts[0] = _toward(pts[0], pts[1], trim)
    if arrow.path[-1] in occupied:
        pts[-1] = _toward(pts[-1], pts[-2], trim)
    else:
        pts[-1] = _toward(pts[-1], pts[-2], grid.cell_px * 0.15)
    w = max(3, round(grid.cell_px * 0.1))
    head = w * 3.2
    tip = pts[-1]
    base = _toward(tip, pts[-2], head)
    shaft = [*pts[:-1], base]
    for color, width, grow in ((EDGE, w + 3, 1.6), (arrow.color, w, 0.0)):
        if arrow.dashed:
            for a, b in itertools.pairwise(shaft):
                _dashed(draw, a, b, color, width, dash=max(4, grid.cell_px // 4))
        else:
            draw.line(shaft, fill=color, width=width, joint="curve")
        draw.polygon(_head(tip, pts[-2], head + grow, grow), fill=color)
    if arrow.label:
        size = max(11, round(grid.cell_px * 0.34))
        tw = kit.text_width(arrow.label, size) + 8
        h = size + 6
        # on the last stretch of the line, where it covers no piece
        mx, my = (pts[-2][0] + base[0]) / 2, (pts[-2][1] + base[1]) / 2
        pill = Box(round(mx - tw / 2), round(my - h / 2), tw, h)
        draw.rounded_rectangle(pill.rect, radius=h // 2, fill=EDGE, outline=arrow.color, width=2)
        kit.text(draw, pill.center, arrow.label, size, PALETTE.ink, anchor="mm", bold=True)


def _toward(a: Point, b: Point, dist: float) -> Point:
    """The point `dist` px from `a` toward `b` (a itself if they coincide)."""
    length = math.dist(a, b)
    if length == 0:
        return a
    t = min(1.0, dist / length)
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _head(tip: Point, back: Point, length: float, grow: float) -> list[Point]:
    angle = math.atan2(tip[1] - back[1], tip[0] - back[0])
    ux, uy = math.cos(angle), math.sin(angle)
    tip2 = (tip[0] + ux * grow * 0.6, tip[1] + uy * grow * 0.6)
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    half = length * 0.55
    return [tip2, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]


# ---------------------------------------------------------------- legend


@dataclass(frozen=True)
class LegendItem:
    """One legend entry: a finished `label` and a swatch drawn with the same data as the board —
    a Terrain, a Piece, a Shade, a Mark or an Arrow; or "reach" / "active" for this module's marks."""

    label: str
    swatch: Terrain | Piece | Shade | Mark | Arrow | str = field(default="reach")


def marks_legend(lang: str, *, reach: bool = True, active: bool = True) -> list[LegendItem]:
    """Legend entries for the reach dot and the acting-piece frame, in `lang`."""
    items = []
    if active:
        items.append(LegendItem(i18n.tk("render.board.active", lang), "active"))
    if reach:
        items.append(LegendItem(i18n.tk("render.board.reach", lang), "reach"))
    return items


def legend(canvas: Canvas, box: Box, items: Sequence[LegendItem], size: int = 13) -> int:
    """Lay the items out left to right inside `box`, wrapping to new rows; returns the height used."""
    sw = round(size * 1.6)
    gap = round(size * 1.2)
    x, y = box.x, box.y
    for item in items:
        w = sw + 6 + min(kit.text_width(item.label, size), box.w - sw - 6)
        if x > box.x and x + w > box.x2:
            x, y = box.x, y + sw + 6
        if y + sw > box.y2:
            break
        swatch(canvas, Box(x, y, sw, sw), item.swatch)
        kit.text(canvas.draw, (x + sw + 6, y + sw / 2), item.label, size, PALETTE.muted, anchor="lm",
                 max_width=box.x2 - x - sw - 6)
        x += w + gap
    return y + sw - box.y if items else 0


def swatch(canvas: Canvas, box: Box, what: Terrain | Piece | Shade | Mark | Arrow | str) -> None:
    """A small square sample of a board element, as the board draws it."""
    d = canvas.draw
    plain: Color = (0xB4, 0xB7, 0xBE)
    if isinstance(what, Terrain):
        d.rectangle(box.rect, fill=what.fill, outline=EDGE)
        if what.hatch:
            _hatch_box(d, box, kit.mix(what.fill, EDGE, 0.45))
        if what.glyph:
            glyph(d, what.glyph, box.inset(box.w // 5), _glyph_color(what))
    elif isinstance(what, Piece):
        draw_piece(canvas, box, Piece((0, 0), what.label, what.color, what.shape, ring=what.ring, faded=what.faded))
    elif isinstance(what, Shade):
        d.rectangle(box.rect, fill=kit.mix(plain, what.color, what.alpha), outline=EDGE)
        if what.hatch:
            _hatch_box(d, box, what.color)
    elif isinstance(what, Mark):
        glyph(d, what.icon, box, what.color)
    elif isinstance(what, Arrow):
        y = box.y + box.h / 2
        w = max(3, box.h // 6)
        for color, width in ((EDGE, w + 3), (what.color, w)):
            d.line([(box.x, y), (box.x2 - box.h * 0.45, y)], fill=color, width=width)
            d.polygon([(box.x2, y), (box.x2 - box.h * 0.5, y - box.h * 0.3), (box.x2 - box.h * 0.5, y + box.h * 0.3)],
                      fill=color)
    elif what == "active":
        d.rectangle(box.rect, fill=plain, outline=EDGE, width=4)
        d.rectangle(box.inset(1).rect, outline=ACTIVE, width=2)
    elif what == "reach":
        d.rectangle(box.rect, fill=kit.mix(plain, REACH, 0.38), outline=EDGE)
        _dot(d, box)
    else:
        raise ValueError(f"unknown swatch {what!r}")


def _hatch_box(draw: ImageDraw.ImageDraw, box: Box, color: Color) -> None:
    step = max(4, box.w // 4)
    for k in range(-box.h, box.w, step):
        x0, y0 = box.x + max(k, 0), box.y2 - 1 - max(-k, 0)
        n = min(box.w - max(k, 0), box.h - max(-k, 0))
        if n > 1:
            draw.line([(x0, y0), (x0 + n - 1, y0 - n + 1)], fill=color, width=1)


def clear_cache() -> None:
    """Forget every cached static layer and mask (output never depends on them; tests use this)."""
    for fn in (_static, _cell_mask_for, _hatch_mask_for, shape_mask, _glyph_mask):
        fn.cache_clear()
