"""Scrolls, runes, the skills bought between quests, and handing things between heroes (give, receive, exchange)."""

from __future__ import annotations

import pytest

from rules.base import IllegalAction
from rules.heroquest import GAME, campaign
from rules.heroquest.quest import PlacedJson
from rules.heroquest.shapes import Sheet
from rules.heroquest.state import HQState
from tests.heroquest.hq_helpers import act, board_view, dice, fresh, hero, kinds, monster, new, put, quest, step, tokens


def with_sheets(heroes: str, seats: int = 2, objects: list[PlacedJson] | None = None, **skills: list[str]) -> HQState:
    sheets: dict[str, Sheet] = {}
    for hid in heroes.split(","):
        sheet = campaign.new_sheet(hid)
        sheet["skills"] = skills.get(hid, [])
        sheets[hid] = sheet
    return GAME.new_with_quest(quest(objects or []), GAME.resolve_options({"heroes": heroes}), seats, 1, sheets)


# ---------------------------------------------------------------- scrolls


def test_a_scroll_is_carried_by_anyone_but_read_only_by_a_magic_hero() -> None:
    s = new([monster("o", "orc", (3, 4))], heroes="barbarian,wizard")
    for group in ("air", "earth", "water"):
        s = act(s, 1, "choose_spells", group=group)
    hero(s, "barbarian")["items"].append("scroll_ball_of_flame")
    s = fresh(s)
    assert "read_scroll" not in kinds(s, 1)
    put(s, "wizard", (2, 1))
    s = fresh(s)
    s = act(s, 1, "give", item="scroll_ball_of_flame", to="hero_wizard")
    s = act(s, 1, "end_turn")
    assert "read_scroll item=scroll_ball_of_flame target=orc_1" in tokens(s, 1)
    with dice("wshield", "wshield"):
        r = step(s, 1, "read_scroll", item="scroll_ball_of_flame", target="orc_1")
    assert "orc_1" not in r.state.monsters and "scroll_ball_of_flame" not in hero(r.state, "wizard")["items"]
    assert r.events[0].msg.key == "hq.ev.reads_scroll"
    assert r.state.d["turn"]["acted"]  # reading a scroll is the turn's action


# ---------------------------------------------------------------- runes


def test_runes_need_runic_knowledge_and_are_spent_as_the_druid_example() -> None:
    s = with_sheets("barbarian,dwarf", objects=[monster("o", "orc", (3, 4))], barbarian=["runic_knowledge"])
    b = hero(s, "barbarian")
    b["items"] += ["rune_inflict_damage", "rune_distance", "rune_distance", "rune_bonus"]
    put(s, "barbarian", (1, 1))
    s = fresh(s)
    # the orc is 5 squares away: two distance runes reach 4 only
    assert "rune" not in kinds(s, 1)
    put(s, "barbarian", (1, 2))
    s = fresh(s)
    assert {"rune power=#0 rune=inflict_damage target=orc_1", "rune power=#1 rune=inflict_damage target=orc_1"} \
        <= tokens(s, 1)
    with dice("wskull", "wskull", "bskull", "wshield", "wshield") as left:
        r = step(s, 1, "rune", rune="inflict_damage", target="orc_1", power=1)
    assert left == [] and "orc_1" not in r.state.monsters  # 3 dice: 2 for the effect, 1 for the bonus rune
    assert hero(r.state, "barbarian")["items"] == []
    # without the skill the same runes do nothing
    s = new([monster("o", "orc", (3, 4))])
    hero(s, "barbarian")["items"] += ["rune_inflict_damage", "rune_distance", "rune_distance"]
    s = fresh(s)
    assert "rune" not in kinds(s, 1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "rune", rune="inflict_damage", target="orc_1", power=0)
    assert err.value.reason.key == "hq.err.no_runic_knowledge"


def test_a_heal_rune_on_oneself() -> None:
    s = with_sheets("barbarian,dwarf", barbarian=["runic_knowledge"])
    b = hero(s, "barbarian")
    b["items"].append("rune_heal")
    b["body"] = 4
    s = fresh(s)
    with dice("wskull", "bskull"):
        s = act(s, 1, "rune", rune="heal", target="hero_barbarian", power=0)
    assert hero(s, "barbarian")["body"] == 6


# ---------------------------------------------------------------- skills


def test_skills_bought_between_quests_come_into_the_quest() -> None:
    s = with_sheets("barbarian,dwarf", barbarian=["dodge", "double_attack"], dwarf=["trap_lore"])
    assert hero(s, "barbarian")["skills"] == ["dodge", "double_attack"]
    assert board_view(s, 1)["heroes"][0]["skills"] == ["dodge", "double_attack"]


def test_dodge_adds_a_defence_die() -> None:
    s = with_sheets("barbarian,dwarf", objects=[monster("o", "orc", (2, 1))], barbarian=["dodge"])
    s = act(act(s, 1, "end_turn"), 1, "end_turn")
    with dice("wskull", "wskull", "wskull", "wshield", "wshield", "wshield") as left:
        s = act(s, 0, "gm_attack", monster="orc_1", target="hero_barbarian")
    assert left == [] and hero(s, "barbarian")["body"] == 8  # 3 defence dice instead of 2


def test_double_attack_strikes_twice() -> None:
    s = with_sheets("barbarian,dwarf", objects=[monster("a", "goblin", (2, 1)), monster("b", "goblin", (1, 2))],
                    barbarian=["double_attack"])
    put(s, "dwarf", (3, 3))
    s = fresh(s)
    with dice("wskull", "wskull", "wskull", "wshield"):
        s = act(s, 1, "attack", target="goblin_1")
    assert "attack target=goblin_2" in tokens(s, 1)
    with dice("wskull", "wskull", "wskull", "wshield"):
        s = act(s, 1, "attack", target="goblin_2")
    assert not s.monsters and "attack" not in kinds(s, 1)


def test_trap_lore_disarms_without_a_kit() -> None:
    objects: list[PlacedJson] = [{"uid": "t", "kind": "trap", "ref": "spear_trap", "squares": [[3, 3]]}]
    s = with_sheets("barbarian,dwarf", objects=objects, barbarian=["trap_lore"])
    s = act(s, 1, "search_traps")
    s = act(act(act(s, 1, "end_turn"), 1, "end_turn"), 0, "end_turn")
    s = act(s, 1, "move", to="D4")
    with dice("wskull"):  # with the kit's odds only a black skull fails
        s = act(s, 1, "disarm", trap="trap-D4")
    assert s.objects["trap-D4"]["disarmed"]


def test_survival_instinct_is_not_surprised_by_a_wandering_monster() -> None:
    s = with_sheets("barbarian,dwarf", barbarian=["survival_instinct"])
    s.d["deck"] = ["wandering_a"]
    s = fresh(s)
    with dice() as left:
        s = act(s, 1, "search_treasure")
    assert left == [] and hero(s, "barbarian")["body"] == 8 and len(s.monsters) == 1


def test_extra_spell_group_gives_a_lone_wizard_all_four() -> None:
    s = with_sheets("barbarian,wizard", wizard=["extra_spell_group"])
    for group in ("air", "earth", "fire", "water"):
        s = act(s, 1, "choose_spells", group=group)
    assert len(hero(s, "wizard")["spells"]) == 12 and s.d["turn"]["who"] == "hero"


# ---------------------------------------------------------------- trading


def trading(seats: int = 3) -> HQState:
    s = new([], heroes="barbarian,dwarf", seats=seats)
    hero(s, "barbarian")["items"] = ["toolkit"]
    hero(s, "dwarf")["items"] = ["healing"]
    hero(s, "dwarf")["quest_treasures"] = ["spirit_blade"]
    return fresh(s)


def test_receiving_waits_for_the_other_player() -> None:
    s = trading()
    assert {"give item=toolkit to=hero_dwarf", "take from=hero_dwarf item=healing",
            "swap item=toolkit to=hero_dwarf want=spirit_blade"} <= tokens(s, 1)
    r = step(s, 1, "take", item="healing", **{"from": "hero_dwarf"})
    s = r.state
    assert GAME.to_act(s) == frozenset({2}) and tokens(s, 2) == {"accept_trade", "decline_trade"}
    s = act(s, 2, "accept_trade")
    assert hero(s, "barbarian")["items"] == ["toolkit", "healing"] and GAME.to_act(s) == frozenset({1})
    assert not {"give", "take", "swap"} & kinds(s, 1)  # one exchange per turn


def test_an_exchange_refused_changes_nothing_and_can_be_tried_again() -> None:
    s = trading()
    s = act(s, 1, "swap", item="toolkit", want="spirit_blade", to="hero_dwarf")
    s = act(s, 2, "decline_trade")
    assert hero(s, "dwarf")["quest_treasures"] == ["spirit_blade"] and GAME.to_act(s) == frozenset({1})
    s = act(s, 1, "swap", item="toolkit", want="spirit_blade", to="hero_dwarf")
    s = act(s, 2, "accept_trade")
    assert hero(s, "barbarian")["quest_treasures"] == ["spirit_blade"] and hero(s, "dwarf")["items"] == [
        "healing", "toolkit"]


def test_heroes_of_one_player_trade_at_once() -> None:
    s = trading(seats=2)
    s = act(s, 1, "take", item="spirit_blade", **{"from": "hero_dwarf"})
    assert hero(s, "barbarian")["quest_treasures"] == ["spirit_blade"] and not s.d["pending"]


def test_no_trading_with_a_monster_alongside() -> None:
    s = new([monster("o", "orc", (2, 2))], heroes="barbarian,dwarf", seats=3)
    hero(s, "barbarian")["items"] = ["toolkit"]
    s = fresh(s)
    assert not {"give", "take", "swap"} & kinds(s, 1)
    with pytest.raises(IllegalAction):
        act(s, 1, "give", item="toolkit", to="hero_dwarf")
