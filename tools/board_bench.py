"""Board toolkit speed and size: `python -m tools.board_bench [--runs N] [--save DIR]` prints one JSON object."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import ImageDraw

from renderers import board, kit
from renderers.board import Arrow, Block, HexGrid, Layers, Mark, Outline, Piece, Shade, SquareGrid, StaticSpec, Terrain
from renderers.kit import OKABE_ITO, PALETTE, Box, Canvas
from tools.bench import percentile

Sample = Callable[[int], tuple[StaticSpec, Layers]]

PLAIN = Terrain((0xD8, 0xD2, 0xB8))
FOREST = Terrain((0x2E, 0x6B, 0x3A), glyph="tree")
MOUNTAIN = Terrain((0x8A, 0x7A, 0x66), glyph="mountain")
WATER = Terrain((0x3A, 0x78, 0xB5), glyph="waves")
PATH = Terrain((0xC9, 0xA8, 0x72))
CORRIDOR = Terrain((0xB4, 0xB7, 0xBE))
ROOM = Terrain((0xD9, 0xC7, 0xA3))
ALLY, MONSTER = OKABE_ITO["blue"], OKABE_ITO["vermillion"]
FIGURE_COLORS = [OKABE_ITO[k] for k in ("orange", "sky_blue", "bluish_green", "yellow", "blue", "vermillion",
                                        "reddish_purple")]
FIGURE_COLORS += [(0xF3, 0xF3, 0xF3), (0x8A, 0x5A, 0x2B), (0x7F, 0x7F, 0x7F)]


def _blob(rng: random.Random, cols: int, rows: int, n: int) -> set[tuple[int, int]]:
    r, c = rng.randrange(rows), rng.randrange(cols)
    out = set()
    for _ in range(n):
        out.add((r, c))
        r = min(rows - 1, max(0, r + rng.choice((-1, 0, 1))))
        c = min(cols - 1, max(0, c + rng.choice((-1, 0, 1))))
    return out


def gorgasali(turn: int) -> tuple[StaticSpec, Layers]:
    """30×30 with terrain, the Great Tree, a closing zone, 10 figures, reach and last-turn arrows."""
    rng = random.Random(7)
    cells: dict[tuple[int, int], Terrain] = {}
    for kind, blobs, size in ((FOREST, 14, 18), (MOUNTAIN, 8, 10), (WATER, 6, 16)):
        for _ in range(blobs):
            for sq in _blob(rng, 30, 30, size):
                cells[sq] = kind
    tree = tuple((r, c) for r in range(13, 17) for c in range(13, 17))
    for sq in tree:
        cells.pop(sq, None)
    grid = SquareGrid(30, 30, cell=36, x=12, y=12)
    spec = StaticSpec(grid, cells, PLAIN, blocks=(Block(tree, (0x1F, 0x4D, 0x2A), "Gran Árbol", "tree"),))
    free = [sq for sq in grid.cells() if sq not in cells and sq not in tree]
    turn_rng = random.Random(turn)
    spots = turn_rng.sample(free, 10 + 12)
    tags = ["AR", "EB", "VA", "ME", "TS", "OC", "KR", "TH", "DR", "EM"]
    pieces = tuple(Piece(spots[i], tags[i], FIGURE_COLORS[i], bar=(100 - 7 * i) / 100, active=i == turn % 10)
                   for i in range(10))
    mover = pieces[turn % 10].cell
    reach = tuple(sq for sq in free if max(abs(sq[0] - mover[0]), abs(sq[1] - mover[1])) <= 3 and sq != mover)
    zone = tuple(sq for sq in grid.cells() if min(sq[0], sq[1], 29 - sq[0], 29 - sq[1]) < 3)
    active_area = tuple(sq for sq in grid.cells() if sq not in zone)
    trail = (spots[12], (spots[12][0], mover[1]), mover) if spots[12] != mover else (mover,)
    layers = Layers(
        shades=(Shade(zone, hatch=True),),
        outlines=(Outline(active_area, PALETTE.warn, width=3, dashed=True),),
        reach=reach,
        marks=tuple(Mark(sq, "chest", (0x6E, 0x45, 0x22)) for sq in spots[13:19])
        + tuple(Mark(sq, "cross", PALETTE.ok) for sq in spots[19:22]),
        pieces=pieces,
        arrows=(Arrow(trail, PALETTE.ink), Arrow((pieces[1].cell, pieces[2].cell), PALETTE.danger, label="-24")),
    )
    return spec, layers


def kings_armory(turn: int) -> tuple[StaticSpec, Layers]:
    """16×16 at 46 px: two path lanes, towers, allies and monsters with HP badges."""
    grid = SquareGrid(16, 16, cell=46, x=10, y=10)
    cells = {}
    for r in range(16):
        cells[(r, 5 + (r // 4) % 2)] = PATH
        cells[(r, 10 - (r // 4) % 2)] = PATH
    towers = (Block(((2, 1), (3, 2)), (0x5E, 0x6A, 0x7A), "Torre"), Block(((8, 12), (9, 13)), (0x5E, 0x6A, 0x7A),
                                                                           "Torre"))
    spec = StaticSpec(grid, cells, PLAIN, blocks=towers)
    pieces = [Piece((12, 3), "H", ALLY, badge="12/20", active=turn % 2 == 0),
              Piece((12, 8), "C2", ALLY, badge="8/10", active=turn % 2 == 1),
              Piece((4, 5), "GB", OKABE_ITO["yellow"], "square", badge="5/5"),
              Piece((6, 6), "OR", OKABE_ITO["bluish_green"], "square", badge="11/14"),
              Piece((7, 10), "TR", OKABE_ITO["reddish_purple"], "square", badge="20/24"),
              Piece((1, 9), "BS", MONSTER, "square", badge="60/60"),
              Piece((14, 14), "K", ALLY, badge="0/18", faded=True)]
    active = next(p for p in pieces if p.active).cell
    reach = tuple(sq for sq in grid.cells() if 0 < abs(sq[0] - active[0]) + abs(sq[1] - active[1]) <= 3)
    layers = Layers(reach=reach, pieces=tuple(pieces),
                    arrows=(Arrow(((0, 5), (1, 5), (2, 5), (3, 5), (4, 5)), OKABE_ITO["vermillion"]),
                            Arrow(((12, 3), (6, 6)), PALETTE.highlight, label="-3")))
    return spec, layers


def heroquest_size(turn: int) -> tuple[StaticSpec, Layers]:
    """26×19 at 36 px, HeroQuest's board size: rooms with walls, corridors, heroes and monsters."""
    grid = SquareGrid(26, 19, cell=36, x=10, y=10)
    cells: dict[tuple[int, int], Terrain] = {}
    walls = []
    rooms = [(1, 1, 4, 3), (1, 5, 4, 3), (1, 14, 4, 4), (7, 10, 5, 6), (13, 1, 5, 4), (13, 18, 5, 6)]
    for r0, c0, h, w in rooms:
        room = {(r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w)}
        for sq in room:
            cells[sq] = ROOM
            r, c = sq
            for other in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if other not in room and grid.contains(other):
                    walls.append((sq, other))
    spec = StaticSpec(grid, cells, CORRIDOR, walls=tuple(sorted(walls)))
    pieces = (Piece((9, 12), "BA", ALLY, active=True), Piece((10, 12), "EN", ALLY), Piece((9, 13), "EL", ALLY),
              Piece((10, 13), "MA", ALLY), Piece((8, 14), "OR", MONSTER, "octagon", badge="1"),
              Piece((2, 2), "GO", MONSTER, "octagon"))
    reach = tuple(sq for sq in grid.cells() if sq in cells and 0 < abs(sq[0] - 9) + abs(sq[1] - 12) <= 4
                  and sq not in {p.cell for p in pieces})
    return spec, Layers(reach=reach, pieces=pieces, arrows=(Arrow(((0, 9), (0, 12), (6, 12), (9, 12))),))


def _radius(n: int) -> set[tuple[int, int]]:
    return {(q, r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n}


HOMES = {(-4, 2), (2, -4), (2, 2)}
AREA = {(-3, 4), (-2, 4), (-1, 4), (-3, 5), (-2, 5), (-3, 6)}


def hex_map(turn: int) -> tuple[StaticSpec, Layers]:
    """A small La Guerra de Indagar map: a radius-3 hexagon, three monster homes, one start area."""
    hexes = frozenset(_radius(3) | HOMES | AREA)
    grid = HexGrid(hexes, size=38, x=10, y=10)
    back = Terrain((0x4B, 0x50, 0x60))
    cells = {h: back for h in hexes}
    cells.update({(0, 0): Terrain(OKABE_ITO["reddish_purple"], "star"),
                  (-3, 5): Terrain((0xC9, 0xA2, 0x27), "coin"), (-2, 5): FOREST, (-3, 6): MOUNTAIN,
                  (1, -1): WATER, (-1, 1): PLAIN})
    for h in HOMES:
        cells[h] = Terrain((0x7A, 0x2E, 0x1E), "skull")
    spec = StaticSpec(grid, cells, back)
    pieces = (Piece((-2, 4), "AL", ALLY, active=True, badge="2/4"), Piece((-1, 4), "BO", ALLY, "diamond"),
              Piece((2, 2), "DM", MONSTER, "octagon", badge="6/6"))
    reach = ((-3, 3), (-2, 3), (-1, 3), (0, 3), (-3, 4), (-1, 4))
    return spec, Layers(reach=tuple(h for h in reach if h in hexes and h != (-1, 4)), pieces=pieces,
                        arrows=(Arrow(((-2, 5), (-2, 4)), PALETTE.ink),),
                        outlines=(Outline(tuple(AREA | {(-1, 4)}), PALETTE.ok, width=3),))


SAMPLES: dict[str, Sample] = {"gorgasali_30x30": gorgasali, "kings_armory_16x16": kings_armory,
                              "heroquest_26x19": heroquest_size, "hex_radius3": hex_map}


def with_legend(spec: StaticSpec, layers: Layers, lang: str) -> Canvas:
    """A sample board with a legend strip under it (what a game's renderer would add)."""
    canvas = board.render(spec, layers)
    w, h = canvas.image.size
    out = Canvas(w, h + 210)
    out.image.paste(canvas.image, (0, 0))
    items = [board.LegendItem("Bosque" if lang == "es" else "Forest", FOREST),
             board.LegendItem("Agua" if lang == "es" else "Water", WATER),
             *board.marks_legend(lang),
             board.LegendItem("Zona cerrada" if lang == "es" else "Closed zone", Shade((), hatch=True)),
             board.LegendItem("Movimiento" if lang == "es" else "Last move", Arrow(()))]
    height = board.legend(out, Box(12, h + 8, w - 24, 200), items, size=14)
    out.image = out.image.crop((0, 0, w, h + 8 + height + 8))
    out.draw = ImageDraw.Draw(out.image)
    return out


def measure(name: str, runs: int) -> dict[str, object]:
    sample = SAMPLES[name]
    board.clear_cache()
    kit.clear_caches()
    started = time.perf_counter()
    spec, layers = sample(0)
    png = board.render_png(spec, layers)
    cold = (time.perf_counter() - started) * 1000
    times: list[float] = []
    sizes: list[float] = [len(png)]
    for turn in range(1, runs + 1):
        started = time.perf_counter()
        spec, layers = sample(turn)  # a game renderer builds its spec from the view every time
        png = board.render_png(spec, layers)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png))
    w, h = spec.image_size
    return {"size": f"{w}x{h}", "cold_ms": round(cold, 1), "render_ms_p50": round(percentile(times, 50), 1),
            "render_ms_p95": round(percentile(times, 95), 1), "render_ms_max": round(max(times), 1),
            "png_bytes_p50": int(percentile(sizes, 50)), "png_bytes_max": int(max(sizes))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--only", choices=sorted(SAMPLES))
    parser.add_argument("--save", type=Path, help="also write each sample (es and en) as PNG here")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else list(SAMPLES)
    out = {name: measure(name, args.runs) for name in names}
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for name in names:
            for lang in ("es", "en"):
                spec, layers = SAMPLES[name](0)
                (args.save / f"{name}-{lang}.png").write_bytes(with_legend(spec, layers, lang).png())
            spec, _ = SAMPLES[name](0)
            (args.save / f"{name}-static.png").write_bytes(board.render_png(spec))
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
