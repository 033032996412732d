"""Every reference quest imports, starts through the engine, and renders for the players and the GM."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

import i18n
from renderers import heroquest as hq_render
from rules.text import Msg
from tests.heroquest.hq_helpers import as_board_view, as_setup, registered
from tests.reference import HQ_QUESTS

QUESTS = sorted(HQ_QUESTS.glob("*.xml"))


def test_there_are_fifteen() -> None:
    assert len(QUESTS) == 15


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.stem)
def test_set_up_is_small_and_warnings_are_only_notes_and_guesses(path: Path) -> None:
    setup = as_setup(registered().setup_from_upload(path.read_bytes(), path.name))
    assert len(json.dumps(setup, ensure_ascii=False).encode("utf-8")) < 10_000
    keys = {w["key"] for w in setup["warnings"]}
    # a guess too: Lair of the Orc Warlord draws a fireplace at left 2.5, between two squares (the GM is told
    # where it was put)
    assert keys <= {"hq.imp.warn.mark_without_note", "hq.imp.warn.wandering_closest", "hq.imp.warn.between_squares"}
    assert all(i18n.t(Msg.from_json(w), "es") for w in setup["warnings"])


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.stem)
def test_import_start_and_render_both_views(path: Path) -> None:
    game = registered()
    setup = game.setup_from_upload(path.read_bytes(), path.name)
    state = game.new_with_setup(setup, game.resolve_options({}), 3, 5)
    gm_view, player_view = game.view(state, 0), game.view(state, 1)
    assert gm_view["viewer"] == "gm" and player_view["viewer"] == "hero"
    assert len(as_board_view(player_view)["revealed"]) < len(as_board_view(gm_view)["revealed"])
    images = {}
    for name, view in (("gm", gm_view), ("player", player_view)):
        png = hq_render.render(view, "es")
        with Image.open(io.BytesIO(png)) as img:
            assert img.size[0] >= 800 and img.size[1] > 500  # the players' image is 800 px wide (a phone's 400, twice)
        images[name] = png
    assert images["gm"] != images["player"]
