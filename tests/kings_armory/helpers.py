"""Scenario builders for The King's Armory tests: a state with chosen figures, and scripted dice."""

from __future__ import annotations

from typing import Any

from rules.base import SYSTEM
from rules.kings_armory import GAME, figures, shop
from rules.kings_armory.board import Sq, board, range_distance
from rules.rng import Rng


class Dice:
    """Stands in for the game's Rng: dice come from a script; draws and shuffles take the first option."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def die(self, sides: int = 6) -> int:
        return self.rolls.pop(0)

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, items: list[Any]) -> None:
        return None


def scene(seats: int = 1, map_id: str = "long-road", **options: str) -> dict[str, Any]:
    """A game in the allies' round of wave 1 with no figures yet."""
    s = GAME.new(GAME.resolve_options({"map": map_id, **options}), seats, 7)
    s.update(phase="allies", turn=0, free_towers=0)
    return s


def lane_square(s: dict[str, Any], index: int, lane: str = "L") -> Sq:
    return board(s["map"]).lanes[lane][index]


def add_monster(s: dict[str, Any], key: str, index: int, lane: str = "L", *, boss: bool = False) -> dict[str, Any]:
    """Take a token out of its pile (so every token stays accounted for) and stand it on a lane square."""
    if not boss:
        level = str(figures.data.monsters()[key]["level"])
        s["piles"][level].remove(key)
    else:
        s["boss_pile"].remove(key)
    mon = {"id": f"m{s['mseq']}", "key": key, "boss": boss, "hp": 0, "max": 0, "lane": lane, "i": index,
           "st": figures.no_status(), "blocked_by": None, "acted": False, "grounded": False, "fog": 0, "sundered": 0}
    card = figures.monster_card(mon)
    mon["hp"] = mon["max"] = card["hp"] + (10 * (s["n"] - 1) if boss else 0)
    s["mseq"] += 1
    s["monsters"].append(mon)
    return mon


def add_hero(s: dict[str, Any], key: str, sq: Sq, seat: int = 0) -> dict[str, Any]:
    hero = figures.data.heroes()[key]
    a = shop.new_ally(seat, key, hero["hp"])
    a["id"] = f"a{len(s['allies'])}"
    a["pos"] = [sq[0], sq[1]]
    s["allies"].append(a)
    return a


def add_champion(s: dict[str, Any], key: str, sq: Sq, seat: int = 0, level: int = 1) -> dict[str, Any]:
    champ = figures.data.champions()[key]
    a = {**shop.new_ally(seat, key, champ["hp"][level - 1]), "id": f"c{s['cseq']}", "kind": "champion",
         "level": level, "pos": [sq[0], sq[1]]}
    s["cseq"] += 1
    s["allies"].append(a)
    return a


def open_square_at(s: dict[str, Any], target: Sq, distance: int, *, avoid: tuple[Sq, ...] = ()) -> Sq:
    """An open-ground field square at exactly this range distance from `target`."""
    b = board(s["map"])
    for r in range(b.height):
        for c in range(b.width):
            if range_distance((r, c), target) == distance and b.open_ground((r, c)) and (r, c) not in avoid:
                return (r, c)
    raise AssertionError("no such square")


def tower_at_range(s: dict[str, Any], target: Sq, distance: int) -> tuple[str, Sq]:
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


def ai_to_the_end(s: dict[str, Any], seed: int, *, max_steps: int = 20_000) -> dict[str, Any]:
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
