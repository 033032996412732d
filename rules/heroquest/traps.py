"""Springing, finding and disarming traps: pits, falling rocks, arrows, axes, pits of darkness, slippery stairs."""

from __future__ import annotations

from rules.heroquest import board, catalog
from rules.heroquest.combat import count_skulls
from rules.heroquest.dice import WHITE_SHIELD, roll_text
from rules.heroquest.shapes import BoardObject, Hero
from rules.heroquest.state import Ctx, HQState, hero_label, hero_square
from rules.heroquest.turns import damage_hero, die
from rules.text import Msg, msg

PIT_KINDS = frozenset({"pit", "dark_pit"})
#: Traps nobody can find by searching or disarm.
UNSEARCHABLE = frozenset({"slippery"})


def active(o: BoardObject) -> bool:
    return o["kind"] == "trap" and not o.get("disarmed")


def hidden_trap_at(s: HQState, sq: tuple[int, int]) -> BoardObject | None:
    for o in s.traps_at(sq):
        if not o["found"] and not o["sprung"] and o["trap"] != "furniture":
            return o
    return None


def known_trap_at(s: HQState, sq: tuple[int, int]) -> BoardObject | None:
    """A found (not yet sprung) trap or an open pit on `sq`: the heroes know it is there."""
    for o in s.traps_at(sq):
        if o["trap"] != "furniture" and (o["found"] or (o["sprung"] and o["trap"] in PIT_KINDS)):
            return o
    return None


def in_pit(s: HQState, sq: tuple[int, int] | None) -> bool:
    if sq is None:
        return False
    return any(o["sprung"] and o["trap"] in PIT_KINDS for o in s.traps_at(sq))


def spring(ctx: Ctx, trap: BoardObject, h: Hero, deliberate: bool = False) -> None:
    """Apply a trap to the hero who set it off (the hero already stands on it when it is a floor trap).

    Every die rolled for a trap is announced with what it did.
    """
    kind = trap["trap"]
    trap["found"] = True
    trap["sprung"] = True
    trap["revealed"] = True
    ctx.undoable = False
    name = _trap_name(kind)
    ctx.say("hq.ev.trap_sprung", hero=hero_label(h), trap=name)

    def rolled(count: int) -> int:
        faces = ctx.roll(count)
        damage = count_skulls(faces)
        ctx.say("hq.ev.trap_roll", trap=name, roll=roll_text(faces), damage=damage)
        return damage

    if kind in PIT_KINDS:
        if deliberate:
            damage = rolled(1)
        else:
            damage = 1
            if kind == "dark_pit":
                armour = catalog.equipment().get(h["armour"] or "")
                weight = None if armour is None else armour.get("weight")
                extra = {"medium": 1, "heavy": 2}.get(weight or "", 0)
                damage += rolled(extra) if extra else 0
        damage_hero(ctx, h, damage)
    elif kind == "rock":
        helmet = 1 if h["helmet"] else 0
        damage = rolled(3 - helmet)
        _drop_rock(ctx, trap, h)
        if not h["dead"]:
            damage_hero(ctx, h, damage)
    elif kind == "axe":
        damage = rolled(2)
        trap["disarmed"] = True
        damage_hero(ctx, h, damage)
    elif kind == "slippery":
        face = ctx.roll(1)[0]
        slides = face == WHITE_SHIELD
        ctx.say("hq.ev.slippery_roll", hero=hero_label(h), roll=roll_text([face]),
                result=msg("hq.ev.slips" if slides else "hq.ev.keeps_footing"))
        if slides:
            _slide(ctx, trap, h)
            damage_hero(ctx, h, 1)
        else:
            trap["sprung"] = False
    else:
        # arrows, unknown traps and traps in furniture: one die, a skull wounds; spent afterwards.
        damage = rolled(1)
        trap["disarmed"] = True
        damage_hero(ctx, h, damage)


def _trap_name(kind: str) -> Msg:
    return msg(f"hq.trap.{kind}")


def _drop_rock(ctx: Ctx, trap: BoardObject, h: Hero) -> None:
    """The rock blocks the square; the hero steps to a free adjacent square (dies when there is none)."""
    s = ctx.state
    sq = hero_square(h)
    trap["disarmed"] = True
    uid = f"rock_{trap['uid']}"
    s.objects[uid] = {"uid": uid, "kind": "rock", "ref": "fallen_rock", "squares": [list(sq)], "rotation": "downward",
                      "between": None, "note": None, "revealed": True}
    options = free_steps(s, sq)
    if not options:
        die(ctx, h)
        return
    if len(options) == 1:
        h["sq"] = list(options[0])
    else:
        h["sq"] = list(options[0])
        s.d["pending"].append({"kind": "rock_step", "hero": h["uid"], "options": [list(q) for q in options]})


def free_steps(s: HQState, sq: tuple[int, int]) -> list[tuple[int, int]]:
    blocked = s.blocked_squares()
    figures = s.figure_at()
    open_edges = s.open_edges()
    return [n for n in board.orthogonal(sq)
            if board.passable(sq, n, open_edges) and n not in blocked and n not in figures and n not in s.dark]


_DIR = {"downward": (1, 0), "upward": (-1, 0), "rightward": (0, 1), "leftward": (0, -1)}


def _slide(ctx: Ctx, trap: BoardObject, h: Hero) -> None:
    s = ctx.state
    dr, dc = _DIR.get(trap["rotation"], (1, 0))
    sq = hero_square(h)
    blocked = s.blocked_squares()
    open_edges = s.open_edges()
    while True:
        nxt = (sq[0] + dr, sq[1] + dc)
        if not board.passable(sq, nxt, open_edges) or nxt in blocked or nxt in s.figure_at():
            break
        sq = nxt
    h["sq"] = list(sq)


def disarm_fail_faces(s: HQState, has_kit: bool) -> tuple[str, ...]:
    """Faces that make a disarm attempt fail (provisional odds, see RULES_NOTES)."""
    original = s.d["opts"]["die"] == "original"
    if has_kit:
        return ("bshield",) if original else ("bskull",)
    return ("wskull",) if original else ("bskull", "wskull")
