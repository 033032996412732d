"""La Guerra de Indagar image: the hex map (face-down and revealed tiles), heroes, outposts, monsters and a roster."""

from __future__ import annotations

import re
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
from rules.readonly import loader
from rules.text import Lit

#: Drawn for a phone first: Discord shows the image about 400 px wide, so the map spans the whole width
#: and the roster sits under it, with text that stays readable at that width.
MAX_SIZE = 58  # the largest hex radius; a layout gets the largest that fits the map area
MARGIN = 12
HEADER = 80
MAP_W = 896
MAP_H = 880
WIDTH = MARGIN + MAP_W + MARGIN
ROSTER_H = 720
LEGEND_H = 284  # room for every tile type in either language (a test checks it)
HEIGHT = HEADER + MAP_H + ROSTER_H + LEGEND_H + MARGIN
#: A map this narrow (the two-player layout) leaves room for the roster beside it, and the image is shorter.
NARROW_MAP = 470
HEIGHT_NARROW = HEADER + MAP_H + LEGEND_H + MARGIN
TITLE = 26
TEXT = 22
SMALL = 20

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
#: A player's colour and shape belong to the seat from the first image to the last (the faction is chosen
#: during set-up and is written beside the name): colour-blind-safe hues, each with its own shape.
SEAT_SHAPES = ("circle", "square", "diamond", "hexagon")
SEAT_COLORS: tuple[Color, ...] = (OKABE_ITO["orange"], OKABE_ITO["sky_blue"], OKABE_ITO["reddish_purple"],
                                  (0xE4, 0xE4, 0xE4))
MONSTER: Color = (0x2B, 0x22, 0x26)
HALO: Color = (0xF3, 0xF3, 0xF3)
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
    """A seat's colour: the same in every image of a game, before and after its faction is chosen."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def seat_shape(seat: int) -> str:
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def initials(name: str) -> str:
    letters = [w[0] for w in name.replace("-", " ").split() if w[:1].isalpha()]
    return ("".join(letters[:2]) or name[:2]).upper()


#: Leading articles, which carry no meaning in a code ("The Spirit Walker" is SW, not TS).
_ARTICLES = {"the", "el", "la", "los", "las"}


def _candidates(name: str) -> list[str]:
    """Codes for a name, best first: the initials of its first two capitalised words, then its first letter
    with each later letter."""
    words = [w for w in re.split(r"[\s,\-]+", name) if w[:1].isalpha()]
    while len(words) > 1 and words[0].lower() in _ARTICLES:
        words = words[1:]
    big = [w for w in words if w[0].isupper()] or words
    out = [(big[0][0] + big[1][0]).upper()] if len(big) > 1 else []
    letters = [ch for ch in "".join(words) if ch.isalpha()]
    out += [(letters[0] + ch).upper() for ch in letters[1:]]
    return out


@loader(maxsize=4)
def unit_codes(lang: str) -> dict[str, str]:
    """A two-letter code for every hero and monster in `lang`, from its name: none equals another or differs
    from one only by letter order (heroes first, each kind by id)."""
    units = [hero for f in factions()["factions"].values() for hero in f["heroes"]]
    names = {hero: _lit(hero_name(hero), lang) for hero in sorted(units)}
    names |= {m: _lit(monster_name(m), lang) for kind in ("primary", "event") for m in sorted(monsters()[kind])}
    taken: set[str] = set()
    out = {}
    for unit, name in names.items():
        code = next((c for c in _candidates(name) if "".join(sorted(c)) not in taken), initials(name))
        taken.add("".join(sorted(code)))
        out[unit] = code
    return out


def unit_code(unit: str, lang: str) -> str:
    return unit_codes(lang).get(unit) or initials(_lit(hero_name(unit), lang))


# ---------------------------------------------------------------- the static layer


@lru_cache(maxsize=8)
def _grid(hexes: frozenset[tuple[int, int]]) -> kb.HexGrid:
    """The map at the largest hex size that fits its area (each layout has its own shape): centred, or at
    the left when it is narrow enough to leave the roster room beside it."""
    size = MAX_SIZE
    probe = kb.HexGrid(hexes, size=size)
    while size > 12 and (probe.width > MAP_W or probe.height > MAP_H):
        size -= 1
        probe = kb.HexGrid(hexes, size=size)
    x = MARGIN if probe.width <= NARROW_MAP else MARGIN + max(0, (MAP_W - probe.width) // 2)
    return kb.HexGrid(hexes, size=size, x=x, y=HEADER + max(0, (MAP_H - probe.height) // 2))


def _hexes(view: Mapping[str, Any]) -> frozenset[tuple[int, int]]:
    return frozenset((int(t["q"]), int(t["r"])) for t in view["tiles"])


def narrow(view: Mapping[str, Any]) -> bool:
    """Whether the roster sits beside the map (a narrow layout) rather than under it."""
    return _grid(_hexes(view)).width <= NARROW_MAP


def size(view: Mapping[str, Any]) -> tuple[int, int]:
    """The image's size: the same for every image of one map layout."""
    return WIDTH, HEIGHT_NARROW if narrow(view) else HEIGHT


def _spec(view: Mapping[str, Any]) -> tuple[kb.HexGrid, kb.StaticSpec]:
    tiles = view["tiles"]
    grid = _grid(_hexes(view))
    cells = {(int(t["q"]), int(t["r"])): terrain(t["type"], bool(t["destroyed"])) for t in tiles
             if t["type"] is not None or t["destroyed"]}
    return grid, kb.StaticSpec(grid, cells, HIDDEN, size=size(view), line=(0x1C, 0x1E, 0x24))


def _panel(view: Mapping[str, Any]) -> Box:
    if narrow(view):
        x = MARGIN + _grid(_hexes(view)).width + 12
        return Box(x, HEADER, WIDTH - MARGIN - x, MAP_H)
    return Box(MARGIN, HEADER + MAP_H + 4, MAP_W, ROSTER_H - 8)


def clear_cache() -> None:
    """Forget the cached layers (output never depends on them; tests and benches use this)."""
    _grid.cache_clear()


# ---------------------------------------------------------------- the dynamic layers


def _cells(view: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    return {str(t["at"]): (int(t["q"]), int(t["r"])) for t in view["tiles"]}


def _active_cells(view: Mapping[str, Any]) -> list[tuple[int, int]]:
    cells = _cells(view)
    active = (view.get("active") or {}).get("hero")
    turn = view.get("turn")
    out = [cells[h["at"]] for h in view.get("heroes") or [] if h["id"] == active and h["at"] in cells]
    out += [cells[m["at"]] for m in view.get("monsters") or []
            if turn and turn[0] == "m" and turn[1] == m["id"] and m["at"] in cells]
    return out


def _layers(view: Mapping[str, Any]) -> kb.Layers:
    """Deployment areas, outposts' and peeked tiles' outlines, peek marks and the acting unit's frame."""
    cells = _cells(view)
    outlines = []
    for seat in range(len(view.get("players") or [])):
        deploy = tuple(cells[t["at"]] for t in view["tiles"] if t["deploy"] and t["area"] == seat)
        if deploy:
            outlines.append(kb.Outline(deploy, seat_color(view, seat), width=3, dashed=True))
    for post in view.get("outposts") or []:
        if post["at"] in cells:
            outlines.append(kb.Outline((cells[post["at"]],), seat_color(view, int(post["owner"])), width=5))
    peeked = tuple(cells[p.split("=")[0]] for p in view.get("peeks") or [] if p.split("=")[0] in cells)
    if peeked:
        outlines.append(kb.Outline(peeked, PEEK, width=3, dashed=True))
    for cell in _active_cells(view):
        outlines.append(kb.Outline((cell,), kb.EDGE, width=9))
        outlines.append(kb.Outline((cell,), kb.ACTIVE, width=5))
    marks = []
    for p in view.get("peeks") or []:
        at, _, kind = p.partition("=")
        t = terrain(kind)
        if at in cells and t.glyph:
            marks.append(kb.Mark(cells[at], t.glyph, PEEK, corner=True))
    return kb.Layers(outlines=tuple(outlines), marks=tuple(marks))


def _token_box(grid: kb.HexGrid, cell: tuple[int, int]) -> Box:
    """Where a unit stands: under the hex's label, leaving room below for its damage."""
    cx, cy = grid.center(cell)
    side = round(grid.size * 0.88)
    return Box(cx - side // 2, cy + round(grid.size * 0.08) - side // 2, side, side)


def _halo(canvas: Canvas, box: Box, shape: str) -> None:
    """A light edge around a token, so a dark one reads on a dark tile."""
    outer = box.inset(-2)
    canvas.draw.bitmap((outer.x, outer.y), kb.shape_mask(shape, outer.w), fill=HALO)


def _pill(canvas: Canvas, center: tuple[float, float], text: str, size: int, fill: Color = kb.EDGE) -> Box:
    w = kit.text_width(text, size) + 10
    h = size + 6
    box = Box(round(center[0] - w / 2), round(center[1] - h / 2), w, h)
    canvas.draw.rounded_rectangle(box.rect, radius=h // 3, fill=fill, outline=HALO, width=1)
    kit.text(canvas.draw, (box.x + w / 2, box.y + h / 2), text, size, kit.ink_on(fill), anchor="mm", bold=True)
    return box


def badge_size(grid: kb.HexGrid) -> int:
    """The text size of the damage/resistance under each unit."""
    return max(18, round(grid.size * 0.36))  # 18 px is 7.8 px when the image is shown 400 px wide


def _units(canvas: Canvas, grid: kb.HexGrid, view: Mapping[str, Any], lang: str) -> None:
    """Heroes (their seat's shape and colour, the level in a circle, damage/resistance under them) and
    monsters (dark triangles or octagons, damage/resistance under them)."""
    cells = _cells(view)
    s = grid.size
    badge = badge_size(grid)
    active = (view.get("active") or {}).get("hero")
    for h in view.get("heroes") or []:
        if h["at"] not in cells:
            continue
        cell = cells[h["at"]]
        owner = int(h["owner"])
        box = _token_box(grid, cell)
        shape = seat_shape(owner)
        _halo(canvas, box, shape)
        kb.draw_piece(canvas, box, kb.Piece(cell, unit_code(h["id"], lang), seat_color(view, owner), shape,
                                            ring=PALETTE.highlight if h.get("commander") else None,
                                            active=h["id"] == active))
        level = len([x for x in h["levels"] if x])
        res = max(1, int(h["resistance"]))
        _pill(canvas, (box.x + box.w / 2, box.y2 + badge * 0.2), f"{h['dmg']}/{res}", badge)
        r = round(s * 0.21)
        lx, ly = box.x2 + r // 2, box.y + box.h // 2
        canvas.draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=kb.EDGE, outline=HALO, width=1)
        kit.text(canvas.draw, (lx, ly), str(level), round(s * 0.32), PALETTE.highlight, anchor="mm", bold=True)
    turn = view.get("turn")
    for m in view.get("monsters") or []:
        if m["at"] not in cells:
            continue
        cell = cells[m["at"]]
        box = _token_box(grid, cell)
        shape = "triangle" if m["kind"] == "primary" else "octagon"
        _halo(canvas, box, shape)
        kb.draw_piece(canvas, box, kb.Piece(cell, unit_code(m["id"], lang), MONSTER, shape,
                                            active=bool(turn and turn[0] == "m" and turn[1] == m["id"])))
        res = max(1, int(m["resistance"]))
        _pill(canvas, (box.x + box.w / 2, box.y2 + badge * 0.2), f"{m['dmg']}/{res}", badge)


def _outposts(canvas: Canvas, grid: kb.HexGrid, view: Mapping[str, Any]) -> None:
    """Each outpost: its owner's shape and colour holding its level (and the damage it has taken), at the
    hex's left."""
    cells = _cells(view)
    s = grid.size
    for post in view.get("outposts") or []:
        if post["at"] not in cells:
            continue
        owner = int(post["owner"])
        cx, cy = grid.center(cells[post["at"]])
        side = round(s * 0.5)
        box = Box(cx - round(s * 0.84), cy + round(s * 0.08) - side // 2, side, side)
        color = seat_color(view, owner)
        _halo(canvas, box, seat_shape(owner))
        kb.draw_piece(canvas, box, kb.Piece((0, 0), str(post["level"]), color, seat_shape(owner)))
        if post.get("dmg"):
            _pill(canvas, (box.x + side / 2, box.y2 + s * 0.12), f"-{post['dmg']}", max(11, round(s * 0.28)),
                  PALETTE.danger)


def _source(canvas: Canvas, grid: kb.HexGrid, view: Mapping[str, Any]) -> None:
    """The spirits waiting on the Source of Power, at the hex's right."""
    s = grid.size
    for t in view["tiles"]:
        if t["type"] == "source":
            cx, cy = grid.center((int(t["q"]), int(t["r"])))
            _pill(canvas, (cx + s * 0.62, cy + s * 0.08), str(view.get("source", 0)), max(12, round(s * 0.36)))


def _deploy_marks(canvas: Canvas, grid: kb.HexGrid, view: Mapping[str, Any]) -> None:
    """During set-up each empty deployment tile carries its seat's shape and number as well as its colour."""
    if view.get("round"):
        return
    taken = {h["at"] for h in view.get("heroes") or []} | {m["at"] for m in view.get("monsters") or []}
    side = round(grid.size * 0.4)
    for t in view["tiles"]:
        if t["deploy"] and 0 <= int(t["area"]) < len(view.get("players") or []) and t["at"] not in taken:
            cx, cy = grid.center((int(t["q"]), int(t["r"])))
            seat = int(t["area"])
            box = Box(cx + round(grid.size * 0.3), cy + round(grid.size * 0.22), side, side)
            _halo(canvas, box, seat_shape(seat))
            kb.draw_piece(canvas, box, kb.Piece((0, 0), str(seat + 1), seat_color(view, seat), seat_shape(seat)))


# ---------------------------------------------------------------- header, roster and legend


def _turn_text(view: Mapping[str, Any], lang: str) -> str:
    turn = view.get("turn")
    if not turn:
        return ""
    if turn[0] == "m":
        return _t("gi.render.turn", lang, who=_lit(monster_name(turn[1]), lang))
    return _t("gi.render.turn", lang, who=_name(view, int(turn[1])))


def _header(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    first = [_t("gi.name", lang), _t("gi.render.round", lang, n=view.get("round", 0)),
             _t("gi.render.target", lang, n=view.get("target", 10))]
    second = []
    turn = _turn_text(view, lang)
    if turn:
        second.append(turn)
    if view.get("level"):
        second.append(_t("gi.render.level", lang, n=view["level"]))
    you = view.get("you")
    if isinstance(you, int):
        second.append(_t("gi.render.view_of", lang, name=_name(view, you)))
    kit.text(canvas.draw, (MARGIN, 22), "  ·  ".join(first), TITLE, PALETTE.ink, anchor="lm", bold=True,
             max_width=WIDTH - 2 * MARGIN)
    kit.text(canvas.draw, (MARGIN, 58), "  ·  ".join(second), TEXT, PALETTE.highlight, anchor="lm", bold=True,
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


#: A player's block in the roster: the title row and up to five lines (resources, tree, three heroes).
BLOCK_H = 40 + 5 * (SMALL + 8)


def _player(canvas: Canvas, box: Box, view: Mapping[str, Any], seat: int, lang: str) -> None:
    d = canvas.draw
    p = view["players"][seat]
    lh = SMALL + 8
    you, turn = view.get("you"), view.get("turn")
    if seat == you:  # the viewer's own block, framed so a private image says whose it is at a glance
        d.rounded_rectangle(box.inset(-4).rect, radius=8, fill=PALETTE.panel_alt, outline=PALETTE.highlight, width=3)
    kb.draw_piece(canvas, Box(box.x, box.y, 32, 32), kb.Piece((0, 0), str(seat + 1), seat_color(view, seat),
                                                             seat_shape(seat)))
    title = _name(view, seat)
    if p.get("faction"):
        title += " · " + _lit(faction_name(p["faction"]), lang)
    if seat == you:
        title += f" ({_t('gi.render.you', lang)})"
    pp = _t("gi.render.pp", lang, n=p.get("pp", 0))
    ppw = kit.text_width(pp, TEXT) + 4
    on_turn = bool(turn and turn[0] == "p" and int(turn[1]) == seat)
    kit.text(d, (box.x + 40, box.y + 16), title, TEXT, PALETTE.ink, anchor="lm", bold=on_turn,
             max_width=box.w - 48 - ppw)
    kit.text(d, (box.x2, box.y + 16), pp, TEXT, PALETTE.highlight, anchor="rm", bold=True)
    y = box.y + 40 + lh / 2
    res = "  ".join(f"{_lit(tile_name(k), lang)} {p['res'].get(k, 0)}" for k in RESOURCES)
    lines: list[tuple[str, Color, str]] = [
        (f"{res}  ·  {_t('gi.render.spirits', lang, n=p.get('spirits', 0))}", PALETTE.ink, "")]
    if p.get("tree"):
        lines.append((_t("gi.render.tree", lang, tree=_lit(tree_name(p["tree"]), lang)), PALETTE.muted, ""))
    for h in view.get("heroes") or []:
        if int(h["owner"]) != seat:
            continue
        level = len([x for x in h["levels"] if x])
        where = h["at"] or _t("gi.render.retreat", lang)
        text = _t("gi.render.hero", lang, hero=_lit(hero_name(h["id"]), lang), level=level, dmg=h["dmg"],
                  res=h["resistance"], at=where, xp=h["xp"])
        if h.get("commander"):
            text += " · " + _t("gi.render.commander", lang)
        lines.append((text, PALETTE.muted if h.get("done") or not h["at"] else PALETTE.ink, unit_code(h["id"], lang)))
    for text, ink, code in lines[:5]:
        x = box.x
        if code:  # the hero's token as the map draws it: the legend of its code
            side = lh - 2
            kb.draw_piece(canvas, Box(x, round(y - side / 2), side, side),
                          kb.Piece((0, 0), code, seat_color(view, seat), seat_shape(seat)))
            x += side + 6
        kit.text(d, (x, y), text, SMALL, ink, anchor="lm", max_width=box.x2 - x)
        y += lh


def _roster(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    d = canvas.draw
    box = _panel(view).inset(14, 10)
    lh = SMALL + 8
    order = [int(x) for x in view.get("order") or []]
    names = " > ".join(_name(view, seat) for seat in order)
    kit.text(d, (box.x, box.y + 14), _t("gi.render.order", lang, order=names or "-"), TEXT, PALETTE.ink,
             anchor="lm", max_width=box.w)
    y = box.y + 40
    seats = order or list(range(len(view.get("players") or [])))
    per_row = 1 if narrow(view) else 2
    columns = Box(box.x, y, box.w, 0).split_h(per_row, gap=28)
    for i, seat in enumerate(seats[:4]):
        col = columns[i % per_row]
        _player(canvas, Box(col.x, y + (i // per_row) * (BLOCK_H + 12), col.w, BLOCK_H), view, seat, lang)
    y += -(-min(4, len(seats)) // per_row) * (BLOCK_H + 12) + 4
    mons = view.get("monsters") or []
    if mons:
        kit.text(d, (box.x, y + 14), _t("gi.render.monsters", lang), TEXT, PALETTE.ink, anchor="lm", bold=True)
        y += 34
        for m in mons[:6]:
            need = _need(view, m["id"]) if m["kind"] == "primary" else None
            held = m["spirits"] if m["id"] == "oryana" else m["count"]
            text = _t("gi.render.monster", lang, monster=_lit(monster_name(m["id"]), lang),
                      at=m["at"] or _t("gi.render.retreat", lang), dmg=m["dmg"], res=m["resistance"])
            if need is not None:
                text += "  ·  " + _t("gi.render.victory", lang, held=held, need=need)
            kb.draw_piece(canvas, Box(box.x, round(y - 13), 26, 26),
                          kb.Piece((0, 0), unit_code(m["id"], lang), MONSTER,
                                   "triangle" if m["kind"] == "primary" else "octagon"))
            for line in kit.wrap(text, SMALL, box.w - 34)[:2]:  # a narrow roster wraps, keeping the victory count
                kit.text(d, (box.x + 34, y), line, SMALL, PALETTE.ink, anchor="lm", max_width=box.w - 34)
                y += lh
    y += 6
    _dice(canvas, view, lang, Box(box.x, y, box.w, box.y2 - y))


def _unit_name(view: Mapping[str, Any], unit: list[str], lang: str) -> str:
    kind, uid = unit
    return _lit(hero_name(uid) if kind == "hero" else monster_name(uid), lang)


def _dice(canvas: Canvas, view: Mapping[str, Any], lang: str, box: Box) -> None:
    """The dice of the attack under way, else of the last one, and what the viewer alone has peeked."""
    d = canvas.draw
    lh = SMALL + 8
    y = box.y
    att = view.get("attack") or view.get("last_dice")
    if att and y + 2 * lh < box.y2:
        a = " ".join(map(str, att["a"])) or "-"
        dd = " ".join(map(str, att["d"])) or "-"
        key = "gi.render.dice_now" if view.get("attack") else "gi.render.dice_last"
        kit.text(d, (box.x, y + 14), _t(key, lang, unit=_unit_name(view, att["by"], lang), at=att["at"]), TEXT,
                 PALETTE.ink, anchor="lm", bold=True, max_width=box.w)
        y += 34
        line = _t("gi.render.dice", lang, a=a, ta=sum(att["a"]), d=dd, td=sum(att["d"]))
        if "damage" in att:
            line += "  ·  " + _t("gi.render.damage", lang, n=att["damage"])
        kit.text(d, (box.x, y), line, SMALL, PALETTE.ink, anchor="lm", max_width=box.w)
        y += lh + 4
    peeks = view.get("peeks") or []
    if peeks and y + lh < box.y2:
        seen = ", ".join(f"{p.split('=')[0]} {_lit(tile_name(p.split('=')[1]), lang)}" for p in peeks)
        for line in kit.wrap(_t("gi.render.peeks", lang, tiles=seen), SMALL, box.w)[:2]:
            kit.text(d, (box.x, y), line, SMALL, PEEK, anchor="lm")
            y += lh


def legend_items(view: Mapping[str, Any], lang: str) -> list[kb.LegendItem]:
    """The legend: every tile type the view shows, then the marks and pieces of the map."""
    shown = sorted({t["type"] for t in view["tiles"] if t["type"]} | {p.split("=")[1] for p in view.get("peeks") or []})
    items = [kb.LegendItem(_t("gi.render.hidden", lang), HIDDEN)]
    items += [kb.LegendItem(_lit(tile_name(k), lang), terrain(k)) for k in shown]
    items += [kb.LegendItem(_t("gi.render.destroyed", lang), terrain("meadow", True)),
              kb.LegendItem(_t("gi.render.outpost_level", lang), kb.Piece((0, 0), "2", SEAT_COLORS[0], SEAT_SHAPES[0])),
              kb.LegendItem(_t("gi.render.deploy", lang), kb.Piece((0, 0), "1", SEAT_COLORS[0], SEAT_SHAPES[0])),
              kb.LegendItem(_t("gi.render.hero_level", lang), kb.Piece((0, 0), "1", kb.EDGE, "circle")),
              kb.LegendItem(_t("gi.render.monster_piece", lang), kb.Piece((0, 0), "M", MONSTER, "triangle")),
              kb.LegendItem(_t("gi.render.commander", lang), kb.Piece((0, 0), "C", PALETTE.neutral,
                                                                   ring=PALETTE.highlight))]
    if view.get("peeks"):
        items.append(kb.LegendItem(_t("gi.render.peeked", lang), kb.Mark((0, 0), "star", PEEK)))
    items += kb.marks_legend(lang, reach=False)
    return items


def _legend(canvas: Canvas, view: Mapping[str, Any], lang: str) -> None:
    top = size(view)[1] - LEGEND_H - MARGIN
    kb.legend(canvas, Box(MARGIN, top + 4, WIDTH - 2 * MARGIN, LEGEND_H - 8), legend_items(view, lang),
              size=SMALL - 2)


def render(view: dict[str, Any], lang: str) -> bytes:
    """The map with every piece, the players' resources and points, the monsters and the last dice, as PNG bytes."""
    grid, spec = _spec(view)
    canvas = Canvas.from_image(kb.static_image(spec).copy())
    canvas.draw.rounded_rectangle(_panel(view).rect, radius=8, fill=PALETTE.panel)
    kb.draw_layers(canvas, grid, _layers(view))
    _deploy_marks(canvas, grid, view)
    _outposts(canvas, grid, view)
    _units(canvas, grid, view, lang)
    _source(canvas, grid, view)
    _header(canvas, view, lang)
    _roster(canvas, view, lang)
    _legend(canvas, view, lang)
    return canvas.png()
