"""La Guerra de Indagar image: the hex map (face-down and revealed tiles), heroes, outposts, monsters and a roster."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import i18n
from renderers import board as kb
from renderers import kit
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules.guerra_de_indagar.data import (
    RESOURCES,
    faction_name,
    factions,
    hero_name,
    monster_name,
    monsters,
    tile_name,
    tree_name,
)
from rules.text import Lit

SIZE = 36
MARGIN = 12
HEADER = 44
MAP_W = 640
MAP_H = 740
PANEL_W = 420
LEGEND_H = 96
WIDTH = MARGIN + MAP_W + MARGIN + PANEL_W + MARGIN
HEIGHT = HEADER + MAP_H + LEGEND_H + MARGIN
TEXT = 14
SMALL = 12

HIDDEN = kb.Terrain((0x3B, 0x40, 0x52))
DESTROYED: Color = (0x5A, 0x4A, 0x40)
#: How each tile type looks: a fill and a glyph, so no type is told by colour alone.
TERRAIN: dict[str, kb.Terrain] = {
    "gold": kb.Terrain((0xD9, 0xB9, 0x3C), glyph="coin", glyph_color=(0x5A, 0x44, 0x00)),
    "wood": kb.Terrain((0x3F, 0x7D, 0x45), glyph="tree"),
    "mineral": kb.Terrain((0x7A, 0x8C, 0xA6), glyph="gem", glyph_color=(0x1F, 0x2A, 0x3C)),
    "meadow": kb.Terrain((0xA9, 0xC9, 0x7E)),
    "mud": kb.Terrain((0x8A, 0x6A, 0x48), glyph="waves"),
    "mountain": kb.Terrain((0x8C, 0x7B, 0x68), glyph="mountain"),
    "source": kb.Terrain((0x9B, 0x7F, 0xD0), glyph="star"),
}
EVENT_FILL: Color = (0xD8, 0xC3, 0xA5)
EVENT_GLYPH = {"swamp": "skull", "portal": "ring", "mist": "sword", "weapons": "sword", "abandoned": "badge",
               "armour": "shield", "kakonositel": "claw", "spirits": "gem", "traitors": "skull", "groxiah": "claw",
               "fortress": "defense", "clearing": "heart", "kelfeerazen": "claw", "maelstrom": "turn"}
FACTION_COLORS: dict[str, Color] = {"purple": OKABE_ITO["reddish_purple"], "green": OKABE_ITO["bluish_green"],
                                    "red": OKABE_ITO["vermillion"], "black": (0xB8, 0xB8, 0xC4)}
SEAT_SHAPES = ("circle", "square", "diamond", "hexagon")
SEAT_COLORS: tuple[Color, ...] = (OKABE_ITO["orange"], OKABE_ITO["sky_blue"], OKABE_ITO["yellow"], OKABE_ITO["blue"])
MONSTER: Color = (0x2B, 0x22, 0x26)
PEEK: Color = OKABE_ITO["yellow"]


def _t(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _lit(value: Lit, lang: str) -> str:
    return value.es if lang == "es" else value.en


def terrain(kind: str | None, destroyed: bool = False) -> kb.Terrain:
    if kind is None:
        return HIDDEN
    base = TERRAIN.get(kind) or kb.Terrain(EVENT_FILL, glyph=EVENT_GLYPH.get(kind, "star"),
                                           glyph_color=(0x3A, 0x2A, 0x18))
    if destroyed:
        return kb.Terrain(DESTROYED, base.glyph, base.glyph_color, hatch=True)
    return base


def _name(view: Mapping[str, Any], seat: int) -> str:
    names = view.get("names") or []
    return str(names[seat]) if 0 <= seat < len(names) else f"P{seat + 1}"


def seat_color(view: Mapping[str, Any], seat: int) -> Color:
    """A seat's colour: its faction's once chosen (purple, green, red, black), else one per seat."""
    players = view.get("players") or []
    faction = players[seat].get("faction") if 0 <= seat < len(players) else None
    if faction:
        return FACTION_COLORS.get(factions()["factions"][faction]["colour"], PALETTE.neutral)
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def initials(name: str) -> str:
    letters = [w[0] for w in name.replace("-", " ").split() if w[:1].isalpha()]
    return ("".join(letters[:2]) or name[:2]).upper()


# ---------------------------------------------------------------- the static layer


@lru_cache(maxsize=8)
def _grid(hexes: frozenset[tuple[int, int]]) -> kb.HexGrid:
    """The map centred in its area (each layout has its own shape)."""
    probe = kb.HexGrid(hexes, size=SIZE)
    return kb.HexGrid(hexes, size=SIZE, x=MARGIN + max(0, (MAP_W - probe.width) // 2),
                      y=HEADER + max(0, (MAP_H - probe.height) // 2))


def _spec(view: Mapping[str, Any]) -> tuple[kb.HexGrid, kb.StaticSpec]:
    tiles = view["tiles"]
    grid = _grid(frozenset((int(t["q"]), int(t["r"])) for t in tiles))
    cells = {(int(t["q"]), int(t["r"])): terrain(t["type"], bool(t["destroyed"])) for t in tiles
             if t["type"] is not None or t["destroyed"]}
    return grid, kb.StaticSpec(grid, cells, HIDDEN, size=(WIDTH, HEIGHT), line=(0x1C, 0x1E, 0x24))


def _panel() -> Box:
    return Box(MARGIN + MAP_W + MARGIN, HEADER, PANEL_W, MAP_H)


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _grid.cache_clear()


# ---------------------------------------------------------------- the dynamic layers


def _cells(view: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    return {str(t["at"]): (int(t["q"]), int(t["r"])) for t in view["tiles"]}


def _layers(view: Mapping[str, Any]) -> kb.Layers:
    cells = _cells(view)
    outlines = []
    for seat in range(len(view.get("players") or [])):
        deploy = tuple(cells[t["at"]] for t in view["tiles"] if t["deploy"] and t["area"] == seat)
        if deploy:
            outlines.append(kb.Outline(deploy, seat_color(view, seat), width=2, dashed=True))
    for post in view.get("outposts") or []:
        if post["at"] in cells:
            outlines.append(kb.Outline((cells[post["at"]],), seat_color(view, int(post["owner"])), width=4))
    peeked = tuple(cells[p.split("=")[0]] for p in view.get("peeks") or [] if p.split("=")[0] in cells)
    if peeked:
        outlines.append(kb.Outline(peeked, PEEK, width=3, dashed=True))
    marks = []
    for p in view.get("peeks") or []:
        at, _, kind = p.partition("=")
        t = terrain(kind)
        if at in cells and t.glyph:
            marks.append(kb.Mark(cells[at], t.glyph, PEEK, corner=True))
    active = (view.get("active") or {}).get("hero")
    pieces = []
    for h in view.get("heroes") or []:
        if h["at"] not in cells:
            continue
        owner = int(h["owner"])
        name = _lit(hero_name(h["id"]), "en")
        level = len([x for x in h["levels"] if x])
        res = max(1, int(h["resistance"]))
        pieces.append(kb.Piece(cells[h["at"]], initials(name), seat_color(view, owner),
                               SEAT_SHAPES[owner % len(SEAT_SHAPES)], badge=f"N{level} {h['dmg']}/{res}",
                               bar=1 - int(h["dmg"]) / res, ring=PALETTE.highlight if h.get("commander") else None,
                               active=h["id"] == active))
    turn = view.get("turn")
    for m in view.get("monsters") or []:
        if m["at"] not in cells:
            continue
        res = max(1, int(m["resistance"]))
        shape = "triangle" if m["kind"] == "primary" else "octagon"
        pieces.append(kb.Piece(cells[m["at"]], initials(_lit(monster_name(m["id"]), "en")), MONSTER, shape,
                               badge=f"{m['dmg']}/{res}", bar=1 - int(m["dmg"]) / res,
                               active=bool(turn and turn[0] == "m" and turn[1] == m["id"])))
    return kb.Layers(outlines=tuple(outlines), marks=tuple(marks), pieces=tuple(pieces))


def _outposts(canvas: Canvas, grid: kb.HexGrid, view: Mapping[str, Any]) -> None:
    """Each outpost's level (and damage taken) on a plate in its owner's colour at the hex's left."""
    cells = _cells(view)
    for post in view.get("outposts") or []:
        if post["at"] not in cells:
            continue
        cx, cy = grid.center(cells[post["at"]])
        color = seat_color(view, int(post["owner"]))
        text = f"{post['level']}" + (f"-{post['dmg']}" if post.get("dmg") else "")
        w = kit.text_width(text, SMALL) + 8
        plate = Box(cx - round(SIZE * 0.82), cy - 8, w, 16)
        canvas.draw.rectangle(plate.rect, fill=color, outline=kb.EDGE)
        kit.text(canvas.draw, (plate.x + plate.w / 2, plate.y + plate.h / 2), text, SMALL, kit.ink_on(color),
                 anchor="mm", bold=True)


def _source(canvas: Canvas, grid: kb.HexGrid, view: Mapping[str, Any]) -> None:
    """The spirits waiting on the Source of Power, at the hex's right."""
    for t in view["tiles"]:
        if t["type"] == "source":
            cx, cy = grid.center((int(t["q"]), int(t["r"])))
            box = Box(cx + round(SIZE * 0.42), cy - 8, 20, 16)
            canvas.draw.rounded_rectangle(box.rect, radius=5, fill=kb.EDGE)
            kit.text(canvas.draw, (box.x + box.w / 2, box.y + 8), str(view.get("source", 0)), SMALL, PALETTE.ink,
                     anchor="mm", bold=True)


# ---------------------------------------------------------------- header, roster and legend


def _turn_text(view: Mapping[str, Any], lang: str) -> str:
    turn = view.get("turn")
    if not turn:
        return ""
    if turn[0] == "m":
        return _t("gi.render.turn", lang, who=_lit(monster_name(turn[1]), lang))
    return _t("gi.render.turn", lang, who=_name(view, int(turn[1])))


def _header(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    parts = [_t("gi.name", lang), _t("gi.render.round", lang, n=view.get("round", 0)),
             _t("gi.render.target", lang, n=view.get("target", 10))]
    if view.get("level"):
        parts.append(_t("gi.render.level", lang, n=view["level"]))
    turn = _turn_text(view, lang)
    if turn:
        parts.append(turn)
    you = view.get("you")
    if isinstance(you, int):
        parts.append(_t("gi.render.view_of", lang, name=_name(view, you)))
    kit.text(canvas.draw, (MARGIN, HEADER / 2), "  ·  ".join(parts), 17, PALETTE.ink, anchor="lm", bold=True,
             max_width=WIDTH - 2 * MARGIN)


def _need(view: Mapping[str, Any], card: str) -> int | None:
    info = monsters()["primary"].get(card)
    if info is None:
        return None
    victory = info["victory"]
    players = len(view.get("players") or [])
    if players == 1:
        return int(victory["solo"])
    return int(victory["base"]) + (players if victory.get("per_player", True) else 0)


def _roster(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    d = canvas.draw
    box = _panel().inset(12)
    lh = kit.line_height(SMALL) + 3
    y = box.y
    order = [int(x) for x in view.get("order") or []]
    names = " > ".join(_name(view, seat) for seat in order)
    kit.text(d, (box.x, y + 8), _t("gi.render.order", lang, order=names or "-"), TEXT, PALETTE.ink, anchor="lm",
             max_width=box.w)
    y += 26
    you = view.get("you")
    turn = view.get("turn")
    for seat in order or range(len(view.get("players") or [])):
        p = view["players"][seat]
        color = seat_color(view, seat)
        if seat == you:  # the viewer's own row, framed so a private image says whose it is at a glance
            rows = 1 + (1 if p.get("tree") else 0) + sum(1 for h in view.get("heroes") or [] if int(h["owner"]) == seat)
            band = Box(box.x - 6, y - 3, box.w + 12, 30 + rows * lh - 2)
            canvas.draw.rounded_rectangle(band.rect, radius=6, fill=PALETTE.panel_alt, outline=PALETTE.highlight,
                                          width=2)
        kb.draw_piece(canvas, Box(box.x, y, 26, 26), kb.Piece((0, 0), str(seat + 1), color,
                                                              SEAT_SHAPES[seat % len(SEAT_SHAPES)]))
        title = _name(view, seat)
        if p.get("faction"):
            title += " · " + _lit(faction_name(p["faction"]), lang)
        if seat == you:
            title += f" ({_t('gi.render.you', lang)})"
        on_turn = bool(turn and turn[0] == "p" and int(turn[1]) == seat)
        kit.text(d, (box.x + 34, y + 13), title, TEXT, PALETTE.ink, anchor="lm", bold=on_turn, max_width=box.w - 110)
        kit.text(d, (box.x2, y + 13), _t("gi.render.pp", lang, n=p.get("pp", 0)), TEXT + 2, PALETTE.highlight,
                 anchor="rm", bold=True)
        y += 30
        res = "  ".join(f"{_lit(tile_name(k), lang)} {p['res'].get(k, 0)}" for k in RESOURCES)
        line = f"{res}  ·  {_t('gi.render.spirits', lang, n=p.get('spirits', 0))}"
        kit.text(d, (box.x + 34, y), line, SMALL, PALETTE.ink, anchor="lm", max_width=box.w - 34)
        y += lh
        if p.get("tree"):
            kit.text(d, (box.x + 34, y), _t("gi.render.tree", lang, tree=_lit(tree_name(p["tree"]), lang)), SMALL,
                     PALETTE.muted, anchor="lm", max_width=box.w - 34)
            y += lh
        for h in view.get("heroes") or []:
            if int(h["owner"]) != seat:
                continue
            level = len([x for x in h["levels"] if x])
            where = h["at"] or _t("gi.render.retreat", lang)
            text = _t("gi.render.hero", lang, hero=_lit(hero_name(h["id"]), lang), level=level, dmg=h["dmg"],
                      res=h["resistance"], at=where, xp=h["xp"])
            if h.get("commander"):
                text += " · " + _t("gi.render.commander", lang)
            ink = PALETTE.muted if h.get("done") or not h["at"] else PALETTE.ink
            kit.text(d, (box.x + 34, y), text, SMALL, ink, anchor="lm", max_width=box.w - 34)
            y += lh
        y += 8
    mons = view.get("monsters") or []
    if mons:
        kit.text(d, (box.x, y + 6), _t("gi.render.monsters", lang), TEXT, PALETTE.ink, anchor="lm", bold=True)
        y += 22
        for m in mons:
            need = _need(view, m["id"]) if m["kind"] == "primary" else None
            held = m["spirits"] if m["id"] == "oryana" else m["count"]
            text = _t("gi.render.monster", lang, monster=_lit(monster_name(m["id"]), lang),
                      at=m["at"] or _t("gi.render.retreat", lang), dmg=m["dmg"], res=m["resistance"])
            if need is not None:
                text += "  " + _t("gi.render.victory", lang, held=held, need=need)
            kit.text(d, (box.x + 8, y), text, SMALL, PALETTE.ink, anchor="lm", max_width=box.w - 8)
            y += lh
    y += 8
    _dice(canvas, view, lang, Box(box.x, y, box.w, box.y2 - y))


def _unit_name(view: Mapping[str, Any], unit: list[str], lang: str) -> str:
    kind, uid = unit
    return _lit(hero_name(uid) if kind == "hero" else monster_name(uid), lang)


def _dice(canvas: Canvas, view: Mapping[str, Any], lang: str, box: Box) -> None:
    """The dice of the attack under way, else of the last one, and what the viewer alone has peeked."""
    d = canvas.draw
    lh = kit.line_height(SMALL) + 3
    y = box.y
    att = view.get("attack") or view.get("last_dice")
    if att and y + 2 * lh < box.y2:
        a = " ".join(map(str, att["a"])) or "-"
        dd = " ".join(map(str, att["d"])) or "-"
        key = "gi.render.dice_now" if view.get("attack") else "gi.render.dice_last"
        kit.text(d, (box.x, y + 6), _t(key, lang, unit=_unit_name(view, att["by"], lang), at=att["at"]), TEXT,
                 PALETTE.ink, anchor="lm", bold=True, max_width=box.w)
        y += 22
        line = _t("gi.render.dice", lang, a=a, ta=sum(att["a"]), d=dd, td=sum(att["d"]))
        if "damage" in att:
            line += "  " + _t("gi.render.damage", lang, n=att["damage"])
        kit.text(d, (box.x + 8, y), line, SMALL, PALETTE.ink, anchor="lm", max_width=box.w - 8)
        y += lh + 6
    peeks = view.get("peeks") or []
    if peeks and y + lh < box.y2:
        seen = ", ".join(f"{p.split('=')[0]} {_lit(tile_name(p.split('=')[1]), lang)}" for p in peeks)
        for line in kit.wrap(_t("gi.render.peeks", lang, tiles=seen), SMALL, box.w)[:3]:
            kit.text(d, (box.x, y), line, SMALL, PEEK, anchor="lm")
            y += lh


def _legend(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    shown = sorted({t["type"] for t in view["tiles"] if t["type"]} | {p.split("=")[1] for p in view.get("peeks") or []})
    items = [kb.LegendItem(_t("gi.render.hidden", lang), HIDDEN)]
    items += [kb.LegendItem(_lit(tile_name(k), lang), terrain(k)) for k in shown]
    items += [kb.LegendItem(_t("gi.render.destroyed", lang), terrain("meadow", True)),
              kb.LegendItem(_t("gi.render.outpost", lang), kb.Terrain(PALETTE.panel_alt, "badge")),
              kb.LegendItem(_t("gi.render.deploy", lang), kb.Shade((), PALETTE.line, 0.3)),
              kb.LegendItem(_t("gi.render.monster_piece", lang), kb.Piece((0, 0), "M", MONSTER, "triangle")),
              kb.LegendItem(_t("gi.render.commander", lang), kb.Piece((0, 0), "C", PALETTE.neutral,
                                                                   ring=PALETTE.highlight))]
    if view.get("peeks"):
        items.append(kb.LegendItem(_t("gi.render.peeked", lang), kb.Mark((0, 0), "star", PEEK)))
    items += kb.marks_legend(lang, reach=False)
    kb.legend(canvas, Box(MARGIN, HEADER + MAP_H + 6, WIDTH - 2 * MARGIN, LEGEND_H - 6), items, size=12)


def render(view: dict[str, Any], lang: str) -> bytes:
    """The map with every piece, the players' resources and points, the monsters and the last dice, as PNG bytes."""
    grid, spec = _spec(view)
    canvas = Canvas.from_image(kb.static_image(spec).copy())
    canvas.draw.rounded_rectangle(_panel().rect, radius=8, fill=PALETTE.panel)
    kb.draw_layers(canvas, grid, _layers(view))
    _outposts(canvas, grid, view)
    _source(canvas, grid, view)
    _header(canvas, view, lang)
    _roster(canvas, view, lang)
    _legend(canvas, view, lang)
    return canvas.png()
