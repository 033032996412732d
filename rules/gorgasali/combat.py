"""Weapons, throwables and defensive banners: targeting, the dice, and the rulebook's order of resolution."""

from __future__ import annotations

from rules.gorgasali.board import ORTHO, Board
from rules.gorgasali.data import CHARACTERS, RULES, SUPPORT, WEAPONS, Weapon
from rules.gorgasali.engine import (
    Ctx,
    ability_of,
    barrier_squares,
    blockers,
    damage,
    enemies,
    has_smoke,
    heal,
    occupant,
    on_banner,
    square,
    use_card,
    vacant,
)
from rules.gorgasali.movement import leave_smoke
from rules.gorgasali.state import PendingShot, State
from rules.text import Msg, SeatRef, msg

SCOUT_MIN = [int(x) for x in RULES["scout_min"]]
RULES_DRAIN = CHARACTERS["drain"].values
BANNER_OF = {"barrier": "barrier", "ball": "ball", "platform": "platform", "field": "field"}


def weapon(s: State, cid: str) -> Weapon:
    return WEAPONS[s["cards"][cid]]


def target_refusal(s: State, board: Board, seat: int, target: object, low: int, high: int,
                   weapon_shot: bool) -> Msg | None:
    """Why `target` cannot be aimed at with a card now: enemy, alive, in range, clear view, smoke."""
    if not isinstance(target, int) or not 0 <= target < s["n"]:
        return msg("gg.err.no_such_target")
    o = s["players"][target]
    if not o["alive"] or not enemies(s, seat, target):
        return msg("gg.err.not_enemy", seat=SeatRef(target))
    if weapon_shot and has_smoke(s, target):
        return msg("gg.err.smoke", seat=SeatRef(target))
    here = square(s["players"][seat])
    dist = board.dist(here, square(o))
    if not low <= dist <= high:
        return msg("gg.err.range", seat=SeatRef(target), dist=dist, low=low, high=high)
    if not board.clear_view(here, square(o), blockers(s, board)):
        return msg("gg.err.no_view", seat=SeatRef(target))
    return None


# ---------------------------------------------------------------- weapons


def shoot(ctx: Ctx, seat: int, wid: str, target: int, ext: str | None) -> None:
    s, t = ctx.state, ctx.turn_flags
    w = weapon(s, wid)
    t["main"] = "shoot"
    ext_key = None
    if ext:
        ext_key = s["cards"][ext]
        use_card(ctx, seat, ext)
        t["consumable"] = True
    n = w.dice + (1 if ext_key == "extra_six" else 0)
    faces = [ctx.die() for _ in range(n)]
    shot: PendingShot = {"w": wid, "target": target, "ext": ext_key, "faces": faces,
            "range": ctx.board.dist(square(ctx.fighter(seat)), square(ctx.fighter(target)))}
    ctx.say("gg.ev.shoot", seat=SeatRef(seat), target=SeatRef(target), weapon=msg(f"gg.card.{w.id}"),
            dice=" ".join(map(str, faces)))
    if ext_key == "strike_option":
        t["stage"] = "strike"
        t["shot"] = shot
        return
    resolve(ctx, seat, shot)


def reroll(ctx: Ctx, seat: int, which: tuple[int, ...]) -> None:
    shot = ctx.turn_flags["shot"]
    assert shot is not None  # (the "strike" stage keeps the shot)
    for i in sorted(set(which)):
        shot["faces"][i] = ctx.die()
    if which:
        ctx.say("gg.ev.reroll", seat=SeatRef(seat), dice=" ".join(map(str, shot["faces"])))
    ctx.turn_flags["shot"] = None
    resolve(ctx, seat, shot)


def effective(s: State, target: int, faces: list[int]) -> list[int]:
    if on_banner(s, s["players"][target]["pos"], "platform"):
        return [max(0, f - 1) for f in faces]
    return list(faces)


def resolve(ctx: Ctx, seat: int, shot: PendingShot) -> None:
    """Steps 4-13 of §4.2 once the dice are final (after Strike Option)."""
    s, t, board = ctx.state, ctx.turn_flags, ctx.board
    w = weapon(s, shot["w"])
    target = shot["target"]
    faces = shot["faces"]
    eff = effective(s, target, faces)
    raw = 0
    if w.unit:
        hit = True
        total = sum(eff)
        if w.special == "seven" and total == 7:
            total = int(RULES["seven_as"] if len(eff) == 2 else RULES["seven_as_three_dice"])
        unit = w.unit
        sr, sc = board.row_col(square(ctx.fighter(seat)))
        tr, tc = board.row_col(square(ctx.fighter(target)))
        if w.special == "diagonal" and abs(sr - tr) == abs(sc - tc):
            unit = int(RULES["ibex_diagonal_unit"])
        raw = total * unit
        if w.special == "fives":
            raw += int(RULES["kbraus_bonus"]) * sum(1 for e in eff if e >= int(RULES["kbraus_face"]))
    else:
        hit = _fixed_hits(w, eff, shot)
        if not hit and shot["ext"] == "second_chance":
            faces = [ctx.die() for _ in range(w.dice)]
            eff = effective(s, target, faces)
            ctx.say("gg.ev.second_chance", seat=SeatRef(seat), dice=" ".join(map(str, faces)))
            hit = _fixed_hits(w, eff, shot)
        if hit:
            raw = w.fixed
            if w.special == "eleven" and sum(eff) >= int(RULES["kondor_sum"]):
                raw += int(RULES["kondor_bonus"])
    keep = w.special == "keep_loaded" and eff[0] >= int(RULES["tochinator_keep"])
    if not keep:
        s["unloaded"].append(shot["w"])
    leave_smoke(ctx, seat)
    s["last"] = {"shooter": seat, "target": target, "weapon": shot["w"], "dice": faces, "eff": eff, "hit": hit,
                 "raw": raw}
    if eff != faces:
        ctx.say("gg.ev.platform", dice=" ".join(map(str, eff)))
    if not hit:
        ctx.say("gg.ev.miss", seat=SeatRef(seat), target=SeatRef(target))
    else:
        damage(ctx, target, raw, seat, "pierce" if w.special == "pierce" else "card", "weapon")
        drains = ability_of(s, seat) == "drain" or t["drain"]
        if drains and s["players"][target]["char"] != "emoon" and s["winners"] is None:
            bonus = int(RULES_DRAIN["per_die"]) * sum(1 for f in faces if f > int(RULES_DRAIN["above"]))
            if bonus:
                damage(ctx, target, bonus, seat, "ability", "drain")
                heal(ctx, seat, bonus, "drain")
        if w.special == "leech" and ctx.fighter(seat)["alive"]:
            heal(ctx, seat, int(RULES["jalugar_heal"]), "jalugar")
    t["drain"] = False
    t["stage"] = "after"
    if w.special == "dober" and sum(eff) >= int(RULES["dober_min"]) and s["winners"] is None:
        t["stage"] = "dober"
        t["dober"] = {"left": int(RULES["dober_steps"]), "seen": [square(ctx.fighter(seat))]}


def _fixed_hits(w: Weapon, eff: list[int], shot: PendingShot) -> bool:
    if w.group == "massive":
        return eff[0] >= w.min
    need = SCOUT_MIN[shot["range"] - 1] - (int(RULES["eagle_eye"]) if shot["ext"] == "eagle_eye" else 0)
    return sum(eff) >= need


def dober_refusal(s: State, board: Board, seat: int, d: str) -> Msg | None:
    if d not in ORTHO:
        return msg("gg.err.direction")
    to = board.step(square(s["players"][seat]), d)
    if to is None:
        return msg("gg.err.off_board")
    dober = s["t"]["dober"]
    assert dober is not None  # (the "dober" stage keeps its moves)
    seen = dober["seen"]
    if not _dober_free(s, board, to):
        return msg("gg.err.blocked", at=board.name(to))
    if to in seen:
        return msg("gg.err.covered", at=board.name(to))
    if to in s["chests"]:  # crossed, never ended on (P-27): a second step must lead off it
        beyond = [board.step(to, x) for x in ORTHO]
        if dober["left"] < 2 or not any(
                q is not None and q not in seen and q not in s["chests"] and _dober_free(s, board, q)
                for q in beyond):
            return msg("gg.err.dober_chest", at=board.name(to))
    return None


def _dober_free(s: State, board: Board, q: int) -> bool:
    return not board.is_tree(q) and q not in barrier_squares(s) and occupant(s, q) is None


def dober_step(ctx: Ctx, seat: int, d: str) -> None:
    t = ctx.turn_flags
    p = ctx.fighter(seat)
    to = ctx.board.step(square(p), d)
    assert to is not None
    p["pos"] = to
    dober = t["dober"]
    assert dober is not None
    dober["seen"].append(to)
    dober["left"] -= 1
    swap = t["kswap"]
    if swap is not None:
        swap["moved"] = True
    ctx.say("gg.ev.dober", seat=SeatRef(seat), to=ctx.board.name(to))
    if dober["left"] == 0 or not any(dober_refusal(ctx.state, ctx.board, seat, x) is None for x in "NESW"):
        t["stage"] = "after"
        t["dober"] = None


# ---------------------------------------------------------------- throwables


def throw(ctx: Ctx, seat: int, cid: str, target: int | None) -> None:
    s, t, board = ctx.state, ctx.turn_flags, ctx.board
    key = s["cards"][cid]
    card = SUPPORT[key]
    use_card(ctx, seat, cid)
    t["throwable"] = True
    if card.use == "smoke":
        pos = square(ctx.fighter(seat))
        s["banners"].append({"kind": "smoke", "owner": seat, "sq": [pos], "round": s["round"]})
        ctx.say("gg.ev.smoke", seat=SeatRef(seat), at=board.name(pos))
        return
    assert target is not None
    ctx.say("gg.ev.throw", seat=SeatRef(seat), card=msg(f"gg.card.{key}"), target=SeatRef(target))
    if card.use == "ntt":
        for cid2 in s["players"][target]["mat"]["weapon"]["a"]:
            if cid2 not in s["unloaded"]:
                s["unloaded"].append(cid2)
        ctx.say("gg.ev.ntt", target=SeatRef(target))
        return
    if card.use == "flame":
        faces = [ctx.die(), ctx.die()]
        hit = sum(faces) >= int(card.values["min"])
        ctx.say("gg.ev.dice", dice=" ".join(map(str, faces)), hit=msg("gg.ev.hit" if hit else "gg.ev.missed"))
        if hit:
            centre = square(ctx.fighter(target))
            splash = [o["seat"] for o in s["players"] if o["alive"] and o["seat"] != target
                      and enemies(s, seat, o["seat"]) and board.dist(square(o), centre) == 1]
            for victim in [target, *splash]:
                if s["winners"] is None:
                    damage(ctx, victim, int(card.values["damage"]), seat, "card", "flame")
        return
    if card.use == "spear":
        face = ctx.die()
        dist = board.dist(square(ctx.fighter(seat)), square(ctx.fighter(target)))
        hit = face == dist
        ctx.say("gg.ev.dice", dice=str(face), hit=msg("gg.ev.hit" if hit else "gg.ev.missed"))
        if hit:
            damage(ctx, target, int(card.values["damage"]), seat, "card", "spear")


def throw_refusal(s: State, board: Board, seat: int, cid: str, target: object) -> Msg | None:
    card = SUPPORT[s["cards"][cid]]
    if card.use == "smoke":
        if target is not None:
            return msg("gg.err.no_target_needed")
        if any(s["players"][seat]["pos"] in b["sq"] for b in s["banners"]):
            return msg("gg.err.banner_here")
        return None
    if card.use == "flame":
        return target_refusal(s, board, seat, target, 2, 2, False)
    if card.use == "spear":
        return target_refusal(s, board, seat, target, 1, int(card.values["reach"]), False)
    return target_refusal(s, board, seat, target, 1, int(card.values["reach"]), False)


# ---------------------------------------------------------------- defensive banners


def barrier_squares_for(board: Board, middle: int, orient: str) -> list[int] | None:
    r, c = board.row_col(middle)
    cells = [(r, c + k) for k in range(-2, 3)] if orient == "h" else [(r + k, c) for k in range(-2, 3)]
    if not all(0 <= rr < board.h and 0 <= cc < board.w for rr, cc in cells):
        return None
    return [rr * board.w + cc for rr, cc in cells]


def defend_squares(s: State, board: Board, seat: int, cid: str, at: object, orient: object) -> list[int] | Msg:
    """The squares the banner would cover, or the reason it cannot go there."""
    use = SUPPORT[s["cards"][cid]].use
    here = square(s["players"][seat])
    if use in ("platform", "field"):
        if at is not None or orient is not None:
            return msg("gg.err.under_you")
        if any(here in b["sq"] for b in s["banners"]):
            return msg("gg.err.banner_here")
        return [here]
    sq = board.parse(at)
    if sq is None or board.dist(sq, here) != 1:
        return msg("gg.err.adjacent_square")
    if use == "ball":
        if orient is not None:
            return msg("gg.err.no_orientation")
        return [sq] if vacant(s, board, sq) else msg("gg.err.not_vacant", at=board.name(sq))
    if orient not in ("h", "v"):
        return msg("gg.err.orientation")
    cells = barrier_squares_for(board, sq, str(orient))
    if cells is None:
        return msg("gg.err.off_board")
    for q in cells:
        if q == here or not vacant(s, board, q):
            return msg("gg.err.not_vacant", at=board.name(q))
    return cells


def defend(ctx: Ctx, seat: int, cid: str, cells: list[int]) -> None:
    s = ctx.state
    use = SUPPORT[s["cards"][cid]].use
    use_card(ctx, seat, cid)
    ctx.turn_flags["defensive"] = True
    s["banners"].append({"kind": BANNER_OF[use], "owner": seat, "sq": cells, "round": s["round"]})
    ctx.say("gg.ev.defend", seat=SeatRef(seat), kind=msg(f"gg.banner.{BANNER_OF[use]}"),
            at=" ".join(ctx.board.name(q) for q in cells))

