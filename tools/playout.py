"""Random legal playouts through the engine contract, checking every promise the contract makes."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.base import SYSTEM, Action, Game, LegalAction, RuleError
from rules.rng import Rng
from rules.text import msg

Chooser = Callable[[Game, Any, int, Rng], Action]


@dataclass
class PlayoutResult:
    actions: int = 0
    finished: bool = False
    errors: list[str] = field(default_factory=list)
    invariant_failures: list[str] = field(default_factory=list)
    winners: tuple[int, ...] = ()


def random_chooser(game: Game, state: Any, seat: int, rng: Rng) -> Action:
    return rng.choice(game.legal_actions(state, seat)).action


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def json_strings(data: Any) -> set[str]:
    """Every string of `data` as JSON would write it: keys, string values, and other objects as `str`."""
    found: set[str] = set()
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(k if isinstance(k, str) else str(k) for k in item)
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
        elif item is not None and not isinstance(item, (int, float, bool)):
            found.add(str(item))
    return found


def leaks(game: Game, state: Any, events: list[Any] | None = None) -> list[str]:
    """Secret strings that a seat or the spectator can see without being allowed to.

    A token counts as seen when it is a whole JSON string (a value or a key) of the view or event; each
    view is read once into a set, so a game may declare thousands of secrets (every card of a deck).
    """
    tokens = game.secret_tokens(state)
    if not tokens:
        return []
    problems = []
    event_strings = [(event, json_strings(event.msg.to_json())) for event in events or ()]
    for viewer in [None, *range(_seat_count(game, state))]:
        forbidden = {t for t, allowed in tokens.items() if viewer is None or viewer not in allowed}
        if not forbidden:
            continue
        seen = forbidden & json_strings(game.view(state, viewer))
        if seen:
            problems.append(f"view of {viewer} shows secret {sorted(seen)[:3]}")
        for event, strings in event_strings:
            if event.visible_to(viewer):
                shown = forbidden & strings
                if shown:
                    problems.append(f"event {event.msg.key} visible to {viewer} shows secret {sorted(shown)[:3]}")
    return problems


def _seat_count(game: Game, state: Any) -> int:
    count = getattr(state, "seats", None)
    if isinstance(count, int):
        return count
    return game.seat_count(state)


def _new(game: Game, options: Mapping[str, Any], seats: int, seed: int, setup: Mapping[str, Any] | None) -> Any:
    return game.new(options, seats, seed) if setup is None else game.new_with_setup(setup, options, seats, seed)


def playout(game: Game, *, seats: int, seed: int, options: Mapping[str, Any] | None = None,
            max_actions: int = 5000, check_all_every: int = 0, chooser: Chooser = random_chooser,
            deep: bool = True, setup: Mapping[str, Any] | None = None) -> PlayoutResult:
    """Play one game with random legal moves; `deep` runs the expensive contract checks each step. `setup` is
    what `setup_from_upload` made of a file attached to `/game new` (a quest, a map)."""
    result = PlayoutResult()
    resolved = game.resolve_options({k: str(v) for k, v in (options or {}).items()})
    rng = Rng.from_seed(seed * 7919 + 17)
    try:
        state = _new(game, resolved, seats, seed, setup)
    except RuleError as exc:
        result.errors.append(f"new failed: {exc.reason.key}")
        return result
    initial = canonical(game.to_json(state))
    log: list[tuple[int, Action]] = []
    result.invariant_failures += game.check_invariants(state)
    if deep:
        result.invariant_failures += leaks(game, state)
    for step_no in range(max_actions):
        outcome = game.outcome(state)
        if outcome is not None:
            result.finished = True
            result.winners = tuple(sorted(outcome.winners))
            break
        to_act = sorted(game.to_act(state))
        if not to_act:
            result.errors.append(f"step {step_no}: nobody may act but the game is not over")
            break
        seat = rng.choice(to_act)
        if seat == SYSTEM:  # the game moves by itself: its own step, checked like any other
            legal = [LegalAction(game.system_action(state), msg("core.seat.system"))]
        else:
            legal = game.legal_actions(state, seat)
        if not legal:
            result.errors.append(f"step {step_no}: seat {seat} must act but has no legal action")
            break
        if deep:
            for la in legal:
                if Action.from_token(la.action.token()) != la.action:
                    result.errors.append(f"token round trip failed for {la.action}")
            # is_legal may cost as much as listing; a few sampled actions a step cover the list over a game.
            for la in (legal[rng.below(len(legal))] for _ in range(min(3, len(legal)))):
                if seat != SYSTEM and not game.is_legal(state, seat, la.action):
                    result.errors.append(f"listed action {la.action.token()} is not is_legal")
            if check_all_every and step_no % check_all_every == 0:
                for la in legal:
                    try:
                        game.apply(state, seat, la.action)
                    except Exception as exc:
                        result.errors.append(f"listed action {la.action.token()} failed: {exc!r}")
        try:
            action = legal[0].action if seat == SYSTEM else chooser(game, state, seat, rng)
        except Exception as exc:
            result.errors.append(f"step {step_no}: chooser failed: {exc!r}")
            break
        before = canonical(game.to_json(state)) if deep else ""
        try:
            step = game.apply(state, seat, action)
        except Exception as exc:
            result.errors.append(f"step {step_no}: {action.token()} failed: {exc!r}")
            break
        result.actions += 1
        log.append((seat, action))
        if deep and canonical(game.to_json(state)) != before:
            result.errors.append(f"step {step_no}: apply mutated its input state ({action.token()})")
        state = step.state
        result.invariant_failures += [f"step {step_no}: {p}" for p in game.check_invariants(state)]
        if deep:
            data = game.to_json(state)
            if canonical(game.to_json(game.from_json(json.loads(canonical(data))))) != canonical(data):
                result.errors.append(f"step {step_no}: JSON round trip changed the state")
            result.invariant_failures += [f"step {step_no}: {p}" for p in leaks(game, state, step.events)]
        if len(result.errors) + len(result.invariant_failures) > 20:
            break
    if deep and not result.errors:
        replayed = _new(game, resolved, seats, seed, setup)
        if canonical(game.to_json(replayed)) != initial:
            result.errors.append("new() is not deterministic for the same seed")
        for seat, action in log:
            replayed = game.apply(replayed, seat, action).state
        if canonical(game.to_json(replayed)) != canonical(game.to_json(state)):
            result.errors.append("replaying the action log did not reproduce the state")
    return result


# ---------------------------------------------------------------- the evaluation loop (AI measurements)

#: A player for the evaluation loop: (game, state, seat, rng) -> the move it makes.
Policy = Callable[[Game, Any, int, Rng], Action]


def ai_player(level: str = "normal") -> Policy:
    """The game's own AI at `level`, as a policy."""
    def choose(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        return game.ai_action(state, seat, rng, level=level)
    return choose


#: Sees one move of an evaluation game: (the state before, the seat that moved, its move, the state after).
Watcher = Callable[[Any, int, Action, Any], None]


@dataclass
class Played:
    """How one evaluation game ended: the winning seats, why it ended and how many moves it took."""

    winners: tuple[int, ...]
    #: The key of the outcome's summary (how the game was won), "limit" when `max_actions` ran out, "stuck" when
    #: nobody could act.
    end: str
    actions: int
    state: Any = None


def play(game: Game, *, seats: int, seed: int, levels: Mapping[int, str] | None = None,
         policies: Mapping[int, Policy] | None = None, default: Policy = random_chooser,
         options: Mapping[str, Any] | None = None, setup: Mapping[str, Any] | None = None,
         max_actions: int = 50_000, watch: Watcher | None = None) -> Played:
    """One game as the evaluation tools play it: the game's own step when it acts (`SYSTEM`), else the game's AI
    at the seat's level (`levels`), else the seat's policy (`policies`), else `default` (random legal moves).
    The lowest seat on turn acts first, and every policy draws from one generator seeded from `seed`, so a
    game depends only on its seed and its players. `watch`, when given, sees every move made (a tool that
    explains how games went, not only who won)."""
    resolved = game.resolve_options({k: str(v) for k, v in (options or {}).items()})
    state = _new(game, resolved, seats, seed, setup)
    rng = Rng.from_seed(seed * 7919 + 17)
    levels, policies = dict(levels or {}), dict(policies or {})
    for count in range(max_actions):
        outcome = game.outcome(state)
        if outcome is not None:
            return Played(tuple(sorted(outcome.winners)), outcome.summary.key, count, state)
        to_act = game.to_act(state)
        if not to_act:
            return Played((), "stuck", count, state)
        seat = min(to_act)
        if seat == SYSTEM:
            action = game.system_action(state)
        elif seat in levels:
            action = game.ai_action(state, seat, rng, level=levels[seat])
        else:
            action = policies.get(seat, default)(game, state, seat, rng)
        after = game.apply(state, seat, action).state
        if watch is not None:
            watch(state, seat, action, after)
        state = after
    return Played((), "limit", max_actions, state)


def report(game: str, games: int, seed: int, wins: Mapping[str, int], ends: Mapping[str, int],
           out: Any = None, **extra: Any) -> dict[str, Any]:
    """The one JSON every evaluation tool prints: {"game", "games", "seed", "wins", "rates", "ends", ...}; `wins`
    counts the games each side won (by name), `ends` how the games ended (outcome keys, "limit", "stuck").
    Written as one line to `out` when given."""
    data: dict[str, Any] = {"game": game, "games": games, "seed": seed, "wins": dict(wins),
                            "rates": {k: round(v / games, 4) if games else 0.0 for k, v in wins.items()},
                            "ends": dict(sorted(ends.items())), **extra}
    if out is not None:
        out.write(json.dumps(data) + "\n")
    return data
