"""Measures HeroQuest's monster autoplay per AI level: a game master who hands every monster turn to the autoplay,
against heroes played by random legal moves (`python -m tools.hq_ai_eval --games 100 --seed 1000`).

What "beats" means here: the monsters of two levels play the same quest on the same seed, against heroes whose
moves are drawn the same way; the higher level beats the lower on that seed when its monsters take more Body
points from the heroes (a fallen hero counts all of its Body) by the end of the quest or of `--rounds` rounds.
Ties count half."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

from rules.base import AI_LEVELS, Action, Game
from rules.heroquest import GAME
from rules.rng import Rng
from tools.playout import Policy, play, report

GM = 0
#: Seats: the game master and one player running the heroes.
SEATS = 2
#: Moves per game at most (a quest against random heroes rarely ends by itself).
MAX_ACTIONS = 1500


def game_master(level: str) -> Policy:
    """Hands each monster turn to the autoplay at `level`, then ends the turn; answers anything else at random."""
    def choose(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        auto = game.at_ai_level(Action.of("gm_autoplay"), level)
        legal = game.legal_actions(state, seat)
        kinds = {la.action.kind for la in legal}
        if "gm_autoplay" in kinds and game.is_legal(state, seat, auto):
            return auto
        if "end_turn" in kinds:
            return Action.of("end_turn")
        plain = [la for la in legal if la.action.kind != "gm_end_quest"] or legal
        return rng.choice(plain).action
    return choose


def body_taken(state: Any) -> int:
    """Body points the heroes have lost (a fallen hero all of its Body)."""
    return sum(h["max_body"] if h["dead"] else h["max_body"] - h["body"] for h in state.heroes)


def damage(level: str, seed: int, max_actions: int = MAX_ACTIONS) -> tuple[int, str]:
    """Body the monsters at `level` took on this seed, and how the game ended."""
    played = play(GAME, seats=SEATS, seed=seed, policies={GM: game_master(level)}, max_actions=max_actions)
    return body_taken(played.state), played.end


def levels_against(low: str, high: str, *, games: int, seed: int, max_actions: int = MAX_ACTIONS,
                   out: Any = None) -> dict[str, Any]:
    """`high` against `low`, seed by seed: the level whose monsters took more Body wins the seed (ties half)."""
    wins: Counter[str] = Counter({high: 0, low: 0, "tie": 0})
    taken: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for i in range(games):
        (a, end_a), (b, end_b) = damage(high, seed + i, max_actions), damage(low, seed + i, max_actions)
        ends.update((end_a, end_b))
        taken[high] += a
        taken[low] += b
        wins[high if a > b else low if b > a else "tie"] += 1
    return report("heroquest", games, seed, wins, ends, out=out, players=[high, low],
                  body_taken={k: round(v / games, 2) for k, v in taken.items()},
                  beats=round((wins[high] + wins["tie"] / 2) / games, 4))


def turns_against(low: str, high: str, *, games: int, seed: int, max_actions: int = MAX_ACTIONS,
                  out: Any = None) -> dict[str, Any]:
    """Monster turn by monster turn: along games whose monsters play at "normal", each monster turn is played from
    the same state (the same dice) at `high` and at `low`; the level that takes more Body from the heroes in that
    turn wins it. Turns where both take the same are ties (most turns: no monster near a hero)."""
    wins: Counter[str] = Counter({high: 0, low: 0, "tie": 0})
    ends: Counter[str] = Counter()
    auto = Action.of("gm_autoplay")
    for i in range(games):
        state = GAME.new(GAME.resolve_options({}), SEATS, seed + i)
        rng = Rng.from_seed((seed + i) * 7919 + 17)
        gm = game_master("normal")
        for _ in range(max_actions):
            outcome = GAME.outcome(state)
            if outcome is not None:
                ends[outcome.summary.key] += 1
                break
            seat = min(GAME.to_act(state))
            if seat == GM and GAME.is_legal(state, GM, auto):
                before = body_taken(state)
                taken = {lv: body_taken(GAME.apply(state, GM, GAME.at_ai_level(auto, lv)).state) - before
                         for lv in (high, low)}
                wins[high if taken[high] > taken[low] else low if taken[low] > taken[high] else "tie"] += 1
            action = gm(GAME, state, seat, rng) if seat == GM else rng.choice(GAME.legal_actions(state, seat)).action
            state = GAME.apply(state, seat, action).state
        else:
            ends["limit"] += 1
    decided = wins[high] + wins[low]
    return report("heroquest", games, seed, wins, ends, out=out, players=[high, low], measure="monster turns",
                  beats_decided=round(wins[high] / decided, 4) if decided else None)


def ladder(games: int, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    for low, high in itertools.pairwise(AI_LEVELS):
        yield f"monsters {high} vs {low}", levels_against(low, high, games=games, seed=seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS)
    args = parser.parse_args(argv)
    for low, high in itertools.pairwise(AI_LEVELS):
        levels_against(low, high, games=args.games, seed=args.seed, max_actions=args.max_actions, out=sys.stdout)
        turns_against(low, high, games=args.games, seed=args.seed, max_actions=args.max_actions, out=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
