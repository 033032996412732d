"""Gorgasali Battle Royale image: the 30×30 island, its zones, chests, banners and fighters, with a roster of mats."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image

import i18n
from renderers import board as kb
from renderers import kit
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules import coords
from rules.gorgasali.data import WEAPONS

CELL = 34
MARGIN = 12
HEADER = 44
PANEL_W = 400
GRID = kb.SquareGrid(30, 30, cell=CELL, x=MARGIN, y=HEADER)
LEGEND_H = 92
WIDTH = MARGIN + GRID.width + MARGIN + PANEL_W + MARGIN
HEIGHT = HEADER + GRID.height + LEGEND_H + MARGIN

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
BANNERS: dict[str, tuple[Color, str]] = {
    "barrier": ((0x55, 0x55, 0x5E), "shield"),
    "ball": (OKABE_ITO["yellow"], "star"),
    "field": (OKABE_ITO["sky_blue"], "ring"),
    "platform": ((0x8A, 0x5A, 0x2B), "tree"),
    "smoke": ((0xB0, 0xB0, 0xB8), "diamond"),
}
SEAT_COLORS: tuple[Color, ...] = (
    OKABE_ITO["orange"], OKABE_ITO["sky_blue"], OKABE_ITO["bluish_green"], OKABE_ITO["yellow"], OKABE_ITO["blue"],
    OKABE_ITO["vermillion"], OKABE_ITO["reddish_purple"], (0xF3, 0xF3, 0xF3), (0x8A, 0x5A, 0x2B), (0x7F, 0x7F, 0x7F))
RARITY: dict[str, Color] = {"common": (0x9E, 0x9E, 0x9E), "rare": (0x2F, 0x80, 0xED), "epic": (0x9B, 0x51, 0xE0),
                            "legendary": (0xF2, 0x99, 0x4A)}
ARMOUR: Color = (0x3A, 0x4A, 0x6A)
PATH: Color = PALETTE.ink
SHOT: Color = PALETTE.danger
TEXT = 13
SMALL = 12


def _t(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _cell(name: object) -> tuple[int, int] | None:
    return coords.parse(name, 30, 30) if isinstance(name, str) else None


def initials(char: str | None, seat: int) -> str:
    """A fighter's token text: two letters of its character (all ten differ), else its seat number."""
    return char[:2].upper() if char else str(seat + 1)


def _name(view: Mapping[str, Any], seat: int) -> str:
    names = view.get("names") or []
    return str(names[seat]) if seat < len(names) else f"P{seat + 1}"


# ---------------------------------------------------------------- the static layer


@lru_cache(maxsize=4)
def _spec(rows: tuple[str, ...]) -> kb.StaticSpec:
    cells = {}
    tree = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "T":
                tree.append((r, c))
            elif ch != "." and ch in TERRAIN:
                cells[(r, c)] = TERRAIN[ch]
    blocks = (kb.Block(tuple(tree), TREE, "", "tree"),) if tree else ()
    return kb.StaticSpec(GRID, cells, PLAIN, blocks=blocks, size=(WIDTH, HEIGHT), line=(0x8E, 0x88, 0x70))


@lru_cache(maxsize=8)
def _base(rows: tuple[str, ...], lang: str, reach: bool) -> Image.Image:
    """The static board plus the legend and the panel's frame, per viewer language (shared: never draw on it)."""
    canvas = Canvas.from_image(kb.static_image(_spec(rows)).copy())
    items = [kb.LegendItem(_t("gg.render.forest", lang), FOREST),
             kb.LegendItem(_t("gg.render.mountain", lang), MOUNTAIN),
             kb.LegendItem(_t("gg.render.water", lang), WATER),
             kb.LegendItem(_t("gg.render.tree", lang), kb.Terrain(TREE, glyph="tree")),
             kb.LegendItem(_t("gg.render.healing", lang), HEALING),
             kb.LegendItem(_t("gg.render.chest", lang), kb.Mark((0, 0), "chest", CHEST)),
             kb.LegendItem(_t("gg.render.closed", lang), CLOSED),
             kb.LegendItem(_t("gg.render.sector", lang), SECTOR),
             *(kb.LegendItem(_t(f"gg.banner.{k}", lang), kb.Mark((0, 0), icon, color))
               for k, (color, icon) in BANNERS.items()),
             kb.LegendItem(_t("gg.render.armoured", lang), kb.Mark((0, 0), "shield", ARMOUR)),
             kb.LegendItem(_t("gg.render.path", lang), kb.Arrow((), PATH)),
             kb.LegendItem(_t("gg.render.shot", lang), kb.Arrow((), SHOT)),
             *kb.marks_legend(lang, reach=reach)]
    box = Box(MARGIN, HEADER + GRID.height + 6, GRID.width + MARGIN + PANEL_W, LEGEND_H - 6)
    kb.legend(canvas, box, items, size=12)
    canvas.draw.rounded_rectangle(_panel().rect, radius=8, fill=PALETTE.panel)
    return canvas.image


def _panel() -> Box:
    return Box(MARGIN + GRID.width + MARGIN, HEADER, PANEL_W, GRID.height)


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _spec.cache_clear()
    _base.cache_clear()


# ---------------------------------------------------------------- the dynamic layers


def _layers(view: Mapping[str, Any], lang: str) -> kb.Layers:
    zones = view["map"]["zones"]
    closed_n = int(view.get("zone") or 0)
    closed = tuple((r, c) for r, row in enumerate(zones) for c, z in enumerate(row) if int(z) <= closed_n)
    open_ = tuple((r, c) for r, row in enumerate(zones) for c, z in enumerate(row) if int(z) > closed_n)
    # a tint and hatching, so closed squares read at a glance and in grey
    shades = [kb.Shade(closed, CLOSED.color, 0.3), kb.Shade(closed, CLOSED.color, CLOSED.alpha, hatch=True)] \
        if closed else []
    marks = []
    for b in view.get("banners") or []:
        color, icon = BANNERS.get(b["kind"], (PALETTE.muted, "star"))
        cells = tuple(c for c in map(_cell, b["at"]) if c is not None)
        shades.append(kb.Shade(cells, color, 0.45))
        marks += [kb.Mark(c, icon, color if b["kind"] != "ball" else (0x55, 0x4A, 0x00), corner=True) for c in cells]
    marks += [kb.Mark(c, "chest", CHEST) for c in map(_cell, view.get("chests") or []) if c is not None]
    duo = view.get("mode") == "duo"
    pieces = []
    for p in view["players"]:
        at = _cell(p.get("at"))
        if at is None or not p.get("alive"):
            continue
        seat = p["seat"]
        badge = str(p["hp"])
        pieces.append(kb.Piece(at, initials(p.get("char"), seat), SEAT_COLORS[seat % len(SEAT_COLORS)],
                               badge=badge, bar=max(0.0, min(1.0, p["hp"] / 100)),
                               ring=SEAT_COLORS[(p["team"] * 2) % len(SEAT_COLORS)] if duo else None,
                               active=seat == view.get("turn")))
    arrows = []
    path = tuple(c for c in map(_cell, view.get("path") or []) if c is not None)
    if len(path) > 1:
        arrows.append(kb.Arrow(path, PATH))
    shot = _shot(view, lang)
    if shot is not None:
        arrows.append(shot)
    reach = tuple(c for c in (_cell(s.get("to")) for s in view.get("steps") or []) if c is not None)
    outline = (kb.Outline(open_, PALETTE.warn, width=2, dashed=True),) if closed and open_ else ()
    return kb.Layers(shades=tuple(shades), outlines=outline, reach=reach, marks=tuple(marks), pieces=tuple(pieces),
                     arrows=tuple(arrows))


def _armour(canvas: Canvas, view: Mapping[str, Any]) -> None:
    """A small shield in the top-left corner of each fighter wearing a helmet or body armour."""
    side = CELL * 2 // 5
    for p in view["players"]:
        at = _cell(p.get("at"))
        if at is None or not p.get("alive") or not (p["mat"]["helmet"] or p["mat"]["body"]):
            continue
        box = GRID.cell_box(at)
        kit.icon(canvas.draw, "shield", Box(box.x + 1, box.y + 1, side, side), ARMOUR)


def _shot(view: Mapping[str, Any], lang: str) -> kb.Arrow | None:
    last = view.get("last")
    if not isinstance(last, Mapping) or "shooter" not in last or "target" not in last:
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


# ---------------------------------------------------------------- header and roster


def _header(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    d = canvas.draw
    turn = view.get("turn")
    parts = [_t("gg.render.title", lang), _t("gg.render.round", lang, n=view.get("round", 0)),
             _t("gg.render.zone", lang, closed=view.get("zone", 0), penalty=view.get("penalty", 0))]
    if view.get("next_close") is not None:
        parts.append(_t("gg.render.next_close", lang, round=view["next_close"]))
    if view.get("winners") is not None:
        parts.append(_t("gg.render.over", lang))
    elif isinstance(turn, int):
        parts.append(_t("gg.render.turn", lang, name=_name(view, turn)))
    kit.text(d, (MARGIN, HEADER / 2), "  ·  ".join(parts), 17, PALETTE.ink, anchor="lm", bold=True,
             max_width=WIDTH - 2 * MARGIN)


def _card_label(entry: Mapping[str, Any], lang: str) -> str:
    name = _t(f"gg.card.{entry['card']}", lang)
    if "loaded" in entry and not entry["loaded"]:
        name += " (" + _t("gg.render.unloaded", lang) + ")"
    return name


def _roster(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    d = canvas.draw
    box = _panel().inset(10)
    players = view["players"]
    you = view.get("you")
    rows = max(1, len(players))
    step = min(150, box.h // rows)
    lh = kit.line_height(SMALL) + 1
    for i, p in enumerate(players):
        seat = p["seat"]
        y = box.y + i * step
        color = SEAT_COLORS[seat % len(SEAT_COLORS)]
        token = Box(box.x, y, 24, 24)
        kb.draw_piece(canvas, token, kb.Piece((0, 0), initials(p.get("char"), seat), color, faded=not p["alive"]
                                              and view.get("phase") != "pick"))
        title = _name(view, seat)
        if p.get("char"):
            title += " · " + _t("gg.char." + p["char"], lang)
        if seat == you:
            title += f" ({_t('gg.render.you', lang)})"
        ink = PALETTE.ink if p["alive"] or view.get("phase") == "pick" else PALETTE.muted
        kit.text(d, (box.x + 30, y + 12), title, TEXT, ink, anchor="lm", bold=seat == view.get("turn"),
                 max_width=box.w - 30)
        if not p["alive"] and view.get("phase") != "pick":
            kit.text(d, (box.x + 30, y + 12 + lh + 2), _t("gg.render.out", lang), SMALL, PALETTE.muted, anchor="lm")
            continue
        mat = p["mat"]
        armour = [e for s in ("helmet", "body") for e in mat[s]]
        status = [_t("gg.render.hp", lang, hp=p["hp"]), _t("gg.render.armour", lang, n=len(armour)),
                  _t("gg.render.at", lang, at=p.get("at") or "-")]
        if p.get("ability"):
            cd = p.get("cooldown", 0)
            ready = f"{cd}" if cd else _t("gg.render.ready", lang)
            status.append(f"{_t('gg.ability.' + p['ability'], lang)} ({ready})")
        if p.get("extra_chests"):
            status.append(_t("gg.render.extra_chests", lang, n=p["extra_chests"]))
        flags = [_t(f"gg.render.{f}", lang) for f in ("frozen", "heal_block") if p.get(f)]
        line_y = y + 28
        bar = Box(box.x + 30, line_y - 4, 60, 6)
        d.rectangle(bar.rect, fill=PALETTE.panel_alt)
        d.rectangle((bar.x, bar.y, bar.x + round(bar.w * max(0, min(100, p["hp"])) / 100), bar.y2),
                    fill=PALETTE.health if p["hp"] > 30 else PALETTE.danger)
        kit.text(d, (box.x + 96, line_y), "  ".join(status + flags), SMALL, PALETTE.ink, anchor="lm",
                 max_width=box.w - 96)
        x = box.x + 30
        wy = line_y + lh
        for entry in mat["weapon"]:
            label = _card_label(entry, lang)
            rarity = WEAPONS[entry["card"]].rarity if entry["card"] in WEAPONS else "common"
            d.rectangle((x, wy - 5, x + 8, wy + 5), fill=RARITY.get(rarity, PALETTE.muted))
            x += 12 + kit.text(d, (x + 12, wy), label, SMALL,
                               PALETTE.ink, anchor="lm", max_width=box.x2 - x - 12) + 10
        if not mat["weapon"]:
            kit.text(d, (x, wy), _t("gg.render.no_weapon", lang), SMALL, PALETTE.muted, anchor="lm")
        active = [_card_label(e, lang) for s in ("helmet", "body", "defensive", "consumable", "throwable")
                  for e in mat[s] if not e.get("backpack")]
        pack = [_card_label(e, lang) for s in ("consumable", "throwable") for e in mat[s] if e.get("backpack")]
        y2 = wy + lh
        for text, ink in ((", ".join(active), PALETTE.ink), (_t("gg.render.backpack", lang, cards=", ".join(pack))
                                                             if pack else "", PALETTE.muted)):
            if not text or y2 > y + step - lh // 2:
                continue
            for line in kit.wrap(text, SMALL, box.w - 30)[:2]:
                if y2 > y + step - lh // 2:
                    break
                kit.text(d, (box.x + 30, y2), line, SMALL, ink, anchor="lm")
                y2 += lh


def render(view: dict[str, Any], lang: str) -> bytes:
    """The island, every fighter and the roster of mats, as PNG bytes."""
    rows = tuple(view["map"]["rows"])
    reach = bool(view.get("steps"))
    canvas = Canvas.from_image(_base(rows, lang, reach).copy())
    kb.draw_layers(canvas, GRID, _layers(view, lang))
    _armour(canvas, view)
    _header(canvas, view, lang)
    _roster(canvas, view, lang)
    return canvas.png()

