"""The TypedDicts of rules/kings_armory/shapes.py say what the state, its figures and the view really hold: every key
a game writes is declared, and every declared key (but the optional ones) is there, all game long."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rules.base import SYSTEM
from rules.kings_armory import GAME, shapes
from rules.rng import Rng


def _keys(shape: Any) -> tuple[frozenset[str], frozenset[str]]:
    """(every key, the keys that may be missing) of a TypedDict; its annotations are strings (postponed)."""
    declared = frozenset(shape.__required_keys__ | shape.__optional_keys__)
    optional = frozenset(k for k, v in shape.__annotations__.items()
                         if str(getattr(v, "__forward_arg__", v)).startswith("NotRequired["))
    return declared, optional | frozenset(shape.__optional_keys__)


def _problems(name: str, value: Mapping[str, Any], shape: Any) -> list[str]:
    declared, optional = _keys(shape)
    return [f"{name}: {k} is not declared" for k in sorted(set(value) - declared)] + [
        f"{name}: {k} is missing" for k in sorted(declared - optional - set(value))]


def _state_problems(s: Mapping[str, Any]) -> list[str]:
    out = _problems("state", s, shapes.State)
    for a in s["allies"]:
        out += _problems(f"ally {a['id']}", a, shapes.Ally)
    for m in s["monsters"]:
        out += _problems(f"monster {m['id']}", m, shapes.Monster)
    for t in s["towers"]:
        out += _problems(f"tower {t['id']}", t, shapes.Tower)
    for g in s["gear"]:
        out += _problems(f"gear {g['id']}", g, shapes.GearPiece)
    for key, shape in (("act", shapes.Activation), ("ask", shapes.BlockQuestion), ("trade", shapes.Trade),
                       ("window", shapes.CardPause), ("reroll", shapes.Reroll)):
        if s[key] is not None:
            out += _problems(key, s[key], shape)
    return out


def _view_problems(view: Mapping[str, Any]) -> list[str]:
    out = _problems("view", view, shapes.View)
    out += [p for a in view["allies"] for p in _problems(f"ally view {a['id']}", a, shapes.AllyView)]
    out += [p for m in view["monsters"] for p in _problems(f"monster view {m['id']}", m, shapes.MonsterView)]
    out += [p for t in view["towers"] for p in _problems(f"tower view {t['id']}", t, shapes.TowerView)]
    return out + [p for g in view["gear"] for p in _problems(f"gear view {g['id']}", g, shapes.GearView)]


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (1, {"not_enough": "true", "arrival": "delayed"})])
def test_every_state_and_view_of_a_game_has_the_declared_keys(seats: int, options: dict[str, str]) -> None:
    s = GAME.new(GAME.resolve_options(options), seats, 11)
    rng = Rng.from_seed(11)
    seen: set[str] = set()
    for _ in range(400):
        assert _state_problems(s) == []
        assert _view_problems(GAME.view(s, None)) == []
        seen |= {k for k in ("act", "ask", "window", "reroll") if s[k] is not None} | {s["phase"]}
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, rng)
        s = GAME.apply(s, seat, action).state
    assert {"setup", "allies", "enemy", "act"} <= seen  # the walk went through the phases and a monster's move


def test_an_undeclared_or_missing_key_is_found() -> None:
    s = GAME.new(GAME.resolve_options({}), 1, 3)
    assert _state_problems(s) == []
    broken = {**s, "stray": 1}
    del broken["gold"]
    assert _state_problems(broken) == ["state: stray is not declared", "state: gold is missing"]
