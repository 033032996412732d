"""Between quests: pure functions over a hero's character sheet (a JSON-able dict)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import cast

from rules.base import RuleError
from rules.heroquest import catalog
from rules.heroquest.shapes import HeroRecord
from rules.heroquest.shapes import Sheet as Sheet  # a hero's character sheet: what these functions take and give
from rules.text import Lit, msg

QUESTS_PER_LEVEL = 10
MAX_LEVEL = 10
#: Internal number of the Legendary level: it counts as odd for the body/mind point.
LEGENDARY = 11
CHAMPION_REWARD = 1000


class CampaignError(RuleError):
    code = "campaign"


def stored_sheet(record: Mapping[str, object]) -> Sheet:
    """A sheet as the server's profiles keep it (JSON written from a `Sheet` by these functions)."""
    return cast(Sheet, dict(record))  # the storage boundary: the one place a stored record becomes a Sheet


def new_sheet(hero: str) -> Sheet:
    """A level-1 hero with the starting equipment of its technical sheet."""
    h = catalog.heroes()[hero]
    return {
        "hero": hero,
        "level": 1,
        "quests": 0,
        "completed": 0,
        "gold": 0,
        "equipment": list(h["start"]),
        "artefacts": [],
        "quest_treasures": [],
        "skills": [],
        "max_body": h["body"],
        "max_mind": h["mind"],
        "body": h["body"],
        "mind": h["mind"],
        "champion": False,
        "outlaw": False,
        "pardoned": False,
    }


def growth(hero: str, new_level: int) -> str:
    """Which characteristic grows on reaching `new_level`: "body" or "mind".

    Magic heroes gain mind on even levels and body on odd ones; the others the reverse. A body or mind
    affinity takes the point on every level that is a multiple of 3.
    """
    h = catalog.heroes()[hero]
    if new_level % 3 == 0 and h["affinity"] in ("body", "mind"):
        return h["affinity"]
    even = new_level % 2 == 0
    if h["magic"]:
        return "mind" if even else "body"
    return "body" if even else "mind"


def level_up(sheet: Sheet) -> Sheet:
    """One level more (after 10 comes Legendary, the last); the growth point is applied at once."""
    out = copy.deepcopy(sheet)
    if out["level"] >= LEGENDARY:
        return out
    out["level"] += 1
    if growth(out["hero"], out["level"]) == "body":
        out["max_body"] += 1
        out["body"] = out["max_body"]
    else:
        out["max_mind"] += 1
        out["mind"] = out["max_mind"]
    return out


def level_label(sheet: Sheet) -> str:
    return "legendary" if sheet["level"] >= LEGENDARY else str(sheet["level"])


def complete_quest(sheet: Sheet, reward: int = 0) -> Sheet:
    """A quest of the campaign finished with success: experience, reward (outlaws get none), level-up."""
    out = copy.deepcopy(sheet)
    out["completed"] += 1
    if not out["outlaw"]:
        out["gold"] += max(0, reward)
    if out["level"] < LEGENDARY:
        out["quests"] += 1
        if out["quests"] >= QUESTS_PER_LEVEL:
            out["quests"] = 0
            out = level_up(out)
    return out


def died(sheet: Sheet) -> Sheet:
    """A hero that dies loses the quests accumulated towards the next level, never the level itself."""
    out = copy.deepcopy(sheet)
    out["quests"] = 0
    return out


def restore(sheet: Sheet) -> Sheet:
    out = copy.deepcopy(sheet)
    out["body"], out["mind"] = out["max_body"], out["max_mind"]
    return out


def buy(sheet: Sheet, item: str) -> Sheet:
    table = catalog.equipment()
    if item not in table or table[item]["price"] <= 0 or table[item]["slot"] == "potion":
        raise CampaignError(msg("hq.err.not_for_sale"))
    entry = table[item]
    if sheet["hero"] in entry.get("forbidden", []):
        raise CampaignError(msg("hq.err.cannot_use", item=catalog.item_name(item)))
    if sheet["gold"] < entry["price"]:
        raise CampaignError(msg("hq.err.not_enough_gold", price=entry["price"], gold=sheet["gold"]))
    out = copy.deepcopy(sheet)
    out["gold"] -= entry["price"]
    out["equipment"].append(item)
    return out


def sell_price(item: str) -> int:
    return catalog.equipment()[item]["price"] // 2


def sell(sheet: Sheet, item: str) -> Sheet:
    """Sell to the game master between quests for half the price."""
    if item not in sheet["equipment"] or sell_price(item) <= 0:
        raise CampaignError(msg("hq.err.not_owned"))
    out = copy.deepcopy(sheet)
    out["equipment"].remove(item)
    out["gold"] += sell_price(item)
    return out


def skill_price(sheet: Sheet, skill: str) -> int:
    """Printed price plus the class penalty for the skill's category times the skill's level."""
    s = catalog.skills()[skill]
    penalty = catalog.heroes()[sheet["hero"]]["skill_penalty"].get(s["category"], 0)
    return s["price"] + penalty * s["level"]


def buy_skill(sheet: Sheet, skill: str) -> Sheet:
    table = catalog.skills()
    if skill not in table:
        raise CampaignError(msg("hq.err.unknown_skill"))
    s = table[skill]
    if skill in sheet["skills"]:
        raise CampaignError(msg("hq.err.skill_owned"))
    if s["level"] > sheet["level"]:
        raise CampaignError(msg("hq.err.skill_level", level=s["level"]))
    missing = [r for r in s.get("requires", []) if r not in sheet["skills"]]
    if missing:
        raise CampaignError(msg("hq.err.skill_requires", skill=Lit(*_skill_names(missing[0]))))
    price = skill_price(sheet, skill)
    if sheet["gold"] < price:
        raise CampaignError(msg("hq.err.not_enough_gold", price=price, gold=sheet["gold"]))
    out = copy.deepcopy(sheet)
    out["gold"] -= price
    out["skills"].append(skill)
    return out


def _skill_names(skill: str) -> tuple[str, str]:
    n = catalog.skills()[skill]["name"]
    return n["es"], n["en"]


def complete_campaign(sheet: Sheet) -> Sheet:
    """Champion of the Empire once (1000 gold); an outlaw is pardoned instead and never becomes Champion."""
    out = copy.deepcopy(sheet)
    if out["outlaw"]:
        out["outlaw"] = False
        out["pardoned"] = True
    elif not out["champion"] and not out["pardoned"]:
        out["champion"] = True
        out["gold"] += CHAMPION_REWARD
    return out


def make_outlaw(sheet: Sheet) -> Sheet:
    """Killing a companion on purpose or keeping the Emperor's property makes a hero an outlaw."""
    out = copy.deepcopy(sheet)
    out["outlaw"] = True
    out["champion"] = False
    return out


def after_quest(sheet: Sheet, hero_state: HeroRecord) -> Sheet:
    """Fold a finished quest into the sheet: gold kept, quest treasures kept, ordinary treasure cards returned.

    `hero_state` is a hero's record of the quest (one entry of `GAME.sheets(state)`).
    """
    out = copy.deepcopy(sheet)
    out["gold"] = hero_state.get("gold", out["gold"])
    # the quest's record is the whole truth: it started from this sheet, and treasures may have been given away
    treasures = hero_state["quest_treasures"] if "quest_treasures" in hero_state else out["quest_treasures"]
    out["quest_treasures"] = list(dict.fromkeys(treasures))
    table = catalog.equipment()
    kept = [i for i in hero_state.get("equipment", []) if i in table and table[i]["slot"] != "potion"]
    out["equipment"] = kept
    if hero_state.get("dead"):
        out = died(out)
    return restore(out)
