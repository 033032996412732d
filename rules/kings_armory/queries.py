"""Queries and small mutations on the game state (a JSON-able dict) shared by every phase."""

from __future__ import annotations

from typing import Literal, TypeVar, cast

from rules.kings_armory import data, figures
from rules.kings_armory.board import STEP, Board, Sq, around, board, footprint, range_distance
from rules.kings_armory.shapes import Ally, Monster, State, Variant

#: Values a deep copy shares instead of copying (immutable).
_SCALARS = frozenset({str, int, float, bool, type(None)})
#: What `clone` copies: JSON-like data (the state or any part of it) comes back with its own type.
Json = TypeVar("Json")


def clone(value: Json) -> Json:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than copy.deepcopy."""
    return cast(Json, _deep_copy(value))  # a copy has the type of what it copies


def _deep_copy(value: object) -> object:
    if isinstance(value, dict):
        return {k: v if v.__class__ in _SCALARS else _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if v.__class__ in _SCALARS else _deep_copy(v) for v in value]
    return value


def board_of(state: State) -> Board:
    return board(state["map"], state.get("map_spec"))


def ally(state: State, aid: str) -> Ally:
    return next(a for a in state["allies"] if a["id"] == aid)


def find_ally(state: State, aid: object) -> Ally | None:
    return next((a for a in state["allies"] if a["id"] == aid), None)


def monster(state: State, mid: object) -> Monster | None:
    return next((m for m in state["monsters"] if m["id"] == mid), None)


def monster_square(state: State, mon: Monster) -> Sq:
    return board_of(state).lanes[mon["lane"]][mon["i"]]


def pos(a: Ally) -> Sq | None:
    return None if a["pos"] is None else (a["pos"][0], a["pos"][1])


def seat_allies(state: State, seat: int) -> list[Ally]:
    return [a for a in state["allies"] if a["seat"] == seat]


def heroes(state: State) -> list[Ally]:
    return [a for a in state["allies"] if a["kind"] == "hero"]


def leaders(state: State) -> list[Ally]:
    """The figures whose fall loses the game when all are down: the heroes, or in General-ly Not Enough the
    champions the players picked instead (P-28); they are knocked out, not killed, and get up between waves."""
    return [a for a in state["allies"] if a["kind"] == "hero" or a.get("own")]


def last_wave(state: State) -> int:
    """The wave whose end wins the game: the chosen length, or Endurance's cap (P-28)."""
    endurance = variant(state, "endurance")
    return int(endurance["max_waves"]) if endurance else int(state["waves"])


def wave_size(state: State) -> int:
    """Monsters in the current wave (Wave Card, P-05); Endurance repeats the last row with more each time."""
    card = data.wave_card()["monsters_per_wave"]
    rows = len(data.wave_card()["levels"])
    count = min(state["wave"], rows) * card["per_wave"] + card["base"] + state["n"] * card["per_player"]
    endurance = variant(state, "endurance")
    if endurance:
        count += endurance["extra_monsters"] * max(0, state["wave"] - rows)
        count = min(count, int(endurance["max_monsters"]))
    return int(count)


def waves_survived(state: State) -> int:
    """Endurance's score: the waves the allies have seen out (the current one counts once it is over)."""
    done = state["phase"] == "between" or state["result"] == "won"
    return int(state["wave"]) if done else int(state["wave"]) - 1


# ---------------------------------------------------------------- towers and parapets ("houses")


def houses(state: State) -> dict[str, list[Sq]]:
    """Every house: towers (2×2) and the two parapets (one square each), as their interior squares."""
    out = {t["id"]: footprint((t["at"][0], t["at"][1])) for t in state["towers"]}
    out.update({k: [v] for k, v in board_of(state).parapets.items()})
    return out


def variant(state: State, name: str) -> Variant | None:
    """The numbers of a §7 variant when this game plays it (P-28), else None."""
    return data.variants()[name] if name in state["variants"] else None


def tower_eco(state: State, key: Literal["build", "sell", "slots"]) -> int:
    """A tower's price, sale value or slots; Hard Stones changes all three."""
    hard = variant(state, "hard_stones")
    return int(hard[key] if hard else data.economy()["tower"][key])


def champion_cost(state: State, kind: str, level: int) -> int:
    """Hire (level 0) or upgrade cost; Scarce and Underpaid adds to both."""
    scarce = variant(state, "scarce")
    return int(data.champions()[kind]["cost"][level]) + (scarce["champion_cost"] if scarce else 0)


def capacity(state: State, house: str) -> int:
    return int(data.economy()["parapet_slots"]) if house in ("PW", "PE") else tower_eco(state, "slots")


def slots_used(state: State, house: str, *, without: str | None = None) -> int:
    """Champions hold their slot all wave; heroes only while inside; before a wave every assignment counts."""
    placing = state["phase"] in ("setup", "between")
    return sum(1 for a in state["allies"] if a["house"] == house and a["id"] != without
               and (placing or a["kind"] != "hero" or a["inside"]))


def has_slot(state: State, house: str, *, without: str | None = None) -> bool:
    return slots_used(state, house, without=without) < capacity(state, house)


def tower_squares(state: State) -> set[Sq]:
    return {sq for t in state["towers"] for sq in footprint((t["at"][0], t["at"][1]))}


def house_of_square(state: State, sq: Sq) -> str | None:
    for hid, squares in houses(state).items():
        if sq in squares:
            return hid
    return None


def near_house(state: State, house: str, sq: Sq) -> bool:
    """Inside it or within 2 squares (range distance) of it (A-21)."""
    return min(range_distance(sq, h) for h in houses(state)[house]) <= 2


def housed(state: State, a: Ally) -> bool:
    p = pos(a)
    return p is not None and a["house"] in houses(state) and near_house(state, a["house"], p)


def entry_squares(state: State, house: str) -> list[Sq]:
    towers = tower_squares(state)
    return [sq for sq in around(houses(state)[house]) if walkable(state, sq, towers)]


# ---------------------------------------------------------------- squares and movement


def walkable(state: State, sq: Sq, towers: set[Sq] | None = None) -> bool:
    """Where an ally may walk: field squares outside towers, and the castle-exit squares."""
    b = board_of(state)
    if sq in b.exits.values():
        return True
    return b.on_field(sq) and sq not in (tower_squares(state) if towers is None else towers)


def ally_at(state: State, sq: Sq) -> Ally | None:
    return next((a for a in state["allies"] if pos(a) == sq), None)


def monsters_at(state: State, sq: Sq) -> list[Monster]:
    return [m for m in state["monsters"] if monster_square(state, m) == sq]


def free_for_ally(state: State, sq: Sq) -> bool:
    return ally_at(state, sq) is None and not monsters_at(state, sq)


def reachable(state: State, start: Sq, steps: int) -> list[Sq]:
    """Squares an ally can end on with up to `steps` orthogonal steps, passing through figures (A-10)."""
    towers = tower_squares(state)
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for r, c in frontier:
            for dr, dc in STEP.values():
                sq = (r + dr, c + dc)
                if sq not in seen and walkable(state, sq, towers):
                    seen.add(sq)
                    nxt.append(sq)
        frontier = nxt
    taken = occupied(state)
    return sorted(sq for sq in seen if sq != start and sq not in taken)


def occupied(state: State) -> set[Sq]:
    """Squares where an ally or a monster stands (not free for an ally: `free_for_ally`)."""
    taken = {p for p in (pos(a) for a in state["allies"]) if p is not None}
    return taken | {monster_square(state, m) for m in state["monsters"]}


def layer_taken(state: State, mon: Monster, sq: Sq) -> bool:
    """Whether another monster of the same kind (ground or flying) already stands there (A-11)."""
    fly = figures.flying(mon)
    return any(m["id"] != mon["id"] and figures.flying(m) == fly for m in monsters_at(state, sq))


def monsters_left(state: State) -> int:
    return len(state["monsters"])
