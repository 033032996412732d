"""The AI rival: always legal, deterministic, builds on the tiles it reaches, and plays whole games."""

from __future__ import annotations

from rules.base import SYSTEM, Action, LegalAction
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.combat import start_attack
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import adjacent_keys
from rules.rng import Rng
from rules.text import msg
from tests.guerra_de_indagar.helpers import (
    attack,
    build_under_helgoth,
    clear_board,
    k,
    lab,
    my_turn,
    put,
    started,
    victory_need,
)
from tools import gi_ai_eval


def _all_ai(seats: int, seed: int) -> tuple[State, int]:
    s = GAME.new(GAME.resolve_options({}), seats, seed)
    rng = Rng.from_seed(seed)
    steps = 0
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        if seat == SYSTEM:
            action = GAME.system_action(s)
        else:
            action = GAME.ai_action(s, seat, rng)
            assert GAME.is_legal(s, seat, action), action
        s = GAME.apply(s, seat, action).state
        steps += 1
    return s, steps


def test_ai_seats_play_whole_games_legally_in_every_size() -> None:
    assert GAME.supports_ai
    for seats in (1, 2, 4):
        s, _ = _all_ai(seats, 3)
        assert s["result"] is not None


def test_ai_is_deterministic() -> None:
    a, steps_a = _all_ai(2, 11)
    b, steps_b = _all_ai(2, 11)
    assert (steps_a, a["result"], a["outposts"]) == (steps_b, b["result"], b["outposts"])


def _players_turn(seed: int = 1) -> tuple[State, int]:
    """A started game advanced to a player's own turn with no question pending."""
    s = started(2, seed)
    while SYSTEM in GAME.to_act(s) or s["pending"]:
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, Rng.from_seed(1))
        s = GAME.apply(s, seat, action).state
    return s, min(GAME.to_act(s))


def test_ai_builds_when_standing_on_a_free_resource_tile_it_can_pay() -> None:
    s, seat = _players_turn()
    s["monsters"]["helgoth"].update({"at": None, "gone": True})  # Helgoth would hunt the outposts of the leader
    hid = next(h for h, hero in sorted(s["heroes"].items()) if hero["owner"] == seat)
    spot = next(key for key, t in sorted(s["tiles"].items()) if t["t"] == "gold" and t["area"] == seat)
    s["tiles"][spot]["up"] = True
    s["heroes"][hid]["at"] = spot
    s["players"][seat]["res"]["gold"] = 5
    s = GAME.apply(s, seat, Action.of("activate", hero=hid)).state
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("build")


def test_ai_turns_spirits_into_points() -> None:
    s, seat = _players_turn()
    for mon in s["monsters"].values():
        if mon["card"] == "oryana":
            mon.update({"at": None, "gone": True})
    s["players"][seat]["spirits"] = 2  # nothing to hunt yet (Helgoth without outposts, no Oryana): no reserve
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_pp")


def test_ai_keeps_two_spirits_while_oryana_is_about() -> None:
    s, seat = _players_turn()
    assert ai._oryana(s) and ai._prey(s, seat) is None  # at home with nothing held: not hunted yet
    s["players"][seat]["spirits"] = 2  # four attack dice the day she sits on the Source (Ward: defence 5)
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) != Action.of("spirit_pp")
    s["players"][seat]["spirits"] = 4
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_pp")


def test_eval_tool_reports_a_rate() -> None:
    winners, how = gi_ai_eval.play(0, 2, 5)
    assert how.startswith("gi.end.") and all(0 <= w < 2 for w in winners)


def _field() -> tuple[State, int]:
    """A clean meadow field in round 3 for seat 0 (Arkland) against Helgoth and Oryana."""
    s = clear_board(started(2, 1))
    s["round"] = 3
    return s, 0


def _walker_field(count: int) -> tuple[State, int]:
    """The clean field with the Spirit Walker alone, on -2,0, `count` heroes into his victory."""
    s, seat = _field()
    s["monsters"]["helgoth"].update({"at": None, "gone": True})
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["walker"] = {**s["monsters"]["helgoth"], "card": "walker", "gone": False, "at": "-2,0",
                               "count": count, "home": 0}
    return s, seat


def test_ai_hunts_the_primary_monster_nearest_its_victory() -> None:
    s, _ = _field()
    s["monsters"]["helgoth"].update({"at": "-2,0", "count": 1})
    s["monsters"]["oryana"].update({"at": "2,0", "spirits": 0})
    assert ai._prey(s) == "helgoth"  # Oryana away from the Source with nothing held: the keeper alone denies her
    s["monsters"]["oryana"].update({"at": "0,0", "spirits": 1})
    s["source"] = 2  # what Oryana would drink brings her within 2 of her 5 spirits (PROV-18)
    assert ai._prey(s) == "oryana"


def test_ai_strikes_the_hunted_monster_when_beside_it() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-2,0", "count": 4})
    put(s, "ariane", "-1,0")
    put(s, "paladin", "-2,1")  # flanking: one more die
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("attack", to=lab(s, "-2,0"))


def test_ai_closes_in_on_the_hunted_monster() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-2,0", "count": 4})
    put(s, "ariane", "0,2")
    s = my_turn(s, seat, "ariane")
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "move"
    prey = {n for n in adjacent_keys(s, "-2,0")}
    assert ai._dist_from(s, [k(s, action["to"])], None, prey) < ai._dist_from(s, ["0,2"], None, prey)


def test_ai_spends_spirit_dice_on_a_short_roll_against_the_hunted_monster() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-2,0", "count": 4})
    s["players"][seat]["spirits"] = 1
    put(s, "ariane", "-1,0")
    start_attack(s, ("hero", "ariane"), "-2,0", "turn")
    s["players"][seat]["res"] = {"gold": 0, "wood": 0, "mineral": 0}  # no paid boost: the spirit
    attack(s)["a"] = [1, 1, 1]
    s["pending"] = [{"kind": "a_boost", "seat": seat}]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_dice")
    attack(s)["a"] = [6, 6, 6, 6]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) != Action.of("spirit_dice")


def test_ai_buys_the_biggest_boost_before_spending_a_spirit() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-2,0", "count": 4})
    s["players"][seat]["spirits"] = 1
    s["players"][seat]["res"] = {"gold": 5, "wood": 0, "mineral": 1}
    s["players"][seat]["tree"] = "merchant_crown"
    s["players"][seat]["unlocks"] = {"mercenaries": "bolt"}
    put(s, "ariane", "-1,0")
    start_attack(s, ("hero", "ariane"), "-2,0", "turn")
    attack(s)["a"] = [1, 1, 1]
    s["pending"] = [{"kind": "a_boost", "seat": seat}]
    offered = {str(la.action["id"]) for la in GAME.legal_actions(s, seat) if la.action.kind == "ability"}
    assert offered == {"flaming_sword", "mercenaries"}
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("ability", id="mercenaries")  # 3 dice, not 1
    attack(s)["a"] = [6, 6, 6, 6]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)).kind != "ability"  # enough already: nothing bought


def test_ai_keeper_takes_the_source_from_under_oryanas_nose() -> None:
    s, seat = _field()
    s["monsters"]["helgoth"]["at"] = None
    s["monsters"]["oryana"]["at"] = "-1,0"  # beside the Source: stepping there invites her attack, yet it must
    s["source"] = 2
    put(s, "ariane", "1,0")
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("move", to=lab(s, "0,0"))


def test_ai_waits_beside_the_home_of_the_hunted_monster_in_retreat() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": None, "retreat": 2, "count": 4})
    home = next(key for key, t in s["tiles"].items() if t["home"] == s["monsters"]["helgoth"]["home"])
    beside = set(adjacent_keys(s, home))
    put(s, "ariane", "1,1")
    s = my_turn(s, seat, "ariane")
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "move"
    assert ai._dist_from(s, [k(s, action["to"])], None, beside) < ai._dist_from(s, ["1,1"], None, beside)
    s["heroes"]["ariane"]["at"] = sorted(beside)[0]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("end")


def test_ai_hands_out_helgoth_and_leads_with_the_hero_that_speeds_them_all() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    seat = s["order"][0]
    s = GAME.apply(s, seat, GAME.ai_action(s, seat, Rng.from_seed(1))).state
    assert s["players"][seat]["faction"] == "arkland"
    other = s["order"][1]
    s = GAME.apply(s, other, Action.of("faction", faction="sect")).state
    s = GAME.apply(s, seat, GAME.ai_action(s, seat, Rng.from_seed(1))).state
    assert s["players"][seat]["commander"] == "knight"  # Arkland Cavalry: every hero a step more
    s = GAME.apply(s, other, GAME.legal_actions(s, other)[0].action).state
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "monster" and action["monster"] == "helgoth"  # he scores only outposts it keeps few


def test_ai_leads_with_its_toughest_hero_when_no_command_ability_speeds_the_others() -> None:
    assert ai._command_move("knight") == 1 and ai._command_move("paladin") == 0
    legal = [LegalAction(Action.of("commander", hero=h), msg("gi.act.done")) for h in ("shaman", "huntress", "warden")]
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    assert ai.choose(legal, s, 0, Rng.from_seed(1)) == Action.of("commander", hero="warden")  # defence 3, resistance 8


def test_ai_does_not_lead_in_outposts_while_helgoth_is_about() -> None:
    s, seat = build_under_helgoth()
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) != Action.of("build")
    s["outposts"]["2,-4"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}  # the rival leads: Helgoth's prey
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("build")
    assert ai._build_ok(s, seat)
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - 1  # yet that one outpost would be his last
    assert not ai._build_ok(s, seat)
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) != Action.of("build")


def test_ai_strikes_oryana_on_the_source_even_with_poor_odds() -> None:
    s, seat = _field()
    s["monsters"]["helgoth"].update({"at": None, "gone": True})
    s["monsters"]["oryana"].update({"at": "0,0", "spirits": 3})
    put(s, "paladin", "1,0")  # attack 2 against her defence 3: still worth a try, the defender never hits back
    s = my_turn(s, seat, "paladin")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("attack", to=lab(s, "0,0"))


def test_ai_keeper_ignores_the_blow_that_would_push_it_off_the_source() -> None:
    s, seat = _field()
    s["monsters"]["helgoth"].update({"at": None, "gone": True})
    s["monsters"]["oryana"].update({"at": "1,0"})
    put(s, "paladin", "0,0")
    s["players"][seat]["spirits"] = 1
    start_attack(s, ("monster", "oryana"), "0,0", "monster")
    attack(s).update({"a": [3, 3, 1], "d": [1, 1, 1, 1], "stage": "damage"})  # 2 damage: the paladin would fall back
    s["pending"] = [{"kind": "d_boost", "seat": seat}]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_ignore")
    attack(s)["a"] = [3, 1, 1]  # 1 damage: it stays anyway
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("done")


def test_ai_keeps_a_hurt_hero_out_of_the_walkers_reach() -> None:
    s, seat = _walker_field(count=4)
    put(s, "ariane", "0,2")
    s["heroes"]["ariane"]["dmg"] = 4  # 2 left of 6: one more blow sends it to retreat, the Walker's fifth
    s = my_turn(s, seat, "ariane")
    threats = ai._threats(s)
    assert ai._danger(s, "ariane", "-1,1", threats) > ai._danger(s, "ariane", "0,3", threats) == 0
    for _ in range(4):
        action = GAME.ai_action(s, seat, Rng.from_seed(1))
        if action.kind != "move":
            break
        s = GAME.apply(s, seat, action).state
    end = s["heroes"]["ariane"]["at"]
    walker = next(t for mid, _, t in ai._threats(s) if mid == "walker")
    assert end not in walker


def test_ai_sends_a_falling_back_monster_beside_its_fresh_heroes() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-1,0", "count": 4})
    put(s, "ariane", "0,0")
    s["heroes"]["ariane"]["done"] = True
    put(s, "paladin", "-2,3")  # still to act this round, 3 steps a turn
    s["pending"] = [{"kind": "monster_fall_back", "seat": seat, "monster": "helgoth"}]
    options = {k(s, la.action["to"]) for la in GAME.legal_actions(s, seat)}
    assert options == {"0,-1", "-1,-1", "-2,0", "-2,1", "-1,1"}
    chosen = k(s, GAME.ai_action(s, seat, Rng.from_seed(1))["to"])
    assert chosen in {"-2,1", "-1,1"}  # the paladin can then stand beside it and strike


def test_ai_keeps_off_a_peeked_resource_tile_while_tijian_is_about() -> None:
    s, seat = _field()
    s["tiles"]["1,1"].update({"t": "gold", "up": False})
    s["players"][seat]["known"].append("1,1")
    assert ai._passable(s, seat, "ariane", "1,1")
    s["monsters"]["oryana"]["card"] = "tijian"
    assert not ai._passable(s, seat, "ariane", "1,1")  # face up it would be Tijian's next tile


def test_chances_of_the_dice() -> None:
    assert abs(ai.chance(1, 0, 1) - 5 / 6) < 1e-9  # only the 0 face misses
    assert ai.chance(3, 2, 2) > ai.chance(2, 2, 2) > ai.chance(2, 3, 2)


def test_ai_keeps_its_spirits_for_points_in_the_last_round_unless_a_monster_is_about_to_win() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-2,0", "count": 0})
    put(s, "ariane", "-1,0")
    s["heroes"]["ariane"]["dmg"] = 4
    s["players"][seat]["spirits"] = 1
    by = {"spirit_heal": [Action.of("spirit_heal", hero="ariane")]}
    s["round"] = 9
    assert ai._spirit_heal(s, seat, by) == by["spirit_heal"][0]  # beside Helgoth, 2 left of 6
    s["round"] = 10
    assert ai._spirit_heal(s, seat, by) is None  # half a point now, and a tie goes to the earlier seat
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - 1
    assert ai._spirit_heal(s, seat, by) == by["spirit_heal"][0]  # one outpost from his victory: everyone loses


def test_ai_turns_a_peeked_gift_face_up_and_keeps_the_rest_hidden() -> None:
    s, seat = _field()
    s["tiles"]["1,1"].update({"t": "spirits", "up": False})
    s["tiles"]["1,0"].update({"t": "gold", "up": False})
    by = {"reveal": [Action.of("reveal")], "keep_hidden": [Action.of("keep_hidden")]}
    assert ai._answer(s, seat, {"kind": "reveal", "seat": seat, "tile": "1,1"}, by, []) == Action.of("reveal")
    assert ai._answer(s, seat, {"kind": "reveal", "seat": seat, "tile": "1,0"}, by, []) == Action.of("keep_hidden")


def test_ai_walks_heroes_up_to_oryana_before_the_one_beside_her_strikes() -> None:
    s, seat = _field()
    s["monsters"]["helgoth"].update({"at": None, "gone": True})
    s["monsters"]["oryana"].update({"at": "0,0", "spirits": 3})
    put(s, "knight", "1,0")  # beside her already, the better striker
    put(s, "paladin", "0,3")  # one walk away: walking up first, its strike and the knight's each get a flanking die
    s["phase"], s["turn"] = "turns", ["p", str(seat)]
    s["ring"], s["ring_pos"] = [["p", "0"], ["p", "1"]], 0
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("activate", hero="paladin")
    s = GAME.apply(s, seat, Action.of("activate", hero="paladin")).state
    for _ in range(4):
        action = GAME.ai_action(s, seat, Rng.from_seed(1))
        if action.kind != "move":
            break
        s = GAME.apply(s, seat, action).state
    assert action == Action.of("attack", to=lab(s, "0,0"))


def test_ai_strikes_the_walker_rather_than_build() -> None:
    s, seat = _walker_field(count=victory_need("walker") - 3)
    s["tiles"]["-1,0"].update({"t": "gold", "up": True})
    s["players"][seat]["res"]["gold"] = 5
    put(s, "knight", "-1,0")  # an outpost to build here, or a blow at the Walker, who eats the other player's heroes
    s = my_turn(s, seat, "knight")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("attack", to=lab(s, "-2,0"))
    s["solo"] = True  # alone, only its own heroes are his prey: no extra urge
    s["monsters"]["walker"]["count"] = victory_need("walker", solo=True) - 2
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("build")


def test_ai_walks_heroes_up_to_the_hunted_walker_before_those_beside_him_strike() -> None:
    s, seat = _walker_field(count=2)
    put(s, "knight", "-1,0")
    put(s, "ariane", "-1,-1")  # both beside him already
    put(s, "paladin", "0,2")  # walking up first, it adds a flanking die to the strikes of both
    s["phase"], s["turn"] = "turns", ["p", str(seat)]
    s["ring"], s["ring_pos"] = [["p", "0"], ["p", "1"]], 0
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("activate", hero="paladin")


def _last_round_on_gold(res: dict[str, int], spirits: int) -> tuple[State, int]:
    """Round 10 on the field, Helgoth far from his victory, Ariane on a free gold tile with `res` and `spirits`."""
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-3,0", "count": 0})
    s["tiles"]["0,2"].update({"t": "gold", "up": True})
    put(s, "ariane", "0,2")
    s["players"][seat]["res"].update(res)
    s["players"][seat]["spirits"] = spirits
    s["round"] = 10
    return my_turn(s, seat, "ariane"), seat


def test_ai_pays_for_a_last_round_outpost_with_an_odd_spirit() -> None:
    s, seat = _last_round_on_gold({"gold": 0, "wood": 1, "mineral": 0}, 1)
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action == Action.of("spirit_res", get=["gold", "gold", "gold"])  # the lone spirit makes no point
    s = GAME.apply(s, seat, action).state
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("build")
    s, seat = _last_round_on_gold({"gold": 0, "wood": 1, "mineral": 0}, 0)
    s["players"][seat]["spirits"] = 2  # a pair is a point already: not spent on an outpost
    assert GAME.ai_action(s, seat, Rng.from_seed(1)).kind not in ("spirit_res", "build")


def test_ai_trades_rather_than_spend_a_spirit_when_trades_cover_the_gold() -> None:
    s, seat = _last_round_on_gold({"gold": 1, "wood": 2, "mineral": 1}, 1)
    action = GAME.ai_action(s, seat, Rng.from_seed(1))
    assert action.kind == "trade" and action["get"] == "gold"
    s, seat = _last_round_on_gold({"gold": 0, "wood": 2, "mineral": 1}, 1)  # one trade short of 2 gold
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("spirit_res", get=["gold", "gold", "gold"])


def test_ai_builds_in_the_last_round_before_anything_else_unless_a_monster_is_about_to_win() -> None:
    s, seat = _last_round_on_gold({"gold": 2}, 0)
    by = {"build": [Action.of("build")], "end": [Action.of("end")]}
    assert ai._last_build(s, seat, "ariane", by) == Action.of("build")  # a cage guard too: building keeps its tile
    s["round"] = 9
    assert ai._last_build(s, seat, "ariane", by) is None
    s["round"] = 10
    s["monsters"]["helgoth"]["count"] = ai._need(s, "helgoth") - 1
    assert ai._last_build(s, seat, "ariane", by) is None


def test_ai_builds_in_the_last_round_only_where_helgoth_has_too_few_turns_left_to_win() -> None:
    s, seat = _last_round_on_gold({"gold": 2}, 0)
    by = {"build": [Action.of("build")], "end": [Action.of("end")]}
    s["monsters"]["helgoth"].update({"at": "-2,0", "turns": 0, "count": ai._need(s, "helgoth") - 3})
    assert ai._last_build(s, seat, "ariane", by) is None  # three outposts in his three turns
    s["monsters"]["helgoth"]["turns"] = 1
    assert ai._last_build(s, seat, "ariane", by) == Action.of("build")  # two turns left for three
    s["monsters"]["helgoth"].update({"turns": 0, "at": None})
    assert ai._last_build(s, seat, "ariane", by) == Action.of("build")  # in retreat: no turn this round


def test_ai_gathers_in_the_last_round_only_for_the_pairs_it_completes() -> None:
    s, seat = _field()
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["round"], s["source"] = 10, 1
    s["players"][seat]["spirits"] = 0
    assert all(deed != ("gather", s["source_at"]) or value == 0.0
               for value, deed in ai._deeds(s, seat, "ariane", s["source_at"], None, False))
    s["players"][seat]["spirits"] = 1
    assert (ai.LAST_POINT, ("gather", s["source_at"])) in ai._deeds(s, seat, "ariane", s["source_at"], None, False)


def test_ai_uses_its_free_income_first_then_trades_spare_gold_for_what_runs_short() -> None:
    s, seat = _field()
    s["players"][seat]["tree"] = "merchant_crown"
    s["players"][seat]["unlocks"] = {"taxes": "bolt"}
    s["players"][seat]["res"] = {"gold": 9, "wood": 3, "mineral": 0}
    put(s, "ariane", "0,2")
    s = my_turn(s, seat, "ariane")
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("skill", id="taxes")
    s = GAME.apply(s, seat, Action.of("skill", id="taxes")).state
    assert s["players"][seat]["res"]["gold"] == 11  # the bolt: 2
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("trade", give=["gold"] * 3, get="mineral")
    s["players"][seat]["res"]["gold"] = 6  # a boost and an outpost's worth: kept
    assert GAME.ai_action(s, seat, Rng.from_seed(1)).kind != "trade"


def test_ai_declares_its_income_tree_unlocking_the_income_first() -> None:
    s, seat = _field()
    s["pending"] = [{"kind": "declare", "seat": seat}]
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("declare", tree="merchant_crown", unlock="taxes",
                                                                  side="bolt")
    s["players"][seat]["unlocks"] = {"taxes": "bolt"}
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("declare", tree="merchant_crown",
                                                                  unlock="engineers", side="coin")  # no '*'
    s["players"][seat]["unlocks"] = {"taxes": "bolt", "engineers": "coin"}
    assert GAME.ai_action(s, seat, Rng.from_seed(1)) == Action.of("declare", tree="merchant_crown",
                                                                  unlock="mercenaries", side="bolt")


def test_ai_takes_the_sect_when_arkland_is_taken() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    first, second = s["order"]
    s = GAME.apply(s, first, Action.of("faction", faction="arkland")).state
    assert GAME.ai_action(s, second, Rng.from_seed(1)) == Action.of("faction", faction="sect")
