"""Measures HeroQuest's monster autoplay per AI level: a game master who hands every monster turn to the autoplay,
against heroes played by the scripted player of `tools/hq_heroes.py` (or by random legal moves)
(`python -m tools.hq_ai_eval --games 100 --seed 1000 [--heroes random] [--versus]`).

Every game is one of the built-in quests (the seed picks it: seed % number of quests) played for `--rounds`
rounds; the game master never ends the quest, so the game ends at the round limit or when every hero is dead.
What the monsters achieved is their harm: (heroes killed, Body points the heroes lost), a fallen hero counting
all of its Body.

What "beats" means: the monsters of two levels play the same quest on the same seed against the same hero
player; the higher level beats the lower on that seed when its harm is greater (more heroes killed, or as many
killed and more Body taken). Ties count half. Against a hero player, the monsters "win" a game when at least one
hero dies."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter
from typing import Any

from rules.base import AI_LEVELS, Action, Game
from rules.heroquest import GAME
from rules.heroquest.quest import builtin_quests
from rules.rng import Rng
from tools.hq_heroes import hero_action
from tools.playout import Policy, play, random_chooser, report

GM = 0
#: Seats: the game master and one player running the heroes.
SEATS = 2
#: Rounds per game: the quest is lost for the heroes after these (a long quest's worth of fighting).
ROUNDS = 15
#: Moves per game at most (a safety net: the round limit ends games first).
MAX_ACTIONS = 5000
HEROES: dict[str, Policy] = {"scripted": hero_action, "random": random_chooser}


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


def autoplay_times(level: str, *, games: int, seed: int, rounds: int = ROUNDS) -> dict[str, Any]:
    """Milliseconds one monster turn of the autoplay takes at `level` (the `gm_autoplay` move applied, p50/p99/max
    of wall clock and of this thread's CPU time), over games against the scripted heroes."""
    wall: list[float] = []
    cpu: list[float] = []
    playing = game_master(level)

    def timed(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        action = playing(game, state, seat, rng)
        if action.kind == "gm_autoplay":
            w, c = time.perf_counter(), time.thread_time()
            game.apply(state, seat, action)
            cpu.append((time.thread_time() - c) * 1000)
            wall.append((time.perf_counter() - w) * 1000)
        return action

    for i in range(games):
        play(GAME, seats=SEATS, seed=seed + i, policies={GM: timed, 1: hero_action},
             options={"quest": quest_for(seed + i), "rounds": rounds}, max_actions=MAX_ACTIONS)
    return {"level": level, "turns": len(wall), "wall_ms_p50": _percentile(wall, 50),
            "wall_ms_p99": _percentile(wall, 99), "wall_ms_max": round(max(wall, default=0.0), 2),
            "cpu_ms_p99": _percentile(cpu, 99)}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))], 2) if ordered else 0.0


def body_taken(state: Any) -> int:
    """Body points the heroes have lost (a fallen hero all of its Body)."""
    return sum(h["max_body"] if h["dead"] else h["max_body"] - h["body"] for h in state.heroes)


def harm(state: Any) -> tuple[int, int]:
    """What the monsters achieved: (heroes killed, Body the heroes lost)."""
    return sum(1 for h in state.heroes if h["dead"]), body_taken(state)


def quest_for(seed: int) -> str:
    quests = list(builtin_quests())
    return quests[seed % len(quests)]


def game(level: str, seed: int, heroes: str = "scripted", rounds: int = ROUNDS,
         max_actions: int = MAX_ACTIONS) -> tuple[tuple[int, int], str]:
    """The monsters' harm at `level` on this seed against the `heroes` player, and how the game ended."""
    played = play(GAME, seats=SEATS, seed=seed, policies={GM: game_master(level), 1: HEROES[heroes]},
                  options={"quest": quest_for(seed), "rounds": rounds}, max_actions=max_actions)
    return harm(played.state), played.end


def against_heroes(level: str, *, games: int, seed: int, heroes: str = "scripted", rounds: int = ROUNDS,
                   out: Any = None) -> dict[str, Any]:
    """The monsters at `level` against the `heroes` player: they win a game when a hero dies."""
    wins: Counter[str] = Counter({"monsters": 0, "heroes": 0})
    ends: Counter[str] = Counter()
    killed = taken = 0
    for i in range(games):
        (dead, body), end = game(level, seed + i, heroes, rounds)
        ends[end] += 1
        killed += dead
        taken += body
        wins["monsters" if dead else "heroes"] += 1
    return report("heroquest", games, seed, wins, ends, out=out, players=[level, heroes], rounds=rounds,
                  heroes_killed=round(killed / games, 2) if games else 0.0,
                  body_taken=round(taken / games, 2) if games else 0.0)


def levels_against(low: str, high: str, *, games: int, seed: int, heroes: str = "scripted", rounds: int = ROUNDS,
                   out: Any = None) -> dict[str, Any]:
    """`high` against `low`, seed by seed: the level whose monsters did more harm wins the seed (ties half)."""
    wins: Counter[str] = Counter({high: 0, low: 0, "tie": 0})
    killed: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for i in range(games):
        (a, end_a), (b, end_b) = game(high, seed + i, heroes, rounds), game(low, seed + i, heroes, rounds)
        ends.update((end_a, end_b))
        for level, result in ((high, a), (low, b)):
            killed[level] += result[0]
            taken[level] += result[1]
        wins[high if a > b else low if b > a else "tie"] += 1
    per_game = max(games, 1)
    return report("heroquest", games, seed, wins, ends, out=out, players=[high, low], heroes=heroes, rounds=rounds,
                  heroes_killed={k: round(v / per_game, 2) for k, v in killed.items()},
                  body_taken={k: round(v / per_game, 2) for k, v in taken.items()},
                  beats=round((wins[high] + wins["tie"] / 2) / per_game, 4))


def versus(*, games: int, seed: int, heroes: str = "scripted", rounds: int = ROUNDS,
           out: Any = None) -> list[dict[str, Any]]:
    """Each level against the one below, as `levels_against` reports it, but every level plays each seed once
    (the middle level's games serve both pairs: two thirds of the games `levels_against` twice would play)."""
    results = {level: [game(level, seed + i, heroes, rounds) for i in range(games)] for level in AI_LEVELS}
    reports = []
    for low, high in itertools.pairwise(AI_LEVELS):
        wins: Counter[str] = Counter({high: 0, low: 0, "tie": 0})
        ends: Counter[str] = Counter()
        for (a, end_a), (b, end_b) in zip(results[high], results[low], strict=True):
            ends.update((end_a, end_b))
            wins[high if a > b else low if b > a else "tie"] += 1
        per_game = max(games, 1)
        reports.append(report(
            "heroquest", games, seed, wins, ends, out=out, players=[high, low], heroes=heroes, rounds=rounds,
            heroes_killed={lv: round(sum(r[0][0] for r in results[lv]) / per_game, 2) for lv in (high, low)},
            body_taken={lv: round(sum(r[0][1] for r in results[lv]) / per_game, 2) for lv in (high, low)},
            beats=round((wins[high] + wins["tie"] / 2) / per_game, 4)))
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--heroes", choices=sorted(HEROES), default="scripted")
    parser.add_argument("--timing", action="store_true", help="only the autoplay's time per monster turn and level")
    parser.add_argument("--versus", action="store_true",
                        help="only each level against the one below, every level playing each seed once")
    args = parser.parse_args(argv)
    if args.versus:
        versus(games=args.games, seed=args.seed, heroes=args.heroes, rounds=args.rounds, out=sys.stdout)
        return 0
    if args.timing:
        for level in AI_LEVELS:
            print(json.dumps(autoplay_times(level, games=args.games, seed=args.seed, rounds=args.rounds)), flush=True)
        return 0
    for level in AI_LEVELS:
        against_heroes(level, games=args.games, seed=args.seed, heroes=args.heroes, rounds=args.rounds,
                       out=sys.stdout)
    for low, high in itertools.pairwise(AI_LEVELS):
        levels_against(low, high, games=args.games, seed=args.seed, heroes=args.heroes, rounds=args.rounds,
                       out=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
