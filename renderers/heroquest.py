"""HeroQuest board image: rooms, corridors, walls, doors, furniture and figures, plus a heroes panel.

`render(view, lang) -> bytes` draws a PNG from the view the engine produces:

    {"viewer": "gm" | "hero" | "spectator",
     "quest": {"name": {"es": .., "en": ..}},
     "revealed": [[r, c], ...],          # squares the players have seen (GM view: all)
     "unused": [[r, c], ...],            # optional: the quest's shaded squares (not part of it)
     "doors": [{"uid", "between": [[r, c], [r, c]], "open": bool, "secret": bool,
                "hidden": bool}],        # hidden (optional): GM view, not yet known to the players
     "objects": [{"uid", "kind", "ref", "squares": [[r, c], ...], "rotation", "hidden": bool}],
     "heroes": [{"uid", "hero", "name", "square": [r, c] | None, "body", "max_body", "mind",
                 "max_mind", "equipment": [str, ...], "dead": bool, "seat": int}],
     "monsters": [{"uid", "ref", "square": [r, c], "body", "max_body", "hidden": bool}],
     "turn": {"label": <message JSON> | {"es": .., "en": ..}},
     "log": [<message JSON> | {"es": .., "en": ..}, ...]}    # message JSON: {"key", "params"}

Object kinds drawn: furniture, blocked (rocks too), stairs, trap (found or sprung), marker,
secret_door markers are ignored (doors come from "doors"). In the players' views everything on a
square not in "revealed" is covered by the dark colour `UNSEEN`; the GM sees everything, with things
the players have not found drawn faded and outlined with dashes.

`quest_view(quest, viewer)` builds such a view for a quest's starting position (previews, tests).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PIL import ImageDraw

import i18n
from renderers import kit
from renderers.kit import PALETTE, Box, Canvas, Color
from rules.heroquest import board, catalog
from rules.heroquest.visibility import initial_revealed
from rules.text import Msg

SQ = 36  # px per square
MARGIN = 14
HEADER = 46
PANEL_W = 330
LEGEND_H = 30
BOARD_W, BOARD_H = board.COLS * SQ, board.ROWS * SQ
WIDTH = MARGIN + BOARD_W + MARGIN + PANEL_W + MARGIN
HEIGHT = HEADER + BOARD_H + LEGEND_H + MARGIN

UNSEEN: Color = (0x12, 0x13, 0x17)
UNUSED: Color = (0x3A, 0x3C, 0x44)
CORRIDOR: Color = (0xB4, 0xB7, 0xBE)
ROOM: Color = (0xD9, 0xC7, 0xA3)
GRID: Color = (0x8E, 0x8A, 0x80)
WALL: Color = (0x1A, 0x1A, 0x1A)
WALL_RIM: Color = (0x7A, 0x72, 0x66)
DOOR: Color = (0xB0, 0x66, 0x1C)
SECRET: Color = kit.OKABE_ITO["reddish_purple"]
FURNITURE: Color = (0x6E, 0x45, 0x22)
STAIRS: Color = (0x5E, 0x6A, 0x7A)
BLOCKED: Color = (0x4A, 0x4A, 0x4E)
TRAP: Color = kit.OKABE_ITO["yellow"]
HERO: Color = kit.OKABE_ITO["blue"]
MONSTER: Color = kit.OKABE_ITO["vermillion"]
MARKER: Color = kit.OKABE_ITO["bluish_green"]

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
    return Box(MARGIN + sq[1] * SQ, HEADER + sq[0] * SQ, SQ, SQ)


def _span_box(squares: Iterable[Sequence[int]]) -> Box:
    sqs = list(squares)
    r0, r1 = min(s[0] for s in sqs), max(s[0] for s in sqs)
    c0, c1 = min(s[1] for s in sqs), max(s[1] for s in sqs)
    return Box(MARGIN + c0 * SQ, HEADER + r0 * SQ, (c1 - c0 + 1) * SQ, (r1 - r0 + 1) * SQ)


def _dashed_rect(draw: ImageDraw.ImageDraw, box: Box, color: Color, width: int = 2, dash: int = 5) -> None:
    x0, y0, x1, y1 = box.rect
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
        for start in range(0, length, dash * 2):
            end = min(length, start + dash)
            t0, t1 = start / length, end / length
            draw.line(
                [
                    (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                    (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
                ],
                fill=color,
                width=width,
            )


def _hatch(draw: ImageDraw.ImageDraw, box: Box, color: Color, step: int = 7) -> None:
    for k in range(-box.h, box.w, step):
        x0, y0 = box.x + max(k, 0), box.y + max(-k, 0)
        n = min(box.w - max(k, 0), box.h - max(-k, 0))
        if n > 0:
            draw.line([(x0, y0 + n - 1), (x0 + n - 1, y0)], fill=color, width=1)


class _Board:
    """Draws one view's board; `hidden_ok` is True for the GM (sees hidden things, faded)."""

    def __init__(self, canvas: Canvas, view: dict[str, Any], lang: str) -> None:
        self.c = canvas
        self.d = canvas.draw
        self.view = view
        self.lang = lang
        self.gm = view.get("viewer") == "gm"
        all_sq = board.all_squares()
        self.revealed = set(all_sq) if self.gm else {tuple(s) for s in view.get("revealed", [])}
        self.unused = {tuple(s) for s in view.get("unused", [])}

    def seen(self, sq: Sequence[int]) -> bool:
        return tuple(sq) in self.revealed  # type: ignore[comparison-overlap]

    def draw(self) -> None:
        self.floors()
        self.stairs_and_blocks()
        self.furniture_and_traps()
        self.cover_unseen()
        self.walls()
        self.doors()
        self.figures()

    def floors(self) -> None:
        for sq in board.all_squares():
            box = _sq_box(sq)
            if sq in self.unused:
                self.d.rectangle(box.rect, fill=UNUSED)
                _hatch(self.d, box, kit.mix(UNUSED, WALL, 0.6))
                continue
            fill = CORRIDOR if board.is_corridor(sq) else ROOM
            self.d.rectangle(box.rect, fill=fill, outline=GRID)

    def walls(self) -> None:
        # a black line with a lighter rim reads on floors and on the unseen dark alike
        segments = list(self._wall_segments())
        for seg in segments:
            self.d.line(seg, fill=WALL_RIM, width=max(5, SQ // 6))
        for seg in segments:
            self.d.line(seg, fill=WALL, width=max(3, SQ // 10))

    def _wall_segments(self) -> Iterable[list[tuple[int, int]]]:
        for sq in board.all_squares():
            box = _sq_box(sq)
            top, right, bottom, left = board.wall_mask(sq)
            r, c = sq
            # players only see walls that border a square they have seen
            if top and (self.seen(sq) or self.seen((r - 1, c))):
                yield [(box.x, box.y), (box.x2, box.y)]
            if left and (self.seen(sq) or self.seen((r, c - 1))):
                yield [(box.x, box.y), (box.x, box.y2)]
            if bottom and r == board.ROWS - 1 and self.seen(sq):
                yield [(box.x, box.y2), (box.x2, box.y2)]
            if right and c == board.COLS - 1 and self.seen(sq):
                yield [(box.x2, box.y), (box.x2, box.y2)]

    def doors(self) -> None:
        for door in self.view.get("doors", []):
            a, b = (tuple(s) for s in door["between"])
            if not self.gm and not (self.seen(a) or self.seen(b)):
                continue
            self.door(a, b, bool(door.get("open")), bool(door.get("secret")), bool(door.get("hidden")))

    def door(self, a: tuple[int, ...], b: tuple[int, ...], is_open: bool, secret: bool, hidden: bool) -> None:
        color = SECRET if secret else DOOR
        thick = max(10, SQ // 3)
        if a[0] == b[0]:  # side by side: a vertical wall segment
            x = MARGIN + max(a[1], b[1]) * SQ
            y = HEADER + a[0] * SQ
            leaf = Box(x - thick // 2, y + 2, thick, SQ - 4)
            gap = [(x, y + 4), (x, y + SQ - 4)]
        else:
            x = MARGIN + a[1] * SQ
            y = HEADER + max(a[0], b[0]) * SQ
            leaf = Box(x + 2, y - thick // 2, SQ - 4, thick)
            gap = [(x + 4, y), (x + SQ - 4, y)]
        if is_open:
            floor = ROOM if not board.is_corridor(a) or not board.is_corridor(b) else CORRIDOR
            self.d.line(gap, fill=floor, width=max(3, SQ // 9) + 2)
            # the leaf swings open into the room side (b's side when both or neither are rooms)
            inward = b if board.is_corridor(a) or not board.is_corridor(b) else a
            sign = 1 if (inward[0] - min(a[0], b[0])) + (inward[1] - min(a[1], b[1])) > 0 else -1
            jx, jy = gap[0]
            length = int(SQ * 0.6)
            if a[0] == b[0]:
                leaf_rect = [min(jx, jx + sign * length), jy - 3, max(jx, jx + sign * length), jy + 3]
            else:
                leaf_rect = [jx - 3, min(jy, jy + sign * length), jx + 3, max(jy, jy + sign * length)]
            self.d.rectangle(leaf_rect, fill=color, outline=WALL)
            for kx, ky in gap:
                self.d.rectangle([kx - 3, ky - 3, kx + 3, ky + 3], fill=color, outline=WALL)
            return
        self.d.rectangle(leaf.rect, fill=color, outline=WALL, width=2)
        if hidden:
            _hatch(self.d, leaf.inset(2), kit.mix(color, WALL, 0.5), step=4)
        if secret:
            cx, cy = leaf.center
            kit.text(self.d, (cx, cy), "S", max(9, thick - 1), kit.ink_on(color), anchor="mm", bold=True)
        if hidden:
            _dashed_rect(self.d, leaf.inset(-2), PALETTE.highlight, width=1, dash=3)

    def stairs_and_blocks(self) -> None:
        for obj in self.view.get("objects", []):
            if obj.get("kind") not in ("stairs", "blocked"):
                continue
            squares = obj.get("squares") or []
            if not squares:
                continue
            hidden = bool(obj.get("hidden"))
            for sq in squares:
                box = _sq_box(sq)
                if obj["kind"] == "stairs":
                    self.d.rectangle(box.rect, fill=kit.mix(STAIRS, ROOM, 0.4 if hidden else 0.0))
                    for i in range(1, 6):
                        y = box.y + i * SQ // 6
                        self.d.line([(box.x + 3, y), (box.x2 - 3, y)], fill=kit.mix(STAIRS, PALETTE.ink, 0.6), width=2)
                else:
                    fill = kit.mix(BLOCKED, ROOM, 0.45) if hidden else BLOCKED
                    self.d.rectangle(box.inset(1).rect, fill=fill)
                    inner = box.inset(7)
                    self.d.line([(inner.x, inner.y), (inner.x2, inner.y2)], fill=PALETTE.muted, width=3)
                    self.d.line([(inner.x, inner.y2), (inner.x2, inner.y)], fill=PALETTE.muted, width=3)
            if hidden:
                _dashed_rect(self.d, _span_box(squares).inset(2), PALETTE.highlight)

    def furniture_and_traps(self) -> None:
        for obj in self.view.get("objects", []):
            kind = obj.get("kind")
            squares = obj.get("squares") or []
            if not squares or kind in ("stairs", "blocked", "door", "secret_door", "hero_start"):
                continue
            hidden = bool(obj.get("hidden"))
            if kind == "trap":
                for sq in squares:
                    self.trap(_sq_box(sq), obj.get("ref", ""), hidden)
            elif kind == "marker":
                self.marker(_sq_box(squares[0]), obj, hidden)
            else:
                self.furniture(_span_box(squares), obj.get("ref", ""), hidden)

    def furniture(self, box: Box, ref: str, hidden: bool) -> None:
        fill = kit.mix(FURNITURE, ROOM, 0.5) if hidden else FURNITURE
        inner = box.inset(3)
        self.d.rounded_rectangle(inner.rect, radius=5, fill=fill, outline=WALL, width=2)
        ink = kit.ink_on(fill)
        name = ref_name(ref, self.lang)
        if inner.w < 2 * SQ - 8 and inner.h >= 2 * SQ - 8:
            # tall and narrow: the name reads bottom to top
            label = Canvas(inner.h - 4, inner.w - 4, fill)
            kit.text(label.draw, label.box.center, name, 11, ink, anchor="mm", max_width=inner.h - 8)
            self.c.paste(label, (inner.x + 2, inner.y + 2), rotate=90)
        elif inner.w >= 2 * SQ - 8:
            size = 11
            lines = kit.wrap(name, size, inner.w - 6)[:3]
            lh = kit.line_height(size)
            y = inner.y + (inner.h - lh * len(lines)) / 2
            for line in lines:
                kit.text(self.d, (inner.x + inner.w / 2, y), line, size, ink, anchor="ma", max_width=inner.w - 4)
                y += lh
        else:
            kit.text(self.d, inner.center, abbrev(name), 12, ink, anchor="mm", bold=True)
        if hidden:
            _dashed_rect(self.d, box.inset(1), PALETTE.highlight)

    def trap(self, box: Box, ref: str, hidden: bool) -> None:
        inner = box.inset(4)
        if ref in ("falling_block", "rock", "fallen_rock"):
            fill = kit.mix(BLOCKED, ROOM, 0.45) if hidden else BLOCKED
            self.d.rectangle(box.inset(1).rect, fill=fill)
            self.d.polygon(
                [
                    (inner.x + 4, inner.y2 - 3),
                    (inner.x + 10, inner.y + 4),
                    (inner.x2 - 6, inner.y + 8),
                    (inner.x2 - 2, inner.y2 - 4),
                ],
                fill=PALETTE.muted,
            )
        elif ref in ("pit_trap", "deep_pit_trap", "long_pit_trap"):
            self.d.rectangle(
                inner.rect, fill=UNSEEN if not hidden else kit.mix(UNSEEN, ROOM, 0.5), outline=TRAP, width=3
            )
        else:
            fill = kit.mix(TRAP, ROOM, 0.5) if hidden else TRAP
            self.d.polygon(
                [(inner.x + inner.w / 2, inner.y), (inner.x2, inner.y2), (inner.x, inner.y2)], fill=fill, outline=WALL
            )
            kit.text(self.d, (inner.x + inner.w / 2, inner.y2 - 2), "!", 15, WALL, anchor="md", bold=True)
        if hidden:
            _dashed_rect(self.d, box.inset(1), PALETTE.highlight)

    def marker(self, box: Box, obj: dict[str, Any], hidden: bool) -> None:
        label = obj.get("note") or obj.get("ref", "?").removeprefix("letter_").removeprefix("number_").upper()
        inner = box.inset(9)
        self.d.ellipse(inner.rect, fill=kit.mix(MARKER, ROOM, 0.4 if hidden else 0.0), outline=WALL)
        kit.text(self.d, inner.center, label[:2], 11, kit.ink_on(MARKER), anchor="mm", bold=True)

    def figures(self) -> None:
        for m in self.view.get("monsters", []):
            sq = m.get("square")
            if sq is None:
                continue
            self.monster(_sq_box(sq), m)
        for h in self.view.get("heroes", []):
            sq = h.get("square")
            if sq is None or h.get("dead"):
                continue
            self.hero(_sq_box(sq), h)

    def monster(self, box: Box, m: dict[str, Any]) -> None:
        hidden = bool(m.get("hidden"))
        fill = kit.mix(MONSTER, ROOM, 0.5) if hidden else MONSTER
        inner = box.inset(3)
        cx, cy = inner.center
        r = inner.w / 2
        k = r * 0.42
        # an octagon: a different shape from the heroes' round tokens, not only a different colour
        pts = [
            (cx - k, cy - r),
            (cx + k, cy - r),
            (cx + r, cy - k),
            (cx + r, cy + k),
            (cx + k, cy + r),
            (cx - k, cy + r),
            (cx - r, cy + k),
            (cx - r, cy - k),
        ]
        self.d.polygon(pts, fill=fill, outline=WALL)
        kit.text(
            self.d,
            (cx, cy - 2),
            abbrev(ref_name(m.get("ref", "?"), self.lang)),
            13,
            kit.ink_on(fill),
            anchor="mm",
            bold=True,
        )
        body, max_body = m.get("body"), m.get("max_body")
        if isinstance(body, int) and isinstance(max_body, int) and max_body > 1:
            kit.text(self.d, (cx, inner.y2 + 1), f"{body}", 9, kit.ink_on(fill), anchor="md")
        if hidden:
            _dashed_rect(self.d, box.inset(1), PALETTE.highlight)

    def hero(self, box: Box, h: dict[str, Any]) -> None:
        inner = box.inset(3)
        self.d.ellipse(inner.rect, fill=HERO, outline=PALETTE.ink, width=3)
        label = abbrev(ref_name(h.get("hero", "?"), self.lang))
        kit.text(self.d, inner.center, label, 13, kit.ink_on(HERO), anchor="mm", bold=True)

    def cover_unseen(self) -> None:
        if self.gm:
            return
        for sq in board.all_squares():
            if sq not in self.revealed:
                self.d.rectangle(_sq_box(sq).rect, fill=UNSEEN)


def _panel(canvas: Canvas, view: dict[str, Any], lang: str) -> None:
    d = canvas.draw
    box = Box(MARGIN + BOARD_W + MARGIN, HEADER, PANEL_W, BOARD_H + LEGEND_H)
    d.rounded_rectangle(box.rect, radius=8, fill=PALETTE.panel)
    inner = box.inset(12)
    y = inner.y
    heroes = sorted(view.get("heroes", []), key=lambda h: (h.get("seat", 0), h.get("uid", "")))
    for h in heroes:
        card_h = 118
        if y + card_h > inner.y2 - 140:
            break
        card = Box(inner.x, y, inner.w, card_h)
        dead = bool(h.get("dead"))
        d.rounded_rectangle(card.rect, radius=6, fill=PALETTE.panel_alt)
        token = Box(card.x + 8, card.y + 8, 30, 30)
        d.ellipse(token.rect, fill=PALETTE.neutral if dead else HERO, outline=PALETTE.ink, width=2)
        kit.text(d, token.center, abbrev(ref_name(h.get("hero", "?"), lang)), 12, PALETTE.ink, anchor="mm", bold=True)
        title = f"{_lit(h.get('name'), lang) or ref_name(h.get('hero', ''), lang)} · {_player(view, h)}".strip(" ·")
        if dead:
            title += f" ({_t('hq.q.render.dead', lang)})"
        kit.text(
            d,
            (token.x2 + 8, token.y + 2),
            title,
            15,
            PALETTE.muted if dead else PALETTE.ink,
            max_width=card.x2 - token.x2 - 16,
            bold=True,
        )
        stats_y = token.y + 20
        _stat(
            d,
            Box(token.x2 + 8, stats_y, 120, 18),
            "heart",
            _t("hq.q.render.body", lang),
            h.get("body"),
            h.get("max_body"),
            PALETTE.health,
        )
        _stat(
            d,
            Box(token.x2 + 136, stats_y, 130, 18),
            "star",
            _t("hq.q.render.mind", lang),
            h.get("mind"),
            h.get("max_mind"),
            PALETTE.info,
        )
        equipment = ", ".join(_item(str(e), lang) for e in h.get("equipment", [])) or "-"
        kit.paragraph(
            d,
            Box(card.x + 10, token.y2 + 8, card.w - 20, card.y2 - token.y2 - 14),
            equipment,
            12,
            PALETTE.muted,
            max_lines=3,
        )
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


def _player(view: dict[str, Any], h: dict[str, Any]) -> str:
    """The name of the player who plays this hero (`names` is added by the bot), else nothing."""
    names = view.get("names") or []
    seat = h.get("seat")
    return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _item(item: str, lang: str) -> str:
    entry = catalog.equipment().get(item)
    return _lit(entry["name"], lang) if entry else item.replace("_", " ")


def _stat(d: ImageDraw.ImageDraw, box: Box, icon: str, label: str, value: Any, top: Any, color: Color) -> None:
    kit.icon(d, icon, Box(box.x, box.y + 1, 16, 16), color)
    shown = f"{value}/{top}" if isinstance(top, int) else f"{value}"
    kit.text(d, (box.x + 20, box.y), f"{label} {shown}", 13, PALETTE.ink, max_width=box.w - 20)


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


def _legend(canvas: Canvas, lang: str, gm: bool) -> None:
    d = canvas.draw
    y = HEADER + BOARD_H + 6
    x = MARGIN
    items: list[tuple[str, str]] = [
        ("hero", "hq.q.render.legend.hero"),
        ("monster", "hq.q.render.legend.monster"),
        ("door", "hq.q.render.legend.door"),
        ("secret", "hq.q.render.legend.secret"),
        ("trap", "hq.q.render.legend.trap"),
        ("blocked", "hq.q.render.legend.blocked"),
    ]
    if gm:
        items.append(("hidden", "hq.q.render.legend.hidden"))
    for what, key in items:
        sw = Box(x, y, 18, 18)
        if what == "hero":
            d.ellipse(sw.rect, fill=HERO, outline=PALETTE.ink, width=2)
        elif what == "monster":
            d.regular_polygon((sw.center[0], sw.center[1], 9), 8, rotation=22.5, fill=MONSTER, outline=WALL)
        elif what == "door":
            d.rectangle(sw.inset(0, 5).rect, fill=DOOR, outline=WALL)
        elif what == "secret":
            d.rectangle(sw.inset(0, 5).rect, fill=SECRET, outline=WALL)
        elif what == "trap":
            d.polygon([(sw.x + 9, sw.y), (sw.x2, sw.y2), (sw.x, sw.y2)], fill=TRAP, outline=WALL)
        elif what == "blocked":
            d.rectangle(sw.rect, fill=BLOCKED)
            d.line([(sw.x + 3, sw.y + 3), (sw.x2 - 3, sw.y2 - 3)], fill=PALETTE.muted, width=2)
            d.line([(sw.x + 3, sw.y2 - 3), (sw.x2 - 3, sw.y + 3)], fill=PALETTE.muted, width=2)
        else:
            d.rectangle(sw.rect, fill=kit.mix(MONSTER, ROOM, 0.5))
            _dashed_rect(d, sw, PALETTE.highlight, width=1, dash=3)
        label = _t(key, lang)
        x += 24 + kit.text(d, (x + 24, y + 9), label, 13, PALETTE.muted, anchor="lm") + 18


def render(view: dict[str, Any], lang: str) -> bytes:
    """PNG bytes of a HeroQuest view (see the module docstring for the view's shape)."""
    canvas = Canvas(WIDTH, HEIGHT)
    _header(canvas, view, lang)
    _Board(canvas, view, lang).draw()
    _legend(canvas, lang, view.get("viewer") == "gm")
    _panel(canvas, view, lang)
    return canvas.png()


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
        "doors": doors,
        "objects": objects,
        "heroes": heroes,
        "monsters": monsters,
        "turn": {"label": {"es": "Preparación", "en": "Setup"}},
        "log": [],
    }
