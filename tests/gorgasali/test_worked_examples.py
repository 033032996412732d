"""The rulebook's worked examples (digest §4.6, WE-1 to WE-16), each on a small board with forced dice."""

from __future__ import annotations

from rules.base import ArgValue, Scalar
from rules.gorgasali import GAME
from rules.gorgasali.engine import Ctx, damage
from rules.gorgasali.state import State
from tests.gorgasali.helpers import (
    at,
    events,
    force,
    give,
    holds,
    hp,
    pass_turn,
    plain,
    play,
    setup,
    sq,
    to_after,
    why,
)


def test_we1_movement_ends_when_no_step_is_affordable() -> None:
    board = plain(marks={(4, 5): "W", (6, 5): "F", (5, 6): "W"})
    s = setup(["armazi", "ebue"], [(5, 0), (0, 9)], board)
    force(s, 2, 4)
    s = play(s, 0, "roll")
    assert why(s, 0, "skip") is None  # not a double: staying put was allowed
    s = play(s, 0, "step", dir="E")
    assert why(s, 0, "stop") == "gg.err.must_move"  # no stopping early on a plain square
    s = play(s, 0, "move", path=["E", "E", "E", "E"])
    assert at(s, 0) == (5, 5) and s["t"]["points"] == 1
    assert s["t"]["stage"] == "after"  # stuck: water costs 3, forest 2


def test_we1_with_an_axe_the_forest_must_be_entered() -> None:
    board = plain(marks={(4, 5): "W", (6, 5): "F", (5, 6): "W"})
    s = setup(["armazi", "ebue"], [(5, 0), (0, 9)], board)
    axe = give(s, 0, "axe")
    force(s, 2, 4)
    s = play(s, 0, "roll")
    s = play(s, 0, "move_card", card=axe)
    s = play(s, 0, "move", path=["E", "E", "E", "E", "E"])
    assert s["t"]["stage"] == "moving" and why(s, 0, "stop") == "gg.err.must_move"
    s = play(s, 0, "step", dir="S")
    assert at(s, 0) == (6, 5) and s["t"]["stage"] == "after"


def test_we2_the_action_list_example() -> None:
    s = setup(["armazi", "ebue"], [(5, 0), (5, 4)])
    gemini = give(s, 0, "gemini")
    six = give(s, 0, "extra_six")
    field = give(s, 0, "magic_field")
    give(s, 0, "smoke_bulb")
    force(s, 1, 1)
    s = play(s, 0, "roll")
    s = play(s, 0, "move", path=["E", "E"])
    force(s, 1, 1, 1)
    s = play(s, 0, "shoot", weapon=gemini, target=1, ext=six)
    kinds = {la.action.kind for la in GAME.legal_actions(s, 0)}
    assert not kinds & {"shoot", "reload", "arrange", "potion", "move_card"}
    assert {"defend", "throw", "end"} <= kinds
    s = play(s, 0, "defend", card=field)
    assert why(s, 0, "defend", card=field) == "gg.err.no_card"
    s = play(s, 0, "end")
    assert s["turn"] == 1


def _shot(chars: list[str], where: list[tuple[int, int]], weapon: str, faces: tuple[int, ...],
          **kw: ArgValue | list[Scalar]) -> tuple[State, str]:
    s = setup(chars, where)
    wid = give(s, 0, weapon)
    s = to_after(s, 0)
    force(s, *faces)
    return play(s, 0, "shoot", weapon=wid, target=1, **kw), wid


def test_we3_gemini() -> None:
    s, _ = _shot(["armazi", "ebue"], [(5, 2), (5, 4)], "gemini", (3, 5))
    assert hp(s, 1) == 100 - 32


def test_we4_mantis() -> None:
    s, _ = _shot(["armazi", "ebue"], [(5, 2), (5, 5)], "mantis", (3, 3, 6, 1, 5))
    assert hp(s, 1) == 100 - 36


def test_we5_we6_tochinator_hits_on_four_and_unloads() -> None:
    s, wid = _shot(["armazi", "ebue"], [(5, 2), (5, 3)], "tochinator", (4,))
    assert hp(s, 1) == 55 and wid in s["unloaded"]
    s, wid = _shot(["armazi", "ebue"], [(5, 2), (5, 3)], "tochinator", (2,))
    assert hp(s, 1) == 100 and wid in s["unloaded"]


def test_we7_breathold_needs_a_roll_by_range_and_ignores_armour() -> None:
    for dist, miss, hit in ((1, (5, 5), (5, 6)), (2, (3, 3), (3, 4)), (3, (2, 3), (3, 3)), (4, (4, 4), (4, 5))):
        for faces, hits in ((miss, False), (hit, True)):
            s = setup(["armazi", "ebue"], [(5, 1), (5, 1 + dist)])
            wid = give(s, 0, "breathold")
            give(s, 1, "helmet")
            give(s, 1, "body_armour")
            s = to_after(s, 0)
            force(s, *faces)
            s = play(s, 0, "shoot", weapon=wid, target=1)
            assert hp(s, 1) == (50 if hits else 100), (dist, faces)
            assert holds(s, 1, "helmet") and holds(s, 1, "body_armour")
    s = setup(["armazi", "ebue"], [(5, 1), (5, 6)])
    wid = give(s, 0, "breathold")
    s = to_after(s, 0)
    assert why(s, 0, "shoot", weapon=wid, target=1) == "gg.err.range"


def test_we8_a_defensive_banner_lasts_until_its_owners_turn_two_rounds_later() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 6)])
    s["round"], s["zone"] = 6, 1
    field = give(s, 1, "magic_field")
    s = pass_turn(s, 0)
    s = to_after(s, 1)
    s = play(s, 1, "defend", card=field)
    s = play(s, 1, "end")
    for _ in range(2):  # rounds 7 and the start of 8: seat 0's turn
        assert len(s["banners"]) == 1
        s = pass_turn(s, 0, (2, 1))
        if s["round"] == 8:
            break
        assert len(s["banners"]) == 1
        s = pass_turn(s, 1, (2, 1))
    assert s["round"] == 8 and s["turn"] == 1
    assert s["banners"] == []  # gone as seat 1's turn in round 8 began


def test_we8_banner_still_up_during_round_8_before_the_owner() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 6)])
    s["round"], s["zone"] = 6, 1
    field = give(s, 1, "magic_field")
    s = pass_turn(s, 0)
    s = to_after(s, 1)
    s = play(s, 1, "defend", card=field)
    s = play(s, 1, "end")
    s = pass_turn(s, 0, (2, 1))
    s = pass_turn(s, 1, (2, 1))
    assert s["round"] == 8 and s["turn"] == 0 and len(s["banners"]) == 1


def test_we9_tree_platform_lowers_every_die() -> None:
    s = setup(["armazi", "ebue"], [(5, 2), (5, 5)])
    lynx = give(s, 0, "lynx")
    s["banners"].append({"kind": "platform", "owner": 1, "sq": [sq(s, 5, 5)], "round": 1})
    s = to_after(s, 0)
    force(s, 5, 1, 3)
    s = play(s, 0, "shoot", weapon=lynx, target=1)
    assert hp(s, 1) == 100 - 18


def test_we10_magic_spear_hits_only_on_the_range() -> None:
    for face, expected in ((4, 40), (3, 100)):
        s = setup(["armazi", "ebue"], [(5, 1), (5, 5)])
        spear = give(s, 0, "magic_spear")
        s = to_after(s, 0)
        force(s, face)
        s = play(s, 0, "throw", card=spear, target=1)
        assert hp(s, 1) == expected and spear in s["sdisc"]


def test_we11_smoke_protects_from_weapons_until_the_owners_turn_two_rounds_later() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    s["round"], s["zone"] = 11, 2
    smoke = give(s, 1, "smoke_bulb")
    gemini = give(s, 0, "gemini")
    s = pass_turn(s, 0)
    s["players"][1]["skipped"] = True  # so it moves now and may stay put, in its smoke, next round
    s = to_after(s, 1)
    s = play(s, 1, "throw", card=smoke)
    s = play(s, 1, "end")
    for rnd in (12, 13):
        s = to_after(s, 0, (2, 1))
        assert s["round"] == rnd
        assert why(s, 0, "shoot", weapon=gemini, target=1) == "gg.err.smoke"
        s = play(s, 0, "end")
        if rnd == 13:
            break
        s = pass_turn(s, 1, (2, 1))
    assert s["turn"] == 1 and s["banners"] == []


def _armour_case(raw: int, field: bool = False) -> tuple[int, bool, bool]:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    give(s, 1, "helmet")
    give(s, 1, "body_armour")
    if field:
        s["banners"].append({"kind": "field", "owner": 1, "sq": [sq(s, 5, 3)], "round": 1})
    ctx = Ctx(s)
    lost = damage(ctx, 1, raw, 0, "card", "weapon")
    return lost, holds(s, 1, "helmet"), holds(s, 1, "body_armour")


def test_we12_to_we15_the_four_armour_situations() -> None:
    assert _armour_case(7) == (0, False, True)
    assert _armour_case(18) == (0, True, False)
    assert _armour_case(23) == (0, False, False)
    assert _armour_case(50) == (20, False, False)


def test_we16_magic_field_halves_rounding_down() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    s["banners"].append({"kind": "field", "owner": 1, "sq": [sq(s, 5, 3)], "round": 1})
    assert damage(Ctx(s), 1, 23, 0, "card", "weapon") == 11


def test_events_name_the_shot() -> None:
    s = setup(["armazi", "ebue"], [(5, 2), (5, 4)])
    gemini = give(s, 0, "gemini")
    s = to_after(s, 0)
    force(s, 3, 4)
    _, keys = events(s, 0, "shoot", weapon=gemini, target=1)
    assert keys[:2] == ["gg.ev.shoot", "gg.ev.damage"]
