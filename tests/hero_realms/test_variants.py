"""Multiplayer variants: seat counts, set-up, targeting, team turns, shared health and the emperor's rules."""

from __future__ import annotations

import re

import pytest

from cogs.help import render as help_text
from rules.base import Action, BadOptions, IllegalAction
from rules.hero_realms import GAME, engine, variants
from tests.hero_realms.hr_helpers import act, answer, clean, health, kinds, options, put


@pytest.mark.parametrize(
    ("variant", "good", "bad"),
    [
        ("free-for-all", [2, 3, 6], [1, 7]),
        ("hunter-first-blood", [3, 4, 6], [2]),
        ("hunter-last-standing", [3, 5], [2]),
        ("hydra", [4], [2, 3, 5, 6]),
        ("teams-of-three", [6], [4, 5]),
        ("emperor", [6], [2, 4, 5]),
    ],
)
def test_check_seats_per_variant(variant: str, good: list[int], bad: list[int]) -> None:
    options_ = GAME.resolve_options({"variant": variant})
    for n in good:
        GAME.check_seats(options_, n)
    for n in bad:
        with pytest.raises(BadOptions) as err:
            GAME.check_seats(options_, n)
        assert err.value.reason.key == "hr.err.seats"


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(BadOptions):
        GAME.resolve_options({"variant": "battle-royale"})


@pytest.mark.parametrize(
    ("variant", "seats", "health", "team_size"),
    [
        ("hunter-first-blood", 4, [50] * 4, 0),
        ("hunter-last-standing", 5, [50] * 5, 0),
        ("hydra", 4, [75, 75], 2),
        ("teams-of-three", 6, [100, 100], 3),
        ("emperor", 6, [50, 60, 50, 50, 60, 50], 3),
    ],
)
def test_variant_set_up_draws_who_opens(variant: str, seats: int, health: list[int], team_size: int) -> None:
    """Hydra: «El equipo que inicia la partida se elige al azar. La mano inicial de los jugadores de dicho
    equipo se compone de tres cartas; la de los demás jugadores, de cinco.» Hunter plays like free-for-all."""
    opened = set()
    for seed in range(30):
        s = GAME.new({"variant": variant}, seats, seed)
        assert s.health == health
        hands = [len(p.hand) for p in s.players]
        if team_size:
            team = s.team_of[s.active[0]]
            opened.add(team)
            assert hands == [3 if s.team_of[o] == team else 5 for o in range(seats)]
            if variants.VARIANTS[variant].team_turns:
                assert sorted(GAME.to_act(s)) == [o for o in range(seats) if s.team_of[o] == team]
            else:  # emperor: the first team's first seat opens and play goes clockwise
                assert s.active == [team * team_size]
        else:
            (first,) = s.active
            opened.add(first)
            assert [hands[(first + k) % seats] for k in range(seats)] == [3, 4] + [5] * (seats - 2)
    assert opened == set(range(seats // team_size if team_size else seats)), "every team or seat may open"


def test_seat_range_follows_the_variant() -> None:
    assert GAME.seat_range({"variant": "hydra"}) == (4, 4)
    assert GAME.seat_range({"variant": "teams-of-three"}) == (6, 6)
    assert GAME.seat_range({"variant": "emperor"}) == (6, 6)
    assert GAME.seat_range({"variant": "hunter-first-blood"}) == (3, 6)
    assert GAME.seat_range({"variant": "free-for-all"}) == (2, 6)
    assert GAME.seat_range(GAME.resolve_options({})) == (2, 6)
    with pytest.raises(BadOptions):
        GAME.seat_range({"variant": "battle-royale"})


def test_emperor_roles_and_seating() -> None:
    s = GAME.new({"variant": "emperor"}, 6, 3)
    assert s.roles == ["captain", "emperor", "captain", "captain", "emperor", "captain"]
    assert s.team_of == [0, 0, 0, 1, 1, 1]
    assert GAME.seat_role({"variant": "emperor"}, 4) == "emperor"
    assert variants.opposite(1, 6) == 4 and variants.opposite(0, 6) == 3 and variants.opposite(2, 6) == 5


# ---------------------------------------------------------------- hunter


def test_hunter_attacks_only_the_left_player_and_champions_left_and_right() -> None:
    s = clean("hunter-first-blood", 4)
    left = put(s, 1, "cron", "champions")
    across = put(s, 2, "cron", "champions")
    right = put(s, 3, "cron", "champions")
    s.players[0].combat = 10
    assert engine.attackable_players(s, 0) == [1]
    assert set(engine.targetable_champions(s, 0)) == {left, right}
    assert across not in engine.targetable_champions(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, "attack", target="p2", amount=1)


@pytest.mark.parametrize("variant", ["hunter-first-blood", "hunter-last-standing"])
def test_hunter_target_opponent_discards_may_be_any_opponent(variant: str) -> None:
    """The hunter rule limits attacks and champion targets only, not "target opponent discards"."""
    s = clean(variant, 5)
    spark = put(s, 0, "spark")
    s = act(s, 0, "play", card=spark).state
    assert sorted(options(s, 0)) == ["p1", "p2", "p3", "p4"]
    s = answer(s, 0, "p2")
    assert s.players[2].owed_discards == 1


def test_emperor_captains_make_only_the_facing_captain_discard() -> None:
    s = clean("emperor", 6)
    spark = put(s, 0, "spark")
    s = act(s, 0, "play", card=spark).state
    assert s.players[3].owed_discards == 1 and engine.pending_of(s, 0) is None


def test_first_blood_the_right_of_the_eliminated_player_wins() -> None:
    s = clean("hunter-first-blood", 4)
    s.active = [1]
    s.health[2] = 3
    s.players[1].combat = 3
    s = act(s, 1, "attack", target="p2", amount=3).state
    assert s.winners == [1]
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.ranking[0] == 1


def test_last_standing_bonus_to_the_right_and_targets_close_the_circle() -> None:
    s = clean("hunter-last-standing", 4)
    s.active = [1]
    s.health[2] = 3
    s.players[1].combat = 3
    hand = len(s.players[1].hand)
    step = act(s, 1, "attack", target="p2", amount=3)
    s = step.state
    assert s.winners is None and s.players[2].eliminated
    assert s.health[1] == 60 and len(s.players[1].hand) == hand + 1 and step.undoable is False
    assert engine.attackable_players(s, 1) == [3]
    s = act(s, 1, "end_turn").state
    assert s.active == [3]


# ---------------------------------------------------------------- hydra


def test_hydra_shared_turn_both_teammates_act_and_the_turn_passes_when_both_end() -> None:
    s = clean("hydra", 4)
    s.active = [0, 1]
    assert GAME.to_act(s) == frozenset({0, 1})
    s = act(s, 0, "end_turn").state
    assert GAME.to_act(s) == frozenset({1}) and s.active == [0, 1]
    s = act(s, 1, "end_turn").state
    assert GAME.to_act(s) == frozenset({2, 3})
    assert len(s.players[0].hand) == 5 and len(s.players[1].hand) == 5


def test_hydra_shared_health_and_a_guard_of_either_teammate_protects_the_team() -> None:
    s = clean("hydra", 4)
    s.players[0].combat = 10
    assert engine.attackable_players(s, 0) == [2, 3]
    offered = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "attack"]
    assert {a["target"] for a in offered} == {"p2"}  # one entry per team health
    s = act(s, 0, "attack", target="p3", amount=5).state
    assert health(s, 2) == health(s, 3) == 70
    guard = put(s, 3, "orc_grunt", "champions")
    other = put(s, 2, "rayla", "champions")
    assert engine.attackable_players(s, 0) == []
    assert engine.targetable_champions(s, 0) == [guard]
    del other


def test_hydra_teammates_cards_do_not_trigger_ally_abilities() -> None:
    s = clean("hydra", 4)
    put(s, 1, "profit", "played")
    spark = put(s, 0, "spark")
    s = act(s, 0, "play", card=spark).state
    assert "ally" not in kinds(s, 0)


def test_hydra_pooled_gold_and_combat() -> None:
    s = clean("hydra", 4)
    cron = put(s, 2, "cron", "champions")
    s.players[0].combat = 3
    s.players[1].combat = 3
    offered = {la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "attack"}
    assert Action.of("attack", target=cron, amount=3) in offered  # partial damage, for pooling
    s = act(s, 0, "attack", target=cron, amount=3).state
    s = act(s, 1, "attack", target=cron, amount=3).state
    assert cron in s.players[2].discard
    s.players[0].gold = 3
    s.players[1].gold = 2
    s = act(s, 0, "give_gold", to=1, amount=3).state
    assert s.players[1].gold == 5 and s.players[0].gold == 0
    with pytest.raises(IllegalAction):
        act(s, 1, "give_gold", to=2, amount=1)


def test_hydra_team_falls_together() -> None:
    s = clean("hydra", 4)
    s.health[1] = 4
    s.players[0].combat = 4
    s = act(s, 0, "attack", target="p2", amount=4).state
    assert s.players[2].eliminated and s.players[3].eliminated and s.winners == [0, 1]


# ---------------------------------------------------------------- emperor


def test_emperor_captains_target_the_facing_captain_until_they_fall() -> None:
    s = clean("emperor", 6)
    s.players[0].combat = 56
    assert engine.attackable_players(s, 0) == [3]
    put(s, 4, "cron", "champions")
    facing = put(s, 3, "cron", "champions")
    assert engine.targetable_champions(s, 0) == [facing]
    s = act(s, 0, "attack", target=facing, amount=6).state
    s = act(s, 0, "attack", target="p3", amount=50).state
    assert s.players[3].eliminated
    # The fallen captain may give a card to their emperor before play goes on.
    assert GAME.to_act(s) == frozenset({3})
    assert "none" in options(s, 3)
    card = s.players[3].discard[0]
    s = answer(s, 3, card)
    assert card in s.players[4].discard and GAME.to_act(s) == frozenset({0})
    assert engine.attackable_players(s, 0) == [4]


def test_emperors_attack_anyone_and_guards_do_not_protect_teammates() -> None:
    s = clean("emperor", 6)
    s.active = [1]
    s.players[1].combat = 5
    put(s, 4, "orc_grunt", "champions")
    assert engine.attackable_players(s, 1) == [3, 5]


def test_a_fallen_emperor_loses_the_game_for_the_team() -> None:
    s = clean("emperor", 6)
    s.active = [1]
    s.health[4] = 2
    s.players[1].combat = 2
    s = act(s, 1, "attack", target="p4", amount=2).state
    assert s.winners == [0, 1, 2]


def test_paying_one_gold_moves_a_discarded_card_to_an_adjacent_teammate() -> None:
    s = clean("emperor", 6)
    card = put(s, 0, "borg", "discard")
    s.players[0].gold = 1
    listed = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "pass_card"]
    assert Action.of("pass_card", card=card, to=1) in listed
    with pytest.raises(IllegalAction):
        act(s, 0, "pass_card", card=card, to=2)  # not adjacent
    s = act(s, 0, "pass_card", card=card, to=1).state
    assert s.players[1].discard == [card] and s.players[0].gold == 0


def test_views_show_teams_roles_and_shared_health() -> None:
    s = GAME.new({"variant": "hydra"}, 4, 2)
    v = GAME.view(s, 2)
    assert v["teams"] == [[0, 1], [2, 3]]
    assert [p["health"] for p in v["players"]] == [75, 75, 75, 75]
    v = GAME.view(GAME.new({"variant": "emperor"}, 6, 2), None)
    assert [p["role"] for p in v["players"]][:2] == ["captain", "emperor"]


# ---------------------------------------------------------------- waiting for teammates in a shared turn


def test_a_teammate_may_wait_and_takes_its_moves_back_when_given_gold_or_when_the_others_end() -> None:
    s = clean("hydra", 4)
    assert "wait" in kinds(s, 1)
    s = act(s, 1, "wait").state
    assert GAME.to_act(s) == frozenset({0}) and "wait" not in kinds(s, 0), "someone must still be playing"
    s.players[0].gold = 2
    s = act(s, 0, "give_gold", to=1, amount=2).state
    assert GAME.to_act(s) == frozenset({0, 1}) and s.players[1].gold == 2
    s = act(s, 1, "wait").state
    s = act(s, 0, "end_turn").state
    assert GAME.to_act(s) == frozenset({1}) and s.active == [0, 1], "the waiting teammate finishes the turn"
    assert "wait" not in kinds(s, 1)
    s = act(s, 1, "end_turn").state
    assert GAME.to_act(s) == frozenset({2, 3})


def test_waiting_is_only_for_shared_turns() -> None:
    s = clean("free-for-all", 3)
    assert "wait" not in kinds(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, "wait")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_help_examples_make_tables_that_can_start(lang: str) -> None:
    text = help_text("hr.help.about", lang)
    examples = re.findall(r"`(/\S+ \S+ \S+:hero-realms[^`]*)`", text)
    assert len(examples) >= 2, text
    for example in examples:
        variant = re.search(r"variant=([a-z-]+)", example)
        ai = re.search(r"\b(?:ai|ia):(\d+)", example)
        options = GAME.resolve_options({"variant": variant.group(1)} if variant else {})
        low, high = GAME.seat_range(options)
        seats = 1 + (int(ai.group(1)) if ai else 0)
        assert low <= seats <= high, (example, low, high)
