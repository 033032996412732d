"""The AI's cage: its heroes hold every tile around a primary monster's home, so it can never walk out."""

from __future__ import annotations

from itertools import permutations

from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import adjacent_keys, hero_move, hero_tile, impassable, unit_at
from rules.search import breadth_first

#: The primary monsters worth caging, most dangerous first. Caged, a monster's script finds no free way to its
#: target and strikes a hero of the cage instead (digest §6.2, "unable to reach"); a blow of 2 or more sends it
#: to retreat, for it has no free tile to fall back to (§4.5, RULING-24), and it comes back on the same home.
#: Helgoth is left to roam: he scores only outposts, which the AI does not build while he is about. Caging
#: Oryana (the Source goes unkept) or the Spirit Walker (his blows open the cage) was measured much worse.
CAGE = ("tijian",)


def home_of(s: State, mid: str) -> str:
    home = s["monsters"][mid]["home"]
    return next(k for k, t in sorted(s["tiles"].items()) if t["home"] == home)


def target(s: State, seat: int, spare: int = 0, cards: tuple[str, ...] = CAGE) -> str | None:
    """The primary monster this seat cages: the most dangerous one in play whose home it can close with its
    heroes but `spare` of them (kept for other work)."""
    if s["solo"]:
        return None  # four monsters at once: three heroes cannot spend the game on one (measured worse)
    heroes = sum(1 for h in s["heroes"].values() if h["owner"] == seat) - spare
    ranked = {card: i for i, card in enumerate(cards)}
    best: tuple[int, str] | None = None
    for mid, mon in s["monsters"].items():
        if mon["kind"] != "primary" or mon["gone"] or mon["card"] not in ranked:
            continue
        if len(spots(s, mid)) > heroes:
            continue
        key = (ranked[mon["card"]], mid)
        if best is None or key < best:
            best = key
    return best[1] if best is not None else None


def spots(s: State, mid: str) -> list[str]:
    """The tiles around the home a monster could walk out through (a known wall needs no guard)."""
    return [k for k in adjacent_keys(s, home_of(s, mid)) if not impassable(s, k)]


def caged(s: State, mid: str) -> bool:
    """Whether the monster stands on its home (or waits in retreat to come back there)."""
    at = s["monsters"][mid]["at"]
    return at is None or at == home_of(s, mid)


def shut(s: State, mid: str) -> bool:
    """Whether every way out of the monster's home is held: struck there, it has nowhere to fall back to."""
    return all(unit_at(s, k) is not None for k in spots(s, mid))


def assign(s: State, seat: int, mid: str, keep: str | None = None) -> dict[str, str]:
    """Which hero of this seat guards which tile of the cage: the cage shut in the fewest activations, then the
    fewest steps in all. A tile another unit holds is guarded too: that unit will move on, and its guard waits
    beside it to step in. The hero `keep` has other work (the Source's keeper)."""
    heroes = sorted(h for h, hero in s["heroes"].items()
                    if hero["owner"] == seat and hero["at"] is not None and h != keep)
    open_spots = spots(s, mid)
    if not heroes or not open_spots:
        return {}
    dist = {h: _steps(s, h) for h in heroes}
    best: tuple[tuple[int, int], dict[str, str]] | None = None
    count = min(len(heroes), len(open_spots))
    for chosen in permutations(heroes, count):
        for places in permutations(open_spots, count):
            pairs = list(zip(chosen, places, strict=True))
            turns = max(-(-dist[h].get(k, 50) // max(1, hero_move(s, h))) for h, k in pairs)
            cost = (turns, sum(dist[h].get(k, 50) for h, k in pairs))
            if best is None or cost < best[0]:
                best = (cost, dict(pairs))
    return best[1] if best is not None else {}


def _steps(s: State, hid: str) -> dict[str, int]:
    return walk_distances(s, hero_tile(s, hid))


def walk_distances(s: State, start: str, through: bool = True, mover: str | None = None) -> dict[str, int]:
    """Steps from `start` to every tile, not through walls, swamps or whirls; `through` other units too (they
    move on), else around every unit but the one standing on `mover`."""
    def may_cross(_from: str, there: str) -> bool:
        if impassable(s, there) or (not through and there != mover and unit_at(s, there) is not None):
            return False
        tile = s["tiles"][there]
        return not (tile["up"] and (tile["t"] or "") in ("swamp", "maelstrom"))
    return breadth_first([start], lambda k: adjacent_keys(s, k), enter=may_cross).dist


def steps_toward(s: State, hid: str, spot: str, tiles: list[str]) -> list[str]:
    """Of the tiles the hero may step on, those that bring it nearer its guard tile, nearest first; a face-up
    one first among equals (a face-down resource tile stepped on would turn into Tijian's prey)."""
    here = hero_tile(s, hid)
    back = walk_distances(s, spot, through=False, mover=here)
    if here not in back:
        back = walk_distances(s, spot)
    nearer = [k for k in tiles if back.get(k, 99) < back.get(here, 99)]
    return sorted(nearer, key=lambda k: (back[k], not s["tiles"][k]["up"], k))  # face up first: no new prey
