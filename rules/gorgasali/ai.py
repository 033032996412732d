"""Gorgasali bots: loot chests inside the zone, heal when hurt, shoot the weakest enemy in reach, then close in."""

from __future__ import annotations

import heapq

from rules.base import Action, Game, LegalAction, by_kind
from rules.gorgasali import ai_plan, movement
from rules.gorgasali.board import ORTHO, Board, board_of
from rules.gorgasali.data import SUPPORT, WEAPONS
from rules.gorgasali.engine import enemies, inactive, square, teammate
from rules.gorgasali.state import State
from rules.rng import Rng

RARITY = {"common": 0, "rare": 1, "epic": 2, "legendary": 3}
#: For each AI level, the share (in %) of the bot's choices made at random among the legal moves: "hard" is the
#: bot itself.
RANDOM_SHARE = {"easy": 50, "normal": 20, "hard": 0}


def choose(game: Game, s: State, seat: int, rng: Rng, level: str = "normal") -> Action:
    legal = game.legal_actions(s, seat)
    if not legal:
        return Action.of("end")
    return _choose(s, seat, legal, rng, level)


def _choose(s: State, seat: int, legal: list[LegalAction], rng: Rng, level: str = "normal") -> Action:
    share = RANDOM_SHARE.get(level, RANDOM_SHARE["normal"])
    if share and rng.below(100) < share:
        return rng.choice(legal).action
    by = by_kind(legal)
    if "place" in by:
        return _place(s, by["place"])
    if "accept" in by:
        return Action.of("accept")
    if "pick" in by and level == "hard":
        return ai_plan.pick(by["pick"])
    if "pick" in by or ("imitate" in by and s["phase"] == "octor"):
        return rng.choice(legal).action
    stage = s["t"].get("stage")
    if stage == "strike":
        shot = s["t"]["shot"]
        assert shot is not None  # (the "strike" stage keeps the shot)
        faces = shot["faces"]
        return Action.of("reroll", dice=[i for i, f in enumerate(faces) if f <= 3])
    if stage == "dober":
        return Action.of("dober_done")
    me = s["players"][seat]
    pick = _ability(s, seat, by) or _open_chest(by)
    if pick:
        return pick
    if stage == "start":
        return _start(s, seat, by) or (by["roll"] if "roll" in by else by["skip"])[0]
    if stage in ("rolled", "moving"):
        return _plan_move(s, seat, by) if level == "hard" else _move(s, seat, by, rng)
    # after the movement
    if level == "hard" and "shoot" in by and "revive" not in by:
        board = board_of(s["board"])
        return max(by["shoot"], key=lambda a: ai_plan.shot_value(s, seat, a, board))
    for kind in ("revive", "shoot", "throw"):
        if kind in by:
            best = _best_target(s, by[kind], kind)
            if best is not None:
                return best
    if "reload" in by:
        return Action.of("reload")
    if "defend" in by:
        near = _nearest_enemy(s, seat)
        if near is not None and near <= 4:
            quiet = [a for a in by["defend"] if a.get("orient") is None]
            if quiet:
                return quiet[0]
    if "arrange" in by and me["mat"]["consumable"]["p"] and len(me["mat"]["consumable"]["a"]) < 2:
        return by["arrange"][0]
    return Action.of("end")


def _value(s: State, cid: str) -> int:
    key = s["cards"][cid]
    if cid[0] == "w":
        w = WEAPONS[key]
        return 10 + RARITY[w.rarity] * 10 + w.range
    return RARITY[SUPPORT[key].rarity]


def _place(s: State, options: list[Action]) -> Action:
    new = options[0]["card"]
    replaceable = [a for a in options if a["into"] != "discard"]
    worst = min(replaceable, key=lambda a: _value(s, a["into"]), default=None)
    if worst is not None and _value(s, worst["into"]) < _value(s, new):
        return worst
    return next(a for a in options if a["into"] == "discard")


def _open_chest(by: dict[str, list[Action]]) -> Action | None:
    return by["chest"][0] if "chest" in by else None


def _ability(s: State, seat: int, by: dict[str, list[Action]]) -> Action | None:
    options = by.get("ability", [])
    if not options:
        return None
    me = s["players"][seat]
    plain = [a for a in options if not a.args]
    if plain:
        ability = me["copy"]["ability"] if me["char"] == "octor" and me["copy"] else None
        if me["char"] == "medea" or ability == "heal":
            return plain[0] if me["hp"] <= 80 else None
        return plain[0] if _nearest_enemy(s, seat) is not None and (_nearest_enemy(s, seat) or 9) <= 3 else None
    hurting = [a for a in options if a.get("target") is not None and enemies(s, seat, a["target"])]
    if not hurting:
        return None
    # two targets when possible, then the weakest
    return min(hurting, key=lambda a: (a.get("second") is None, s["players"][a["target"]]["hp"]))


def _start(s: State, seat: int, by: dict[str, list[Action]]) -> Action | None:
    me = s["players"][seat]
    if "potion" in by and me["hp"] <= 60:
        return max(by["potion"], key=lambda a: int(SUPPORT[s["cards"][a["card"]]].values["heal"]))
    if "ammo" in by and any(w in s["unloaded"] for w in me["mat"]["weapon"]["a"]):
        return by["ammo"][0]
    return None


def _best_target(s: State, options: list[Action], kind: str) -> Action | None:
    if kind == "revive":
        return options[0]
    if kind == "throw":
        aimed = [a for a in options if a.get("target") is not None]
        if aimed:
            return min(aimed, key=lambda a: s["players"][a["target"]]["hp"])
        return None
    # shoot: the weakest enemy, with an extension when there is one
    return min(options, key=lambda a: (s["players"][a["target"]]["hp"], a.get("ext") is None))


def _nearest_enemy(s: State, seat: int) -> int | None:
    board = board_of(s["board"])
    me = square(s["players"][seat])
    dists = [board.dist(me, square(o)) for o in s["players"]
             if o["alive"] and o["seat"] != seat and enemies(s, seat, o["seat"])]
    return min(dists, default=None)


def _goals(s: State, seat: int, board: Board) -> list[int]:
    """Where to head: open chests in the zone that stays active longest, else the enemies, else the centre."""
    safe = [q for q in s["chests"] if board.zone[q] > s["zone"] + 1]
    if safe:
        return safe
    mate = teammate(s, seat)
    ghost = s["players"][mate]["ghost"] if mate is not None and not s["players"][mate]["alive"] else None
    if ghost is not None:
        return [ghost]
    foes = [square(o) for o in s["players"] if o["alive"] and enemies(s, seat, o["seat"])]
    return foes or [(board.h // 2) * board.w + board.w // 2]


def _distances(s: State, board: Board, goals: list[int]) -> dict[int, int]:
    """Cost to reach the nearest goal from every square (terrain costs, inactive squares dearer)."""
    dist = {g: 0 for g in goals}
    heap = [(0, g) for g in goals]
    while heap:
        d, q = heapq.heappop(heap)
        if d > dist.get(q, 1 << 30):
            continue
        step_cost = movement.COSTS.get(board.terrain[q], 1) + (6 if inactive(s, board, q) else 0)
        for direction in ORTHO:
            n = board.step(q, direction)
            if n is None or board.is_tree(n):
                continue
            nd = d + step_cost
            if nd < dist.get(n, 1 << 30):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


def _forced_move(s: State, here: object, by: dict[str, list[Action]]) -> Action | None:
    """The move every level makes without weighing: stop on a chest, or skip/stop/roll with no step to take."""
    if "stop" in by and here in s["chests"]:
        return Action.of("stop")
    if not by.get("step"):
        return by["skip"][0] if "skip" in by else by["stop"][0] if "stop" in by else by["roll"][0]
    return None


def _move(s: State, seat: int, by: dict[str, list[Action]], rng: Rng) -> Action:
    board = board_of(s["board"])
    here = square(s["players"][seat])
    forced = _forced_move(s, here, by)
    if forced is not None:
        return forced
    steps = by["step"]
    dist = _distances(s, board, _goals(s, seat, board))
    if "skip" in by and not inactive(s, board, here) and dist.get(here, 0) == 0:
        return Action.of("skip")

    def score(a: Action) -> tuple[int, int]:
        to = board.step(here, a["dir"])
        assert to is not None
        return dist.get(to, 1 << 30), rng.below(4)

    return min(steps, key=score)


def _plan_move(s: State, seat: int, by: dict[str, list[Action]]) -> Action:
    """The hard bot's movement: the step toward the best square its movement can end on (ai_plan.Planner)."""
    board = board_of(s["board"])
    here = square(s["players"][seat])
    forced = _forced_move(s, here, by)
    if forced is not None:
        return forced
    steps = by["step"]
    planner = ai_plan.Planner(s, seat, board, _distances(s, board, _goals(s, seat, board)))
    stay = (lambda: planner.value(here)) if "skip" in by else None
    return planner.best_step(s["t"]["points"], s["t"]["seen"], steps, stay)
