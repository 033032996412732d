"""The King's Armory map images, drawn from real engine states (played by the AI heroes) through their views."""

from __future__ import annotations

import io
import itertools
from types import SimpleNamespace

import pytest
from PIL import Image

from renderers import kings_armory as kr
from renderers import render_for
from rules.base import SYSTEM
from rules.kings_armory import GAME, data
from rules.kings_armory.board import board
from rules.kings_armory.shapes import State
from rules.rng import Rng
from tests.renderers.pixels import rgb

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 1_000_000


def play(seats: int, steps: int, seed: int = 2, map_id: str = "long-road", fight: bool = False) -> State:
    """A state the AI heroes reach after `steps` moves (or, with `fight`, in an allies' round against 3+ monsters)."""
    state = GAME.new(GAME.resolve_options({"map": map_id}), seats, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None or (fight and state["phase"] == "allies" and len(state["monsters"]) > 2):
            break
        seat = min(GAME.to_act(state))
        action = GAME.system_action(state) if seat == SYSTEM else GAME.ai_action(state, seat, rng)
        state = GAME.apply(state, seat, action).state
    return state


def named(view: dict, seats: int) -> dict:
    return {**view, "names": [f"P{i + 1}" for i in range(seats)]}


def check_png(data: bytes, map_id: str = "long-road") -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    Image.open(io.BytesIO(data)).verify()
    img = Image.open(io.BytesIO(data))
    assert (img.width, img.height) == kr._size(board(map_id))
    return img


@pytest.mark.parametrize("map_id", ["long-road", "short-road"])
@pytest.mark.parametrize(("seats", "steps"), [(1, 0), (1, 60), (3, 300), (7, 500), (3, 20_000)])
def test_renders_along_a_playout_to_the_end(seats: int, steps: int, map_id: str) -> None:
    state = play(seats, steps, map_id=map_id)
    for lang in ("es", "en"):
        check_png(kr.render(named(GAME.view(state, None), seats), lang), map_id)
    if steps == 20_000:
        assert state["phase"] == "over"


def test_render_is_deterministic_and_cache_free() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    first = kr.render(view, "es")
    assert kr.render(view, "es") == first
    kr.clear_cache()
    assert kr.render(view, "es") == first
    assert render_for("kings-armory", view, "es") == first
    assert kr.render(view, "en") != first


def test_every_edge_carries_the_coordinate_labels() -> None:
    b = board("long-road")
    img = check_png(kr.render(named(GAME.view(play(1, 0), None), 1), "en")).convert("RGB")
    grid = kr._grid(b)
    assert (grid.name((0, 0)), grid.name((15, 15))) == ("A1", "P16")
    f, band = grid.field, grid.band
    bg = img.getpixel((1, 1))
    probes = {"top P": (f.x2 - kr.CELL // 2, grid.y + band // 2), "bottom P": (f.x2 - kr.CELL // 2, f.y2 + band // 2),
              "left 16": (grid.x + band // 2, f.y2 - kr.CELL // 2), "right 16": (f.x2 + band // 2, f.y2 - kr.CELL // 2)}
    for where, (x, y) in probes.items():
        patch = img.crop((x - 8, y - 6, x + 8, y + 6))
        assert {c for _, c in patch.getcolors(4096) or []} - {bg}, f"no label drawn at the {where} edge"


def test_entrances_exits_and_gate_sit_beyond_the_label_band() -> None:
    b = board("long-road")
    grid = kr._grid(b)
    for sq in [*b.entrance.values(), *b.exits.values(), *b.gate, *b.parapets.values()]:
        box = kr.sq_box(grid, sq)
        assert not (grid.box.x < box.x + box.w / 2 < grid.box.x2 and grid.box.y < box.y + box.h / 2 < grid.box.y2)
        assert box.x >= 0 and box.y >= kr.HEADER
    img = check_png(kr.render(named(GAME.view(play(1, 0), None), 1), "en")).convert("RGB")
    gate = kr.sq_box(grid, b.gate[0])
    assert img.getpixel((gate.x + 3, gate.y + 3)) != img.getpixel((1, 1))


def test_hp_status_tokens_and_the_gate_change_the_image() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    assert view["monsters"], "the playout should leave monsters on the map"
    base = kr.render(view, "en")
    m = view["monsters"][0]
    hurt = {**view, "monsters": [{**m, "hp": max(1, m["hp"] - 1) if m["hp"] > 1 else 2}, *view["monsters"][1:]]}
    bled = {**view, "monsters": [{**m, "status": {"bleed": 2}}, *view["monsters"][1:]]}
    gate = {**view, "gate": [view["gate"][0] - 3, view["gate"][1]]}
    assert len({base, kr.render(hurt, "en"), kr.render(bled, "en"), kr.render(gate, "en")}) == 4


def test_the_hidden_piles_never_change_the_image() -> None:
    state = play(3, 5000, fight=True)
    other = GAME.copy_state(state)
    other["piles"] = {k: list(reversed(v)) for k, v in other["piles"].items()}
    other["coins"] = list(reversed(other["coins"]))
    assert kr.render(named(GAME.view(state, None), 3), "es") == kr.render(named(GAME.view(other, None), 3), "es")


def test_route_arrows_are_red_and_a_second_way_out_of_a_square_is_yellow() -> None:
    arrows = kr.arrow_colors(board("long-road"))
    assert all([color for _, color in out] == [kr.RED] for out in arrows.values())
    fork = SimpleNamespace(lanes={"A": [(0, 0), (1, 0), (2, 0)], "B": [(0, 0), (1, 0), (1, 1)]})
    assert kr.arrow_colors(fork)[(1, 0)] == [((2, 0), kr.RED), ((1, 1), kr.YELLOW)]  # type: ignore[arg-type]


def test_two_figures_on_one_square_are_both_drawn() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    m = view["monsters"][0]
    alone = {**view, "allies": []}
    both = {**alone, "allies": [{**view["allies"][0], "square": m["square"]}]}
    assert kr.render(alone, "en") != kr.render(both, "en")


def test_a_standing_block_order_shows_on_the_roster() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    first = view["allies"][0]
    orders = [{**view, "allies": [{**first, "order": o}, *view["allies"][1:]]} for o in ("ask", "block", "pass")]
    assert len({kr.render(v, "en") for v in orders}) == 3


def test_an_uploaded_map_and_the_endurance_score_are_drawn() -> None:
    from rules.kings_armory import maps as kmaps

    sample = kmaps.CUSTOM_DIR / "river-bend.json"
    setup = GAME.setup_from_upload(sample.read_bytes(), sample.name)
    state = GAME.new_with_setup(setup, GAME.resolve_options({"endurance": "true"}), 1, 4)
    view = named(GAME.view(state, None), 1)
    assert view["score"] == 0
    data = kr.render(view, "en")
    assert data.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(data))
    assert (img.width, img.height) == kr._size(board(state["map"], state["map_spec"]))
    assert (img.width, img.height) != kr._size(board("long-road")), "the 5×4-tile map is wider than the box's"
    plain = kr.render(named(GAME.view(GAME.new_with_setup(setup, GAME.resolve_options({}), 1, 4), None), 1), "en")
    assert plain != data, "the score is written in the header"


# ---------------------------------------------------------------- readable on a phone


def _all_codes(lang: str) -> dict[str, str]:
    """Every code a board in `lang` can print, by what it stands for (champions with levels 1 to 3)."""
    out = {}
    for group, ids in (("monsters", list(data.monsters())), ("bosses", list(data.bosses())),
                       ("heroes", list(data.heroes())), ("summons", list(data.summons()))):
        for key in ids:
            out[f"{group}/{key}"] = kr.codes()[group][key][lang]
    for key in data.champions():
        for level in (1, 2, 3):
            out[f"champions/{key}/{level}"] = kr.codes()["champions"][key][lang] + str(level)
    return out


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_figure_has_a_code_no_other_equals_or_differs_from_only_by_letter_order(lang: str) -> None:
    codes = _all_codes(lang)
    by_letters: dict[str, str] = {}
    for what, code in codes.items():
        key = "".join(sorted(code))
        assert key not in by_letters, f"{what} {code} and {by_letters.get(key)} {codes.get(by_letters.get(key, ''))}"
        by_letters[key] = what


@pytest.mark.parametrize("lang", ["es", "en"])
def test_monsters_of_one_colour_never_share_a_first_letter(lang: str) -> None:
    firsts: dict[tuple[int, str], str] = {}
    for m in data.monsters().values():
        code = kr.codes()["monsters"][m["id"]][lang]
        assert (m["level"], code[0]) not in firsts, f"{m['id']} and {firsts.get((m['level'], code[0]))}: {code}"
        firsts[(m["level"], code[0])] = m["id"]


def test_the_board_prints_the_data_codes() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    m = view["monsters"][0]
    assert kr.monster_code(m, "es") == kr.codes()["monsters" if not m["boss"] else "bosses"][m["type"]]["es"]
    hero = next(a for a in view["allies"] if a["kind"] == "hero")
    assert kr.ally_code(hero, "en") == kr.codes()["heroes"][hero["type"]]["en"]


def _monster(view: dict, level: int, square: str, **extra: object) -> dict:
    """A copy of a monster of the view moved to `square` with another level (so another colour)."""
    return {**view["monsters"][0], "id": f"x{level}", "level": level, "boss": False, "flags": [], "square": square,
            "status": {}, **extra}


def _regions(img: Image.Image, box: kr.Box, colors: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The bounding box of the pixels of each colour inside `box`."""
    out = []
    for color in colors:
        pts = [(x, y) for y in range(box.y, box.y2) for x in range(box.x, box.x2)
               if max(abs(a - b) for a, b in zip(rgb(img.getpixel((x, y))), color, strict=True)) < 12]
        assert pts, f"no {color} in the square"
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def test_two_monsters_on_one_square_are_drawn_apart_each_with_its_own_hit_points() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    b = board("long-road")
    sq = "N12"
    pair = {**view, "allies": [], "monsters": [_monster(view, 1, sq, hp=3), _monster(view, 2, sq, hp=5)]}
    img = Image.open(io.BytesIO(kr.render(pair, "en"))).convert("RGB")
    square = b.parse(sq)
    assert square is not None
    cell = kr.sq_box(kr._grid(b), square)
    first, second = _regions(img, cell, [kr.LEVEL_COLORS[1], kr.LEVEL_COLORS[2]])
    assert first[3] < second[1] or second[3] < first[1] or first[2] < second[0] or second[2] < first[0], \
        "the two tokens overlap"
    for x0, y0, x1, y1 in (first, second):
        assert x1 - x0 >= cell.w * 0.55, "each figure gets a whole row of its square, not a sliver"
        # its own hit points: a dark pill inside its own row
        row = [rgb(img.getpixel((x, (y0 + y1) // 2))) for x in range(x0, x1 + 1)]
        assert sum(1 for p in row if max(p) < 40) >= 6, "no hit-point pill on this figure's row"


def test_status_marks_differ_in_shape_not_only_colour() -> None:
    masks = {kind: kr._mask(shape, 40).point(lambda v: 255 if v > 127 else 0)
             for kind, shape in kr.STATUS_SHAPES.items()}
    for (a, ma), (b_, mb) in itertools.combinations(masks.items(), 2):
        both = sum(1 for p, q in zip(ma.tobytes(), mb.tobytes(), strict=True) if p and q)
        either = sum(1 for p, q in zip(ma.tobytes(), mb.tobytes(), strict=True) if p or q)
        assert both / either < 0.75, f"{a} and {b_} have nearly the same shape"


def test_a_crowded_square_is_drawn_with_the_rest_counted() -> None:
    view = named(GAME.view(play(3, 5000, fight=True), None), 3)
    crowd = {**view, "allies": [], "monsters": [_monster(view, 1 + i % 5, "N12", hp=i + 1) for i in range(6)]}
    few = {**crowd, "monsters": crowd["monsters"][:3]}
    assert kr.render(crowd, "en") != kr.render(few, "en")
