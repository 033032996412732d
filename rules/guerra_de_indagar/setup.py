"""A new game [RB p.3-4]: the board for the player count, the dealt face-down tiles and the initiative roll."""

from __future__ import annotations

from rules.guerra_de_indagar.data import RESOURCES, Area, Layout, layouts, monsters, numbers, tiles
from rules.guerra_de_indagar.hexes import key, neighbours
from rules.guerra_de_indagar.state import Monster, Player, State, Tile
from rules.guerra_de_indagar.units import roll
from rules.rng import Rng

#: Event tiles whose effects are not implemented yet; they are left out of the draw.
NOT_YET: tuple[str, ...] = ()
POOL_ORDER = ("gold", "wood", "mineral", "mountain", "mud", "meadow")


def _area_tiles(area: Area) -> list[tuple[str, str]]:
    out = [(key((q, r)), "meadow") for q, r in area["deploy"]]
    cells = {"gold": area["gold"], "wood": area["wood"], "mineral": area["mineral"]}
    out += [(key((cells[k][0], cells[k][1])), k) for k in RESOURCES]
    return out


def deal(layout: Layout, rng: Rng) -> dict[str, str]:
    """Face-down types by position: events drawn, pool shuffled, positions sorted by (r, q) [digest §1.2]."""
    events = [t for t in tiles()["event_pool"]["tiles"] if t not in NOT_YET]
    rng.shuffle(events)
    pool = [kind for kind in POOL_ORDER for _ in range(layout["pool"][kind])]
    pool += events[: layout["pool"]["event"]]
    homes = {key((q, r)) for q, r in layout["homes"]} if layout["homes_hidden"] else set()
    spots = sorted((key((q, r)) for q, r in layout["face_down"] if key((q, r)) not in homes),
                   key=lambda k: (int(k.split(",")[1]), int(k.split(",")[0])))
    if len(spots) != len(pool):
        raise ValueError("layout and pool sizes differ")
    for _ in range(1000):  # RULING-02: no start area walled in by mountains
        rng.shuffle(pool)
        dealt = dict(zip(spots, pool, strict=True))
        if not any(_walled(layout, area, dealt) for area in layout["areas"]):
            return dealt
    raise ValueError("no deal without a walled-in start area")


def _walled(layout: Layout, area: Area, dealt: dict[str, str]) -> bool:
    own = {k for k, _ in _area_tiles(area)}
    exits = {key(beside) for q, r in area["deploy"] for beside in neighbours((q, r))} - own
    exits = {k for k in exits if k in dealt}
    return bool(exits) and all(dealt[k] == "mountain" for k in exits)


def initiative(rng: Rng, seats: int) -> int:
    """3 dice each; only the tied top players reroll [RB p.3]."""
    contenders = list(range(seats))
    while len(contenders) > 1:
        totals = {seat: sum(roll(rng, numbers()["initiative_dice"])) for seat in contenders}
        best = max(totals.values())
        contenders = [seat for seat in contenders if totals[seat] == best]
    return contenders[0]


def new_state(seats: int, seed: int, target: int, easy: bool) -> State:
    rng = Rng.from_seed(seed)
    layout = layouts()[str(seats)]
    board: dict[str, Tile] = {"0,0": _tile("source", True)}
    for i, area in enumerate(layout["areas"]):
        for k, kind in _area_tiles(area):
            board[k] = _tile(kind, True, area=i, deploy=kind == "meadow")
    for k, kind in deal(layout, rng).items():
        board[k] = _tile(kind, False)
    for i, (q, r) in enumerate(layout["homes"]):
        k = key((q, r))
        if layout["homes_hidden"]:
            board[k] = _tile(None, False)  # RULING-39: solo homes are never revealed
        board[k]["home"] = i
    first = initiative(rng, seats) if seats > 1 else 0
    order = [(first + i) % seats for i in range(seats)]
    players: list[Player] = [
        {"faction": None, "commander": None, "res": dict(numbers()["start_resources"]), "spirits": 0, "pp": 0,
         "known": [], "traitors": False, "tree": None, "flags": [], "unlocks": {}} for _ in range(seats)]
    s: State = {"rng": 0, "players_n": seats, "solo": seats == 1, "target": target, "round": 0,
                "phase": "faction", "order": order, "chooser": 0, "tiles": board, "outposts": {},
                "players": players, "heroes": {}, "monsters": {}, "source": 0, "source_at": "0,0",
                "ring": [], "ring_pos": -1, "lap": -1, "turn": None, "act": None, "pending": [], "attack": None,
                "end_queue": [], "window": False, "used": [], "mods": {}, "last_ability": None, "result": None}
    if seats == 1:
        cards = sorted(monsters()["primary"])
        rng.shuffle(cards)
        if easy:
            cards[rng.below(4)] = ""  # PROV-20: easy mode leaves one random home empty
        for i, card in enumerate(cards):
            if card:
                s["monsters"][card] = primary(card, key((layout["homes"][i][0], layout["homes"][i][1])), i)
    s["rng"] = rng.state
    return s


def primary(card: str, at: str, home: int) -> Monster:
    return {"kind": "primary", "card": card, "at": at, "dmg": 0, "home": home, "retreat": 0, "turns": 0,
            "stuck": False, "count": 0, "spirits": 0, "gone": False, "order": home}


def _tile(kind: str | None, up: bool, area: int = -1, deploy: bool = False) -> Tile:
    return {"t": kind, "up": up, "destroyed": False, "area": area, "deploy": deploy, "home": -1}
