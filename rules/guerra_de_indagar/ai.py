"""AI rivals: claim resource tiles with outposts, gather the Source, turn spirits into points, strike weak foes."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from rules.base import Action, LegalAction
from rules.rng import Rng

from .actions import tile_of
from .combat import attacker_seat, flanking
from .data import RESOURCES, factions, monsters
from .units import (
    State,
    adjacent_keys,
    can_pay,
    defence_at,
    hero_attack,
    hero_may_enter,
    hero_resistance,
    monster_stats,
    outpost_stats,
    unit_at,
)

#: Strategy trees the AI declares, best first: each turns outposts (what it builds anyway) into points.
TREES = ("expansion", "merchant_crown", "shadow_steps", "reaping_energy")
#: Primary monsters the AI hands out, least dangerous to a builder first: Helgoth would hunt its own outposts
#: (measured with tools/gi_ai_eval.py).
MONSTERS = ("walker", "helgoth", "tijian", "oryana")
#: Answers to the questions of a fight or a window, when nothing better applies.
QUIET = ("roll_defence", "done", "stay", "pass", "keep_hidden")
#: A primary monster at most this short of its victory (PROV-18) is hunted by every fit hero; 99 hunts from the
#: start, which tools/gi_ai_eval.py measured better than waiting until it is 2 or 3 short.
HUNT = 99
#: With no hunted monster on the board, the heroes wait beside the home of the one in retreat to strike it first.
CAMP = True


def choose(legal: Sequence[LegalAction], s: State, seat: int, rng: Rng) -> Action:
    """The AI's move for `seat` among `legal` (never empty); only what `seat` may know is read."""
    by: dict[str, list[Action]] = {}
    for la in legal:
        by.setdefault(la.action.kind, []).append(la.action)
    if s["pending"]:
        return _answer(s, seat, s["pending"][0], by, legal)
    if "faction" in by:
        return by["faction"][0]
    if "commander" in by:
        return by["commander"][0]
    if "monster" in by:
        return _monster(s, seat, by["monster"])
    if "spirit_pp" in by:
        return by["spirit_pp"][0]
    if s["act"] is None:
        return _activate(s, seat, by) if "activate" in by else _fallback(by, legal)
    return _activation(s, seat, by, legal)


def _fallback(by: dict[str, list[Action]], legal: Sequence[LegalAction]) -> Action:
    for kind in (*QUIET, "end"):
        if kind in by:
            return by[kind][0]
    return legal[0].action


# ---------------------------------------------------------------- set-up and questions


def _monster(s: State, seat: int, options: list[Action]) -> Action:
    """The least dangerous monster left, on the home farthest from this seat's deployment tiles."""
    mine = _deploy(s, seat)
    rank = {m: i for i, m in enumerate(MONSTERS)}
    card = min((a["monster"] for a in options), key=lambda m: (rank.get(m, len(rank)), m))
    homes = [a for a in options if a["monster"] == card]
    return max(homes, key=lambda a: (_dist_from(s, mine, tile_of(s, a["home"])), str(a["home"])))


def _answer(s: State, seat: int, item: dict[str, object], by: dict[str, list[Action]],
            legal: Sequence[LegalAction]) -> Action:
    kind = item["kind"]
    if kind == "reveal":
        return by["keep_hidden"][0]  # a face-up resource tile is Tijian's prey until an outpost stands on it
    if kind == "declare":
        trees = [a["tree"] for a in by["declare"]]
        best = next((t for t in TREES if t in trees), trees[0])
        return Action.of("declare", tree=best)
    if kind == "spirit_window":
        return by["spirit_pp"][0] if "spirit_pp" in by else by["pass"][0]
    if kind == "degrade":
        choices = [a["choice"] for a in by["degrade"]]
        for c in ("capture", "destroy", "leave"):
            if c in choices:
                return Action.of("degrade", choice=c)
    if kind == "level_up":
        return Action.of("level", side="shield")
    if kind == "reap":
        return _scarcest(s, seat, by["reap"])
    if kind in ("fall_back", "maelstrom", "redeploy"):
        options = by.get(str(kind), [])
        if options:
            home = _deploy(s, seat)
            return min(options, key=lambda a: (_dist_from(s, home, tile_of(s, a["to"])), str(a["to"])))
    if kind in ("monster_target", "monster_opportunity"):
        options = by.get(str(kind), [])
        if options:
            return min(options, key=lambda a: (_is_mine(s, seat, tile_of(s, a["to"])), str(a["to"])))
    if kind == "a_boost" and "spirit_dice" in by and _boost_worth(s, seat):
        return by["spirit_dice"][0]
    if kind == "d_boost" and "spirit_ignore" in by and _hero_at_risk(s, seat):
        return by["spirit_ignore"][0]
    return _fallback(by, legal)


def _boost_worth(s: State, seat: int) -> bool:
    """Spirit dice for this seat's attack on the hunted monster while the roll looks short of sending it away."""
    att = s["attack"]
    prey = _prey(s)
    if att is None or prey is None or att["target"] != ["monster", prey] or attacker_seat(s) != seat:
        return False
    left = monster_stats(s, prey)["resistance"] - s["monsters"][prey]["dmg"]
    return sum(att["a"]) - 3.5 * defence_at(s, att["at"]) < left


def _scarcest(s: State, seat: int, options: list[Action]) -> Action:
    res = s["players"][seat]["res"]
    return min(options, key=lambda a: (sum(res[k] for k in a["get"]), a.token()))


def _is_mine(s: State, seat: int, k: str) -> bool:
    unit = unit_at(s, k)
    if unit is not None and unit[0] == "hero":
        return bool(s["heroes"][unit[1]]["owner"] == seat)
    post = s["outposts"].get(k)
    return post is not None and post["owner"] == seat


def _hero_at_risk(s: State, seat: int) -> bool:
    att = s["attack"]
    if att is None:
        return False
    unit = unit_at(s, att["at"])
    if unit is None or unit[0] != "hero" or s["heroes"][unit[1]]["owner"] != seat:
        return False
    return bool(s["heroes"][unit[1]]["dmg"] >= 2)


# ---------------------------------------------------------------- a turn


def _activate(s: State, seat: int, by: dict[str, list[Action]]) -> Action:
    """The hero closest to something worth doing (ties: the order of the faction)."""
    order = factions()["factions"][s["players"][seat]["faction"]]["heroes"]
    keeper = _keeper(s, seat)
    if keeper is not None and any(a["hero"] == keeper for a in by["activate"]) \
            and (s["heroes"][keeper]["at"] != s["source_at"] or s["source"] >= 1):
        return Action.of("activate", hero=keeper)
    prey = _prey(s)
    if prey is not None:
        near = _around(s, prey)
        fit = [a for a in by["activate"] if _fit(s, a["hero"])]
        if fit:
            return min(fit, key=lambda a: (_dist_from(s, [s["heroes"][a["hero"]]["at"]], None, near, a["hero"],
                                                      bold=True), a["hero"]))
    goals = _goals(s, seat)
    return min(by["activate"], key=lambda a: (_dist_from(s, [s["heroes"][a["hero"]]["at"]], None, goals, a["hero"]),
                                              order.index(a["hero"]) if a["hero"] in order else 9))


def _activation(s: State, seat: int, by: dict[str, list[Action]], legal: Sequence[LegalAction]) -> Action:
    act = s["act"]
    hid = act["hero"]
    here = s["heroes"][hid]["at"]
    prey = _prey(s)
    if prey is not None and hid != _keeper(s, seat) and _fit(s, hid):
        hunt = _hunt(s, seat, hid, prey, by)
        if hunt is not None:
            return hunt
    if "build" in by:
        return by["build"][0]
    if "gather" in by and s["source"] >= 1:
        return by["gather"][0]
    if hid == _keeper(s, seat):
        if here == s["source_at"]:
            return by["end"][0] if "end" in by else _fallback(by, legal)
        for a in by.get("attack", []):  # Oryana on the Source: strike her, she spills what she holds there
            if tile_of(s, a["to"]) == s["source_at"] and _oryana_at(s, s["source_at"]):
                return a
        if act["mv"] > 0 and "move" in by:
            step = _step_toward(s, seat, hid, by["move"], {s["source_at"]}, bold=True, hunt=True)
            if step is None:
                step = _step_toward(s, seat, hid, by["move"], set(adjacent_keys(s, s["source_at"])), bold=True,
                                    hunt=True)
            if step is not None:
                return step
    trade = _trade_for_outpost(s, seat, hid, by)
    if trade is not None:
        return trade
    strike = _strike(s, seat, hid, by)
    if strike is not None:
        return strike
    if "clearing" in by:
        return by["clearing"][0]
    if "explore" in by:
        return by["explore"][0]
    if act["mv"] > 0 and "move" in by:
        goals = _goals(s, seat)
        if here not in goals:
            step = _step_toward(s, seat, hid, by["move"], goals)
            if step is not None:
                return step
    if "upgrade" in by:
        return by["upgrade"][0]
    if "charge_step" in by or ("attack" in by and "end" not in by):
        return by.get("attack", by.get("charge_step", []))[0]
    return by["end"][0] if "end" in by else _fallback(by, legal)


def _hunt(s: State, seat: int, hid: str, prey: str, by: dict[str, list[Action]]) -> Action | None:
    """Strike the hunted monster when next to it, else build or gather on the way, else close in on it."""
    at = _spot(s, prey)
    dice = hero_attack(s, hid, at) + flanking(s, hid, at)
    for a in by.get("attack", []) if s["monsters"][prey]["at"] is not None else []:
        if tile_of(s, a["to"]) == at and dice + s["players"][seat]["spirits"] >= defence_at(s, at):
            return a
    if "build" in by:
        return by["build"][0]
    if "gather" in by and s["source"] >= 1:
        return by["gather"][0]
    if s["heroes"][hid]["at"] in _around(s, prey):
        return by["end"][0] if "end" in by else None  # stays beside it: each neighbour adds a die (flanking)
    if s["act"]["mv"] > 0 and "move" in by:
        return _step_toward(s, seat, hid, by["move"], _around(s, prey), bold=True, hunt=True)
    return None


def _trade_for_outpost(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action | None:
    """On a free resource tile without the gold to build: three of the most plentiful for one gold."""
    here = s["heroes"][hid]["at"]
    tile = s["tiles"][here]
    if "trade" not in by or here in s["outposts"] or not tile["up"] or tile["t"] not in RESOURCES or tile["destroyed"]:
        return None
    cost = outpost_stats(1)["cost"]
    if can_pay(s, seat, cost) or s["act"]["acted"]:
        return None
    res = s["players"][seat]["res"]
    need = next(iter(k for k in cost if res.get(k, 0) < cost[k]))
    options = [a for a in by["trade"] if a["get"] == need and need not in a["give"]]
    if not options:
        return None
    return max(options, key=lambda a: (min(res[k] for k in a["give"]), a.token()))


def _strike(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action | None:
    """Attack an enemy outpost left alone, or an enemy hero, when this hero is fresh and the target weak."""
    if "attack" not in by or s["heroes"][hid]["dmg"] > 1:
        return None
    best: tuple[int, str, Action] | None = None
    for a in by["attack"]:
        k = tile_of(s, a["to"])
        unit = unit_at(s, k)
        if unit is not None and unit[0] == "monster":
            continue
        post = s["outposts"].get(k)
        weak = defence_at(s, k) <= 1 and (post is None or post["level"] == 1)
        if not weak:
            continue
        score = (0 if post is not None and unit is None else 1, str(a["to"]), a)
        if best is None or score[:2] < best[:2]:
            best = score
    return best[2] if best is not None else None


# ---------------------------------------------------------------- where to go


def _deploy(s: State, seat: int) -> list[str]:
    return [k for k, t in s["tiles"].items() if t["deploy"] and t["area"] == seat]


def _known_type(s: State, seat: int, k: str) -> str | None:
    tile = s["tiles"][k]
    if tile["up"] or k in s["players"][seat]["known"]:
        return tile["t"]
    return None


def _keeper(s: State, seat: int) -> str | None:
    """While Oryana is about, the hero of this seat nearest the Source stands on it and drinks it first."""
    if not _oryana(s):
        return None
    heroes = sorted(h for h, hero in s["heroes"].items() if hero["owner"] == seat and hero["at"] is not None)
    if not heroes:
        return None
    return min(heroes, key=lambda h: (_dist_from(s, [s["heroes"][h]["at"]], s["source_at"]), h))


def _goals(s: State, seat: int) -> set[str]:
    """Free resource tiles it knows of (face-down ones only when it can build at once), the Source while it
    holds spirits, then any tile still face down."""
    goals = set()
    rich = can_pay(s, seat, outpost_stats(1)["cost"])
    for k, tile in s["tiles"].items():
        kind = _known_type(s, seat, k)
        if kind in RESOURCES and not tile["destroyed"] and k not in s["outposts"] and (tile["up"] or rich):
            goals.add(k)
    if s["source"] >= 2 or (s["source"] >= 1 and _oryana(s)):
        goals.add(s["source_at"])
    if not goals:
        goals = {k for k, t in s["tiles"].items() if not t["up"] and t["t"] is not None
                 and _known_type(s, seat, k) in (None, *RESOURCES)}
    return goals


def _need(s: State, card: str) -> int:
    victory = monsters()["primary"][card]["victory"]
    if s["solo"]:
        return int(victory["solo"])
    return int(victory["base"]) + (len(s["players"]) if victory.get("per_player", True) else 0)


def _prey(s: State) -> str | None:
    """The primary monster nearest its victory (for Oryana, counting the Source's spirits she would drink), at most
    HUNT short of it, one on the board before one in retreat; the counters are on the public monster cards."""
    best: tuple[bool, int, str] | None = None
    for mid, mon in sorted(s["monsters"].items()):
        if mon["kind"] != "primary" or mon["gone"] or (mon["at"] is None and not CAMP):
            continue
        held = mon["spirits"] + s["source"] if mon["card"] == "oryana" else mon["count"]
        short = _need(s, mon["card"]) - held
        if short <= HUNT and (best is None or (mon["at"] is None, short, mid) < best):
            best = (mon["at"] is None, short, mid)
    return best[2] if best is not None else None


def _spot(s: State, mid: str) -> str:
    """Where the monster stands, or for one in retreat its home, where it will come back."""
    mon = s["monsters"][mid]
    if mon["at"] is not None:
        return str(mon["at"])
    return next(k for k, t in sorted(s["tiles"].items()) if t["home"] == mon["home"])


def _around(s: State, mid: str) -> set[str]:
    return set(adjacent_keys(s, _spot(s, mid)))


def _fit(s: State, hid: str) -> bool:
    """Whether a hero is fresh enough to stand next to a monster: its next attack would not send it away."""
    hero = s["heroes"][hid]
    return hero["at"] is not None and hero["dmg"] * 2 < hero_resistance(s, hid)


def _oryana_at(s: State, k: str) -> bool:
    unit = unit_at(s, k)
    return unit is not None and unit[0] == "monster" and s["monsters"][unit[1]]["card"] == "oryana"


def _oryana(s: State) -> bool:
    """Whether Oryana is about, who wins by drinking the Source: then every spirit there is worth a detour."""
    return any(m["card"] == "oryana" and m["kind"] == "primary" and not m["gone"] for m in s["monsters"].values())


def _passable(s: State, seat: int, hid: str, k: str, bold: bool = False) -> bool:
    """Whether the hero would step on `k`: a face-down tile only when known harmless (or `bold`, in a hurry)."""
    tile = s["tiles"][k]
    if not tile["up"] and tile["t"] is not None:
        kind = _known_type(s, seat, k)
        return (kind in RESOURCES or kind in ("meadow", "source") or (bold and kind is None)) \
            and unit_at(s, k) is None
    return hero_may_enter(s, hid, k) and (tile["t"] or "") not in ("swamp", "mud", "maelstrom")


def _dist_from(s: State, starts: Sequence[str | None], target: str | None, goals: set[str] | None = None,
               hid: str | None = None, bold: bool = False) -> int:
    """Steps from `starts` to `target` (or the nearest of `goals`, through tiles the hero may enter)."""
    wanted = goals if goals is not None else {target}
    frontier = deque((k, 0) for k in starts if k is not None)
    seen = {k for k, _ in frontier}
    while frontier:
        k, d = frontier.popleft()
        if k in wanted:
            return d
        for n in adjacent_keys(s, k):
            if n in seen:
                continue
            if hid is not None and n not in wanted and not _passable(s, s["heroes"][hid]["owner"], hid, n, bold):
                continue
            seen.add(n)
            frontier.append((n, d + 1))
    return 99


def _step_toward(s: State, seat: int, hid: str, moves: list[Action], goals: set[str],
                 bold: bool = False, hunt: bool = False) -> Action | None:
    here = s["heroes"][hid]["at"]
    now = _dist_from(s, [here], None, goals, hid, bold)
    best: tuple[int, str, Action] | None = None
    for a in moves:
        k = tile_of(s, a["to"])
        if not (k in goals or _passable(s, seat, hid, k, bold)) or (not hunt and _near_monster(s, k, here)):
            continue
        d = _dist_from(s, [k], None, goals, hid, bold)
        if d < now and (best is None or (d, str(a["to"])) < best[:2]):
            best = (d, str(a["to"]), a)
    return best[2] if best is not None else None


def _near_monster(s: State, k: str, here: str) -> bool:
    """Whether a primary monster stands next to `k` (an opportunity attack or its next prey) but not next to us."""
    for mon in s["monsters"].values():
        at = mon["at"]
        if at is None or mon["kind"] != "primary":
            continue
        if at in adjacent_keys(s, k) and at not in adjacent_keys(s, here):
            return True
    return False

