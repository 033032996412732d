"""Hero and tree abilities (digest §1.11-1.12, §3.7-3.8, §4.9): every active one used in a scene, passives, unlocks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.base import SYSTEM, Action, IllegalAction
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.abilities import ability_number
from rules.guerra_de_indagar.data import AbilityCard, abilities, cards, faction_of, factions, section, strategy
from rules.guerra_de_indagar.flow import deploy_tiles, end_round
from rules.guerra_de_indagar.invariants import check
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import (
    hero_attack,
    hero_defence,
    hero_move,
    hero_resistance,
    outpost_defence,
    retreat_hero,
    unit_at,
)

from .helpers import activation, clear_board, dice, lab, my_turn, put, started

RICH = {"gold": 9, "wood": 9, "mineral": 9}
ME, MATE, ENEMY, MONSTER = "0,1", "-1,1", "1,1", "2,0"
FOE_POST, OWN_POST, FREE_ORE, HIDDEN = "0,2", "-1,2", "1,0", "-1,0"


def scene(hero: str, tree: str | None = None, unlock: str | None = None, side: str = "coin", levels: int = 3) -> State:
    """Seat 0's `hero` active on a meadow with every kind of target around it: a hurt friend adjacent, an enemy
    hero adjacent, a monster 2 away, an enemy and an own outpost adjacent, a free mineral tile adjacent, a
    face-down tile 2 away. Level 3 and commander, so every slot is open."""
    faction = faction_of(hero)
    other = "sect" if faction != "sect" else "arkland"
    s = clear_board(started(2, factions=(faction, other)))
    mates = [h for h in factions()["factions"][faction]["heroes"] if h != hero]
    foe = factions()["factions"][other]["heroes"][0]
    s["players"][0].update({"commander": hero, "res": dict(RICH), "tree": tree,
                            "unlocks": {unlock: side} if unlock else {}})
    s["players"][1].update({"commander": factions()["factions"][other]["heroes"][1], "res": dict(RICH)})
    put(s, hero, ME)
    put(s, mates[0], MATE)
    put(s, foe, ENEMY)
    s["heroes"][hero].update({"levels": ["sword"] * levels, "dmg": 2})
    s["heroes"][mates[0]]["dmg"] = 2
    s["heroes"][foe]["dmg"] = 1
    s["monsters"] = {"helgoth": primary("helgoth", MONSTER, 0)}
    s["tiles"][FOE_POST]["t"] = "gold"
    s["tiles"][OWN_POST]["t"] = "wood"
    s["tiles"][FREE_ORE]["t"] = "mineral"
    s["tiles"][HIDDEN].update({"t": "spirits", "up": False})
    s["outposts"][FOE_POST] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}
    s["outposts"][OWN_POST] = {"owner": 0, "level": 1, "dmg": 0, "dropped": False}
    return my_turn(s, 0, hero)


def uses(s: State, aid: str) -> list[Action]:
    return [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "skill" and la.action["id"] == aid]


def total(s: State, seat: int) -> int:
    return sum(s["players"][seat]["res"].values())


def hurt(s: State) -> int:
    return sum(h["dmg"] for h in s["heroes"].values()) + sum(m["dmg"] for m in s["monsters"].values())


CHECKS: dict[str, Callable[[State, State], bool]] = {
    "heal": lambda a, b: hurt(b) < hurt(a),
    "damage": lambda a, b: hurt(b) > hurt(a) or b["heroes"] != a["heroes"],
    "curse": lambda a, b: any(v.get("defence", 0) < 0 for v in b["mods"].values()),
    "area_damage": lambda a, b: b["heroes"] != a["heroes"],
    "storm": lambda a, b: b["heroes"] != a["heroes"],
    "outpost_damage": lambda a, b: b["outposts"][FOE_POST]["dmg"] == 2,
    "move": lambda a, b: activation(b)["mv"] > activation(a)["mv"],
    "free_build": lambda a, b: activation(b)["free_build"] is True,
    "teleport": lambda a, b: b["heroes"][activation(b)["hero"]]["at"] != ME,
    "swap": lambda a, b: b["heroes"][activation(b)["hero"]]["at"] == MATE,
    "relief": lambda a, b: [h["at"] for h in b["heroes"].values()] != [h["at"] for h in a["heroes"].values()],
    "after_attack_move": lambda a, b: activation(b)["mv"] > activation(a)["mv"] and activation(b)["mudproof"],
    "gain": lambda a, b: total(b, 0) > total(a, 0),
    "explore": lambda a, b: b["pending"][0]["kind"] == "reveal" and activation(b)["mv"] == activation(a)["mv"],
    "place_outpost": lambda a, b: len(b["outposts"]) == 3,
    "plunder": lambda a, b: total(b, 1) < total(a, 1),
    "raze": lambda a, b: b["tiles"][FREE_ORE]["destroyed"],
    "xp": lambda a, b: b["heroes"][activation(b)["hero"]]["xp"] > 0,
    "spirit": lambda a, b: b["players"][0]["spirits"] > 0,
}


def _kind(card: AbilityCard) -> str:
    return next(k for k in CHECKS if k in card["do"])


HERO_ACTIVES = sorted(aid for aid, c in abilities().items() if "do" in c and "build_discount" not in c["do"])
TREE_ACTIVES = sorted(aid for aid, c in strategy()["abilities"].items() if "do" in c)


@pytest.mark.parametrize("aid", HERO_ACTIVES)
def test_every_active_hero_ability_has_a_use_and_does_it(aid: str) -> None:
    card = abilities()[aid]
    s = scene(card["hero"])
    if "after_attack_move" in card["do"]:
        assert uses(s, aid) == []  # only once its attack is over
        activation(s).update({"acted": True, "attacked": True})
    options = uses(s, aid)
    assert options, aid
    after = GAME.apply(s, 0, options[0]).state
    assert CHECKS[_kind(card)](s, after), aid
    assert after["last_ability"] == 0 and aid in after["used"]
    if not {"gain", "plunder"} & set(card["do"]):
        assert total(after, 0) == total(s, 0) - sum(card["cost"].values())
    assert uses(after, aid) == []  # once per turn [RB p.10]


@pytest.mark.parametrize("aid", TREE_ACTIVES)
def test_every_active_tree_ability_needs_its_tree_and_its_unlock(aid: str) -> None:
    card = strategy()["abilities"][aid]
    faction = next(f for f, b in strategy()["boards"].items() if card["tree"] in b["trees"])
    hero = factions()["factions"][faction]["heroes"][0]
    assert uses(scene(hero, tree=card["tree"], levels=0), aid) == []  # locked
    assert uses(scene(hero, tree=None, unlock=aid, levels=0), aid) == []  # its tree not in play
    s = scene(hero, tree=card["tree"], unlock=aid, levels=0)
    if "after_attack_move" in card["do"]:
        activation(s).update({"acted": True, "attacked": True})
    options = uses(s, aid)
    assert options, aid
    after = GAME.apply(s, 0, options[0]).state
    assert CHECKS[_kind(card)](s, after), aid
    s["players"][0]["traitors"] = True  # Local Traitors (RULING-20)
    assert uses(s, aid) == []


def test_stat_passives_need_their_hero_on_the_board_and_their_slot() -> None:
    s = scene("ariane", levels=0)
    assert hero_attack(s, "paladin") == 2 + 1  # Banner of Arkland: Ariane (commander) is within range 1
    s["players"][0]["commander"] = "knight"
    put(s, "knight", "-2,1")
    assert hero_attack(s, "paladin") == 2 and hero_move(s, "paladin") == 3 + 1  # now Arkland Cavalry
    retreat_hero(s, "knight", [])
    assert hero_move(s, "paladin") == 3  # RULING-05: off the board, its passives are off


def test_level_three_passives_titan_champion_avatar_and_terror() -> None:
    s = scene("warden")
    assert (hero_attack(s, "warden"), hero_defence(s, "warden")) == (3 + 3 + 1, 3 + 1 + 1)  # swords, Titan, commander
    s = scene("ariane")
    assert hero_attack(s, "ariane") == 3 + 3 + 1  # Champion of Arkland: next to her own outpost
    s["outposts"].pop(OWN_POST)
    assert hero_attack(s, "ariane") == 3 + 3
    s = scene("shaman")
    assert hero_attack(s, "shaman") == 2 + 3 + 1  # Forest Avatar on a meadow
    s["tiles"][ME]["t"] = "gold"
    assert hero_attack(s, "shaman") == 2 + 3
    s = scene("abomination")  # Terror: enemy heroes adjacent to the commander Abomination have -1 defence
    assert hero_defence(s, "ariane") == 2 - 1


def test_conditional_attack_passives_great_hunt_and_mark_the_leader() -> None:
    s = scene("huntress", levels=0)
    assert hero_attack(s, "huntress", MONSTER) == 3 + 1 and hero_attack(s, "huntress", ENEMY) == 3
    s = scene("assassin", levels=0)
    enemy = unit_at(s, ENEMY)
    assert enemy is not None
    s["players"][1]["commander"] = enemy[1]
    assert hero_attack(s, "assassin", ENEMY) == 3 + 1 and hero_attack(s, "assassin", MONSTER) == 3


def test_unbroken_faith_leaving_can_send_a_hurt_hero_to_retreat() -> None:
    s = scene("paladin", levels=0)
    assert hero_resistance(s, "ariane") == 6 + 1
    s["heroes"]["ariane"]["dmg"] = 6
    retreat_hero(s, "paladin", [])
    assert s["heroes"]["ariane"]["at"] is None and check(s) == []


def test_heavy_plate_blood_king_and_devastator_shape_the_damage(monkeypatch: pytest.MonkeyPatch) -> None:
    s = scene("abomination")
    s["heroes"]["abomination"]["dmg"] = 0
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    with dice(monkeypatch, [1] * 7, [1]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, FOE_POST))).state
    assert FOE_POST not in s["outposts"]  # 7 + 2 (Devastator) - 1 destroys it
    s = scene("monarch")
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    s["heroes"]["monarch"]["dmg"] = 5  # Blood Pact would send it to retreat: not offered
    with dice(monkeypatch, [0] * 7, [3, 3]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, ENEMY))).state
    assert s["heroes"]["zhuan"]["dmg"] == 1 + 1  # Blood King: minimum damage 1


def test_new_boosts_in_the_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    s = scene("monarch", levels=0)
    with dice(monkeypatch, [1, 1, 1], [2]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, ENEMY))).state
        legal = [la.action for la in GAME.legal_actions(s, 0)]
        assert Action.of("ability", id="blood_pact") in legal
        assert not any(a.kind == "skill" for a in legal)  # §4.9: nothing but boosts inside an attack
        s = GAME.apply(s, 0, Action.of("ability", id="blood_pact")).state
    assert s["heroes"]["monarch"]["dmg"] == 3 and s["attack"]["a"] == [1, 1, 1, 2]


def test_bulwark_defends_a_lone_outpost_on_another_players_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    s = scene("zhuan", levels=0)
    s["players"][1].update({"tree": "steel_legion", "unlocks": {"bulwark": "bolt"}})
    with dice(monkeypatch, [1, 1, 1], [1], [1, 1, 1]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, FOE_POST))).state
        s = GAME.apply(s, 0, Action.of("roll_defence")).state
        decision = GAME.decisions(s)[0]
        assert decision.seat == 1 and decision.default == Action.of("done") and decision.seconds
        s = GAME.apply(s, 1, Action.of("ability", id="bulwark")).state  # +3 dice with the bolt
    assert s["players"][1]["res"] == {"gold": 9, "wood": 8, "mineral": 8}
    assert s["attack"]["d"] == [1, 1, 1, 1]


def test_deception_makes_the_attacker_reroll_before_the_defence(monkeypatch: pytest.MonkeyPatch) -> None:
    s = scene("ariane", levels=0)
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    s["players"][1].update({"tree": "tricks", "unlocks": {"deception": "coin"}})
    with dice(monkeypatch, [3, 3, 3], [0, 0, 0], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, ENEMY))).state
        assert s["pending"][0]["kind"] == "p_boost" and GAME.to_act(s) == frozenset({1})
        s = GAME.apply(s, 1, Action.of("ability", id="deception")).state
        assert s["attack"]["a"] == [0, 0, 0] and GAME.legal_actions(s, 1)[-1].action == Action.of("done")
        s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 1  # 0 against 0 after the reroll, not 9 against 0
    assert s["players"][1]["res"]["mineral"] == 9  # the coin made its 1-mineral cost free


def test_declaring_a_tree_may_unlock_one_of_its_abilities() -> None:
    s = started(2, factions=("arkland", "sect"))
    s["phase"], s["round"] = "round_start", 2
    s = GAME.apply(s, SYSTEM, Action.of("round_start")).state
    seat = s["pending"][0]["seat"]
    board = strategy()["boards"][s["players"][seat]["faction"]]
    options = [la.action for la in GAME.legal_actions(s, seat)]
    assert len(options) == 3 * (1 + 3 * 2)
    tree = board["trees"][1]
    aid = strategy()["trees"][tree]["abilities"][0]
    s = GAME.apply(s, seat, Action.of("declare", tree=tree, unlock=aid, side="bolt")).state
    assert s["players"][seat]["unlocks"] == {aid: "bolt"}
    part, field = cards()[aid]["star"][0].split(".")
    printed = section(cards()[aid], part)[field]  # the number the card prints, which the bolt raises by one
    assert isinstance(printed, int)
    assert ability_number(s, seat, aid, part, field) == printed + 1


def test_free_building_and_living_wood() -> None:
    s = scene("warden", levels=2)
    s["tiles"][ME]["t"] = "gold"
    s["players"][0]["res"] = {"gold": 1, "wood": 2, "mineral": 0}
    build = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "build"]
    assert build  # Living Wood: 1 gold instead of 2
    s = GAME.apply(s, 0, Action.of("skill", id="deep_roots")).state
    s = GAME.apply(s, 0, build[0]).state
    assert s["players"][0]["res"]["gold"] == 0 and not s["act"]["acted"] and "living_wood" in s["used"]
    assert s["outposts"][ME]["owner"] == 0


def test_seat_wide_passives_fertile_land_living_wall_dark_ritual_web_and_portal() -> None:
    s = scene("shaman", levels=0)
    s["round"], s["phase"] = 3, "round_end"
    s["act"], s["turn"] = None, None
    before = s["players"][0]["res"]["wood"]
    end_round(s, [])
    assert s["players"][0]["res"]["wood"] == before + 2  # Fertile Land: +1 wood on a wood outpost
    s = scene("warden", levels=0)
    assert outpost_defence(s, OWN_POST) == 1 + 1  # Living Wall
    s = scene("sunjun", levels=0)
    s["players"][0]["spirits"] = 1
    spirit = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "spirit_res"]
    assert len(spirit[0]["get"]) == 4  # Dark Ritual: 4 resources for a spirit
    s = scene("monarch", levels=0)
    assert Action.of("explore", to=lab(s, HIDDEN)) in [la.action for la in GAME.legal_actions(s, 0)]  # Web of Spies
    s = scene("sorceress", levels=0)
    retreat_hero(s, "monarch", [])
    assert MATE in deploy_tiles(s, 0, "monarch") and "-2,3" in deploy_tiles(s, 0, "monarch")  # Crimson Portal


def test_thirst_for_power_adds_xp_for_a_retreat_by_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    s = scene("zhuan", levels=0)
    s["players"][0]["res"] = {"gold": 0, "wood": 0, "mineral": 0}
    s["heroes"]["ariane"]["dmg"] = 5
    with dice(monkeypatch, [3, 3, 3], [0, 0]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, ENEMY))).state
    assert s["heroes"]["zhuan"]["xp"] == 3 + 1 - 3 and s["heroes"]["zhuan"]["levels"] == [""]


def test_wild_storm_cannot_be_used_once_the_attack_has_begun(monkeypatch: pytest.MonkeyPatch) -> None:
    """T-01 variant (c): direct damage after the roll is refused (§4.9)."""
    s = scene("shaman", tree="wild_lands", unlock="wild_storm", levels=0)
    assert uses(s, "wild_storm")
    s["players"][0]["spirits"] = 1  # so the attacker's window opens
    with dice(monkeypatch, [1, 1]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, ENEMY))).state
    assert s["pending"][0]["kind"] == "a_boost"
    storm = Action.of("skill", id="wild_storm")
    assert not GAME.is_legal(s, 0, storm)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, storm)
