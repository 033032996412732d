"""The rulebook's rules and worked examples: set-up, the turn, guards, allies, combat, the draw phase."""

from __future__ import annotations

import pytest

from rules.base import Action, IllegalAction, NotYourTurn
from rules.hero_realms import GAME, engine
from tests.hero_realms.hr_helpers import act, clean, health, kinds, pending, put


def test_two_player_set_up() -> None:
    s = GAME.new({}, 2, 7)
    (first,) = s.active
    second = 1 - first
    assert len(s.market) == 5 and len(s.market_deck) == 75 and len(s.gems) == 16
    assert len(s.players[first].hand) == 3 and len(s.players[second].hand) == 5
    assert len(s.players[first].deck) == 7 and len(s.players[second].deck) == 5
    assert s.health == [50, 50]
    for p in s.players:
        keys = sorted(s.cards[c] for c in p.hand + p.deck)
        assert keys == sorted(["gold"] * 7 + ["shortsword", "dagger", "ruby"])
    assert len(set(s.cards)) == len(s.cards) == 2 * 10 + 80 + 16


def test_the_first_player_is_drawn_from_the_seed_not_the_join_order() -> None:
    """"Se echa a suertes el jugador que iniciará la partida. Ese jugador roba tres cartas..."""
    for seats in (2, 3, 5):
        firsts: dict[int, int] = {}
        for seed in range(200):
            s = GAME.new({}, seats, seed)
            (first,) = s.active
            assert GAME.to_act(s) == frozenset({first})
            assert GAME.new({}, seats, seed).active == [first], "the same seed, the same first player"
            firsts[first] = firsts.get(first, 0) + 1
        assert sorted(firsts) == list(range(seats)), f"every seat starts for some seed ({seats} seats)"
        assert max(firsts.values()) < 1.4 * 200 / seats, firsts


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_three_or_more_players_open_with_three_four_then_five_cards_from_the_first(seats: int) -> None:
    for seed in range(8):
        s = GAME.new({}, seats, seed)
        (first,) = s.active
        sizes = [len(s.players[(first + k) % seats].hand) for k in range(seats)]
        assert sizes == [3, 4] + [5] * (seats - 2)


def test_turns_go_clockwise_from_the_first_player() -> None:
    s = GAME.new({}, 4, 5)
    (first,) = s.active
    order = []
    for _ in range(4):
        order.append(s.active[0])
        s = act(s, s.active[0], "end_turn").state
    assert order == [(first + k) % 4 for k in range(4)]


def test_the_market_deck_order_depends_on_the_seed_only() -> None:
    a, b, c = GAME.new({}, 2, 1), GAME.new({}, 2, 1), GAME.new({}, 2, 2)
    assert a.market_deck == b.market_deck and a.market == b.market
    assert [a.cards[x] for x in a.market_deck] != [c.cards[x] for x in c.market_deck]


def test_only_the_active_player_acts() -> None:
    s = GAME.new({}, 2, 7)
    (first,) = s.active
    assert GAME.to_act(s) == frozenset({first})
    assert GAME.legal_actions(s, 1 - first) == []
    with pytest.raises(NotYourTurn):
        GAME.apply(s, 1 - first, Action.of("end_turn"))


def test_acquiring_pays_gold_goes_to_discard_and_refills_the_row() -> None:
    s = clean()
    s.players[0].gold = 10
    bought = s.market[2]
    cost = engine.card_of(s, bought).cost
    top = s.market_deck[-1]
    step = act(s, 0, "buy", card=bought)
    s = step.state
    assert s.players[0].discard[-1] == bought and s.players[0].gold == 10 - cost
    assert s.market[2] == top and len(s.market) == 5
    assert step.undoable is False  # the refill revealed a card


def test_buying_more_than_you_have_is_refused_with_a_reason() -> None:
    s = clean()
    s.players[0].gold = 1
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "buy", card="gem")
    assert err.value.reason.key == "hr.err.not_enough_gold"
    assert err.value.reason.params == {"card": engine.CARDS["fire_gem"].lit, "cost": 2, "gold": 1}


def test_discard_phase_and_draw_phase() -> None:
    s = clean()
    p = s.players[0]
    p.gold, p.combat = 3, 4
    champ = put(s, 0, "borg", "champions")
    p.expended.add(champ)
    put(s, 0, "spark", "played")
    put(s, 0, "gold", "hand")
    step = act(s, 0, "end_turn")
    s = step.state
    p = s.players[0]
    assert (p.gold, p.combat) == (0, 0)
    assert p.played == [] and len(p.hand) == 5 and p.champions == [champ] and not p.expended
    assert len(p.discard) == 2
    assert s.active == [1] and step.undoable is False


def test_rulebook_example_three_cards_left_then_shuffle_and_draw_two_more() -> None:
    """"al iniciar tu fase de robar, quedan tres cartas en tu mazo. Róbalas, baraja tu pila de descarte...\""""
    s = clean()
    p = s.players[0]
    three = p.deck[-3:]
    rest = p.deck[:-3]
    p.deck = three[:]
    p.discard = rest[:]
    s = act(s, 0, "end_turn").state
    p = s.players[0]
    assert set(three) <= set(p.hand) and len(p.hand) == 5
    assert len(p.deck) == len(rest) - 2 and p.discard == []
    assert any(e["key"] == "hr.ev.shuffle" for e in s.log)


def test_drawing_with_deck_and_discard_empty_draws_what_there_is() -> None:
    s = clean()
    s.players[0].deck = []
    s.players[0].discard = []
    put(s, 0, "dagger", "deck")
    cid = put(s, 0, "word_of_power")
    s = act(s, 0, "play", card=cid).state
    assert [s.cards[c] for c in s.players[0].hand] == ["dagger"]


def test_ready_guard_protects_the_player_and_other_champions() -> None:
    s = clean()
    s.players[0].combat = 20
    guard = put(s, 1, "orc_grunt", "champions")
    other = put(s, 1, "rayla", "champions")
    assert engine.attackable_players(s, 0) == []
    assert engine.targetable_champions(s, 0) == [guard]
    with pytest.raises(IllegalAction):
        act(s, 0, "attack", target="p1", amount=5)
    with pytest.raises(IllegalAction):
        act(s, 0, "attack", target=other, amount=4)
    s = act(s, 0, "attack", target=guard, amount=3).state
    assert guard in s.players[1].discard
    s = act(s, 0, "attack", target=other, amount=4).state
    s = act(s, 0, "attack", target="p1", amount=13).state
    assert health(s, 1) == 37


def test_an_expended_guard_does_not_protect() -> None:
    s = clean()
    guard = put(s, 1, "orc_grunt", "champions")
    s.players[1].expended.add(guard)
    other = put(s, 1, "rayla", "champions")
    s.players[0].combat = 5
    assert engine.attackable_players(s, 0) == [1]
    assert set(engine.targetable_champions(s, 0)) == {guard, other}


def test_damage_on_a_champion_does_not_carry_over_turns() -> None:
    s = clean()
    cron = put(s, 1, "cron", "champions")
    s.players[0].combat = 4
    s = act(s, 0, "attack", target=cron, amount=4).state
    assert s.damage[cron] == 4
    s = act(s, 0, "end_turn").state
    assert cron in s.players[1].champions and s.damage == {}


def test_a_champion_takes_its_defense_in_one_turn_from_several_attacks() -> None:
    s = clean()
    cron = put(s, 1, "cron", "champions")
    s.players[0].combat = 6
    s = act(s, 0, "attack", target=cron, amount=2).state
    s = act(s, 0, "attack", target=cron, amount=4).state
    assert cron in s.players[1].discard and s.players[0].combat == 0


def test_attack_amounts_are_offered_sensibly_and_any_amount_is_accepted() -> None:
    s = clean()
    s.players[0].combat = 7
    cron = put(s, 1, "cron", "champions")
    offered = {la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "attack"}
    assert offered == {
        Action.of("attack", target="p1", amount=7), Action.of("attack", target="p1", amount=1),
        Action.of("attack", target=cron, amount=6),
    }
    assert GAME.is_legal(s, 0, Action.of("attack", target="p1", amount=5))
    assert not GAME.is_legal(s, 0, Action.of("attack", target="p1", amount=8))
    assert not GAME.is_legal(s, 0, Action.of("attack", target="p1", amount=0))


def test_ally_abilities_need_another_card_of_the_faction_in_any_order_once_per_turn() -> None:
    """The rulebook: it does not matter in which order the cards are played."""
    s = clean()
    profit = put(s, 0, "profit")
    bribe = put(s, 0, "bribe")
    s = act(s, 0, "play", card=profit).state
    assert "ally" not in kinds(s, 0)
    s = act(s, 0, "play", card=bribe).state
    allies = {la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "ally"}
    assert allies == {Action.of("ally", card=profit), Action.of("ally", card=bribe)}
    s = act(s, 0, "ally", card=profit).state
    assert s.players[0].combat == 4
    with pytest.raises(IllegalAction):
        act(s, 0, "ally", card=profit)


def test_a_champion_counts_as_an_ally_and_gets_ally_abilities() -> None:
    s = clean()
    put(s, 0, "orc_grunt", "champions")
    spark = put(s, 0, "spark")
    s = act(s, 0, "play", card=spark).state
    s = act(s, 0, "ally", card=spark).state
    assert s.players[0].combat == 5


def test_stunned_champions_go_to_their_owner_discard_and_sacrificed_cards_leave() -> None:
    s = clean()
    cron = put(s, 1, "cron", "champions")
    s.players[0].combat = 6
    s = act(s, 0, "attack", target=cron, amount=6).state
    assert s.players[1].discard[-1] == cron
    wop = put(s, 0, "word_of_power", "played")
    s = act(s, 0, "sacrifice", card=wop).state
    assert s.sacrificed == [wop] and s.players[0].combat == 5


def test_health_can_go_above_fifty_and_zero_eliminates() -> None:
    s = clean()
    s.health[1] = 6
    s.players[0].combat = 6
    s = act(s, 0, "attack", target="p1", amount=6).state
    assert s.players[1].eliminated and s.winners == [0]
    assert GAME.to_act(s) == frozenset()
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({0}) and outcome.ranking == (0, 1)


def test_play_all_plays_champions_first_then_stops_at_a_decision() -> None:
    s = clean()
    rot = put(s, 0, "the_rot")
    ranks = put(s, 0, "close_ranks")
    borg = put(s, 0, "borg")
    put(s, 0, "gold", "discard")
    s = act(s, 0, "play_all").state
    p = s.players[0]
    assert p.champions == [borg] and p.played == [ranks, rot]
    assert p.combat == 5 + 2 + 4
    assert pending(s, 0)["kind"] == "sacrifice"


def test_must_answer_a_pending_decision_first() -> None:
    s = clean()
    darian = put(s, 0, "darian", "champions")
    s = act(s, 0, "expend", card=darian).state
    assert kinds(s, 0) == {"choose"}
    with pytest.raises(IllegalAction) as err:
        act(s, 0, "end_turn")
    assert err.value.reason.key == "hr.err.decide_first"


def test_apply_does_not_change_its_input_and_json_round_trips() -> None:
    s = clean()
    before = GAME.to_json(s)
    cid = put(s, 0, "command")
    before = GAME.to_json(s)
    new = act(s, 0, "play", card=cid).state
    assert GAME.to_json(s) == before
    assert GAME.to_json(GAME.from_json(GAME.to_json(new))) == GAME.to_json(new)


def test_skip_action_answers_with_the_first_option_or_ends_the_turn() -> None:
    s = clean()
    assert GAME.skip_action(s, 0) == Action.of("end_turn")
    assert GAME.skip_action(s, 1) is None
    darian = put(s, 0, "darian", "champions")
    s = act(s, 0, "expend", card=darian).state
    assert GAME.skip_action(s, 0) == Action.of("choose", option=0)


def test_legal_actions_list_each_distinct_card_once() -> None:
    s = clean()
    for _ in range(4):
        put(s, 0, "gold")
    plays = [la for la in GAME.legal_actions(s, 0) if la.action.kind == "play"]
    assert len(plays) == 1
    assert kinds(s, 0) == {"play", "play_all", "end_turn"}
