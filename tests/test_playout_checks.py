"""The contract checks catch what they promise to catch: a leaky view, a leaky event, a mutating apply."""

from __future__ import annotations

from typing import Any

from rules.base import Action, Event, Step
from rules.text import msg
from tests.tinygame import TinyGame, TinyState
from tools.playout import leaks, playout


class LeakyView(TinyGame):
    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        data = super().view(state, seat)
        data["all_hands"] = state.hands
        return data


class LeakyEvent(TinyGame):
    def apply(self, state: TinyState, seat: int, action: Action) -> Step:
        step = super().apply(state, seat, action)
        if action.kind == "end" and step.state.hands[seat]:
            step.events.append(Event(msg("core.log.start", card=step.state.hands[seat][-1])))
        return step


class Mutating(TinyGame):
    def apply(self, state: TinyState, seat: int, action: Action) -> Step:
        state.target += 0 if action.kind == "play" else 1
        return super().apply(state, seat, action)


def test_honest_game_passes() -> None:
    result = playout(TinyGame(), seats=3, seed=4, max_actions=200)
    assert result.errors == [] and result.invariant_failures == []


def test_a_view_showing_other_hands_is_caught() -> None:
    game = LeakyView()
    assert any("view of" in p for p in leaks(game, game.new({}, 2, 1)))


def test_an_event_naming_a_drawn_card_publicly_is_caught() -> None:
    result = playout(LeakyEvent(), seats=2, seed=2, max_actions=200)
    assert any("event" in p for p in result.invariant_failures)


def test_an_apply_that_mutates_its_input_is_caught() -> None:
    result = playout(Mutating(), seats=2, seed=2, max_actions=200)
    assert any("mutated" in e for e in result.errors)
