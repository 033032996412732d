"""Loads the Hero Realms card data (data/hero_realms/cards.json) and validates its schema."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from rules.readonly import freeze, loader
from rules.text import Lit

DATA_PATH = Path(__file__).resolve().parents[2] / "data" / "hero_realms" / "cards.json"

TYPES = ("action", "champion", "item")
FACTIONS = ("imperial", "guild", "necros", "wild")
DECKS = ("market", "gems", "starting")
ABILITIES = ("primary", "expend", "ally", "sacrifice")
POOLS = ("gold", "combat", "health")
MARKET_SIZE = 80
STARTING_DECK = {"gold": 7, "shortsword": 1, "dagger": 1, "ruby": 1}

#: One effect of the card language: `{name: argument}`, the argument's shape set by the name (an amount, a flag, an
#: object, lists of effects: data/hero_realms/NOTES.md). The loader checks every one; the code reading an argument
#: has dispatched on the name first, so the argument stays untyped here.
Effect = Mapping[str, Any]


class CardDataError(ValueError):
    """The card file does not follow the schema described in data/hero_realms/NOTES.md."""


@dataclass(frozen=True)
class CardDef:
    """One distinct card: static facts and its abilities as effect lists."""

    key: str
    name_es: str
    name_en: str
    type: str
    subtypes: tuple[str, ...]
    faction: str | None
    cost: int
    quantity: int
    deck: str
    defense: int
    guard: bool
    abilities: Mapping[str, tuple[Effect, ...]]

    @property
    def lit(self) -> Lit:
        return Lit(self.name_es, self.name_en)

    @property
    def champion(self) -> bool:
        return self.type == "champion"


def _fail(where: str, what: str) -> NoReturn:
    raise CardDataError(f"{where}: {what}")


def _int(value: object, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        _fail(where, f"expected an integer >= {low}, got {value!r}")
    return value


def _gain(value: object, where: str) -> None:
    if not isinstance(value, Mapping) or len(value) != 1:
        _fail(where, "a gain is one of {gold|combat|health: n}")
    ((pool, amount),) = value.items()
    if pool not in POOLS:
        _fail(where, f"unknown pool {pool!r}")
    _int(amount, where, 1)


def validate_effect(eff: object, where: str) -> None:
    """Raise CardDataError unless `eff` is one effect of our DSL."""
    if not isinstance(eff, Mapping) or len(eff) != 1:
        _fail(where, f"an effect is an object with exactly one key, got {eff!r}")
    ((name, arg),) = eff.items()
    here = f"{where}.{name}"
    if name in (*POOLS, "draw", "opponent_discards"):
        _int(arg, here, 1)
    elif name == "choose":
        if not isinstance(arg, list) or len(arg) < 2:
            _fail(here, "choose takes a list of at least two effect lists")
        for i, option in enumerate(arg):
            _effects(option, f"{here}[{i}]")
    elif name == "stun_target_champion":
        if not isinstance(arg, Mapping) or not isinstance(arg.get("optional"), bool) or len(arg) != 1:
            _fail(here, 'expected {"optional": true|false}')
    elif name in ("prepare_champion", "next_action_to_top", "next_acquired_to_top", "next_acquired_to_hand"):
        if arg is not True:
            _fail(here, "expected true")
    elif name in ("discard_to_top", "draw_then_discard"):
        if not isinstance(arg, Mapping) or len([k for k in ("up_to", "count") if k in arg]) != 1:
            _fail(here, "expected exactly one of up_to / count")
        _int(arg.get("up_to", arg.get("count")), here, 1)
        allowed = {"up_to", "count", "filter"} if name == "discard_to_top" else {"up_to", "count"}
        if set(arg) - allowed:
            _fail(here, f"unknown keys {sorted(set(arg) - allowed)}")
        if name == "discard_to_top" and arg.get("filter") not in ("any", "champion"):
            _fail(here, "filter is any or champion")
    elif name == "sacrifice_from_hand_or_discard":
        if not isinstance(arg, Mapping) or set(arg) - {"up_to", "bonus"}:
            _fail(here, "expected {up_to, bonus?}")
        _int(arg.get("up_to"), here, 1)
        if "bonus" in arg:
            _effects(arg["bonus"], f"{here}.bonus")
    elif name in ("per_champion", "per_other_champion", "per_other_guard"):
        _gain(arg, here)
    elif name == "per_faction_in_play":
        if not isinstance(arg, Mapping) or set(arg) != {"faction", "other", "gain"}:
            _fail(here, "expected {faction, other, gain}")
        if arg["faction"] not in FACTIONS or not isinstance(arg["other"], bool):
            _fail(here, "bad faction or other")
        _gain(arg["gain"], here)
    else:
        _fail(here, "unknown effect")


def _effects(value: object, where: str) -> tuple[Effect, ...]:
    if not isinstance(value, list) or not value:
        _fail(where, "expected a non-empty list of effects")
    for i, eff in enumerate(value):
        validate_effect(eff, f"{where}[{i}]")
    return tuple(value)


def _card(raw: object, where: str) -> CardDef:
    if not isinstance(raw, Mapping):
        _fail(where, "a card is an object")
    required = {"key", "name", "type", "subtypes", "faction", "cost", "quantity", "deck", "abilities"}
    missing = required - set(raw)
    if missing:
        _fail(where, f"missing {sorted(missing)}")
    key = raw["key"]
    if not isinstance(key, str) or not key.isidentifier():
        _fail(where, "key must be an identifier")
    where = f"{where}({key})"
    name = raw["name"]
    if not isinstance(name, Mapping) or not all(isinstance(name.get(x), str) and name[x] for x in ("es", "en")):
        _fail(where, "name needs es and en")
    if raw["type"] not in TYPES:
        _fail(where, f"type must be one of {TYPES}")
    if raw["faction"] is not None and raw["faction"] not in FACTIONS:
        _fail(where, f"faction must be null or one of {FACTIONS}")
    if raw["deck"] not in DECKS:
        _fail(where, f"deck must be one of {DECKS}")
    subtypes = raw["subtypes"]
    if not isinstance(subtypes, list) or not all(isinstance(s, str) for s in subtypes):
        _fail(where, "subtypes is a list of strings")
    champion = raw["type"] == "champion"
    defense, guard = raw.get("defense", 0), raw.get("guard", False)
    if champion:
        _int(defense, f"{where}.defense", 1)
        if not isinstance(guard, bool):
            _fail(where, "guard is a boolean")
    elif "defense" in raw or "guard" in raw:
        _fail(where, "only champions have defense and guard")
    abilities = raw["abilities"]
    if not isinstance(abilities, Mapping) or set(abilities) - set(ABILITIES) or not abilities:
        _fail(where, f"abilities is an object with keys among {ABILITIES}")
    if champion and "primary" in abilities:
        _fail(where, "champions have no primary ability in the base set")
    if not champion and "expend" in abilities:
        _fail(where, "only champions have expend abilities")
    parsed = {k: _effects(v, f"{where}.{k}") for k, v in abilities.items()}
    return CardDef(
        key=key,
        name_es=name["es"],
        name_en=name["en"],
        type=raw["type"],
        subtypes=tuple(subtypes),
        faction=raw["faction"],
        cost=_int(raw["cost"], f"{where}.cost"),
        quantity=_int(raw["quantity"], f"{where}.quantity", 1),
        deck=raw["deck"],
        defense=defense if champion else 0,
        guard=guard if champion else False,
        abilities=freeze(parsed),
    )


def parse_cards(data: object) -> dict[str, CardDef]:
    """Validate a whole card document and return the cards by key."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CardDataError("the document is an object with a 'cards' list")
    cards: dict[str, CardDef] = {}
    for i, raw in enumerate(data["cards"]):
        card = _card(raw, f"cards[{i}]")
        if card.key in cards:
            _fail(card.key, "duplicate key")
        cards[card.key] = card
    market = sum(c.quantity for c in cards.values() if c.deck == "market")
    if market != MARKET_SIZE:
        raise CardDataError(f"the market deck has {market} cards, expected {MARKET_SIZE}")
    if "fire_gem" not in cards or cards["fire_gem"].quantity != 16:
        raise CardDataError("expected 16 fire_gem cards")
    for key in STARTING_DECK:
        if key not in cards or cards[key].deck != "starting":
            raise CardDataError(f"starting card {key!r} missing")
    return cards


def load_cards(path: Path = DATA_PATH) -> dict[str, CardDef]:
    return parse_cards(json.loads(path.read_text(encoding="utf-8")))


@loader()
def cards() -> Mapping[str, CardDef]:
    """The shipped card set, loaded and validated once."""
    return load_cards()


def market_keys() -> list[str]:
    """The market deck as card keys, each repeated by its quantity, in file order."""
    return [c.key for c in cards().values() if c.deck == "market" for _ in range(c.quantity)]
