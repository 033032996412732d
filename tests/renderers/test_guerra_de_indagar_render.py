"""Guerra de Indagar map images, drawn from real engine states through their views."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers import guerra_de_indagar as gr
from renderers import render_for
from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.data import tiles
from rules.rng import Rng

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 1_000_000


def play(seats: int, steps: int, seed: int = 3) -> dict:
    """A state reached by the game's own AI (system steps included) after `steps` moves."""
    state = GAME.new(GAME.resolve_options({}), seats, seed)
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        action = GAME.system_action(state) if seat == SYSTEM else GAME.ai_action(state, seat, rng)
        state = GAME.apply(state, seat, action).state
    return state


def named(view: dict, seats: int) -> dict:
    return {**view, "names": [f"P{i + 1}" for i in range(seats)]}


def check_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert (img.width, img.height) == (gr.WIDTH, gr.HEIGHT)
    return img


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("steps", [0, 12, 120, 3000])
def test_renders_public_and_every_seat_view_along_a_playout(seats: int, steps: int) -> None:
    state = play(seats, steps)
    for viewer in (None, *range(seats)):
        check_png(gr.render(named(GAME.view(state, viewer), seats), "es" if viewer is None or viewer % 2 else "en"))


def test_render_is_deterministic_and_cache_free() -> None:
    view = named(GAME.view(play(2, 150), None), 2)
    first = gr.render(view, "es")
    assert gr.render(view, "es") == first
    gr.clear_cache()
    assert gr.render(view, "es") == first
    assert render_for("guerra-de-indagar", view, "es") == first
    assert gr.render(view, "en") != first


def _peeked(seats: int = 2) -> tuple[dict, int, str]:
    """A game where the seat on turn has just explored (peeked at) a face-down tile and kept it hidden."""
    state = play(seats, 0)
    rng = Rng.from_seed(9)
    for _ in range(500):
        seat = min(GAME.to_act(state))
        if seat != SYSTEM and not state["pending"]:
            explores = [la.action for la in GAME.legal_actions(state, seat) if la.action.kind == "explore"]
            if explores:
                state = GAME.apply(state, seat, explores[0]).state
                state = GAME.apply(state, seat, Action.of("keep_hidden")).state
                return state, seat, str(explores[0]["to"])
        action = GAME.system_action(state) if seat == SYSTEM else GAME.ai_action(state, seat, rng)
        state = GAME.apply(state, seat, action).state
    raise AssertionError("nobody explored")


def _swap_hidden(state: dict, keep: str | None = None) -> dict:
    """The same game with two face-down tiles of different types swapped (and `keep` left alone)."""
    out = GAME.copy_state(state)
    hidden = [k for k, t in sorted(out["tiles"].items()) if not t["up"] and t["t"] is not None and k != keep]
    a = hidden[0]
    b = next(k for k in hidden[1:] if out["tiles"][k]["t"] != out["tiles"][a]["t"])
    out["tiles"][a]["t"], out["tiles"][b]["t"] = out["tiles"][b]["t"], out["tiles"][a]["t"]
    return out


def test_public_image_never_shows_a_face_down_tile_even_a_peeked_one() -> None:
    state, seat, _ = _peeked()
    public = gr.render(named(GAME.view(state, None), 2), "es")
    assert gr.render(named(GAME.view(_swap_hidden(state), None), 2), "es") == public
    peeked_key = state["players"][seat]["known"][-1]
    other = GAME.copy_state(state)
    tile = other["tiles"][peeked_key]
    tile["t"] = "mountain" if tile["t"] != "mountain" else "meadow"
    assert gr.render(named(GAME.view(other, None), 2), "es") == public
    assert gr.render(named(GAME.view(other, 1 - seat), 2), "es") == gr.render(named(GAME.view(state, 1 - seat), 2),
                                                                               "es")


def test_private_image_shows_what_that_seat_alone_peeked() -> None:
    state, seat, at = _peeked()
    view = named(GAME.view(state, seat), 2)
    assert any(p.startswith(f"{at}=") for p in view["peeks"])
    mine = gr.render(view, "es")
    assert mine != gr.render(named(GAME.view(state, None), 2), "es")
    assert mine != gr.render(named(GAME.view(state, 1 - seat), 2), "es")
    peeked_key = state["players"][seat]["known"][-1]
    other = GAME.copy_state(state)
    tile = other["tiles"][peeked_key]
    tile["t"] = "mountain" if tile["t"] != "mountain" else "meadow"
    assert gr.render(named(GAME.view(other, seat), 2), "es") != mine


def test_last_dice_stay_in_view_after_an_attack() -> None:
    state = play(2, 400, seed=4)
    assert state["last_dice"] is not None  # the AIs have fought (or been attacked) by then
    view = GAME.view(state, None)
    assert view["last_dice"]["at"] == view["last_dice"]["at"].upper()
    check_png(gr.render(named(view, 2), "en"))


def test_every_tile_type_has_a_distinct_look() -> None:
    looks = {kind: gr.terrain(kind) for kind in tiles()["types"]}
    assert gr.terrain(None) == gr.HIDDEN and gr.HIDDEN not in looks.values()
    assert all(t.glyph or t.fill != gr.EVENT_FILL for t in looks.values())
    assert gr.terrain("gold", destroyed=True).hatch


def test_private_image_marks_whose_view_it_is_in_both_languages() -> None:
    state = play(2, 120)
    assert "you" not in GAME.view(state, None)
    for seat in range(2):
        view = named(GAME.view(state, seat), 2)
        assert view["you"] == seat
        anonymous = {k: v for k, v in view.items() if k != "you"}
        for lang in ("es", "en"):
            assert gr.render(view, lang) != gr.render(anonymous, lang)
    other = named({**GAME.view(state, 0), "you": 1}, 2)  # the same view marked for the other seat
    assert gr.render(other, "en") != gr.render(named(GAME.view(state, 0), 2), "en")
