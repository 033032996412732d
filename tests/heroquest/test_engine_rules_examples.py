"""The rulebook's worked examples: Fimir stun, level-ups, the Barbarian's skill price, the Druid's runes."""

from __future__ import annotations

import pytest

from rules.heroquest import campaign, combat, dice, runes
from rules.heroquest.dice import BLACK_SHIELD, BLACK_SKULL, WHITE_SHIELD, WHITE_SKULL
from rules.rng import Rng


def test_fimir_stunned_by_light_mace() -> None:
    # Cleric's light mace rolls a black and a white skull; the Fimir (3 dice) rolls two skulls and a black
    # shield: the shield cancels the white skull first, the black skull stuns, no body is lost.
    blow = combat.resolve([BLACK_SKULL, WHITE_SKULL], [WHITE_SKULL, WHITE_SKULL, BLACK_SHIELD],
                          defender_is_hero=False, blunt=True)
    assert blow.damage == 0 and blow.stunned


def test_blunt_black_skull_alone_stuns_without_damage() -> None:
    blow = combat.resolve([BLACK_SKULL, WHITE_SHIELD], [WHITE_SKULL], defender_is_hero=False, blunt=True)
    assert blow.damage == 0 and blow.stunned


def test_normal_weapon_counts_every_skull_and_heroes_defend_on_white() -> None:
    blow = combat.resolve([BLACK_SKULL, WHITE_SKULL, WHITE_SKULL], [WHITE_SHIELD, BLACK_SHIELD], defender_is_hero=True)
    assert (blow.damage, blow.stunned) == (2, False)
    blow = combat.resolve([WHITE_SKULL], [WHITE_SHIELD], defender_is_hero=False)
    assert blow.damage == 1


def test_unarmed_by_nature() -> None:
    roll = [BLACK_SKULL, WHITE_SKULL]
    assert dice.unarmed_hits(roll, "any") == 2
    assert dice.unarmed_hits(roll, "white") == 1
    assert dice.unarmed_hits(roll, "black") == 1
    assert dice.unarmed_hits([WHITE_SKULL], "black") == 0


def test_poison_table() -> None:
    assert combat.poison_result(WHITE_SKULL) == (1, True)
    assert combat.poison_result(BLACK_SKULL) == (1, False)
    assert combat.poison_result(WHITE_SHIELD) == (0, True)
    assert combat.poison_result(BLACK_SHIELD) == (0, False)


def test_dice_cap_applies_after_penalties() -> None:
    assert dice.dice_count(13, penalty=1) == 12
    assert dice.dice_count(12, penalty=1) == 11
    assert len(dice.roll(Rng.from_seed(1), 40)) == 12


def test_die_faces() -> None:
    assert sorted(dice.FACES["hqes"]).count(BLACK_SKULL) == 1
    assert dice.FACES["hqes"].count(WHITE_SKULL) == 2 and dice.FACES["hqes"].count(WHITE_SHIELD) == 2
    assert BLACK_SKULL not in dice.FACES["original"] and dice.FACES["original"].count(WHITE_SKULL) == 3


def test_dwarf_and_wizard_level_up() -> None:
    dwarf = campaign.new_sheet("dwarf")
    for _ in range(10):
        dwarf = campaign.complete_quest(dwarf)
    assert (dwarf["level"], dwarf["max_body"], dwarf["max_mind"]) == (2, 8, 3)
    wizard = campaign.new_sheet("wizard")
    for _ in range(10):
        wizard = campaign.complete_quest(wizard)
    assert (wizard["level"], wizard["max_body"], wizard["max_mind"]) == (2, 4, 7)
    for _ in range(10):
        wizard = campaign.complete_quest(wizard)
    assert (wizard["level"], wizard["max_body"], wizard["max_mind"]) == (3, 4, 8)


def test_death_loses_accumulated_quests_not_level() -> None:
    dwarf = campaign.new_sheet("dwarf")
    dwarf.update({"level": 5, "quests": 4})
    dead = campaign.died(dwarf)
    assert (dead["level"], dead["quests"]) == (5, 0)


def test_legendary_is_last_and_odd() -> None:
    sheet = campaign.new_sheet("barbarian")
    sheet["level"] = 10
    up = campaign.level_up(sheet)
    assert campaign.level_label(up) == "legendary"
    assert campaign.growth("barbarian", campaign.LEGENDARY) == "mind"  # odd level: non-magic gains mind
    assert campaign.level_up(up)["level"] == up["level"]


def test_barbarian_dodge_price() -> None:
    barbarian = campaign.new_sheet("barbarian")
    barbarian.update({"level": 3, "gold": 3000})
    assert campaign.skill_price(barbarian, "dodge") == 3000
    bought = campaign.buy_skill(barbarian, "dodge")
    assert bought["gold"] == 0 and "dodge" in bought["skills"]
    barbarian["level"] = 1
    with pytest.raises(campaign.CampaignError):
        campaign.buy_skill(barbarian, "dodge")


def test_buy_and_sell_half_price() -> None:
    sheet = campaign.new_sheet("dwarf")
    sheet["gold"] = 200
    sheet = campaign.buy(sheet, "helmet")
    assert sheet["gold"] == 75 and "helmet" in sheet["equipment"]
    sheet = campaign.sell(sheet, "helmet")
    assert sheet["gold"] == 75 + 62
    with pytest.raises(campaign.CampaignError):
        campaign.buy(campaign.new_sheet("wizard") | {"gold": 900}, "chainmail")


def test_champion_and_outlaw() -> None:
    sheet = campaign.complete_campaign(campaign.new_sheet("elf"))
    assert sheet["champion"] and sheet["gold"] == 1000
    assert campaign.complete_campaign(sheet)["gold"] == 1000  # only once
    outlaw = campaign.make_outlaw(sheet)
    assert campaign.complete_quest(outlaw, reward=200)["gold"] == 1000  # no Emperor's reward
    pardoned = campaign.complete_campaign(outlaw)
    assert not pardoned["outlaw"] and pardoned["pardoned"] and not pardoned["champion"]


def test_druid_runes() -> None:
    combo = ["distance", "distance", "inflict_damage", "bonus"]
    assert runes.cast(combo, distance=4) == 3
    with pytest.raises(runes.RuneError):
        runes.cast(["distance", "inflict_damage", "bonus"], distance=4)  # still two squares short
    assert runes.cast(["inflict_damage"], distance=1) == 2
    with pytest.raises(runes.RuneError):
        runes.cast(["inflict_damage", "inflict_damage"], distance=1)
