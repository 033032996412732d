"""Cards the worked examples leave out: movement cards, weapon extensions, Dobergun, banners placed by a move,
the Ammo Bag, and the mat's backpack."""

from __future__ import annotations

from rules.gorgasali import GAME
from tests.gorgasali.helpers import at, force, give, hp, plain, play, setup, sq, to_after, why


def test_compass_allows_diagonal_steps_and_adrenaline_doubles_the_points() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    compass = give(s, 0, "compass")
    assert why(s, 0, "move_card", card=compass) == "gg.err.not_now"
    force(s, 1, 2)
    s = play(s, 0, "roll")
    assert why(s, 0, "step", dir="NE") == "gg.err.direction"
    s = play(s, 0, "move_card", card=compass)
    s = play(s, 0, "step", dir="NE")
    assert at(s, 0) == (4, 2)
    s = setup(["armazi", "ebue"], [(0, 0), (9, 9)])
    adrenaline = give(s, 0, "adrenaline")
    force(s, 1, 2)
    s = play(play(s, 0, "roll"), 0, "move_card", card=adrenaline)
    assert s["t"]["points"] == 6 and s["t"]["consumable"]


def test_boat_and_rope_make_water_and_mountain_cost_one() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)], plain(marks={(5, 2): "W", (5, 3): "M"}))
    boat = give(s, 0, "boat")
    force(s, 1, 1)
    s = play(play(s, 0, "roll"), 0, "move_card", card=boat)
    s = play(s, 0, "step", dir="E")
    assert s["t"]["points"] == 1 and why(s, 0, "step", dir="E") == "gg.err.too_costly"


def test_strike_option_rerolls_the_chosen_dice() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    lynx = give(s, 0, "lynx")
    strike = give(s, 0, "strike_option")
    s = to_after(s, 0)
    force(s, 1, 6, 1, 5, 5)
    s = play(s, 0, "shoot", weapon=lynx, target=1, ext=strike)
    assert s["t"]["stage"] == "strike" and hp(s, 1) == 100
    s = play(s, 0, "reroll", dice=[0, 2])
    assert hp(s, 1) == 100 - (5 + 6 + 5) * 3 and s["t"]["stage"] == "after"


def test_second_chance_rolls_a_missed_massive_shot_again() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 2)])
    kiss = give(s, 0, "kiss")
    second = give(s, 0, "second_chance")
    s = to_after(s, 0)
    force(s, 2, 6)
    s = play(s, 0, "shoot", weapon=kiss, target=1, ext=second)
    assert hp(s, 1) == 65


def test_dobergun_gives_two_free_steps_on_four_or_more() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)], plain(marks={(6, 1): "W"}, zone="1"))
    s["zone"] = 1
    gun = give(s, 0, "dobergun")
    s = to_after(s, 0)
    start = at(s, 0)
    force(s, 4)
    s = play(s, 0, "shoot", weapon=gun, target=1)
    assert hp(s, 1) == 100 - 36 and s["t"]["stage"] == "dober"
    before = hp(s, 0)
    s = play(s, 0, "dober", dir="S")
    assert why(s, 0, "dober", dir="N") == "gg.err.covered"
    s = play(s, 0, "dober", dir="S")
    assert s["t"]["stage"] == "after" and hp(s, 0) == before  # no terrain cost, no zone penalty
    assert at(s, 0) == (start[0] + 2, start[1])


def test_dobergun_below_four_gives_no_steps() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    gun = give(s, 0, "dobergun")
    s = to_after(s, 0)
    force(s, 3)
    s = play(s, 0, "shoot", weapon=gun, target=1)
    assert s["t"]["stage"] == "after" and hp(s, 1) == 73


def test_barrier_and_ball_lightning_are_placed_next_to_you() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 8)])
    barrier = give(s, 0, "barrier")
    s = to_after(s, 0)
    here = at(s, 0)
    col = "ABCDEFGHIJ"[here[1] + 1]
    assert why(s, 0, "defend", card=barrier, at=f"{col}{here[0] + 1}", orient="h") == "gg.err.not_vacant"
    s = play(s, 0, "defend", card=barrier, at=f"{col}{here[0] + 1}", orient="v")
    assert len(s["banners"][0]["sq"]) == 5
    s = setup(["armazi", "ebue"], [(5, 1), (5, 8)])
    ball = give(s, 0, "ball_lightning")
    s = to_after(s, 0)
    here = at(s, 0)
    far = f"{'ABCDEFGHIJ'[here[1] + 2]}{here[0] + 1}"
    assert why(s, 0, "defend", card=ball, at=far) == "gg.err.adjacent_square"


def test_ammo_bag_reloads_before_the_roll_and_reload_is_a_main_action() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    gun = give(s, 0, "gemini", loaded=False)
    bag = give(s, 0, "ammo_bag")
    s = play(s, 0, "ammo", card=bag)
    assert gun not in s["unloaded"] and s["t"]["consumable"]
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    gun = give(s, 0, "gemini", loaded=False)
    s = to_after(s, 0)
    assert why(s, 0, "shoot", weapon=gun, target=1) == "gg.err.unloaded"
    s = play(s, 0, "reload")
    assert gun not in s["unloaded"] and why(s, 0, "shoot", weapon=gun, target=1) == "gg.err.main_used"


def test_backpack_cards_fill_empty_active_slots_at_the_end_of_the_turn() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    potion = give(s, 0, "small_potion", backpack=True)
    s = play(to_after(s, 0), 0, "end")
    assert s["players"][0]["mat"]["consumable"] == {"a": [potion], "p": []}


def test_rearranging_the_backpack_is_the_main_action_and_may_be_repeated() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    a1, a2 = give(s, 0, "axe"), give(s, 0, "rope")
    p1 = give(s, 0, "boat", backpack=True)
    s = to_after(s, 0)
    s = play(s, 0, "arrange", card=p1, **{"with": a1})
    assert s["players"][0]["mat"]["consumable"] == {"a": [p1, a2], "p": [a1]}
    s = play(s, 0, "arrange", card=a2)
    assert s["players"][0]["mat"]["consumable"] == {"a": [p1], "p": [a1, a2]}
    assert why(s, 0, "reload") == "gg.err.main_used"


def test_a_full_category_asks_where_a_chest_card_goes() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    for _ in range(2):
        give(s, 0, "lynx")
    s["wdeck"].append(s["wdeck"].pop(s["wdeck"].index(next(c for c in s["wdeck"] if s["cards"][c] == "kiss"))))
    s = play(s, 0, "chest")
    assert [s["cards"][q["card"]] for q in s["pending"]] == ["kiss"]
    assert why(s, 0, "roll") == "gg.err.place_first"


def test_dobergun_steps_may_cross_a_chest_but_not_end_on_one() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    gun = give(s, 0, "dobergun")
    s = to_after(s, 0)
    r, c = at(s, 0)
    s["chests"] = sorted({*s["chests"], sq(s, r + 1, c), sq(s, r, c - 1)})
    force(s, 4)
    s = play(s, 0, "shoot", weapon=gun, target=1)
    s = play(s, 0, "dober", dir="S")  # onto the chest, with a step left to leave it
    assert at(s, 0) == (r + 1, c) and s["t"]["stage"] == "dober"
    assert why(s, 0, "dober_done") == "gg.err.dober_on_chest"
    assert GAME.check_invariants(s) == []  # crossing a chest is no invariant failure
    s = play(s, 0, "dober", dir="S")
    assert at(s, 0) == (r + 2, c) and s["t"]["stage"] == "after"
    s2 = setup(["armazi", "ebue"], [(5, 1), (5, 3)])
    gun = give(s2, 0, "dobergun")
    s2 = to_after(s2, 0)
    r, c = at(s2, 0)
    s2["chests"] = sorted({*s2["chests"], sq(s2, r + 2, c)})
    force(s2, 4)
    s2 = play(s2, 0, "shoot", weapon=gun, target=1)
    s2 = play(s2, 0, "dober", dir="S")
    assert why(s2, 0, "dober", dir="S") == "gg.err.dober_chest"  # the last step would end on it
