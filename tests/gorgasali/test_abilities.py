"""One test (at least) per character's special ability, beyond the digest's derived tests."""

from __future__ import annotations

from rules.gorgasali import GAME
from rules.gorgasali.engine import Ctx, start_turn
from tests.gorgasali.helpers import at, force, give, hp, pass_turn, plain, play, setup, sq, to_after, why


def test_armazi_supernova_hits_two_adjacent_enemies_in_range() -> None:
    s = setup(["armazi", "ebue", "varas", "medea"], [(5, 1), (5, 3), (6, 3), (5, 4)])
    s["players"][0]["cd"] = 0
    assert why(s, 0, "ability", target=1, second=3) == "gg.err.range"  # (5, 4) is 3 away
    assert why(s, 0, "ability", target=3) == "gg.err.range"
    give(s, 1, "helmet")
    s = play(s, 0, "ability", target=1, second=2)
    assert (hp(s, 1), hp(s, 2), hp(s, 3)) == (65, 65, 100)  # abilities ignore armour
    assert s["players"][0]["cd"] == 5


def test_ebue_hypnosis_places_the_enemy_next_to_him_without_moving_it() -> None:
    board = plain(marks={(5, 2): "C"})
    s = setup(["ebue", "armazi"], [(5, 1), (5, 6)], board)
    s["players"][0]["cd"] = 0
    s["banners"].append({"kind": "smoke", "owner": 1, "sq": [sq(s, 5, 6)], "round": 1})
    assert why(s, 0, "ability", target=1, at="C6") == "gg.err.not_vacant"  # the chest square
    assert why(s, 0, "ability", target=1, at="D6") == "gg.err.adjacent_square"
    s = play(s, 0, "ability", target=1, at="B5")
    assert at(s, 1) == (4, 1) and s["banners"] == []  # displaced by an ability: its smoke ends
    assert hp(s, 1) == 100


def test_ebue_hypnosis_is_off_in_an_inactive_zone() -> None:
    s = setup(["ebue", "armazi"], [(5, 1), (5, 4)], plain(zone="1"))
    s["zone"], s["players"][0]["cd"] = 1, 0
    assert why(s, 0, "ability", target=1, at="B5") == "gg.err.inactive_zone"


def test_emoon_is_immune_to_every_ability() -> None:
    s = setup(["armazi", "emoon"], [(5, 1), (5, 2)])
    s["players"][0]["cd"] = 0
    assert why(s, 0, "ability", target=1) == "gg.err.immune"
    s = setup(["kruber", "emoon"], [(5, 1), (5, 2)])
    s["players"][0]["cd"] = 0
    assert why(s, 0, "ability", target=1) == "gg.err.immune"
    s = setup(["tsiva", "emoon"], [(5, 1), (5, 2)])
    s["players"][0]["cd"] = 0
    s = play(s, 0, "ability")
    assert not s["players"][1]["frozen"]
    s = setup(["octor", "emoon", "armazi"], [(5, 1), (5, 2), (5, 3)])
    assert why(s, 0, "imitate", target=1) == "gg.err.immune"


def test_tsiva_freezes_enemies_within_three_only() -> None:
    s = setup(["tsiva", "armazi", "ebue"], [(5, 1), (5, 4), (5, 5)])
    s["players"][0]["cd"] = 0
    s = play(s, 0, "ability")
    assert s["players"][1]["frozen"] and not s["players"][2]["frozen"]


def test_tharsis_burns_adjacent_enemies_at_the_end_of_his_turn() -> None:
    s = setup(["tharsis", "armazi", "ebue"], [(5, 1), (5, 2), (5, 5)])
    s = play(to_after(s, 0), 0, "end")
    assert (hp(s, 1), hp(s, 2)) == (90, 100)
    assert s["turn"] == 1 and s["t"]["heal_block"]  # burned: no healing cards in this, its next turn


def test_ignite_kill_out_of_turn_asks_tharsis_where_the_loot_goes() -> None:
    s = setup(["ebue", "tharsis", "armazi"], [(5, 1), (5, 2), (9, 9)])
    s["players"][0]["hp"] = 10
    gun = give(s, 0, "lynx")
    give(s, 1, "kiss")
    give(s, 1, "janeli")
    s = play(to_after(s, 0), 0, "end")
    assert not s["players"][0]["alive"]
    assert GAME.to_act(s) == {1}
    (decision,) = GAME.decisions(s)
    assert decision.seat == 1 and decision.default.get("card") == gun and decision.default.get("into") == "discard"
    s = GAME.apply(s, 1, decision.default).state
    assert GAME.to_act(s) == {1} and s["turn"] == 1 and gun in s["wdisc"]


def test_octor_starts_with_a_neighbours_ability() -> None:
    s = GAME.new({"mode": "ffa", "characters": "choose", "final_zone": "shrink"}, 3, 7)
    for seat, char in ((0, "octor"), (1, "emoon"), (2, "kruber")):
        assert GAME.to_act(s) == {seat}
        s = play(s, seat, "pick", char=char)
    assert s["phase"] == "octor" and GAME.to_act(s) == {0}
    assert why(s, 0, "imitate", target=1) == "gg.err.immune"
    s = play(s, 0, "imitate", target=2)
    assert s["players"][0]["copy"] == {"ability": "eye_contact", "cd": 4} and s["phase"] == "play"


def test_octor_may_imitate_again_in_the_same_turn() -> None:
    s = setup(["octor", "armazi", "medea"], [(5, 1), (5, 2), (5, 3)])
    s = play(s, 0, "imitate", target=1)
    s = play(s, 0, "imitate", target=2)
    assert s["players"][0]["copy"] == {"ability": "heal", "cd": 3}


def test_octor_copied_ignite_burns_once_at_the_end_of_his_turn() -> None:
    s = setup(["octor", "tharsis", "armazi"], [(5, 1), (9, 9), (5, 2)])
    s["players"][0]["copy"] = {"ability": "ignite", "cd": 0}
    s = play(s, 0, "ability")
    assert s["players"][0]["copy"] is None
    s = play(to_after(s, 0), 0, "end")
    assert hp(s, 2) == 90


def test_drain_skips_emoon() -> None:
    s = setup(["drain", "emoon"], [(5, 1), (5, 3)])
    gun = give(s, 0, "gemini")
    s["players"][0]["hp"] = 50
    s = to_after(s, 0)
    force(s, 6, 5)
    s = play(s, 0, "shoot", weapon=gun, target=1)
    assert hp(s, 1) == 100 - 44 and hp(s, 0) == 50


def test_medea_heals_her_teammate_in_duo() -> None:
    s = setup(["medea", "ebue", "armazi", "varas"], [(5, 1), (0, 9), (5, 4), (9, 9)], mode="duo")
    s["players"][0]["cd"] = 0
    s["players"][0]["hp"] = s["players"][2]["hp"] = 50
    s = play(s, 0, "ability")
    assert (hp(s, 0), hp(s, 2)) == (70, 70)


def test_kruber_may_swap_with_his_teammate_in_duo_and_varas_may_steal_from_his() -> None:
    s = setup(["kruber", "ebue", "varas", "medea"], [(5, 1), (0, 9), (5, 4), (9, 9)], mode="duo")
    s["players"][0]["cd"] = 0
    assert why(s, 0, "ability", target=2) is None
    s = setup(["varas", "ebue", "kruber", "medea"], [(5, 1), (0, 9), (5, 3), (9, 9)], mode="duo")
    s["players"][0]["cd"] = 0
    helm = give(s, 2, "helmet")
    assert why(s, 0, "ability", target=2, card=helm) is None


def test_cooldown_ticks_only_on_the_owners_turns() -> None:
    s = setup(["varas", "ebue"], [(5, 1), (5, 8)])
    assert s["players"][0]["cd"] == 2  # 3 at the start, one tick as turn 1 began
    s = pass_turn(s, 0)
    assert s["players"][0]["cd"] == 2
    ctx = Ctx(s)
    start_turn(ctx, 0)
    assert s["players"][0]["cd"] == 1
