"""The map [digest §1.2-1.3]: tile counts per player count, geometry of start areas, dealing and RULING-02."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.data import layouts
from rules.guerra_de_indagar.hexes import distance, key, layout_hexes, neighbours, unkey
from rules.guerra_de_indagar.setup import NOT_YET, _area_tiles, deal
from rules.rng import Rng

TOTALS = {2: (39, 26), 3: (58, 39), 4: (67, 42), 1: (47, 36)}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_tile_totals_and_face_down_counts(players: int) -> None:
    total, face_down = TOTALS[players]
    s = GAME.new(GAME.resolve_options({}), players, 5)
    assert len(s["tiles"]) == total == len(layout_hexes(players))
    hidden = [t for t in s["tiles"].values() if not t["up"] and t["t"] is not None]
    assert len(hidden) == face_down  # RULING-01: 36 in solo, its four homes apart
    layout = layouts()[str(players)]
    expected = Counter({k: n for k, n in layout["pool"].items() if k != "event"})
    dealt = Counter(t["t"] for t in hidden if t["t"] in expected)
    assert dealt == expected
    assert sum(1 for t in hidden if t["t"] not in expected) == layout["pool"]["event"]
    assert sum(1 for t in s["tiles"].values() if t["home"] >= 0) == (4 if players == 1 else players)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_start_areas_deploy_at_four_and_open_on_four_tiles(players: int) -> None:
    cells = set(layout_hexes(players))
    for area in layouts()[str(players)]["areas"]:
        for q, r in area["deploy"]:
            assert distance((q, r), (0, 0)) == 4
        own = {unkey(k) for k, _ in _area_tiles(area)}
        exits = {n for h in own for n in neighbours(h) if n in cells} - own
        assert len(exits) == 4


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_board_is_connected(players: int) -> None:
    cells = set(layout_hexes(players))
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == cells


def test_dealing_is_seeded_and_never_walls_in_a_start_area() -> None:
    layout = layouts()["4"]
    assert deal(layout, Rng.from_seed(3)) == deal(layout, Rng.from_seed(3))
    cells = set(layout_hexes(4))
    for seed in range(200):
        dealt = deal(layout, Rng.from_seed(seed))
        for area in layout["areas"]:
            own = {unkey(k) for k, _ in _area_tiles(area)}
            exits = {key(n) for h in own for n in neighbours(h) if n in cells} - {key(h) for h in own}
            assert not all(dealt.get(k) == "mountain" for k in exits)
        assert not set(dealt.values()) & set(NOT_YET)
    assert NOT_YET == ()  # every event tile is in the draw


def test_labels_are_the_shared_hex_codec() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    view = GAME.view(s, None)
    labels = [t["at"] for t in view["tiles"]]
    assert len(set(labels)) == 39
    source = next(t for t in view["tiles"] if t["type"] == "source")
    assert (source["q"], source["r"]) == (0, 0)
