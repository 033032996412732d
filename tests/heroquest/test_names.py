"""Matching what people type to figures in a view: names with numbers, unique beginnings, squares, both languages."""

from __future__ import annotations

from cogs.heroquest_names import match_figures, parse_square

POOL: list[dict[str, object]] = [
    {"uid": "goblin_1", "name": {"es": "Goblin 1", "en": "Goblin 1"}, "square": [4, 9]},
    {"uid": "goblin_2", "name": {"es": "Goblin 2", "en": "Goblin 2"}, "square": [4, 10]},
    {"uid": "orc_1", "name": {"es": "Orco 1", "en": "Orc 1"}, "square": [6, 2]},
    {"uid": "hidden-fimir_3", "name": {"es": "Fimir", "en": "Fimir"}, "square": [12, 12], "hidden": True},
    {"uid": "hero_elf", "name": {"es": "Elfo", "en": "Elf"}, "square": [1, 1]},
]


def test_names_numbers_prefixes_and_squares() -> None:
    assert match_figures(POOL, "Goblin 2") == ["goblin_2"]
    assert match_figures(POOL, "goblin2") == ["goblin_2"]
    assert match_figures(POOL, "gob 1") == ["goblin_1"]
    assert sorted(match_figures(POOL, "gob")) == ["goblin_1", "goblin_2"]
    assert match_figures(POOL, "orco") == ["orc_1"] and match_figures(POOL, "ORC 1") == ["orc_1"]
    assert match_figures(POOL, "fim") == ["hidden-fimir_3"]
    assert match_figures(POOL, "Fimir · hidden (M13)") == ["hidden-fimir_3"]
    assert match_figures(POOL, "K5") == ["goblin_2"] and match_figures(POOL, "k-5") == ["goblin_2"]
    assert match_figures(POOL, "Goblin 1 (J5)") == ["goblin_1"]
    assert match_figures(POOL, "elfo") == ["hero_elf"] and match_figures(POOL, "orc_1") == ["orc_1"]
    assert match_figures(POOL, "dragon") == [] and match_figures(POOL, "") == []
    # the board's own names only (column letter, row number), in the forms rules.coords reads
    assert parse_square("(d 3)") == "D3" and parse_square("D-3") == "D3" and parse_square("z19") == "Z19"
    for not_a_square in ("3,4", "0,4", "2-3", "AA1", "Z20", "A0", "Goblin 2", "Orc 1"):
        assert parse_square(not_a_square) is None, not_a_square


def test_an_attack_with_the_weapon_in_hand_is_not_ambiguous() -> None:
    from cogs.heroquest import attack_action
    from rules.base import Action, LegalAction
    from rules.text import msg

    legal = [LegalAction(Action.of("attack", target="goblin_1"), msg("hq.act.attack", hero="B", target="G")),
             LegalAction(Action.of("attack", target="goblin_1", fists=True), msg("hq.act.fists", hero="B", target="G"))]
    view = {"monsters": POOL[:3]}
    assert attack_action(legal, view, "goblin 1", "en", {}) == Action.of("attack", target="goblin_1")
    assert attack_action(legal, view, "goblin 1 fists", "en", {}) == legal[1].action
    assert attack_action(legal, view, "puños gob 1", "es", {}) == legal[1].action
    # out of reach: still sent, so the engine can say why
    assert attack_action(legal, view, "orc", "en", {}) == Action.of("attack", target="orc_1")
