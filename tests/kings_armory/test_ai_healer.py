"""The hard AI's healer and stuck allies (issue 23, seventh pass): Felicity heals the most hurt in her reach,
heroes first, and calls her Guardian beside the boss's exit as the boss comes to it (a boss strikes an ally in its
reach before the Gate); an ally owing an attack with nothing worth doing steps toward the front monster."""

from __future__ import annotations

from rules.base import Action
from rules.kings_armory import GAME, ai, queries
from rules.kings_armory.board import board, range_distance
from rules.kings_armory.shapes import Ally, State
from rules.rng import Rng

from .helpers import add_champion, add_hero, add_monster, lane_square, open_square_at, scene


def _choose(s: State, level: str, seat: int = 0) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1), level)


def _healer_scene() -> tuple[State, Ally, Ally, Ally]:
    """Felicity active with a hurt archer (listed first) and a hurt Ember beside her, a monster far off."""
    s = scene()
    add_monster(s, "goblin_raider", 2)
    spot = open_square_at(s, lane_square(s, 30), 3)
    archer = add_champion(s, "archer", open_square_at(s, spot, 1))
    ember = add_hero(s, "ember", open_square_at(s, spot, 1, avoid=(queries.pos(archer) or (0, 0),)))
    felicity = add_hero(s, "felicity", spot)
    archer["hp"], ember["hp"] = 1, 8  # both miss 6
    s["active"], felicity["ap"] = felicity["id"], 3
    return s, felicity, ember, archer


def test_hard_heals_the_hurt_hero_before_a_champion_where_normal_heals_the_first_listed() -> None:
    s, _, ember, archer = _healer_scene()
    hard, normal = _choose(s, "hard"), _choose(s, "normal")
    assert hard == Action.of("special", opt="touch", target=ember["id"]), hard
    assert normal == Action.of("special", opt="touch", target=archer["id"]), normal


def test_hard_heals_nobody_once_a_wave_has_lasted_stall_turn_enemy_turns() -> None:
    """A boss nobody can hurt, held at its exit by a healed Guardian, would never end the game."""
    s, _, _, _ = _healer_scene()
    s["eturn"] = ai.STALL_TURN
    assert _choose(s, "hard").kind != "special"


def _exit_scene(left: int) -> tuple[State, Ally]:
    """Taurok (Mv 5) `left` squares before its exit; Felicity active three squares before the other lane's exit."""
    s = scene()
    b = board(s["map"])
    lane = b.lanes["L"]
    add_monster(s, "taurok", len(lane) - 1 - left, boss=True)
    felicity = add_hero(s, "felicity", b.lanes["R"][-4])
    s["active"], felicity["ap"] = felicity["id"], 3
    return s, felicity


def test_hard_calls_the_guardian_beside_the_exit_the_boss_reaches_on_its_next_turn() -> None:
    s, _ = _exit_scene(left=4)
    move = _choose(s, "hard")
    assert move.kind == "special" and move["opt"] == "guardian", move
    sq = board(s["map"]).parse(str(move["to"]))
    assert sq is not None and range_distance(sq, board(s["map"]).lanes["L"][-1]) <= 1
    assert not (_choose(s, "normal").kind == "special" and _choose(s, "normal")["opt"] == "guardian")


def test_hard_keeps_the_guardian_while_the_boss_is_more_than_a_move_from_its_exit() -> None:
    s, _ = _exit_scene(left=12)
    move = _choose(s, "hard")
    assert not (move.kind == "special" and move["opt"] == "guardian"), move


def test_hard_steps_toward_the_front_monster_when_its_only_attack_would_hit_a_friend() -> None:
    """Ember owes an attack (at least one a round) and only her Rain of Arrows (range 7) reaches the monster, with a
    friend beside it: she steps into her Longbow's reach (6) instead of making the first legal move."""
    s = scene(seats=2)
    b = board(s["map"])
    mon = add_monster(s, "goblin_raider", 30)
    target = queries.monster_square(s, mon)
    add_champion(s, "foot", open_square_at(s, target, 1), seat=1)
    ember = add_hero(s, "ember", open_square_at(s, target, 7))
    s["active"], ember["ap"] = ember["id"], 4
    assert not any(la.action.kind == "end" for la in GAME.legal_actions(s, 0))
    move = _choose(s, "hard")
    assert move.kind == "move", move
    sq = b.parse(str(move["to"]))
    assert sq is not None and range_distance(sq, target) <= 6, move
