"""The ten characters' special abilities (and Octor's copies): who they may target, and what they do."""

from __future__ import annotations

from collections.abc import Iterator

from rules.base import Action
from rules.gorgasali.board import board_of
from rules.gorgasali.data import CHARACTERS, Character
from rules.gorgasali.engine import (
    Ctx,
    all_cards,
    character,
    damage,
    draw,
    enemies,
    gain,
    heal,
    inactive,
    remove_card,
    square,
    teammate,
    vacant,
)
from rules.gorgasali.movement import leave_smoke
from rules.gorgasali.state import ActionArgs, State
from rules.text import Msg, SeatRef, msg

STAGES = ("start", "rolled", "after")
#: abilities that may also target the user's teammate in duo (§5.3)
MATE_OK = {"hypnosis", "steal", "eye_contact"}


def current(s: State, seat: int) -> tuple[str | None, int]:
    """The ability `seat` would use now (Octor: his copy) and its cooldown counter."""
    p = s["players"][seat]
    if p["char"] == "octor":
        return (p["copy"]["ability"], p["copy"]["cd"]) if p["copy"] else (None, 0)
    return CHARACTERS[character(p)].ability, p["cd"]


def spec_of(ability: str) -> Character:
    return next(c for c in CHARACTERS.values() if c.ability == ability)


def affects(s: State, user: int, target: object, ability: str) -> Msg | None:
    if not isinstance(target, int) or not 0 <= target < s["n"] or target == user:
        return msg("gg.err.no_such_target")
    o = s["players"][target]
    if not o["alive"]:
        return msg("gg.err.no_such_target")
    if o["char"] == "emoon":
        return msg("gg.err.immune", seat=SeatRef(target))
    if not enemies(s, user, target) and not (ability in MATE_OK and teammate(s, user) == target):
        return msg("gg.err.not_enemy", seat=SeatRef(target))
    return None


def in_range(s: State, user: int, target: int, ability: str) -> Msg | None:
    rng = spec_of(ability).range
    board = board_of(s["board"])
    dist = board.dist(square(s["players"][user]), square(s["players"][target]))
    if rng and not rng[0] <= dist <= rng[1]:
        return msg("gg.err.range", seat=SeatRef(target), dist=dist, low=rng[0], high=rng[1])
    return None


def unusable(s: State, seat: int) -> Msg | None:
    """Why the seat's ability cannot be used now whatever its target, or None."""
    if s["t"]["stage"] not in STAGES:
        return msg("gg.err.not_now")
    ability, cd = current(s, seat)
    if ability is None:
        return msg("gg.err.no_copy")
    if ability == "immunity" or (ability in ("ignite", "drain") and s["players"][seat]["char"] != "octor"):
        return msg("gg.err.passive")
    if cd > 0:
        return msg("gg.err.cooldown", turns=cd)
    if ability in ("hypnosis", "eye_contact") and inactive(s, board_of(s["board"]), square(s["players"][seat])):
        return msg("gg.err.inactive_zone")
    return None


def refusal(s: State, seat: int, a: Action) -> Msg | None:
    """Why `ability ...` is refused now, or None."""
    why = unusable(s, seat)
    if why is not None:
        return why
    ability, _ = current(s, seat)
    assert ability is not None  # unusable() refuses a seat without one
    board = board_of(s["board"])
    me = s["players"][seat]
    target = a.get("target")
    extra = set(a.arg_dict) - {"target", "second", "at", "card"}
    if extra:
        return msg("gg.err.bad_args")
    if ability in ("heal", "vortex", "ignite", "drain"):
        return None if not a.args else msg("gg.err.bad_args")
    why = affects(s, seat, target, ability) or in_range(s, seat, target, ability)
    if why:
        return why
    o = s["players"][target]
    if ability == "supernova":
        second = a.get("second")
        if a.get("at") is not None or a.get("card") is not None:
            return msg("gg.err.bad_args")
        if second is None:
            return None
        if second == target:
            return msg("gg.err.no_such_target")
        why = affects(s, seat, second, ability) or in_range(s, seat, second, ability)
        if why:
            return why
        if board.dist(o["pos"], s["players"][second]["pos"]) != 1:
            return msg("gg.err.not_adjacent_pair")
        return None
    if ability == "hypnosis":
        at = board.parse(a.get("at"))
        if at is None or board.dist(at, square(me)) != 1 or a.get("second") is not None:
            return msg("gg.err.adjacent_square")
        if not vacant(s, board, at):
            return msg("gg.err.not_vacant", at=board.name(at))
        if not inactive(s, board, o["pos"]) and inactive(s, board, at):
            return msg("gg.err.out_of_zone")
        return None
    if ability == "steal":
        card = a.get("card")
        if not isinstance(card, str) or card not in all_cards(o) or card[0] == "w":
            return msg("gg.err.steal_card")
        return None
    # eye_contact
    return None if len(a.args) == 1 else msg("gg.err.bad_args")


def candidates(s: State, seat: int) -> Iterator[Action]:
    """Every `ability` action worth checking now (refusal() filters them; targets out of reach are skipped)."""
    ability, _ = current(s, seat)
    if ability is None or unusable(s, seat) is not None:
        return
    if ability in ("heal", "vortex", "ignite", "drain"):
        yield Action.of("ability")
        return
    board = board_of(s["board"])
    me = s["players"][seat]
    for o in s["players"]:
        if o["seat"] == seat or not o["alive"] or affects(s, seat, o["seat"], ability) \
                or in_range(s, seat, o["seat"], ability):
            continue
        if ability == "supernova":
            yield Action.of("ability", target=o["seat"])
            for o2 in s["players"]:
                if o2["alive"] and o2["seat"] > o["seat"] and o2["seat"] != seat:
                    yield Action.of("ability", target=o["seat"], second=o2["seat"])
        elif ability == "hypnosis":
            for sq in board.around(square(me)):
                yield Action.of("ability", target=o["seat"], at=board.name(sq))
        elif ability == "steal":
            for cid in all_cards(o):
                if cid[0] != "w":
                    yield Action.of("ability", target=o["seat"], card=cid)
        else:
            yield Action.of("ability", target=o["seat"])


def use(ctx: Ctx, seat: int, args: ActionArgs) -> None:
    """Use the ability, with the arguments `refusal` accepted."""
    s, t, board = ctx.state, ctx.turn_flags, ctx.board
    me = ctx.fighter(seat)
    ability, _ = current(s, seat)
    assert ability is not None
    if me["char"] == "octor":
        me["copy"] = None
    else:
        me["cd"] = CHARACTERS[character(me)].cooldown or 0
    ctx.say("gg.ev.ability", seat=SeatRef(seat), ability=msg(f"gg.ability.{ability}"))
    target = args.get("target")
    if ability == "supernova":
        dmg = int(CHARACTERS["armazi"].values["damage"])
        for victim in [target, args.get("second")]:
            if victim is not None and s["winners"] is None:
                damage(ctx, victim, dmg, seat, "ability", "supernova")
    elif ability == "hypnosis":
        target = args["target"]
        at = board.parse(args["at"])
        assert at is not None
        ctx.fighter(target)["pos"] = at
        leave_smoke(ctx, target)
        ctx.say("gg.ev.pulled", target=SeatRef(target), at=board.name(at))
    elif ability == "steal":
        target = args["target"]
        cid = args["card"]
        remove_card(s, target, cid)
        ctx.say("gg.ev.stolen", seat=SeatRef(seat), target=SeatRef(target), card=msg(f"gg.card.{s['cards'][cid]}"))
        gain(ctx, seat, cid)
    elif ability == "heal":
        amount = int(CHARACTERS["medea"].values["heal"])
        heal(ctx, seat, amount, "medea")
        mate = teammate(s, seat)
        if mate is not None and ctx.fighter(mate)["alive"] and ctx.fighter(mate)["char"] != "emoon" and \
                board.dist(square(me), square(ctx.fighter(mate))) <= int(CHARACTERS["medea"].values["team_range"]):
            heal(ctx, mate, amount, "medea")
        drawn = draw(ctx, "sdeck")
        if drawn is not None:
            gain(ctx, seat, drawn)
    elif ability == "vortex":
        reach = (spec_of("vortex").range or (1, 3))[1]
        for o in s["players"]:
            if o["alive"] and enemies(s, seat, o["seat"]) and o["char"] != "emoon" \
                    and board.dist(square(o), square(me)) <= reach:
                o["frozen"] = True
                ctx.say("gg.ev.frozen", target=SeatRef(o["seat"]))
    elif ability == "eye_contact":
        target = args["target"]
        mine, theirs = square(me), square(ctx.fighter(target))
        me["pos"], ctx.fighter(target)["pos"] = theirs, mine
        leave_smoke(ctx, seat)
        leave_smoke(ctx, target)
        t["kswap"] = {"user": seat, "target": target, "me": mine, "them": theirs, "moved": False}
        ctx.say("gg.ev.swapped", seat=SeatRef(seat), target=SeatRef(target))
    elif ability == "ignite":
        t["ignite"] = True
    elif ability == "drain":
        t["drain"] = True


def swap_back_refusal(s: State, seat: int) -> Msg | None:
    k = s["t"].get("kswap")
    if s["t"].get("stage") not in STAGES:
        return msg("gg.err.not_now")
    if k is None or k["user"] != seat:
        return msg("gg.err.no_swap")
    if k["moved"]:
        return msg("gg.err.moved_since_swap")
    o = s["players"][k["target"]]
    if not o["alive"] or o["pos"] != k["me"] or s["players"][seat]["pos"] != k["them"]:
        return msg("gg.err.no_swap")
    return None


def swap_back(ctx: Ctx, seat: int) -> None:
    k = ctx.turn_flags["kswap"]
    assert k is not None  # (swap_back_refusal() checked it)
    ctx.fighter(seat)["pos"], ctx.fighter(k["target"])["pos"] = k["me"], k["them"]
    ctx.turn_flags["kswap"] = None
    ctx.say("gg.ev.swapped_back", seat=SeatRef(seat), target=SeatRef(k["target"]))


def imitable(s: State, seat: int, target: object, starting: bool) -> Msg | None:
    """Whether Octor (`seat`) may copy `target`'s ability: in range 1-3 (or a neighbour at the start)."""
    if s["players"][seat]["char"] != "octor":
        return msg("gg.err.not_octor")
    if not isinstance(target, int) or not 0 <= target < s["n"] or target == seat or not s["players"][target]["alive"]:
        return msg("gg.err.no_such_target")
    o = s["players"][target]
    if o["char"] in ("emoon", None):
        return msg("gg.err.immune", seat=SeatRef(target))
    if teammate(s, seat) == target:
        return msg("gg.err.not_enemy", seat=SeatRef(target))
    if starting:
        order = s["order"]
        i = order.index(seat)
        if target not in (order[i - 1], order[(i + 1) % len(order)]):
            return msg("gg.err.not_neighbour", seat=SeatRef(target))
        return None
    if s["t"].get("stage") not in STAGES:
        return msg("gg.err.not_now")
    return in_range(s, seat, target, "imitate")


def imitate(ctx: Ctx, seat: int, target: int) -> None:
    o = ctx.fighter(target)
    spec = CHARACTERS[character(o)]
    ctx.fighter(seat)["copy"] = {"ability": spec.ability, "cd": spec.cooldown or 0}
    ctx.say("gg.ev.imitate", seat=SeatRef(seat), target=SeatRef(target), ability=msg(f"gg.ability.{spec.ability}"))


def neighbours(s: State, seat: int) -> list[int]:
    order = s["order"]
    i = order.index(seat)
    return sorted({order[i - 1], order[(i + 1) % len(order)]} - {seat})
