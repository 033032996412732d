"""The AI's levels (issue 23): `ai_action(..., level=)` plays easy, normal or hard; what each level does differently."""

from __future__ import annotations

import pytest

from rules.base import Action
from rules.kings_armory import GAME, ai, data, figures, queries
from rules.kings_armory.board import board
from rules.kings_armory.shapes import Ally, State
from rules.rng import Rng

from .helpers import (
    add_hero,
    add_monster,
    ai_to_the_end,
    lane_square,
    open_square_at,
    scene,
    tower_at_range,
)


def _choose(s: State, level: str, seat: int = 0) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1), level)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_plays_a_whole_game_with_legal_moves(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    original = GAME.ai_action
    monkeypatch.setattr(GAME, "ai_action", lambda s, seat, rng, lv=level: original(s, seat, rng, lv))
    s = ai_to_the_end(GAME.new(GAME.resolve_options({"map": "short-road"}), 2, 5), 5)
    assert GAME.outcome(s) is not None and s["wave"] >= 2


@pytest.mark.parametrize(("level", "seed", "seats"), [("easy", 21, 1), ("normal", 22, 3), ("hard", 23, 1),
                                                       ("hard", 24, 3)])
def test_more_seeds_and_table_sizes_play_legal_moves(level: str, seed: int, seats: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move checked legal (and every state against the invariants) over more seeds and team sizes."""
    original = GAME.ai_action
    monkeypatch.setattr(GAME, "ai_action", lambda s, seat, rng, lv=level: original(s, seat, rng, lv))
    s = ai_to_the_end(GAME.new(GAME.resolve_options({"map": "short-road"}), seats, seed), seed)
    assert GAME.outcome(s) is not None


def test_an_unknown_level_plays_normal() -> None:
    s = GAME.new(GAME.resolve_options({}), 1, 3)
    for _ in range(30):
        if 0 not in GAME.to_act(s):
            break
        assert _choose(s, "impossible") == _choose(s, "normal")
        s = GAME.apply(s, 0, _choose(s, "normal")).state


def _sheltered_ember(monsters: int = 6) -> tuple[State, Ally]:
    """Ember inside a tower, `monsters` monsters far out of her reach."""
    s = scene()
    for i in range(monsters):
        mon = add_monster(s, s["piles"]["1"][0], 2 + i)
    tid, sq = tower_at_range(s, lane_square(s, 40), 3)
    ember = add_hero(s, "ember", sq)
    ember.update({"house": tid, "inside": True})
    s["active"], ember["ap"] = ember["id"], figures.ally_card(ember)["ap"]
    assert not [la for la in GAME.legal_actions(s, 0) if la.action.kind == "attack"]
    assert mon["id"]
    return s, ember


def test_hard_keeps_a_shooting_hero_in_her_tower_where_normal_goes_out_after_the_monsters() -> None:
    s, _ember = _sheltered_ember()
    assert _choose(s, "normal").kind in ("move", "exit")
    assert _choose(s, "hard") == Action.of("end")


def test_hard_goes_out_after_five_monsters_or_fewer() -> None:
    """The behaviour rules: shooters «no es necesario salir de la seguridad de una torre … a menos que haya 5 o menos
    monstruos en el tablero» — and a boss holding the exit out of every tower's reach must still be fought."""
    s, _ember = _sheltered_ember(monsters=5)
    assert _choose(s, "hard").kind in ("move", "exit")


def test_hard_does_not_block_with_a_hurt_hero_but_normal_does() -> None:
    s = scene()
    mon = add_monster(s, "orc_warrior", 8)
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 8), 1))
    add_hero(s, "ember", (0, 0))
    s["ask"] = {"ally": valcor["id"], "mid": mon["id"]}
    block = Action.of("block", ally=valcor["id"], monster=mon["id"])
    assert _choose(s, "hard") == block  # healthy
    valcor["hp"] = 8
    assert _choose(s, "normal") == block
    assert _choose(s, "hard") == Action.of("pass")


def test_hard_plays_a_damaging_card_on_a_crowd_and_normal_never_plays_cards() -> None:
    s = scene()
    for i in (20, 21):
        add_monster(s, s["piles"]["2"][0], i, lane="L")
        add_monster(s, s["piles"]["2"][0], i, lane="R")
    add_hero(s, "valcor", (0, 0))
    s["rdeck"] = [k for k in s["rdeck"] if k != "powder_keg"]
    s["hand"] = ["powder_keg"]
    move = _choose(s, "hard")
    assert move.kind == "play" and move["card"] == "powder_keg"
    hp = sum(m["hp"] for m in s["monsters"])
    after = GAME.apply(s, 0, move).state
    assert sum(m["hp"] for m in after["monsters"]) < hp
    assert _choose(s, "normal").kind != "play"


def test_hard_keeps_a_card_when_it_would_do_little() -> None:
    s = scene()
    add_monster(s, "giant_rat", 5)
    add_hero(s, "valcor", (0, 0))
    s["rdeck"] = [k for k in s["rdeck"] if k != "powder_keg"]
    s["hand"] = ["powder_keg"]
    assert _choose(s, "hard").kind != "play"


def test_hard_puts_its_gold_in_levels_before_new_hires_where_normal_hires_first() -> None:
    s = GAME.new(GAME.resolve_options({}), 1, 1)
    s = GAME.apply(s, 0, Action.of("pick", hero="ember")).state
    while s["phase"] == "setup":
        s = GAME.apply(s, 0, _choose(s, "hard")).state
    s.update({"phase": "between", "gold": 1000, "ready": []})
    s = GAME.apply(s, 0, Action.of("hire", type="archer")).state
    archer = next(a for a in s["allies"] if a["kind"] == "champion")
    move = _choose(s, "hard")
    while move.kind in ("build", "place"):  # the towers it wants, and the new archer housed, come first
        s = GAME.apply(s, 0, move).state
        move = _choose(s, "hard")
    assert ai._spare(s) >= 1 and any(la.action.kind == "hire" for la in GAME.legal_actions(s, 0))
    assert move == Action.of("upgrade", ally=archer["id"])
    assert _choose(s, "normal").kind == "hire"
    assert data.champions()["archer"]["cost"][1] <= s["gold"]
    assert queries.board_of(s) is board(s["map"])



def _picked(level: str, seats: int = 3) -> list[str]:
    s = GAME.new(GAME.resolve_options({}), seats, 2)
    while s["phase"] == "pick":
        seat = min(GAME.to_act(s))
        s = GAME.apply(s, seat, _choose(s, level, seat)).state
    return [a["key"] for a in queries.heroes(s)]


def test_hard_takes_two_shooters_and_the_healer_where_normal_takes_the_tank() -> None:
    """Measured on seeds 0-9 (3 heroes, long road): Ember, Midnight and Felicity won 6 games, Valcor, Ember and
    Felicity 2 (a team that keeps its heroes inside the towers has no use for a tank)."""
    assert sorted(_picked("hard")) == ["ember", "felicity", "midnight"]
    assert sorted(_picked("normal")) == ["ember", "felicity", "valcor"]
    assert _picked("hard", seats=1) == ["ember"]
