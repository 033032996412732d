"""Gorgasali bots at each AI level, and the aggressive fighters they are measured against."""

from __future__ import annotations

import pytest

from rules.base import Action, Game
from rules.gorgasali import GAME
from rules.gorgasali import ai as AI
from rules.gorgasali.state import State
from rules.rng import Rng
from tests.gorgasali.helpers import give, play, setup, sq, to_after
from tools.gg_ai_eval import bot_against, levels_against
from tools.gg_players import aggressive, aggressive_looter
from tools.playout import playout


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bots_of_every_level_play_whole_games(level: str) -> None:
    def bot(game: Game, state: State, seat: int, rng: Rng) -> Action:
        action = game.ai_action(state, seat, rng, level=level)
        assert game.is_legal(state, seat, action), action
        return action

    result = playout(GAME, seats=4, seed=21, chooser=bot, deep=False, max_actions=20000)
    assert result.finished and result.errors == [] and result.invariant_failures == []


def test_weaker_levels_play_some_moves_at_random_and_normal_is_the_default() -> None:
    s = GAME.new(GAME.resolve_options({}), 4, 3)
    differs = 0
    for i in range(40):
        seat = min(GAME.to_act(s))
        if seat < 0:
            break
        assert GAME.ai_action(s, seat, Rng(i)) == GAME.ai_action(s, seat, Rng(i), level="normal")
        differs += GAME.ai_action(s, seat, Rng(i), level="easy") != GAME.ai_action(s, seat, Rng(i), level="normal")
        s = GAME.apply(s, seat, GAME.ai_action(s, seat, Rng(i))).state
    assert differs > 0
    assert AI.RANDOM_SHARE["easy"] > AI.RANDOM_SHARE["normal"] > AI.RANDOM_SHARE["hard"] == 0


def test_the_aggressive_fighter_shoots_the_weakest_enemy_in_reach() -> None:
    s = setup(["armazi", "ebue", "tharsis"], [(5, 1), (5, 3), (5, 4)])
    s["players"][1]["hp"], s["players"][2]["hp"] = 90, 40
    give(s, 0, "kbraus")  # range 3: both enemies in reach
    s = to_after(s, 0)
    shot = aggressive(GAME, s, 0, Rng(1))
    assert shot.kind == "shoot" and shot["target"] == 2


def test_the_aggressive_fighter_steps_toward_the_nearest_enemy() -> None:
    s = setup(["armazi", "ebue", "tharsis"], [(5, 5), (5, 9), (0, 0)])
    s = play(s, 0, "roll")
    first = aggressive(GAME, s, 0, Rng(1))
    assert first == Action.of("step", dir="E")  # Ebue, 4 squares east, is nearer than Tharsis
    assert aggressive_looter(GAME, s, 0, Rng(1)) == Action.of("chest")  # it opens its extra chest first
    s = play(s, 0, "chest")
    assert aggressive_looter(GAME, s, 0, Rng(1)) == aggressive(GAME, s, 0, Rng(1))


def test_the_evaluation_reports_bot_and_level_games() -> None:
    cell = bot_against("aggressive", games=2, seed=5, players=3)
    assert cell["game"] == "gorgasali" and sum(cell["wins"].values()) == 2 and cell["opponent"] == "aggressive"
    mixed = levels_against("normal", "hard", games=2, seed=5)
    assert set(mixed["wins"]) >= {"normal", "hard"} and sum(mixed["wins"].values()) == 2
    assert sq(setup(["armazi", "ebue"], [(0, 0), (1, 1)]), 1, 1) == 11
