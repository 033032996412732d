"""Custom maps attached to `/game new`: the checked file becomes the game's board; broken files say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import i18n
from rules.base import BadOptions
from rules.kings_armory import GAME, data, queries
from rules.kings_armory import maps as kmaps
from rules.kings_armory.board import board
from rules.text import Lit, Msg
from table import Table, Who

from .helpers import ai_to_the_end

ALICE, BOB = Who(1, "Alice"), Who(2, "Bob")
SAMPLE = kmaps.CUSTOM_DIR / "river-bend.json"
#: A 3×3-tile map: in at the top of the middle column, a bend east, down to the castle at the bottom right.
ROUTE: list[list[int | str]] = [[0, 1, "N", "S"], [1, 1, "N", "E"], [1, 2, "W", "S"], [2, 2, "N", "S"]]
SMALL = {"en": "Little bend", "es": "Pequeño recodo", "tiles_w": 3, "tiles_h": 3, "route": ROUTE}


def _file(raw: object) -> bytes:
    return json.dumps(raw).encode()


def _refusal(blob: bytes, name: str = "mine.json") -> BadOptions:
    with pytest.raises(BadOptions) as exc:
        GAME.setup_from_upload(blob, name)
    assert exc.value.reason.key == "ka.map.upload_invalid"
    return exc.value


def _keys(exc: BadOptions) -> list[str]:
    listing = exc.reason.params["problems"]
    assert isinstance(listing, Msg)
    return [p.key for p in listing.params.values() if hasattr(p, "key")]


def test_an_uploaded_map_is_the_board_of_the_game_and_travels_in_its_state() -> None:
    setup = GAME.setup_from_upload(_file(SMALL), "little.json")
    assert setup["title"] == {"es": "Pequeño recodo", "en": "Little bend"}
    s = GAME.new_with_setup(setup, GAME.resolve_options({}), 1, 3)
    assert s["map"].startswith(kmaps.UPLOAD_PREFIX) and s["map_spec"]["route"] == ROUTE
    b = queries.board_of(s)
    assert (b.width, b.height) == (12, 12) and not b.split
    assert b.entrance["L"][0] == -1 and b.exits["L"][0] == 12, "in above the top row, out below the bottom row"
    # the engine needs nothing but the state: a JSON round trip plays on the same board
    again = GAME.from_json(json.loads(json.dumps(GAME.to_json(s))))
    assert GAME.view(again, None) == GAME.view(s, None) and GAME.view(s, None)["map_spec"]["tiles_w"] == 3


def test_equal_files_share_an_id_and_names_default_to_the_file_name() -> None:
    unnamed = {k: v for k, v in SMALL.items() if k not in ("es", "en")}
    setup = GAME.setup_from_upload(_file(unnamed), "my-road.json")
    assert setup["title"] == {"es": "my-road", "en": "my-road"}
    same = GAME.setup_from_upload(_file(unnamed), "my-road.json")["map"]
    assert kmaps.upload_id(setup["map"]) == kmaps.upload_id(same)
    assert kmaps.upload_id(setup["map"]) != kmaps.upload_id(GAME.setup_from_upload(_file(SMALL), "a.json")["map"])


def test_an_uploaded_game_plays_to_its_end_with_the_ai() -> None:
    s = GAME.new_with_setup(GAME.setup_from_upload(SAMPLE.read_bytes(), SAMPLE.name), GAME.resolve_options({}), 2, 8)
    s = ai_to_the_end(s, 4)
    assert GAME.outcome(s) is not None and s["wave"] >= 1


@pytest.mark.parametrize(("blob", "wanted"), [
    (b'{"tiles_w": 3,', "ka.map.bad.syntax"),
    (b"\xff\xfe\x00{", "ka.map.bad.encoding"),
    (b"[1, 2, 3]", "ka.map.bad.json"),
    (b" " * (kmaps.MAX_UPLOAD_BYTES + 1), "ka.map.bad.too_big"),
    (b"[" * 5000 + b"]" * 5000, "ka.map.bad.json"),
])
def test_files_that_are_no_map_object_are_refused_with_the_reason(blob: bytes, wanted: str) -> None:
    assert _keys(_refusal(blob)) == [wanted]


def test_broken_maps_list_every_problem_and_what_would_be_valid() -> None:
    # the route stops in the middle of the map: it never reaches the castle
    short = {**SMALL, "route": ROUTE[:2]}
    assert _keys(_refusal(_file(short))) == ["ka.map.bad.exit"]
    # a tile laid twice over the same square
    twice = {**SMALL, "route": [ROUTE[0], [0, 1, "N", "S"], *ROUTE[1:]]}
    assert "ka.map.bad.reused" in _keys(_refusal(_file(twice)))
    # a grid too big, an unknown field, a name too long, a route that is no list of tiles
    wrong = {**SMALL, "tiles_w": 12, "size": 3, "en": "x" * 99, "route": "down"}
    exc = _refusal(_file(wrong))
    assert _keys(exc) == ["ka.map.bad.key", "ka.map.bad.name", "ka.map.bad.size", "ka.map.bad.route"]
    text = i18n.t(exc.reason, "en")
    assert "“size”" in text and "from 2 to 8" in text and "docs/kings-armory-maps.md" in text
    assert "No game was created" in text and "«size»" in i18n.t(exc.reason, "es")
    # a gap between tiles; a tile outside the grid
    gap = {**SMALL, "route": [[0, 1, "N", "S"], [2, 1, "N", "S"]]}
    assert _keys(_refusal(_file(gap))) == ["ka.map.bad.gap"]
    outside = {**SMALL, "route": [[0, 5, "N", "S"]]}
    assert "ka.map.bad.outside" in _keys(_refusal(_file(outside)))


def test_a_preset_copied_from_the_data_file_loads_as_an_upload() -> None:
    preset = next(m for m in data.maps().values() if m["id"] == "forked-road")
    spec = GAME.setup_from_upload(_file(preset), "copy.json")["map"]
    assert "id" not in spec and "split" not in spec and spec["yellow"] == preset["yellow"]
    s = GAME.new_with_setup({"map": spec}, GAME.resolve_options({}), 1, 2)
    assert queries.board_of(s).split and queries.board_of(s).lanes["YL"] == board("forked-road").lanes["YL"]


def test_every_sample_in_the_docs_is_a_valid_upload() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "kings-armory-maps.md"
    text = docs.read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    assert len(blocks) >= 2
    for block in blocks:
        assert GAME.setup_from_upload(block.encode(), "doc.json")["map"]["route"]


async def test_the_table_creates_the_game_from_the_file_and_replays_it(table: Table) -> None:
    report = await table.new(guild_id=9, channel_id=70, who=ALICE, game_type="kings-armory",
                             upload=(_file(SMALL), "little.json"))
    line = next(m for m in report.public if m.key == "core.lobby.upload")
    title = line.params["title"]
    assert isinstance(title, Lit) and title.en == "Little bend"
    await table.join(70, BOB)
    await table.start(70, ALICE)
    row = await table.game_for(70)
    assert row is not None
    state = (await table.inspect(row.id)).state
    assert state is not None
    assert state["map_spec"]["tiles_w"] == 3
    assert "map_spec" in (await table.store.blob(row.id, "static") or {}), "the map is stored once per game"
    replayed = await table.replay(row.id)
    reloaded = (await Table(table.store).inspect(row.id)).state
    assert reloaded is not None
    assert GAME.to_json(replayed) == GAME.to_json(reloaded)


async def test_the_table_refuses_a_broken_map_and_creates_nothing(table: Table) -> None:
    with pytest.raises(BadOptions) as exc:
        await table.new(guild_id=9, channel_id=71, who=ALICE, game_type="kings-armory",
                        upload=(_file({**SMALL, "route": ROUTE[:2]}), "broken.json"))
    assert exc.value.reason.key == "ka.map.upload_invalid"
    assert await table.game_for(71) is None
