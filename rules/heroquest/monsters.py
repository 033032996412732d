"""What a monster may still do on the game master's turn: move, act, and which heroes it can strike."""

from __future__ import annotations

from rules.heroquest import moves
from rules.heroquest.shapes import Hero, Monster
from rules.heroquest.state import HQState, as_square, hero_square


def can_act(m: Monster) -> bool:
    return m["revealed"] and not m["acted"] and not m["status"].get("sleep")


def can_move(m: Monster) -> bool:
    return m["revealed"] and not m["moved"] and not m["status"].get("sleep")


def attack_targets(s: HQState, m: Monster) -> list[Hero]:
    sq = as_square(m["sq"])
    return [h for h in s.on_board_heroes() if moves.adjacent_open(s, sq, hero_square(h))]
