"""Gorgasali island images, drawn from real engine states through their views."""

from __future__ import annotations

import io
from typing import cast

import pytest
from PIL import Image

from renderers import gorgasali as gr
from renderers import render_for
from rules.base import SYSTEM
from rules.gorgasali import GAME
from rules.gorgasali.state import LastShot, State
from rules.gorgasali.views import View
from rules.rng import Rng

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 1_000_000


def play(seats: int, steps: int, seed: int = 3, mode: str = "ffa") -> State:
    """A state reached by the game's own bots (system steps included) after `steps` moves."""
    state = GAME.new(GAME.resolve_options({"mode": mode}), seats, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        action = GAME.system_action(state) if seat == SYSTEM else GAME.ai_action(state, seat, rng)
        state = GAME.apply(state, seat, action).state
    return state


def named(view: dict[str, object], seats: int) -> View:
    # The contract hands views over as plain dicts; this one is Gorgasali's (as cogs/gorgasali.py reads it).
    return cast(View, {**view, "names": [f"P{i + 1}" for i in range(seats)]})


def check_png(data: bytes, view: View | None = None, lang: str = "en") -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    Image.open(io.BytesIO(data)).verify()
    img = Image.open(io.BytesIO(data))
    assert img.width == gr.WIDTH
    if view is not None:
        assert img.height == gr.layout(view, lang)[3]
    return img


@pytest.mark.parametrize(("seats", "mode"), [(2, "ffa"), (10, "ffa"), (4, "duo"), (10, "duo")])
@pytest.mark.parametrize("steps", [0, 5, 60, 400, 1500])
def test_renders_public_and_every_seat_view_along_a_playout(seats: int, mode: str, steps: int) -> None:
    state = play(seats, steps, mode=mode)
    for viewer in (None, *range(seats)):
        lang = "es" if viewer is None or viewer % 2 else "en"
        view = named(GAME.view(state, viewer), seats)
        check_png(gr.render(view, lang), view, lang)


def test_render_is_deterministic_and_cache_free() -> None:
    view = named(GAME.view(play(6, 200), None), 6)
    first = gr.render(view, "es")
    assert gr.render(view, "es") == first
    gr.clear_cache()
    assert gr.render(view, "es") == first
    assert render_for("gorgasali", dict(view), "es") == first
    assert gr.render(view, "en") != first


def test_every_edge_carries_the_coordinate_labels() -> None:
    img = check_png(gr.render(named(GAME.view(play(2, 0), None), 2), "en")).convert("RGB")
    grid = gr.GRID
    assert (grid.name((0, 0)), grid.name((29, 29))) == ("A1", "AD30")
    f, band = grid.field, grid.band
    bg = img.getpixel((1, 1))
    probes = {"top AD": (f.x2 - gr.CELL // 2, grid.y + band // 2), "bottom AD": (f.x2 - gr.CELL // 2, f.y2 + band // 2),
              "left 30": (grid.x + band // 2, f.y2 - gr.CELL // 2), "right 30": (f.x2 + band // 2, f.y2 - gr.CELL // 2)}
    for where, (x, y) in probes.items():
        patch = img.crop((x - 8, y - 6, x + 8, y + 6))
        assert {c for _, c in patch.getcolors(4096) or []} - {bg}, f"no label drawn at the {where} edge"


def test_reach_is_drawn_only_in_the_private_view_of_the_seat_moving() -> None:
    state = play(3, 0)
    for _ in range(40):  # on to a seat that has rolled and may step
        seat = min(GAME.to_act(state))
        if seat != SYSTEM and GAME.view(state, seat).get("steps"):
            break
        action = GAME.system_action(state) if seat == SYSTEM else GAME.ai_action(state, seat, Rng(1))
        state = GAME.apply(state, seat, action).state
    mover = min(GAME.to_act(state))
    private = named(GAME.view(state, mover), 3)
    assert private.get("steps"), "the playout should reach a seat with steps to take"
    public = named(GAME.view(state, None), 3)
    assert "steps" not in public
    assert gr.render(private, "es") != gr.render({**private, "steps": []}, "es")


@pytest.mark.parametrize("seats", [2, 10])
def test_public_image_is_the_same_whatever_the_hidden_deck_order(seats: int) -> None:
    """Only the order of the decks is secret (mats are public, A-47): reshuffled decks draw the same image."""
    state = play(seats, 120)
    other = GAME.copy_state(state)
    other["wdeck"] = list(reversed(other["wdeck"]))
    other["sdeck"] = other["sdeck"][1::2] + other["sdeck"][0::2]
    assert other["wdeck"] != state["wdeck"]
    for viewer in (None, 0, seats - 1):
        a = named(GAME.view(state, viewer), seats)
        b = named(GAME.view(other, viewer), seats)
        assert gr.render(a, "es") == gr.render(b, "es")


def test_last_shot_and_path_change_the_image() -> None:
    state = play(4, 300)
    view = named(GAME.view(state, None), 4)
    alive = [p for p in view["players"] if p["alive"]]
    assert len(alive) >= 2
    view = {**view, "shot_now": True}  # the shot of the turn being played (older shots are not drawn)
    # Deliberately partial shots (no weapon, and no dice until `rolled`): the image draws what it is given.
    hit = cast(LastShot, {"shooter": alive[0]["seat"], "target": alive[1]["seat"], "hit": True, "raw": 24})
    shot: View = {**view, "last": hit}
    miss: View = {**view, "last": cast(LastShot, {"shooter": alive[0]["seat"], "target": alive[1]["seat"],
                                                  "hit": False, "raw": 0})}
    assert len({gr.render({**view, "last": None}, "es"), gr.render(shot, "es"), gr.render(miss, "es")}) == 3
    rolled: View = {**view, "last": {**hit, "dice": [5, 3], "eff": [5, 3]}}
    other: View = {**view, "last": {**hit, "dice": [2, 3], "eff": [2, 3]}}
    arrow = gr._shot(rolled, "en")
    assert arrow is not None and arrow.label == "(5 3) -24"  # the last shot's dice as rolled
    assert gr.render(rolled, "es") != gr.render(other, "es")
