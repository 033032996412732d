"""Scenario builders for The King's Armory tests: a state with chosen figures, and scripted dice."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from rules.base import SYSTEM
from rules.kings_armory import GAME, figures, queries, shop
from rules.kings_armory.board import Sq, board, range_distance
from rules.kings_armory.shapes import Ally, Monster, State
from rules.rng import Rng

T = TypeVar("T")


class Dice(Rng):
    """Stands in for the game's Rng: dice come from a script; draws and shuffles take the first option. Any other
    draw is a mistake in the test's script and fails loudly."""

    def __init__(self, *rolls: int) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def next_u64(self) -> int:
        raise AssertionError("Dice: an unscripted draw")

    def die(self, sides: int = 6) -> int:
        return self.rolls.pop(0)

    def below(self, n: int) -> int:
        return 0

    def randint(self, low: int, high: int) -> int:
        raise AssertionError("Dice: an unscripted randint")

    def choice(self, items: Sequence[T]) -> T:
        raise AssertionError("Dice: an unscripted choice")

    def shuffle(self, items: MutableSequence[T]) -> None:
        return None

    def fork(self) -> Rng:
        raise AssertionError("Dice: an unscripted fork")


def scene(seats: int = 1, map_id: str = "long-road", **options: str) -> State:
    """A game in the allies' round of wave 1 with no figures yet."""
    s = GAME.new(GAME.resolve_options({"map": map_id, **options}), seats, 7)
    s["phase"], s["turn"], s["free_towers"] = "allies", 0, 0
    return s


def lane_square(s: State, index: int, lane: str = "L") -> Sq:
    return board(s["map"]).lanes[lane][index]


def add_monster(s: State, key: str, index: int, lane: str = "L", *, boss: bool = False) -> Monster:
    """Take a token out of its pile (so every token stays accounted for) and stand it on a lane square."""
    if not boss:
        level = str(figures.data.monsters()[key]["level"])
        s["piles"][level].remove(key)
    else:
        s["boss_pile"].remove(key)
    mon: Monster = {"id": f"m{s['mseq']}", "key": key, "boss": boss, "hp": 0, "max": 0, "lane": lane, "i": index,
           "st": figures.no_status(), "blocked_by": None, "acted": False, "grounded": False, "fog": 0, "sundered": 0}
    card = figures.monster_card(mon)
    mon["hp"] = mon["max"] = card["hp"] + (10 * (s["n"] - 1) if boss else 0)
    s["mseq"] += 1
    s["monsters"].append(mon)
    return mon


def add_hero(s: State, key: str, sq: Sq, seat: int = 0) -> Ally:
    hero = figures.data.heroes()[key]
    a = shop.new_ally(seat, key, hero["hp"])
    a["id"] = f"a{len(s['allies'])}"
    a["pos"] = [sq[0], sq[1]]
    s["allies"].append(a)
    return a


def add_champion(s: State, key: str, sq: Sq, seat: int = 0, level: int = 1) -> Ally:
    champ = figures.data.champions()[key]
    a: Ally = {**shop.new_ally(seat, key, champ["hp"][level - 1]), "id": f"c{s['cseq']}", "kind": "champion",
         "level": level, "pos": [sq[0], sq[1]]}
    s["cseq"] += 1
    s["allies"].append(a)
    return a


def figure(key: str, *, boss: bool = False, **status: int) -> Monster:
    """A monster off the board (for the figure rules alone: movement, immunities), with these status tokens."""
    return {"id": "m0", "key": key, "boss": boss, "hp": 0, "max": 0, "lane": "L", "i": 0,
            "st": {**figures.no_status(), **status}, "blocked_by": None, "acted": False, "grounded": False, "fog": 0,
            "sundered": 0}


def square_of(a: Ally) -> Sq:
    """The square of an ally the test has placed."""
    sq = queries.pos(a)
    assert sq is not None, f"{a['id']} is not on the board"
    return sq


def on_board(s: State, mid: str) -> Monster:
    """The monster `mid`, which the test expects still on the board."""
    mon = queries.monster(s, mid)
    assert mon is not None, f"{mid} is no longer on the board"
    return mon


def open_square_at(s: State, target: Sq, distance: int, *, avoid: tuple[Sq, ...] = ()) -> Sq:
    """An open-ground field square at exactly this range distance from `target`."""
    b = board(s["map"])
    for r in range(b.height):
        for c in range(b.width):
            if range_distance((r, c), target) == distance and b.open_ground((r, c)) and (r, c) not in avoid:
                return (r, c)
    raise AssertionError("no such square")


def tower_at_range(s: State, target: Sq, distance: int) -> tuple[str, Sq]:
    """Build a tower on open ground with an interior square at this range distance from `target`."""
    b = board(s["map"])
    for r in range(b.height - 1):
        for c in range(b.width - 1):
            cells = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if all(b.open_ground(q) for q in cells):
                hit = [q for q in cells if range_distance(q, target) == distance]
                if hit and all(range_distance(q, target) >= distance for q in cells):
                    tid = f"t{s['tseq']}"
                    s["towers"].append({"id": tid, "at": [r, c]})
                    s["tseq"] += 1
                    return tid, hit[0]
    raise AssertionError("no room for such a tower")


def ai_to_the_end(s: State, seed: int, *, max_steps: int = 20_000) -> State:
    """Every seat played by the AI (and the enemy by the engine) until the game ends; each move is checked legal
    and every state checked against the invariants on the way."""
    rng = Rng.from_seed(seed)
    for _ in range(max_steps):
        if GAME.outcome(s) is not None:
            return s
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, rng)
        assert seat == SYSTEM or GAME.is_legal(s, seat, action), action
        s = GAME.apply(s, seat, action).state
        assert GAME.check_invariants(s) == []
    raise AssertionError(f"no end after {max_steps} moves")
