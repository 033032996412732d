"""The scripted hero player the AI evaluations measure the monsters against (tools/hq_heroes.py)."""

from __future__ import annotations

from rules.base import Action
from rules.heroquest import GAME
from rules.heroquest.quest import PlacedJson
from rules.heroquest.state import HQState, parse_sq
from rules.rng import Rng
from tests.heroquest.hq_helpers import door, fresh, monster, new, put
from tools.hq_heroes import hero_action


def _steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _barbarian_alone(objects: list[PlacedJson], at: tuple[int, int]) -> HQState:
    s = new(objects)
    put(s, "barbarian", at)
    put(s, "dwarf", None)
    return fresh(s)


def test_it_attacks_a_monster_beside_it() -> None:
    s = _barbarian_alone([monster("m_1", "goblin", (2, 3))], (2, 2))
    action = hero_action(GAME, s, 1, Rng.from_seed(1))
    assert action.kind == "attack" and action.get("target") == "goblin_1" and not action.get("fists")


def test_it_walks_up_to_a_monster_it_has_seen() -> None:
    s = _barbarian_alone([monster("m_1", "goblin", (3, 4))], (1, 1))
    action = hero_action(GAME, s, 1, Rng.from_seed(1))
    assert action.kind == "move"
    to = parse_sq(action.get("to"))
    assert to is not None and _steps(to, (3, 4)) == 1


def test_with_no_monster_in_sight_it_heads_for_the_unexplored_and_opens_the_door() -> None:
    s = _barbarian_alone([door("door_1", (2, 4), (2, 5))], (1, 1))
    action = hero_action(GAME, s, 1, Rng.from_seed(1))
    assert action.kind == "move" and parse_sq(action.get("to")) == (2, 4)
    s = GAME.apply(s, 1, action).state
    assert hero_action(GAME, s, 1, Rng.from_seed(1)) == Action.of("open_door", door="door_1")


def test_what_it_plays_is_always_legal_over_a_whole_quest() -> None:
    from tools.hq_ai_eval import game_master
    from tools.playout import play

    start = GAME.new(GAME.resolve_options({"rounds": "4"}), 2, 3)
    played = play(GAME, seats=2, seed=3, policies={0: game_master("normal"), 1: hero_action},
                  options={"rounds": 4}, max_actions=3000)
    assert played.end == "hq.outcome.lose"  # the round limit, reached without an illegal move
    assert played.state.d["rev"].count("1") > start.d["rev"].count("1")  # the heroes went exploring


def test_beside_a_closed_door_it_opens_it_before_walking_off_to_another() -> None:
    # it used to walk off toward the other door (a goal elsewhere), then could not move back: heroes paced for the
    # rest of the game without ever opening either, and the monsters behind never met them
    s = _barbarian_alone([door("door_1", (2, 4), (2, 5)), door("door_2", (1, 1), (0, 1))], (2, 4))
    assert hero_action(GAME, s, 1, Rng.from_seed(1)) == Action.of("open_door", door="door_1")
