"""The §7 variants and scenarios offered at /game new (P-28): one test each."""

from __future__ import annotations

import i18n
from rules.base import SYSTEM, Action, Event
from rules.kings_armory import GAME, data, enemy, queries, shop
from rules.kings_armory import round as allies_round
from rules.kings_armory.shapes import Ally, State
from rules.rng import Rng

from .helpers import Dice, add_hero, add_monster, lane_square, open_square_at, scene


def _game(seats: int = 1, **variants: bool) -> State:
    return GAME.new(GAME.resolve_options({k: str(v) for k, v in variants.items()}), seats, 3)


def _scene(**variants: bool) -> State:
    s = scene()
    s["variants"] = sorted(k for k, on in variants.items() if on)
    return s


def test_every_variant_is_an_option_and_off_by_default() -> None:
    keys = {o.key: o.default for o in GAME.options()}
    for name in ("ettin", "quick", "stars", "gold_mining", "hard_stones", "generals", "scarce", "endurance",
                 "not_enough"):
        assert keys[name] is False
    assert _game()["variants"] == []


def test_quick_game_makes_every_attack_auto_and_one_damage_weaker() -> None:
    s = _scene(quick=True)
    orc = add_monster(s, "orc_warrior", 20)  # M resistance 1
    valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
    s["active"], valcor["ap"] = valcor["id"], 3
    allies_round.apply(s, Dice(), [], 0, Action.of("attack", opt="mace", target=orc["id"]))
    assert orc["hp"] == 9 - (4 - 1 - 1)  # no die used; 4 − 1 (Quick) − 1 (resistance)
    enemy._attack(s, Dice(), [], orc, moved=0)
    assert valcor["hp"] == 20 - max(1, 3 - 1 - 2)  # the orc hits automatically; minimum 1


def test_three_stars_pays_two_more_cards_for_an_untouched_gate_and_one_fewer_otherwise() -> None:
    for lost, cards in ((0, 1 + 1 + 2), (5, 1 + 1 - 1)):
        s = _scene(stars=True)
        add_hero(s, "valcor", (0, 0))
        s["coins"] = [50] * 26
        s["gate_at_start"] = s["gate"]
        s["gate"] -= lost
        enemy.end_wave(s, [])
        assert s["gold"] == 50 * cards


def test_gold_mining_starts_with_gold_and_banks_fifty_per_natural_twelve() -> None:
    assert _game(3, gold_mining=True)["gold"] == 150
    s = _scene(gold_mining=True)
    add_hero(s, "valcor", (0, 0))
    s.update({"phase": "enemy", "eturn": 1})
    enemy.arrive(s, Dice(12), [])
    enemy.arrive(s, Dice(11), [])
    assert s["banked"] == 50
    s["coins"] = [100] * 26
    enemy.end_wave(s, [])
    assert s["gold"] == 2 * 100 + 50 and s["banked"] == 0


def test_hard_stones_towers_cost_150_sell_for_75_hold_four_and_the_gate_can_be_repaired() -> None:
    s = _scene(hard_stones=True)
    s.update({"phase": "between", "gold": 400, "ready": []})
    add_hero(s, "valcor", (0, 0))
    assert shop.tower_price(s) == 150
    corner = shop.build_squares(s)[0]
    s = GAME.apply(s, 0, Action.of("build", at=queries.board_of(s).label(corner))).state
    assert s["gold"] == 250 and queries.capacity(s, s["towers"][0]["id"]) == 4 and queries.capacity(s, "PW") == 1
    s["gate"] -= 7
    s = GAME.apply(s, 0, Action.of("repair")).state
    assert (s["gate_max"] - s["gate"], s["gold"]) == (2, 200)
    s = GAME.apply(s, 0, Action.of("repair")).state
    assert s["gate"] == s["gate_max"] and not GAME.is_legal(s, 0, Action.of("repair"))
    plain = scene()
    plain.update({"phase": "between", "gold": 400, "ready": [], "gate": 5})
    add_hero(plain, "valcor", (0, 0))
    assert not GAME.is_legal(plain, 0, Action.of("repair"))


def test_generally_enough_means_no_champions_and_unlocked_starting_equipment() -> None:
    s = _game(2, generals=True)
    assert all(not g["locked"] for g in s["gear"]) and s["gear_gate"]
    s.update({"phase": "between", "gold": 1000})
    assert not shop.can_hire(s, "foot")


def test_scarce_and_underpaid_costs_more_and_pays_less() -> None:
    s = _scene(scarce=True)
    assert queries.champion_cost(s, "foot", 0) == 200 and queries.champion_cost(s, "foot", 1) == 150
    add_hero(s, "valcor", (0, 0))
    s["coins"] = [50] * 26
    enemy.end_wave(s, [])
    assert s["gold"] == 50 * 1  # 1 player + wave 1 − 1


def test_ettin_monsters_hit_one_better() -> None:
    for ettin, hp in ((False, 20), (True, 20 - 1)):
        s = _scene(ettin=ettin)
        orc = add_monster(s, "orc_warrior", 20)  # +4 against Dodge 13
        valcor = add_hero(s, "valcor", open_square_at(s, lane_square(s, 20), 1))
        enemy._attack(s, Dice(8), [], orc, moved=0)  # 12, or 13 with Ettin
        assert valcor["hp"] == hp


# ---------------------------------------------------------------- Endurance


def _survive(s: State) -> list[Event]:
    """End the current wave as if its last monster had just fallen."""
    events: list[Event] = []
    s["monsters"], s["arrive"], s["later"], s["extra"], s["boss_due"] = [], 0, 0, [], []
    enemy.end_wave(s, events)
    return events


def test_endurance_repeats_the_last_wave_card_row_with_two_more_monsters_each_time() -> None:
    endurance = data.variants()["endurance"]
    s = _scene(endurance=True)
    rows = len(data.wave_card()["levels"])
    sizes = {}
    for wave in (1, rows, rows + 1, rows + 2, rows + 30):
        s["wave"] = wave
        sizes[wave] = queries.wave_size(s)
    plain = _scene()
    plain["wave"] = rows
    assert sizes[1] == 1 + 3 and sizes[rows] == queries.wave_size(plain) == rows + 3
    assert sizes[rows + 1] == sizes[rows] + 2 and sizes[rows + 2] == sizes[rows] + 4
    assert sizes[rows + 30] == endurance["max_monsters"], "capped so the lanes and the 85 tokens suffice"
    for roll in range(1, 13):
        assert data.level_for_roll(rows + 5, roll) == data.level_for_roll(rows, roll)


def test_endurance_pays_no_coins_brings_no_boss_and_goes_past_the_chosen_length() -> None:
    s = _game(1, endurance=True)
    s.update({"phase": "allies", "wave": 5})
    add_hero(s, "valcor", (0, 0))
    s["coins"] = [100] * 26
    events = _survive(s)
    assert s["phase"] == "between" and s["result"] is None, "wave 5 of 5 is not the end in Endurance"
    assert s["gold"] == 0 and [e.msg.key for e in events] == ["ka.ev.wave_survived"]
    assert GAME.view(s, None)["score"] == 5
    s["ready"] = [0]
    shop.start_wave(s, Rng.from_seed(1), [])
    assert s["wave"] == 6 and s["boss_due"] == [] and s["arrive"] == 6 + 3
    plain = _game(1)
    plain.update({"phase": "between", "wave": 4})
    shop.start_wave(plain, Rng.from_seed(1), [])
    assert plain["boss_due"], "the plain game's last wave brings its boss"


def test_endurance_ends_in_defeat_with_the_score_or_at_its_cap() -> None:
    s = _game(1, endurance=True)
    s.update({"phase": "enemy", "wave": 9})
    add_hero(s, "valcor", (0, 0))
    s["gate"] = 0
    enemy.check_end(s, [])
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == frozenset()
    assert i18n.t(outcome.summary, "en") == "Endurance over in wave 9: the Castle Gate fell. Waves survived: 8."
    assert "Oleadas superadas: 8" in i18n.t(outcome.summary, "es")
    assert GAME.view(s, None)["score"] == 8
    cap = data.variants()["endurance"]["max_waves"]
    s = _game(1, endurance=True)
    s.update({"phase": "allies", "wave": cap})
    add_hero(s, "valcor", (0, 0))
    _survive(s)
    outcome = GAME.outcome(s)
    assert s["result"] == "won" and outcome is not None and outcome.winners == frozenset({0})
    assert str(cap) in i18n.t(outcome.summary, "en") and GAME.view(s, None)["waves"] == cap


def test_endurance_wave_twenty_fits_on_the_short_road_for_seven_players() -> None:
    """The biggest wave the cap allows, played by the AI: every figure where it may stand, every token counted."""
    s = GAME.new(GAME.resolve_options({"endurance": "true", "map": "short-road"}), 7, 2)
    rng = Rng.from_seed(2)
    bumped, most = False, 0
    for _ in range(20000):
        if s["phase"] == "setup" and not bumped:
            s = {**s, "wave": data.variants()["endurance"]["max_waves"], "gate": 999, "gate_max": 999}
            bumped = True
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        s = GAME.apply(s, seat, GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, rng)).state
        most = max(most, len(s["monsters"]))
        assert GAME.check_invariants(s) == []
    assert GAME.outcome(s) is not None and most == data.variants()["endurance"]["max_monsters"]


# ---------------------------------------------------------------- General-ly Not Enough


def test_not_enough_each_player_picks_one_level_one_champion_within_the_type_limits() -> None:
    s = _game(3, not_enough=True)
    picks = [la.action for la in GAME.legal_actions(s, 0)]
    assert {str(a["type"]) for a in picks} == set(data.champions()) and all(a.get("hero") is None for a in picks)
    s = GAME.apply(s, 0, Action.of("pick", type="sorcerer")).state
    s = GAME.apply(s, 1, Action.of("pick", type="sorcerer")).state
    assert "sorcerer" not in {str(la.action["type"]) for la in GAME.legal_actions(s, 2)}, "only two sorcerers"
    assert not GAME.is_legal(s, 2, Action.of("pick", type="sorcerer"))
    assert not GAME.is_legal(s, 2, Action.of("pick", hero="valcor"))
    s = GAME.apply(s, 2, Action.of("pick", type="archer")).state
    assert s["phase"] == "setup" and queries.heroes(s) == []
    assert [(a["kind"], a["key"], a["level"], a["seat"], a["own"]) for a in s["allies"]] == [
        ("champion", "sorcerer", 1, 0, True), ("champion", "sorcerer", 1, 1, True), ("champion", "archer", 1, 2, True)]
    assert len({a["token"] for a in s["allies"] if a["key"] == "sorcerer"}) == 2
    s.update({"phase": "between", "gold": 1000})
    assert not shop.can_hire(s, "sorcerer") and shop.can_hire(s, "archer")


def _champion_scene() -> tuple[State, Ally]:
    s = _scene(not_enough=True)
    add_monster(s, "orc_warrior", 5)  # a monster still on the board: the wave goes on
    own: Ally = {**shop.new_champion(s, 0, "foot"), "own": True}
    own["pos"] = list(open_square_at(s, lane_square(s, 20), 1))
    s["allies"].append(own)
    return s, own


def test_not_enough_a_fallen_player_champion_is_knocked_out_and_then_the_game_is_lost() -> None:
    s, own = _champion_scene()
    hired = shop.new_champion(s, 0, "archer")
    hired["pos"] = list(open_square_at(s, lane_square(s, 20), 2))
    s["allies"].append(hired)
    enemy.fall(s, [], hired)
    assert hired not in s["allies"] and s["fallen"] == {"archer": 1}, "a hired champion still dies for good"
    events: list[Event] = []
    own["hp"] = 0
    enemy.fall(s, events, own)
    assert own in s["allies"] and own["ko"] and s["result"] == "champions"
    assert "ka.ev.lost_champions" in [e.msg.key for e in events]
    assert GAME.check_invariants(s) == []
    outcome = GAME.outcome(s)
    assert outcome is not None and "champion" in i18n.t(outcome.summary, "en")


def test_not_enough_a_knocked_out_champion_gets_up_between_waves_at_its_heal_rate() -> None:
    s, own = _champion_scene()
    other: Ally = {**shop.new_champion(s, 0, "cleric"), "own": True}
    other["pos"] = list(open_square_at(s, lane_square(s, 20), 2))
    s["allies"].append(other)
    own["hp"] = 0
    enemy.fall(s, [], own)
    assert own["ko"] and s["result"] is None, "another player champion still stands"
    _survive(s)
    heal = data.champions()["foot"]["heal"][0]
    assert s["phase"] == "between" and not own["ko"] and own["hp"] == heal


def test_not_enough_games_played_by_the_ai_reach_an_end() -> None:
    for seats in (1, 3):
        s = GAME.new(GAME.resolve_options({"not_enough": "true"}), seats, 5)
        rng = Rng.from_seed(5)
        for _ in range(30000):
            if GAME.outcome(s) is not None:
                break
            seat = min(GAME.to_act(s))
            s = GAME.apply(s, seat, GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, rng)).state
            assert GAME.check_invariants(s) == []
        assert GAME.outcome(s) is not None and queries.heroes(s) == []
        assert all(a["kind"] != "hero" for a in s["allies"])
