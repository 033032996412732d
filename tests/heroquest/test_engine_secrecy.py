"""Random playouts over the 15 European reference quests: no player view, event or image ever shows a secret."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from renderers import heroquest as hq
from rules.heroquest import GAME, board
from rules.heroquest.state import parse_sq
from rules.heroquest.upload import load_quest
from rules.rng import Rng
from rules.text import iter_strings
from tests.heroquest.hq_helpers import board_view
from tests.reference import HQ_QUESTS

REFERENCE = HQ_QUESTS
FILES = sorted(REFERENCE.glob("*.xml"))


def _playout(path: Path, seed: int, steps: int = 250) -> tuple[int, list[str]]:
    quest = load_quest(path.read_text(encoding="utf-8"), path.name)
    state = GAME.new_with_quest(quest, GAME.resolve_options({}), 3, seed)
    rng = Rng.from_seed(seed)
    problems: list[str] = []
    for n in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        # keep the game going: the random game master does not end the quest
        legal = [la for la in legal if la.action.kind != "gm_end_quest"] or legal
        step = GAME.apply(state, seat, rng.choice(legal).action)
        state = step.state
        secrets = GAME.secret_tokens(state)
        for viewer in (None, 1, 2):
            forbidden = {t for t, allowed in secrets.items() if viewer is None or viewer not in allowed}
            shown = set(iter_strings(GAME.view(state, viewer))) & forbidden
            if shown:
                problems.append(f"step {n}: view of {viewer} shows {sorted(shown)[:2]}")
            for event in step.events:
                if event.visible_to(viewer) and set(iter_strings(event.msg)) & forbidden:
                    problems.append(f"step {n}: event {event.msg.key} leaks to {viewer}")
        problems += [f"step {n}: {p}" for p in GAME.check_invariants(state)]
        if problems:
            break
    return n, problems


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_reference_quest_random_playout_keeps_secrets(path: Path) -> None:
    steps, problems = _playout(path, seed=len(path.name))
    assert problems == []
    assert steps > 10


def test_all_fifteen_reference_quests_are_there() -> None:
    assert len(FILES) == 15


def _unseen_squares_stay_dark(png: bytes, revealed: set[tuple[int, int]], where: hq.Layout) -> list[tuple[int, int]]:
    """The squares not in `revealed` whose inside (walls and doors straddle the edges) is not all the dark
    (a square the players' crop leaves out is not drawn at all)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    bad = []
    for sq in board.all_squares():
        if sq in revealed or not where.grid.contains(sq):
            continue
        box = where.sq_box(sq).inset(max(7, where.sq // 5))  # a door leaf is a third of a square thick
        extrema = [band for band in img.crop((box.x, box.y, box.x2, box.y2)).getextrema() if isinstance(band, tuple)]
        if any(abs(low - dark) > 12 or abs(high - dark) > 12 for (low, high), dark in zip(extrema, hq.UNSEEN,
                                                                                              strict=True)):
            bad.append(sq)
    return bad


@pytest.mark.parametrize("path", FILES[::3], ids=[p.stem for p in FILES[::3]])
def test_player_images_and_views_show_nothing_unseen(path: Path) -> None:
    """Property over random playouts: every public and player image is the plain dark on every square the
    heroes have not seen; the GM map's own fields (the heroes' seen squares, the quest's unused squares) stay in
    the GM's view; reach marks are only in the view of the seat on turn, exactly where its moves lead."""
    quest = load_quest(path.read_text(encoding="utf-8"), path.name)
    state = GAME.new_with_quest(quest, GAME.resolve_options({}), 3, len(path.name))
    rng = Rng.from_seed(len(path.name) * 31)
    checked = 0
    for n in range(200):
        if GAME.outcome(state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = [la for la in GAME.legal_actions(state, seat) if la.action.kind != "gm_end_quest"]
        state = GAME.apply(state, seat, rng.choice(legal or GAME.legal_actions(state, seat)).action).state
        revealed = set(state.revealed_squares())
        for viewer in (None, 1, 2):
            view = GAME.view(state, viewer)
            assert "player_revealed" not in view and "unused" not in view, (n, viewer)
            on_turn = viewer is not None and viewer in GAME.to_act(state)
            assert ("reach" in view) == on_turn, (n, viewer)
            if on_turn and viewer is not None:
                moves = {parse_sq(la.action.get("to")) for la in GAME.legal_actions(state, viewer)
                         if la.action.kind in ("move", "jump", "rock_step")}
                reach = view["reach"]
                assert isinstance(reach, list) and {tuple(q) for q in reach} == moves
                assert moves <= revealed, "reach marks only squares the heroes have seen"
            if n % 20 == 0 or (on_turn and view["reach"] and n % 7 == 0):
                assert _unseen_squares_stay_dark(hq.render(view, "en"), revealed, hq.layout(view, "en")) == [], \
                    (n, viewer)
                checked += 1
        gm = board_view(state, 0)
        assert {tuple(q) for q in gm["player_revealed"]} == revealed and "reach" not in gm
    assert checked > 5
