"""Set-ups for Guerra de Indagar scenarios: a started game with pieces placed by hand and scripted dice."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from rules.base import SYSTEM, Action, Outcome
from rules.guerra_de_indagar import GAME, abilities, actions, combat
from rules.guerra_de_indagar.data import monsters
from rules.guerra_de_indagar.hexes import codec
from rules.guerra_de_indagar.state import Activation, Attack, State


def started(seats: int = 2, seed: int = 1, factions: tuple[str, ...] = ("arkland", "sect", "tribes", "ramal")) -> State:
    """A game past set-up and round start (round 1, the first player's turn)."""
    s = GAME.new(GAME.resolve_options({}), seats, seed)
    while s["phase"] in ("faction", "commander", "monster"):
        seat = s["order"][s["chooser"]]
        if s["phase"] == "faction":
            action = Action.of("faction", faction=factions[seat])
        else:
            action = GAME.legal_actions(s, seat)[0].action
        s = GAME.apply(s, seat, action).state
    s = GAME.apply(s, SYSTEM, GAME.system_action(s)).state
    while s["pending"] and s["pending"][0]["kind"] == "declare":  # each player's first strategy tree
        seat = s["pending"][0]["seat"]
        s = GAME.apply(s, seat, GAME.decisions(s)[0].default).state
    return s


def activation(s: State) -> Activation:
    """The turn's activation, which the scenario has set up."""
    assert s["act"] is not None, "no hero is activated"
    return s["act"]


def attack(s: State) -> Attack:
    """The attack under way, which the scenario has started."""
    assert s["attack"] is not None, "no attack under way"
    return s["attack"]


def ended(s: State) -> Outcome:
    """The outcome of a game the scenario has ended."""
    outcome = GAME.outcome(s)
    assert outcome is not None, "the game has not ended"
    return outcome


def hero_at(s: State, hid: str) -> str:
    """The tile hero `hid` stands on (the scenario has it on the board)."""
    at = s["heroes"][hid]["at"]
    assert at is not None, f"{hid} is in retreat"
    return at


def k(s: State, label: str) -> str:
    q, r = codec(s["players_n"]).parse(label)  # type: ignore[misc]
    return f"{q},{r}"


def lab(s: State, key: str) -> str:
    q, r = key.split(",")
    return codec(s["players_n"]).name(int(q), int(r))


def clear_board(s: State) -> State:
    """Every unit off the board, every tile a face-up meadow except the Source: a clean field for scenarios."""
    for hero in s["heroes"].values():
        hero.update({"at": None, "done": True})
    for mon in s["monsters"].values():
        mon["at"] = None
    for tile in s["tiles"].values():
        if tile["t"] != "source":
            tile.update({"t": "meadow", "up": True})
    s["pending"], s["attack"], s["act"] = [], None, None
    return s


def put(s: State, hid: str, key: str) -> None:
    s["heroes"][hid].update({"at": key, "done": False})


def build_under_helgoth() -> tuple[State, int]:
    """A clean meadow field in round 3 for seat 0 (Arkland): Oryana gone, Helgoth two tiles off at -2,0, and
    Ariane on a gold tile at 0,2 with 5 gold (a build in reach, before her turn begins)."""
    s = clear_board(started(2, 1))
    s["round"] = 3
    s["monsters"]["oryana"].update({"at": None, "gone": True})
    s["monsters"]["helgoth"].update({"at": "-2,0"})
    s["tiles"]["0,2"]["t"] = "gold"
    put(s, "ariane", "0,2")
    s["players"][0]["res"]["gold"] = 5
    return s, 0


def my_turn(s: State, seat: int, hid: str) -> State:
    """Make it `seat`'s turn with `hid` active and full movement."""
    s["phase"], s["turn"] = "turns", ["p", str(seat)]
    s["ring"], s["ring_pos"] = [["p", "0"], ["p", "1"]], 0 if seat == 0 else 1
    s = GAME.apply(s, seat, Action.of("activate", hero=hid)).state
    return s


@contextmanager
def dice(monkeypatch: pytest.MonkeyPatch, *rolls: list[int]) -> Iterator[None]:
    """Script the dice: each roll call returns the next list (its length must match the dice asked for)."""
    queue = list(rolls)

    def scripted(rng: object, n: int) -> list[int]:
        values = queue.pop(0)
        assert len(values) == n, f"asked for {n} dice, scripted {values}"
        return values

    monkeypatch.setattr(combat, "roll", scripted)
    monkeypatch.setattr(actions, "roll", scripted)
    monkeypatch.setattr(abilities, "roll", scripted)
    yield
    assert queue == [], f"unused scripted rolls {queue}"


def neighbours_of(s: State, key: str) -> list[str]:
    return combat.adjacent_keys(s, key)


def victory_need(card: str, players: int = 2, *, solo: bool = False) -> int:
    """How many a primary monster needs to win at a table of `players`, or in solo mode (PROV-18, from the data)."""
    victory = monsters()["primary"][card]["victory"]
    if solo:
        return int(victory["solo"])
    return int(victory["base"]) + (players if victory.get("per_player", True) else 0)
