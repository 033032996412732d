"""The AI bar, reduced to stay fast in CI (the full 200-game figures come from tools/hr_ai_eval)."""

from __future__ import annotations

import time

from rules.hero_realms import GAME
from rules.hero_realms.ai import random_action, simple_action, smart_action
from rules.rng import Rng
from tools.hr_ai_eval import win_rate


def test_ai_beats_a_random_player() -> None:
    assert win_rate(smart_action, random_action, 40, 1) >= 0.9


def test_ai_beats_the_simple_policy_more_often_than_not() -> None:
    assert win_rate(smart_action, simple_action, 40, 101) > 0.5


def test_ai_moves_are_quick() -> None:
    s = GAME.new({}, 2, 3)
    rng = Rng(1)
    worst = 0.0
    for _ in range(400):
        if s.winners is not None:
            break
        seat = min(GAME.to_act(s))
        start = time.perf_counter()
        action = GAME.ai_action(s, seat, rng)
        worst = max(worst, time.perf_counter() - start)
        s = GAME.apply(s, seat, action).state
    assert worst < 0.1


def test_simple_and_random_policies_are_exposed_on_the_game() -> None:
    s = GAME.new({}, 2, 3)
    (seat,) = GAME.to_act(s)
    for policy in (GAME.ai_action_simple, GAME.ai_action_random):
        assert GAME.is_legal(s, seat, policy(s, seat, Rng(2)))
