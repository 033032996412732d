"""The allies' round (towers, attack minimums) and between waves (economy, levelling, healing): TC-24 to TC-27,
TC-33, TC-35, plus the contract hooks (decisions, several seats at once, JSON round trip)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import i18n
from rules import registry
from rules.base import Action, Event, Game
from rules.kings_armory import GAME, enemy, figures, queries, shop
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import around, footprint
from rules.kings_armory.shapes import State

from . import helpers as h

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "kings_armory"


def _legal(s: State, seat: int = 0) -> list[Action]:
    return [la.action for la in GAME.legal_actions(s, seat)]


def _tower(s: State) -> tuple[str, list[tuple[int, int]]]:
    tower, _ = h.tower_at_range(s, h.lane_square(s, 20), 4)
    corner = next(t["at"] for t in s["towers"] if t["id"] == tower)
    return tower, footprint((corner[0], corner[1]))


def test_tc24_move_then_enter_costs_two_actions() -> None:
    s = h.scene()
    tower, cells = _tower(s)
    outside = [q for q in around(cells) if queries.walkable(s, q)]
    two_away = next(q for q in [(r + dr, c + dc) for r, c in outside for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
                    if queries.walkable(s, q) and q not in outside and q not in cells)
    hero = h.add_hero(s, "valcor", two_away)
    GAME.apply(s, 0, Action.of("activate", ally=hero["id"]))
    s.update(GAME.apply(s, 0, Action.of("activate", ally=hero["id"])).state)
    assert not any(a.kind == "enter" for a in _legal(s))
    step_to = next(a for a in _legal(s) if a.kind == "move" and queries.board_of(s).parse(str(a["to"])) in outside)
    s.update(GAME.apply(s, 0, step_to).state)
    enter = next(a for a in _legal(s) if a.kind == "enter")
    s.update(GAME.apply(s, 0, enter).state)
    hero = queries.ally(s, hero["id"])
    assert hero["inside"] and hero["house"] == tower and hero["ap"] == 1


def test_tc24_a_full_tower_refuses_entry() -> None:
    s = h.scene()
    tower, cells = _tower(s)
    outside = [q for q in around(cells) if queries.walkable(s, q)]
    for i, name in enumerate(("foot", "archer", "cleric")):
        h.add_champion(s, name, outside[i + 1])["house"] = tower
    hero = h.add_hero(s, "valcor", outside[0])
    s.update(GAME.apply(s, 0, Action.of("activate", ally=hero["id"])).state)
    assert not any(a.kind == "enter" for a in _legal(s))


def test_tc33_berserker_must_attack_twice_while_he_can() -> None:
    s = h.scene()
    orc = h.add_monster(s, "orc_warrior", 20)
    orc["hp"] = orc["max"] = 60
    asphar = h.add_hero(s, "asphar", h.open_square_at(s, h.lane_square(s, 20), 1))
    s.update(GAME.apply(s, 0, Action.of("activate", ally=asphar["id"])).state)
    assert Action.of("end") not in _legal(s)
    why = GAME.why_illegal(s, 0, Action.of("end"))
    assert why is not None and why.key == "ka.why.must_attack"
    events: list[Event] = []
    allies_round.apply(s, h.Dice(10), events, 0, Action.of("attack", opt="greataxe", target=orc["id"]))
    assert Action.of("end") not in _legal(s)
    allies_round.apply(s, h.Dice(10), events, 0, Action.of("attack", opt="greataxe", target=orc["id"]))
    assert Action.of("end") in _legal(s)


def test_tc33_no_target_no_obligation() -> None:
    s = h.scene()
    h.add_monster(s, "orc_warrior", 5)
    asphar = h.add_hero(s, "asphar", h.open_square_at(s, h.lane_square(s, 30), 1))
    s.update(GAME.apply(s, 0, Action.of("activate", ally=asphar["id"])).state)
    assert Action.of("end") in _legal(s)


def test_tc35_knocked_out_hero_keeps_its_square_and_is_never_targeted() -> None:
    s = h.scene()
    troll = h.add_monster(s, "bridge_troll", 20)
    hero = h.add_hero(s, "valcor", h.open_square_at(s, h.lane_square(s, 20), 1))
    h.add_hero(s, "ember", (0, 0), seat=0)
    hero.update({"ko": True, "hp": 0})
    assert enemy.choose_target(s, h.Dice(), troll, enemy.monster_attacks(troll)[0], set()) is None
    assert not queries.free_for_ally(s, h.square_of(hero))


def _between(seats: int = 1, gold: int = 0) -> State:
    s = h.scene(seats=seats)
    s.update({"phase": "between", "gold": gold, "ready": []})
    return s


def test_tc25_towers_cost_100_and_sell_for_50() -> None:
    s = _between(gold=250)
    h.add_hero(s, "valcor", (0, 0))
    build = next(a for a in _legal(s) if a.kind == "build")
    s.update(GAME.apply(s, 0, build).state)
    assert s["gold"] == 150 and len(s["towers"]) == 1
    sell = next(a for a in _legal(s) if a.kind == "sell")
    s.update(GAME.apply(s, 0, sell).state)
    assert s["gold"] == 200 and s["towers"] == []
    s["towers"] = [{"id": f"t{i}", "at": [0, 0]} for i in range(7)]
    assert not any(a.kind == "build" for a in _legal(s))


def test_tc25_saving_350_keeps_three_hundreds_and_one_fifty() -> None:
    s = _between(gold=350)
    shop.exchange(s, h.Dice())
    assert s["saved"] == [50, 100, 100, 100]
    assert len(s["coins"]) == 22 and sum(s["coins"]) + 350 == 2600


def test_tc26_champion_levelling_heals_by_the_new_heal_rate() -> None:
    s = _between(gold=250)
    soldier = h.add_champion(s, "foot", (0, 0))
    soldier["hp"] = 4
    s.update(GAME.apply(s, 0, Action.of("upgrade", ally=soldier["id"])).state)
    soldier = queries.ally(s, soldier["id"])
    assert (soldier["level"], soldier["hp"], s["gold"]) == (2, 8, 150)
    s.update(GAME.apply(s, 0, Action.of("upgrade", ally=soldier["id"])).state)
    soldier = queries.ally(s, soldier["id"])
    assert (soldier["level"], soldier["hp"], s["gold"]) == (3, 13, 0)
    assert not any(a.kind == "upgrade" for a in _legal(s))


def test_tc27_healing_and_revival_between_waves() -> None:
    s = h.scene()
    s["phase"] = "allies"
    valcor = h.add_hero(s, "valcor", (0, 0))
    felicity = h.add_hero(s, "felicity", (0, 2))
    valcor.update({"ko": True, "hp": 0})
    felicity["hp"] = 3
    h.add_champion(s, "archer", (0, 4))
    s["fallen"]["archer"] = 1
    enemy.end_wave(s, [])
    assert (valcor["hp"], valcor["ko"], felicity["hp"]) == (6, False, 11)
    s["gold"] = 1000
    hire = [a for a in _legal(s) if a.kind == "hire" and a["type"] == "archer"]
    assert hire
    for _ in range(2):
        s.update(GAME.apply(s, 0, hire[0]).state)
    assert not any(a.kind == "hire" and a["type"] == "archer" for a in _legal(s))  # 4 − 1 dead = 3 at most


def test_ready_needs_every_hero_housed_and_seats_act_at_once() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 3)
    s.update(GAME.apply(s, 0, Action.of("pick", hero="valcor")).state)
    s.update(GAME.apply(s, 1, Action.of("pick", hero="ember")).state)
    assert s["phase"] == "setup" and GAME.to_act(s) == frozenset({0, 1})
    assert Action.of("ready") not in _legal(s, 0)
    for _ in range(2):
        s.update(GAME.apply(s, 1, next(a for a in _legal(s, 1) if a.kind == "build")).state)
    for seat in (0, 1):
        s.update(GAME.apply(s, seat, next(a for a in _legal(s, seat) if a.kind == "place")).state)
    s.update(GAME.apply(s, 1, Action.of("ready")).state)
    assert GAME.to_act(s) == frozenset({0})
    s.update(GAME.apply(s, 0, Action.of("ready")).state)
    assert s["phase"] == "enemy" and s["wave"] == 1 and s["arrive"] == 1 + 2 + 2


def test_every_build_and_placement_at_once_is_what_walking_the_steps_finds() -> None:
    s = GAME.new(GAME.resolve_options({}), 2, 3)
    s.update(GAME.apply(s, 0, Action.of("pick", hero="valcor")).state)
    s.update(GAME.apply(s, 1, Action.of("pick", hero="ember")).state)
    s.update(GAME.apply(s, 1, next(a for a in _legal(s, 1) if a.kind == "build")).state)
    kinds = ["build", "place", "ready"]
    at_once = GAME.moves_of_kinds(s, 0, kinds)
    walked = Game.moves_of_kinds(GAME, s, 0, kinds)  # the contract's default: one step at a time
    assert sorted(la.action.token() for la in at_once) == sorted(la.action.token() for la in walked)
    assert {la.action.kind for la in at_once} == {"build", "place"}  # nobody is housed yet: no ready
    assert len(at_once) > len([a for a in _legal(s, 0) if a.kind in ("build", "place")])


@pytest.mark.parametrize("seed", [1, 2])
def test_state_and_views_survive_json_and_hide_the_decks(seed: int) -> None:
    s = GAME.new(GAME.resolve_options({"arrival": "delayed"}), 3, seed)
    again = GAME.from_json(json.loads(json.dumps(GAME.to_json(s))))
    assert again == s
    view = json.dumps(GAME.view(s, None))
    assert "coins" not in view and "piles" not in view and "rng" not in view


def test_registered_offered_and_co_operative() -> None:
    game = registry.get("kings-armory")
    assert game is GAME and not game.in_progress and game.seats_per_player > 1
    assert game.seat_range(game.resolve_options({})) == (1, 7)


def test_every_message_key_exists_in_both_languages() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    keys = set(re.findall(r'"(ka\.[a-z_.]+[a-z_])"', source))
    keys |= {f"ka.ev.{k}" for k in re.findall(r'_say\(events, "([a-z_]+)"', source)}
    keys |= {f"ka.act.{k}" for k in re.findall(r'_la\(.*?, "([a-z_]+)"', source)}
    for lang in ("es", "en"):
        missing = sorted(k for k in keys if not i18n.has(k, lang))
        assert missing == [], lang
    assert figures.SPECIAL_EFFECTS


def test_cheap_legality_checks_agree_with_the_listing() -> None:
    s = _between(gold=300)
    hero = h.add_hero(s, "valcor", h.lane_square(s, 30))
    h.tower_at_range(s, h.lane_square(s, 20), 3)
    listed = {la.action for kind in ("place", "build") for la in shop.legal(s, 0, kind)}
    b = queries.board_of(s)
    for r in range(-1, 18):
        for c in range(-1, 17):
            label = b.labels.get((r, c)) or (b.label((r, c)) if r >= 0 and c >= 0 else None)
            if label is None:
                continue
            for house in [*queries.houses(s), "t99"]:
                action = Action.of("place", ally=hero["id"], house=house, at=label)
                assert GAME.is_legal(s, 0, action) == (action in listed), action
            action = Action.of("build", at=label)
            assert GAME.is_legal(s, 0, action) == (action in listed), action


def _built(s: State, path: tuple[str, ...] = ()) -> set[Action]:
    """Every complete move reachable through `choices` from `path`."""
    found = GAME.choices(s, 0, path)
    if isinstance(found, Action):
        return {found}
    return {a for c in found for a in _built(s, (*path, c.token))}


def test_the_shop_lists_a_few_builds_and_placements_and_builds_the_rest_in_steps() -> None:
    s = _between(gold=300)
    hero = h.add_hero(s, "valcor", h.lane_square(s, 30))
    h.tower_at_range(s, h.lane_square(s, 20), 3)
    listed = GAME.legal_actions(s, 0)
    builds = [la.action for la in listed if la.action.kind == "build"]
    places = [la.action for la in listed if la.action.kind == "place"]
    assert len(builds) <= 16 and len({b["at"] for b in builds}) == len(builds)
    assert len(places) <= 2 * len(queries.houses(s))
    every_build = {la.action for la in shop.legal(s, 0, "build")}
    every_place = {la.action for la in shop.legal(s, 0, "place")}
    assert len(every_build) > 3 * len(builds) and set(builds) <= every_build
    assert _built(s, ("build",)) == every_build
    assert _built(s, ("place",)) == every_place
    assert len(every_place) > 2 * len(places) and set(places) <= every_place
    assert all(GAME.is_legal(s, 0, a) for a in every_place)
    assert hero["pos"] is not None


def test_a_hero_with_no_house_slot_left_anywhere_may_still_ready() -> None:
    """Every slot taken by another seat's champions and no gold to build: the seat must not be stuck."""
    s = _between(seats=2)
    hero = h.add_hero(s, "valcor", (0, 0))
    houses = queries.houses(s)
    for hid, squares in houses.items():
        for _ in range(queries.capacity(s, hid)):
            champ = h.add_champion(s, "foot", squares[0], seat=1)
            champ["house"] = hid
    assert not shop.place_targets(s, hero) and not queries.housed(s, hero)
    legal = _legal(s, 0)
    assert Action.of("ready") in legal, legal
    s.update(GAME.apply(s, 0, Action.of("ready")).state)
    assert 0 in s["ready"]
