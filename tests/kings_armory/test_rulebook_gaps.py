"""The last rulebook gaps of issue 23: boss immunities, champions changing tower, free unblocking, champion control
between waves, and areas hanging off any edge of the map. Each test quotes the Spanish rulebook."""

from __future__ import annotations

import pytest

from rules.base import Action, Event, IllegalAction
from rules.kings_armory import GAME, armory, data, figures, queries
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import board, range_distance
from rules.kings_armory.shapes import Ally, State

from .helpers import add_champion, add_hero, add_monster, lane_square, on_board, open_square_at, scene, square_of

# ---------------------------------------------------------------- bosses


def _holding(s: State, card: str) -> State:
    s["rdeck"] = [k for k in s["rdeck"] if k != card]
    s["hand"] = [card]
    return s


def test_gnome_sappers_cannot_destroy_the_siege_colossus() -> None:
    """«Son Imparables (incluyendo a la Falange Personal de Valcor), e inmunes a las muertes instantáneas,
    destrucción, eliminación y Aturdimiento.» The Siege Colossus carries the siege flag, but it is a boss."""
    s = _holding(scene(), "gnome_sappers")
    add_hero(s, "valcor", (0, 0))
    colossus = add_monster(s, "colossus", 20, boss=True)
    assert figures.siege(colossus)
    assert not any(la.action.get("card") == "gnome_sappers" for la in GAME.legal_actions(s, 0))
    forged = Action.of("play", card="gnome_sappers", targets=(colossus["id"],))
    assert not GAME.is_legal(s, 0, forged)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, forged)
    # even if a play got through, destruction leaves a boss standing
    events: list[Event] = []
    armory._resolve(s, events, 0, data.cards()["gnome_sappers"], forged)
    assert queries.monster(s, colossus["id"]) is not None and colossus["hp"] == colossus["max"]


def test_gnome_sappers_still_destroy_ordinary_siege_engines() -> None:
    """«Destruido: Un tipo de muerte instantánea contra el equipo de asedio» — the card still works on siege
    equipment that is not a boss."""
    s = _holding(scene(), "gnome_sappers")
    add_hero(s, "valcor", (0, 0))
    ram = add_monster(s, "battering_ram", 20)
    play = Action.of("play", card="gnome_sappers", targets=(ram["id"],))
    assert GAME.is_legal(s, 0, play)
    s = GAME.apply(s, 0, play).state
    assert queries.monster(s, ram["id"]) is None


def test_every_instant_kill_destroy_and_stun_effect_in_the_data_spares_bosses() -> None:
    """«inmunes a las muertes instantáneas, destrucción, eliminación y Aturdimiento»: an audit of every such effect
    the data holds (attack options, reinforcement and Armory cards) against every boss."""
    effects = {"stun", "instakill"}
    found: set[str] = set()
    for figure in [*data.heroes().values(), *data.champions().values()]:
        for opt in figure.get("options", []):
            for kind, _ in [*opt.get("on_hit", []), *opt.get("on_crit", [])]:
                if kind in effects:
                    found.add(kind)
    for card in data.cards().values():
        if card.get("destroy"):
            found.add("destroy")
        if card.get("stun_after") or any(kind == "stun" for kind, _ in card.get("status", [])):
            found.add("stun")
    assert found == {"stun", "instakill", "destroy"}
    for key in data.bosses():
        s = scene()
        boss = add_monster(s, key, 20, boss=True)
        for kind in (*found, "eliminate"):
            assert figures.status_immune(boss, kind), (key, kind)
        for card_key, card in data.cards().items():
            if card.get("destroy") or (card.get("target") == "monsters" and any(
                    kind == "stun" for kind, _ in card.get("status", []))):
                assert not armory._filter(card, boss), (key, card_key)


def test_a_headshot_critical_does_not_kill_a_boss_outright() -> None:
    """«inmunes a las muertes instantáneas»: Ember's Head Shot kills on a natural 20, but not a boss."""
    s = scene()
    boss = add_monster(s, "gorgath", 20, boss=True)
    ember = add_hero(s, "ember", open_square_at(s, lane_square(s, 20), 3))
    s["active"] = ember["id"]
    ember["ap"] = 2
    headshot = next(o for o in figures.offered_options(ember) if o["id"] == "headshot")
    allies_round._resolve_attack(s, [], ember, headshot, Action.of("attack", opt="headshot", target=boss["id"]), 20,
                        counts=True)
    assert queries.monster(s, boss["id"]) is not None and 0 < boss["hp"] < boss["max"]


# ---------------------------------------------------------------- champions changing tower


def _champion_in(s: State, house: str, kind: str = "archer") -> Ally:
    sq = queries.houses(s)[house][0]
    champ = add_champion(s, kind, sq)
    champ.update({"house": house, "inside": True})
    s["active"] = champ["id"]
    champ["ap"] = figures.ally_card(champ)["ap"]
    return champ


def _towers_apart(s: State, gap: int) -> None:
    b = board(s["map"])
    spots = [(r, c) for r in range(b.height - 1) for c in range(b.width - 1)
             if all(b.open_ground(q) for q in [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)])]
    for a in spots:
        for c in spots:
            if range_distance(a, c) == gap and (abs(a[0] - c[0]) >= 2 or abs(a[1] - c[1]) >= 2):
                s["towers"] = [{"id": "t0", "at": list(a)}, {"id": "t1", "at": list(c)}]
                return
    raise AssertionError("no two towers that far apart")


def _fill_board(s: State, count: int) -> None:
    for i in range(count):
        add_monster(s, s["piles"]["1"][0], 2 + i)


def test_a_champion_may_change_tower_when_the_whole_trip_fits_in_its_turn() -> None:
    """«Puede pasar de 1 Torre a otra torre válida si pueden hacer todo el viaje en 1 turno», and section D:
    «Campeones, pueden moverse de 1 torre a otra utilizando todas sus acciones, solo si …: 1) Hay 6 o más
    monstruos en el tablero.»"""
    s = scene()
    _towers_apart(s, 5)
    _fill_board(s, 6)
    add_hero(s, "valcor", (0, 0))
    champ = _champion_in(s, "t0")
    moves = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "transfer"]
    assert moves and all(m["house"] == "t1" for m in moves)
    # an ordinary move never takes it beyond 2 squares of its own tower
    ordinary = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind in ("move", "exit")]
    squares = [board(s["map"]).parse(str(a["to"])) for a in ordinary]
    assert all(sq is not None and queries.near_house(s, "t0", sq) for sq in squares)
    step = GAME.apply(s, 0, moves[0])
    moved = queries.ally(step.state, champ["id"])
    assert moved["house"] == "t1" and queries.housed(step.state, moved)
    assert moved["done"] and step.state["active"] is None  # the trip took all its actions


def test_a_champion_cannot_change_tower_when_the_trip_is_too_long_or_the_tower_full() -> None:
    """«… si pueden hacer todo el viaje en 1 turno» and «Una torre se considera "válida" para las nuevas
    asignaciones si tiene al menos 1 ranura vacía de alojamiento disponible.»"""
    s = scene()
    _towers_apart(s, 12)
    _fill_board(s, 6)
    add_hero(s, "valcor", (0, 0))
    _champion_in(s, "t0")
    assert not [la for la in GAME.legal_actions(s, 0) if la.action.kind == "transfer"]
    s = scene()
    _towers_apart(s, 5)
    _fill_board(s, 6)
    add_hero(s, "valcor", (0, 0))
    for i, sq in enumerate(queries.houses(s)["t1"][:3]):
        add_champion(s, "foot", sq).update({"house": "t1", "inside": True, "id": f"x{i}"})
    _champion_in(s, "t0")
    assert not [la for la in GAME.legal_actions(s, 0) if la.action.kind == "transfer"]


def test_a_champion_changes_tower_only_with_all_its_actions_and_as_section_d_allows() -> None:
    """«pueden moverse de 1 torre a otra utilizando todas sus acciones, solo si se cumple cualquiera de estas
    circunstancias: 1) Hay 6 o más monstruos en el tablero. 2) No hay objetivos válidos actualmente dentro de su
    alcance … 3) Hay 5 o menos Monstruos en el tablero y se están acercando a la puerta del castillo.»"""
    s = scene()
    _towers_apart(s, 5)
    _fill_board(s, 6)
    add_hero(s, "valcor", (0, 0))
    champ = _champion_in(s, "t0")
    champ["ap"] -= 1  # it already spent an action
    assert not allies_round.transfer_actions(s, champ)
    champ["ap"] += 1
    assert allies_round.transfer_actions(s, champ)
    # with fewer than 6 monsters, one of them in reach, and the other tower no nearer the Gate: refused
    s["monsters"] = []
    archer_sq = queries.pos(champ)
    assert archer_sq is not None
    b = board(s["map"])
    near_lane = min(range(len(b.lanes["L"]) - 1), key=lambda i: range_distance(archer_sq, b.lanes["L"][i]))
    add_monster(s, "giant_rat", near_lane)
    here, there = (min(b.gate_range(q) for q in queries.houses(s)[h]) for h in ("t0", "t1"))
    allowed = allies_round.transfer_actions(s, champ)
    assert bool(allowed) == (there < here)
    s["monsters"] = []  # nothing in reach (nothing on the board): allowed
    assert allies_round.transfer_actions(s, champ)


# ---------------------------------------------------------------- unblocking


def test_a_block_may_be_dropped_at_any_time_of_the_players_turn() -> None:
    """«Puedes desbloquear en cualquier momento durante el turno del jugador.» … «No puedes "desbloquearlo" durante
    el turno del enemigo.»"""
    s = scene(seats=2)
    add_hero(s, "valcor", (0, 0))
    orc = add_monster(s, "orc_warrior", 20)
    soldier = add_champion(s, "foot", open_square_at(s, lane_square(s, 20), 1), seat=1)
    s = GAME.apply(s, 1, Action.of("block", ally=soldier["id"], monster=orc["id"])).state
    unblock = Action.of("unblock", ally=soldier["id"], monster=orc["id"])
    assert any(la.action == unblock for la in GAME.anytime_actions(s, 1))  # out of its turn too, for free
    s = GAME.apply(s, 1, unblock).state
    assert on_board(s, orc["id"])["blocked_by"] is None and queries.ally(s, soldier["id"])["blocks"] == []
    # on its own turn, between activations and during one
    s = GAME.apply(s, 1, Action.of("block", ally=soldier["id"], monster=orc["id"])).state
    s["turn"] = 1
    assert unblock in [la.action for la in GAME.legal_actions(s, 1)]
    s = GAME.apply(s, 1, Action.of("activate", ally=soldier["id"])).state
    assert unblock in [la.action for la in GAME.legal_actions(s, 1)]
    ap = queries.ally(s, soldier["id"])["ap"]
    s = GAME.apply(s, 1, unblock).state
    assert queries.ally(s, soldier["id"])["ap"] == ap  # costs nothing
    # never during the enemy turn
    s = GAME.apply(s, 1, Action.of("block", ally=soldier["id"], monster=orc["id"])).state
    s["phase"] = "enemy"
    assert not GAME.is_legal(s, 1, unblock)
    assert unblock not in [la.action for la in GAME.anytime_actions(s, 1)]


# ---------------------------------------------------------------- control of champions


def test_champion_control_changes_only_between_waves() -> None:
    """«El control de los campeones sólo se puede cambiar entre las oleadas durante la Reposición de aliados.»"""
    s = scene(seats=2)
    add_hero(s, "valcor", (0, 0))
    add_hero(s, "ember", (0, 2), seat=1)
    soldier = add_champion(s, "foot", (0, 4), seat=0)
    give = Action.of("give", ally=soldier["id"], to=1)
    assert not GAME.is_legal(s, 0, give)  # during a wave: never
    s.update({"phase": "between", "ready": []})
    assert give in [la.action for la in GAME.legal_actions(s, 0)]
    assert not GAME.is_legal(s, 1, give)  # only its controller hands it over
    assert not GAME.is_legal(s, 0, Action.of("give", ally=soldier["id"], to=0))
    assert not GAME.is_legal(s, 0, Action.of("give", ally=soldier["id"], to=2))
    s = GAME.apply(s, 0, give).state
    assert queries.ally(s, soldier["id"])["seat"] == 1
    assert not any(la.action.kind == "give" for la in GAME.legal_actions(s, 0))
    assert any(la.action.kind == "give" for la in GAME.legal_actions(s, 1))


# ---------------------------------------------------------------- areas off the map


def test_an_area_may_hang_off_the_top_edge_and_still_hits_the_entrance() -> None:
    """«El AOE puede quedarse fuera del mapa, siempre y cuando el rango sea lo suficientemente grande.» — off any
    edge: the top one here, where the monsters come in."""
    s = scene()
    rat = add_monster(s, "giant_rat", 0)  # on the entrance square, just off the top of the map
    top = lane_square(s, 0)
    assert top[0] < 0
    ember = add_hero(s, "ember", open_square_at(s, (0, top[1]), 3))
    s["active"] = ember["id"]
    ember["ap"] = 2
    areas = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "attack" and la.action.get("up")]
    assert areas
    action = areas[0]
    rain = next(o for o in figures.offered_options(ember) if o["id"] == "rain")
    cells = allies_round.area_squares(s, ember, rain, action)
    assert queries.monster_square(s, rat) in cells and min(r for r, _ in cells) < 0
    assert GAME.is_legal(s, 0, action)
    GAME.apply(s, 0, action)


def test_an_area_may_hang_off_the_left_edge() -> None:
    """«El AOE puede quedarse fuera del mapa, siempre y cuando el rango sea lo suficientemente grande.» — the left
    edge too, not only the right and bottom ones."""
    s = scene()
    rat = add_monster(s, "giant_rat", 8, lane="R")
    sq = queries.monster_square(s, rat)
    assert sq[1] == 1  # one square from the left edge
    ember = add_hero(s, "ember", open_square_at(s, sq, 3))
    s["active"] = ember["id"]
    ember["ap"] = 2
    opt = next(o for o in figures.offered_options(ember) if o["id"] == "rain")
    areas = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "attack" and la.action.get("left")]
    assert areas
    for action in areas:
        cells = allies_round.area_squares(s, ember, opt, action)
        assert sq in cells and min(c for _, c in cells) < 0
        assert all(range_distance(square_of(ember), q) <= allies_round.attack_range(ember, opt) for q in cells)
    assert GAME.is_legal(s, 0, areas[0])
