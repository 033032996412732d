"""Set-up, round structure, the turn ring (RULING-10, RULING-31), solo order (T-13) and the end (T-10..T-12)."""

from __future__ import annotations

from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME, flow
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import gain_xp

from .helpers import clear_board, ended, started


def test_setup_follows_the_getting_started_steps() -> None:
    s = GAME.new(GAME.resolve_options({}), 3, 7)
    first = s["order"][0]
    assert GAME.to_act(s) == frozenset({first}) and s["phase"] == "faction"
    s = started(3, 7)
    assert s["round"] == 1 and s["phase"] == "turns"
    for seat, player in enumerate(s["players"]):
        assert player["res"] == {"gold": 3, "wood": 2, "mineral": 2} and player["spirits"] == 0
        mine = [h for h in s["heroes"].values() if h["owner"] == seat]
        assert len(mine) == 3 and all(h["at"] is not None and s["tiles"][h["at"]]["deploy"]
                                      and s["tiles"][h["at"]]["area"] == seat for h in mine)
    assert sorted(m["home"] for m in s["monsters"].values()) == [0, 1, 2]
    assert s["turn"] == ["p", str(first)]


def test_round_one_monsters_do_not_act_and_turns_alternate() -> None:
    s = started(2, 3)
    seen: list[str | int] = []
    while s["round"] == 1:
        seat = next(iter(GAME.to_act(s)))
        if seat == SYSTEM:
            seen.append(GAME.system_action(s).kind)
            s = GAME.apply(s, seat, GAME.system_action(s)).state
            continue
        seen.append(seat)
        hero = GAME.legal_actions(s, seat)[0].action
        assert hero.kind == "activate"
        s = GAME.apply(s, seat, hero).state
        s = GAME.apply(s, seat, Action.of("end")).state
    first, second = started(2, 3)["order"]
    assert seen[:6] == [first, second] * 3 and "monster" not in seen


def test_ring_in_round_two_gives_monsters_turns_between_players() -> None:
    s = started(2, 3)
    s["round"] = 2
    s["ring"] = flow._ring(s)
    order = s["order"]
    homes = {m["home"]: mid for mid, m in s["monsters"].items()}
    assert s["ring"] == [["p", str(order[0])], ["m", homes[order[0]]], ["p", str(order[1])], ["m", homes[order[1]]]]
    slots = []
    s["ring_pos"], s["turn"] = -1, None
    for _ in range(20):
        flow.advance(s)
        if s["phase"] != "turns":
            break
        turn = s["turn"]
        assert turn is not None
        slots.append(tuple(turn))
        if turn[0] == "p":
            hid = flow.available(s, int(turn[1]))[0]
            s["heroes"][hid]["done"] = True
        else:
            s["monsters"][turn[1]]["turns"] += 1
        s["turn"] = None
    # 3 turns each; the monster just after the last player loses its third turn.
    assert [x for x in slots if x[0] == "p"] == [("p", str(order[0])), ("p", str(order[1]))] * 3
    assert sum(1 for x in slots if x[0] == "m") == 5
    assert slots[-1] == ("p", str(order[1]))


def test_t13_solo_order_with_a_monster_in_retreat() -> None:
    s = started(1, 2)
    cards = {"helgoth": 0, "oryana": 1, "tijian": 2, "walker": 3}
    for mid, home in cards.items():
        s["monsters"][mid]["home"] = home
    s["monsters"]["tijian"]["at"] = None
    s["monsters"]["tijian"]["retreat"] = 1
    for round_no, expected in ((3, ["helgoth", "p", "oryana", "p", "walker", "p"]), (1, ["p", "p", "p"])):
        s["round"], s["ring"], s["ring_pos"], s["turn"] = round_no, flow._ring(s), -1, None
        s["phase"] = "turns"
        for hero in s["heroes"].values():
            hero["done"] = False
        for mon in s["monsters"].values():
            mon["turns"] = 0
        got = []
        while True:
            flow.advance(s)
            if s["phase"] != "turns":
                break
            turn = s["turn"]
            assert turn is not None
            who = turn[1] if turn[0] == "m" else "p"
            got.append(who)
            if who == "p":
                s["heroes"][flow.available(s, 0)[0]]["done"] = True
            else:
                s["monsters"][who]["turns"] += 1
            s["turn"] = None
        assert got == expected


def _round_end(s: State, pps: dict[int, int], order: list[int], round_no: int = 5) -> State:
    s = clear_board(s)
    s["outposts"] = {}
    s["phase"], s["round"], s["order"] = "round_end", round_no, order
    for seat, value in pps.items():
        s["players"][seat]["pp"] = value
    s["end_queue"], s["window"] = [], True
    return GAME.apply(s, SYSTEM, Action.of("round_end")).state


def test_t10_earliest_in_play_order_wins_among_those_at_target() -> None:
    s = _round_end(started(2), {0: 11, 1: 10}, [1, 0])
    assert ended(s).winners == frozenset({1})


def test_t11_after_round_ten_most_points_then_play_order() -> None:
    s = _round_end(started(3), {0: 8, 1: 8, 2: 7}, [2, 1, 0], round_no=10)
    assert ended(s).winners == frozenset({1})


def test_t12_no_winner_when_below_target_at_round_end() -> None:
    s = _round_end(started(2), {0: 9, 1: 3}, [0, 1])
    assert GAME.outcome(s) is None and s["phase"] == "round_start" and s["source"] == 1
    assert s["order"] == [1, 0]  # the initiative passes clockwise


def test_round_end_production_and_a_spirit_on_the_source() -> None:
    s = clear_board(started(2))
    s["tiles"]["1,1"]["t"] = "wood"
    s["outposts"] = {"1,1": {"owner": 0, "level": 2, "dmg": 0, "dropped": False}}
    s["phase"], s["round"], s["end_queue"], s["window"] = "round_end", 4, [], True
    wood = s["players"][0]["res"]["wood"]
    s = GAME.apply(s, SYSTEM, Action.of("round_end")).state
    assert s["players"][0]["res"]["wood"] == wood + 2 and s["source"] == 1


def test_t06_xp_thresholds_carry_over_and_level_three_is_a_point() -> None:
    s = started(2)
    hero = s["heroes"]["ariane"]
    hero["xp"] = 2
    events: list = []
    gain_xp(s, "ariane", 3, events)
    assert (len(hero["levels"]), hero["xp"]) == (1, 2)
    gain_xp(s, "ariane", 2, events)
    assert (len(hero["levels"]), hero["xp"]) == (2, 0)
    gain_xp(s, "ariane", 5, events)
    assert (len(hero["levels"]), hero["xp"]) == (3, 0) and s["players"][0]["pp"] == 1
    gain_xp(s, "ariane", 4, events)
    assert (len(hero["levels"]), hero["xp"]) == (3, 0)
    assert [p["kind"] for p in s["pending"]] == ["level_up"] * 3


def test_spirits_may_become_points_in_the_window_before_the_count() -> None:
    s = clear_board(started(2))
    s["outposts"] = {}
    s["phase"], s["round"], s["order"], s["end_queue"], s["window"] = "round_end", 5, [0, 1], [], False
    s["players"][0].update({"pp": 9, "spirits": 3})
    s["players"][1].update({"pp": 9, "spirits": 1})
    assert GAME.system_action(s) == Action.of("spirit_window")
    s = GAME.apply(s, SYSTEM, Action.of("spirit_window")).state
    assert GAME.to_act(s) == frozenset({0}) and GAME.decisions(s)[0].default == Action.of("pass")  # RULING-07
    s = GAME.apply(s, 0, Action.of("spirit_pp")).state
    assert s["players"][0]["pp"] == 10 and s["pending"] == []
    s = GAME.apply(s, SYSTEM, GAME.system_action(s)).state
    assert ended(s).winners == frozenset({0})


def test_ruling_31_second_pass_option_wakes_monsters_after_every_player_had_a_turn() -> None:
    for seats, expected in ((2, "p p p m"), (1, "p m")):
        s = started(seats, 3)
        s["monsters_start"] = "second_pass"
        seen = []
        while "monster" not in seen:
            seat = next(iter(GAME.to_act(s)))
            if seat == SYSTEM:
                seen.append(GAME.system_action(s).kind)
                s = GAME.apply(s, seat, GAME.system_action(s)).state
                continue
            seen.append("player")
            s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0].action).state
            s = GAME.apply(s, seat, Action.of("end")).state
        assert s["round"] == 1 and " ".join(x[0] for x in seen) == expected
    assert GAME.resolve_options({})["monsters_start"] == "round2"
