"""The AI bar, reduced to stay fast in CI (the full 200-game figures come from tools/hr_ai_eval)."""

from __future__ import annotations

import time

from rules.hero_realms import GAME
from rules.hero_realms.ai import random_action, simple_action, smart_action
from rules.hero_realms.state import State
from rules.rng import Rng
from tests.hero_realms.hr_helpers import act, clean, put
from tools.hr_ai_eval import head_to_head, win_rate


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


# ---------------------------------------------------------------- the AI as a teammate


def _run_ai(s: State, ai: set[int]) -> State:
    """What the table does after every move: AI seats act while any of them may."""
    rng = Rng(5)
    for _ in range(200):
        ready = sorted(ai & GAME.to_act(s))
        if not ready or s.winners is not None:
            return s
        s = GAME.apply(s, ready[0], GAME.ai_action(s, ready[0], rng)).state
    raise AssertionError("the AI never stopped")


def _expensive_market(s: State) -> None:
    """A market the AI cannot buy from with a little gold (no Fire Gems either)."""
    for i, cid in enumerate(s.market):
        s.cards[cid] = ("arkus", "tyrannor", "domination", "krythos", "grak")[i]
    s.gems = []


def test_in_hydra_the_ai_keeps_its_half_of_the_turn_open_for_its_human_teammate() -> None:
    s = clean("hydra", 4)
    _expensive_market(s)
    put(s, 1, "gold")
    put(s, 1, "dagger")
    s = _run_ai(s, {1})
    ai = s.players[1]
    assert not ai.done and ai.waiting, "the AI waits for its teammate instead of ending at once"
    assert GAME.to_act(s) == frozenset({0})
    assert s.players[0].gold == 1 and ai.gold == 0, "gold it could not spend went to the teammate"
    assert ai.combat == 1, "combat kept for the teammate's plans"
    assert any(e["key"] == "hr.ev.waiting" for e in s.log)


def test_the_ai_finishes_a_guard_its_teammate_wounded_and_spends_gold_it_is_given() -> None:
    s = clean("hydra", 4)
    _expensive_market(s)
    guard = put(s, 2, "orc_grunt", "champions")  # defense 3, protects the whole team
    for _ in range(2):
        put(s, 1, "dagger")
    s = _run_ai(s, {1})
    assert s.players[1].combat == 2 and s.players[1].waiting
    s.players[0].gold = 3
    s.gems = [put(s, 0, "fire_gem", "discard")]
    s.players[0].discard.remove(s.gems[0])
    s = act(s, 0, "give_gold", to=1, amount=3).state
    s = _run_ai(s, {1})
    assert any(s.cards[c] == "fire_gem" for c in s.players[1].discard), "it bought with the gold it was given"
    s.players[0].combat = 1
    s = act(s, 0, "attack", target=guard, amount=1).state
    s = act(s, 0, "end_turn").state
    s = _run_ai(s, {1})
    assert guard in s.players[2].discard, "the wounded guard was finished with the AI's combat"
    assert GAME.to_act(s) == frozenset({2, 3}) or s.active == [2, 3]


def test_two_ai_teammates_pool_their_gold_and_finish_the_turn() -> None:
    s = clean("hydra", 4)
    s.active = [2, 3]
    _expensive_market(s)
    put(s, 2, "gold")
    s = _run_ai(s, {2, 3})
    assert s.active == [0, 1], "the shared turn ended"
    gifts = [e for e in s.log if e["key"] == "hr.ev.gave_gold"]
    assert gifts, "the first AI gave its gold to the one still playing"


def test_an_emperor_captain_ai_moves_a_good_card_to_its_emperor() -> None:
    s = clean("emperor", 6)
    _expensive_market(s)
    put(s, 0, "gold")
    best = put(s, 0, "rake", "discard")
    s = _run_ai(s, {0})
    assert best in s.players[1].discard and s.players[0].gold == 0


# ---------------------------------------------------------------- AI levels


def test_hard_is_the_planning_heuristic_and_easy_buys_at_random() -> None:
    s = GAME.new({}, 2, 5)
    easy_differs = False
    for _ in range(300):
        if s.winners is not None:
            break
        seat = min(GAME.to_act(s))
        assert GAME.ai_action(s, seat, Rng(7), level="hard") == smart_action(s, seat, Rng(7))
        easy = GAME.ai_action(s, seat, Rng(7), level="easy")
        assert GAME.is_legal(s, seat, easy)
        easy_differs |= easy != smart_action(s, seat, Rng(7))
        s = GAME.apply(s, seat, GAME.ai_action(s, seat, Rng(7))).state
    assert easy_differs


def test_each_level_beats_the_one_below() -> None:
    # 40 games each (the 200-game figures, on unseen seeds, come from `tools.hr_ai_eval --against levels`)
    assert head_to_head("hard", "normal", games=40, seed=501)["rates"]["hard"] >= 0.6
    assert head_to_head("normal", "easy", games=40, seed=501)["rates"]["normal"] >= 0.6
