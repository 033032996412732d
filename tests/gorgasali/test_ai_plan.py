"""The hard Gorgasali bot's judgement (rules/gorgasali/ai_plan.py): its character, its shot, where its movement
ends, and that it only ever plays legal moves."""

from __future__ import annotations

import pytest

from rules.base import Action, Game
from rules.gorgasali import GAME
from rules.gorgasali import ai as AI
from rules.gorgasali import ai_plan as AP
from rules.gorgasali.board import board_of
from rules.gorgasali.engine import inactive, square
from rules.gorgasali.state import State
from rules.rng import Rng
from tests.gorgasali.helpers import force, give, plain, play, setup, sq, to_after
from tools.playout import playout


def hard(s: State, seat: int, rng_seed: int = 1) -> Action:
    return GAME.ai_action(s, seat, Rng(rng_seed), level="hard")


def test_hard_picks_the_strongest_free_character() -> None:
    s = GAME.new(GAME.resolve_options({}), 4, 3)
    assert s["phase"] == "pick"
    seat = min(GAME.to_act(s))
    first = hard(s, seat)
    assert first == Action.of("pick", char=AP.PREFERRED[0])
    s = GAME.apply(s, seat, first).state
    nxt = min(GAME.to_act(s))
    assert hard(s, nxt) == Action.of("pick", char=AP.PREFERRED[1])  # the first is taken
    # normal still picks at random: over a few generators it picks something else
    assert any(GAME.ai_action(s, nxt, Rng(i), level="normal")["char"] != AP.PREFERRED[1] for i in range(10))


def test_expected_damage_ranks_the_weapons() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    ids = {k: give(s, 0, k) for k in ("scratch", "mantis")}
    s["players"][0]["mat"]["weapon"]["a"] = list(ids.values())
    raw = {k: AP.expected_raw(s, 0, cid, 1, 2, None, False) for k, cid in ids.items()}
    assert raw["scratch"] == pytest.approx(17.5) and raw["mantis"] == pytest.approx(35)
    breathold = give(s, 1, "breathold")
    # Breathold hits on 6+ at range 3 (26 of 36 rolls) but needs 11+ at range 1 (3 of 36)
    assert AP.expected_raw(s, 1, breathold, 0, 3, None, False) == pytest.approx(50 * 26 / 36)
    assert AP.expected_raw(s, 1, breathold, 0, 1, None, False) == pytest.approx(50 * 3 / 36)


def test_hard_shoots_with_the_weapon_that_does_more_damage() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    give(s, 0, "scratch")  # listed first: 1 die x 5
    give(s, 0, "mantis")  # 5 dice x 2
    s["players"][0]["xc"] = 0
    s = to_after(s, 0)
    shot = hard(s, 0)
    assert shot.kind == "shoot" and s["cards"][shot["weapon"]] == "mantis"
    shots = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "shoot"]
    old = AI._best_target(s, shots, "shoot")  # the lower levels' rule: the weakest target, whatever the weapon
    assert old is not None and s["cards"][old["weapon"]] == "scratch"


def _walk(s: State, seat: int, level: str) -> tuple[State, list[int]]:
    """Let the bot at `level` make its movement; the squares it passes."""
    passed: list[int] = []
    while s["t"].get("stage") in ("rolled", "moving") and s["turn"] == seat:
        a = GAME.ai_action(s, seat, Rng(1), level=level)
        assert GAME.is_legal(s, seat, a), a
        s = GAME.apply(s, seat, a).state
        if a.kind in ("skip", "stop"):
            break
        passed.append(square(s["players"][seat]))
    return s, passed


def test_hard_keeps_out_of_the_inactive_zone_where_the_enemy_waits() -> None:
    # columns 0-4 are the outer ring (closed, 5 damage a step), 5-9 stay active; the only enemy stands in the ring
    board = plain(10, 10)
    board["zones"] = ["1111144444"] * 10
    s = setup(["armazi", "ebue"], [(5, 6), (5, 1)], board)
    s["zone"] = 1
    b = board_of(s["board"])
    force(s, 1, 2)
    s = play(s, 0, "roll")
    s, passed = _walk(s, 0, "hard")
    assert passed and not any(inactive(s, b, q) for q in passed)
    # the normal bot walks toward the enemy into the ring
    s2 = setup(["armazi", "ebue"], [(5, 6), (5, 1)], board)
    s2["zone"] = 1
    force(s2, 1, 2)
    s2 = play(s2, 0, "roll")
    s2, passed2 = _walk(s2, 0, "normal")
    assert any(inactive(s2, b, q) for q in passed2)


def test_hard_keeps_its_range_against_a_shorter_weapon() -> None:
    # the bot holds a scout (range 4), the enemy a massive weapon (range 1) 4 squares away: the bot ends its
    # movement where it can still shoot and the enemy would need more movement to reach it
    s = setup(["armazi", "ebue"], [(5, 5), (5, 9)], plain(14, 14))
    s["players"][0]["xc"] = 0
    give(s, 0, "breathold")
    give(s, 1, "kiss")
    force(s, 1, 2)
    s = play(s, 0, "roll")
    s, _ = _walk(s, 0, "hard")
    b = board_of(s["board"])
    d = b.dist(square(s["players"][0]), square(s["players"][1]))
    assert 2 <= d <= 4
    assert hard(s, 0).kind == "shoot"


def test_hard_stays_put_when_its_square_is_the_best() -> None:
    # loaded scout at range 3 of a weak enemy: a 3-point movement could only bring it nearer or out of reach
    s = setup(["armazi", "ebue"], [(5, 2), (5, 5)], plain(10, 10))
    s["players"][0]["xc"] = 0
    s["players"][1]["hp"] = 30
    give(s, 0, "breathold")
    give(s, 1, "kiss")
    force(s, 1, 2)
    s = play(s, 0, "roll")
    assert hard(s, 0) == Action.of("skip")


def test_the_planner_draws_nothing_from_the_generator() -> None:
    s = GAME.new(GAME.resolve_options({}), 4, 8)
    for i in range(150):
        seat = min(GAME.to_act(s))
        if GAME.outcome(s) is not None:
            break
        if seat >= 0 and s["phase"] == "play" and s["t"].get("stage") in ("rolled", "moving"):
            assert hard(s, seat, 1) == hard(s, seat, 99)
        a = hard(s, seat, i) if seat >= 0 else GAME.system_action(s)
        s = GAME.apply(s, seat, a).state


@pytest.mark.parametrize("seed", [31])
def test_hard_bots_play_only_legal_moves(seed: int) -> None:
    def bot(game: Game, state: State, seat: int, rng: Rng) -> Action:
        action = game.ai_action(state, seat, rng, level="hard")
        assert game.is_legal(state, seat, action), action
        return action

    result = playout(GAME, seats=4, seed=seed, chooser=bot, deep=False, max_actions=20000)
    assert result.finished and result.errors == [] and result.invariant_failures == []


def test_square_helper() -> None:
    assert sq(setup(["armazi", "ebue"], [(0, 0), (1, 1)]), 1, 1) == 11
