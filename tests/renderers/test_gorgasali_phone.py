"""The Gorgasali image on a phone: the shot only on its turn, the next zone marked, fighters told apart without
colour, side by side on a shared square, the shot's label clear of every token, and the crop's edges true."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from typing import cast

from PIL import Image

from renderers import gorgasali as gr
from renderers import kit
from rules import coords
from rules.base import SYSTEM
from rules.gorgasali import GAME
from rules.gorgasali.state import LastShot, State
from rules.gorgasali.views import FighterView, View, next_close
from rules.rng import Rng
from tests.renderers import pixels


def named(view: dict[str, object]) -> View:
    # The contract hands views over as plain dicts; this one is Gorgasali's (as cogs/gorgasali.py reads it).
    return cast(View, {**view, "names": ["alice", "bob", "carol", "dan", "erin", "frank", "gus", "hal", "ivy", "jo"]})


def steps(seats: int = 6, seed: int = 5, mode: str = "ffa") -> Iterator[State]:
    """Every state of a game played by the game's own bots."""
    state = GAME.new(GAME.resolve_options({"mode": mode}), seats, seed)
    rng = Rng(seed)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        action = GAME.system_action(state) if seat == SYSTEM else GAME.ai_action(state, seat, rng)
        state = GAME.apply(state, seat, action).state
        yield state


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def differs(a: Image.Image, b: Image.Image) -> bool:
    """Visibly different (the PNG's palette moves a colour by a step or two when anything else changes)."""
    return any(abs(x - y) > 10 for x, y in zip(a.tobytes(), b.tobytes(), strict=True))


# ---------------------------------------------------------------- the last shot


def test_the_shot_is_drawn_on_its_turn_and_gone_on_the_next() -> None:
    game = steps()
    on_turn = next(s for s in game if GAME.view(s, None)["shot_now"])
    view = named(GAME.view(on_turn, None))
    last = view["last"]
    assert last is not None and view["turn"] == last["shooter"]
    assert gr.render(view, "en") != gr.render({**view, "last": None}, "en"), "the shot is drawn on its turn"
    later = next(s for s in game if s["turn"] != on_turn["turn"])
    stale = named(GAME.view(later, None))
    assert stale["last"] == view["last"] and not stale["shot_now"], "the engine still remembers the shot"
    assert gr._shot(stale, "en") is None
    assert gr.render(stale, "en") == gr.render({**stale, "last": None}, "en"), "an old shot is not drawn"


def test_a_shot_of_an_earlier_round_by_the_same_fighter_is_not_this_turns() -> None:
    for state in steps():
        view = GAME.view(state, None)
        last, t = state["last"], state["t"]
        if last and last["shooter"] == state["turn"] and t and t.get("main") != "shoot":
            assert not view["shot_now"]
            return
    raise AssertionError("the playout should reach a shooter's later turn without a new shot")


# ---------------------------------------------------------------- the zone that closes next


def test_the_ring_that_closes_next_is_marked_and_no_other() -> None:
    state = next(iter(steps()))
    view = named(GAME.view(state, None))
    assert view["zone"] == 0 and view["next_close"] == 5
    marked = image(gr.render(view, "en"))
    plain = image(gr.render({**view, "next_close": None}, "en"))
    grid = gr.layout(view)[0]
    zones = view["map"]["zones"]
    fighters = [gr._cell(p["at"]) for p in view["players"]]
    chests = {gr._cell(c) for c in view["chests"]}
    for r, c in itertools.product(range(30), range(30)):
        # a token is larger than its square: leave out the squares around the fighters
        if (r, c) in chests or any(f and max(abs(f[0] - r), abs(f[1] - c)) <= 1 for f in fighters):
            continue
        box = grid.cell_box((r, c)).inset(grid.cell // 3)
        changed = differs(marked.crop(box.rect), plain.crop(box.rect))
        assert changed == (int(zones[r][c]) == 1), (coords.name(r, c), zones[r][c])


def test_no_ring_is_marked_when_no_zone_will_close() -> None:
    state = next(iter(steps()))
    never = GAME.new(GAME.resolve_options({"mode": "ffa", "final_zone": "never"}), 4, 1)
    shrink = GAME.new(GAME.resolve_options({"mode": "ffa"}), 4, 1)
    for s, zone, want in ((never, 3, None), (shrink, 3, 20), (shrink, 4, None), (state, 0, 5)):
        s = GAME.copy_state(s)
        s["zone"] = zone
        assert next_close(s) == want and GAME.view(s, None)["next_close"] == want, (s["final_zone"], zone)


# ---------------------------------------------------------------- fighters


def test_every_fighter_differs_from_every_other_by_shape_or_letter_not_colour_alone() -> None:
    for seats, mode in ((10, "ffa"), (10, "duo"), (4, "ffa")):
        view = named(GAME.view(GAME.new(GAME.resolve_options({"mode": mode}), seats, 3), None))
        letters = gr.codes(view)
        assert len({"".join(sorted(c.upper())) for c in letters.values()}) == seats, letters
        looks = {seat: gr.look(view, seat) for seat in range(seats)}
        assert len({color for color, _ in looks.values()}) == seats
    # colours some eyes confuse never share a shape
    alike = [("orange", "yellow"), ("orange", "vermillion"), ("vermillion", "yellow"), ("sky_blue", "blue")]
    shape = {color: s for color, s in gr.SEATS}
    for a, b in alike:
        assert shape[kit.OKABE_ITO[a]] != shape[kit.OKABE_ITO[b]], (a, b)


def test_letters_are_initials_or_else_unique_codes() -> None:
    view = named(GAME.view(GAME.new(GAME.resolve_options({"mode": "ffa"}), 4, 3), None))
    assert gr.codes(view) == {0: "A", 1: "B", 2: "C", 3: "D"}
    clash: View = {**view, "names": ["Ada", "Abe", "bo", "Cy"]}
    assert gr.codes(clash) == {0: "AD", 1: "AB", 2: "B", 3: "C"}
    mirror: View = {**view, "names": ["Ab", "Ax", "Ba", "Bx"]}  # AB and BA would mirror: seat numbers instead
    assert gr.codes(mirror) == {0: "1", 1: "2", 2: "3", 3: "4"}


def test_fighters_on_one_square_stand_side_by_side() -> None:
    view = named(GAME.view(GAME.new(GAME.resolve_options({"mode": "ffa"}), 4, 3), None))
    players: list[FighterView] = [{**p} for p in view["players"]]
    for p in players:
        p["alive"], p["at"] = True, "M10"
    players[3]["at"] = "T20"
    view = {**view, "players": players}
    grid = gr.layout(view)[0]
    boxes = gr.token_boxes(view, grid)
    shared = [boxes[s] for s in (0, 1, 2)]
    assert len({b.y for b in shared}) == 1 and len({b.x for b in shared}) == 3
    for a, b in itertools.combinations(sorted(shared, key=lambda b: b.x), 2):
        assert b.x - a.x >= a.w * 0.75, "side by side, each mostly visible"
    assert boxes[3].w > grid.cell, "a lone fighter is larger than its square"
    img = image(gr.render(view, "en"))
    strip = img.crop((shared[0].x, shared[0].y, shared[-1].x2, shared[0].y2))
    colours = set(pixels.colours(strip))
    for seat in (0, 1, 2):
        assert any(sum(abs(x - y) for x, y in zip(c, gr.SEATS[seat][0], strict=True)) < 12 for c in colours), seat


def test_the_shot_label_is_never_under_a_token() -> None:
    view = named(GAME.view(GAME.new(GAME.resolve_options({"mode": "ffa"}), 5, 3), None))
    players: list[FighterView] = [{**p} for p in view["players"]]
    squares = ["M10", "N10", "M11", "N11", "L10"]  # the shooter and the target next to each other, crowded
    for p, at in zip(players, squares, strict=True):
        p["alive"], p["at"] = True, at
    view = {**view, "players": players, "turn": 0, "shot_now": True,
            # a deliberately partial shot (no weapon): the label shows what it is given
            "last": cast(LastShot, {"shooter": 0, "target": 1, "hit": True, "raw": 30, "dice": [6, 4], "eff": [6, 4]})}
    grid = gr.layout(view)[0]
    boxes = gr.token_boxes(view, grid)
    pill = gr.shot_label_box(view, grid, boxes, "en")
    assert pill is not None
    for seat, b in boxes.items():
        assert not (pill.x < b.x2 and b.x < pill.x2 and pill.y < b.y2 and b.y < pill.y2), seat
    assert grid.field.x <= pill.x and pill.x2 <= grid.field.x2


# ---------------------------------------------------------------- the crop


def test_once_a_zone_has_closed_the_board_is_the_open_island_with_its_real_names() -> None:
    state = next(s for s in steps() if s["zone"] >= 1)
    view = named(GAME.view(state, None))
    grid = gr.layout(view)[0]
    assert grid.cols < 30 and grid.rows < 30 and grid.cell > gr.CELL
    zones = view["map"]["zones"]
    open_ = [(r, c) for r in range(30) for c in range(30) if int(zones[r][c]) > view["zone"]]
    assert all(grid.contains(sq) for sq in open_)
    for p in view["players"]:
        if p["alive"]:
            cell = gr._cell(p["at"])
            assert cell is not None and grid.contains(cell)
    assert grid.col0 > 0 and grid.row0 > 0
    # the top-left label is the real name of the first column shown, not "A"
    img = image(gr.render(view, "en"))
    f, mid = grid.field, (grid.band - 1) / 2
    patch = (f.x + 2, grid.y + 2, f.x + grid.cell - 2, f.y - 3)

    def drawn(text: str) -> bytes:
        ref = kit.Canvas(img.width, img.height, bg=kit.PALETTE.background)
        kit.text(ref.draw, (f.x + grid.cell / 2, grid.y + mid), text, grid.label_px, kit.PALETTE.ink, anchor="mm",
                 bold=True)
        return ref.image.crop(patch).convert("L").point(lambda v: 255 if v > 128 else 0).tobytes()

    got = img.crop(patch).convert("L").point(lambda v: 255 if v > 128 else 0).tobytes()

    def diff(a: bytes, b: bytes) -> int:
        return sum(x != y for x, y in zip(a, b, strict=True))

    assert diff(got, drawn(coords.column_name(grid.col0))) <= 12
    assert diff(got, drawn("A")) > 12
