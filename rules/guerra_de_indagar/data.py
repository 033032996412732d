"""Loads and checks the Guerra de Indagar data files (layouts, tiles, rule numbers, factions, monsters)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.readonly import loader
from rules.text import Lit

DATA = Path(__file__).resolve().parents[2] / "data" / "guerra_de_indagar"
RESOURCES = ("gold", "wood", "mineral")


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


@loader()
def layouts() -> Mapping[str, Any]:
    data = _load("layouts.json")
    for key in ("1", "2", "3", "4"):
        layout = data[key]
        if len(layout["areas"]) != max(1, int(key)) or len(layout["homes"]) != (4 if key == "1" else int(key)):
            raise ValueError(f"layout {key}: wrong number of areas or homes")
    return data


@loader()
def tiles() -> Mapping[str, Any]:
    data = _load("tiles.json")
    for name in data["event_pool"]["tiles"]:
        if data["types"][name]["kind"] != "event":
            raise ValueError(f"{name} is in the event pool but is not an event tile")
    return data


@loader()
def numbers() -> Mapping[str, Any]:
    return _load("rules.json")


@loader()
def factions() -> Mapping[str, Any]:
    data = _load("factions.json")
    for faction in data["factions"].values():
        if len(faction["heroes"]) != 3 or any(h not in data["heroes"] for h in faction["heroes"]):
            raise ValueError("every faction has exactly 3 known heroes")
    for hero in data["heroes"].values():
        if any(rule not in data["special_rules"] for rule in hero["rules"]):
            raise ValueError("unknown special rule")
    return data


@loader()
def monsters() -> Mapping[str, Any]:
    data = _load("monsters.json")
    for card in data["primary"].values():
        if len(card["levels"]) != 3:
            raise ValueError("a primary monster has 3 levels")
    return data


BOOSTS = {"attack_dice", "defence_dice", "min_damage", "extra_damage", "ignore", "reroll_attack", "turn_defence"}
WHO = {"attacker", "self", "adjacent", "range", "any_own", "outpost", "deceive"}
DOES = {"heal", "range", "target", "free_build", "move", "damage", "heal_self", "explore", "build_discount",
        "teleport", "near_enemy", "after_attack_move", "gain", "kind", "one_kind", "curse", "swap", "area_damage",
        "storm", "relief", "place_outpost", "xp", "outpost_damage", "plunder", "spirit", "raze"}
PASSIVES = {"attack", "defence", "resistance", "move", "scope", "range", "when", "terrain", "ignore", "min_damage",
            "outpost_extra", "produce", "outpost_defence", "explore_range", "redeploy_near_outpost", "retreat_xp",
            "spirit_resources"}


def _check_card(aid: str, card: dict[str, Any]) -> None:
    """One effect vocabulary for hero and tree abilities: a boost, an active 'do' or a passive."""
    shapes = [k for k in ("effect", "do", "passive") if k in card]
    if len(shapes) != 1 or not set(card["cost"]) <= set(RESOURCES):
        raise ValueError(f"ability {aid}: one of effect/do/passive and a resource cost")
    if "effect" in card and (not set(card["effect"]) <= BOOSTS or card["who"] not in WHO
                             or (card["who"] == "attacker") != (card["tag"] == "A")):
        raise ValueError(f"ability {aid}: bad boost")
    if "do" in card and (not set(card["do"]) <= DOES or card["tag"] != "A"):
        raise ValueError(f"ability {aid}: bad active ability")
    if "passive" in card and (not set(card["passive"]) <= PASSIVES or card["tag"] != "P" or card["cost"]):
        raise ValueError(f"ability {aid}: bad passive")


@loader()
def abilities() -> Mapping[str, Any]:
    """The 60 hero abilities (PROV-08)."""
    data: dict[str, Any] = _load("abilities.json")["abilities"]
    for aid, card in data.items():
        if card["hero"] not in factions()["heroes"]:
            raise ValueError(f"ability {aid}: unknown hero")
        _check_card(aid, card)
    return data


@loader()
def cards() -> Mapping[str, Any]:
    """Every ability, hero and tree alike (ids are unique across both)."""
    tree_cards = strategy()["abilities"]
    if set(tree_cards) & set(abilities()):
        raise ValueError("an ability id is both a hero's and a tree's")
    return {**abilities(), **tree_cards}


@loader()
def passive_cards() -> tuple[tuple[str, dict[str, Any]], ...]:
    return tuple((aid, card) for aid, card in abilities().items() if card["tag"] == "P")


@loader(maxsize=16)
def hero_cards_of(hero: str) -> tuple[str, ...]:
    """The hero's non-passive abilities, in data order."""
    return tuple(aid for aid, card in abilities().items() if card["hero"] == hero and card["tag"] != "P")


@loader()
def strategy() -> Mapping[str, Any]:
    data = _load("strategy.json")
    for faction, board in data["boards"].items():
        if faction not in factions()["factions"] or len(board["trees"]) != 3 or any(
                tree not in data["trees"] for tree in board["trees"]):
            raise ValueError(f"strategy board of {faction}: 3 known trees")
    for tree, info in data["trees"].items():
        if len(info["abilities"]) != 3 or any(data["abilities"][a]["tree"] != tree for a in info["abilities"]):
            raise ValueError(f"tree {tree}: 3 abilities of its own")
    for aid, card in data["abilities"].items():
        _check_card(aid, card)
        for path in card["star"]:
            part, field = path.split(".")
            if field not in card[part]:
                raise ValueError(f"tree ability {aid}: its * names no number")
    return data


def tree_name(tree: str) -> Lit:
    return name(strategy()["trees"], tree)


def hero_card(hero: str) -> dict[str, Any]:
    card: dict[str, Any] = factions()["heroes"][hero]
    return card


def faction_of(hero: str) -> str:
    return next(f for f, data in factions()["factions"].items() if hero in data["heroes"])


def name(section: Mapping[str, Any], key: str) -> Lit:
    entry = section[key]
    return Lit(entry["es"], entry["en"])


def tile_name(kind: str) -> Lit:
    return name(tiles()["types"], kind)


def hero_name(hero: str) -> Lit:
    return name(factions()["heroes"], hero)


def faction_name(faction: str) -> Lit:
    return name(factions()["factions"], faction)


def ability_name(ability: str) -> Lit:
    return name(cards(), ability)


def monster_name(monster: str) -> Lit:
    data = monsters()
    return name(data["primary"] if monster in data["primary"] else data["event"], monster)
