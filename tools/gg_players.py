"""Simple Gorgasali players to measure the bots against: the aggressive fighter (closes in, shoots on sight) and
the aggressive looter (the same, also opening chests, drinking potions and reloading)."""

from __future__ import annotations

from typing import Any

from rules.base import Action, Game
from rules.gorgasali.board import board_of
from rules.gorgasali.engine import enemies
from rules.rng import Rng


def _nearest_enemy_square(state: Any, seat: int) -> int | None:
    board = board_of(state["board"])
    here = state["players"][seat]["pos"]
    foes = [p["pos"] for p in state["players"]
            if p["alive"] and p["pos"] is not None and enemies(state, seat, p["seat"])]
    return min(foes, key=lambda q: board.dist(here, q), default=None)


def aggressive(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    """Shoots whenever it can (a weapon, a throw or an ability aimed at the weakest enemy in reach, rolling again
    the dice of 3 or less), and otherwise rolls and steps toward the nearest enemy; every other choice (its
    character, chests, potions, reloading, where loot goes, a trade, when to end its turn) it makes at random
    among the legal moves."""
    legal = game.legal_actions(state, seat)
    by: dict[str, list[Action]] = {}
    for la in legal:
        by.setdefault(la.action.kind, []).append(la.action)
    aimed = [a for kind in ("shoot", "throw", "ability") for a in by.get(kind, [])
             if a.get("target") is not None and enemies(state, seat, a["target"])]
    if aimed:
        return min(aimed, key=lambda a: (state["players"][a["target"]]["hp"], a.kind != "shoot"))
    if "reroll" in by:  # the dice of a shot: roll again every die that shows 3 or less
        faces = state["t"]["shot"]["faces"]
        return Action.of("reroll", dice=[i for i, f in enumerate(faces) if f <= 3])
    if "roll" in by:
        return by["roll"][0]
    if "step" in by:
        board = board_of(state["board"])
        goal = _nearest_enemy_square(state, seat)
        here = state["players"][seat]["pos"]
        if goal is None:
            return rng.choice(by["step"])

        def closer(a: Action) -> tuple[int, int]:
            to = board.step(here, a["dir"])
            return (board.dist(to, goal) if to is not None else 1 << 30), rng.below(8)

        return min(by["step"], key=closer)
    return rng.choice(legal).action


def aggressive_looter(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    """The aggressive fighter that also opens a chest it stands on, drinks a potion under half health, reloads
    an empty weapon (with an ammunition card first) and ends its turn instead of choosing at random."""
    legal = game.legal_actions(state, seat)
    kinds = {la.action.kind: la.action for la in legal}
    me = state["players"][seat]
    if "chest" in kinds:
        return kinds["chest"]
    if "potion" in kinds and me["hp"] <= 50:
        return kinds["potion"]
    if "ammo" in kinds and any(w in state["unloaded"] for w in me["mat"]["weapon"]["a"]):
        return kinds["ammo"]
    choice = aggressive(game, state, seat, rng)
    if choice.kind in ("shoot", "throw", "ability", "reroll", "roll", "step"):
        return choice
    for kind in ("stop", "reload", "end"):
        if kind in kinds:
            return kinds[kind]
    return choice
