"""What a monster may still do on the game master's turn: move, act, and which heroes it can strike."""

from __future__ import annotations

from typing import Any

from rules.heroquest import moves
from rules.heroquest.state import HQState, tsq


def can_act(m: dict[str, Any]) -> bool:
    return m["revealed"] and not m["acted"] and not m["status"].get("sleep")


def can_move(m: dict[str, Any]) -> bool:
    return m["revealed"] and not m["moved"] and not m["status"].get("sleep")


def attack_targets(s: HQState, m: dict[str, Any]) -> list[dict[str, Any]]:
    sq = tsq(m["sq"])
    return [h for h in s.on_board_heroes() if moves.adjacent_open(s, sq, tsq(h["sq"]))]
