"""Tests for the shared renderer toolkit: PNG output, icons, palette, text layout and accented glyphs."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from renderers import kit, render_for
from renderers.kit import PALETTE, Box, Canvas

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _ink(s: str, size: int = 40) -> Image.Image:
    """`s` drawn white on black through the kit, as a grayscale image."""
    c = Canvas(size * max(2, len(s)), size * 2, (0, 0, 0))
    kit.text(c.draw, (size // 2, size // 2), s, size, (255, 255, 255))
    return c.image.convert("L")


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def test_png_bytes_are_valid_and_reopen() -> None:
    c = Canvas(120, 80, PALETTE.panel)
    kit.text(c.draw, (10, 10), "Hola", 20)
    for colors in (256, None):
        data = c.png(colors=colors)
        assert data.startswith(PNG_SIGNATURE)
        img = Image.open(io.BytesIO(data))
        img.verify()
        assert Image.open(io.BytesIO(data)).size == (120, 80)


def test_png_is_deterministic() -> None:
    def build() -> bytes:
        c = Canvas(200, 100)
        kit.icon(c.draw, "heart", Box(10, 10, 40, 40), PALETTE.health)
        kit.text(c.draw, (60, 20), "¿Sí?", 24)
        return c.png()

    assert build() == build()


@pytest.mark.parametrize("name", kit.icon_names())
def test_every_icon_draws_inside_its_box(name: str) -> None:
    c = Canvas(100, 100, (0, 0, 0))
    box = Box(20, 30, 50, 40)
    kit.icon(c.draw, name, box, (255, 255, 255))
    bbox = c.image.convert("L").point(lambda v: 255 if v > 40 else 0).getbbox()
    assert bbox is not None, f"{name} drew nothing"
    x0, y0, x1, y1 = bbox
    assert box.x <= x0 and box.y <= y0 and x1 <= box.x2 and y1 <= box.y2
    ink = sum(c.image.convert("L").histogram()[41:])
    assert ink > 0.08 * box.square().w ** 2, f"{name} is almost empty"


CANONICAL_ICONS = ["heart", "coin", "sword", "shield", "skull", "deck", "discard", "hand", "gem", "crown",
                   "star", "expend", "sacrifice", "draw", "champion", "arrow", "diamond", "claw", "ring",
                   *(f"d6-{n}" for n in range(1, 7))]


def test_icons_are_distinct_from_each_other() -> None:
    def pixels(name: str) -> bytes:
        c = Canvas(48, 48, (0, 0, 0))
        kit.icon(c.draw, name, Box(0, 0, 48, 48), (255, 255, 255))
        return c.image.tobytes()

    assert len({pixels(name) for name in CANONICAL_ICONS}) == len(CANONICAL_ICONS)


def test_required_icons_exist() -> None:
    required = {"heart", "coin", "sword", "shield", "skull", "deck", "discard", "hand", "gem", "crown",
                "star", "expend", "sacrifice", *(f"d6-{n}" for n in range(1, 7))}
    assert required <= set(kit.icon_names())


def test_okabe_ito_palette_is_distinct_and_exact() -> None:
    assert len(set(kit.OKABE_ITO.values())) == 8
    assert kit.OKABE_ITO["vermillion"] == (0xD5, 0x5E, 0x00)
    assert kit.OKABE_ITO["sky_blue"] == (0x56, 0xB4, 0xE9)


def test_factions_have_distinct_colours_and_glyphs() -> None:
    colours = [PALETTE.faction(f) for f in kit.FACTIONS]
    glyphs = [kit.faction_glyph(f) for f in kit.FACTIONS]
    assert len(set(colours)) == len(kit.FACTIONS)
    assert len(set(glyphs)) == len(kit.FACTIONS)
    assert all(g in kit.icon_names() for g in glyphs)
    # Okabe–Ito hues for the four real factions
    assert all(PALETTE.faction(f) in kit.OKABE_ITO.values() for f in ("guild", "imperial", "necros", "wild"))
    assert PALETTE.faction("Imperial") == PALETTE.imperial
    assert PALETTE.faction(None) == PALETTE.faction("unknown") == PALETTE.neutral


def test_semantic_colours_are_distinct() -> None:
    semantic = [PALETTE.danger, PALETTE.ok, PALETTE.info, PALETTE.warn, PALETTE.highlight]
    assert len(set(semantic)) == len(semantic)
    for a, b in itertools.combinations([PALETTE.background, PALETTE.panel, PALETTE.ink, PALETTE.muted], 2):
        assert a != b


def test_ink_on_contrasts() -> None:
    assert kit.ink_on(kit.OKABE_ITO["yellow"]) == PALETTE.dark_ink
    assert kit.ink_on(PALETTE.background) == PALETTE.ink


def test_wrap_fits_width_and_keeps_words() -> None:
    s = "Gana 3 de combate. Si tienes un aliado del Gremio, roba una carta y gana 2 de oro."
    lines = kit.wrap(s, 16, 140)
    assert len(lines) > 1
    assert all(kit.text_width(line, 16) <= 140 for line in lines)
    assert " ".join(lines).split() == s.split()


def test_wrap_breaks_overlong_words_and_keeps_newlines() -> None:
    lines = kit.wrap("a\n" + "x" * 80, 14, 60)
    assert lines[0] == "a"
    assert all(kit.text_width(line, 14) <= 60 for line in lines)
    assert "".join(lines[1:]) == "x" * 80


def test_ellipsis_truncates_to_width() -> None:
    long = "Arkus, Dragón Imperial de las Montañas"
    short = kit.ellipsize(long, 18, 120)
    assert short.endswith("…")
    assert kit.text_width(short, 18) <= 120
    assert kit.ellipsize("Arkus", 18, 120) == "Arkus"
    c = Canvas(300, 60, (0, 0, 0))
    width = kit.text(c.draw, (10, 10), long, 18, (255, 255, 255), max_width=120)
    assert width <= 120
    bbox = c.image.getbbox()
    assert bbox is not None and bbox[2] <= 10 + 120 + 1


def test_anchors_place_text() -> None:
    c = Canvas(300, 60, (0, 0, 0))
    kit.text(c.draw, (290, 30), "fin", 20, (255, 255, 255), anchor="rm")
    bbox = c.image.getbbox()
    assert bbox is not None and 250 < bbox[2] <= 291


def test_accented_glyphs_render() -> None:
    sample = "Años, ¿Niño? ¡Sí! Ñandú"
    missing = _ink("\u0378")
    for ch in "ñÑáéíóúü¿¡":
        drawn = _ink(ch)
        assert drawn.getbbox() is not None
        assert not _same(drawn, missing), f"{ch!r} drew the missing-glyph box"
    # accented letters differ from their bare letters, and carry ink above them
    for accented, bare in (("ñ", "n"), ("Ñ", "N"), ("í", "i"), ("ú", "u"), ("á", "a")):
        a, b = _ink(accented), _ink(bare)
        assert not _same(a, b), accented
        inked, bare_inked = a.getbbox(), b.getbbox()
        assert inked is not None and bare_inked is not None
        assert inked[1] < bare_inked[1], f"{accented} has no mark above"
    # inverted punctuation is not the upright one
    assert not _same(_ink("¿"), _ink("?"))
    assert not _same(_ink("¡"), _ink("!"))
    # and the whole sample draws as wide as it measures, with no box in it
    img = _ink(sample, 24)
    assert img.getbbox() is not None
    assert kit.text_width(sample, 24) == kit.text_width("Anos, ?Nino? !Si! Nandu", 24)


def test_paragraph_respects_box() -> None:
    c = Canvas(200, 200, (0, 0, 0))
    box = Box(10, 10, 120, 50)
    used = kit.paragraph(c.draw, box, "uno dos tres cuatro cinco seis siete ocho nueve diez once doce", 14,
                         (255, 255, 255))
    assert 0 < used <= box.h
    bbox = c.image.getbbox()
    assert bbox is not None and bbox[2] <= box.x2 + 1 and bbox[3] <= box.y2 + 4


def test_box_helpers() -> None:
    b = Box(10, 20, 100, 50)
    assert b.inset(5) == Box(15, 25, 90, 40)
    assert b.center == (60, 45)
    cols = b.split_h(3, gap=5)
    assert len(cols) == 3 and cols[0].x == 10 and cols[-1].x2 == 110
    assert all(c.y == 20 and c.h == 50 for c in cols)
    assert cols[1].x - cols[0].x2 == 5
    rows = Box(0, 0, 10, 40).split_v([1, 3])
    assert rows == [Box(0, 0, 10, 10), Box(0, 10, 10, 30)]
    assert sum(r.h for r in b.split_v([1, 3])) == b.h
    top, rest = b.cut_top(10, gap=2)
    assert top == Box(10, 20, 100, 10) and rest == Box(10, 32, 100, 38)
    assert b.square() == Box(35, 20, 50, 50)


def test_grid() -> None:
    cells = kit.grid(5, 5, 3, 2, 10, 20, gap=4)
    assert len(cells) == 6
    assert cells[0] == Box(5, 5, 10, 20)
    assert cells[2] == Box(33, 5, 10, 20)
    assert cells[3] == Box(5, 29, 10, 20)


def test_pill_and_card_frame_draw() -> None:
    c = Canvas(300, 200, (0, 0, 0))
    kit.pill(c.draw, Box(10, 10, 80, 30), "12", PALETTE.gold, icon_name="coin")
    body = kit.card_frame(c.draw, Box(100, 10, 150, 180), PALETTE.guild, "Gremio", glyph="guild")
    assert body.y > 10 and body.y2 == 190
    assert c.image.getpixel((50, 25)) != (0, 0, 0)
    assert c.image.getpixel((175, 15)) == PALETTE.guild or c.image.getpixel((240, 15)) == PALETTE.guild


def test_canvas_paste_rotated() -> None:
    big, small = Canvas(100, 100, (0, 0, 0)), Canvas(40, 20, (255, 0, 0))
    big.paste(small, (10, 10), rotate=90)
    assert big.image.getpixel((15, 45)) == (255, 0, 0)
    assert big.image.getpixel((45, 15)) == (0, 0, 0)


def test_render_for_unknown_game_is_none() -> None:
    assert render_for("no-such-game", {}, "es") is None


def test_drawing_on_plain_pillow_draw_works() -> None:
    img = Image.new("RGB", (50, 50))
    kit.icon(ImageDraw.Draw(img), "star", Box(0, 0, 50, 50), (255, 255, 0))
    assert img.getbbox() is not None


@pytest.mark.parametrize("anchor", ["la", "lm", "ls", "ld"])
@pytest.mark.parametrize("xy", [(10, 10), (10.5, 20.25), (33.7, 9.984375), (-2.5, 15.5)])
def test_cached_text_runs_match_pillow_exactly(anchor: str, xy: tuple[float, float]) -> None:
    def draw(cached: bool) -> bytes:
        c = Canvas(320, 60, PALETTE.panel)
        for _ in range(2):  # the second pass draws from a warm cache
            if cached:
                kit._draw_run(c.draw, xy, "Gana 3 de oro", 22, PALETTE.gold, anchor)
            else:
                c.draw.text(xy, "Gana 3 de oro", font=kit.font(22), fill=PALETTE.gold, anchor=anchor)
        return c.image.tobytes()

    kit.clear_caches()
    assert draw(cached=True) == draw(cached=False)


def test_caches_do_not_change_what_is_drawn() -> None:
    def build() -> bytes:
        c = Canvas(400, 120)
        kit.text(c.draw, (10.5, 10), "¿Dragón? ¡Sí! Ñandú, camión", 20, bold=True)
        kit.paragraph(c.draw, Box(10, 40, 180, 60), "Gana 3 de combate y roba una carta más", 14)
        kit.pill(c.draw, Box(220, 40, 90, 30), "12", PALETTE.gold, icon_name="coin")
        kit.icon(c.draw, "no-such-icon", Box(330, 40, 40, 40), PALETTE.ink)
        return c.png()

    kit.clear_caches()
    cold = build()
    assert build() == cold
    kit.clear_caches()
    assert build() == cold


def test_wrap_result_can_be_changed_by_the_caller() -> None:
    lines = kit.wrap("uno dos tres cuatro", 14, 40)
    lines.clear()
    assert kit.wrap("uno dos tres cuatro", 14, 40)
