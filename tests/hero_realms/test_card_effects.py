"""Every base-set card's abilities, pinned by playing it in a constructed state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.hero_realms import engine
from rules.hero_realms.cards import cards
from rules.hero_realms.state import Option, State
from tests.hero_realms.hr_helpers import act, answer, clean, health, options, pending, put

FACTION_MATE = {"imperial": "taxation", "guild": "profit", "necros": "influence", "wild": "spark"}


@dataclass
class Case:
    key: str
    ability: str
    expect: dict[str, int]
    #: Champions of seat 0 put in play first.
    champions: list[str] = field(default_factory=list)
    #: Cards put in seat 0's play area (actions/items) first.
    played: list[str] = field(default_factory=list)
    #: Answers to the decisions, in order ("discard:<key>" picks that card from the discard pile).
    answers: list[Any] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.key}-{self.ability}-{'-'.join(map(str, self.answers))}"


CASES = [
    # Imperial
    Case("arkus", "expend", {"combat": 5, "hand": 1}),
    Case("arkus", "ally", {"health": 6}),
    Case("close_ranks", "primary", {"combat": 9}, champions=["man_at_arms", "borg"]),
    Case("close_ranks", "ally", {"health": 6}),
    Case("command", "primary", {"gold": 2, "combat": 3, "health": 4, "hand": 1}),
    Case("darian", "expend", {"combat": 3}, answers=[0]),
    Case("darian", "expend", {"health": 4}, answers=[1]),
    Case("domination", "primary", {"combat": 6, "health": 6, "hand": 1}),
    Case("domination", "ally", {"prepared": 1}, champions=["borg"]),
    Case("cristov", "expend", {"combat": 2, "health": 3}),
    Case("cristov", "ally", {"hand": 1}),
    Case("kraka", "expend", {"health": 2, "hand": 1}),
    Case("kraka", "ally", {"health": 4}, champions=["borg"]),
    Case("man_at_arms", "expend", {"combat": 3}, champions=["orc_grunt", "rayla"]),
    Case("master_weyan", "expend", {"combat": 5}, champions=["orc_grunt", "rayla"]),
    Case("rally_the_troops", "primary", {"combat": 5, "health": 5}),
    Case("rally_the_troops", "ally", {"prepared": 1}, champions=["borg"]),
    Case("recruit", "primary", {"gold": 2, "health": 4}, champions=["borg"]),
    Case("recruit", "ally", {"gold": 1}),
    Case("tithe_priest", "expend", {"gold": 1}, answers=[0]),
    Case("tithe_priest", "expend", {"health": 2}, champions=["borg"], answers=[1]),
    Case("taxation", "primary", {"gold": 2}),
    Case("taxation", "ally", {"health": 6}),
    Case("word_of_power", "primary", {"hand": 2}),
    Case("word_of_power", "ally", {"health": 5}),
    Case("word_of_power", "sacrifice", {"combat": 5, "sacrificed": 1}),
    # Guild
    Case("borg", "expend", {"combat": 4}),
    Case("bribe", "primary", {"gold": 3}),
    Case("bribe", "ally", {"flag_action_top": 1}),
    Case("death_threat", "primary", {"combat": 1, "hand": 1}),
    Case("death_threat", "ally", {"stunned": 1}),
    Case("deception", "primary", {"gold": 2, "hand": 1}),
    Case("deception", "ally", {"flag_card_hand": 1}),
    Case("fire_bomb", "primary", {"combat": 8, "hand": 1, "stunned": 1}),
    Case("fire_bomb", "sacrifice", {"combat": 5, "sacrificed": 1}),
    Case("hit_job", "primary", {"combat": 7}),
    Case("hit_job", "ally", {"stunned": 1}),
    Case("intimidation", "primary", {"combat": 5}),
    Case("intimidation", "ally", {"gold": 2}),
    Case("myros", "expend", {"gold": 3}),
    Case("myros", "ally", {"combat": 4}),
    Case("parov", "expend", {"combat": 3}),
    Case("parov", "ally", {"hand": 1}),
    Case("profit", "primary", {"gold": 2}),
    Case("profit", "ally", {"combat": 4}),
    Case("rake", "expend", {"combat": 4, "stunned": 1}, answers=["opponent-champion"]),
    Case("rake", "expend", {"combat": 4}, answers=["none"]),
    Case("rasmus", "expend", {"gold": 2}),
    Case("rasmus", "ally", {"flag_card_top": 1}),
    Case("smash_and_grab", "primary", {"combat": 6, "deck": 1, "discard": -1}, discard=["borg"],
         answers=["discard:borg"]),
    Case("street_thug", "expend", {"gold": 1}, answers=[0]),
    Case("street_thug", "expend", {"combat": 2}, answers=[1]),
    # Necros
    Case("cult_priest", "expend", {"gold": 1}, answers=[0]),
    Case("cult_priest", "expend", {"combat": 1}, answers=[1]),
    Case("cult_priest", "ally", {"combat": 4}),
    Case("dark_energy", "primary", {"combat": 7}),
    Case("dark_energy", "ally", {"hand": 1}),
    Case("dark_reward", "primary", {"gold": 3, "sacrificed": 1, "discard": -1}, discard=["gold"],
         answers=["discard:gold"]),
    Case("dark_reward", "ally", {"combat": 6}),
    Case("death_cultist", "expend", {"combat": 2}),
    Case("death_touch", "primary", {"combat": 2, "sacrificed": 1, "discard": -1}, discard=["dagger"],
         answers=["discard:dagger"]),
    Case("death_touch", "ally", {"combat": 2}),
    Case("rayla", "expend", {"combat": 3}),
    Case("rayla", "ally", {"hand": 1}),
    Case("influence", "primary", {"gold": 3}),
    Case("influence", "sacrifice", {"combat": 3, "sacrificed": 1}),
    Case("krythos", "expend", {"combat": 6, "sacrificed": 1, "discard": -1}, discard=["gold"],
         answers=["discard:gold"]),
    Case("krythos", "expend", {"combat": 3}, discard=["gold"], answers=["none"]),
    Case("life_drain", "primary", {"combat": 8}, discard=["gold"], answers=["none"]),
    Case("life_drain", "ally", {"hand": 1}),
    Case("lys", "expend", {"combat": 4, "sacrificed": 1, "discard": -1}, discard=["gold"],
         answers=["discard:gold"]),
    Case("the_rot", "primary", {"combat": 4, "sacrificed": 1, "discard": -1}, discard=["gold"],
         answers=["discard:gold"]),
    Case("the_rot", "ally", {"combat": 3}),
    Case("tyrannor", "expend", {"combat": 4, "sacrificed": 2, "discard": -2}, discard=["gold", "dagger"],
         answers=["discard:gold", "discard:dagger"]),
    Case("tyrannor", "ally", {"hand": 1}),
    Case("varrick", "expend", {"deck": 1, "discard": -1}, discard=["borg", "gold"]),
    Case("varrick", "ally", {"hand": 1}),
    # Wild
    Case("broelyn", "expend", {"gold": 2}),
    Case("broelyn", "ally", {"owed": 1}),
    Case("cron", "expend", {"combat": 5}),
    Case("cron", "ally", {"hand": 1}),
    Case("dire_wolf", "expend", {"combat": 3}),
    Case("dire_wolf", "ally", {"combat": 4}),
    Case("elven_curse", "primary", {"combat": 6, "owed": 1}),
    Case("elven_curse", "ally", {"combat": 3}),
    Case("elven_gift", "primary", {"gold": 2, "discard": 1}, answers=[1, "hand:first"]),
    Case("elven_gift", "primary", {"gold": 2}, answers=[0]),
    Case("elven_gift", "ally", {"combat": 4}),
    Case("grak", "expend", {"combat": 6, "discard": 1}, answers=[1, "hand:first"]),
    Case("grak", "ally", {"discard": 1}, answers=["hand:first"]),
    Case("natures_bounty", "primary", {"gold": 4}),
    Case("natures_bounty", "ally", {"owed": 1}),
    Case("natures_bounty", "sacrifice", {"combat": 4, "sacrificed": 1}),
    Case("orc_grunt", "expend", {"combat": 2}),
    Case("orc_grunt", "ally", {"hand": 1}),
    Case("rampage", "primary", {"combat": 6, "discard": 2}, answers=[2, "hand:first", "hand:first"]),
    Case("torgen", "expend", {"combat": 4, "owed": 1}),
    Case("spark", "primary", {"combat": 3, "owed": 1}),
    Case("spark", "ally", {"combat": 2}),
    Case("wolf_form", "primary", {"combat": 8, "owed": 1}),
    Case("wolf_form", "sacrifice", {"owed": 1, "sacrificed": 1}),
    Case("wolf_shaman", "expend", {"combat": 4}, champions=["orc_grunt"], played=["spark"]),
    # Base cards
    Case("fire_gem", "primary", {"gold": 2}),
    Case("fire_gem", "sacrifice", {"combat": 3, "gems": 1}),
    Case("gold", "primary", {"gold": 1}),
    Case("shortsword", "primary", {"combat": 2}),
    Case("dagger", "primary", {"combat": 1}),
    Case("ruby", "primary", {"gold": 2}),
]


def _measure(s: State, seat: int = 0) -> dict[str, int]:
    p = s.players[seat]
    return {
        "gold": p.gold, "combat": p.combat, "health": health(s, seat), "hand": len(p.hand), "deck": len(p.deck),
        "discard": len(p.discard), "sacrificed": len(s.sacrificed), "gems": len(s.gems),
        "owed": s.players[1].owed_discards, "stunned": len(s.players[1].discard),
        "prepared": len([c for c in p.champions if c not in p.expended]),
        "flag_action_top": int(p.next_action_top), "flag_card_top": int(p.next_card_top),
        "flag_card_hand": int(p.next_card_hand),
    }


def _resolve_answer(s: State, raw: Option) -> Option:
    if isinstance(raw, str) and raw.startswith("discard:"):
        return next(c for c in s.players[0].discard if s.cards[c] == raw[8:])
    if raw == "hand:first":
        return s.players[0].hand[0]
    if raw == "opponent-champion":
        return next(o for o in options(s, 0) if o != "none")
    return raw


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_card_ability(case: Case) -> None:
    s = clean()
    card = cards()[case.key]
    for key in case.champions:
        put(s, 0, key, "champions")
    for key in case.played:
        put(s, 0, key, "played")
    for key in case.discard:
        put(s, 0, key, "discard")
    # An opposing champion to stun, and an ally for ally abilities.
    put(s, 1, "rayla", "champions")
    if case.ability == "ally":
        assert card.faction is not None, case.key  # an ally ability needs an ally of its faction
        put(s, 0, FACTION_MATE[card.faction], "played")
        if case.champions:
            for c in s.players[0].champions:
                s.players[0].expended.add(c)
    zone = "hand" if case.ability == "primary" else "champions" if card.champion else "played"
    cid = put(s, 0, case.key, zone)
    before = _measure(s)
    kind = {"primary": "play", "expend": "expend", "ally": "ally", "sacrifice": "sacrifice"}[case.ability]
    s = act(s, 0, kind, card=cid).state
    for raw in case.answers:
        s = answer(s, 0, _resolve_answer(s, raw))
    assert engine.pending_of(s, 0) is None, s.pending
    after = _measure(s)
    # Pools, health, hand, piles and flags must change exactly as listed; other counts only when listed.
    strict = {"gold", "combat", "health", "hand", "sacrificed", "owed", "stunned", "flag_action_top",
              "flag_card_top", "flag_card_hand"} | set(case.expect)
    expected = {k: before[k] + case.expect.get(k, 0) for k in strict}
    if case.ability == "primary":
        expected["hand"] -= 1  # the card itself left the hand
    if case.ability == "sacrifice" and case.key != "fire_gem":
        expected["sacrificed"] = before["sacrificed"] + case.expect.get("sacrificed", 0)
    after = {k: after[k] for k in strict}
    assert after == expected


def test_every_ability_of_every_card_has_a_case() -> None:
    covered = {(c.key, c.ability) for c in CASES}
    needed = {(card.key, ability) for card in cards().values() for ability in card.abilities}
    assert needed - covered == set()


def test_playing_a_champion_puts_it_in_play_ready_and_it_can_expend_that_turn() -> None:
    s = clean()
    cid = put(s, 0, "borg")
    s = act(s, 0, "play", card=cid).state
    p = s.players[0]
    assert cid in p.champions and cid not in p.expended
    s = act(s, 0, "expend", card=cid).state
    assert s.players[0].combat == 4 and cid in s.players[0].expended


def test_stun_only_offers_targetable_champions_and_is_forced_with_one_target() -> None:
    s = clean()
    put(s, 0, "profit", "played")
    guard = put(s, 1, "orc_grunt", "champions")
    put(s, 1, "rayla", "champions")
    hit = put(s, 0, "hit_job", "played")
    s = act(s, 0, "ally", card=hit).state
    # The guard protects Rayla: the only target is the guard, stunned at once.
    assert guard in s.players[1].discard and not engine.pending_of(s, 0)


def test_rake_may_decline_and_sees_every_unprotected_champion() -> None:
    s = clean()
    a = put(s, 1, "rayla", "champions")
    b = put(s, 1, "cron", "champions")
    rake = put(s, 0, "rake", "champions")
    s = act(s, 0, "expend", card=rake).state
    assert set(options(s, 0)) == {a, b, "none"}
    s = answer(s, 0, b)
    assert s.players[1].champions == [a] and b in s.players[1].discard


def test_prepare_lets_a_champion_expend_again() -> None:
    s = clean()
    borg = put(s, 0, "borg", "champions")
    cron = put(s, 0, "cron", "champions")
    s = act(s, 0, "expend", card=borg).state
    s = act(s, 0, "expend", card=cron).state
    put(s, 0, "taxation", "played")
    rally = put(s, 0, "rally_the_troops", "played")
    s = act(s, 0, "ally", card=rally).state
    assert set(options(s, 0)) == {borg, cron}
    s = answer(s, 0, borg)
    s = act(s, 0, "expend", card=borg).state
    assert s.players[0].combat == 4 + 5 + 4


def test_bribe_puts_the_next_action_bought_on_top_but_not_a_champion() -> None:
    s = clean()
    p = s.players[0]
    p.gold = 20
    s.market = [put_market(s, "borg"), put_market(s, "spark"), *s.market[2:]]
    put(s, 0, "profit", "played")
    bribe = put(s, 0, "bribe", "played")
    s = act(s, 0, "ally", card=bribe).state
    borg, spark = s.market[0], s.market[1]
    s = act(s, 0, "buy", card=borg).state
    assert s.players[0].discard[-1] == borg
    s = act(s, 0, "buy", card=spark).state
    assert s.players[0].deck[-1] == spark and not s.players[0].next_action_top


def put_market(s: State, key: str) -> str:
    cid = f"c{len(s.cards) + 1:03d}"
    s.cards[cid] = key
    return cid


def test_deception_puts_the_next_card_into_the_hand_and_rasmus_on_top() -> None:
    s = clean()
    s.players[0].gold = 20
    put(s, 0, "profit", "played")
    dec = put(s, 0, "deception", "played")
    s = act(s, 0, "ally", card=dec).state
    first = s.market[0]
    s = act(s, 0, "buy", card=first).state
    assert s.players[0].hand == [first]
    put(s, 0, "rasmus", "champions")
    ras = s.players[0].champions[-1]
    s = act(s, 0, "ally", card=ras).state
    s = act(s, 0, "buy", card="gem").state
    top = s.players[0].deck[-1]
    assert s.cards[top] == "fire_gem"


def test_varrick_takes_a_champion_from_the_discard_pile_to_the_top_of_the_deck() -> None:
    s = clean()
    a = put(s, 0, "borg", "discard")
    b = put(s, 0, "cron", "discard")
    put(s, 0, "gold", "discard")
    varrick = put(s, 0, "varrick", "champions")
    s = act(s, 0, "expend", card=varrick).state
    assert set(options(s, 0)) == {a, b}
    s = answer(s, 0, b)
    assert s.players[0].deck[-1] == b


def test_a_sacrificed_fire_gem_goes_back_to_the_gem_pile() -> None:
    s = clean()
    gems = len(s.gems)
    gem = put(s, 0, "fire_gem", "discard")
    touch = put(s, 0, "death_touch")
    s = act(s, 0, "play", card=touch).state
    s = answer(s, 0, gem)
    assert s.gems[-1] == gem and len(s.gems) == gems + 1 and gem not in s.sacrificed


def test_target_opponent_discards_at_the_start_of_their_turn_choosing_the_card() -> None:
    s = clean()
    for key in ("gold", "gold", "borg", "dagger", "ruby"):
        put(s, 1, key)
    spark = put(s, 0, "spark")
    step = act(s, 0, "play", card=spark)
    s = step.state
    assert s.players[1].owed_discards == 1 and len(s.players[1].hand) == 5
    s = act(s, 0, "end_turn").state
    assert pending(s, 1)["kind"] == "discard"
    assert set(options(s, 1)) == set(s.players[1].hand)
    dagger = next(c for c in s.players[1].hand if s.cards[c] == "dagger")
    s = answer(s, 1, dagger)
    assert dagger in s.players[1].discard and len(s.players[1].hand) == 4 and s.players[1].owed_discards == 0


def test_rampage_discards_as_many_as_were_really_drawn() -> None:
    s = clean()
    s.players[0].deck = []
    s.players[0].discard = []
    put(s, 0, "dagger", "deck")
    rampage = put(s, 0, "rampage")
    s = act(s, 0, "play", card=rampage).state
    assert options(s, 0) == [0, 1, 2]
    s = answer(s, 0, 2)
    assert pending(s, 0)["count"] == 1
    s = answer(s, 0, s.players[0].hand[0])
    assert engine.pending_of(s, 0) is None and s.players[0].combat == 6
