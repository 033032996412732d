"""The King's Armory image: the map with its lanes and arrows, towers, allies and monsters, the Gate, and a roster.

Drawn for a phone first: Discord shows the image about 400 px wide, so the map spans the whole width and
the roster (which is also the legend of the tokens' codes) sits under it. Every figure carries a code
from `data/kings_armory/codes.json`; statuses are shapes as well as colours; figures sharing a square
are drawn apart, one row each with its own hit points.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

import i18n
from renderers import board as kb
from renderers import kit
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules.kings_armory.board import STEP, Board, Sq, board, footprint
from rules.readonly import loader
from rules.text import Msg

CODES_FILE = Path(__file__).resolve().parents[1] / "data" / "kings_armory" / "codes.json"

CELL = 52
MARGIN = 12
#: Two header lines: the game, wave and phase; then the Gate, coins and the enemy's turn.
HEADER = 80
TITLE = 26
TEXT = 22
SMALL = 20
ROW = 38  # a roster row: a token and one line
STACK_ROWS = 3  # figures drawn on one square; more are counted
ALLY_ROWS = 4  # roster rows of allies (two columns)
MONSTER_ROWS = 6  # roster rows of monsters (two columns)
LOG_LINES = 3

GROUND = kb.Terrain((0x4E, 0x5A, 0x45))  # a dark, grey-green field: every token colour stands out on it
PATH = kb.Terrain((0xD4, 0xC0, 0x94))
OFFSQ: Color = (0x9C, 0x8F, 0x78)
GATE: Color = (0x6B, 0x4A, 0x2B)
TOWER: Color = (0x8E, 0x91, 0x99)
RED: Color = OKABE_ITO["vermillion"]
YELLOW: Color = OKABE_ITO["yellow"]
SEAT_COLORS: tuple[Color, ...] = (OKABE_ITO["sky_blue"], OKABE_ITO["orange"], OKABE_ITO["bluish_green"],
                                  OKABE_ITO["reddish_purple"], OKABE_ITO["blue"], (0xF3, 0xF3, 0xF3),
                                  (0x8A, 0x5A, 0x2B))
#: Monster tokens by level, in the box's hues (yellow, green, blue, purple, red) from the colour-blind-safe
#: Okabe–Ito set; bosses grey (§1.4). The roster also writes the level, so it never rests on colour.
LEVEL_COLORS: dict[int, Color] = {1: OKABE_ITO["yellow"], 2: OKABE_ITO["bluish_green"], 3: OKABE_ITO["sky_blue"],
                                  4: OKABE_ITO["reddish_purple"], 5: OKABE_ITO["vermillion"], 0: (0x8A, 0x8F, 0x9C)}
#: Each status token: a colour and a shape of its own, so they are told apart without colour.
STATUS_COLORS: dict[str, Color] = {"bleed": OKABE_ITO["vermillion"], "burn": OKABE_ITO["orange"],
                                   "slow": OKABE_ITO["sky_blue"], "stun": OKABE_ITO["yellow"],
                                   "bless": (0xF3, 0xF3, 0xF3)}
STATUS_SHAPES: dict[str, str] = {"bleed": "drop", "burn": "flame", "slow": "hourglass", "stun": "star",
                                 "bless": "plus"}
HALO: Color = (0xF3, 0xF3, 0xF3)
_SS = 4  # masks are drawn 4× larger, then shrunk


def _t(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _lit(value: Any, lang: str) -> str:
    if isinstance(value, Mapping):
        return str(value.get(lang) or value.get("en") or "")
    return str(value)


# ---------------------------------------------------------------- codes


@loader()
def codes() -> dict[str, dict[str, dict[str, str]]]:
    """Each figure kind's code by group (monsters, bosses, heroes, summons, champions), id and language."""
    data = json.loads(CODES_FILE.read_text(encoding="utf-8"))
    out = {group: data[group] for group in ("monsters", "bosses", "heroes", "summons", "champions")}
    for group, table in out.items():
        for key, by_lang in table.items():
            for lang, code in by_lang.items():
                want = 1 if group == "champions" else 2
                if len(code) != want or not code.isalpha() or code != code.upper():
                    raise ValueError(f"codes.json: {group}/{key}/{lang} must be {want} capital letter(s), not {code!r}")
    return out


def _code(group: str, key: str, lang: str, name: str) -> str:
    by_lang = codes()[group].get(key) or {}
    return by_lang.get(lang) or by_lang.get("en") or initials(name)


def initials(name: str) -> str:
    """Two letters for a figure without a code: the first letters of the first two words, else the first two."""
    words = [w for w in name.replace("(", " ").split() if w[:1].isalpha()]
    return (words[0][0] + words[1][0]).upper() if len(words) > 1 else name[:2].upper()


def ally_code(a: Mapping[str, Any], lang: str) -> str:
    name = _lit(a["name"], lang)
    if a["kind"] == "champion":
        return _code("champions", str(a["type"]), lang, name)[:1] + str(a["level"])
    return _code("heroes" if a["kind"] == "hero" else "summons", str(a["type"]), lang, name)


def monster_code(m: Mapping[str, Any], lang: str) -> str:
    return _code("bosses" if m["boss"] else "monsters", str(m["type"]), lang, _lit(m["name"], lang))


# ---------------------------------------------------------------- geometry


def _off(b: Board) -> tuple[int, int, int, int]:
    """How many squares the map reaches beyond the field on each side (top, right, bottom, left)."""
    squares = [*b.entrance.values(), *b.exits.values(), *b.gate, *b.parapets.values()]
    top = max([0, *(-r for r, _ in squares)])
    bottom = max([0, *(r - b.height + 1 for r, _ in squares)])
    left = max([0, *(-c for _, c in squares)])
    right = max([0, *(c - b.width + 1 for _, c in squares)])
    return top, right, bottom, left


def _grid(b: Board) -> kb.SquareGrid:
    top, _, _, left = _off(b)
    return kb.SquareGrid(b.width, b.height, cell=CELL, x=MARGIN + left * CELL, y=HEADER + top * CELL)


def _map_bottom(b: Board) -> int:
    top, _, bottom, _ = _off(b)
    return HEADER + (top + bottom) * CELL + _grid(b).height


def _size(b: Board) -> tuple[int, int]:
    _, right, _, left = _off(b)
    width = MARGIN + (left + right) * CELL + _grid(b).width + MARGIN
    return width, _map_bottom(b) + _panel_height() + _legend_height(width - 2 * MARGIN) + MARGIN


def _panel_height() -> int:
    lh = kit.line_height(SMALL) + 6
    return (ROW + 8) * 2 + (ALLY_ROWS + MONSTER_ROWS) * ROW + 16 + lh + LOG_LINES * lh + 20


def _panel(b: Board) -> Box:
    width, _ = _size(b)
    return Box(MARGIN, _map_bottom(b) + 8, width - 2 * MARGIN, _panel_height())


def sq_box(grid: kb.SquareGrid, sq: Sq) -> Box:
    """A square's box; squares off the field are drawn beyond the coordinate band, so the labels stay clear."""
    box = grid.cell_box(sq)
    r, c = sq
    dy = -grid.band if r < 0 else grid.band if r >= grid.rows else 0
    dx = -grid.band if c < 0 else grid.band if c >= grid.cols else 0
    return Box(box.x + dx, box.y + dy, box.w, box.h)


def arrow_colors(b: Board) -> dict[Sq, list[tuple[Sq, Color]]]:
    """Each path square's arrows: the first lane through it gives the red one, another heading elsewhere a
    yellow one (a fork's second arm)."""
    out: dict[Sq, list[tuple[Sq, Color]]] = {}
    for key in sorted(b.lanes):
        lane = b.lanes[key]
        for here, nxt in itertools.pairwise(lane):
            seen = out.setdefault(here, [])
            if all(n != nxt for n, _ in seen):
                seen.append((nxt, RED if not seen else YELLOW))
    return out


# ---------------------------------------------------------------- small shapes


@lru_cache(maxsize=128)
def _mask(shape: str, side: int) -> Image.Image:
    """A token or status shape's coverage at `side` px: the board's shapes, an upside-down triangle (a
    flyer), and the status marks (drop, flame, hourglass, star, plus)."""
    if shape in kb.SHAPES:
        return kb.shape_mask(shape, side)
    n = side * _SS
    mask = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(mask)
    if shape == "wing":  # wide at the top, where the code sits
        d.polygon([(0, n * 0.04), (n, n * 0.04), (n * 0.5, n * 0.98)], fill=255)
    elif shape == "hexwide":  # a flat-topped hexagon stretched to fill the square
        d.polygon([(n * 0.24, n * 0.03), (n * 0.76, n * 0.03), (n, n * 0.5), (n * 0.76, n * 0.97), (n * 0.24, n * 0.97),
                   (0, n * 0.5)], fill=255)
    elif shape == "drop":
        d.ellipse([n * 0.18, n * 0.36, n * 0.82, n * 0.98], fill=255)
        d.polygon([(n * 0.5, 0), (n * 0.8, n * 0.58), (n * 0.2, n * 0.58)], fill=255)
    elif shape == "flame":
        d.polygon([(n * 0.5, 0), (n * 0.96, n * 0.98), (n * 0.04, n * 0.98)], fill=255)
        d.polygon([(n * 0.5, n * 0.5), (n * 0.68, n * 0.98), (n * 0.32, n * 0.98)], fill=0)
    elif shape == "hourglass":
        d.polygon([(n * 0.06, n * 0.02), (n * 0.94, n * 0.02), (n * 0.5, n * 0.5)], fill=255)
        d.polygon([(n * 0.5, n * 0.5), (n * 0.94, n * 0.98), (n * 0.06, n * 0.98)], fill=255)
    elif shape == "star":
        pts = []
        for i in range(10):
            r = n * (0.5 if i % 2 == 0 else 0.22)
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((n / 2 + r * math.cos(a), n * 0.54 + r * math.sin(a)))
        d.polygon(pts, fill=255)
    else:  # plus
        d.rectangle([n * 0.34, 0, n * 0.66, n], fill=255)
        d.rectangle([0, n * 0.34, n, n * 0.66], fill=255)
    return mask.resize((side, side), Image.Resampling.LANCZOS)


def _stamp(canvas: Canvas, box: Box, shape: str, fill: Color, rim: Color = kb.EDGE, halo: bool = False) -> None:
    """A shape with a dark rim (and a light halo outside it, for tokens on any ground)."""
    d = canvas.draw
    layers: list[tuple[Box, Color]] = [(box, HALO)] if halo else []
    outer = box.inset(2) if halo else box
    layers += [(outer, rim), (outer.inset(max(1, outer.w // 18) + 1), fill)]
    for b, color in layers:
        if b.w > 1:
            d.bitmap((b.x, b.y), _mask(shape, b.w), fill=color)


def status_mark(canvas: Canvas, box: Box, kind: str) -> None:
    """One status token: its shape in its colour with a dark rim."""
    _stamp(canvas, box, STATUS_SHAPES.get(kind, "plus"), STATUS_COLORS.get(kind, PALETTE.neutral))


def _status_marks(canvas: Canvas, x: int, y: int, side: int, status: Mapping[str, int], limit: int,
                  each: int = 3) -> int:
    """Status marks left to right from (x, y): `each` at most of a kind, `limit` in all; returns the x after
    the last one."""
    shown = 0
    for kind in STATUS_COLORS:
        for _ in range(min(each, int(status.get(kind, 0)))):
            if shown == limit:
                return x
            status_mark(canvas, Box(x, y, side, side), kind)
            x += side - 2
            shown += 1
    return x


# ---------------------------------------------------------------- figures


class Figure:
    """One token to draw: its code, shape, colour, hit points and statuses."""

    def __init__(self, code: str, shape: str, color: Color, hp: int, status: Mapping[str, int], *,
                 faded: bool = False, active: bool = False) -> None:
        self.code, self.shape, self.color, self.hp = code, shape, color, hp
        self.status, self.faded, self.active = dict(status), faded, active

    @property
    def fill(self) -> Color:
        return kit.mix(self.color, PALETTE.neutral, 0.65) if self.faded else self.color


def ally_figure(a: Mapping[str, Any], lang: str, active: bool = False) -> Figure:
    color = SEAT_COLORS[int(a["seat"]) % len(SEAT_COLORS)]
    return Figure(ally_code(a, lang), "circle" if a["kind"] == "hero" else "square", color, int(a["hp"]),
                  a.get("status") or {}, faded=bool(a["ko"]), active=active)


def monster_shape(m: Mapping[str, Any]) -> str:
    """Bosses octagons, flyers upside-down triangles (wings spread), the rest flat hexagons."""
    return "octagon" if m["boss"] else "wing" if "F" in m["flags"] else "hexwide"


def monster_figure(m: Mapping[str, Any], lang: str) -> Figure:
    return Figure(monster_code(m, lang), monster_shape(m), LEVEL_COLORS.get(int(m["level"]), LEVEL_COLORS[0]),
                  int(m["hp"]), m.get("status") or {})


def draw_token(canvas: Canvas, box: Box, fig: Figure, badge: bool = True) -> None:
    """A figure alone on its square: the shape filling it, the code large, the hit points on a dark pill
    at the bottom and the status marks along the top."""
    d = canvas.draw
    side = min(box.w, box.h)
    box = box.centered(side, side)
    _stamp(canvas, box, fig.shape, fig.fill, halo=True)
    ink = kit.ink_on(fig.fill)
    code_size = round(side * (0.44 if len(fig.code) <= 2 else 0.36))
    cy = box.y + side * (0.36 if badge else 0.5) - (side * 0.04 if fig.shape == "wing" else 0)
    kit.text(d, (box.x + side / 2, cy), fig.code, code_size, ink, anchor="mm", bold=True, max_width=side - 4)
    if fig.faded:
        k = box.inset(side // 4)
        for a, b in (((k.x, k.y), (k.x2, k.y2)), ((k.x, k.y2), (k.x2, k.y))):
            d.line([a, b], fill=kb.EDGE, width=max(2, side // 14))
    if badge:
        size = round(side * 0.38)
        text = str(fig.hp)
        w = kit.text_width(text, size) + 8
        pill = Box(round(box.x + side / 2 - w / 2), box.y2 - size - 3, w, size + 4)
        d.rounded_rectangle(pill.rect, radius=pill.h // 3, fill=kb.EDGE, outline=HALO)
        kit.text(d, pill.center, text, size, PALETTE.ink, anchor="mm", bold=True)
    # one mark per kind on the map (the roster counts them), big enough to tell their shapes apart
    mark = round(side * 0.42)
    _status_marks(canvas, box.x - mark // 4, box.y - mark // 4, mark, fig.status, 3, each=1 if badge else 3)


def draw_plate(canvas: Canvas, box: Box, fig: Figure) -> None:
    """A figure sharing its square: a plate across one row of it in the figure's colour, the code, and its
    own hit points at the right, so two figures read as two."""
    d = canvas.draw
    d.rounded_rectangle(box.rect, radius=box.h // 3, fill=HALO)
    inner = box.inset(1)
    d.rounded_rectangle(inner.rect, radius=inner.h // 3, fill=kb.EDGE)
    body = inner.inset(2)
    d.rounded_rectangle(body.rect, radius=body.h // 3, fill=fig.fill)
    ink = kit.ink_on(fig.fill)
    size = max(10, round(body.h * 0.8))
    hp = str(fig.hp)
    hw = kit.text_width(hp, size - 2) + 6
    pill = Box(body.x2 - hw, body.y, hw, body.h)
    d.rounded_rectangle(pill.rect, radius=body.h // 3, fill=kb.EDGE)
    kit.text(d, pill.center, hp, size - 2, PALETTE.ink, anchor="mm", bold=True)
    kit.text(d, (body.x + (pill.x - body.x) / 2, body.y + body.h / 2), fig.code, size, ink, anchor="mm", bold=True,
             max_width=pill.x - body.x - 1)
    if fig.faded:
        d.line([(body.x + 2, body.y2 - 2), (pill.x - 2, body.y + 2)], fill=kb.EDGE, width=2)
    if fig.status:
        mark = round(box.h * 0.56)  # one mark, on the corner, clear of the code
        _status_marks(canvas, box.x - mark // 2, box.y - mark // 2, mark, fig.status, 1, each=1)


def _figures(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any], lang: str) -> None:
    by_square: dict[Sq, list[Figure]] = {}
    for a in view["allies"]:
        sq = b.parse(str(a["square"])) if a.get("square") else None
        if sq is not None:
            by_square.setdefault(sq, []).append(ally_figure(a, lang, a["id"] == view.get("active")))
    for m in view["monsters"]:
        sq = b.parse(str(m["square"]))
        if sq is not None:
            by_square.setdefault(sq, []).append(monster_figure(m, lang))
    width, _ = _size(b)
    for sq, figs in sorted(by_square.items()):
        cell = sq_box(grid, sq)
        if cell.x < 0 or cell.x2 > width or cell.y < HEADER:
            continue
        if any(f.active for f in figs):
            d = canvas.draw
            d.rectangle(cell.rect, outline=kb.EDGE, width=6)
            d.rectangle(cell.inset(1).rect, outline=kb.ACTIVE, width=4)
        if len(figs) == 1:
            draw_token(canvas, cell.inset(2), figs[0])
            continue
        rows = cell.inset(1).split_v(min(len(figs), STACK_ROWS), gap=1)
        if len(figs) > STACK_ROWS:  # a crowd (bosses stack with anything): the last row counts the rest
            rest = rows.pop()
            canvas.draw.rounded_rectangle(rest.rect, radius=rest.h // 3, fill=kb.EDGE, outline=HALO)
            kit.text(canvas.draw, rest.center, f"+{len(figs) - len(rows)}", max(9, round(rest.h * 0.7)), PALETTE.ink,
                     anchor="mm", bold=True)
        for part, fig in zip(rows, figs, strict=False):
            draw_plate(canvas, part, fig)


# ---------------------------------------------------------------- the static layer


@lru_cache(maxsize=8)
def _base(b: Board, lang: str) -> Image.Image:
    """The map, its arrows, the squares off the field, the legend and the panel (shared: never draw on it)."""
    grid = _grid(b)
    spec = kb.StaticSpec(grid, {sq: PATH for sq in b.path}, GROUND, size=_size(b), line=(0x3A, 0x44, 0x33))
    canvas = Canvas.from_image(kb.static_image(spec).copy())
    d = canvas.draw
    special = {**{sq: name for name, sq in b.entrance.items()}, **{sq: name for name, sq in b.exits.items()}}
    for sq, label in sorted(b.labels.items()):
        if sq in b.parapets.values() or sq in special:
            box = sq_box(grid, sq)
            d.rectangle(box.rect, fill=OFFSQ, outline=kb.EDGE)
            kit.text(d, (box.x + box.w / 2, box.y + box.h - 10), label, 15, PALETTE.dark_ink, anchor="mm", bold=True)
    gate = [sq_box(grid, sq) for sq in b.gate]
    whole = Box(min(g.x for g in gate), min(g.y for g in gate), max(g.x2 for g in gate) - min(g.x for g in gate),
                max(g.y2 for g in gate) - min(g.y for g in gate))
    d.rectangle(whole.rect, fill=GATE, outline=kb.EDGE, width=2)
    for sq, arrows in arrow_colors(b).items():
        for nxt, color in arrows:
            _lane_arrow(canvas, grid, sq, nxt, color)
    d.rounded_rectangle(_panel(b).rect, radius=8, fill=PALETTE.panel)
    _legend(canvas, b, lang)
    return canvas.image


LEGEND_SIZE = SMALL - 2

#: A legend swatch: a board element `kb.swatch` draws, or one of this renderer's own shapes with its colour.
Swatch = kb.Terrain | kb.Piece | kb.Arrow | kb.Shade | kb.Mark | str | tuple[str, Color]


def _legend_items(lang: str) -> list[tuple[str, Swatch]]:
    def piece(shape: str, color: Color) -> kb.Piece:
        return kb.Piece((0, 0), "", color, shape=shape)

    return [(_t("ka.render.path", lang), PATH), (_t("ka.render.ground", lang), GROUND),
            (_t("ka.render.red", lang), kb.Arrow((), RED)), (_t("ka.render.yellow", lang), kb.Arrow((), YELLOW)),
            (_t("ka.render.tower", lang), kb.Terrain(TOWER)), (_t("ka.render.gate", lang), kb.Terrain(GATE)),
            (_t("ka.render.hero", lang), piece("circle", SEAT_COLORS[0])),
            (_t("ka.render.champion", lang), piece("square", SEAT_COLORS[0])),
            (_t("ka.render.walker", lang), ("hexwide", LEVEL_COLORS[2])),
            (_t("ka.render.flyer", lang), ("wing", LEVEL_COLORS[3])),
            (_t("ka.render.boss", lang), piece("octagon", LEVEL_COLORS[0])),
            *((_t(f"ka.render.st.{k}", lang), (k, STATUS_COLORS[k])) for k in STATUS_COLORS),
            *((item.label, item.swatch) for item in kb.marks_legend(lang, reach=False))]


def _legend_places(width: int, lang: str) -> list[tuple[int, int]]:
    """Where each legend item goes, left to right in rows, relative to the legend's top-left."""
    sw = round(LEGEND_SIZE * 1.6)
    x, y, out = 0, 0, []
    for label, _ in _legend_items(lang):
        w = sw + 6 + kit.text_width(label, LEGEND_SIZE)
        if x > 0 and x + w > width:
            x, y = 0, y + sw + 8
        out.append((x, y))
        x += w + round(LEGEND_SIZE * 1.2)
    return out


@lru_cache(maxsize=64)
def _legend_height(width: int) -> int:
    """The legend's height in its longest language, so an image's size never depends on its language."""
    sw = round(LEGEND_SIZE * 1.6)
    return max(_legend_places(width, lang)[-1][1] for lang in ("es", "en")) + sw + 12


def _legend(canvas: Canvas, b: Board, lang: str) -> None:
    width, height = _size(b)
    box = Box(MARGIN, height - _legend_height(width - 2 * MARGIN) - MARGIN + 4, width - 2 * MARGIN, 0)
    sw = round(LEGEND_SIZE * 1.6)
    for (label, what), (dx, dy) in zip(_legend_items(lang), _legend_places(box.w, lang), strict=True):
        cell = Box(box.x + dx, box.y + dy, sw, sw)
        if isinstance(what, tuple):
            shape, color = what
            if shape in STATUS_SHAPES:
                status_mark(canvas, cell, shape)
            else:
                _stamp(canvas, cell, shape, color)
        else:
            kb.swatch(canvas, cell, what)
        kit.text(canvas.draw, (cell.x2 + 6, cell.y + sw / 2), label, LEGEND_SIZE, PALETTE.muted, anchor="lm")


def _lane_arrow(canvas: Canvas, grid: kb.SquareGrid, sq: Sq, nxt: Sq, color: Color) -> None:
    """A small arrowhead in the square pointing toward the next square of the route."""
    box = sq_box(grid, sq)
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    dr, dc = nxt[0] - sq[0], nxt[1] - sq[1]
    if (dr, dc) not in STEP.values():
        return
    if color == YELLOW:  # a fork's second arrow sits beside the red one
        cx, cy = cx + box.w * 0.25 * abs(dr), cy + box.w * 0.25 * abs(dc)
    k = box.w * 0.15
    tip = (cx + dc * k, cy + dr * k)
    back = (cx - dc * k * 0.6, cy - dr * k * 0.6)
    side = (dr * k * 0.7, -dc * k * 0.7)
    pts = [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])]
    canvas.draw.polygon(pts, fill=color, outline=kb.EDGE)


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _base.cache_clear()
    _mask.cache_clear()


# ---------------------------------------------------------------- towers, Gate, header


def _towers(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any]) -> None:
    d = canvas.draw
    for t in view["towers"]:
        corner = b.parse(str(t["square"]))
        if corner is None:
            continue
        cells = [sq_box(grid, sq) for sq in footprint(corner)]
        box = Box(cells[0].x, cells[0].y, cells[-1].x2 - cells[0].x, cells[-1].y2 - cells[0].y)
        d.rectangle(box.rect, fill=TOWER, outline=kb.EDGE, width=3)
        for k in range(box.x + 3, box.x2 - 6, 12):  # the parapet's crenellations
            d.rectangle((k, box.y + 3, k + 5, box.y + 8), fill=kb.EDGE)


def _tower_labels(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any]) -> None:
    """Each tower's number and places taken, on its bottom edge, over the champions inside it."""
    d = canvas.draw
    for i, t in enumerate(view["towers"]):
        corner = b.parse(str(t["square"]))
        if corner is None:
            continue
        cells = [sq_box(grid, sq) for sq in footprint(corner)]
        box = Box(cells[0].x, cells[0].y, cells[-1].x2 - cells[0].x, cells[-1].y2 - cells[0].y)
        label = f"T{i + 1} {t['used']}/3"
        w = kit.text_width(label, SMALL) + 12
        plate = Box(box.x + (box.w - w) // 2, box.y2 - (SMALL + 6) // 2, w, SMALL + 6)
        d.rounded_rectangle(plate.rect, radius=6, fill=kb.EDGE, outline=TOWER, width=2)
        kit.text(d, plate.center, label, SMALL, PALETTE.ink, anchor="mm", bold=True)


def _header(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    gate, gate_max = view["gate"]
    phase = "pick_champions" if view["phase"] == "pick" and "not_enough" in view.get("variants", ()) else view["phase"]
    result = view.get("result")
    if result is not None:  # the end screen says how it ended: "Defeat: the Gate fell in wave 4"
        phase_text = _t("ka.render.over.won" if result == "won" else f"ka.render.over.{result}", lang,
                        wave=view["wave"])
    else:
        phase_text = _t(f"ka.render.phase.{phase}", lang)
    first = [_t("ka.name", lang), _t("ka.render.wave", lang, wave=view["wave"], waves=view["waves"]), phase_text]
    second = [_t("ka.render.gate_hp", lang, hp=gate, max=gate_max), _t("ka.render.gold", lang, gold=view["gold"])]
    if view["phase"] in ("enemy", "allies"):
        second.append(_t("ka.render.enemy_turn", lang, n=view["enemy_turn"]))
    if view.get("score") is not None:  # Endurance: waves survived so far
        second.append(_t("ka.render.score", lang, score=view["score"]))
    width = canvas.image.width - 2 * MARGIN
    kit.text(canvas.draw, (MARGIN, 22), "  ·  ".join(first), TITLE, PALETTE.ink, anchor="lm", bold=True,
             max_width=width)
    kit.text(canvas.draw, (MARGIN, 58), "  ·  ".join(second), TEXT, PALETTE.highlight, anchor="lm", bold=True,
             max_width=width)


def _gate_label(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any]) -> None:
    boxes = [sq_box(grid, sq) for sq in b.gate]
    cx = sum(bx.x + bx.w / 2 for bx in boxes) / len(boxes)
    cy = sum(bx.y + bx.h / 2 for bx in boxes) / len(boxes)
    gate, gate_max = view["gate"]
    kit.text(canvas.draw, (cx, cy), f"{gate}/{gate_max}", TEXT, PALETTE.ink, anchor="mm", bold=True)


# ---------------------------------------------------------------- roster: the legend of every token


def _status_text(status: Mapping[str, int], lang: str) -> str:
    return " ".join(f"{_t(f'ka.render.st.{k}', lang)}{'' if n == 1 else f'×{n}'}" for k, n in status.items() if n)


#: The roster's word for an ally's standing block order (the default, asking, shows nothing).
ORDER_KEYS = {"block": "ka.render.order_block", "pass": "ka.render.order_pass"}


def _who(names: list[str], seat: int) -> str:
    return str(names[seat]) if 0 <= seat < len(names) else f"P{seat + 1}"


def _left(b: Board, m: Mapping[str, Any]) -> tuple[int, str]:
    sq = b.parse(str(m["square"]))
    lane = b.lanes.get(str(m["lane"]), [])
    return (b.route_left(str(m["lane"]), lane.index(sq)) if sq in lane else 0), str(m["id"])


def _entry(canvas: Canvas, box: Box, fig: Figure, line: str, bold: bool = False, muted: bool = False) -> None:
    """A roster row: the token as the map draws it (without its hit points), then a line of text."""
    side = box.h - 4
    draw_token(canvas, Box(box.x + 4, box.y + 3, side, side), fig, badge=False)
    kit.text(canvas.draw, (box.x + side + 14, box.y + box.h / 2), line, SMALL, PALETTE.muted if muted else PALETTE.ink,
             anchor="lm", bold=bold, max_width=box.w - side - 18)


def _section(canvas: Canvas, box: Box, title: str, rows: list[tuple[Figure, str, bool, bool]], per_column: int,
             more_key: str, lang: str) -> int:
    """A titled two-column list; returns the y under it."""
    kit.text(canvas.draw, (box.x, box.y + ROW / 2), title, TEXT, PALETTE.ink, anchor="lm", bold=True,
             max_width=box.w)
    top = box.y + ROW
    columns = box.split_h(2, gap=16)
    room = 2 * per_column
    shown = rows if len(rows) <= room else rows[: room - 1]
    for i, (fig, line, bold, muted) in enumerate(shown):
        col = columns[i // per_column]
        _entry(canvas, Box(col.x, top + (i % per_column) * ROW, col.w, ROW), fig, line, bold, muted)
    if len(shown) < len(rows):
        col = columns[1]
        kit.text(canvas.draw, (col.x + 8, top + (per_column - 1) * ROW + ROW / 2),
                 _t(more_key, lang, n=len(rows) - len(shown)), SMALL, PALETTE.muted, anchor="lm")
    return top + per_column * ROW + 8


def _roster(canvas: Canvas, b: Board, view: Mapping[str, Any], lang: str) -> None:
    box = _panel(b).inset(10, 6)
    names = view.get("names") or []
    allies = []
    for a in view["allies"]:
        parts = [_lit(a["name"], lang), f"{a['hp']}/{a['max']}", _t("ka.render.ko", lang) if a["ko"] else "",
                 a.get("square") or "", _who(names, int(a["seat"])), _status_text(a.get("status") or {}, lang)]
        if a.get("order", "ask") != "ask":  # a standing block order: the table will not ask this ally
            parts.append(_t(ORDER_KEYS.get(str(a["order"]), "ka.render.order_block"), lang))
        tank = a.get("tank") or [0, 0]
        parts.append(_t("ka.render.tank", lang, used=tank[0], of=tank[1]))
        allies.append((ally_figure(a, lang), " · ".join(p for p in parts if p), a["id"] == view.get("active"),
                       bool(a["ko"])))
    y = _section(canvas, box, _t("ka.render.allies", lang), allies, ALLY_ROWS, "ka.render.more", lang)
    monsters = []
    for m in sorted(view["monsters"], key=lambda m: _left(b, m)):
        level = _t("ka.render.boss", lang) if m["boss"] else _t("ka.render.level", lang, n=m["level"])
        parts = [_lit(m["name"], lang), f"{m['hp']}/{m['max']}", str(m["square"]),
                 _status_text(m.get("status") or {}, lang), level]
        monsters.append((monster_figure(m, lang), " · ".join(p for p in parts if p), False, False))
    title = _t("ka.render.monsters", lang, n=len(monsters), later=view.get("to_arrive", 0))
    y = _section(canvas, Box(box.x, y, box.w, box.y2 - y), title, monsters, MONSTER_ROWS, "ka.render.more", lang)
    lh = kit.line_height(SMALL) + 6
    kit.text(canvas.draw, (box.x, y + lh / 2), _t("ka.render.log", lang), TEXT, PALETTE.ink, anchor="lm", bold=True)
    for k, entry in enumerate((view.get("log") or [])[-LOG_LINES:]):
        line = i18n.t(Msg.from_json(entry), lang, lambda s: _who(names, s))
        kit.text(canvas.draw, (box.x, y + lh * (k + 1) + lh / 2), line, SMALL, PALETTE.muted, anchor="lm",
                 max_width=box.w)


def render(view: dict[str, Any], lang: str) -> bytes:
    """The map with every figure, the Gate, wave and coins, and the roster with a short log, as PNG bytes."""
    b = board(str(view["map"]), view.get("map_spec"))
    grid = _grid(b)
    canvas = Canvas.from_image(_base(b, lang).copy())
    _towers(canvas, grid, b, view)
    _gate_label(canvas, grid, b, view)
    _figures(canvas, grid, b, view, lang)
    _tower_labels(canvas, grid, b, view)
    _header(canvas, view, lang)
    _roster(canvas, b, view, lang)
    return canvas.png()
