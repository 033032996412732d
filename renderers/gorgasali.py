"""Gorgasali Battle Royale image: the island, its zones, chests, banners and fighters, with a roster of mats.

Laid out for a phone, where Discord shows it about 400 px wide: the image is 800 px wide (every size here is
twice what the phone shows), the island on top and the roster two fighters to a row under it. Once a zone has
closed, the board is cropped to the open island and every fighter (plus a square), and its edges still print
the real names of the squares shown. Each fighter has its own colour (Okabe–Ito, colour-blind safe), its own
letter (the player's initial, or two letters, or the seat number, whichever is unique at the table) and a
shape (its own, or its team's in duos), drawn larger than a square; fighters sharing a square stand side by
side. The shot of the turn being played (`shot_now` in the view) is an arrow with its dice, labelled where no
token hides it; older shots are not drawn. The ring that closes next is tinted and outlined, dashed, with the
round it closes after in the legend: the zones are fixed rings, public from the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import i18n
from renderers import board as kb
from renderers import kit
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules import coords
from rules.gorgasali.data import WEAPONS
from rules.gorgasali.views import CardView, View

SIZE = 30  # the island's squares a side
WIDTH = 800
MARGIN = 16
HEADER = 84
LABEL = 20  # the edge labels at most (smaller when "AD" would not fit its column)
BOARD_MAX_H = 880
CROP_MARGIN = 1
TOKEN = 1.5  # a lone fighter's token, in squares
TOKEN_CLOSE = 1.15  # a fighter with another next to it
LEGEND_TEXT = 19
TEXT = 21
SMALL = 19
CARD_H = 112

PLAIN = kb.Terrain((0xD6, 0xCF, 0xA8))
FOREST = kb.Terrain((0x3F, 0x7D, 0x45), glyph="tree")
MOUNTAIN = kb.Terrain((0x8C, 0x7B, 0x68), glyph="mountain")
WATER = kb.Terrain((0x4A, 0x86, 0xC0), glyph="waves")
HEALING = kb.Terrain((0xD6, 0xCF, 0xA8), glyph="cross", glyph_color=OKABE_ITO["bluish_green"])
SECTOR = kb.Terrain((0xC7, 0xBE, 0x94))
TREE: Color = (0x1F, 0x4D, 0x2A)
TERRAIN = {".": PLAIN, "C": PLAIN, "S": SECTOR, "F": FOREST, "M": MOUNTAIN, "W": WATER, "H": HEALING}
CHEST: Color = (0x8A, 0x55, 0x1E)
CLOSED = kb.Shade((), (0x2E, 0x2A, 0x3E), alpha=0.5, hatch=True)
NEXT: Color = PALETTE.warn
NEXT_SHADE = kb.Shade((), NEXT, alpha=0.22)
BANNERS: dict[str, tuple[Color, str]] = {
    "barrier": ((0x55, 0x55, 0x5E), "shield"),
    "ball": (OKABE_ITO["yellow"], "star"),
    "field": (OKABE_ITO["sky_blue"], "ring"),
    "platform": ((0x8A, 0x5A, 0x2B), "tree"),
    "smoke": ((0xB0, 0xB0, 0xB8), "diamond"),
}
#: Each seat's colour and shape: colours that are alike for some eyes (orange, vermillion and yellow; sky blue
#: and blue) never share a shape, and every fighter also has its own letter.
SEATS: tuple[tuple[Color, str], ...] = (
    (OKABE_ITO["orange"], "circle"), (OKABE_ITO["sky_blue"], "square"), (OKABE_ITO["bluish_green"], "diamond"),
    (OKABE_ITO["reddish_purple"], "hexagon"), (OKABE_ITO["blue"], "octagon"), (OKABE_ITO["vermillion"], "square"),
    (OKABE_ITO["yellow"], "diamond"), ((0xF3, 0xF3, 0xF3), "circle"), ((0x8A, 0x5A, 0x2B), "hexagon"),
    ((0x7F, 0x7F, 0x7F), "octagon"))
SEAT_COLORS: tuple[Color, ...] = tuple(c for c, _ in SEATS)
TEAM_SHAPES = ("circle", "square", "diamond", "hexagon", "octagon")
RARITY: dict[str, Color] = {"common": (0x9E, 0x9E, 0x9E), "rare": (0x2F, 0x80, 0xED), "epic": (0x9B, 0x51, 0xE0),
                            "legendary": (0xF2, 0x99, 0x4A)}
ARMOUR: Color = (0x3A, 0x4A, 0x6A)
PATH: Color = PALETTE.ink
SHOT: Color = PALETTE.danger


def _t(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _cell(name: object) -> tuple[int, int] | None:
    return coords.parse(name, SIZE, SIZE) if isinstance(name, str) else None


def _name(view: View, seat: int) -> str:
    names = view.get("names") or []
    return str(names[seat]) if seat < len(names) else f"P{seat + 1}"


def _key(code: str) -> str:
    """What two codes must not share: the same letters in any order and any case."""
    return "".join(sorted(code.upper()))


def codes(view: View) -> dict[int, str]:
    """Each fighter's letter, by seat: the player's initial where no one else's is the same, else its first two
    letters; if two codes still clash (or mirror each other), every fighter gets its seat number."""
    seats = [p["seat"] for p in view.get("players", [])]
    names = {seat: "".join(ch for ch in _name(view, seat) if ch.isalnum()) or str(seat + 1) for seat in seats}
    initials = [names[seat][:1].upper() for seat in seats]
    out = {seat: names[seat][:1].upper() if initials.count(names[seat][:1].upper()) == 1
           else names[seat][:2].upper() for seat in seats}
    if len({_key(c) for c in out.values()}) < len(out):
        return {seat: str(seat + 1) for seat in seats}
    return out


def initials(char: str | None, seat: int) -> str:
    """Two letters of a character (all ten differ), else the seat number (kept for callers of the old name)."""
    return char[:2].upper() if char else str(seat + 1)


def look(view: View, seat: int) -> tuple[Color, str]:
    """A fighter's colour and shape: the seat's own; in duos the shape is the team's."""
    color, shape = SEATS[seat % len(SEATS)]
    if view.get("mode") == "duo":
        team = next((p["team"] for p in view.get("players", []) if p["seat"] == seat), 0)
        shape = TEAM_SHAPES[int(team or 0) % len(TEAM_SHAPES)]
    return color, shape


# ---------------------------------------------------------------- the crop and the static layer


def crop(view: View) -> tuple[int, int, int, int]:
    """The squares drawn, as (first row, first column, rows, columns): the whole island until a zone closes,
    then the open island and every fighter standing outside it, plus `CROP_MARGIN` squares."""
    zones = view["map"]["zones"]
    closed_n = int(view.get("zone") or 0)
    if not closed_n:
        return 0, 0, SIZE, SIZE
    cells = [(r, c) for r, row in enumerate(zones) for c, z in enumerate(row) if int(z) > closed_n]
    for p in view["players"]:
        at = _cell(p.get("at")) if p.get("alive") else _cell(p.get("ghost"))
        if at is not None:
            cells.append(at)
    if not cells:
        return 0, 0, SIZE, SIZE
    r0 = max(0, min(r for r, _ in cells) - CROP_MARGIN)
    c0 = max(0, min(c for _, c in cells) - CROP_MARGIN)
    r1 = min(SIZE, max(r for r, _ in cells) + CROP_MARGIN + 1)
    c1 = min(SIZE, max(c for _, c in cells) + CROP_MARGIN + 1)
    return r0, c0, r1 - r0, c1 - c0


@lru_cache(maxsize=8)
def grid_for(window: tuple[int, int, int, int]) -> kb.SquareGrid:
    """The board's grid for a crop: as large as fits the image's width, centred."""
    r0, c0, rows, cols = window
    widest = max((coords.column_name(c) for c in range(c0, c0 + cols)), key=lambda n: kit.text_width(n, LABEL))
    for label in range(LABEL, 9, -1):  # the edge labels as large as fits: "AD" within its column
        fit = kb.SquareGrid.fit(cols, rows, WIDTH - 2 * MARGIN, BOARD_MAX_H, col0=c0, row0=r0, label_px=label,
                                max_cell=72)
        if kit.text_width(widest, label) + 4 <= fit.cell:
            break
    return kb.SquareGrid(cols, rows, fit.cell, (WIDTH - fit.width) // 2, HEADER, c0, r0, label)


GRID = grid_for((0, 0, SIZE, SIZE))  # the whole island, as drawn until a zone closes
CELL = GRID.cell


@lru_cache(maxsize=8)
def _spec(rows: tuple[str, ...], grid: kb.SquareGrid = GRID, height: int = 0) -> kb.StaticSpec:
    cells = {}
    tree = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if not grid.contains((r, c)):
                continue
            if ch == "T":
                tree.append((r, c))
            elif ch != "." and ch in TERRAIN:
                cells[(r, c)] = TERRAIN[ch]
    blocks = (kb.Block(tuple(tree), TREE, "", "tree"),) if tree else ()
    return kb.StaticSpec(grid, cells, PLAIN, blocks=blocks, size=(WIDTH, height or grid.y + grid.height + MARGIN),
                         line=(0x8E, 0x88, 0x70))


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _spec.cache_clear()
    grid_for.cache_clear()


# ---------------------------------------------------------------- the dynamic layers


def _layers(view: View, grid: kb.SquareGrid) -> kb.Layers:
    zones = view["map"]["zones"]
    closed_n = int(view.get("zone") or 0)
    closed = tuple((r, c) for r, row in enumerate(zones) for c, z in enumerate(row)
                   if int(z) <= closed_n and grid.contains((r, c)))
    # a tint and hatching, so closed squares read at a glance and in grey
    shades = [kb.Shade(closed, CLOSED.color, 0.3), kb.Shade(closed, CLOSED.color, CLOSED.alpha, hatch=True)] \
        if closed else []
    outlines = []
    if view.get("next_close") is not None:
        ring = tuple((r, c) for r, row in enumerate(zones) for c, z in enumerate(row)
                     if int(z) == closed_n + 1 and grid.contains((r, c)))
        after = tuple((r, c) for r, row in enumerate(zones) for c, z in enumerate(row)
                      if int(z) > closed_n + 1 and grid.contains((r, c)))
        shades.append(kb.Shade(ring, NEXT_SHADE.color, NEXT_SHADE.alpha))
        if after:  # the island's edge once the ring has closed
            outlines.append(kb.Outline(after, NEXT, width=max(3, grid.cell // 8), dashed=True))
    marks = []
    for b in view.get("banners") or []:
        color, icon = BANNERS.get(b["kind"], (PALETTE.muted, "star"))
        cells = tuple(c for c in map(_cell, b["at"]) if c is not None and grid.contains(c))
        shades.append(kb.Shade(cells, color, 0.45))
        marks += [kb.Mark(c, icon, color if b["kind"] != "ball" else (0x55, 0x4A, 0x00), corner=True) for c in cells]
    marks += [kb.Mark(c, "chest", CHEST) for c in map(_cell, view.get("chests") or []) if c is not None
              and grid.contains(c)]
    arrows = []
    path = tuple(c for c in map(_cell, view.get("path") or []) if c is not None and grid.contains(c))
    if len(path) > 1:
        arrows.append(kb.Arrow(path, PATH))
    shot = _shot(view, "en")
    if shot is not None and all(grid.contains(c) for c in shot.path):
        arrows.append(kb.Arrow(shot.path, shot.color, shot.dashed))  # its label goes on top of the tokens
    reach = tuple(c for c in (_cell(s.get("to")) for s in view.get("steps") or []) if c is not None
                  and grid.contains(c))
    return kb.Layers(shades=tuple(shades), outlines=tuple(outlines), reach=reach, marks=tuple(marks),
                     arrows=tuple(arrows))


def _shot(view: View, lang: str) -> kb.Arrow | None:
    """The shot of the turn being played, from shooter to target, labelled with its dice and outcome."""
    last = view.get("last")
    if not view.get("shot_now") or not isinstance(last, Mapping) or "shooter" not in last or "target" not in last:
        return None
    players = view["players"]
    a, b = last["shooter"], last["target"]
    if not (0 <= a < len(players) and 0 <= b < len(players)):
        return None
    src, dst = _cell(players[a].get("at")), _cell(players[b].get("at") or players[b].get("ghost"))
    if src is None or dst is None or src == dst:
        return None
    outcome = f"-{last.get('raw', 0)}" if last.get("hit") else _t("gg.render.miss", lang)
    dice = last.get("eff") or last.get("dice") or []
    label = f"({' '.join(str(d) for d in dice)}) {outcome}" if dice else outcome  # the dice as rolled
    return kb.Arrow((src, dst), SHOT, dashed=not last.get("hit"), label=label)


# ---------------------------------------------------------------- fighters


def token_boxes(view: View, grid: kb.SquareGrid) -> dict[int, Box]:
    """Where each fighter on the board is drawn, by seat: a token larger than a square (smaller when another
    fighter stands next to it), centred on its square; fighters sharing a square side by side."""
    at: dict[int, tuple[int, int]] = {}
    for p in view["players"]:
        sq = _cell(p.get("at"))
        if sq is not None and p.get("alive") and grid.contains(sq):
            at[p["seat"]] = sq
    by_square: dict[tuple[int, int], list[int]] = {}
    for seat, sq in sorted(at.items()):
        by_square.setdefault(sq, []).append(seat)
    out = {}
    for sq, seats in by_square.items():
        near = any(o != sq and max(abs(o[0] - sq[0]), abs(o[1] - sq[1])) <= 1 for o in by_square)
        side = round(grid.cell * (TOKEN_CLOSE if near or len(seats) > 1 else TOKEN))
        cx, cy = grid.cell_box(sq).center
        n = len(seats)
        step = side if n <= 2 else round(side * 0.8)
        for i, seat in enumerate(seats):
            x = round(cx + (i - (n - 1) / 2) * step - side / 2)
            out[seat] = Box(x, cy - side // 2, side, side)
    return out


def _fighters(canvas: Canvas, view: View, grid: kb.SquareGrid, boxes: Mapping[int, Box]) -> None:
    letters = codes(view)
    turn = view.get("turn")
    order = sorted(boxes, key=lambda seat: seat == turn)  # the fighter on turn on top
    d = canvas.draw
    for seat in order:
        p = view["players"][seat]
        box = boxes[seat]
        color, shape = look(view, seat)
        ring = SEAT_COLORS[(p["team"] * 2) % len(SEAT_COLORS)] if view.get("mode") == "duo" else None
        if seat == turn:
            kb.draw_active_frame(d, grid, _cell(p["at"]) or (0, 0))
        bar = max(0.0, min(1.0, p["hp"] / 100))
        kb.draw_piece(canvas, box, kb.Piece((0, 0), letters[seat], color, shape, bar=bar, ring=ring,
                                            active=seat == turn))
        if p["mat"]["helmet"] or p["mat"]["body"]:
            side = max(10, box.w * 2 // 5)
            shield = Box(box.x - side // 4, box.y - side // 4, side, side)
            d.ellipse(shield.inset(-2).rect, fill=kb.EDGE)
            kit.icon(d, "shield", shield, ARMOUR if kit.luminance(color) > 0.2 else (0xC8, 0xD2, 0xE6))


SHOT_TEXT = 22


def shot_label_box(view: View, grid: kb.SquareGrid, boxes: Mapping[int, Box], lang: str) -> Box | None:
    """Where the shot's pill goes: beside its line where no token covers it (else where the fewest do), in the
    board; None when no shot is drawn."""
    shot = _shot(view, lang)
    if shot is None or not shot.label or not all(grid.contains(c) for c in shot.path):
        return None
    w, h = kit.text_width(shot.label, SHOT_TEXT) + 14, SHOT_TEXT + 10
    (x0, y0), (x1, y1) = grid.center(shot.path[0]), grid.center(shot.path[-1])
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # across the line
    tokens = list(boxes.values())
    field = grid.field

    def pill_at(t: float, off: float) -> Box:
        x, y = mx + (x1 - x0) * t + nx * off, my + (y1 - y0) * t + ny * off
        box = Box(round(x - w / 2), round(y - h / 2), w, h)
        return Box(min(max(box.x, field.x), field.x2 - w), min(max(box.y, field.y), field.y2 - h), w, h)

    def clash(b: Box) -> int:
        return sum(1 for t in tokens if b.x < t.x2 and t.x < b.x2 and b.y < t.y2 and t.y < b.y2)

    # beside the line first, so the line shows too; then on it; then further off
    tries = [pill_at(t, off) for off in (h, -h, 0, 2 * h, -2 * h, 3 * h, -3 * h) for t in (0, -0.2, 0.2)]
    return min(tries, key=clash)  # the first with the fewest tokens under it


def _shot_label(canvas: Canvas, view: View, grid: kb.SquareGrid, boxes: Mapping[int, Box],
                lang: str) -> None:
    """The shot's dice and outcome in a pill on top of everything."""
    pill = shot_label_box(view, grid, boxes, lang)
    shot = _shot(view, lang)
    if pill is None or shot is None:
        return
    d = canvas.draw
    d.rounded_rectangle(pill.rect, radius=pill.h // 2, fill=kb.EDGE, outline=SHOT, width=3)
    kit.text(d, pill.center, shot.label, SHOT_TEXT, PALETTE.ink, anchor="mm", bold=True)


# ---------------------------------------------------------------- legend, header and roster


def _legend_items(view: View, lang: str, grid: kb.SquareGrid) -> list[kb.LegendItem]:
    items = [kb.LegendItem(_t("gg.render.forest", lang), FOREST),
             kb.LegendItem(_t("gg.render.mountain", lang), MOUNTAIN),
             kb.LegendItem(_t("gg.render.water", lang), WATER),
             kb.LegendItem(_t("gg.render.tree", lang), kb.Terrain(TREE, glyph="tree")),
             kb.LegendItem(_t("gg.render.healing", lang), HEALING),
             kb.LegendItem(_t("gg.render.chest", lang), kb.Mark((0, 0), "chest", CHEST))]
    if view.get("zone"):
        items.append(kb.LegendItem(_t("gg.render.closed", lang), CLOSED))
    if view.get("next_close") is not None:
        items.append(kb.LegendItem(_t("gg.render.phone.next_zone", lang, round=view["next_close"]),
                                   kb.Shade((), NEXT, 0.5, hatch=False)))
    if view.get("phase") == "pick" or not view.get("round"):
        items.append(kb.LegendItem(_t("gg.render.sector", lang), SECTOR))
    kinds = {b["kind"] for b in view.get("banners") or []}
    items += [kb.LegendItem(_t(f"gg.banner.{k}", lang), kb.Mark((0, 0), icon, color))
              for k, (color, icon) in BANNERS.items() if k in kinds]
    if any(p.get("alive") and (p["mat"]["helmet"] or p["mat"]["body"]) for p in view["players"]):
        items.append(kb.LegendItem(_t("gg.render.armoured", lang), kb.Mark((0, 0), "shield", ARMOUR)))
    if len(view.get("path") or []) > 1:
        items.append(kb.LegendItem(_t("gg.render.path", lang), kb.Arrow((), PATH)))
    if _shot(view, lang) is not None:
        items.append(kb.LegendItem(_t("gg.render.phone.shot_now", lang), kb.Arrow((), SHOT)))
    items += kb.marks_legend(lang, reach=bool(view.get("steps")), active=isinstance(view.get("turn"), int))
    return items


def _legend_height(items: Sequence[kb.LegendItem], width: int) -> int:
    sw = round(LEGEND_TEXT * 1.6)
    gap = round(LEGEND_TEXT * 1.2)
    x, rows = 0, 1 if items else 0
    for item in items:
        w = sw + 6 + min(kit.text_width(item.label, LEGEND_TEXT), width - sw - 6)
        if x > 0 and x + w > width:
            x, rows = 0, rows + 1
        x += w + gap
    return rows * (sw + 6)


def _header(canvas: Canvas, view: View, lang: str) -> None:
    d = canvas.draw
    turn = view.get("turn")
    first = [_t("gg.render.title", lang), _t("gg.render.round", lang, n=view.get("round", 0))]
    if view.get("winners") is not None:
        first.append(_t("gg.render.over", lang))
    elif isinstance(turn, int):
        first.append(_t("gg.render.turn", lang, name=_name(view, turn)))
    second = [_t("gg.render.zone", lang, closed=view.get("zone", 0), penalty=view.get("penalty", 0))]
    if view.get("next_close") is not None:
        second.append(_t("gg.render.next_close", lang, round=view["next_close"]))
    kit.text(d, (MARGIN, 10), " · ".join(first), 28, PALETTE.ink, bold=True, max_width=WIDTH - 2 * MARGIN)
    kit.text(d, (MARGIN, 48), " · ".join(second), 21, PALETTE.muted, max_width=WIDTH - 2 * MARGIN)


def _card_label(entry: CardView, lang: str) -> str:
    name = _t(f"gg.card.{entry['card']}", lang)
    if "loaded" in entry and not entry["loaded"]:
        name += " (" + _t("gg.render.unloaded", lang) + ")"
    return name


def _roster_height(view: View) -> int:
    return 20 + ((len(view["players"]) + 1) // 2) * (CARD_H + 10)


def _roster(canvas: Canvas, view: View, lang: str, panel: Box) -> None:
    """Each fighter as a card, two to a row: token, name and character, HP, armour and square, weapons, the rest."""
    d = canvas.draw
    d.rounded_rectangle(panel.rect, radius=10, fill=PALETTE.panel)
    inner = panel.inset(10)
    col_w = (inner.w - 10) // 2
    you = view.get("you")
    letters = codes(view)
    picking = view.get("phase") == "pick"
    lh = kit.line_height(SMALL) + 2
    for i, p in enumerate(view["players"]):
        seat = p["seat"]
        card = Box(inner.x + (i % 2) * (col_w + 10), inner.y + (i // 2) * (CARD_H + 10), col_w, CARD_H)
        d.rounded_rectangle(card.rect, radius=8, fill=PALETTE.panel_alt if seat != view.get("turn") else
                            kit.mix(PALETTE.panel_alt, PALETTE.highlight, 0.18))
        color, shape = look(view, seat)
        out = not p["alive"] and not picking
        token = Box(card.x + 6, card.y + 8, 44, 44)
        kb.draw_piece(canvas, token, kb.Piece((0, 0), letters[seat], color, shape, faded=out))
        x = token.x2 + 8
        title = _name(view, seat)
        if p.get("char"):
            title += " · " + _t(f"gg.char.{p['char']}", lang)
        if seat == you:
            title += f" ({_t('gg.render.you', lang)})"
        kit.text(d, (x, card.y + 6), title, TEXT, PALETTE.muted if out else PALETTE.ink, bold=seat == view.get("turn"),
                 max_width=card.x2 - x - 6)
        if out:
            kit.text(d, (x, card.y + 6 + lh + 4), _t("gg.render.out", lang), SMALL, PALETTE.muted)
            continue
        mat = p["mat"]
        armour = [e for slot in ("helmet", "body") for e in mat[slot]]
        status = [_t("gg.render.hp", lang, hp=p["hp"]), _t("gg.render.armour", lang, n=len(armour))]
        if p.get("at"):
            status.append(_t("gg.render.at", lang, at=p["at"]))
        flags = [_t(f"gg.render.{f}", lang) for f in ("frozen", "heal_block") if p.get(f)]
        y = card.y + 6 + lh + 4
        bar = Box(x, y + 6, 50, 10)
        d.rectangle(bar.rect, fill=PALETTE.background)
        d.rectangle((bar.x, bar.y, bar.x + round(bar.w * max(0, min(100, p["hp"])) / 100), bar.y2),
                    fill=PALETTE.health if p["hp"] > 30 else PALETTE.danger)
        kit.text(d, (bar.x2 + 6, y), "  ".join(status + flags), SMALL, PALETTE.ink, max_width=card.x2 - bar.x2 - 12)
        y += lh
        wx = card.x + 8
        for entry in mat["weapon"]:
            rarity = WEAPONS[entry["card"]].rarity if entry["card"] in WEAPONS else "common"
            d.rectangle((wx, y + 6, wx + 9, y + 15), fill=RARITY.get(rarity, PALETTE.muted))
            if wx + 14 >= card.x2 - 20:
                break
            wx += 14 + kit.text(d, (wx + 14, y), _card_label(entry, lang), SMALL, PALETTE.ink,
                                max_width=card.x2 - wx - 20) + 10
        if not mat["weapon"]:
            kit.text(d, (wx, y), _t("gg.render.no_weapon", lang), SMALL, PALETTE.muted)
        y += lh
        rest = [_card_label(e, lang) for slot in ("helmet", "body", "defensive", "consumable", "throwable")
                for e in mat[slot] if not e.get("backpack")]
        ability = p.get("ability")
        if ability:
            cd = p.get("cooldown", 0)
            rest.insert(0, f"{_t('gg.ability.' + ability, lang)} ({cd if cd else _t('gg.render.ready', lang)})")
        if p.get("extra_chests"):
            rest.append(_t("gg.render.extra_chests", lang, n=p["extra_chests"]))
        pack = [_card_label(e, lang) for slot in ("consumable", "throwable") for e in mat[slot] if e.get("backpack")]
        if pack:
            rest.append(_t("gg.render.backpack", lang, cards=", ".join(pack)))
        if rest and y + lh <= card.y2:
            kit.text(d, (card.x + 8, y), ", ".join(rest), SMALL, PALETTE.muted, max_width=card.w - 16)


# ---------------------------------------------------------------- the image


def layout(view: View, lang: str = "en") -> tuple[kb.SquareGrid, Box, Box, int]:
    """The board's grid, the legend's and the roster's boxes and the image's height, for this view."""
    grid = grid_for(crop(view))
    inner = WIDTH - 2 * MARGIN
    legend = Box(MARGIN, grid.y + grid.height + 8, inner, _legend_height(_legend_items(view, lang, grid), inner))
    roster = Box(MARGIN, legend.y2 + 8, inner, _roster_height(view))
    return grid, legend, roster, roster.y2 + MARGIN


def render(view: View, lang: str) -> bytes:
    """The island, every fighter and the roster of mats, as PNG bytes."""
    rows = tuple(view["map"]["rows"])
    grid, legend, roster, height = layout(view, lang)
    canvas = Canvas.from_image(kb.static_image(_spec(rows, grid, height)).copy())
    boxes = token_boxes(view, grid)
    kb.draw_layers(canvas, grid, _layers(view, grid))
    _fighters(canvas, view, grid, boxes)
    _shot_label(canvas, view, grid, boxes, lang)
    _header(canvas, view, lang)
    kb.legend(canvas, legend, _legend_items(view, lang, grid), size=LEGEND_TEXT)
    _roster(canvas, view, lang, roster)
    return canvas.png()
