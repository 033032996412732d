"""AI decision times per game and level (`python -m tools.bench --ai`): milliseconds per `ai_action` call."""

from __future__ import annotations

import time
from typing import Any

from rules.base import AI_LEVELS, SYSTEM, Game
from rules.rng import Rng


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def ai_figures(game: Game, seats: int, decisions: int, seed: int) -> dict[str, Any]:
    """p50/p99/max milliseconds (wall clock, and this thread's CPU time for p99) of the game's AI choosing a
    move, per level, over whole games where every seat is that AI ("ai": "none" for a game without AI seats)."""
    if not game.supports_ai:
        return {"ai": "none"}
    figures: dict[str, Any] = {}
    for level in AI_LEVELS:
        wall: list[float] = []
        cpu: list[float] = []
        rng = Rng.from_seed(seed)
        n = 0
        while len(wall) < decisions and n < 50:
            state = game.new(game.resolve_options({}), seats, seed + n)
            n += 1
            for _ in range(50_000):
                if game.outcome(state) is not None or len(wall) >= decisions:
                    break
                to_act = game.to_act(state)
                if not to_act:
                    break
                seat = min(to_act)
                if seat == SYSTEM:
                    state = game.apply(state, seat, game.system_action(state)).state
                    continue
                started, cpu_started = time.perf_counter_ns(), time.thread_time_ns()
                action = game.ai_action(state, seat, rng, level=level)
                wall.append((time.perf_counter_ns() - started) / 1e6)
                cpu.append((time.thread_time_ns() - cpu_started) / 1e6)
                state = game.apply(state, seat, action).state
        figures[level] = {"ai_ms_p50": round(_percentile(wall, 50), 2), "ai_ms_p99": round(_percentile(wall, 99), 2),
                          "ai_cpu_ms_p99": round(_percentile(cpu, 99), 2), "ai_ms_max": round(max(wall, default=0), 2),
                          "decisions": len(wall)}
    return figures
