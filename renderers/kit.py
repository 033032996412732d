"""Shared Pillow toolkit for renderers: fonts and text, a colour-blind-safe palette, layout boxes, drawn icons."""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

# ---------------------------------------------------------------- palette


def hex_color(value: str) -> Color:
    """`"#E69F00"` -> `(230, 159, 0)`."""
    value = value.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


#: The Okabe–Ito palette: eight colours that stay distinguishable under the common colour blindnesses.
OKABE_ITO: dict[str, Color] = {
    "black": hex_color("#000000"),
    "orange": hex_color("#E69F00"),
    "sky_blue": hex_color("#56B4E9"),
    "bluish_green": hex_color("#009E73"),
    "yellow": hex_color("#F0E442"),
    "blue": hex_color("#0072B2"),
    "vermillion": hex_color("#D55E00"),
    "reddish_purple": hex_color("#CC79A7"),
}


@dataclass(frozen=True)
class Palette:
    """Semantic colours: Okabe–Ito hues for meaning, dark neutrals for the table (Discord is mostly dark)."""

    # neutrals
    background: Color = (0x1C, 0x1E, 0x24)  # #1C1E24
    panel: Color = (0x2A, 0x2D, 0x36)  # #2A2D36
    panel_alt: Color = (0x35, 0x39, 0x45)  # #353945
    line: Color = (0x4B, 0x50, 0x60)  # #4B5060
    ink: Color = (0xF3, 0xF3, 0xF3)  # #F3F3F3
    muted: Color = (0xA3, 0xA8, 0xB4)  # #A3A8B4
    dark_ink: Color = (0x11, 0x11, 0x11)  # #111111
    # meanings
    danger: Color = OKABE_ITO["vermillion"]
    ok: Color = OKABE_ITO["bluish_green"]
    info: Color = OKABE_ITO["sky_blue"]
    warn: Color = OKABE_ITO["orange"]
    highlight: Color = OKABE_ITO["yellow"]
    # resources (Hero Realms and friends)
    health: Color = OKABE_ITO["bluish_green"]
    gold: Color = OKABE_ITO["yellow"]
    combat: Color = OKABE_ITO["vermillion"]
    # Hero Realms factions: each also has its own glyph (see FACTION_GLYPH) so colour is never the only cue
    guild: Color = OKABE_ITO["blue"]
    imperial: Color = OKABE_ITO["orange"]
    necros: Color = OKABE_ITO["reddish_purple"]
    wild: Color = OKABE_ITO["bluish_green"]
    neutral: Color = (0x8A, 0x8F, 0x9C)  # #8A8F9C

    def faction(self, name: str | None) -> Color:
        """The colour of a Hero Realms faction by name (any case); unknown or None is neutral."""
        return getattr(self, _faction_key(name), self.neutral)


PALETTE = Palette()

FACTIONS = ("guild", "imperial", "necros", "wild", "neutral")
#: The icon drawn beside each faction's colour.
FACTION_GLYPH: dict[str, str] = {
    "guild": "diamond",
    "imperial": "crown",
    "necros": "skull",
    "wild": "claw",
    "neutral": "ring",
}


def _faction_key(name: str | None) -> str:
    key = (name or "neutral").strip().lower()
    return key if key in FACTION_GLYPH else "neutral"


def faction_glyph(name: str | None) -> str:
    """The icon name of a faction (any case); unknown or None is the neutral ring."""
    return FACTION_GLYPH[_faction_key(name)]


def luminance(color: Color) -> float:
    """Relative luminance (WCAG) of an sRGB colour, 0..1."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = color
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def ink_on(fill: Color) -> Color:
    """Dark or light text, whichever contrasts more with `fill`."""
    return PALETTE.dark_ink if luminance(fill) > 0.22 else PALETTE.ink


def mix(a: Color, b: Color, t: float) -> Color:
    """Blend from `a` (t=0) to `b` (t=1)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# ---------------------------------------------------------------- layout


@dataclass(frozen=True)
class Box:
    """An integer rectangle: left, top, width, height."""

    x: int
    y: int
    w: int
    h: int

    @property
    def x2(self) -> int:
        return self.x + self.w

    @property
    def y2(self) -> int:
        return self.y + self.h

    @property
    def rect(self) -> tuple[int, int, int, int]:
        """Pillow's inclusive `[x0, y0, x1, y1]`."""
        return (self.x, self.y, self.x + self.w - 1, self.y + self.h - 1)

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    def inset(self, dx: int, dy: int | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))

    def split_h(self, parts: int | Sequence[float], gap: int = 0) -> list[Box]:
        """Side-by-side columns, left to right: `parts` equal ones or one per weight."""
        spans = _spans(self.x, self.w, parts, gap)
        return [Box(a, self.y, n, self.h) for a, n in spans]

    def split_v(self, parts: int | Sequence[float], gap: int = 0) -> list[Box]:
        """Stacked rows, top to bottom: `parts` equal ones or one per weight."""
        spans = _spans(self.y, self.h, parts, gap)
        return [Box(self.x, a, self.w, n) for a, n in spans]

    def cut_top(self, h: int, gap: int = 0) -> tuple[Box, Box]:
        """A band of height `h` at the top, and what is left below it."""
        h = min(h, self.h)
        return Box(self.x, self.y, self.w, h), Box(self.x, self.y + h + gap, self.w, max(0, self.h - h - gap))

    def cut_left(self, w: int, gap: int = 0) -> tuple[Box, Box]:
        """A band of width `w` at the left, and what is left right of it."""
        w = min(w, self.w)
        return Box(self.x, self.y, w, self.h), Box(self.x + w + gap, self.y, max(0, self.w - w - gap), self.h)

    def centered(self, w: int, h: int) -> Box:
        """A `w`×`h` box centred in this one."""
        return Box(self.x + (self.w - w) // 2, self.y + (self.h - h) // 2, w, h)

    def square(self) -> Box:
        """The largest square centred in this box."""
        side = min(self.w, self.h)
        return self.centered(side, side)

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x2 and self.y <= y < self.y2


def _spans(start: int, length: int, parts: int | Sequence[float], gap: int) -> list[tuple[int, int]]:
    weights = [1.0] * parts if isinstance(parts, int) else [float(p) for p in parts]
    if not weights:
        return []
    free = max(0, length - gap * (len(weights) - 1))
    total = sum(weights) or 1.0
    out: list[tuple[int, int]] = []
    acc = 0.0
    pos = start
    for w in weights:
        acc += w
        end = start + round(free * acc / total) + gap * len(out)
        out.append((pos, max(0, end - pos)))
        pos = end + gap
    return out


def grid(x: int, y: int, cols: int, rows: int, cell_w: int, cell_h: int, gap: int = 0) -> list[Box]:
    """Cells of a `cols`×`rows` grid, row by row."""
    return [
        Box(x + c * (cell_w + gap), y + r * (cell_h + gap), cell_w, cell_h)
        for r in range(rows)
        for c in range(cols)
    ]


#: zlib level for `Canvas.png`: on a 1400 px palette table, 3 encodes ~10x faster than 9 (the old
#: `optimize=True`) for ~35% more bytes (about 64 KB instead of 46 KB).
PNG_COMPRESS_LEVEL = 3


def to_palette(img: Image.Image, colors: int = 256) -> Image.Image:
    """`img` with at most `colors` colours, undithered. The octree picks the palette from every other
    pixel in each direction, then each pixel takes its nearest palette colour: octree's own mapping
    pass is the slow part (about 3x slower overall for a table image, and no closer to the original)."""
    if min(img.size) < 64:
        return img.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    sample = img.resize((img.width // 2, img.height // 2), Image.Resampling.NEAREST)
    palette = sample.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


class Canvas:
    """An RGB image with its drawing context and PNG export."""

    def __init__(self, width: int, height: int, bg: Color = PALETTE.background) -> None:
        self.image = Image.new("RGB", (width, height), bg)
        self.draw = ImageDraw.Draw(self.image)

    @property
    def box(self) -> Box:
        return Box(0, 0, self.image.width, self.image.height)

    def paste(self, other: Canvas, xy: tuple[int, int], rotate: int = 0) -> None:
        """Copy another canvas here with its top-left at `xy`, optionally turned by a multiple of 90°."""
        img = other.image.rotate(rotate, expand=True) if rotate % 360 else other.image
        self.image.paste(img, xy)

    def png(self, colors: int | None = 256, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
        """PNG bytes; by default reduced to a 256-colour palette, which keeps table images small."""
        img: Image.Image = self.image
        if colors:
            img = to_palette(img, colors)
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=compress_level)
        return buf.getvalue()

    @classmethod
    def from_image(cls, image: Image.Image) -> Canvas:
        """A canvas drawing on `image` itself (not a copy)."""
        c = cls.__new__(cls)
        c.image = image
        c.draw = ImageDraw.Draw(image)
        return c


# ---------------------------------------------------------------- fonts and text

#: U+0378 is unassigned: whatever a font draws for it is its missing-glyph box.
UNASSIGNED = "\u0378"
_PROBE_SIZE = 32
# Characters a font may lack, drawn from others it has (Pillow's built-in font lacks them).
_SUBSTITUTES = {"—": "-", "–": "-", "•": "·", "×": "x", "−": "-", "€": "E", "\u00a0": " "}
_INVERTED = {"¿": "?", "¡": "!"}
_MARKS = {"\u0301", "\u0300", "\u0303", "\u0308", "\u0302", "\u0327"}


@lru_cache(maxsize=128)
def font(size: int) -> Font:
    """Pillow's built-in scalable font at `size` px, cached."""
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow is built without FreeType"
    return loaded


def _glyph_pixels(f: Font, ch: str) -> bytes:
    img = Image.new("L", (int(f.size * 3), int(f.size * 3)))
    ImageDraw.Draw(img).text((f.size, f.size), ch, font=f, fill=255)
    return img.tobytes()


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the font draws `ch` as something other than its missing-glyph box."""
    if ch.isspace():
        return True
    return _glyph_pixels(font(_PROBE_SIZE), ch) != _missing_box()


@lru_cache(maxsize=1)
def _missing_box() -> bytes:
    return _glyph_pixels(font(_PROBE_SIZE), UNASSIGNED)


@dataclass(frozen=True)
class _Piece:
    """A run of characters the font has, or one character built from others (base + marks, or inverted)."""

    text: str
    marks: str = ""
    inverted: bool = False


@lru_cache(maxsize=8192)  # bounded: log lines and names make the set of strings open-ended
def _pieces(s: str) -> tuple[_Piece, ...]:
    out: list[_Piece] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append(_Piece("".join(run)))
            run.clear()

    for ch in unicodedata.normalize("NFC", s):
        if has_glyph(ch):
            run.append(ch)
            continue
        if ch in _SUBSTITUTES and has_glyph(_SUBSTITUTES[ch]):
            run.append(_SUBSTITUTES[ch])
            continue
        flush()
        if ch in _INVERTED:
            out.append(_Piece(_INVERTED[ch], inverted=True))
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        base, marks = decomposed[0], "".join(m for m in decomposed[1:] if m in _MARKS)
        if len(decomposed) > 1 and has_glyph(base):
            out.append(_Piece(base, marks=marks))
        else:
            out.append(_Piece(ch))  # nothing better: the font's box
    flush()
    return tuple(out)


@lru_cache(maxsize=16384)
def _advance(s: str, size: int) -> float:
    """Pillow's advance width of a run the font has."""
    return font(size).getlength(s)


@lru_cache(maxsize=16384)
def text_width(s: str, size: int) -> int:
    """Advance width of `s` in px."""
    return math.ceil(sum(_advance(p.text, size) for p in _pieces(s)))


def line_height(size: int) -> int:
    """Ascent plus descent of the font at `size`."""
    ascent, descent = font(size).getmetrics()
    return ascent + descent


def text_size(s: str, size: int) -> tuple[int, int]:
    """(width, line height) of a single line."""
    return text_width(s, size), line_height(size)


@lru_cache(maxsize=4096)
def ellipsize(s: str, size: int, max_width: int) -> str:
    """`s`, or its longest prefix plus "…" that fits in `max_width`."""
    if text_width(s, size) <= max_width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(s[:mid].rstrip() + "…", size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + "…" if lo or text_width("…", size) <= max_width else ""


def wrap(s: str, size: int, width: int) -> list[str]:
    """Greedy word wrap to `width` px; explicit newlines are kept, over-long words are broken."""
    return list(_wrap(s, size, width))


@lru_cache(maxsize=4096)
def _wrap(s: str, size: int, width: int) -> tuple[str, ...]:
    lines: list[str] = []
    for para in s.split("\n"):
        line = ""
        for word in para.split():
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while text_width(word, size) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and text_width(word[:cut], size) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return tuple(lines)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Color = PALETTE.ink,
    anchor: str = "la",
    max_width: int | None = None,
    bold: bool = False,
) -> int:
    """Draw one line and return its width. `anchor` is Pillow's two letters: l/m/r then a/m/s/d
    (t and b are read as a and d so every piece of a line shares one baseline). Text wider than
    `max_width` ends in "…". Letters the font lacks (á, ñ, ¿...) are built from ones it has."""
    if max_width is not None:
        s = ellipsize(s, size, max_width)
    f = font(size)
    width = text_width(s, size)
    h, v = anchor[0], {"t": "a", "b": "d"}.get(anchor[1], anchor[1])
    x = xy[0] - (width if h == "r" else width / 2 if h == "m" else 0)
    y = xy[1]
    # faux bold: the line drawn twice, shifted by a fraction of a pixel (a stroke smears small text)
    passes = (0.0, max(0.6, size / 28)) if bold else (0.0,)
    for piece in _pieces(s):
        for dx in passes:
            if piece.inverted:
                _draw_inverted(draw, (x + dx, y), piece.text, f, fill, v)
            elif piece.marks and piece.text == "i":
                _draw_dotless_i(draw, (x + dx, y), f, fill, v)
            else:
                _draw_run(draw, (x + dx, y), piece.text, size, fill, "l" + v)
            if piece.marks:
                _draw_marks(draw, (x + dx, y), piece, f, fill, v)
        x += _advance(piece.text, size)
    return width


def _draw_run(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: Color,
              anchor: str) -> None:
    """`draw.text(xy, s, font=font(size), fill=fill, anchor=anchor)`, pixel for pixel, from a cached mask."""
    if "\n" in s:  # Pillow's multi-line layout: not worth caching
        draw.text(xy, s, font=font(size), fill=fill, anchor=anchor)
        return
    # what ImageDraw.text does for one line: the fractional part of the pen goes to FreeType,
    # the integer part (truncated) places the mask
    fx, fy = math.modf(xy[0])[0], math.modf(xy[1])[0]
    mask, (ox, oy) = _run_mask(s, size, anchor, draw.fontmode, fx, fy)
    draw.bitmap((int(xy[0]) + ox, int(xy[1]) + oy), mask, fill=fill)


@lru_cache(maxsize=2048)  # a mask is a few KB; one table draws ~100 distinct runs
def _run_mask(s: str, size: int, anchor: str, mode: str, fx: float, fy: float) -> tuple[Image.Image, tuple[int, int]]:
    """FreeType's coverage mask of one line and its offset from the pen (shared: never draw on it)."""
    core, offset = font(size).getmask2(s, mode, anchor=anchor, start=(fx, fy))
    return Image.Image()._new(core), offset


def _baseline(f: Font, y: float, v: str) -> float:
    ascent, descent = f.getmetrics()
    return {"a": y + ascent, "m": y + (ascent - descent) / 2, "s": y, "d": y - descent}.get(v, y + ascent)


def _draw_marks(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], piece: _Piece, f: Font, fill: Color, v: str
) -> None:
    base_y = _baseline(f, xy[1], v)
    left, top, right, bottom = f.getbbox(piece.text, anchor="ls")
    if piece.text == "i":  # drawn dotless: the mark sits where the dot was
        top = f.getbbox("x", anchor="ls")[1]
    size = f.size
    cx = xy[0] + (left + right) / 2
    lw = max(1, round(size / 13))
    mh = size * 0.16  # mark height
    gap = size * 0.06
    y1 = base_y + top - gap  # bottom of a mark above the letter
    y0 = y1 - mh
    for mark in piece.marks:
        if mark == "\u0301":  # acute
            draw.line([(cx - size * 0.06, y1), (cx + size * 0.1, y0)], fill=fill, width=lw)
        elif mark == "\u0300":  # grave
            draw.line([(cx + size * 0.06, y1), (cx - size * 0.1, y0)], fill=fill, width=lw)
        elif mark == "\u0302":  # circumflex
            draw.line([(cx - size * 0.12, y1), (cx, y0), (cx + size * 0.12, y1)], fill=fill, width=lw, joint="curve")
        elif mark == "\u0303":  # tilde
            tw = min(size * 0.34, (right - left) * 0.75)
            pts = [
                (cx + (i / 12 - 0.5) * tw, (y0 + y1) / 2 - math.sin(i / 12 * 2 * math.pi) * mh * 0.4)
                for i in range(13)
            ]
            draw.line(pts, fill=fill, width=lw, joint="curve")
        elif mark == "\u0308":  # diaeresis
            r = max(1.0, size * 0.055)
            for dx in (-size * 0.12, size * 0.12):
                draw.ellipse([cx + dx - r, (y0 + y1) / 2 - r, cx + dx + r, (y0 + y1) / 2 + r], fill=fill)
        elif mark == "\u0327":  # cedilla
            yb = base_y + bottom
            draw.line([(cx, yb), (cx, yb + size * 0.08), (cx + size * 0.07, yb + size * 0.14),
                       (cx - size * 0.06, yb + size * 0.22)], fill=fill, width=lw)


def _glyph_mask(ch: str, f: Font) -> tuple[Image.Image, int, int]:
    """`ch` on an L mask, with the mask's offset from the pen position on the baseline."""
    return _glyph_mask_at(ch, f.size)


@lru_cache(maxsize=256)
def _glyph_mask_at(ch: str, size: int) -> tuple[Image.Image, int, int]:
    """`_glyph_mask` for `font(size)`, cached (shared: callers must not draw on the mask)."""
    f = font(size)
    left, top, right, bottom = (round(edge) for edge in f.getbbox(ch, anchor="ls"))
    mask = Image.new("L", (right - left + 2, bottom - top + 2))
    ImageDraw.Draw(mask).text((-left + 1, -top + 1), ch, font=f, fill=255, anchor="ls")
    return mask, left - 1, top - 1


def _draw_dotless_i(draw: ImageDraw.ImageDraw, xy: tuple[float, float], f: Font, fill: Color, v: str) -> None:
    """An "i" without its dot, to carry an accent (the built-in font has no "ı")."""
    base_y = _baseline(f, xy[1], v)
    mask, dx, dy = _dotless_i(f.size)
    draw.bitmap((round(xy[0] + dx), round(base_y + dy)), mask, fill=fill)


@lru_cache(maxsize=64)
def _dotless_i(size: int) -> tuple[Image.Image, int, int]:
    f = font(size)
    mask, dx, dy = _glyph_mask("i", f)
    mask = mask.copy()  # the cached glyph stays whole
    x_height = -f.getbbox("x", anchor="ls")[1]
    cut = round(-x_height - dy - max(1, f.size * 0.03))
    if cut > 0:
        ImageDraw.Draw(mask).rectangle([0, 0, mask.width, cut - 1], fill=0)
    return mask, dx, dy


def _draw_inverted(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], ch: str, f: Font, fill: Color, v: str
) -> None:
    """¿ and ¡ as ? and ! turned upside down, hanging to the descender like the real ones."""
    base_y = _baseline(f, xy[1], v)
    mask, left, top = _glyph_mask(ch, f)
    mask = mask.rotate(180)
    left, top = left + 1, top + 1
    _, descent = f.getmetrics()
    # the turned glyph keeps its height; drop it so its tail reaches most of the way down the descender
    top_y = base_y + top + descent * 0.75
    draw.bitmap((round(xy[0] + left - 1), round(top_y - 1)), mask, fill=fill)


def clear_caches() -> None:
    """Forget every measured string and cached mask (output does not depend on them; tests use this)."""
    for fn in (_pieces, _advance, text_width, ellipsize, _wrap, _run_mask, _glyph_mask_at, _dotless_i, _icon_mask):
        fn.cache_clear()


def paragraph(
    draw: ImageDraw.ImageDraw,
    box: Box,
    s: str,
    size: int,
    fill: Color = PALETTE.ink,
    align: str = "l",
    spacing: int = 2,
    max_lines: int | None = None,
) -> int:
    """Wrapped text inside `box` (the last line that fits ends in "…"); returns the height used."""
    lines = wrap(s, size, box.w)
    lh = line_height(size) + spacing
    fit = max(0, min(len(lines), (box.h + spacing) // lh, max_lines or len(lines)))
    if fit < len(lines) and fit:
        lines = [*lines[: fit - 1], ellipsize(lines[fit - 1] + " …", size, box.w)]
    x = {"l": box.x, "m": box.x + box.w / 2, "r": box.x2}[align]
    for i, line in enumerate(lines[:fit]):
        text(draw, (x, box.y + i * lh), line, size, fill, anchor=align + "a", max_width=box.w)
    return fit * lh - (spacing if fit else 0)


# ---------------------------------------------------------------- icons

_SS = 4  # icons are drawn 4× larger on a mask, then shrunk, for smooth edges
IconPainter = Callable[[ImageDraw.ImageDraw, float], None]
_ICONS: dict[str, IconPainter] = {}


def _icon(*names: str) -> Callable[[IconPainter], IconPainter]:
    def register(fn: IconPainter) -> IconPainter:
        for name in names:
            _ICONS[name] = fn
        return fn

    return register


def icon_names() -> list[str]:
    """Every icon `icon` can draw."""
    return sorted(_ICONS)


def icon(draw: ImageDraw.ImageDraw, name: str, box: Box, color: Color) -> None:
    """Draw the named icon in `color`, fitted to the largest square inside `box`; holes show what is
    behind. Unknown names draw a question mark in a ring."""
    sq = box.square()
    if sq.w < 2:
        return
    draw.bitmap((sq.x, sq.y), _icon_mask(name if name in _ICONS else "", sq.w), fill=color)


@lru_cache(maxsize=1024)
def _icon_mask(name: str, side: int) -> Image.Image:
    """The icon's coverage at `side` px, drawn large then shrunk (shared: never draw on it)."""
    n = side * _SS
    mask = Image.new("L", (n, n), 0)
    _ICONS.get(name, _unknown)(ImageDraw.Draw(mask), float(n))
    return mask.resize((side, side), Image.Resampling.LANCZOS)


def _poly(d: ImageDraw.ImageDraw, s: float, pts: Sequence[tuple[float, float]], fill: int = 255) -> None:
    d.polygon([(x * s, y * s) for x, y in pts], fill=fill)


def _ell(d: ImageDraw.ImageDraw, s: float, x0: float, y0: float, x1: float, y1: float, fill: int = 255) -> None:
    d.ellipse([x0 * s, y0 * s, x1 * s, y1 * s], fill=fill)


def _rect(
    d: ImageDraw.ImageDraw, s: float, x0: float, y0: float, x1: float, y1: float, fill: int = 255, r: float = 0
) -> None:
    d.rounded_rectangle([x0 * s, y0 * s, x1 * s, y1 * s], radius=r * s, fill=fill)


def _line(d: ImageDraw.ImageDraw, s: float, pts: Sequence[tuple[float, float]], w: float, fill: int = 255) -> None:
    d.line([(x * s, y * s) for x, y in pts], fill=fill, width=max(1, round(w * s)), joint="curve")


@_icon("heart", "health")
def _heart(d: ImageDraw.ImageDraw, s: float) -> None:
    _ell(d, s, 0.06, 0.14, 0.52, 0.58)
    _ell(d, s, 0.48, 0.14, 0.94, 0.58)
    _poly(d, s, [(0.09, 0.46), (0.91, 0.46), (0.5, 0.9)])
    _poly(d, s, [(0.2, 0.3), (0.8, 0.3), (0.8, 0.5), (0.2, 0.5)])


@_icon("coin", "gold")
def _coin(d: ImageDraw.ImageDraw, s: float) -> None:
    _ell(d, s, 0.06, 0.06, 0.94, 0.94)
    _ell(d, s, 0.18, 0.18, 0.82, 0.82, fill=0)
    _ell(d, s, 0.25, 0.25, 0.75, 0.75)
    _rect(d, s, 0.44, 0.33, 0.56, 0.67, fill=0)  # stamped bar


@_icon("sword", "combat")
def _sword(d: ImageDraw.ImageDraw, s: float) -> None:
    # blade from lower left to upper right, cross-guard, grip, pommel
    _poly(d, s, [(0.86, 0.06), (0.94, 0.14), (0.42, 0.66), (0.34, 0.58)])
    _poly(d, s, [(0.86, 0.06), (0.96, 0.04), (0.94, 0.14)])
    _line(d, s, [(0.2, 0.54), (0.46, 0.8)], 0.1)
    _line(d, s, [(0.36, 0.64), (0.14, 0.86)], 0.09)
    _ell(d, s, 0.04, 0.84, 0.18, 0.98)


@_icon("shield", "defense", "guard")
def _shield(d: ImageDraw.ImageDraw, s: float) -> None:
    _poly(d, s, [(0.5, 0.04), (0.9, 0.18), (0.86, 0.56), (0.5, 0.96), (0.14, 0.56), (0.1, 0.18)])
    _poly(d, s, [(0.5, 0.16), (0.78, 0.26), (0.75, 0.54), (0.5, 0.82)], fill=0)


@_icon("badge")
def _badge(d: ImageDraw.ImageDraw, s: float) -> None:
    # a solid shield to print a number on
    _poly(d, s, [(0.5, 0.02), (0.94, 0.16), (0.9, 0.56), (0.5, 0.98), (0.1, 0.56), (0.06, 0.16)])


@_icon("skull", "necros")
def _skull(d: ImageDraw.ImageDraw, s: float) -> None:
    _ell(d, s, 0.12, 0.06, 0.88, 0.7)
    _rect(d, s, 0.28, 0.56, 0.72, 0.92, r=0.06)
    _ell(d, s, 0.24, 0.3, 0.44, 0.5, fill=0)
    _ell(d, s, 0.56, 0.3, 0.76, 0.5, fill=0)
    _poly(d, s, [(0.5, 0.52), (0.44, 0.64), (0.56, 0.64)], fill=0)
    for x in (0.4, 0.5, 0.6):
        _rect(d, s, x - 0.015, 0.76, x + 0.015, 0.92, fill=0)


@_icon("deck")
def _deck(d: ImageDraw.ImageDraw, s: float) -> None:
    for i in range(3):
        o = 0.1 * i
        _rect(d, s, 0.3 - o, 0.08 + o, 0.9 - o, 0.72 + o, r=0.08)
        _rect(d, s, 0.35 - o, 0.13 + o, 0.85 - o, 0.67 + o, fill=0, r=0.05)
    _rect(d, s, 0.16, 0.34, 0.64, 0.84, r=0.04)


@_icon("discard")
def _discard(d: ImageDraw.ImageDraw, s: float) -> None:
    # two cards fanned face-up in a pile, the top one crossed
    _poly(d, s, [(0.08, 0.3), (0.55, 0.12), (0.74, 0.66), (0.27, 0.84)])
    _poly(d, s, [(0.14, 0.33), (0.52, 0.19), (0.68, 0.63), (0.3, 0.77)], fill=0)
    _rect(d, s, 0.34, 0.22, 0.94, 0.94, r=0.06)
    _rect(d, s, 0.4, 0.28, 0.88, 0.88, fill=0, r=0.04)
    _line(d, s, [(0.5, 0.4), (0.78, 0.76)], 0.08)
    _line(d, s, [(0.78, 0.4), (0.5, 0.76)], 0.08)


@_icon("hand")
def _hand(d: ImageDraw.ImageDraw, s: float) -> None:
    # three cards fanned out
    for cx, angle in ((0.3, 20), (0.5, 0), (0.7, -20)):
        a = math.radians(angle)
        pts = []
        for px, py in ((-0.17, -0.36), (0.17, -0.36), (0.17, 0.36), (-0.17, 0.36)):
            pts.append((cx + px * math.cos(a) + py * math.sin(a), 0.55 - px * math.sin(a) + py * math.cos(a)))
        _poly(d, s, pts)
        inner = []
        for px, py in ((-0.12, -0.31), (0.12, -0.31), (0.12, 0.31), (-0.12, 0.31)):
            inner.append((cx + px * math.cos(a) + py * math.sin(a), 0.55 - px * math.sin(a) + py * math.cos(a)))
        if angle >= 0:
            _poly(d, s, inner, fill=0)
    _rect(d, s, 0.56, 0.3, 0.8, 0.76, fill=0, r=0.02)


@_icon("gem", "fire_gem")
def _gem(d: ImageDraw.ImageDraw, s: float) -> None:
    _poly(d, s, [(0.24, 0.14), (0.76, 0.14), (0.96, 0.4), (0.5, 0.92), (0.04, 0.4)])
    _line(d, s, [(0.06, 0.4), (0.94, 0.4)], 0.05, fill=0)
    _line(d, s, [(0.34, 0.16), (0.28, 0.4), (0.5, 0.88), (0.72, 0.4), (0.66, 0.16)], 0.04, fill=0)


@_icon("diamond", "guild")
def _diamond(d: ImageDraw.ImageDraw, s: float) -> None:
    # Guild: a faceted diamond with a hollow centre
    _poly(d, s, [(0.5, 0.04), (0.94, 0.5), (0.5, 0.96), (0.06, 0.5)])
    _poly(d, s, [(0.5, 0.3), (0.7, 0.5), (0.5, 0.7), (0.3, 0.5)], fill=0)


@_icon("crown", "imperial")
def _crown(d: ImageDraw.ImageDraw, s: float) -> None:
    _poly(d, s, [(0.06, 0.26), (0.3, 0.5), (0.5, 0.16), (0.7, 0.5), (0.94, 0.26), (0.86, 0.76), (0.14, 0.76)])
    _rect(d, s, 0.14, 0.8, 0.86, 0.92)
    for x, y in ((0.06, 0.24), (0.5, 0.14), (0.94, 0.24)):
        _ell(d, s, x - 0.06, y - 0.08, x + 0.06, y + 0.04)


@_icon("claw", "wild")
def _claw(d: ImageDraw.ImageDraw, s: float) -> None:
    # Wild: three claw slashes
    for off in (-0.26, 0.0, 0.26):
        _poly(d, s, [(0.62 + off, 0.06), (0.72 + off, 0.1), (0.4 + off, 0.94), (0.34 + off, 0.8)])


@_icon("ring", "neutral")
def _ring(d: ImageDraw.ImageDraw, s: float) -> None:
    _ell(d, s, 0.12, 0.12, 0.88, 0.88)
    _ell(d, s, 0.3, 0.3, 0.7, 0.7, fill=0)


@_icon("star")
def _star(d: ImageDraw.ImageDraw, s: float) -> None:
    pts = []
    for i in range(10):
        r = 0.46 if i % 2 == 0 else 0.19
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((0.5 + r * math.cos(a), 0.54 + r * math.sin(a)))
    _poly(d, s, pts)


@_icon("expend")
def _expend(d: ImageDraw.ImageDraw, s: float) -> None:
    # a card turned sideways with a curved arrow: "tap this champion"
    _rect(d, s, 0.08, 0.48, 0.7, 0.92, r=0.06)
    _rect(d, s, 0.14, 0.54, 0.64, 0.86, fill=0, r=0.03)
    d.arc([0.3 * s, 0.08 * s, 0.9 * s, 0.68 * s], start=200, end=350, fill=255, width=round(0.08 * s))
    _poly(d, s, [(0.96, 0.3), (0.9, 0.5), (0.76, 0.32)])


@_icon("sacrifice", "trash")
def _sacrifice(d: ImageDraw.ImageDraw, s: float) -> None:
    _rect(d, s, 0.14, 0.18, 0.86, 0.28, r=0.03)
    _rect(d, s, 0.38, 0.06, 0.62, 0.2, r=0.03)
    _rect(d, s, 0.44, 0.1, 0.56, 0.2, fill=0)
    _poly(d, s, [(0.2, 0.32), (0.8, 0.32), (0.74, 0.94), (0.26, 0.94)])
    for x in (0.37, 0.5, 0.63):
        _rect(d, s, x - 0.03, 0.42, x + 0.03, 0.84, fill=0)


@_icon("draw")
def _draw_card(d: ImageDraw.ImageDraw, s: float) -> None:
    _rect(d, s, 0.16, 0.06, 0.74, 0.94, r=0.08)
    _rect(d, s, 0.22, 0.12, 0.68, 0.88, fill=0, r=0.05)
    _rect(d, s, 0.54, 0.44, 0.98, 0.56)
    _rect(d, s, 0.7, 0.28, 0.82, 0.72)


@_icon("champion")
def _champion(d: ImageDraw.ImageDraw, s: float) -> None:
    # helmeted head and shoulders
    _ell(d, s, 0.28, 0.06, 0.72, 0.5)
    _rect(d, s, 0.36, 0.24, 0.64, 0.32, fill=0)
    _poly(d, s, [(0.08, 0.96), (0.2, 0.58), (0.8, 0.58), (0.92, 0.96)])


@_icon("turn", "arrow")
def _turn(d: ImageDraw.ImageDraw, s: float) -> None:
    _poly(d, s, [(0.06, 0.36), (0.56, 0.36), (0.56, 0.12), (0.96, 0.5), (0.56, 0.88), (0.56, 0.64), (0.06, 0.64)])


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.28, 0.28), (0.72, 0.72)],
    3: [(0.28, 0.28), (0.5, 0.5), (0.72, 0.72)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.28, 0.28), (0.72, 0.28), (0.5, 0.5), (0.28, 0.72), (0.72, 0.72)],
    6: [(0.28, 0.26), (0.72, 0.26), (0.28, 0.5), (0.72, 0.5), (0.28, 0.74), (0.72, 0.74)],
}


def _die(pips: int) -> IconPainter:
    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        _rect(d, s, 0.06, 0.06, 0.94, 0.94, r=0.16)
        for x, y in _PIPS[pips]:
            _ell(d, s, x - 0.09, y - 0.09, x + 0.09, y + 0.09, fill=0)

    return paint


for _n in range(1, 7):
    _ICONS[f"d6-{_n}"] = _die(_n)


def _unknown(d: ImageDraw.ImageDraw, s: float) -> None:
    _ell(d, s, 0.06, 0.06, 0.94, 0.94)
    _ell(d, s, 0.16, 0.16, 0.84, 0.84, fill=0)
    d.arc([0.34 * s, 0.22 * s, 0.66 * s, 0.54 * s], start=180, end=90, fill=255, width=round(0.08 * s))
    _rect(d, s, 0.46, 0.52, 0.54, 0.64)
    _ell(d, s, 0.45, 0.7, 0.55, 0.8)


# ---------------------------------------------------------------- composite pieces


def pill(
    draw: ImageDraw.ImageDraw,
    box: Box,
    label: str,
    fill: Color,
    ink: Color | None = None,
    icon_name: str | None = None,
    size: int | None = None,
) -> None:
    """A rounded counter: optional icon then centred text, ink picked for contrast unless given."""
    ink = ink or ink_on(fill)
    draw.rounded_rectangle(box.rect, radius=box.h // 2, fill=fill)
    size = size or max(8, int(box.h * 0.62))
    inner = box.inset(max(2, box.h // 4), 0)
    if icon_name:
        ib, inner = inner.cut_left(int(box.h * 0.7), gap=max(2, box.h // 10))
        icon(draw, icon_name, ib.centered(ib.w, int(box.h * 0.7)), ink)
    x = inner.x + inner.w / 2
    text(draw, (x, box.y + box.h / 2), label, size, ink, anchor="mm", max_width=inner.w, bold=True)


def card_frame(
    draw: ImageDraw.ImageDraw,
    box: Box,
    accent: Color,
    title: str = "",
    *,
    fill: Color = PALETTE.panel_alt,
    header: int | None = None,
    title_size: int | None = None,
    glyph: str | None = None,
    radius: int | None = None,
) -> Box:
    """A card outline: rounded body, a header band in `accent` holding `title` (and a glyph on the
    left), returning the body box below the header for the caller to fill."""
    radius = radius if radius is not None else max(4, box.w // 16)
    header = header if header is not None else max(18, box.h // 6)
    draw.rounded_rectangle(box.rect, radius=radius, fill=fill, outline=accent, width=max(2, box.w // 70))
    band = Box(box.x, box.y, box.w, header)
    draw.rounded_rectangle(band.rect, radius=radius, fill=accent)
    draw.rectangle(Box(box.x, box.y + header // 2, box.w, header - header // 2).rect, fill=accent)
    ink = ink_on(accent)
    inner = band.inset(max(4, header // 5), max(2, header // 8))
    if glyph:
        gb, inner = inner.cut_left(inner.h, gap=max(3, header // 6))
        icon(draw, glyph, gb, ink)
    if title:
        size = title_size or max(9, int(header * 0.5))
        text(draw, (inner.x, inner.y + inner.h / 2), title, size, ink, anchor="lm", max_width=inner.w, bold=True)
    return Box(box.x, box.y + header, box.w, box.h - header)


# ---------------------------------------------------------------- rich lines: text mixed with icons


@dataclass(frozen=True)
class Glyph:
    """An icon inside a line of text (see `flow`), `scale` times the text size."""

    name: str
    color: Color
    scale: float = 1.25


Token = str | Glyph


def flow(
    draw: ImageDraw.ImageDraw | None,
    box: Box,
    tokens: Sequence[Token],
    size: int,
    fill: Color = PALETTE.ink,
    spacing: int = 2,
) -> int:
    """Lay out words and icons left to right, wrapping inside `box.w`; returns the height used.
    With `draw=None` it only measures. Text tokens break at spaces; a token "\\n" forces a new line."""
    items: list[Token] = []
    for tok in tokens:
        if isinstance(tok, Glyph) or tok == "\n":
            items.append(tok)
        else:
            words = tok.split(" ")
            for i, word in enumerate(words):
                if word:
                    items.append(word)
                if i < len(words) - 1:
                    items.append(" ")
    lh = max(line_height(size), round(size * 1.25))
    space = font(size).getlength(" ")
    x, y = 0.0, 0
    glue = False  # the previous item asked for a space before the next
    for item in items:
        if item == "\n":
            x, y, glue = 0.0, y + lh + spacing, False
            continue
        if item == " ":
            glue = True
            continue
        w = round(size * item.scale) if isinstance(item, Glyph) else text_width(item, size)
        gap = space if glue and x > 0 else (size * 0.12 if x > 0 else 0)
        if x > 0 and x + gap + w > box.w:
            x, y, gap = 0.0, y + lh + spacing, 0
        x += gap
        if draw is not None and y + lh <= box.h + spacing:
            if isinstance(item, Glyph):
                icon(draw, item.name, Box(round(box.x + x), round(box.y + y + (lh - w) / 2), w, w), item.color)
            else:
                text(draw, (box.x + x, box.y + y + lh / 2), item, size, fill, anchor="lm", max_width=box.w)
        x += w
        glue = False
    return y + lh if items else 0
