"""Movement: steps that spend the 2d6 exactly, terrain costs, covered squares, the zone penalty, teleport."""

from __future__ import annotations

from rules.gorgasali.board import DIAG, ORTHO, Board
from rules.gorgasali.data import RULES, SUPPORT
from rules.gorgasali.engine import (
    Ctx,
    State,
    barrier_squares,
    damage,
    heal,
    inactive,
    occupant,
    open_chest,
    square,
    vacant,
    zone_penalty,
)
from rules.text import Msg, SeatRef, msg

COSTS = {k: int(v) for k, v in RULES["terrain_cost"].items()}
TELEPORT_REACH = int(SUPPORT["teleport"].values["reach"])


def cost(s: State, board: Board, sq: int) -> int:
    ch = board.terrain[sq]
    if ch in s["t"]["mods"]:
        return 1
    return COSTS.get(ch, 1)


def directions(s: State) -> list[str]:
    return [*ORTHO, *DIAG] if s["t"]["compass"] else list(ORTHO)


def step_refusal(s: State, board: Board, seat: int, d: str, pos: int | None = None,
                 seen: list[int] | None = None, points: int | None = None) -> Msg | None:
    """Why a step in direction `d` is refused now (or from `pos` with `seen` and `points` left), or None."""
    t = s["t"]
    if d not in directions(s):
        return msg("gg.err.direction")
    here = square(s["players"][seat]) if pos is None else pos
    seen = t["seen"] if seen is None else seen
    points = t["points"] if points is None else points
    to = board.step(here, d)
    if to is None:
        return msg("gg.err.off_board")
    if board.is_tree(to) or to in barrier_squares(s):
        return msg("gg.err.blocked", at=board.name(to))
    if occupant(s, to) not in (None, seat):
        return msg("gg.err.occupied", at=board.name(to))
    if to in seen or (not seen and to == s["players"][seat]["pos"]):
        return msg("gg.err.covered", at=board.name(to))
    if cost(s, board, to) > points:
        return msg("gg.err.too_costly", at=board.name(to), cost=cost(s, board, to), points=points)
    return None


def legal_steps(s: State, board: Board, seat: int, pos: int | None = None, seen: list[int] | None = None,
                points: int | None = None) -> list[str]:
    return [d for d in directions(s) if step_refusal(s, board, seat, d, pos, seen, points) is None]


def path_refusal(s: State, board: Board, seat: int, dirs: tuple[str, ...]) -> Msg | None:
    """Why these steps cannot all be taken now, without applying them: each must be legal where the
    previous one left the figure, and the movement must not end before the last one."""
    if not dirs:
        return msg("gg.err.empty_path")
    pos = square(s["players"][seat])
    seen = list(s["t"]["seen"]) or [pos]
    points = s["t"]["points"]
    for i, d in enumerate(dirs):
        if not isinstance(d, str):
            return msg("gg.err.direction")
        why = step_refusal(s, board, seat, d, pos, seen, points)
        if why:
            return why
        to = board.step(pos, d)
        assert to is not None
        points -= cost(s, board, to)
        seen.append(to)
        pos = to
        if i < len(dirs) - 1 and (points == 0 or not legal_steps(s, board, seat, pos, seen, points)):
            return msg("gg.err.movement_ends", at=board.name(pos))
    return None


def begin(ctx: Ctx, seat: int) -> None:
    """The first step or teleport: the figure leaves its square, ending its smoke (A-34)."""
    t = ctx.turn_flags
    if not t["seen"]:
        t["seen"].append(square(ctx.fighter(seat)))
    leave_smoke(ctx, seat)
    if t["kswap"] is not None and t["kswap"]["user"] == seat:
        t["kswap"]["moved"] = True


def leave_smoke(ctx: Ctx, seat: int) -> None:
    before = len(ctx.state["banners"])
    ctx.state["banners"] = [b for b in ctx.state["banners"] if not (b["kind"] == "smoke" and b["owner"] == seat)]
    if len(ctx.state["banners"]) != before:
        ctx.say("gg.ev.smoke_ends", seat=SeatRef(seat))


def do_step(ctx: Ctx, seat: int, d: str) -> None:
    s, t, board = ctx.state, ctx.turn_flags, ctx.board
    begin(ctx, seat)
    p = ctx.fighter(seat)
    to = board.step(square(p), d)
    assert to is not None
    t["points"] -= cost(s, board, to)
    t["seen"].append(to)
    t["moved"] = True
    t["stage"] = "moving"
    p["pos"] = to
    if inactive(s, board, to):
        damage(ctx, seat, zone_penalty(s), None, "zone", "zone")
    if not p["alive"]:
        return
    if t["points"] == 0 or not legal_steps(s, board, seat):
        finish(ctx, seat)


def teleport(ctx: Ctx, seat: int, to: int) -> None:
    s, t, board = ctx.state, ctx.turn_flags, ctx.board
    begin(ctx, seat)
    p = ctx.fighter(seat)
    ctx.say("gg.ev.teleport", seat=SeatRef(seat), src=board.name(square(p)), to=board.name(to))
    p["pos"] = to
    t["seen"].append(to)
    t["teleported"] = True
    if inactive(s, board, to):
        damage(ctx, seat, zone_penalty(s), None, "zone", "zone")


def teleport_refusal(s: State, board: Board, seat: int, to: int) -> Msg | None:
    here = square(s["players"][seat])
    hr, hc = board.row_col(here)
    tr, tc = board.row_col(to)
    reach = TELEPORT_REACH
    if (hr == tr) == (hc == tc) or board.dist(here, to) > reach:
        return msg("gg.err.teleport_line", reach=reach)
    if not vacant(s, board, to) or to in s["t"]["seen"]:
        return msg("gg.err.not_vacant", at=board.name(to))
    return None


def finish(ctx: Ctx, seat: int) -> None:
    """Movement ends where the figure stands: a chest opens, a healing point heals on arrival (A-12)."""
    s, t, board = ctx.state, ctx.turn_flags, ctx.board
    p = ctx.fighter(seat)
    t["stage"] = "after"
    if t["moved"]:
        ctx.say("gg.ev.moved", seat=SeatRef(seat), path=" ".join(board.name(q) for q in t["seen"]))
    here = square(p)
    if here in s["chests"]:
        s["chests"].remove(here)
        open_chest(ctx, seat, extra=False)
    if board.is_heal(here) and (t["moved"] or t["teleported"]):
        heal(ctx, seat, int(RULES["healing_point"]), "healing_point")
