"""The AI's cage around Tijian's home, its answers to damage outside attacks and its Maelstrom exits."""

from __future__ import annotations

import copy

import pytest

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, ai, ai_cage
from rules.guerra_de_indagar.combat import start_attack
from rules.guerra_de_indagar.state import State
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import (
    activation,
    attack,
    clear_board,
    dice,
    hero_at,
    k,
    lab,
    my_turn,
    put,
    started,
)


def _caging() -> tuple[State, int, str, list[str]]:
    """Round 3, seat 0 (Arkland) against Helgoth and Tijian standing on his home, the field clean."""
    s = clear_board(started(2, 1))
    s["round"] = 3
    s["monsters"]["oryana"]["card"] = "tijian"  # the second monster of this deal, as Tijian
    home = ai_cage.home_of(s, "oryana")
    s["monsters"]["oryana"]["at"] = home
    s["monsters"]["helgoth"].update({"at": None, "gone": True})
    return s, 0, home, ai_cage.spots(s, "oryana")


def test_the_ai_cages_tijian_and_its_guards_walk_to_the_tiles_around_his_home() -> None:
    s, seat, _home, spots = _caging()
    assert len(spots) == 3 and ai_cage.target(s, seat) == "oryana"
    put(s, "ariane", "0,2")
    s = my_turn(s, seat, "ariane")
    cage = ai._cage(s, seat)
    assert cage is not None
    mid, where = cage
    assert mid == "oryana" and where["ariane"] in spots
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "move"
    far = ai_cage.walk_distances(s, where["ariane"])
    assert far[k(s, action["to"])] < far["0,2"]


def test_a_guard_strikes_only_once_the_cage_is_shut() -> None:
    s, seat, home, spots = _caging()
    for hid, spot in zip(("ariane", "paladin"), spots[:2], strict=True):
        put(s, hid, spot)
    s = my_turn(s, seat, "ariane")
    activation(s)["mv"] = 0  # no step toward anything else: only striking is in question
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("end")  # struck now, he would fall back out
    put(s, "knight", spots[2])
    assert ai_cage.shut(s, "oryana")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("attack", to=lab(s, home))


def test_struck_for_two_in_a_shut_cage_tijian_has_nowhere_to_fall_back_and_retreats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s, seat, home, spots = _caging()
    for hid, spot in zip(("ariane", "paladin", "knight"), spots, strict=True):
        put(s, hid, spot)
    s = my_turn(s, seat, "ariane")
    with dice(monkeypatch, [3, 3, 3, 3, 3], [0, 0]):  # five dice with two flanking, 15 against 0: 2 or more
        s = GAME.apply(s, seat, Action.of("attack", to=lab(s, home))).state
        while s["pending"] and s["pending"][0]["seat"] == seat:
            s = GAME.apply(s, seat, GAME.ai_action(s, seat, Rng.from_seed(1))).state
    assert s["monsters"]["oryana"]["at"] is None  # in retreat: he comes back on this home, into the same cage
    assert all(s["heroes"][h]["at"] == spot for h, spot in zip(("ariane", "paladin", "knight"), spots, strict=True))


def test_the_ai_leaves_the_home_after_its_own_seat_to_the_monster_it_will_cage() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    while s["phase"] != "monster":
        seat = s["order"][s["chooser"]]
        s = GAME.apply(s, seat, GAME.ai_action(s, seat, Rng.from_seed(1))).state
    seat = s["order"][s["chooser"]]
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action["monster"] == "helgoth"
    assert s["tiles"][k(s, action["home"])]["home"] != seat  # the other player's monster acts right after us


def _hurt(s: State, seat: int, hid: str, n: int) -> State:
    s["pending"] = [{"kind": "ignore", "seat": seat, "hero": hid, "n": n, "ignore": 0, "src": "swamp", "by": None}]
    return s


def test_the_ai_ignores_damage_outside_attacks_only_when_it_would_send_its_hero_to_retreat() -> None:
    s, seat, _home, _spots = _caging()
    put(s, "ariane", "0,2")
    s["heroes"]["ariane"]["dmg"] = 4  # resistance 6: 2 more send it to retreat
    s["players"][seat]["spirits"] = 1
    assert GAME.ai_action(_hurt(s, seat, "ariane", 2), seat, Rng.from_seed(1)) == Action.of("spirit_ignore")
    assert GAME.ai_action(_hurt(s, seat, "ariane", 1), seat, Rng.from_seed(1)) == Action.of("done")


def test_a_defending_ability_saves_a_hero_at_risk_before_a_spirit_unless_the_walker_hunts() -> None:
    s, _seat, _home, _spots = _caging()
    by = {"ability": [Action.of("ability", id="oak_skin")], "spirit_ignore": [Action.of("spirit_ignore")]}
    assert ai._shield(s, by) == Action.of("ability", id="oak_skin")
    s["monsters"]["helgoth"].update({"card": "walker", "gone": False, "at": "3,-3"})
    assert ai._shield(s, by) == Action.of("spirit_ignore")  # an ability would make this seat the Walker's prey
    assert ai._shield(s, {"ability": by["ability"]}) is None


def test_the_ai_steers_its_own_hero_out_of_the_maelstrom_toward_where_it_is_going() -> None:
    s, _seat, _home, _spots = _caging()
    put(s, "ariane", "0,0")
    options = [Action.of("maelstrom", to=lab(s, t)) for t in ("1,-1", "-1,1")]
    toward = ai._safest(s, "ariane", options, toward={"-2,2"})
    assert k(s, toward["to"]) == "-1,1"
    assert k(s, ai._safest(s, "ariane", options, toward={"2,-2"})["to"]) == "1,-1"


def test_a_guard_stays_on_its_tile_after_a_charge() -> None:
    s, seat, home, spots = _caging()
    for hid, spot in zip(("ariane", "paladin", "knight"), spots, strict=True):
        put(s, hid, spot)
    s = my_turn(s, seat, "knight")
    start_attack(s, ("hero", "knight"), home, "turn")
    s["pending"] = [{"kind": "charge", "seat": seat}]
    by = {"charge": [Action.of("charge")], "stay": [Action.of("stay")]}
    assert ai._answer(s, seat, s["pending"][0], by, []) == Action.of("stay")


def _shut_cage() -> tuple[State, int, str, list[str]]:
    s, seat, home, spots = _caging()
    for hid, spot in zip(("ariane", "paladin", "knight"), spots, strict=True):
        put(s, hid, spot)
    return s, seat, home, spots


def test_a_guard_drinks_the_source_and_is_back_on_its_tile_in_the_same_activation() -> None:
    s, seat, _home, _spots = _shut_cage()
    guard = next(h for h in ("ariane", "paladin", "knight") if "0,0" in ai_cage.walk_distances(s, "0,0")
                 and ai_cage.walk_distances(s, "0,0")[hero_at(s, h)] == 1)
    spot = s["heroes"][guard]["at"]
    s["source"] = 2
    s["monsters"]["oryana"]["at"] = None  # in retreat: nothing to strike
    s = my_turn(s, seat, guard)
    for _ in range(6):
        action = GAME.ai_action(s, seat, Rng.from_seed(1))
        if action.kind == "end":
            break
        s = GAME.apply(s, seat, action).state
    assert s["players"][seat]["spirits"] == 2 and s["source"] == 0
    assert s["heroes"][guard]["at"] == spot


def test_a_guard_spends_a_spirit_not_to_be_pushed_out_of_the_cage() -> None:
    s, seat, _home, spots = _shut_cage()
    s["players"][seat]["spirits"] = 1
    start_attack(s, ("monster", "oryana"), spots[0], "monster")
    attack(s).update({"a": [2, 1, 0], "d": [1, 1], "stage": "damage"})  # 3 against 2: 1 damage, it stays
    s["pending"] = [{"kind": "d_boost", "seat": seat}]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("done")
    attack(s)["a"] = [3, 2, 0]  # 5 against 2: it would fall back and open the cage
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_ignore")


def test_out_of_reach_of_escaped_tijian_a_guard_lies_in_wait_beside_his_next_prey() -> None:
    s, seat, _home, _spots = _caging()
    s["monsters"]["oryana"]["at"] = "2,-4"  # out of his cage, far from the guards
    s["tiles"]["0,-1"].update({"t": "gold", "up": True})  # his next prey
    put(s, "ariane", "0,2")
    s = my_turn(s, seat, "ariane")
    wait = ai._lie_in_wait(s, seat, "ariane", "oryana", 3)
    assert wait in ai.adjacent_keys(s, "0,-1")


def test_in_a_shut_cage_spirit_dice_go_on_a_strike_unless_it_already_beats_the_defence_by_two() -> None:
    s, seat, home, _spots = _shut_cage()
    s["players"][seat]["spirits"] = 1
    s["players"][seat]["res"] = {"gold": 0, "wood": 0, "mineral": 0}  # no paid boost: the spirit
    s = my_turn(s, seat, "ariane")
    start_attack(s, ("hero", "ariane"), home, "turn")
    s["pending"] = [{"kind": "a_boost", "seat": seat}]
    attack(s)["a"] = [1, 1, 0, 0, 0]  # 2 against his 2 dice: rarely 2 more
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_dice")
    attack(s)["a"] = [3, 3, 2, 1, 0]  # 9 against at most 6: 2 more is sure, the spirit is kept
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) != Action.of("spirit_dice")


def test_while_tijian_is_away_for_a_whole_round_more_a_guard_may_drink_the_source_and_return_next_time() -> None:
    s, seat, _home, _spots = _shut_cage()
    s["source"] = 1
    far = max(("ariane", "paladin", "knight"), key=lambda h: ai_cage.walk_distances(s, "0,0")[hero_at(s, h)])
    spot = hero_at(s, far)
    steps = ai_cage.walk_distances(s, "0,0")[spot]  # all its movement left gets it there, none back
    s["monsters"]["oryana"].update({"at": None, "retreat": 2})  # back at the start of next round: stay home
    assert ai._errand(s, seat, far, "oryana", spot, steps) is None
    s["monsters"]["oryana"]["retreat"] = 1  # sent away this round: back the round after next
    assert ai._errand(s, seat, far, "oryana", spot, steps) == "0,0"


def _unknown_shuffled(s: State, seat: int) -> State:
    """The same state with the face-down tiles `seat` has not peeked at holding each other's types."""
    other = copy.deepcopy(s)
    known = set(s["players"][seat]["known"])
    hidden = sorted(key for key, t in s["tiles"].items() if not t["up"] and t["t"] is not None and key not in known)
    kinds = [s["tiles"][key]["t"] for key in hidden]
    for key, kind in zip(hidden, kinds[1:] + kinds[:1], strict=True):
        other["tiles"][key]["t"] = kind
    return other


def test_the_ai_reads_nothing_it_has_not_seen_its_moves_do_not_change_when_unknown_tiles_are_dealt_again() -> None:
    checked = 0
    for seed in (2, 3, 6):
        s = GAME.new(GAME.resolve_options({}), 2, seed)
        rng = Rng.from_seed(seed)
        for _ in range(400):
            if GAME.outcome(s) is not None:
                break
            seat = min(GAME.to_act(s))
            if seat == SYSTEM:
                action = GAME.system_action(s)
            elif seat == 0:
                action = GAME.ai_action(s, seat, Rng.from_seed(99))
                other = _unknown_shuffled(s, seat)
                assert GAME.ai_action(other, seat, Rng.from_seed(99)) == action
                checked += 1
            else:
                action = rng.choice(GAME.legal_actions(s, seat)).action
            s = GAME.apply(s, seat, action).state
    assert checked > 300
