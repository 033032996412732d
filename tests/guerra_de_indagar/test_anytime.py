"""Issue 23's rulebook gaps: trades and spirits «en cualquier momento», inside an attack's windows too (RULING-07),
and the Portal swapping with a monster that stands on a face-down tile."""

from __future__ import annotations

import pytest

from rules.base import Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.state import State

from .helpers import clear_board, dice, lab, my_turn, put, started
from .test_attack import duel

# Rulebook, «Cambiar Recursos»: «En cualquier momento, puedes cambiar 3 recursos cualquiera por 1 de otro recurso.»
# Rulebook, victory: «Cada jugador gana 1 punto de supremacía por gastar 2 espíritus en cualquier momento.»
# RULING-07: allowed on the player's own turn and inside any window in which that player is prompted.


def _defence_window(monkeypatch: pytest.MonkeyPatch, gold: int, spirits: int = 0) -> State:
    """Trish's Ariane hits Marcos's Zhuan (Sun Jun beside him); Marcos holds `gold` gold, no mineral, and is
    asked after the defence roll (or not at all)."""
    s = duel()
    s["players"][1]["res"]["gold"] = gold
    s["players"][1]["spirits"] = spirits
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [2, 2]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
    return s


def test_a_defender_trades_three_gold_for_the_mineral_of_undead_immunity(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _defence_window(monkeypatch, gold=3)
    # No spirits and no mineral: the window opens all the same, since a trade pays Sun Jun's Undead Immunity.
    assert GAME.to_act(s) == frozenset({1}) and s["pending"][0]["kind"] == "d_boost"
    assert not GAME.is_legal(s, 1, Action.of("ability", id="undead_immunity"))
    trade = Action.of("trade", give=["gold", "gold", "gold"], get="mineral")
    assert GAME.is_legal(s, 1, trade) and GAME.legal_actions(s, 1)[-1].action == Action.of("done")
    s = GAME.apply(s, 1, trade).state
    assert s["players"][1]["res"] == {"gold": 0, "wood": 0, "mineral": 1} and GAME.to_act(s) == frozenset({1})
    with dice(monkeypatch, [2]):
        s = GAME.apply(s, 1, Action.of("ability", id="undead_immunity")).state
        s = GAME.apply(s, 1, Action.of("done")).state
    assert s["heroes"]["zhuan"]["dmg"] == 0  # 4 against 6: the blow missed
    assert s["players"][1]["res"]["mineral"] == 0


def test_no_window_when_nothing_can_be_paid_even_by_trading(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _defence_window(monkeypatch, gold=2)  # 2 gold trade for nothing: the blow lands at once
    assert s["attack"] is None or s["pending"][:1] != [{"kind": "d_boost", "seat": 1}]
    assert s["heroes"]["zhuan"]["dmg"] == 0  # 4 against 4


def test_a_defender_spends_a_spirit_on_resources_inside_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _defence_window(monkeypatch, gold=0, spirits=1)
    buy = Action.of("spirit_res", get=["mineral", "mineral", "mineral"])
    assert GAME.is_legal(s, 1, buy)
    s = GAME.apply(s, 1, buy).state
    assert s["players"][1]["spirits"] == 0 and s["players"][1]["res"]["mineral"] == 3
    assert GAME.is_legal(s, 1, Action.of("ability", id="undead_immunity"))  # the window stays open


def test_two_spirits_make_a_point_inside_the_attackers_window(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["players"][0]["spirits"] = 2
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 2]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        assert s["pending"][0]["kind"] == "a_boost"
        before = GAME.view(s, None)["players"][0]["pp"]
        s = GAME.apply(s, 0, Action.of("spirit_pp")).state
    assert GAME.view(s, None)["players"][0]["pp"] == before + 1 and s["players"][0]["spirits"] == 0
    assert s["pending"][0]["kind"] == "a_boost" and GAME.is_legal(s, 0, Action.of("roll_defence"))


def test_an_attacker_trades_for_the_flaming_swords_mineral(monkeypatch: pytest.MonkeyPatch) -> None:
    s = duel()
    s["players"][0]["res"] = {"gold": 4, "wood": 0, "mineral": 0}
    s = my_turn(s, 0, "ariane")
    with dice(monkeypatch, [1, 1, 2], [3]):
        s = GAME.apply(s, 0, Action.of("attack", to=lab(s, "-1,1"))).state
        assert s["pending"][0]["kind"] == "a_boost"  # opened for the trade alone (no spirits, no mineral)
        s = GAME.apply(s, 0, Action.of("trade", give=["gold", "gold", "gold"], get="mineral")).state
        s = GAME.apply(s, 0, Action.of("ability", id="flaming_sword")).state
    assert s["attack"]["a"] == [1, 1, 2, 3] and s["players"][0]["res"] == {"gold": 0, "wood": 0, "mineral": 0}


# [RB p.12] Portal Antiguo Desenterrado: «puede cambiar de lugar con cualquier héroe en el tablero»; «Un monstruo
# cuenta como héroe enemigo para todos los propósitos»; «Revelar una Loseta Escondida»: «Cada vez que un héroe (no
# un monstruo) se mueve a una loseta escondida, por cualquier razón, la loseta es revelada inmediatamente».


def _portal(hidden: str) -> State:
    s = clear_board(started(2))
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    s["tiles"]["-1,1"].update({"t": "portal", "up": True})
    put(s, "ariane", "-1,1")
    s["monsters"] = {"helgoth": primary("helgoth", "2,0", 0)}
    s["tiles"]["2,0"].update({"t": hidden, "up": False})
    return my_turn(s, 0, "ariane")


def test_the_portal_offers_a_monster_on_a_face_down_tile_and_reveals_it() -> None:
    s = _portal("spirits")
    swap = Action.of("portal", to=lab(s, "2,0"))
    assert GAME.is_legal(s, 0, swap)
    step = GAME.apply(s, 0, swap)
    s = step.state
    assert s["tiles"]["2,0"]["up"] and s["heroes"]["ariane"]["at"] == "2,0"
    assert s["monsters"]["helgoth"]["at"] == "-1,1" and s["players"][0]["spirits"] == 2  # the Spirit Cache
    assert not step.undoable  # a tile came face up
    assert not GAME.check_invariants(s)


def test_a_portal_swap_onto_a_hidden_mountain_sends_the_hero_to_retreat() -> None:
    s = _portal("mountain")
    s = GAME.apply(s, 0, Action.of("portal", to=lab(s, "2,0"))).state
    assert s["tiles"]["2,0"]["up"] and s["heroes"]["ariane"]["at"] is None  # like a fall back [RB p.13]
    assert s["monsters"]["helgoth"]["at"] == "-1,1" and not GAME.check_invariants(s)
