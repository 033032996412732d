"""Standing block orders (§4.3): an ally blocks whenever it can, never blocks, or has its player asked."""

from __future__ import annotations

from rules.base import SYSTEM, Action
from rules.kings_armory import GAME, queries
from rules.kings_armory.board import range_distance
from rules.kings_armory.shapes import Ally, Monster, State
from rules.text import Msg

from .helpers import add_champion, add_hero, add_monster, lane_square, open_square_at, scene, square_of


def _enemy_scene(seats: int = 1) -> tuple[State, Monster, Ally]:
    s = scene(seats=seats)
    s.update({"phase": "enemy", "eturn": 2, "turn": -1})
    orc = add_monster(s, "orc_warrior", 10)
    soldier = add_champion(s, "foot", open_square_at(s, lane_square(s, 12), 1), seat=seats - 1)
    add_hero(s, "valcor", (0, 0))
    return s, orc, soldier


def _run_enemy(s: State) -> list[Msg]:
    """Steps the enemy turn until it ends; fails if anyone is asked to block."""
    said: list[Msg] = []
    for _ in range(400):
        assert s["ask"] is None, "a standing order should have answered the block window"
        if s["phase"] != "enemy":
            return said
        step = GAME.apply(s, SYSTEM, Action.of("step"))
        s.update(step.state)
        said += [e.msg for e in step.events]
    raise AssertionError("the enemy turn did not end")


def test_an_order_to_block_blocks_without_asking_where_the_window_would_open() -> None:
    s, orc, soldier = _enemy_scene()
    order = Action.of("order", ally=soldier["id"], mode="block")
    assert GAME.is_legal(s, 0, order)  # given during the enemy turn, not on turn
    s.update(GAME.apply(s, 0, order).state)
    assert queries.ally(s, soldier["id"])["order"] == "block"
    said = _run_enemy(s)
    assert any(m.key == "ka.ev.block_order" for m in said)
    stopped = next(m for m in s["monsters"] if m["id"] == orc["id"])
    assert range_distance(queries.monster_square(s, stopped), square_of(queries.ally(s, soldier["id"]))) <= 1


def test_an_order_to_let_pass_never_asks_and_the_monster_walks_on() -> None:
    s, orc, soldier = _enemy_scene()
    s.update(GAME.apply(s, 0, Action.of("order", ally=soldier["id"], mode="pass")).state)
    said = _run_enemy(s)
    assert not any(m.key in ("ka.ev.block", "ka.ev.block_order") for m in said)
    assert next(m for m in s["monsters"] if m["id"] == orc["id"])["i"] == 13  # as when the player lets it pass


def test_asking_is_the_default_and_an_order_can_be_taken_back() -> None:
    s, _, soldier = _enemy_scene()
    s.update(GAME.apply(s, 0, Action.of("order", ally=soldier["id"], mode="pass")).state)
    s.update(GAME.apply(s, 0, Action.of("order", ally=soldier["id"], mode="ask")).state)
    for _ in range(40):
        if s["ask"] is not None:
            break
        s.update(GAME.apply(s, SYSTEM, Action.of("step")).state)
    assert s["ask"] is not None and s["ask"]["ally"] == soldier["id"]


def test_orders_are_refused_for_someone_elses_ally_an_unknown_mode_or_the_current_one() -> None:
    s, _, soldier = _enemy_scene(seats=2)  # the soldier belongs to seat 1
    refused = [Action.of("order", ally=soldier["id"], mode="block"),  # seat 0 does not own it
               Action.of("order", ally="nobody", mode="block"),
               Action.of("order", ally=soldier["id"], mode="sometimes"),
               Action.of("order", ally=soldier["id"], mode=3)]
    for action in refused:
        assert not GAME.is_legal(s, 0, action)
        assert GAME.why_illegal(s, 0, action) == Msg("ka.why.order", {})
    assert not GAME.is_legal(s, 1, Action.of("order", ally=soldier["id"], mode="ask"))  # already asking
    assert GAME.is_legal(s, 1, Action.of("order", ally=soldier["id"], mode="block"))
    assert {la.action["mode"] for la in GAME.anytime_actions(s, 1) if la.action.kind == "order"} == {"block", "pass"}


def test_the_view_shows_every_allys_order() -> None:
    s, _, soldier = _enemy_scene()
    s.update(GAME.apply(s, 0, Action.of("order", ally=soldier["id"], mode="block")).state)
    shown = {a["id"]: a["order"] for a in GAME.view(s, 0)["allies"]}
    assert shown[soldier["id"]] == "block" and set(shown.values()) <= {"ask", "block"}
