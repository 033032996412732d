"""The hard Gorgasali bot's judgement: a strong character, the shot with the best expected damage, and where its
movement should end.

Movement is planned by a bounded search over (square, movement points left) from where the figure stands: every
square the movement could end on is valued (a shot it allows, the enemies that could reach and shoot it there,
the zone, a chest, a healing point, the way toward the bot's long-run goal) and the step that leads to the best
end is taken. The search is exhaustive over (square, points left) states, bounded by the squares the rolled points
can reach (12 points: at most 13 x 313 states; each square valued once), so its cost has a fixed ceiling whatever
the position; it reads no clock and draws no randomness."""

from __future__ import annotations

from collections.abc import Callable

from rules.base import Action
from rules.gorgasali import movement
from rules.gorgasali.board import Board
from rules.gorgasali.combat import SCOUT_MIN
from rules.gorgasali.data import CHARACTERS, RULES, WEAPONS
from rules.gorgasali.engine import (
    barrier_squares,
    blockers,
    enemies,
    has_smoke,
    inactive,
    on_banner,
    square,
    zone_penalty,
)
from rules.gorgasali.state import State

#: The hard bot's order of preference when it picks its character (measured against aggressive fighters:
#: tools/gg_endings.py; NOTES in the report).
PREFERRED = ("emoon", "armazi", "drain", "medea", "tharsis", "tsiva", "kruber", "varas", "octor", "ebue")
#: What a chest on the square the movement ends on is worth (a weapon and two support cards).
CHEST_VALUE = 14.0
#: Per square of the long-run way (to chests in the zone that stays longest, then the enemies).
GOAL_WEIGHT = 0.6
DRAIN_PER_DIE = int(CHARACTERS["drain"].values["per_die"])
CLOSES = [int(x) for x in RULES["zone_closes_after"]]


def pick(options: list[Action]) -> Action:
    free = {a["char"]: a for a in options}
    for char in PREFERRED:
        if char in free:
            return free[char]
    return options[0]


#: The chance that two dice sum to at least n, for n from 0 to 13.
_AT_LEAST = tuple(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= n) / 36 for n in range(14))


def _two_dice_at_least(need: int) -> float:
    return _AT_LEAST[min(max(need, 0), 13)]


def expected_raw(s: State, seat: int, wid: str, target: int, dist: int, ext: str | None, diagonal: bool) -> float:
    """The weapon's expected raw damage on `target` at range `dist` (before armour), with extension `ext`."""
    w = WEAPONS[s["cards"][wid]]
    ext_key = s["cards"][ext] if ext else None
    platform = on_banner(s, s["players"][target]["pos"], "platform")
    drains = s["players"][seat]["char"] == "drain" and s["players"][target]["char"] != "emoon"
    if w.unit:
        dice = w.dice + (1 if ext_key == "extra_six" else 0)
        face = 4.25 if ext_key == "strike_option" else 3.5
        face -= 1 if platform else 0
        unit = int(RULES["ibex_diagonal_unit"]) if w.special == "diagonal" and diagonal else w.unit
        raw = dice * face * unit
        if w.special == "seven" and dice == 2:
            raw += (int(RULES["seven_as"]) - 7) * unit / 6
        high = 0.5 if ext_key == "strike_option" else 1 / 3
        if w.special == "fives":
            raw += int(RULES["kbraus_bonus"]) * dice * high
        if drains:
            raw += DRAIN_PER_DIE * dice * high
        return raw
    if w.group == "massive":
        need = w.min + (1 if platform else 0)
        p = max(0, 7 - need) / 6
        if ext_key == "second_chance":
            p = 1 - (1 - p) ** 2
        raw = p * w.fixed
        if w.special == "leech":
            raw += p * int(RULES["jalugar_heal"])
    else:
        if not 1 <= dist <= len(SCOUT_MIN):
            return 0.0
        need = SCOUT_MIN[dist - 1] - (int(RULES["eagle_eye"]) if ext_key == "eagle_eye" else 0) \
            + (2 if platform else 0)
        p = _two_dice_at_least(need)
        raw = p * w.fixed
        if w.special == "eleven":
            raw += _two_dice_at_least(int(RULES["kondor_sum"]) + (2 if platform else 0)) * int(RULES["kondor_bonus"])
    if drains:
        raw += DRAIN_PER_DIE * w.dice / 3
    return raw


def after_armour(s: State, target: int, raw: float, pierce: bool) -> float:
    o = s["players"][target]
    if on_banner(s, o["pos"], "field"):
        raw /= 2
    if not pierce:
        absorb = (10 if o["mat"]["helmet"]["a"] else 0) + (20 if o["mat"]["body"]["a"] else 0)
        raw = max(0.0, raw - absorb * 0.6)
    return raw


def shot_value(s: State, seat: int, a: Action, board: Board) -> float:
    """How good a listed shot is: the expected damage (up to the target's hit points), much more when it is
    likely to eliminate the target (whose cards the shooter takes), a little more on a weaker target; an
    extension spent is a small cost."""
    here = square(s["players"][seat])
    o = s["players"][a["target"]]
    hr, hc = board.row_col(here)
    tr, tc = board.row_col(square(o))
    w = WEAPONS[s["cards"][a["weapon"]]]
    raw = expected_raw(s, seat, a["weapon"], a["target"], board.dist(here, square(o)), a.get("ext"),
                       abs(hr - tr) == abs(hc - tc))
    dmg = after_armour(s, a["target"], raw, w.special == "pierce")
    return min(dmg, o["hp"]) + (25 if dmg >= o["hp"] else 0) + (100 - o["hp"]) / 20 - (3 if a.get("ext") else 0)


def foe_threat(s: State, foe: int) -> tuple[int, float]:
    """An enemy's longest loaded reach and the expected damage of its best weapon (an unloaded one counts a
    third: it may reload instead)."""
    o = s["players"][foe]
    reach, best = 0, 0.0
    for wid in o["mat"]["weapon"]["a"]:
        w = WEAPONS[s["cards"][wid]]
        raw = (w.dice * 3.5 * w.unit) if w.unit else w.fixed * 0.55
        loaded = wid not in s["unloaded"]
        best = max(best, raw if loaded else raw / 3)
        reach = max(reach, w.range)
    return reach, best


def move_chance(need: int) -> float:
    """The chance that two dice give at least `need` movement points (no terrain)."""
    return 1.0 if need <= 0 else _two_dice_at_least(need) if need <= 12 else 0.0


class Planner:
    """Values the squares the bot's movement could end on, and searches the steps that lead there."""

    def __init__(self, s: State, seat: int, board: Board, goal_dist: dict[int, int]) -> None:
        self.s, self.seat, self.board, self.goal_dist = s, seat, board, goal_dist
        me = s["players"][seat]
        self.me = me
        self.foes = [o["seat"] for o in s["players"] if o["alive"] and o["pos"] is not None
                     and enemies(s, seat, o["seat"])]
        self.foe_squares = {f: square(s["players"][f]) for f in self.foes}
        self.loaded = [w for w in me["mat"]["weapon"]["a"] if w not in s["unloaded"]]
        self.threats = {f: foe_threat(s, f) for f in self.foes}
        self.blocking = blockers(s, board)
        self.penalty = zone_penalty(s)
        self.closing = s["zone"] < len(CLOSES) and s["round"] >= CLOSES[s["zone"]]
        self.armour = (10 if me["mat"]["helmet"]["a"] else 0) + (20 if me["mat"]["body"]["a"] else 0)
        self._values: dict[int, float] = {}

    def value(self, sq: int) -> float:
        if sq not in self._values:
            self._values[sq] = self._value(sq)
        return self._values[sq]

    def _value(self, sq: int) -> float:
        s, board, me = self.s, self.board, self.me
        v = -GOAL_WEIGHT * self.goal_dist.get(sq, 60)
        if inactive(s, board, sq):
            v -= 3 * self.penalty + 25
        elif self.closing and board.zone[sq] == s["zone"] + 1:
            v -= 12
        if sq in s["chests"]:
            v += CHEST_VALUE
        if board.is_heal(sq) and sq != me["pos"]:
            v += min(20, 100 - me["hp"]) * 0.8
        # the best shot from here
        best = 0.0
        sr, sc = board.row_col(sq)
        for f in self.foes:
            o = s["players"][f]
            d = board.dist(sq, self.foe_squares[f])
            if has_smoke(s, f):
                continue
            for wid in self.loaded:
                w = WEAPONS[s["cards"][wid]]
                if d > w.range or not board.clear_view(sq, self.foe_squares[f], self.blocking):
                    continue
                tr, tc = board.row_col(self.foe_squares[f])
                dmg = after_armour(s, f, expected_raw(s, self.seat, wid, f, d, None, abs(sr - tr) == abs(sc - tc)),
                                   w.special == "pierce")
                best = max(best, min(dmg, o["hp"]) + (25 if dmg >= o["hp"] else 0) + (100 - o["hp"]) / 20)
        v += best
        # the enemies that could come into reach and shoot here on their turn
        danger = 0.0
        for f in self.foes:
            o = s["players"][f]
            reach, dmg = self.threats[f]
            if not dmg:
                continue
            fr, fc = board.row_col(self.foe_squares[f])
            need = max(0, abs(fr - sr) - reach) + max(0, abs(fc - sc) - reach)
            mine = board.dist(self.foe_squares[f], sq)
            nearer = any(board.dist(self.foe_squares[f], self.foe_squares[g]) < mine for g in self.foes if g != f)
            danger += move_chance(need) * max(0.0, dmg - self.armour * 0.6) * (0.35 if nearer else 1.0)
            if o["char"] == "tharsis" and mine == 1 and me["char"] != "emoon":
                danger += 10
        weight = 0.5 if me["hp"] > 60 else 0.8 if me["hp"] > 30 else 1.1
        return v - weight * danger

    def best_step(self, points: int, seen: list[int], options: list[Action],
                  stay: Callable[[], float] | None) -> Action:
        """The step (or `stay`'s choice, None) whose best reachable end is worth most."""
        s, board, seat = self.s, self.board, self.seat
        here = square(self.me)
        blocked = set(seen) | {here} | barrier_squares(s)
        occupied = {o["pos"] for o in s["players"] if o["alive"] and o["seat"] != seat and o["pos"] is not None}
        blocked |= occupied
        dirs = movement.directions(s)
        death = self.me["hp"]
        memo: dict[tuple[int, int], float] = {}

        def step_loss(to: int) -> float:
            if inactive(s, board, to):
                return 1000.0 if self.penalty >= death else 3.0 * self.penalty + 10
            return 0.0

        def best_end(sq: int, left: int) -> float:
            key = (sq, left)
            if key in memo:
                return memo[key]
            best = None
            for d in dirs:
                to = board.step(sq, d)
                if to is None or to in blocked or board.is_tree(to):
                    continue
                c = movement.cost(s, board, to)
                if c > left:
                    continue
                val = (self.value(to) if left - c == 0 else best_end(to, left - c)) - step_loss(to)
                best = val if best is None or val > best else best
            if best is None:
                out = self.value(sq)
            elif sq in s["chests"]:
                out = max(best, self.value(sq))
            else:
                out = best
            memo[key] = out
            return out

        scored: list[tuple[float, int, Action]] = []
        for i, a in enumerate(options):
            to = board.step(here, a["dir"])
            if to is None:
                continue
            c = movement.cost(s, board, to)
            val = (self.value(to) if points - c == 0 else best_end(to, points - c)) - step_loss(to)
            scored.append((val, -i, a))
        best = max(scored, key=lambda x: (x[0], x[1]))
        if stay is not None and stay() >= best[0]:
            return Action.of("skip")
        return best[2]
