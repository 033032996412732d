"""Out-of-turn questions: equipment trades, the Lucky Charm's re-roll, pausing the enemy turn for card plays."""

from __future__ import annotations

import pytest

from rules.base import SYSTEM, Action, Event, IllegalAction
from rules.kings_armory import GAME, ai, armory, enemy, queries
from rules.kings_armory import round as allies_round
from rules.kings_armory.shapes import Ally, GearPiece, Monster, State
from rules.rng import Rng

from .helpers import Dice, add_hero, add_monster, lane_square, on_board, open_square_at, scene


def _act(s: State, seat: int, action: Action) -> State:
    assert GAME.is_legal(s, seat, action), action
    out = GAME.apply(s, seat, action).state
    assert GAME.check_invariants(out) == []
    return out


def _kinds(s: State, seat: int) -> set[str]:
    return {la.action.kind for la in GAME.legal_actions(s, seat)}


# ---------------------------------------------------------------- equipment trades (§4.5)


def _between(seats: int = 2) -> State:
    """Between waves, each hero housed on a parapet (so its seat may ready)."""
    s = scene(seats=seats)
    s.update({"phase": "between", "gold": 0, "ready": []})
    for seat, (house, sq) in zip(range(seats), sorted(queries.board_of(s).parapets.items()), strict=False):
        a = add_hero(s, ["valcor", "ember"][seat], sq, seat=seat)
        a.update({"house": house, "inside": True})
    return s


def _piece(s: State, gid: str) -> GearPiece:
    piece = armory.piece(s, gid)
    assert piece is not None, gid
    return piece


def _unlock(s: State, gid: str) -> GearPiece:
    piece = armory.piece(s, gid)
    assert piece is not None
    piece["locked"] = False
    return piece


def test_a_trade_offers_one_unlocked_piece_for_another_seats_unlocked_piece() -> None:
    s = _between()
    mine, theirs = _unlock(s, "e0"), _unlock(s, "e2")  # e1 and e3 stay locked
    offers = {la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "trade"}
    assert offers == {Action.of("trade", gear=mine["id"], want=theirs["id"])}
    assert not GAME.is_legal(s, 0, Action.of("trade", gear="e1", want="e2"))  # locked: neither traded nor sold
    assert not GAME.is_legal(s, 0, Action.of("trade", gear="e0", want="e3"))
    assert not GAME.is_legal(s, 0, Action.of("trade", gear="e2", want="e0"))  # not the offering seat's piece


def test_a_trade_needs_the_other_seat_to_accept_even_when_it_is_ready() -> None:
    s = _between()
    mine, theirs = _unlock(s, "e0"), _unlock(s, "e2")
    s = _act(s, 1, Action.of("ready"))
    assert GAME.to_act(s) == {0}
    s = _act(s, 0, Action.of("trade", gear=mine["id"], want=theirs["id"]))
    assert GAME.to_act(s) == {0, 1}
    [decision] = GAME.decisions(s)
    assert decision.seat == 1 and decision.default == Action.of("decline_trade") and decision.seconds
    assert _kinds(s, 1) == {"accept_trade", "decline_trade", "order"}  # a ready seat answers (orders stand apart)
    assert GAME.timeout_action(s, 1) == Action.of("decline_trade")
    assert GAME.timeout_action(s, 0) is None  # the deadline was the offer's: the offering seat keeps its time
    assert not GAME.is_legal(s, 0, Action.of("accept_trade"))  # never forced, never self-accepted
    done = _act(s, 1, Action.of("accept_trade"))
    assert (_piece(done, "e0")["seat"], _piece(done, "e2")["seat"]) == (1, 0)
    assert done["trade"] is None and GAME.to_act(done) == {0}


def test_a_declined_or_withdrawn_offer_changes_nothing() -> None:
    s = _between()
    _unlock(s, "e0"), _unlock(s, "e2")
    offer = Action.of("trade", gear="e0", want="e2")
    s = _act(s, 0, offer)
    assert not GAME.is_legal(s, 0, offer)  # one offer at a time
    for seat, answer in ((1, "decline_trade"), (0, "withdraw_trade")):
        after = _act(s, seat, Action.of(answer))
        assert after["trade"] is None
        assert [(g["id"], g["seat"]) for g in after["gear"]] == [(g["id"], g["seat"]) for g in s["gear"]]


def test_pieces_on_offer_cannot_be_sold_or_equipped_and_worn_pieces_come_off_when_traded() -> None:
    s = _between()
    _unlock(s, "e0"), _unlock(s, "e2")
    valcor, ember = s["allies"][0], s["allies"][1]
    s = _act(s, 0, Action.of("equip", gear="e0", ally=valcor["id"]))
    s = _act(s, 1, Action.of("equip", gear="e2", ally=ember["id"]))
    s = _act(s, 0, Action.of("trade", gear="e0", want="e2"))
    assert not GAME.is_legal(s, 0, Action.of("unequip", gear="e0"))
    assert not GAME.is_legal(s, 1, Action.of("sell_gear", gear="e2"))
    s = _act(s, 1, Action.of("accept_trade"))
    assert queries.ally(s, valcor["id"])["gear"] == [] and queries.ally(s, ember["id"])["gear"] == []
    assert GAME.is_legal(s, 0, Action.of("equip", gear="e2", ally=valcor["id"]))
    assert GAME.is_legal(s, 1, Action.of("equip", gear="e0", ally=ember["id"]))


def test_trades_happen_only_between_waves_and_an_open_offer_lapses_when_the_wave_starts() -> None:
    s = _between()
    _unlock(s, "e0"), _unlock(s, "e2")
    s = _act(s, 0, Action.of("trade", gear="e0", want="e2"))
    s = _act(s, 0, Action.of("ready"))
    s = _act(s, 1, Action.of("ready"))
    assert s["phase"] == "enemy" and s["trade"] is None
    assert _piece(s, "e0")["seat"] == 0
    assert "trade" not in _kinds(s, 0) and not GAME.is_legal(s, 0, Action.of("trade", gear="e0", want="e2"))


def test_an_ai_teammate_accepts_a_trade() -> None:
    s = _between()
    _unlock(s, "e0"), _unlock(s, "e2")
    s = _act(s, 0, Action.of("trade", gear="e0", want="e2"))
    assert GAME.ai_action(s, 1, Rng.from_seed(1)) == Action.of("accept_trade")


# ---------------------------------------------------------------- the Lucky Charm (§8.6)


def _lucky() -> tuple[State, Ally, Monster]:
    s = _between(seats=1)
    valcor = s["allies"][0]
    piece = next((g for g in s["gear"] if g["card"] == "lucky"), None)
    if piece is None:
        s["gear_deck"].remove("lucky")
        piece = {"id": "e90", "card": "lucky", "seat": 0, "locked": False, "on": None}
        s["gear"].append(piece)
    piece.update({"seat": 0, "locked": False})
    s = _act(s, 0, Action.of("equip", gear=piece["id"], ally=valcor["id"]))
    s.update({"phase": "allies", "turn": 0, "active": valcor["id"]})
    a = queries.ally(s, valcor["id"])
    a.update({"ap": 3, "inside": False, "house": None})
    orc = add_monster(s, "orc_warrior", 20)
    a["pos"] = list(open_square_at(s, lane_square(s, 20), 1))
    return s, a, orc


def _swing(s: State, orc: Monster, *rolls: int) -> list[Event]:
    events: list[Event] = []
    allies_round.apply(s, Dice(*rolls), events, 0, Action.of("attack", opt="mace", target=orc["id"]))
    return events


def test_a_missed_roll_asks_the_holder_whether_to_roll_again() -> None:
    s, a, orc = _lucky()
    _swing(s, orc, 2)
    assert s["reroll"] is not None and orc["hp"] == 9 and a["ap"] == 3  # the attack waits for the answer
    assert GAME.to_act(s) == {0}
    [decision] = GAME.decisions(s)
    assert decision.default == Action.of("keep_roll") and decision.seconds
    assert _kinds(s, 0) == {"reroll", "keep_roll", "order"}  # standing orders may change at any time
    assert GAME.timeout_action(s, 0) == Action.of("keep_roll")
    events: list[Event] = []
    allies_round.answer_reroll(s, Dice(15), events, Action.of("reroll"))
    assert orc["hp"] == 9 - 3 and a["once"] == ["lucky"] and a["ap"] == 2 and s["reroll"] is None
    assert "ka.ev.lucky" in [e.msg.key for e in events]
    _swing(s, orc, 2)
    assert s["reroll"] is None and orc["hp"] == 6  # used up for this wave: the second miss stands


def test_keeping_the_roll_saves_the_charm() -> None:
    s, a, orc = _lucky()
    _swing(s, orc, 2)
    s = _act(s, 0, Action.of("keep_roll"))
    a = queries.ally(s, a["id"])
    assert on_board(s, orc["id"])["hp"] == 9 and a["once"] == [] and a["ap"] == 2
    _swing(s, on_board(s, orc["id"]), 2)
    assert s["reroll"] is not None  # asked again on the next miss


def test_a_roll_that_hits_every_monster_is_not_questioned() -> None:
    s, a, orc = _lucky()
    _swing(s, orc, 15)
    assert s["reroll"] is None and orc["hp"] == 6 and a["ap"] == 2


def test_no_card_is_played_while_a_roll_waits_for_its_answer() -> None:
    s, _, orc = _lucky()
    s["rdeck"].remove("flash_bomb")
    s["hand"] = ["flash_bomb"]
    _swing(s, orc, 2)
    play = Action.of("play", card="flash_bomb", targets=[orc["id"]])
    assert not GAME.is_legal(s, 0, play) and "play" not in _kinds(s, 0)


def test_the_answer_through_the_game_rolls_again_from_the_seeded_dice() -> None:
    s, a, orc = _lucky()
    _swing(s, orc, 2)
    step = GAME.apply(s, 0, Action.of("reroll"))
    assert not step.undoable and queries.ally(step.state, a["id"])["once"] == ["lucky"]
    assert step.events[0].msg.key == "ka.ev.lucky"
    assert GAME.check_invariants(step.state) == []


def test_the_ai_rolls_a_total_miss_again() -> None:
    s, _, orc = _lucky()
    _swing(s, orc, 2)
    assert ai.choose(GAME.legal_actions(s, 0), s, 0, Rng.from_seed(1)) == Action.of("reroll")


# ---------------------------------------------------------------- pausing the enemy turn for card plays


def _enemy(seats: int = 2, card: str | None = "flash_bomb") -> tuple[State, Monster]:
    s = scene(seats=seats)
    for seat in range(seats):
        add_hero(s, ["valcor", "ember", "boleslaw"][seat], (seat, 0), seat=seat)
    orc = add_monster(s, "orc_warrior", 10)
    s.update({"phase": "enemy", "turn": -1, "eturn": 2})
    if card is not None:
        s["rdeck"].remove(card)
        s["hand"] = [card]
    return s, orc


def _system(s: State) -> State:
    out = GAME.apply(s, SYSTEM, Action.of("step")).state
    assert GAME.check_invariants(out) == []
    return out


def test_a_seat_holding_the_enemy_turn_is_asked_before_each_monster_acts() -> None:
    s, orc = _enemy()
    s = _act(s, 1, Action.of("hold", on=True))
    assert s["holds"] == [1]
    s = _system(s)
    assert GAME.to_act(s) == {1} and not on_board(s, orc["id"])["acted"]
    [decision] = GAME.decisions(s)
    assert decision.seat == 1 and decision.default == Action.of("go_on")
    assert {"play", "go_on", "hold"} <= _kinds(s, 1)
    assert GAME.timeout_action(s, 1) == Action.of("go_on")
    s = _act(s, 1, Action.of("go_on"))
    assert GAME.to_act(s) == {SYSTEM}
    s = _system(s)
    assert on_board(s, orc["id"])["acted"]  # asked once per activation


def test_a_card_played_in_the_pause_hits_before_the_monster_acts() -> None:
    s, orc = _enemy()
    s = _act(s, 0, Action.of("hold", on=True))
    s = _system(s)
    s = _act(s, 0, Action.of("play", card="flash_bomb", targets=[orc["id"]]))
    assert on_board(s, orc["id"])["st"]["stun"] == 1
    assert GAME.to_act(s) == {0}  # still in the pause: another card, or go on
    s = _act(s, 0, Action.of("go_on"))
    s = _system(s)
    assert "ka.ev.stunned" in [e["key"] for e in s["log"]]


def test_nobody_is_asked_without_a_playable_card_or_without_holding() -> None:
    s, orc = _enemy(card=None)
    s = _act(s, 0, Action.of("hold", on=True))
    s = _system(s)
    assert s["window"] is None and on_board(s, orc["id"])["acted"]
    s, orc = _enemy()
    s = _system(s)
    assert s["window"] is None and on_board(s, orc["id"])["acted"]


def test_several_holding_seats_answer_the_same_pause() -> None:
    s, _ = _enemy(seats=3)
    s = _act(s, 2, Action.of("hold", on=True))
    s = _act(s, 0, Action.of("hold", on=True))
    s = _system(s)
    assert GAME.to_act(s) == {0, 2} and {d.seat for d in GAME.decisions(s)} == {0, 2}
    s = _act(s, 2, Action.of("hold", on=False))  # go on, and stop pausing for this seat
    assert GAME.to_act(s) == {0} and s["holds"] == [0]
    s = _act(s, 0, Action.of("go_on"))
    assert GAME.to_act(s) == {SYSTEM}


def test_the_hold_is_offered_on_turn_and_between_waves() -> None:
    s, _ = _enemy()
    s.update({"phase": "allies", "turn": 0})
    assert Action.of("hold", on=True) in [la.action for la in GAME.legal_actions(s, 0)]
    assert GAME.may_act(s, 1, Action.of("hold", on=True))  # any seat, at any time of a wave
    assert not GAME.is_legal(s, 1, Action.of("hold", on="maybe"))


def test_a_card_may_be_played_in_the_block_window_and_a_monster_it_kills_stops_moving() -> None:
    s, orc = _enemy(card="powder_keg")
    other = add_monster(s, "orc_warrior", 2, lane="R")  # so the wave goes on
    valcor = s["allies"][0]
    valcor["pos"] = list(open_square_at(s, lane_square(s, 12), 1))
    s = _system(s)
    assert s["ask"] is not None and GAME.to_act(s) == {0}
    assert {"block", "wait", "pass", "play"} <= _kinds(s, 0)
    plays = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "play"]
    mon = queries.monster(s, orc["id"])
    assert mon is not None
    mon["hp"] = 1
    s = _act(s, 0, plays[0])
    assert queries.monster(s, orc["id"]) is None and s["ask"] is None and s["act"] is None
    assert GAME.decisions(s) == [] and GAME.to_act(s) == {SYSTEM}
    s = _system(s)  # the enemy turn goes on without the dead monster
    assert on_board(s, other["id"])["acted"]


def test_a_card_from_another_seat_that_kills_the_asked_about_monster_closes_the_question() -> None:
    s, orc = _enemy(card="powder_keg")
    valcor = s["allies"][0]
    valcor["pos"] = list(open_square_at(s, lane_square(s, 12), 1))
    add_monster(s, "orc_warrior", 2, lane="R")
    s = _system(s)
    assert s["ask"] is not None
    mon = queries.monster(s, orc["id"])
    assert mon is not None
    mon["hp"] = 1
    play = next(la.action for la in armory.card_legal(s) if la.action.kind == "play")
    s = _act(s, 1, play)
    assert s["ask"] is None and s["act"] is None and GAME.to_act(s) == {SYSTEM}


def test_the_react_windows_list_their_out_of_turn_options_for_random_playouts() -> None:
    s, _ = _enemy()
    s = _act(s, 1, Action.of("hold", on=True))
    s = _system(s)
    assert all(GAME.is_legal(s, 1, la.action) for la in GAME.legal_actions(s, 1))
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Action.of("go_on"))  # not asked
    assert enemy.activation_next(s)


def test_a_piece_bought_after_a_sale_gets_a_new_id() -> None:
    s = _between()
    _unlock(s, "e0")
    s.update({"gold": 500, "gear_gate": True})
    s = _act(s, 0, Action.of("sell_gear", gear="e0"))
    s = _act(s, 0, Action.of("buy_gear"))
    s = _act(s, 0, Action.of("buy_gear"))
    ids = [g["id"] for g in s["gear"]]
    assert len(set(ids)) == len(ids) == 5 and "e0" not in ids
