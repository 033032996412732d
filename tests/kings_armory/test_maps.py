"""Maps: the four presets, forks and merges (yellow arrows), custom map files and the checks on load (§1.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import i18n
from rules.base import BadOptions
from rules.kings_armory import GAME, data, enemy, queries
from rules.kings_armory import maps as kmaps
from rules.kings_armory.board import board

from .helpers import Dice, add_hero, add_monster, scene

PRESETS = ("long-road", "short-road", "forked-road", "twin-fords")


def _fork_index(b: Any, side: str = "L") -> int:
    """The last lane index the red and yellow lanes of a side share before they part."""
    red, yellow = b.lanes[side], b.lanes["Y" + side]
    k = 0
    while red[k + 1] == yellow[k + 1]:
        k += 1
    return k


@pytest.mark.parametrize("map_id", PRESETS)
def test_every_preset_passes_the_map_checks(map_id: str) -> None:
    assert kmaps.problems_of(data.maps()[map_id]) == []
    b = board(map_id)
    assert (b.width, b.height) == (16, 16)
    assert all(lane[0] in b.entrance.values() and lane[-1] in b.exits.values() for lane in b.lanes.values())


def test_split_presets_have_red_and_yellow_lanes_that_part_at_the_fork_and_meet_at_the_merge() -> None:
    for map_id, short in (("forked-road", False), ("twin-fords", True)):
        b = board(map_id)
        assert set(b.lanes) == {"L", "R", "YL", "YR"} and b.split and b.short == short
        for side in ("L", "R"):
            red, yellow = b.lanes[side], b.lanes["Y" + side]
            assert red[0] == yellow[0] and red[-1] == yellow[-1]
            assert set(red[1:-1]) != set(yellow[1:-1])
            assert red[-3:] == yellow[-3:]  # lanes keep their side through the merge
    simple = board("long-road")
    assert set(simple.lanes) == {"L", "R"} and not simple.split


def test_forked_road_follows_the_digest_presets() -> None:
    b = board("forked-road")
    # red arm west through (0,0)…(3,1); yellow arm east through (0,2)…(3,3); the two T tiles at (0,1) and (3,2)
    red_tiles = {(r // 4, c // 4) for r, c in b.lanes["L"][1:-1]}
    yellow_tiles = {(r // 4, c // 4) for r, c in b.lanes["YL"][1:-1]}
    assert red_tiles == {(0, 1), (0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2)}
    assert yellow_tiles == {(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3), (3, 2)}


def test_monsters_follow_the_arrows_of_their_colour_on_a_split_map() -> None:
    s = scene(map_id="forked-road")
    add_hero(s, "boleslaw", (8, 8))
    s.update({"phase": "enemy", "eturn": 1, "turn": -1})
    raider = enemy.new_monster(s, "goblin_raider", "L")  # red arrow
    rat = enemy.new_monster(s, "giant_rat", "R")  # yellow arrow
    assert (raider["lane"], rat["lane"]) == ("L", "YR")
    view = GAME.view(s, None)
    shown = {m["id"]: (m["lane"], m["arrow"]) for m in view["monsters"]}
    assert shown == {raider["id"]: ("L", "r"), rat["id"]: ("R", "y")}
    simple = scene()
    assert enemy.new_monster(simple, "giant_rat", "R")["lane"] == "R"  # one arrow per square: everyone follows it


def test_tc34_the_push_stops_where_the_two_arrows_part() -> None:
    s = scene(map_id="twin-fords")
    add_hero(s, "boleslaw", (8, 8))
    s.update({"phase": "enemy", "eturn": 1, "turn": -1})
    b = board("twin-fords")
    k = _fork_index(b)
    assert k > 4
    rat = add_monster(s, "giant_rat", k, lane="YL")  # yellow: its next square is not the orc's
    orc = add_monster(s, "orc_warrior", k - 2)  # red, Mv 3
    assert b.lanes["L"][k] == b.lanes["YL"][k]
    enemy._start(s, Dice(), [], orc, upkeep=False)
    assert rat["i"] == k and orc["i"] == k + 1  # no push at the split: the orc walks through
    s2 = scene(map_id="twin-fords")
    add_hero(s2, "boleslaw", (8, 8))
    s2.update({"phase": "enemy", "eturn": 1, "turn": -1})
    rat2 = add_monster(s2, "giant_rat", k - 1, lane="YL")  # before the split the arrows agree: pushed
    orc2 = add_monster(s2, "orc_warrior", k - 3)
    enemy._start(s2, Dice(), [], orc2, upkeep=False)
    # pushed onto the fork square, then no further: the orc passes through it and backs up behind the rat
    assert rat2["i"] == k and orc2["i"] == k - 1


def test_a_split_route_earns_one_more_coin_card() -> None:
    draws = {}
    for map_id in ("long-road", "forked-road", "twin-fords"):
        s = scene(map_id=map_id)
        add_hero(s, "valcor", (8, 8))
        events: list[Any] = []
        gold = s["gold"]
        s["coins"] = [50] * 26
        enemy.end_wave(s, events)
        draws[map_id] = (s["gold"] - gold) // 50
    assert draws == {"long-road": 2, "forked-road": 3, "twin-fords": 4}


def test_a_custom_map_file_is_offered_and_played() -> None:
    spec = next(o for o in GAME.options() if o.key == "map")
    assert "custom:river-bend" in [v for v, _ in spec.choices]
    options = GAME.resolve_options({"map": "custom:river-bend"})
    s = GAME.new(options, 2, 3)
    b = queries.board_of(s)
    assert (b.width, b.height, b.short, b.split) == (20, 16, True, False)


def _broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: Any) -> BadOptions:
    (tmp_path / "broken.json").write_text(json.dumps(raw), encoding="utf-8")
    monkeypatch.setattr(kmaps, "CUSTOM_DIR", tmp_path)
    with pytest.raises(BadOptions) as caught:
        GAME.new({"map": "custom:broken", "waves": "5", "arrival": "full"}, 1, 1)
    return caught.value


def test_a_broken_custom_map_is_refused_with_every_problem_listed(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    raw = {"tiles_w": 4, "tiles_h": 4,
           "route": [[1, 1, "N", "S"], [2, 1, "N", "S"], [2, 2, "W", "E"], [3, 9, "N", "S"]]}
    error = _broken(tmp_path, monkeypatch, raw)
    text = i18n.t(error.reason, "en")
    assert error.reason.key == "ka.map.invalid"
    assert "tile (1,1) is entered from inside the map" in text
    assert "tile (2,1) does not lead into tile (2,2)" in text
    assert "tile (3,9) lies outside the 4×4 tile grid" in text
    assert "no se puede jugar" in i18n.t(error.reason, "es")


def test_map_checks_catch_inventory_loops_and_bad_splits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    straight_run = {"tiles_w": 8, "tiles_h": 8, "route": [[r, 0, "N", "S"] for r in range(8)]}
    problems = kmaps.problems_of(straight_run)
    assert [p.key for p in problems] == ["ka.map.bad.inventory"]  # 8 straights, the box has 6
    twice = {"tiles_w": 4, "tiles_h": 4, "route": [[0, 1, "N", "S"], [1, 1, "N", "S"], [1, 1, "N", "S"]]}
    assert "ka.map.bad.reused" in [p.key for p in kmaps.problems_of(twice)]
    forked = data.maps()["forked-road"]
    yellow = forked["yellow"]
    assert yellow is not None
    no_merge = {**forked, "yellow": [*yellow[:-2], [3, 3, "N", "S"]]}  # a second way to the border
    assert [p.key for p in kmaps.problems_of(no_merge)] == ["ka.map.bad.inventory", "ka.map.bad.ends"]
    assert [p.key for p in kmaps.problems_of({"tiles_w": 1, "tiles_h": 4, "route": []})] == \
        ["ka.map.bad.size", "ka.map.bad.route"]
    assert _broken(tmp_path, monkeypatch, [1, 2]).reason.key == "ka.map.invalid"


def test_an_unknown_map_is_refused() -> None:
    with pytest.raises(BadOptions):
        GAME.resolve_options({"map": "custom:nowhere"})
    assert kmaps.custom_names() == sorted(p.stem for p in kmaps.CUSTOM_DIR.glob("*.json"))
