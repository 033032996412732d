"""The engine contract, checked the same way over every registered game with random playouts."""

from __future__ import annotations

import pytest

from rules import registry
from tools.playout import playout

GAMES = sorted(registry.games())


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_keep_the_contract(game_id: str, seed: int) -> None:
    game = registry.get(game_id)
    assert game is not None, game_id
    for seats in sorted({game.min_seats, min(game.max_seats, max(game.min_seats, 4))}):
        result = playout(game, seats=seats, seed=seed, max_actions=300, check_all_every=10)
        assert result.errors == [], result.errors[:5]
        assert result.invariant_failures == [], result.invariant_failures[:5]
        assert result.actions > 0


def test_tiny_game_is_registered_for_tests() -> None:
    assert "tiny" in GAMES
