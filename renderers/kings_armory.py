"""The King's Armory image: the map with its lanes and arrows, towers, allies and monsters, the Gate, and a roster."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image

import i18n
from renderers import board as kb
from renderers import kit
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules.kings_armory.board import STEP, Board, Sq, board, footprint
from rules.text import Msg

CELL = 34
MARGIN = 12
HEADER = 44
#: Room around the labelled field for the squares off it: entrances, castle exits, parapets and the Gate.
OFF = 2 * CELL
PANEL_W = 430
LEGEND_H = 64
LOG_LINES = 6
TEXT = 13
SMALL = 12

GROUND = kb.Terrain((0x6E, 0x8B, 0x4E))
PATH = kb.Terrain((0xC9, 0xB2, 0x82))
OFFSQ: Color = (0x9C, 0x8F, 0x78)
GATE: Color = (0x6B, 0x4A, 0x2B)
TOWER: Color = (0x8E, 0x91, 0x99)
RED: Color = OKABE_ITO["vermillion"]
YELLOW: Color = OKABE_ITO["yellow"]
SEAT_COLORS: tuple[Color, ...] = (OKABE_ITO["sky_blue"], OKABE_ITO["orange"], OKABE_ITO["bluish_green"],
                                  OKABE_ITO["reddish_purple"], OKABE_ITO["blue"], (0xF3, 0xF3, 0xF3),
                                  (0x8A, 0x5A, 0x2B))
#: Monster tokens by level, as the box colours them: yellow, green, blue, purple, red; bosses grey (§1.4).
LEVEL_COLORS: dict[int, Color] = {1: (0xF0, 0xD7, 0x4A), 2: (0x3C, 0xA0, 0x5A), 3: (0x3A, 0x78, 0xC8),
                                  4: (0x8E, 0x55, 0xB5), 5: (0xC8, 0x3C, 0x3C), 0: (0x8A, 0x8F, 0x9C)}
STATUS_COLORS: dict[str, Color] = {"bleed": (0xC0, 0x1E, 0x2E), "burn": OKABE_ITO["orange"],
                                   "slow": OKABE_ITO["sky_blue"], "stun": OKABE_ITO["yellow"],
                                   "bless": (0xF3, 0xF3, 0xF3)}


def _t(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _lit(value: Any, lang: str) -> str:
    if isinstance(value, Mapping):
        return str(value.get(lang) or value.get("en") or "")
    return str(value)


def _grid(b: Board) -> kb.SquareGrid:
    return kb.SquareGrid(b.width, b.height, cell=CELL, x=MARGIN + OFF, y=HEADER + OFF)


def _size(b: Board) -> tuple[int, int]:
    g = _grid(b)
    return MARGIN + OFF + g.width + OFF + MARGIN + PANEL_W + MARGIN, HEADER + OFF + g.height + OFF + LEGEND_H + MARGIN


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


# ---------------------------------------------------------------- the static layer


@lru_cache(maxsize=8)
def _base(b: Board, lang: str) -> Image.Image:
    """The map, its arrows, the squares off the field, the legend and the panel (shared: never draw on it)."""
    grid = _grid(b)
    spec = kb.StaticSpec(grid, {sq: PATH for sq in b.path}, GROUND, size=_size(b), line=(0x4A, 0x5A, 0x3A))
    canvas = Canvas.from_image(kb.static_image(spec).copy())
    d = canvas.draw
    special = {**{sq: name for name, sq in b.entrance.items()}, **{sq: name for name, sq in b.exits.items()}}
    for sq, label in sorted(b.labels.items()):
        if sq in b.parapets.values() or sq in special:
            box = sq_box(grid, sq)
            d.rectangle(box.rect, fill=OFFSQ, outline=kb.EDGE)
            kit.text(d, (box.x + box.w / 2, box.y + box.h - 6), label, 9, PALETTE.dark_ink, anchor="mm")
    gate = [sq_box(grid, sq) for sq in b.gate]
    whole = Box(min(g.x for g in gate), min(g.y for g in gate), max(g.x2 for g in gate) - min(g.x for g in gate),
                max(g.y2 for g in gate) - min(g.y for g in gate))
    d.rectangle(whole.rect, fill=GATE, outline=kb.EDGE, width=2)
    for sq, arrows in arrow_colors(b).items():
        for nxt, color in arrows:
            _lane_arrow(canvas, grid, sq, nxt, color)
    items = [kb.LegendItem(_t("ka.render.path", lang), PATH), kb.LegendItem(_t("ka.render.ground", lang), GROUND),
             kb.LegendItem(_t("ka.render.red", lang), kb.Arrow((), RED)),
             kb.LegendItem(_t("ka.render.yellow", lang), kb.Arrow((), YELLOW)),
             kb.LegendItem(_t("ka.render.tower", lang), kb.Terrain(TOWER)),
             kb.LegendItem(_t("ka.render.gate", lang), kb.Terrain(GATE)),
             *(kb.LegendItem(_t(f"ka.render.st.{k}", lang), kb.Terrain(c)) for k, c in STATUS_COLORS.items()),
             *kb.marks_legend(lang, reach=False)]
    width, height = _size(b)
    kb.legend(canvas, Box(MARGIN, height - LEGEND_H - MARGIN + 6, width - 2 * MARGIN, LEGEND_H - 6), items, size=12)
    d.rounded_rectangle(_panel(b).rect, radius=8, fill=PALETTE.panel)
    return canvas.image


def _lane_arrow(canvas: Canvas, grid: kb.SquareGrid, sq: Sq, nxt: Sq, color: Color) -> None:
    """A small arrowhead in the square pointing toward the next square of the route."""
    box = sq_box(grid, sq)
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    dr, dc = nxt[0] - sq[0], nxt[1] - sq[1]
    if (dr, dc) not in STEP.values():
        return
    if color == YELLOW:  # a fork's second arrow sits beside the red one
        cx, cy = cx + 8 * abs(dr), cy + 8 * abs(dc)
    k = box.w * 0.2
    tip = (cx + dc * k, cy + dr * k)
    back = (cx - dc * k * 0.6, cy - dr * k * 0.6)
    side = (dr * k * 0.7, -dc * k * 0.7)
    pts = [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])]
    canvas.draw.polygon(pts, fill=color, outline=kb.EDGE)


def _panel(b: Board) -> Box:
    g = _grid(b)
    return Box(MARGIN + OFF + g.width + OFF + MARGIN, HEADER, PANEL_W, OFF + g.height + OFF)


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _base.cache_clear()


# ---------------------------------------------------------------- figures


def initials(name: str) -> str:
    """Two letters for a token: the first letters of the first two words, else the first two letters."""
    words = [w for w in name.replace("(", " ").split() if w[:1].isalpha()]
    return (words[0][0] + words[1][0]).upper() if len(words) > 1 else name[:2].upper()


def _ally_piece(a: Mapping[str, Any], sq: Sq, active: bool) -> kb.Piece:
    color = SEAT_COLORS[int(a["seat"]) % len(SEAT_COLORS)]
    label = str(a["type"])[:2].upper() if a["kind"] == "hero" else str(a["type"])[:1].upper() + str(a["level"])
    return kb.Piece(sq, label, color, shape="circle" if a["kind"] == "hero" else "square",
                    badge=f"{a['hp']}/{a['max']}", bar=a["hp"] / max(1, a["max"]), faded=bool(a["ko"]),
                    active=active)


def _monster_piece(m: Mapping[str, Any], sq: Sq, lang: str) -> kb.Piece:
    shape = "octagon" if m["boss"] else "triangle" if "F" in m["flags"] else "diamond"
    return kb.Piece(sq, initials(_lit(m["name"], lang)), LEVEL_COLORS.get(int(m["level"]), LEVEL_COLORS[0]),
                    shape=shape, badge=str(m["hp"]), bar=m["hp"] / max(1, m["max"]))


def _pips(canvas: Canvas, box: Box, status: Mapping[str, int]) -> None:
    """Status tokens as small coloured pips along the square's top edge, one per token."""
    x = box.x + 1
    for kind, color in STATUS_COLORS.items():
        for _ in range(min(4, int(status.get(kind, 0)))):
            canvas.draw.ellipse((x, box.y + 1, x + 6, box.y + 7), fill=color, outline=kb.EDGE)
            x += 6
            if x > box.x2 - 6:
                return


def _figures(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any], lang: str) -> None:
    by_square: dict[Sq, list[tuple[kb.Piece, Mapping[str, Any]]]] = {}
    for a in view["allies"]:
        sq = b.parse(str(a["square"])) if a.get("square") else None
        if sq is not None:
            by_square.setdefault(sq, []).append((_ally_piece(a, sq, a["id"] == view.get("active")), a))
    for m in view["monsters"]:
        sq = b.parse(str(m["square"]))
        if sq is not None:
            by_square.setdefault(sq, []).append((_monster_piece(m, sq, lang), m))
    for sq, items in sorted(by_square.items()):
        box = grid.token_box(sq) if grid.contains(sq) else sq_box(grid, sq).inset(2)
        parts = box.split_h(len(items)) if len(items) > 1 else [box]
        for part, (piece, fig) in zip(parts, items, strict=True):
            if piece.active:
                canvas.draw.rectangle(sq_box(grid, sq).rect, outline=PALETTE.ink, width=2)
            kb.draw_piece(canvas, part, piece)
            _pips(canvas, part, fig.get("status") or {})


def _towers(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any]) -> None:
    d = canvas.draw
    for i, t in enumerate(view["towers"]):
        corner = b.parse(str(t["square"]))
        if corner is None:
            continue
        cells = [sq_box(grid, sq) for sq in footprint(corner)]
        box = Box(cells[0].x, cells[0].y, cells[-1].x2 - cells[0].x, cells[-1].y2 - cells[0].y)
        d.rectangle(box.rect, fill=TOWER, outline=kb.EDGE, width=2)
        for k in range(box.x + 2, box.x2 - 4, 8):  # the parapet's crenellations
            d.rectangle((k, box.y + 2, k + 3, box.y + 5), fill=kb.EDGE)
        kit.text(d, (box.x + 3, box.y2 - 3), f"T{i + 1} {t['used']}/3", 9, PALETTE.dark_ink, anchor="ld")


# ---------------------------------------------------------------- header and panel


def _header(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    gate, gate_max = view["gate"]
    parts = [_t("ka.name", lang), _t("ka.render.wave", lang, wave=view["wave"], waves=view["waves"])]
    if view.get("score") is not None:  # Endurance: waves survived so far
        parts.append(_t("ka.render.score", lang, score=view["score"]))
    if view["phase"] in ("enemy", "allies"):
        parts.append(_t("ka.render.enemy_turn", lang, n=view["enemy_turn"]))
    phase = "pick_champions" if view["phase"] == "pick" and "not_enough" in view.get("variants", ()) else view["phase"]
    result = view.get("result")
    if result is not None:  # the end screen says how it ended: "Defeat: the Castle Gate fell in wave 4."
        phase_text = _t("ka.render.over.won" if result == "won" else f"ka.render.over.{result}", lang,
                        wave=view["wave"])
    else:
        phase_text = _t(f"ka.render.phase.{phase}", lang)
    parts += [phase_text, _t("ka.render.gate_hp", lang, hp=gate, max=gate_max),
              _t("ka.render.gold", lang, gold=view["gold"])]
    kit.text(canvas.draw, (MARGIN, HEADER / 2), "  ·  ".join(parts), 17, PALETTE.ink, anchor="lm", bold=True,
             max_width=canvas.image.width - 2 * MARGIN)


def _gate_label(canvas: Canvas, grid: kb.SquareGrid, b: Board, view: Mapping[str, Any]) -> None:
    boxes = [sq_box(grid, sq) for sq in b.gate]
    cx = sum(bx.x + bx.w / 2 for bx in boxes) / len(boxes)
    cy = sum(bx.y + bx.h / 2 for bx in boxes) / len(boxes)
    gate, gate_max = view["gate"]
    kit.text(canvas.draw, (cx, cy), f"{gate}/{gate_max}", 13, PALETTE.ink, anchor="mm", bold=True)


def _status_text(status: Mapping[str, int], lang: str) -> str:
    return " ".join(f"{_t(f'ka.render.st.{k}', lang)}{'' if n == 1 else f'×{n}'}" for k, n in status.items() if n)


#: The roster's word for an ally's standing block order (the default, asking, shows nothing).
ORDER_KEYS = {"block": "ka.render.order_block", "pass": "ka.render.order_pass"}


def _roster(canvas: Canvas, b: Board, view: Mapping[str, Any], lang: str) -> None:
    d = canvas.draw
    box = _panel(b).inset(10)
    lh = kit.line_height(SMALL) + 2
    names = view.get("names") or []
    y = box.y
    kit.text(d, (box.x, y), _t("ka.render.allies", lang), TEXT, PALETTE.ink, bold=True)
    y += lh + 2
    for i, a in enumerate(view["allies"]):
        if y > box.y + box.h * 0.45:
            kit.text(d, (box.x, y), _t("ka.render.more", lang, n=len(view["allies"]) - i), SMALL, PALETTE.muted)
            y += lh
            break
        seat = int(a["seat"])
        who = _who(names, seat)
        _token(canvas, Box(box.x, y - 2, 18, 18), _ally_piece(a, (0, 0), False))
        line = f"{_lit(a['name'], lang)} · {who} · {a['hp']}/{a['max']} · {a.get('square') or '-'}"
        if a["ko"]:
            line += " · " + _t("ka.render.ko", lang)
        extra = _status_text(a.get("status") or {}, lang)
        tank = a.get("tank") or [0, 0]
        line += f" · {_t('ka.render.tank', lang, used=tank[0], of=tank[1])}"
        if a.get("order", "ask") != "ask":  # a standing block order: the table will not ask this ally
            line += f" ({_t(ORDER_KEYS.get(str(a['order']), 'ka.render.order_block'), lang)})"
        line += f" · {extra}" if extra else ""
        kit.text(d, (box.x + 24, y), line, SMALL, PALETTE.muted if a["ko"] else PALETTE.ink,
                 bold=a["id"] == view.get("active"), max_width=box.w - 24)
        y += lh
    y += 6
    monsters = sorted(view["monsters"], key=lambda m: _left(b, m))
    kit.text(d, (box.x, y), _t("ka.render.monsters", lang, n=len(monsters), later=view.get("to_arrive", 0)), TEXT,
             PALETTE.ink, bold=True)
    y += lh + 2
    log_top = box.y2 - LOG_LINES * lh - lh - 4
    for i, m in enumerate(monsters):
        if y > log_top - 2 * lh:
            kit.text(d, (box.x, y), _t("ka.render.more", lang, n=len(monsters) - i), SMALL, PALETTE.muted)
            break
        _token(canvas, Box(box.x, y - 2, 18, 18), _monster_piece(m, (0, 0), lang))
        line = f"{_lit(m['name'], lang)} · {m['hp']}/{m['max']} · {m['square']}"
        extra = _status_text(m.get("status") or {}, lang)
        kit.text(d, (box.x + 24, y), line + (f" · {extra}" if extra else ""), SMALL, PALETTE.ink, max_width=box.w - 24)
        y += lh
    kit.text(d, (box.x, log_top), _t("ka.render.log", lang), TEXT, PALETTE.ink, bold=True)
    for k, entry in enumerate((view.get("log") or [])[-LOG_LINES:]):
        line = i18n.t(Msg.from_json(entry), lang, lambda s: _who(names, s))
        kit.text(d, (box.x, log_top + lh + 4 + k * lh), line, SMALL, PALETTE.muted, max_width=box.w)


def _token(canvas: Canvas, box: Box, piece: kb.Piece) -> None:
    """A roster's small token: the piece's shape and letters, without its badge and bar."""
    kb.draw_piece(canvas, box, kb.Piece(piece.cell, piece.label, piece.color, shape=piece.shape, faded=piece.faded))


def _who(names: list[str], seat: int) -> str:
    return str(names[seat]) if 0 <= seat < len(names) else f"P{seat + 1}"


def _left(b: Board, m: Mapping[str, Any]) -> tuple[int, str]:
    sq = b.parse(str(m["square"]))
    lane = b.lanes.get(str(m["lane"]), [])
    return (b.route_left(str(m["lane"]), lane.index(sq)) if sq in lane else 0), str(m["id"])


def render(view: dict[str, Any], lang: str) -> bytes:
    """The map with every figure, the Gate, wave and coins, and the roster with a short log, as PNG bytes."""
    b = board(str(view["map"]), view.get("map_spec"))
    grid = _grid(b)
    canvas = Canvas.from_image(_base(b, lang).copy())
    _towers(canvas, grid, b, view)
    _gate_label(canvas, grid, b, view)
    _figures(canvas, grid, b, view, lang)
    _header(canvas, view, lang)
    _roster(canvas, b, view, lang)
    return canvas.png()
