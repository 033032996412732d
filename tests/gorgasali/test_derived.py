"""The digest's derived tests (§4.7, DT-1 to DT-35) that pin its rulings, on small boards with forced dice."""

from __future__ import annotations

from collections.abc import Callable

from rules.gorgasali import GAME
from rules.gorgasali.board import board_of
from rules.gorgasali.engine import Ctx, damage
from rules.gorgasali.state import State
from tests.gorgasali.helpers import (
    at,
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


def _cycle(s: State, turns: int) -> State:
    """Both seats pass `turns` full rounds, seat 0 first."""
    for _ in range(turns):
        s = pass_turn(s, 0)
        s = pass_turn(s, 1)
    return s


def test_dt1_medea_heals_on_her_third_turn_then_every_third() -> None:
    s = setup(["medea", "ebue"], [(5, 1), (5, 8)])
    for turn in (1, 2):
        assert why(s, 0, "ability") == "gg.err.cooldown", turn
        s = pass_turn(pass_turn(s, 0), 1)
    assert why(s, 0, "ability") is None
    s = play(s, 0, "ability")
    s = pass_turn(pass_turn(s, 0), 1)
    for turn in (4, 5):
        assert why(s, 0, "ability") == "gg.err.cooldown", turn
        s = pass_turn(pass_turn(s, 0), 1)
    assert why(s, 0, "ability") is None


def test_dt2_supernova_first_on_the_fifth_turn() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 2)])
    for _ in range(4):
        assert why(s, 0, "ability", target=1) == "gg.err.cooldown"
        s = _cycle(s, 1)
        s["players"][0]["pos"], s["players"][1]["pos"] = sq(s, 5, 1), sq(s, 5, 2)
    assert why(s, 0, "ability", target=1) is None


def _shoot(chars: list[str], where: list[tuple[int, int]], weapon: str, faces: tuple[int, ...],
           ext: str | None = None, prep: Callable[[State], None] | None = None) -> State:
    s = setup(chars, where)
    wid = give(s, 0, weapon)
    extra = {"ext": give(s, 0, ext)} if ext else {}
    if prep:
        prep(s)
    s = to_after(s, 0)
    force(s, *faces)
    return play(s, 0, "shoot", weapon=wid, target=1, **extra)


def test_dt3_gemini_seven_counts_as_twelve_or_eighteen() -> None:
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 4)], "gemini", (3, 4)), 1) == 100 - 48
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 4)], "gemini", (1, 2, 4), "extra_six"), 1) == 100 - 72
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 4)], "gemini", (2, 2, 2), "extra_six"), 1) == 100 - 24


def test_dt4_ibex_diagonal() -> None:
    assert hp(_shoot(["armazi", "ebue"], [(0, 0), (2, 2)], "ibex", (2, 3, 4)), 1) == 100 - 36
    assert hp(_shoot(["armazi", "ebue"], [(0, 0), (2, 1)], "ibex", (2, 3, 4)), 1) == 100 - 27


def test_dt5_kbraus_fives() -> None:
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 5)], "kbraus", (6, 5, 3, 1, 2)), 1) == 100 - 44


def test_dt6_kondor() -> None:
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 4)], "kondor", (5, 6)), 1) == 40
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 4)], "kondor", (3, 4)), 1) == 55
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 4)], "kondor", (3, 3)), 1) == 100
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 3)], "kondor", (4, 5), "eagle_eye"), 1) == 55
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 3)], "kondor", (4, 5)), 1) == 100


def test_dt7_tochinator_stays_loaded_on_five() -> None:
    s = setup(["armazi", "ebue"], [(5, 2), (5, 3)])
    wid = give(s, 0, "tochinator")
    s = to_after(s, 0)
    force(s, 5)
    s = play(s, 0, "shoot", weapon=wid, target=1)
    assert hp(s, 1) == 55 and wid not in s["unloaded"]


def test_dt8_jalugar_heals_the_shooter() -> None:
    def hurt(s: State) -> None:
        s["players"][0]["hp"] = 70
    s = _shoot(["armazi", "ebue"], [(5, 2), (5, 3)], "jalugar", (3,), prep=hurt)
    assert hp(s, 0) == 85 and hp(s, 1) == 50


def test_dt9_drain_through_body_armour() -> None:
    def prep(s: State) -> None:
        give(s, 1, "body_armour")
        s["players"][0]["hp"] = 50
    s = _shoot(["drain", "ebue"], [(5, 2), (5, 5)], "mantis", (6, 5, 4, 1, 2), prep=prep)
    assert hp(s, 1) == 100 - 26 and not holds(s, 1, "body_armour") and hp(s, 0) == 60


def test_dt10_zone_penalty_per_square_and_on_teleport_landing() -> None:
    for stage, lost in ((1, 15), (2, 30), (3, 45)):
        s = setup(["armazi", "ebue"], [(5, 1), (9, 9)], plain(zone="1"))
        s["zone"] = stage
        force(s, 1, 2)
        s = play(s, 0, "roll")
        s = play(s, 0, "move", path=["E", "E", "E"])
        assert hp(s, 0) == 100 - lost
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)], plain(zone="1"))
    s["zone"] = 2
    tele = give(s, 0, "teleport")
    force(s, 1, 2)
    s = play(s, 0, "roll")
    s = play(s, 0, "teleport", card=tele, to="F6")
    assert hp(s, 0) == 90


def test_dt11_flame_bulb_splashes_enemies_next_to_the_target() -> None:
    s = setup(["armazi", "ebue", "varas"], [(5, 1), (5, 3), (5, 4)])
    bulb = give(s, 0, "flame_bulb")
    give(s, 2, "helmet")
    s = to_after(s, 0)
    assert why(s, 0, "throw", card=bulb, target=2) == "gg.err.range"
    force(s, 4, 5)
    s = play(s, 0, "throw", card=bulb, target=1)
    assert (hp(s, 0), hp(s, 1), hp(s, 2)) == (100, 60, 70) and not holds(s, 2, "helmet")


def test_dt12_ntt_bulb_unloads_every_weapon() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    w1, w2 = give(s, 1, "lynx"), give(s, 1, "kiss")
    ntt = give(s, 0, "ntt_bulb")
    s = play(to_after(s, 0), 0, "throw", card=ntt, target=1)
    assert {w1, w2} <= set(s["unloaded"])


def test_dt13_smoke_stops_weapons_not_throwables() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    s["banners"].append({"kind": "smoke", "owner": 1, "sq": [sq(s, 5, 3)], "round": 1})
    gem = give(s, 0, "gemini")
    bulb = give(s, 0, "flame_bulb")
    s = to_after(s, 0)
    assert why(s, 0, "shoot", weapon=gem, target=1) == "gg.err.smoke"
    assert why(s, 0, "throw", card=bulb, target=1) is None


def test_dt14_magic_field_then_armour() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    give(s, 1, "helmet")
    give(s, 1, "body_armour")
    s["banners"].append({"kind": "field", "owner": 1, "sq": [sq(s, 5, 3)], "round": 1})
    assert damage(Ctx(s), 1, 50, 0, "card", "weapon") == 0
    assert not holds(s, 1, "helmet") and not holds(s, 1, "body_armour")


def test_dt15_breathold_ignores_armour() -> None:
    def prep(s: State) -> None:
        give(s, 1, "helmet")
        give(s, 1, "body_armour")
    s = _shoot(["armazi", "ebue"], [(5, 1), (5, 3)], "breathold", (4, 4), prep=prep)
    assert hp(s, 1) == 50 and holds(s, 1, "helmet") and holds(s, 1, "body_armour")


def test_dt16_tochinator_misses_a_target_on_a_tree_platform() -> None:
    def prep(s: State) -> None:
        s["banners"].append({"kind": "platform", "owner": 1, "sq": [sq(s, 5, 3)], "round": 1})
    assert hp(_shoot(["armazi", "ebue"], [(5, 2), (5, 3)], "tochinator", (4,), prep=prep), 1) == 100


def test_dt17_no_skip_after_a_double_or_twice_running() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    force(s, 3, 3)
    s = play(s, 0, "roll")
    assert why(s, 0, "skip") == "gg.err.double"
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    s = pass_turn(s, 0)
    assert s["players"][0]["skipped"]
    s = pass_turn(s, 1)
    force(s, 1, 2)
    s = play(s, 0, "roll")
    assert why(s, 0, "skip") == "gg.err.skipped_last"


def test_dt18_stopping_on_a_chest_opens_it() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)], plain(marks={(5, 4): "C"}))
    support, weapons = len(s["sdeck"]), len(s["wdeck"])
    force(s, 4, 5)
    s = play(s, 0, "roll")
    s = play(s, 0, "move", path=["E", "E", "E"])
    assert s["t"]["stage"] == "moving" and why(s, 0, "stop") is None
    s = play(s, 0, "stop")
    assert sq(s, 5, 4) not in s["chests"]
    assert (support - len(s["sdeck"]), weapons - len(s["wdeck"])) == (2, 1)
    assert len(s["players"][0]["mat"]["weapon"]["a"]) == 1


def test_dt19_healing_point_on_arrival_only() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)], plain(marks={(5, 4): "H"}))
    s["players"][0]["hp"] = 50
    force(s, 1, 2)
    s = play(s, 0, "roll")
    s = play(s, 0, "move", path=["E", "E", "E"])
    assert hp(s, 0) == 70
    s = play(s, 0, "end")
    s = pass_turn(s, 1)
    force(s, 1, 2)
    s = play(play(s, 0, "roll"), 0, "skip")
    assert hp(s, 0) == 70


def test_dt20_ignite_burns_an_enemy_ending_its_turn_next_to_tharsis() -> None:
    s = setup(["ebue", "tharsis"], [(5, 1), (5, 2)])
    potion = give(s, 0, "small_potion")
    s = play(to_after(s, 0), 0, "end")
    assert hp(s, 0) == 90 and s["players"][0]["heal_block"]
    s["players"][1]["skipped"] = False
    s = pass_turn(s, 1)  # Tharsis stays put: his own Ignite burns Ebue again at the end of his turn
    assert hp(s, 0) == 80
    assert why(s, 0, "potion", card=potion) == "gg.err.heal_blocked"


def test_dt21_ball_lightning_hits_enemies_ending_within_three() -> None:
    for dist, expected in ((3, 65), (4, 100)):
        s = setup(["armazi", "ebue"], [(5, 1 + dist), (9, 9)])
        s["banners"].append({"kind": "ball", "owner": 1, "sq": [sq(s, 5, 1)], "round": 1})
        s = play(to_after(s, 0, (1, 2)), 0, "end")
        assert hp(s, 0) == expected, dist
    s = setup(["armazi", "ebue"], [(9, 9), (5, 2)])
    s["banners"].append({"kind": "ball", "owner": 1, "sq": [sq(s, 5, 1)], "round": 1})
    s = pass_turn(s, 0)
    s = play(to_after(s, 1), 1, "end")
    assert hp(s, 1) == 100


def test_dt22_hypnosis_cannot_pull_out_of_the_active_zone() -> None:
    board = plain()
    board["zones"] = ["1111111111"] * 5 + ["2222222222"] * 5  # rows 1-5 inactive once zone 1 closes
    s = setup(["ebue", "armazi"], [(5, 4), (8, 4)], board)
    s["zone"] = 1
    s["players"][0]["cd"] = 0
    s = to_after(s, 0)
    here = at(s, 0)
    above = f"{'ABCDEFGHIJ'[here[1]]}{here[0]}"  # the square north of Ebue, in the closed zone
    assert why(s, 0, "ability", target=1, at=above) == "gg.err.out_of_zone"
    below = f"{'ABCDEFGHIJ'[here[1]]}{here[0] + 2}"
    assert why(s, 0, "ability", target=1, at=below) is None


def test_dt23_kruber_swaps_back_only_without_moving() -> None:
    s = setup(["kruber", "armazi"], [(5, 0), (5, 5)])
    s["players"][0]["cd"] = 0
    s = play(s, 0, "ability", target=1)
    assert (at(s, 0), at(s, 1)) == ((5, 5), (5, 0))
    t = play(s, 0, "swap_back")
    assert (at(t, 0), at(t, 1)) == ((5, 0), (5, 5))
    force(s, 1, 2)
    s = play(s, 0, "roll")
    s = play(s, 0, "step", dir="N")
    assert why(s, 0, "swap_back") == "gg.err.not_now"
    s = play(s, 0, "move", path=["N", "N"])
    assert why(s, 0, "swap_back") == "gg.err.moved_since_swap"


def test_dt24_one_extra_chest_per_turn() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    s["players"][0]["xc"] = 2
    s = play(s, 0, "chest")
    assert why(s, 0, "chest") == "gg.err.one_extra_chest" and s["players"][0]["xc"] == 1


def test_dt25_line_of_sight_in_exact_geometry() -> None:
    marks = {(r, c): "T" for r in (4, 5) for c in (4, 5)}
    board = board_of(plain(marks=marks))
    tree = board.tree
    assert not board.clear_view(41, 48, tree)
    assert board.clear_view(31, 38, tree)
    assert not board.clear_view(22, 77, tree)
    assert board.clear_view(38, 83, tree)


def test_dt26_a_barrier_blocks_cards_not_abilities() -> None:
    s = setup(["armazi", "ebue"], [(5, 3), (5, 5)])
    gem = give(s, 0, "gemini")
    s["players"][0]["cd"] = 0
    s["banners"].append({"kind": "barrier", "owner": 1, "sq": [sq(s, r, 4) for r in range(3, 8)], "round": 1})
    s = to_after(s, 0)
    assert at(s, 0) == (5, 3)
    assert why(s, 0, "shoot", weapon=gem, target=1) == "gg.err.no_view"
    assert why(s, 0, "ability", target=1) is None


def test_dt27_figures_block_corridors() -> None:
    marks = {(4, c): "T" for c in range(10)} | {(6, c): "T" for c in range(10)}
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)], plain(marks=marks))
    force(s, 2, 3)
    s = play(s, 0, "roll")
    assert why(s, 0, "move", path=["E", "E"]) == "gg.err.movement_ends"
    s = play(s, 0, "step", dir="E")
    assert why(s, 0, "step", dir="E") == "gg.err.not_now"  # stuck behind the figure: the movement ended
    assert at(s, 0) == (5, 2) and s["t"]["stage"] == "after"
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)], plain(marks=marks))
    force(s, 2, 3)
    s = play(s, 0, "roll")
    s["t"]["compass"] = True  # even going round is impossible in a one-square corridor
    assert why(s, 0, "step", dir="NE") == "gg.err.blocked"


def test_dt28_teleport_in_a_straight_line_over_the_tree() -> None:
    marks = {(r, c): "T" for r in range(4, 8) for c in range(4, 8)}
    s = setup(["armazi", "ebue"], [(5, 1), (11, 11)], plain(12, 12, marks=marks))
    tele = give(s, 0, "teleport")
    force(s, 2, 3)
    s = play(s, 0, "roll")
    assert why(s, 0, "teleport", card=tele, to="K6") == "gg.err.teleport_line"
    assert why(s, 0, "teleport", card=tele, to="D9") == "gg.err.teleport_line"
    s = play(s, 0, "teleport", card=tele, to="J6")
    assert at(s, 0) == (5, 9) and s["t"]["points"] == 5
    assert sq(s, 5, 1) in s["t"]["seen"]


def test_dt29_medea_heal_caps_and_draws() -> None:
    s = setup(["medea", "ebue"], [(5, 1), (9, 9)])
    s["players"][0]["hp"], s["players"][0]["cd"] = 95, 0
    support = len(s["sdeck"])
    s = play(s, 0, "ability")
    assert hp(s, 0) == 100 and len(s["sdeck"]) == support - 1


def test_dt30_octor_copy_waits_the_full_cooldown_then_works_once() -> None:
    s = setup(["octor", "armazi"], [(5, 1), (5, 2)])
    s = play(s, 0, "imitate", target=1)
    assert s["players"][0]["copy"] == {"ability": "supernova", "cd": 5}
    s = play(to_after(s, 0), 0, "end")
    turns_after = 0
    while True:
        s = pass_turn(s, 1)
        s["players"][0]["pos"], s["players"][1]["pos"] = sq(s, 5, 1), sq(s, 5, 2)
        turns_after += 1
        if why(s, 0, "ability", target=1) != "gg.err.cooldown":
            break
        s = pass_turn(s, 0)
    assert turns_after == 5 and why(s, 0, "ability", target=1) is None
    s = play(s, 0, "ability", target=1)
    assert hp(s, 1) == 65 and why(s, 0, "ability", target=1) == "gg.err.no_copy"


def test_dt31_varas_steals_anything_but_weapons() -> None:
    s = setup(["varas", "ebue"], [(5, 1), (5, 4)])
    s["players"][0]["cd"] = 0
    helm = give(s, 1, "helmet")
    gun = give(s, 1, "lynx")
    assert why(s, 0, "ability", target=1, card=gun) == "gg.err.steal_card"
    s = play(s, 0, "ability", target=1, card=helm)
    assert s["players"][0]["mat"]["helmet"]["a"] == [helm] and not holds(s, 1, "helmet")


def test_dt32_frozen_turn_no_movement_other_actions_allowed() -> None:
    s = setup(["tsiva", "armazi"], [(5, 1), (5, 3)])
    s["players"][0]["cd"] = 0
    gun = give(s, 1, "gemini")
    s = play(s, 0, "ability")
    s = play(to_after(s, 0), 0, "end")
    assert s["t"]["frozen"]
    assert why(s, 1, "roll") == "gg.err.frozen"
    s = play(s, 1, "skip")
    assert s["t"]["stage"] == "after" and why(s, 1, "shoot", weapon=gun, target=0) is None
    s = play(s, 1, "end")
    assert not s["players"][1]["skipped"]


def test_dt33_the_killer_takes_the_loot() -> None:
    s = setup(["armazi", "ebue", "varas"], [(5, 1), (5, 2), (9, 9)])
    mine = [give(s, 0, "lynx"), give(s, 0, "kiss")]
    theirs = [give(s, 1, "mantis"), give(s, 1, "janeli")]
    potions = [give(s, 1, "small_potion"), give(s, 1, "axe"), give(s, 1, "rope", backpack=True)]
    s["players"][1]["hp"] = 10
    s["players"][0]["cd"] = 0
    s = play(s, 0, "ability", target=1)
    assert not s["players"][1]["alive"] and s["players"][0]["xc"] == 2
    assert [q["card"] for q in s["pending"]] == theirs
    assert set(s["players"][0]["mat"]["consumable"]["a"] + s["players"][0]["mat"]["consumable"]["p"]) == set(potions)
    assert GAME.decisions(s)[0].default.get("into") == "discard"
    s = play(s, 0, "place", card=theirs[0], into=mine[0])
    s = play(s, 0, "place", card=theirs[1], into="discard")
    assert s["players"][0]["mat"]["weapon"]["a"] == [theirs[0], mine[1]]


def test_dt34_duo_revive() -> None:
    s = setup(["armazi", "ebue", "varas", "medea"], [(5, 2), (0, 9), (5, 3), (9, 9)], mode="duo")
    # seats 0 and 2 are a team; seat 2 fell on (5, 3)
    s["players"][2].update({"alive": False, "hp": 0, "ghost": sq(s, 5, 3), "pos": None})
    s["out"].append(2)
    potion = give(s, 0, "medium_potion")
    force(s, 1, 2)
    s = play(s, 0, "roll")
    s = play(s, 0, "skip")
    assert why(s, 0, "revive", card=potion, at="D6") is None
    s = play(s, 0, "revive", card=potion, at="D6")
    mate = s["players"][2]
    assert mate["alive"] and mate["hp"] == 50 and at(s, 2) == (5, 3) and mate["cd"] == 3 and mate["xc"] == 0
    gun = give(s, 0, "lynx")
    assert why(s, 0, "shoot", weapon=gun, target=1) == "gg.err.revived_no_main"


def test_dt35_duo_exchange_without_discards_ends_the_turn() -> None:
    s = setup(["armazi", "ebue", "varas", "medea"], [(5, 1), (0, 9), (5, 2), (9, 9)], mode="duo")
    give(s, 2, "smoke_bulb")
    give(s, 2, "flame_bulb", backpack=True)
    mine = give(s, 0, "ntt_bulb")
    s = to_after(s, 0)
    s = play(s, 0, "give", card=mine)
    assert why(s, 0, "propose") == "gg.err.trade_no_room"
    s = play(s, 0, "withdraw")
    helm = give(s, 0, "helmet")
    s = play(s, 0, "give", card=helm)
    s = play(s, 0, "propose")
    assert GAME.to_act(s) == {2}
    declined = play(s, 2, "decline")
    assert declined["turn"] == 0 and declined["t"]["stage"] == "after"
    s = play(s, 2, "accept")
    assert holds(s, 2, "helmet") and not holds(s, 0, "helmet") and s["turn"] == 1


def test_dt35_a_card_used_after_being_offered_voids_the_proposal() -> None:
    s = setup(["armazi", "ebue", "varas", "medea"], [(5, 1), (0, 9), (5, 2), (9, 9)], mode="duo")
    field = give(s, 0, "magic_field")
    s = to_after(s, 0)
    s = play(s, 0, "give", card=field)
    s = play(s, 0, "defend", card=field)
    assert why(s, 0, "propose") == "gg.err.trade_changed"
