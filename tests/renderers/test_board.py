"""The board toolkit: deterministic images, a static cache that changes nothing, coordinates on every
edge, overlays that touch only their own cells and read without colour."""

from __future__ import annotations

import io
from typing import cast

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

import i18n
from renderers import board, kit
from renderers.board import (
    Arrow,
    HexGrid,
    Layers,
    LegendItem,
    Mark,
    Outline,
    Piece,
    Shade,
    SquareGrid,
    StaticSpec,
    Terrain,
)
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas, Color
from rules import coords
from tools import board_bench

BG = PALETTE.background
PLAIN = Terrain((0xD8, 0xD2, 0xB8))
FOREST = Terrain((0x2E, 0x6B, 0x3A), glyph="tree")


def _radius(n: int) -> frozenset[tuple[int, int]]:
    return frozenset((q, r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n)


def _square_spec(cols: int = 6, rows: int = 5, cell: int = 36) -> StaticSpec:
    grid = SquareGrid(cols, rows, cell=cell, x=8, y=8)
    return StaticSpec(grid, {(1, 1): FOREST, (3, 4): FOREST}, PLAIN, walls=(((0, 0), (0, 1)),))


def _hex_spec() -> StaticSpec:
    grid = HexGrid(_radius(2), size=32, x=6, y=6)
    return StaticSpec(grid, {(0, 0): FOREST, (1, -1): PLAIN}, Terrain((0x4B, 0x50, 0x60)))


def _pieces(active: int | None = None) -> tuple[Piece, ...]:
    return (
        Piece((0, 2), "AR", OKABE_ITO["orange"], badge="12/20", active=active == 0),
        Piece((2, 3), "GO", OKABE_ITO["vermillion"], "octagon", bar=0.4, active=active == 1),
        Piece((4, 5), "K", OKABE_ITO["blue"], "square", faded=True, active=active == 2),
    )


def _hex_pieces(active: int | None = None) -> tuple[Piece, ...]:
    return (Piece((0, 0), "AL", OKABE_ITO["blue"], badge="2/4", active=active == 0),
            Piece((1, 1), "DM", OKABE_ITO["vermillion"], "octagon", active=active == 1))


def _changed(a: Image.Image, b: Image.Image) -> Image.Image:
    """An L mask: 255 where the two images differ."""
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L").point(lambda v: 255 if v else 0)


def _cells_mask(grid: SquareGrid | HexGrid, cells: set[tuple[int, int]], size: tuple[int, int]) -> Image.Image:
    """An L mask covering exactly the given cells (hexes by their outline, squares by their box)."""
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    for cell in cells:
        if isinstance(grid, HexGrid):
            d.polygon(grid.outline(cell), fill=255, outline=255)
        else:
            d.rectangle(grid.cell_box(cell).rect, fill=255)
    return mask


def _only_inside(changed: Image.Image, allowed: Image.Image) -> bool:
    return ImageChops.subtract(changed, allowed).getbbox() is None


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    board.clear_cache()


# ---------------------------------------------------------------- determinism and caching


@pytest.mark.parametrize("name", sorted(board_bench.SAMPLES))
def test_same_input_gives_identical_bytes(name: str) -> None:
    spec, layers = board_bench.SAMPLES[name](3)
    first = board.render_png(spec, layers)
    again_spec, again_layers = board_bench.SAMPLES[name](3)  # rebuilt, equal but not the same objects
    assert board.render_png(again_spec, again_layers) == first
    assert first.startswith(b"\x89PNG")


@pytest.mark.parametrize("name", sorted(board_bench.SAMPLES))
def test_cold_and_warm_caches_give_identical_pixels(name: str) -> None:
    spec, layers = board_bench.SAMPLES[name](5)
    warm_before = board.render(spec, layers).image  # fills the caches
    warm = board.render(spec, layers).image
    board.clear_cache()
    kit.clear_caches()
    cold = board.render(spec, layers).image
    assert ImageChops.difference(warm, cold).getbbox() is None
    assert ImageChops.difference(warm_before, warm).getbbox() is None


def test_the_static_layer_is_drawn_once_and_never_drawn_on() -> None:
    spec = _square_spec()
    layer = board.static_image(spec)
    pristine = layer.copy()
    board.render(spec, Layers(pieces=_pieces(0), reach=((3, 3),), arrows=(Arrow(((0, 0), (4, 5))),)))
    assert board.static_image(_square_spec()) is layer  # an equal spec is a cache hit
    assert ImageChops.difference(layer, pristine).getbbox() is None


def test_a_mapping_or_a_tuple_in_any_order_is_one_cache_key() -> None:
    grid = SquareGrid(4, 4)
    a = StaticSpec(grid, {(1, 1): FOREST, (0, 0): PLAIN})
    b = StaticSpec(grid, (((0, 0), PLAIN), ((1, 1), FOREST)))
    assert a == b and hash(a) == hash(b)
    assert board.static_image(a) is board.static_image(b)
    assert StaticSpec(grid, {(1, 1): FOREST}) != a


def test_the_static_cache_is_bounded() -> None:
    for n in range(board.STATIC_CACHE_SIZE + 5):
        board.static_image(StaticSpec(SquareGrid(2 + n, 2, cell=10)))
    assert board._static.cache_info().currsize == board.STATIC_CACHE_SIZE


def test_terrain_off_the_board_and_layers_off_the_board_are_refused() -> None:
    with pytest.raises(ValueError):
        StaticSpec(SquareGrid(3, 3), {(3, 0): FOREST})
    spec = _square_spec()
    for layers in (Layers(reach=((9, 9),)), Layers(pieces=(Piece((-1, 0), "X", PALETTE.ok),)),
                   Layers(arrows=(Arrow(((0, 0), (0, 99))),))):
        with pytest.raises(ValueError):
            board.render(spec, layers)
    with pytest.raises(ValueError):
        Piece((0, 0), "X", PALETTE.ok, shape="star")


# ---------------------------------------------------------------- coordinates


def _ink_box(img: Image.Image, box: Box, bg: tuple[int, int, int]) -> tuple[int, int, int, int] | None:
    """Bounding box (relative to `box`) of the pixels that are not `bg`."""
    crop = img.crop((box.x, box.y, box.x2, box.y2))
    return ImageChops.difference(crop, Image.new("RGB", crop.size, bg)).getbbox()


def test_coordinates_are_printed_on_all_four_edges() -> None:
    grid = SquareGrid(4, 3, cell=30, x=0, y=0)
    img = board.render(StaticSpec(grid, default=PLAIN)).image
    f, band = grid.field, grid.band
    # the bands, less the pixel of the frame line around the squares
    tops = [Box(f.x + c * 30, 0, 30, band - 1) for c in range(4)]
    bottoms = [Box(f.x + c * 30, f.y2 + 1, 30, band - 1) for c in range(4)]
    lefts = [Box(0, f.y + r * 30, band - 1, 30) for r in range(3)]
    rights = [Box(f.x2 + 1, f.y + r * 30, band - 1, 30) for r in range(3)]
    for region in (*tops, *bottoms, *lefts, *rights):
        assert _ink_box(img, region, BG) is not None, f"no label drawn in {region}"

    def ink(box: Box) -> bytes:
        return img.crop((box.x, box.y, box.x + box.w, box.y + band - 2)).tobytes()

    # the same label on opposite edges, a different one for every column and row
    for top, bottom in zip(tops, bottoms, strict=True):
        assert ink(top) == ink(bottom), "top and bottom column labels differ"
    assert len({ink(b) for b in tops}) == 4
    assert len({img.crop((b.x, b.y, b.x2, b.y2)).tobytes() for b in lefts}) == 3
    for left, right in zip(lefts, rights, strict=True):
        a = img.crop((left.x, left.y, left.x2, left.y2))
        b = img.crop((right.x, right.y, right.x + left.w, right.y2))
        assert ImageChops.difference(a, b).getbbox() is None, "left and right row labels differ"
    # the corners of the frame hold no label
    for corner in (Box(0, 0, band - 1, band - 1), Box(f.x2 + 1, f.y2 + 1, band - 1, band - 1)):
        assert _ink_box(img, corner, BG) is None


def test_thirty_columns_end_at_AD_and_labels_stay_inside_their_column() -> None:
    grid = SquareGrid(30, 30, cell=36)
    img = board.static_image(StaticSpec(grid, default=PLAIN))
    f = grid.field
    assert coords.column_name(29) == "AD" and grid.name((29, 29)) == "AD30"
    for c in range(30):
        for y0 in (0, f.y2 + 1):
            region = Box(f.x + c * 36, y0, 36, grid.band - 1)
            bbox = _ink_box(img, region, BG)
            assert bbox is not None, c
            assert bbox[0] > 0 and bbox[2] < 36, f"label of column {coords.column_name(c)} runs into its neighbour"
    for r in range(30):
        bbox = _ink_box(img, Box(0, f.y + r * 36, grid.band - 1, 36), BG)
        assert bbox is not None and bbox[1] > 0 and bbox[3] < 36, r


def test_every_hex_carries_its_own_label() -> None:
    spec = _hex_spec()
    grid = spec.grid
    assert isinstance(grid, HexGrid)
    img = board.static_image(spec)
    crops = set()
    fills = spec.terrain()
    for cell in grid.cells():
        cx = grid.center(cell)[0]
        y = round(grid.label_y(cell))
        region = Box(cx - 14, y - 8, 28, 16)
        assert _ink_box(img, region, fills.get(cell, spec.default).fill) is not None, cell
        crops.add(img.crop((region.x, region.y, region.x2, region.y2)).tobytes())
        assert grid.parse(grid.name(cell)) == cell
    assert len(crops) == len(grid.cells()), "two hexes show the same label"


def test_the_grid_names_cells_with_the_codec_commands_use() -> None:
    sq = SquareGrid(16, 16)
    assert sq.name((10, 7)) == coords.name(10, 7) == "H11"
    assert sq.parse("h-11") == (10, 7) and sq.parse("Q1") is None
    hx = HexGrid(_radius(3))
    assert all(hx.name(h) == coords.HexCodec(_radius(3)).name(*h) for h in hx.cells())


def test_neighbouring_hexes_share_their_side() -> None:
    grid = HexGrid(_radius(3), size=29)
    for cell in grid.cells():
        for across, p, q in grid.sides(cell):
            if across not in grid.hexes:
                continue
            back = {tuple(pt) for a, *pts in grid.sides(across) if a == cell for pt in pts}
            for pt in (p, q):
                assert min(abs(pt[0] - b[0]) + abs(pt[1] - b[1]) for b in back) <= 2, (cell, across)


# ---------------------------------------------------------------- overlays


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_reach_changes_only_the_reachable_cells_and_reads_without_colour(kind: str) -> None:
    spec = _square_spec() if kind == "square" else _hex_spec()
    pieces = _pieces() if kind == "square" else _hex_pieces()
    reach = {(1, 2), (3, 3), (4, 0)} if kind == "square" else {(-1, 0), (0, 1), (2, -2)}
    base = board.render(spec, Layers(pieces=pieces)).image
    shown = board.render(spec, Layers(pieces=pieces, reach=tuple(reach))).image
    changed = _changed(base, shown)
    assert _only_inside(changed, _cells_mask(spec.grid, reach, base.size))
    grey_base, grey_shown = base.convert("L"), shown.convert("L")
    for cell in reach:
        box = spec.grid.cell_box(cell)
        assert changed.crop(box.rect).getbbox() is not None, cell
        assert ImageChops.difference(grey_base.crop(box.rect), grey_shown.crop(box.rect)).getbbox() is not None
        cx, cy = spec.grid.token_box(cell).center
        assert grey_shown.getpixel((cx, cy)) > 200, "the reach dot is white"  # type: ignore[operator]
        side = (round(cx - spec.grid.cell_px * 0.35), cy)  # away from the dot: the tint
        before, after = cast(Color, base.getpixel(side)), cast(Color, shown.getpixel(side))
        expected = kit.mix(before, board.REACH, 0.38)
        assert before != after and all(abs(a - e) <= 1 for a, e in zip(after, expected, strict=True)), after


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_the_acting_piece_changes_only_its_cell_and_reads_in_greyscale(kind: str) -> None:
    spec = _square_spec() if kind == "square" else _hex_spec()
    make = _pieces if kind == "square" else _hex_pieces
    for index in range(len(make())):
        base = board.render(spec, Layers(pieces=make())).image
        shown = board.render(spec, Layers(pieces=make(index))).image
        cell = make()[index].cell
        changed = _changed(base, shown)
        assert _only_inside(changed, _cells_mask(spec.grid, {cell}, base.size))
        # a frame along the cell's edge: the change reaches all four sides of the cell's box
        box = spec.grid.cell_box(cell)
        bbox = changed.getbbox()
        assert bbox is not None
        tol = max(2, round(box.w * 0.06))  # a hex's pointed ends leave the frame a few pixels short
        assert abs(bbox[0] - box.x) <= tol and abs(bbox[2] - box.x2) <= tol
        assert abs(bbox[1] - box.y) <= tol and abs(bbox[3] - box.y2) <= tol
        grey = ImageChops.difference(base.convert("L"), shown.convert("L"))
        assert sum(grey.point(lambda v: 255 if v > 40 else 0).histogram()[255:]) > box.w * 2


def test_shades_outlines_marks_and_arrows_stay_where_they_are_put() -> None:
    spec = _square_spec()
    base = board.render(spec).image
    zone = {(0, 0), (0, 1), (1, 0)}
    for layers, cells in (
        (Layers(shades=(Shade(tuple(zone), hatch=True),)), zone),
        (Layers(marks=(Mark((2, 2), "chest"), Mark((4, 4), "cross", PALETTE.ok, corner=True))), {(2, 2), (4, 4)}),
        (Layers(outlines=(Outline(tuple(zone), width=2),)), zone),
    ):
        changed = _changed(base, board.render(spec, layers).image)
        assert changed.getbbox() is not None
        allowed = _cells_mask(spec.grid, cells, base.size)
        if layers.outlines:  # a line on the border spills a pixel or two into the cells outside it
            allowed = allowed.filter(ImageFilter.MaxFilter(5))
        assert _only_inside(changed, allowed)
    path = ((0, 0), (0, 3), (3, 3))
    changed = _changed(base, board.render(spec, Layers(arrows=(Arrow(path, label="-5"),))).image)
    bbox = changed.getbbox()
    a, b = spec.grid.cell_box((0, 0)), spec.grid.cell_box((3, 3))
    assert bbox is not None and bbox[0] >= a.x and bbox[1] >= a.y - 2 and bbox[2] <= b.x2 and bbox[3] <= b.y2


def test_an_arrow_ending_on_a_piece_leaves_the_piece_visible() -> None:
    spec = _square_spec()
    target = Piece((2, 3), "GO", OKABE_ITO["vermillion"], "octagon")
    with_piece = board.render(spec, Layers(pieces=(target,))).image
    with_arrow = board.render(spec, Layers(pieces=(target,), arrows=(Arrow(((2, 0), (2, 3)),),))).image
    token = spec.grid.token_box((2, 3))
    assert ImageChops.difference(with_piece.crop(token.rect), with_arrow.crop(token.rect)).getbbox() is None


# ---------------------------------------------------------------- budget and legend


def test_a_30_by_30_board_with_10_pieces_fits_discord() -> None:
    spec, layers = board_bench.gorgasali(1)
    assert len(layers.pieces) == 10
    png = board.render_png(spec, layers)
    img = Image.open(io.BytesIO(png))
    assert 1000 <= img.width <= 1300 and 1000 <= img.height <= 1300
    assert len(png) < 1_000_000


def test_legend_uses_the_callers_words_in_both_languages() -> None:
    es = board.marks_legend("es")
    en = board.marks_legend("en")
    assert [i.label for i in es] == [i18n.tk("render.board.active", "es"), i18n.tk("render.board.reach", "es")]
    assert [i.label for i in es] != [i.label for i in en]
    items = [*es, LegendItem("Bosque", FOREST), LegendItem("Árbol", Piece((0, 0), "ÁÑ", PALETTE.ok)),
             LegendItem("Zona", Shade((), hatch=True)), LegendItem("Cofre", Mark((0, 0), "chest")),
             LegendItem("Último movimiento", Arrow(()))]
    c = Canvas(420, 200, BG)
    area = Box(10, 10, 400, 180)
    height = board.legend(c, area, items, size=14)
    assert 0 < height <= area.h
    ink = ImageChops.difference(c.image, Image.new("RGB", c.image.size, BG)).getbbox()
    assert ink is not None and ink[0] >= area.x and ink[1] >= area.y and ink[2] <= area.x2 and ink[3] <= area.y + height
    with pytest.raises(ValueError):
        board.swatch(c, Box(0, 0, 20, 20), "sparkles")


@pytest.mark.parametrize("name", board.glyph_names())
def test_every_glyph_draws_inside_its_box(name: str) -> None:
    c = Canvas(60, 60, (0, 0, 0))
    board.glyph(c.draw, name, Box(10, 10, 40, 40), (255, 255, 255))
    bbox = c.image.getbbox()
    assert bbox is not None and bbox[0] >= 10 and bbox[1] >= 10 and bbox[2] <= 50 and bbox[3] <= 50
