"""Every choice a player makes before or during a game carries a one-line description under its label: present for
every character, hero, faction, commander, monster, strategy tree, ability and card, within Discord's 100
characters in both languages, and never a key or a placeholder."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import i18n
from rules import registry
from rules.base import Action, Game
from rules.gorgasali.data import CHARACTERS, SUPPORT, WEAPONS
from rules.guerra_de_indagar import descriptions as gi
from rules.guerra_de_indagar.data import cards as gi_abilities
from rules.guerra_de_indagar.data import factions, monsters, strategy
from rules.hero_realms import descriptions as hr
from rules.hero_realms.cards import cards as hr_cards
from rules.heroquest import catalog as hq_catalog
from rules.heroquest import descriptions as hq
from rules.kings_armory import data as ka
from rules.rng import Rng
from rules.text import Msg, msg
from tools.playout import playout

#: Discord's limit for a select option's description.
LIMIT = 100
KEYLIKE = re.compile(r"\b(?:hr|gg|ka|gi|hq|core|bot)\.[a-z_]+\.|\{|\}|\bNone\b")


def every_description() -> Iterator[tuple[str, Msg]]:
    """(what, description) for every choice the engines describe, read off the games' data."""
    for key, definition in hr_cards().items():
        yield f"hero-realms card {key}", hr.card(definition)
    for char in CHARACTERS:
        yield f"gorgasali character {char}", msg(f"gg.desc.char.{char}")
    for card in [*WEAPONS, *SUPPORT]:
        yield f"gorgasali card {card}", msg(f"gg.desc.card.{card}")
    for hero in ka.heroes():
        yield f"kings-armory hero {hero}", msg(f"ka.desc.hero.{hero}")
    for champion in ka.champions():
        yield f"kings-armory champion {champion}", msg(f"ka.desc.champion.{champion}")
    for card in ka.cards():
        yield f"kings-armory card {card}", msg(f"ka.desc.card.{card}")
    for gear in ka.equipment():
        yield f"kings-armory equipment {gear}", msg(f"ka.desc.gear.{gear}")
    for faction in factions()["factions"]:
        yield f"guerra faction {faction}", gi.faction(faction)
    for hero in factions()["heroes"]:
        yield f"guerra commander {hero}", gi.commander(hero)
    for monster in monsters()["primary"]:
        yield f"guerra monster {monster}", gi.monster(monster)
    for tree in strategy()["trees"]:
        yield f"guerra tree {tree}", gi.tree(tree)
    for ability in gi_abilities():
        yield f"guerra ability {ability}", gi.ability(ability)
    spells = hq_catalog.spells()
    for group in spells["groups"]:
        yield f"heroquest spell group {group}", hq.group(group)
    for spell in [*spells["spells"], *spells["chaos"]]:
        yield f"heroquest spell {spell}", hq.spell(spell)
    for item in hq_catalog.equipment():
        described = hq.item(item)
        assert described is not None, item
        yield f"heroquest item {item}", described


def _problems(what: str, description: Msg) -> list[str]:
    out = []
    for lang in i18n.LANGS:
        for key in _keys(description):
            if not i18n.has(key, lang):
                out.append(f"{what}: {key} missing in {lang}")
        text = i18n.t(description, lang)
        if not text.strip() or len(text) > LIMIT or KEYLIKE.search(text) or "\n" in text:
            out.append(f"{what} ({lang}, {len(text)}): {text}")
    return out


def _keys(message: Msg) -> Iterator[str]:
    yield message.key
    for value in message.params.values():
        if isinstance(value, Msg):
            yield from _keys(value)


def test_every_described_thing_renders_in_both_languages_within_100_characters() -> None:
    found = list(every_description())
    assert len(found) > 200  # 59 cards, 10 characters, 12 Armory allies, 4+12+4+12+96 for La Guerra, 28 spells
    problems = [p for what, d in found for p in _problems(what, d)]
    assert problems == []


def test_descriptions_say_different_things() -> None:
    """A description that says the same for everything would pass the length check and teach nothing."""
    for lang in i18n.LANGS:
        texts = [i18n.t(d, lang) for what, d in every_description() if "guerra ability" not in what]
        assert len(set(texts)) > 0.8 * len(texts)


# ---------------------------------------------------------------- the choices as the engines offer them

#: The kinds of move whose every listed choice must carry a description, per game.
DESCRIBED = {
    "hero-realms": {"play", "buy"},
    "gorgasali": {"pick", "shoot", "potion", "ammo", "move_card", "teleport", "defend", "throw", "arrange",
                  "give", "take", "place", "revive"},
    "kings-armory": {"pick", "hire", "play", "unlock", "equip", "unequip", "sell_gear", "trade", "accept_trade"},
    "guerra-de-indagar": {"faction", "commander", "monster", "declare", "ability", "skill"},
    "heroquest": {"choose_spells", "cast", "read_scroll", "gm_cast", "equip", "drink"},
}
#: The choices every game begins with, which every playout meets.
SET_UP = {"hero-realms": {"play", "buy"}, "gorgasali": {"pick"}, "kings-armory": {"pick"},
          "guerra-de-indagar": {"faction", "commander", "declare"}, "heroquest": {"choose_spells"}}
SETUPS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "hero-realms": [(2, {}), (4, {"variant": "hydra"})],
    "gorgasali": [(3, {})],
    "kings-armory": [(2, {}), (2, {"not_enough": "true"})],
    "guerra-de-indagar": [(2, {}), (1, {})],
    "heroquest": [(2, {}), (3, {"heroes": "elf,wizard"})],
}


@pytest.mark.parametrize("game_id", sorted(DESCRIBED))
def test_every_offered_choice_of_those_kinds_carries_its_description(game_id: str) -> None:
    game = registry.get(game_id)
    assert game is not None
    kinds = DESCRIBED[game_id]
    seen: set[str] = set()
    problems: list[str] = []

    def check(game: Game, state: Any, seat: int, rng: Rng) -> Action:
        legal = game.legal_actions(state, seat)
        for la in legal:
            if la.action.kind not in kinds:
                continue
            seen.add(la.action.kind)
            if la.description is None:
                problems.append(f"{la.action.token()} has no description")
            else:
                problems.extend(_problems(la.action.token(), la.description))
        if game.step_built:  # menus walk `choices`: the last step of a described move shows the description
            for kind in kinds & {la.action.kind for la in legal}:
                found = game.choices(state, seat, [kind])
                for choice in found if isinstance(found, list) else []:
                    if isinstance(game.choices(state, seat, [kind, choice.token]), Action) and not choice.description:
                        problems.append(f"the menu step {kind} {choice.token} has no description")
        return rng.choice(legal).action

    for seed in (1, 2, 3):
        for seats, options in SETUPS[game_id]:
            playout(game, seats=seats, seed=seed, options=options, max_actions=300, chooser=check, deep=False)
    assert problems[:10] == []
    # the set-up choices are always met; the others only when a random game happens upon them
    assert seen >= SET_UP[game_id], seen
