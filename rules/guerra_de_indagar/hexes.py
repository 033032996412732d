"""Hex geometry of the map (axial pointy-top coordinates, PROV-01) and the board's labels."""

from __future__ import annotations

import math

from rules.coords import HexCodec
from rules.guerra_de_indagar.data import layouts
from rules.readonly import loader

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def unkey(text: str) -> Hex:
    q, r = text.split(",")
    return int(q), int(r)


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def pixel(h: Hex) -> tuple[float, float]:
    return math.sqrt(3) * (h[0] + h[1] / 2), 1.5 * h[1]


def left_angle(current: Hex, target: Hex, candidate: Hex) -> float:
    """RULING-33: the signed angle from the direction to the target to the candidate step (negative: left)."""
    cx, cy = pixel(current)
    tx, ty = pixel(target)
    wx, wy = pixel(candidate)
    vx, vy, wx, wy = tx - cx, ty - cy, wx - cx, wy - cy
    return math.atan2(vx * wy - vy * wx, vx * wx + vy * wy)


def layout_hexes(players: int) -> list[Hex]:
    layout = layouts()[str(players)]
    cells: set[Hex] = {(0, 0)}
    cells.update((q, r) for q, r in layout["face_down"])
    cells.update((q, r) for q, r in layout["homes"])
    for area in layout["areas"]:
        cells.update((q, r) for q, r in area["deploy"])
        cells.update((area[k][0], area[k][1]) for k in ("gold", "wood", "mineral"))
    return sorted(cells, key=lambda h: (h[1], h[0]))


@loader(maxsize=4)
def codec(players: int) -> HexCodec:
    return HexCodec(layout_hexes(players))


def label(players: int, k: str) -> str:
    return codec(players).name(*unkey(k))
