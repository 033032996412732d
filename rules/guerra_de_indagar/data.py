"""Loads and checks the Guerra de Indagar data files (layouts, tiles, rule numbers, factions, monsters)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NotRequired, Required, TypedDict

from rules.readonly import loader
from rules.text import Lit

DATA = Path(__file__).resolve().parents[2] / "data" / "guerra_de_indagar"
RESOURCES = ("gold", "wood", "mineral")

#: Resources by kind (a cost, a production bonus, a Living Wood discount).
Cost = Mapping[str, int]


class Names(TypedDict):
    es: str
    en: str


class HeroCard(Names):
    move: int
    attack: int
    defence: int
    resistance: int
    rules: Sequence[str]  #: special rules (factions.json "special_rules" keys)


class FactionCard(Names):
    colour: str
    heroes: Sequence[str]


class Factions(TypedDict):
    factions: Mapping[str, FactionCard]
    heroes: Mapping[str, HeroCard]
    special_rules: Mapping[str, Names]


class MonsterStats(TypedDict):
    move: int
    attack: int
    defence: int
    resistance: int


class Victory(TypedDict):
    count: str  #: what the counter counts: "spirits_held", else the monster's `count`
    base: int
    solo: int
    per_player: NotRequired[bool]  #: plus one per player (default)


class PrimaryCard(Names):
    levels: Sequence[MonsterStats]  #: by demon level (1 to 3)
    script: str
    abilities: Mapping[str, int]  #: ability -> the demon level it starts at
    victory: Victory


class EventMonsterCard(Names, MonsterStats):
    xp: int  #: XP for sending it to retreat


class Monsters(TypedDict):
    primary: Mapping[str, PrimaryCard]
    event: Mapping[str, EventMonsterCard]


class TileEffects(TypedDict, total=False):
    """What a tile type does (every key optional; a face-down tile has none)."""

    kind: str  #: resource, plain, impassable, source, event (every type has one)
    stops: bool  #: ends a walk (mud, swamp)
    entry_damage: int
    attack: int  #: to whoever stands on it
    defence: int
    token: str  #: a cache token the revealer gets
    places_outpost: bool
    monster: str  #: the event monster it brings
    spirits: int
    blocks_trees: bool
    heal: int
    ruling: str


class TileType(TileEffects, Names):
    """A tiles.json type: its names and effects."""


class EventPool(TypedDict):
    tiles: Sequence[str]


class Tiles(TypedDict):
    types: Mapping[str, TileType]
    event_pool: EventPool


#: An outpost level's numbers ("yield" is a Python keyword, hence the functional form).
OutpostLevel = TypedDict("OutpostLevel", {"level": int, "cost": Cost, "yield": int, "resistance": int,
                                          "defence": int, "pieces": int})


class Faces(TypedDict):
    faces: Sequence[int]


class DemonHeads(TypedDict):
    levels: Sequence[int]  #: the monsters' level in each round


class Numbers(TypedDict):
    """rules.json: the rulebook's numbers and the provisional ones."""

    target_pp: int
    first_game_target_pp: int
    rounds: int
    start_resources: Cost
    trade_give: int
    spirit_resources: int
    spirit_dice: int
    spirit_ignore: int
    spirits_per_pp: int
    xp_thresholds: Sequence[int]
    xp_success: int
    xp_retreat: int
    hero_heal: int
    tough_heal: int
    monster_heal: int
    fall_back_damage: int
    initiative_dice: int
    outposts: Sequence[OutpostLevel]
    die_faces: Faces
    demon_heads: DemonHeads


#: Axial coordinates as the layouts write them ([q, r]).
Cell = Sequence[int]


class Area(TypedDict):
    """A player's start area: deployment tiles and one tile of each resource."""

    deploy: Sequence[Cell]
    gold: Cell
    wood: Cell
    mineral: Cell


class Layout(TypedDict):
    face_down: Sequence[Cell]
    homes: Sequence[Cell]
    homes_hidden: bool  #: solo: the monsters' homes are never revealed
    areas: Sequence[Area]
    pool: Mapping[str, int]  #: face-down tiles by type ("event": how many event tiles are drawn)


#: An active ability's numbers by effect, and `target` ("self", "enemy_hero"...), `kind` (the resource gained)
#: or `build_discount` (a cost) where the effect needs one.
DoValue = int | str | Cost
#: A passive's numbers by stat, and `scope`, `when` (words), `terrain` (tile types), `produce` (a cost).
PassiveValue = int | str | Sequence[str] | Cost
Passive = Mapping[str, PassiveValue]


class AbilityCard(Names, total=False):
    """A hero or strategy-tree ability: exactly one of `effect` (a boost in an attack's window), `do` (an active
    ability on its hero's turn) or `passive`."""

    cost: Required[Cost]
    tag: Required[str]  #: "A" active or boost of the attacker, "AA" another's boost, "P" passive
    hero: str  #: a hero ability's hero
    tree: str  #: a tree ability's tree
    slot: int | str  #: a hero ability's slot: "basic", "command", or the level it opens at
    who: str  #: whom a boost helps: attacker, self, adjacent, range, any_own, outpost, deceive
    effect: Mapping[str, int]
    do: Mapping[str, DoValue]
    passive: Passive
    star: Sequence[str]  #: "part.field" numbers raised by 1 when unlocked with the bolt (PROV-14)
    pay_damage: int
    range: int
    moved: int
    terrain: Sequence[str]
    vs_outpost: int
    attack_only: bool


class Board(Names):
    trees: Sequence[str]


class Tree(Names):
    power: str
    abilities: Sequence[str]


class Tokens(TypedDict):
    per_player: int


class Strategy(TypedDict):
    tokens: Tokens
    boards: Mapping[str, Board]  #: by faction
    trees: Mapping[str, Tree]
    abilities: Mapping[str, AbilityCard]


def section(card: AbilityCard, part: str) -> Mapping[str, DoValue | PassiveValue]:
    """An ability card's numbers by name: its `effect`, `do` or `passive` part."""
    if part == "effect":
        return card["effect"]
    return card["do"] if part == "do" else card["passive"]


def number(part: Mapping[str, DoValue | PassiveValue], field: str) -> int:
    """A number of an ability's `effect`, `do` or `passive` part (the words and lists beside them are read
    directly)."""
    value = part[field]
    assert isinstance(value, int), f"{field} is not a number"
    return value


def resources(value: DoValue | PassiveValue | None) -> Cost:
    """A cost-like part of an ability (Living Wood's discount, Fertile Land's production); none when off."""
    if value is None:
        return {}
    assert isinstance(value, Mapping), "not a resource table"
    return value


def _load(name: str) -> Any:
    """Parsed JSON, the one untyped value of the package: each loader below checks it and names its shape."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@loader()
def layouts() -> Mapping[str, Layout]:
    """The map of each player count ("1" to "4"; the file's `_provisional` note aside)."""
    data: Mapping[str, Layout] = _load("layouts.json")
    for key in ("1", "2", "3", "4"):
        layout = data[key]
        if len(layout["areas"]) != max(1, int(key)) or len(layout["homes"]) != (4 if key == "1" else int(key)):
            raise ValueError(f"layout {key}: wrong number of areas or homes")
    return data


@loader()
def tiles() -> Tiles:
    data: Tiles = _load("tiles.json")
    for name in data["event_pool"]["tiles"]:
        if data["types"][name]["kind"] != "event":
            raise ValueError(f"{name} is in the event pool but is not an event tile")
    return data


@loader()
def numbers() -> Numbers:
    data: Numbers = _load("rules.json")
    return data


@loader()
def factions() -> Factions:
    data: Factions = _load("factions.json")
    for faction in data["factions"].values():
        if len(faction["heroes"]) != 3 or any(h not in data["heroes"] for h in faction["heroes"]):
            raise ValueError("every faction has exactly 3 known heroes")
    for hero in data["heroes"].values():
        if any(rule not in data["special_rules"] for rule in hero["rules"]):
            raise ValueError("unknown special rule")
    return data


@loader()
def monsters() -> Monsters:
    data: Monsters = _load("monsters.json")
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


def _check_card(aid: str, card: AbilityCard) -> None:
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
def abilities() -> Mapping[str, AbilityCard]:
    """The 60 hero abilities (PROV-08)."""
    data: Mapping[str, AbilityCard] = _load("abilities.json")["abilities"]
    for aid, card in data.items():
        if card["hero"] not in factions()["heroes"]:
            raise ValueError(f"ability {aid}: unknown hero")
        _check_card(aid, card)
    return data


@loader()
def cards() -> Mapping[str, AbilityCard]:
    """Every ability, hero and tree alike (ids are unique across both)."""
    tree_cards = strategy()["abilities"]
    if set(tree_cards) & set(abilities()):
        raise ValueError("an ability id is both a hero's and a tree's")
    return {**abilities(), **tree_cards}


@loader()
def passive_cards() -> tuple[tuple[str, AbilityCard], ...]:
    return tuple((aid, card) for aid, card in abilities().items() if card["tag"] == "P")


@loader(maxsize=16)
def hero_cards_of(hero: str) -> tuple[str, ...]:
    """The hero's non-passive abilities, in data order."""
    return tuple(aid for aid, card in abilities().items() if card["hero"] == hero and card["tag"] != "P")


@loader()
def strategy() -> Strategy:
    data: Strategy = _load("strategy.json")
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
            if field not in section(card, part):
                raise ValueError(f"tree ability {aid}: its * names no number")
    return data


def tree_name(tree: str) -> Lit:
    return name(strategy()["trees"], tree)


def hero_card(hero: str) -> HeroCard:
    return factions()["heroes"][hero]


def faction_of(hero: str) -> str:
    return next(f for f, data in factions()["factions"].items() if hero in data["heroes"])


def name(section: Mapping[str, Names], key: str) -> Lit:
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
