"""The hard AI's look-ahead while a boss is on the board (issue 23, `ai_search`): a few candidate moves played out
on copies of the game whose hidden parts are re-drawn from the seat's own generator, with a budget in steps."""

from __future__ import annotations

from dataclasses import replace

from rules.base import SYSTEM, Action
from rules.kings_armory import GAME, ai, ai_search, queries
from rules.kings_armory.board import range_distance
from rules.kings_armory.shapes import State
from rules.rng import Rng

from .helpers import add_hero, add_monster, lane_square, open_square_at, scene, square_of


def _boss_scene() -> State:
    """Vyrax and a harpy on the left lane, Midnight in reach of both with her three actions to spend."""
    s = scene()
    add_monster(s, "vyrax", 20, boss=True)
    add_monster(s, "harpy", 24)
    midnight = add_hero(s, "midnight", open_square_at(s, lane_square(s, 22), 2))
    s["active"], midnight["ap"] = midnight["id"], 3
    return s


def _legal(s: State) -> list[Action]:
    return [la.action for la in GAME.legal_actions(s, 0)]


def _searching(s: State, rng: Rng) -> Action:
    """The move of the hard level with the look-ahead (`ai.SEARCHING`)."""
    return ai.play(GAME.legal_actions(s, 0), s, 0, rng, ai.SEARCHING, GAME)


def _hard_policy() -> ai_search.Policy:
    return ai.playout_policy(GAME, ai.STYLES["hard"])


def _candidates(s: State) -> list[Action]:
    plain = ai._choose(GAME.legal_actions(s, 0), s, 0, Rng(0), ai.STYLES["hard"])
    return ai._candidates(GAME.legal_actions(s, 0), s, plain, ai.STYLES["hard"])


def test_the_search_compares_the_hard_move_and_other_attacks_in_a_boss_round() -> None:
    s = _boss_scene()
    assert ai_search.boss_round(s)
    moves = _candidates(s)
    assert len(moves) == ai.SEARCHING.candidates and len(set(m.token() for m in moves)) == len(moves)
    assert all(m in _legal(s) for m in moves)
    assert {m.kind for m in moves[1:]} == {"attack"}


def test_no_search_without_a_boss_or_outside_the_allies_round() -> None:
    s = _boss_scene()
    s["monsters"] = [m for m in s["monsters"] if not m["boss"]]
    assert not ai_search.boss_round(s)
    s = _boss_scene()
    s["phase"] = "enemy"
    assert not ai_search.boss_round(s)


def test_the_search_is_deterministic() -> None:
    """The same state and the same generator state give the same scores and the same move."""
    s = _boss_scene()
    moves = _candidates(s)
    first = ai_search.evaluate(GAME, s, 0, moves, _hard_policy(), Rng(99))
    again = ai_search.evaluate(GAME, queries.clone(s), 0, moves, _hard_policy(), Rng(99))
    assert first == again
    assert _searching(s, Rng(5)) == _searching(queries.clone(s), Rng(5))


def test_the_samples_come_from_the_seats_generator() -> None:
    """Other samples, other scores: the play-outs roll dice (from the search's own draws)."""
    s = _boss_scene()
    moves = _candidates(s)
    assert ai_search.evaluate(GAME, s, 0, moves, _hard_policy(), Rng(1)) \
        != ai_search.evaluate(GAME, s, 0, moves, _hard_policy(), Rng(2))


def _hidden_differs(s: State) -> State:
    """`s` with everything the seat cannot see drawn otherwise: the dice to come, the piles' and decks' order."""
    other = queries.clone(s)
    other["rng_state"] = (s["rng_state"] * 31 + 7) % (1 << 64)
    for pile in other["piles"].values():
        pile.reverse()
    Rng(3).shuffle(other["coins"])
    for deck in (other["boss_pile"], other["gear_deck"], other["rdeck"], other["adeck"]):
        Rng(3).shuffle(deck)
    return other


def test_the_search_never_reads_hidden_state() -> None:
    """Two states that differ only in what the seat cannot see (the game's dice stream, every pile's and deck's
    order) get the same scores to the last digit, so the same move. Two monsters arrive on the enemy turn the
    play-outs reach, drawn from the piles."""
    s = _boss_scene()
    s["arrive"] = 2
    other = _hidden_differs(s)
    assert other["rng_state"] != s["rng_state"] and other["piles"] != s["piles"]
    moves = _candidates(s)
    assert ai_search.evaluate(GAME, s, 0, moves, _hard_policy(), Rng(42)) \
        == ai_search.evaluate(GAME, other, 0, moves, _hard_policy(), Rng(42))
    assert _searching(s, Rng(8)) == _searching(other, Rng(8))


def test_the_copies_fast_path_plays_as_the_game_does() -> None:
    """`advance` (no legality check, no log) gives the state `Game.apply` gives, move by move, through an allies'
    round and the enemy turn after it."""
    s = _boss_scene()
    policy = _hard_policy()
    fast = queries.clone(s)
    start = s["eturn"]
    steps = 0
    while s["result"] is None and not (s["phase"] == "allies" and s["eturn"] > start):
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else policy(s, seat)
        s = GAME.apply(s, seat, action).state
        fast = ai_search.advance(GAME, fast, seat, action)
        assert {k: v for k, v in fast.items() if k != "log"} == {k: v for k, v in s.items() if k != "log"}
        steps += 1
    assert steps > 3 and s["phase"] == "allies"


def test_a_play_out_stops_at_the_next_allies_round_within_its_budget() -> None:
    s = _boss_scene()
    done = ai_search.play_out(GAME, queries.clone(s), _hard_policy(), 1_000)
    assert done["phase"] == "allies" and done["eturn"] == s["eturn"] + 1
    short = ai_search.play_out(GAME, queries.clone(s), _hard_policy(), 1)
    assert short["eturn"] == s["eturn"]


def test_the_score_prefers_a_hurt_boss_and_a_whole_gate() -> None:
    s = _boss_scene()
    hurt = queries.clone(s)
    next(m for m in hurt["monsters"] if m["boss"])["hp"] -= 5
    assert ai_search.score(hurt) > ai_search.score(s)
    breached = queries.clone(s)
    breached["gate"] -= 2
    assert ai_search.score(breached) < ai_search.score(s)


def test_the_chase_candidate_steps_toward_the_boss_out_of_reach() -> None:
    """With `chase`, an ally the boss is out of reach of also tries the step that brings it nearest its reach."""
    s = scene()
    boss = add_monster(s, "vyrax", 20, boss=True)
    add_monster(s, "harpy", 40)
    midnight = add_hero(s, "midnight", open_square_at(s, lane_square(s, 40), 2))
    s["active"], midnight["ap"] = midnight["id"], 3
    legal = GAME.legal_actions(s, 0)
    step = ai._chase_step(legal, s, midnight)
    assert step is not None and step.kind in ("move", "exit")
    goal = queries.monster_square(s, boss)
    assert range_distance(ai._square_of(s, step), goal) < range_distance(square_of(midnight), goal)
    chasing = replace(ai.SEARCHING, chase=True)
    plain = ai._choose(legal, s, 0, Rng(0), chasing)
    assert step in ai._candidates(legal, s, plain, chasing)
    assert step not in ai._candidates(legal, s, plain, ai.SEARCHING)


def test_the_evaluation_tool_sets_the_look_ahead_in_memory() -> None:
    from tools import ka_ai_eval

    hard = ai.STYLES["hard"]
    try:
        ka_ai_eval.set_search(120, 3, 2, 5.0, True)
        assert ai.STYLES["hard"].search == ai_search.Budget(samples=3, steps=120, margin=5.0)
        assert ai.STYLES["hard"].candidates == 2 and ai.STYLES["hard"].chase
        ka_ai_eval.set_search(0, None, None)
        assert ai.STYLES["hard"].search is None
    finally:
        ai.STYLES["hard"] = hard
