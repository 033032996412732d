"""Guerra de Indagar map images, drawn from real engine states through their views."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers import board as kb
from renderers import guerra_de_indagar as gr
from renderers import render_for
from renderers.kit import Box, Canvas
from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.data import tiles
from rules.guerra_de_indagar.state import State
from rules.rng import Rng
from tests.renderers.pixels import rgb

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 1_000_000


def play(seats: int, steps: int, seed: int = 3) -> State:
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


def check_png(data: bytes, view: dict) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert (img.width, img.height) == gr.size(view) in ((gr.WIDTH, gr.HEIGHT), (gr.WIDTH, gr.HEIGHT_NARROW))
    return img


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("steps", [0, 12, 120, 3000])
def test_renders_public_and_every_seat_view_along_a_playout(seats: int, steps: int) -> None:
    state = play(seats, steps)
    for viewer in (None, *range(seats)):
        view = named(GAME.view(state, viewer), seats)
        check_png(gr.render(view, "es" if viewer is None or viewer % 2 else "en"), view)


def test_render_is_deterministic_and_cache_free() -> None:
    view = named(GAME.view(play(2, 150), None), 2)
    first = gr.render(view, "es")
    assert gr.render(view, "es") == first
    gr.clear_cache()
    assert gr.render(view, "es") == first
    assert render_for("guerra-de-indagar", view, "es") == first
    assert gr.render(view, "en") != first


def _peeked(seats: int = 2) -> tuple[State, int, str]:
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


def _swap_hidden(state: State, keep: str | None = None) -> State:
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
    check_png(gr.render(named(view, 2), "en"), view)


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


# ---------------------------------------------------------------- readable on a phone


def _near(pixel: tuple[int, ...], color: tuple[int, int, int], tol: int = 14) -> bool:
    return max(abs(a - b) for a, b in zip(pixel, color, strict=False)) <= tol


def test_a_players_colour_is_the_same_in_set_up_and_in_play() -> None:
    state = GAME.new(GAME.resolve_options({}), 3, 3)
    setup = named(GAME.view(state, None), 3)
    assert setup["round"] == 0 and not any(p.get("faction") for p in setup["players"])
    later = named(GAME.view(play(3, 400), None), 3)
    assert all(p.get("faction") for p in later["players"]) and later["heroes"]
    before = Image.open(io.BytesIO(gr.render(setup, "es"))).convert("RGB")
    after = Image.open(io.BytesIO(gr.render(later, "es"))).convert("RGB")
    cells = {t["at"]: (int(t["q"]), int(t["r"])) for t in setup["tiles"]}
    grid = gr._grid(frozenset(cells.values()))
    colors = [gr.seat_color(setup, seat) for seat in range(3)]
    assert len(set(colors)) == 3 and len({gr.seat_shape(seat) for seat in range(3)}) == 3
    for seat, color in enumerate(colors):
        deploy = [cells[t["at"]] for t in setup["tiles"] if t["deploy"] and t["area"] == seat]
        seen = [rgb(before.getpixel((x, y))) for c in deploy for b in [grid.cell_box(c)]
                for y in range(b.y, b.y2, 2) for x in range(b.x, b.x2, 2)]
        assert any(_near(p, color) for p in seen), f"seat {seat}'s set-up tiles do not show its colour"
        for h in later["heroes"]:
            if int(h["owner"]) == seat and h["at"]:
                box = gr._token_box(grid, cells[h["at"]])
                pixel = rgb(after.getpixel((box.x + box.w // 2, box.y + round(box.h * 0.24))))
                assert _near(pixel, color), f"seat {seat}'s hero {h['id']} is drawn in {pixel}, not {color}"


def test_unit_badges_are_readable_when_the_image_is_400_px_wide() -> None:
    for seats in (1, 2, 3, 4):
        view = GAME.view(play(seats, 0), None)
        grid = gr._grid(frozenset((int(t["q"]), int(t["r"])) for t in view["tiles"]))
        assert gr.badge_size(grid) * 400 / gr.WIDTH >= 7.5, f"{seats} players: the damage badge is too small"
        assert grid.width <= gr.MAP_W and grid.height <= gr.MAP_H


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_unit_code_is_unique_even_read_in_any_letter_order(lang: str) -> None:
    codes = gr.unit_codes(lang)
    assert len(codes) == 19  # 12 heroes, 5 primary and 2 event monsters
    assert all(len(c) == 2 and c.isalpha() and c.isupper() for c in codes.values())
    assert len({"".join(sorted(c)) for c in codes.values()}) == len(codes), codes


def test_a_narrow_map_has_its_roster_beside_it_and_a_shorter_image() -> None:
    two = GAME.view(play(2, 0), None)
    three = GAME.view(play(3, 0), None)
    assert gr.narrow(two) and not gr.narrow(three)
    assert gr.size(two)[1] < gr.size(three)[1]
    grid = gr._grid(gr._hexes(two))
    assert gr._panel(two).x >= grid.x + grid.width and gr._panel(two).y < grid.y + grid.height


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_legend_has_room_for_every_tile_type(lang: str) -> None:
    view = {"tiles": [{"type": kind} for kind in tiles()["types"]], "peeks": ["A1=gold"]}
    used = kb.legend(Canvas(gr.WIDTH, 2000), Box(gr.MARGIN, 0, gr.WIDTH - 2 * gr.MARGIN, 2000),
                     gr.legend_items(view, lang), size=gr.SMALL - 2)
    assert used <= gr.LEGEND_H - 8
