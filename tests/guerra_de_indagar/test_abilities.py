"""Hero and tree abilities (digest §1.11-1.12, §3.7-3.8, §4.9): every active one used in a scene, passives, unlocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.base import Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.data import abilities, cards, faction_of, factions, strategy
from rules.guerra_de_indagar.setup import primary

from .helpers import clear_board, lab, my_turn, put, started

State = dict[str, Any]
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
    s["players"][0].update(commander=hero, res=dict(RICH), tree=tree, unlocks={unlock: side} if unlock else {})
    s["players"][1].update(commander=factions()["factions"][other]["heroes"][1], res=dict(RICH))
    put(s, hero, ME)
    put(s, mates[0], MATE)
    put(s, foe, ENEMY)
    s["heroes"][hero].update(levels=["sword"] * levels, dmg=2)
    s["heroes"][mates[0]]["dmg"] = 2
    s["heroes"][foe]["dmg"] = 1
    s["monsters"] = {"helgoth": primary("helgoth", MONSTER, 0)}
    s["tiles"][FOE_POST]["t"] = "gold"
    s["tiles"][OWN_POST]["t"] = "wood"
    s["tiles"][FREE_ORE]["t"] = "mineral"
    s["tiles"][HIDDEN].update(t="spirits", up=False)
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
    "move": lambda a, b: b["act"]["mv"] > a["act"]["mv"],
    "free_build": lambda a, b: b["act"]["free_build"] is True,
    "teleport": lambda a, b: b["heroes"][b["act"]["hero"]]["at"] != ME,
    "swap": lambda a, b: b["heroes"][b["act"]["hero"]]["at"] == MATE,
    "relief": lambda a, b: [h["at"] for h in b["heroes"].values()] != [h["at"] for h in a["heroes"].values()],
    "after_attack_move": lambda a, b: b["act"]["mv"] > a["act"]["mv"] and b["act"]["mudproof"],
    "gain": lambda a, b: total(b, 0) > total(a, 0),
    "explore": lambda a, b: b["pending"][0]["kind"] == "reveal" and b["act"]["mv"] == a["act"]["mv"],
    "place_outpost": lambda a, b: len(b["outposts"]) == 3,
    "plunder": lambda a, b: total(b, 1) < total(a, 1),
    "raze": lambda a, b: b["tiles"][FREE_ORE]["destroyed"],
    "xp": lambda a, b: b["heroes"][b["act"]["hero"]]["xp"] > 0,
    "spirit": lambda a, b: b["players"][0]["spirits"] > 0,
}


def _kind(card: dict[str, Any]) -> str:
    return next(k for k in CHECKS if k in card["do"])


HERO_ACTIVES = sorted(aid for aid, c in abilities().items() if "do" in c and "build_discount" not in c["do"])
TREE_ACTIVES = sorted(aid for aid, c in strategy()["abilities"].items() if "do" in c)


@pytest.mark.parametrize("aid", HERO_ACTIVES)
def test_every_active_hero_ability_has_a_use_and_does_it(aid: str) -> None:
    card = abilities()[aid]
    s = scene(card["hero"])
    if "after_attack_move" in card["do"]:
        assert uses(s, aid) == []  # only once its attack is over
        s["act"].update(acted=True, attacked=True)
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
        s["act"].update(acted=True, attacked=True)
    options = uses(s, aid)
    assert options, aid
    after = GAME.apply(s, 0, options[0]).state
    assert CHECKS[_kind(card)](s, after), aid
    s["players"][0]["traitors"] = True  # Local Traitors (RULING-20)
    assert uses(s, aid) == []
