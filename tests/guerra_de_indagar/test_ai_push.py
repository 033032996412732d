"""Issue 23, AI fifth pass: in its last rounds (`push_from` on) the hard level plays for points: it leaves the
monsters far from their victory alone and walks to the free resource tiles, builds while Helgoth has too few turns
left to win on its outposts, waives the action of a second build with its tree's ability (Engineers), and opens
the cage of a monster that is out of time. Normal plays as before."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.data import monsters
from rules.guerra_de_indagar.hexes import distance, unkey
from rules.guerra_de_indagar.moves import args_of
from rules.guerra_de_indagar.state import State
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import build_under_helgoth, clear_board, k, my_turn, put, started
from tools import gi_ai_eval

PUSH = ai.LEVELS["hard"].push_from


@contextmanager
def playing(level: str) -> Iterator[None]:
    """The AI's level for direct calls of its helpers (GAME.ai_action sets it for its own call)."""
    token = ai._LEVEL.set(ai.LEVELS[level])
    try:
        yield
    finally:
        ai._LEVEL.reset(token)


def test_only_hard_pushes_and_from_a_late_round() -> None:
    assert 1 < PUSH <= 10
    assert ai.LEVELS["normal"].push_from > 10 and ai.LEVELS["easy"].push_from > 10


def _far_helgoth(round_no: int) -> State:
    """Round `round_no`: Ariane (Arkland, 5 gold) at 1,1, Helgoth two steps off with one outpost taken (he hunts,
    far from his victory), a gold tile far the other way, Oryana gone."""
    s = clear_board(started(2, 1))
    s["round"] = round_no
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-1,3", "count": 1})
    s["tiles"]["3,-5"]["t"] = "gold"
    put(s, "ariane", "1,1")
    s["players"][0]["res"]["gold"] = 5
    return my_turn(s, 0, "ariane")


def _gap(s: State, action: Action, to: str) -> int:
    assert action.kind == "move", action
    return distance(unkey(k(s, args_of(action)["to"])), unkey(to))


def test_hard_leaves_a_monster_far_from_victory_to_walk_to_a_free_resource_tile_in_its_last_rounds() -> None:
    s = _far_helgoth(PUSH)
    hard = GAME.ai_action(s, 0, Rng.from_seed(1), level="hard")
    normal = GAME.ai_action(s, 0, Rng.from_seed(1), level="normal")
    assert _gap(s, hard, "3,-5") < distance(unkey("1,1"), unkey("3,-5"))  # toward the gold tile
    assert _gap(s, normal, "-1,3") == 1  # normal goes up to Helgoth
    s = _far_helgoth(PUSH - 1)  # before its last rounds hard hunts him too
    assert _gap(s, GAME.ai_action(s, 0, Rng.from_seed(1), level="hard"), "-1,3") == 1


def test_hard_builds_in_its_last_rounds_when_helgoth_has_too_few_turns_left_to_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s, seat = build_under_helgoth()
    for key in ("2,-2", "2,-1", "3,-3"):
        s["outposts"][key] = {"owner": seat, "level": 3, "dmg": 0, "dropped": False}
    for key in ("-3,5", "-3,6"):  # with the rival's two, hard's margin over Helgoth says no more
        s["outposts"][key] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    s["monsters"]["helgoth"]["at"] = "3,-6"  # out of Ariane's way
    turns = ai.MONSTER_TURNS * (10 - 9 + 1)  # round 9, all of his turns still to come
    paced = int(turns * ai.LEVELS["hard"].helgoth_pace)  # the outposts hard reckons he can still take
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - paced - 1  # one short even then
    s["round"] = 9
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") == Action.of("build")
    s["monsters"]["helgoth"]["count"] += 1  # at that pace he would now win the game
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("build")
    s["monsters"]["helgoth"]["count"] -= 1
    monkeypatch.setitem(ai.LEVELS, "hard", ai.LEVELS["hard"]._replace(push_from=99))
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="hard") != Action.of("build")  # the margin rule alone


def test_hard_waives_the_action_with_engineers_for_a_second_outpost_in_its_last_rounds() -> None:
    s = clear_board(started(2, 1))
    s["round"] = PUSH
    for mon in s["monsters"].values():
        mon.update({"at": None, "gone": True})
    s["tiles"]["0,2"]["t"] = "gold"
    s["tiles"]["0,3"]["t"] = "wood"
    put(s, "ariane", "0,2")
    s["players"][0].update({"res": {"gold": 5, "wood": 2, "mineral": 0}, "tree": "merchant_crown",
                            "unlocks": {"engineers": "coin"}})
    s = my_turn(s, 0, "ariane")

    def turn(level: str) -> tuple[list[str], list[str]]:
        state, made = s, []
        for _ in range(8):
            action = GAME.ai_action(state, 0, Rng.from_seed(1), level=level)
            made.append(action.kind)
            if action.kind == "end":
                break
            state = GAME.apply(state, 0, action).state
        return made, sorted(state["outposts"])

    made, posts = turn("hard")
    assert "skill" in made and posts == ["0,2", "0,3"]
    made, posts = turn("normal")
    assert "skill" not in made and posts == ["0,2"]


def _tijian_caged() -> tuple[State, str]:
    """A 2-player game where seat 0 handed out Tijian (on its own home, which hard cages) and seat 1 Helgoth."""
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    while s["phase"] in ("faction", "commander", "monster"):
        seat = s["order"][s["chooser"]]
        legal = [la.action for la in GAME.legal_actions(s, seat)]
        if s["phase"] == "faction":
            action = Action.of("faction", faction=("arkland", "sect")[seat])
        elif s["phase"] == "monster":
            action = next((a for a in legal if args_of(a)["monster"] == "tijian"), legal[0])
        else:
            action = legal[0]
        s = GAME.apply(s, seat, action).state
    s = GAME.apply(s, SYSTEM, GAME.system_action(s)).state
    return s, "tijian"


def test_hard_opens_the_cage_of_a_monster_out_of_time_in_its_last_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ai.LEVELS, "hard", ai.LEVELS["hard"]._replace(cage_players=2))  # hard cages from 3 players
    s, mid = _tijian_caged()
    s["round"] = 10
    s["monsters"][mid].update({"count": ai._need(s, "tijian") - ai.MONSTER_TURNS - 1, "turns": 0})
    with playing("normal"):
        assert ai._cage_target(s, 0) == mid and ai._tijian_wary(s)
    with playing("hard"):
        assert ai._cage_target(s, 0) is None  # one tile a turn at most: he cannot win any more
        assert not ai._tijian_wary(s)  # face-down resource tiles may be turned up and built on
        s["monsters"][mid]["count"] += 1  # now he could, scoring every turn left
        assert ai._cage_target(s, 0) == mid and ai._tijian_wary(s)
        s["monsters"][mid]["count"] -= 1
        s["round"] = PUSH - 1  # before the last rounds the cage holds whatever his count
        assert ai._cage_target(s, 0) == mid


def test_the_eval_tool_weighs_a_victory_count_per_player_in_memory() -> None:
    """`--victory oryana=7+N` (a proposal: her count growing with the players) reaches the engine and the AI."""
    s = started(4, 1)
    victory = monsters()["primary"]["oryana"]["victory"]
    was = f"{victory['base']}+N" if victory.get("per_player", True) else str(victory["base"])
    try:
        gi_ai_eval.set_victory({"oryana": "7+N"})
        assert ai._need(s, "oryana") == 7 + 4
        gi_ai_eval.set_victory({"oryana": "8"})
        assert ai._need(s, "oryana") == 8
    finally:
        gi_ai_eval.set_victory({"oryana": was})
    assert ai._need(s, "oryana") == int(victory["base"]) + (4 if victory.get("per_player", True) else 0)
