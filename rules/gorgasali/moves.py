"""Every move of Gorgasali: why it is refused now, what it does, and the candidates to list."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Literal, cast

from rules.base import SYSTEM, Action
from rules.gorgasali import abilities, combat, movement
from rules.gorgasali.board import DIRS, ORTHO, Board, board_of
from rules.gorgasali.data import CHARACTERS, SLOTS, SUPPORT
from rules.gorgasali.engine import (
    Ctx,
    active_cards,
    advance,
    all_cards,
    backpack_fill,
    capacity,
    card_name,
    character,
    close_zone,
    discard,
    empty_mat,
    end_turn,
    gain,
    heal,
    open_chest,
    remove_card,
    seat_on_turn,
    set_character,
    slot_of,
    square,
    start_game,
    teammate,
    to_act,
    use_card,
    vacant,
)
from rules.gorgasali.state import ActionArgs, Area, Draft, State
from rules.text import Msg, SeatRef, msg

TURN_KINDS = ("potion", "ammo", "roll", "skip", "move_card", "teleport", "step", "move", "stop", "defend", "shoot",
              "reroll", "dober", "dober_done", "reload", "arrange", "throw", "ability", "imitate", "swap_back",
              "chest", "end", "revive", "give", "take", "give_chest", "take_chest", "propose", "withdraw")


def _support_use(s: State, cid: object) -> str | None:
    if not isinstance(cid, str) or cid not in s["cards"] or cid[0] != "s":
        return None
    return SUPPORT[s["cards"][cid]].use


def _has_active(s: State, seat: int, cid: object, slot: str) -> bool:
    return isinstance(cid, str) and cid in s["players"][seat]["mat"][slot]["a"]


def _args(a: Action, *names: str) -> bool:
    return set(a.arg_dict) <= set(names)


def octor_needs_start(s: State) -> bool:
    octor = next((p for p in s["players"] if p["char"] == "octor"), None)
    return octor is not None and any(
        abilities.imitable(s, octor["seat"], n, starting=True) is None for n in abilities.neighbours(s, octor["seat"]))


# ---------------------------------------------------------------- refusals


def refusal(s: State, seat: int, a: Action) -> Msg | None:
    """None when `seat` may play `a` now, else the reason (a message key)."""
    if s["winners"] is not None:
        return msg("gg.err.over")
    if seat not in to_act(s):
        return msg("gg.err.not_your_turn")
    if seat == SYSTEM:
        return None if a == Action.of("close_zone") else msg("gg.err.unknown")
    if s["pending"]:
        return _place_refusal(s, seat, a)
    if s["trade"] is not None:
        return None if a in (Action.of("accept"), Action.of("decline")) else msg("gg.err.answer_trade")
    if s["phase"] == "pick":
        ch = a.get("char")
        if a.kind != "pick" or not _args(a, "char") or ch not in CHARACTERS:
            return msg("gg.err.pick")
        if any(p["char"] == ch for p in s["players"]):
            return msg("gg.err.taken")
        return None
    if s["phase"] == "octor":
        if a.kind != "imitate" or not _args(a, "target"):
            return msg("gg.err.octor_start")
        return abilities.imitable(s, seat, a.get("target"), starting=True)
    if a.kind not in TURN_KINDS:
        return msg("gg.err.unknown")
    return _TURN_REFUSALS[a.kind](s, seat, a)


def _place_refusal(s: State, seat: int, a: Action) -> Msg | None:
    head = s["pending"][0]
    if a.kind != "place" or not _args(a, "card", "into") or a.get("card") != head["card"]:
        return msg("gg.err.place_first", card=card_name(s, head["card"]))
    into = a.get("into")
    if into == "discard":
        return None
    mat = s["players"][seat]["mat"][slot_of(s, head["card"])]
    if not isinstance(into, str) or into not in mat["a"] + mat["p"]:
        return msg("gg.err.replace_what")
    return None


def _stage(s: State, *stages: str) -> Msg | None:
    return None if s["t"]["stage"] in stages else msg("gg.err.not_now")


def _refusal_potion(s: State, seat: int, a: Action) -> Msg | None:
    t = s["t"]
    card = a.get("card")
    if not _args(a, "card") or _support_use(s, card) != "potion" or not _has_active(s, seat, card, "consumable"):
        return msg("gg.err.no_card")
    if t["stage"] != "start":
        return msg("gg.err.potion_before_roll")
    if t["consumable"]:
        return msg("gg.err.one_consumable")
    if t["heal_block"]:
        return msg("gg.err.heal_blocked")
    return None


def _refusal_ammo(s: State, seat: int, a: Action) -> Msg | None:
    card = a.get("card")
    if not _args(a, "card") or _support_use(s, card) != "ammo" or not _has_active(s, seat, card, "consumable"):
        return msg("gg.err.no_card")
    if s["t"]["stage"] != "start":
        return msg("gg.err.potion_before_roll")
    return msg("gg.err.one_consumable") if s["t"]["consumable"] else None


def _refusal_roll(s: State, seat: int, a: Action) -> Msg | None:
    if a.args:
        return msg("gg.err.bad_args")
    if s["t"]["frozen"]:
        return msg("gg.err.frozen")
    return _stage(s, "start")


def may_skip(s: State, seat: int) -> Msg | None:
    t = s["t"]
    if t["stage"] == "start":
        return None if t["frozen"] else msg("gg.err.roll_first")
    if t["stage"] != "rolled":
        return msg("gg.err.not_now")
    if t["dice"][0] == t["dice"][1]:
        return msg("gg.err.double")
    if s["players"][seat]["skipped"]:
        return msg("gg.err.skipped_last")
    return None


def _refusal_skip(s: State, seat: int, a: Action) -> Msg | None:
    return msg("gg.err.bad_args") if a.args else may_skip(s, seat)


def _refusal_move_card(s: State, seat: int, a: Action) -> Msg | None:
    card = a.get("card")
    if not _args(a, "card") or _support_use(s, card) != "movement" or not _has_active(s, seat, card, "consumable"):
        return msg("gg.err.no_card")
    return _stage(s, "rolled") or (msg("gg.err.one_consumable") if s["t"]["consumable"] else None)


def _refusal_teleport(s: State, seat: int, a: Action) -> Msg | None:
    card = a.get("card")
    if not _args(a, "card", "to") or _support_use(s, card) != "teleport" \
            or not _has_active(s, seat, card, "consumable"):
        return msg("gg.err.no_card")
    why = _stage(s, "rolled") or (msg("gg.err.one_consumable") if s["t"]["consumable"] else None)
    if why:
        return why
    board = board_of(s["board"])
    to = board.parse(a.get("to"))
    return msg("gg.err.square") if to is None else movement.teleport_refusal(s, board, seat, to)


def _refusal_step(s: State, seat: int, a: Action) -> Msg | None:
    if not _args(a, "dir") or a.get("dir") not in DIRS:
        return msg("gg.err.direction")
    return _stage(s, "rolled", "moving") or movement.step_refusal(s, board_of(s["board"]), seat, a["dir"])


def _refusal_move(s: State, seat: int, a: Action) -> Msg | None:
    path = a.get("path")
    if not _args(a, "path") or not isinstance(path, tuple):
        return msg("gg.err.direction")
    return _stage(s, "rolled", "moving") or movement.path_refusal(s, board_of(s["board"]), seat, path)


def _refusal_stop(s: State, seat: int, a: Action) -> Msg | None:
    why = msg("gg.err.bad_args") if a.args else _stage(s, "rolled", "moving")
    if why:
        return why
    board = board_of(s["board"])
    if s["players"][seat]["pos"] in s["chests"] or not movement.legal_steps(s, board, seat):
        return None
    return msg("gg.err.must_move", points=s["t"]["points"])


def _after(s: State) -> Msg | None:
    return _stage(s, "after")


def _refusal_defend(s: State, seat: int, a: Action) -> Msg | None:
    card = a.get("card")
    if not _args(a, "card", "at", "orient") or not _has_active(s, seat, card, "defensive"):
        return msg("gg.err.no_card")
    why = _after(s) or (msg("gg.err.one_defensive") if s["t"]["defensive"] else None)
    if why:
        return why
    cells = combat.defend_squares(s, board_of(s["board"]), seat, card, a.get("at"), a.get("orient"))
    return cells if isinstance(cells, Msg) else None


def _main_free(s: State) -> Msg | None:
    t = s["t"]
    if t["revived"]:
        return msg("gg.err.revived_no_main")
    return None if t["main"] is None else msg("gg.err.main_used")


def _refusal_shoot(s: State, seat: int, a: Action) -> Msg | None:
    wid = a.get("weapon")
    if not _args(a, "weapon", "target", "ext") or not _has_active(s, seat, wid, "weapon"):
        return msg("gg.err.no_weapon")
    why = _after(s) or _main_free(s)
    if why:
        return why
    if wid in s["unloaded"]:
        return msg("gg.err.unloaded", weapon=card_name(s, wid))
    w = combat.weapon(s, wid)
    ext = a.get("ext")
    if ext is not None:
        if not _has_active(s, seat, ext, "consumable") or _support_use(s, ext) != "extension":
            return msg("gg.err.no_card")
        if SUPPORT[s["cards"][ext]].values["group"] != w.group:
            return msg("gg.err.wrong_extension")
        if s["t"]["consumable"]:
            return msg("gg.err.one_consumable")
    return combat.target_refusal(s, board_of(s["board"]), seat, a.get("target"), 1, w.range, True)


def _refusal_reroll(s: State, seat: int, a: Action) -> Msg | None:
    if s["t"]["stage"] != "strike":
        return msg("gg.err.not_now")
    dice = a.get("dice")
    shot = s["t"]["shot"]
    assert shot is not None  # (the "strike" stage keeps the shot)
    n = len(shot["faces"])
    if not _args(a, "dice") or not isinstance(dice, tuple) or len(set(dice)) != len(dice) \
            or not all(isinstance(i, int) and 0 <= i < n for i in dice):
        return msg("gg.err.which_dice", n=n)
    return None


def _refusal_dober(s: State, seat: int, a: Action) -> Msg | None:
    if s["t"]["stage"] != "dober":
        return msg("gg.err.not_now")
    if not _args(a, "dir"):
        return msg("gg.err.direction")
    return combat.dober_refusal(s, board_of(s["board"]), seat, a.get("dir"))


def _refusal_dober_done(s: State, seat: int, a: Action) -> Msg | None:
    if s["t"]["stage"] != "dober" or a.args:
        return msg("gg.err.not_now")
    here = s["players"][seat]["pos"]
    return msg("gg.err.dober_on_chest", at=board_of(s["board"]).name(here)) if here in s["chests"] else None


def _refusal_reload(s: State, seat: int, a: Action) -> Msg | None:
    why = (msg("gg.err.bad_args") if a.args else None) or _after(s) or _main_free(s)
    if why:
        return why
    weapons = active_cards(s["players"][seat], "weapon")
    return None if any(w in s["unloaded"] for w in weapons) else msg("gg.err.all_loaded")


def _refusal_arrange(s: State, seat: int, a: Action) -> Msg | None:
    t = s["t"]
    card, other = a.get("card"), a.get("with")
    if not _args(a, "card", "with") or not isinstance(card, str) or card not in s["cards"]:
        return msg("gg.err.no_card")
    why = _after(s) or (msg("gg.err.revived_no_main") if t["revived"] else None)
    if why:
        return why
    if t["main"] not in (None, "arrange"):
        return msg("gg.err.main_used")
    slot = slot_of(s, card)
    mat = s["players"][seat]["mat"][slot]
    act, pack = capacity(slot)
    if card in mat["p"]:
        if other is None:
            return None if len(mat["a"]) < act else msg("gg.err.slot_full")
        return None if other in mat["a"] else msg("gg.err.no_card")
    if card in mat["a"] and other is None:
        return None if len(mat["p"]) < pack else msg("gg.err.slot_full")
    return msg("gg.err.no_card")


def _refusal_throw(s: State, seat: int, a: Action) -> Msg | None:
    card = a.get("card")
    if not _args(a, "card", "target") or not _has_active(s, seat, card, "throwable"):
        return msg("gg.err.no_card")
    why = _after(s) or (msg("gg.err.one_throwable") if s["t"]["throwable"] else None)
    return why or combat.throw_refusal(s, board_of(s["board"]), seat, card, a.get("target"))


def _refusal_ability(s: State, seat: int, a: Action) -> Msg | None:
    return abilities.refusal(s, seat, a)


def _refusal_imitate(s: State, seat: int, a: Action) -> Msg | None:
    if not _args(a, "target"):
        return msg("gg.err.bad_args")
    return abilities.imitable(s, seat, a.get("target"), starting=False)


def _refusal_swap_back(s: State, seat: int, a: Action) -> Msg | None:
    return msg("gg.err.bad_args") if a.args else abilities.swap_back_refusal(s, seat)


def _refusal_chest(s: State, seat: int, a: Action) -> Msg | None:
    why = (msg("gg.err.bad_args") if a.args else None) or _stage(s, *abilities.STAGES)
    if why:
        return why
    if s["players"][seat]["xc"] <= 0:
        return msg("gg.err.no_extra_chest")
    return msg("gg.err.one_extra_chest") if s["t"]["xchest"] else None


def _refusal_end(s: State, seat: int, a: Action) -> Msg | None:
    if a.args:
        return msg("gg.err.bad_args")
    if s["t"]["stage"] in ("start", "rolled", "moving"):
        return msg("gg.err.move_first")
    return _after(s)


def revive_squares(s: State, seat: int) -> list[int]:
    """Where the fallen teammate may come back: its banner square if vacant, else the nearest vacant ones."""
    mate = teammate(s, seat)
    ghost = None if mate is None or s["players"][mate]["alive"] else s["players"][mate]["ghost"]
    if ghost is None:
        return []
    board = board_of(s["board"])
    if vacant(s, board, ghost):
        return [ghost]
    for reach in range(1, max(board.w, board.h)):
        ring = [q for q in board.around(ghost, reach) if board.dist(q, ghost) == reach and vacant(s, board, q)]
        if ring:
            return ring
    return []


def _refusal_revive(s: State, seat: int, a: Action) -> Msg | None:
    t = s["t"]
    mate = teammate(s, seat)
    card = a.get("card")
    ghost = None if mate is None or s["players"][mate]["alive"] else s["players"][mate]["ghost"]
    if ghost is None:
        return msg("gg.err.no_revive")
    if not _args(a, "card", "at") or _support_use(s, card) != "potion" or not _has_active(s, seat, card, "consumable"):
        return msg("gg.err.no_card")
    why = _after(s) or (msg("gg.err.main_used") if t["main"] is not None else None)
    why = why or (msg("gg.err.one_consumable") if t["consumable"] else None)
    why = why or (msg("gg.err.heal_blocked") if t["heal_block"] else None)
    if why:
        return why
    board = board_of(s["board"])
    if board.dist(square(s["players"][seat]), ghost) != 1:
        return msg("gg.err.not_next_to_mate")
    at = board.parse(a.get("at"))
    return None if at is not None and at in revive_squares(s, seat) else msg("gg.err.revive_square")


def _trade_ready(s: State, seat: int) -> Msg | None:
    mate = teammate(s, seat)
    if mate is None or not s["players"][mate]["alive"]:
        return msg("gg.err.no_mate")
    why = _after(s)
    if why:
        return why
    board = board_of(s["board"])
    if board.dist(square(s["players"][seat]), square(s["players"][mate])) != 1:
        return msg("gg.err.not_next_to_mate")
    return None


def _refusal_give(s: State, seat: int, a: Action) -> Msg | None:
    why = _trade_ready(s, seat)
    if why:
        return why
    card = a.get("card")
    owner = seat if a.kind == "give" else teammate(s, seat)
    key: Literal["give", "take"] = "give" if a.kind == "give" else "take"
    assert owner is not None
    if not _args(a, "card") or not isinstance(card, str) or card not in all_cards(s["players"][owner]):
        return msg("gg.err.no_card")
    return msg("gg.err.already_offered") if card in s["t"]["draft"][key] else None


def _refusal_give_chest(s: State, seat: int, a: Action) -> Msg | None:
    why = _trade_ready(s, seat) or (msg("gg.err.bad_args") if a.args else None)
    if why:
        return why
    draft = s["t"]["draft"]
    if a.kind == "give_chest":
        return None if s["players"][seat]["xc"] > draft["xg"] else msg("gg.err.no_extra_chest")
    mate = teammate(s, seat)
    assert mate is not None
    return None if s["players"][mate]["xc"] > draft["xt"] else msg("gg.err.no_extra_chest")


def trade_fits(s: State, seat: int) -> bool:
    """Nothing may be discarded in an exchange: every card received needs a free slot (A-45, §5.3)."""
    mate = teammate(s, seat)
    assert mate is not None
    draft = s["t"]["draft"]
    for who, out, into in ((seat, draft["give"], draft["take"]), (mate, draft["take"], draft["give"])):
        mat = s["players"][who]["mat"]
        for slot in SLOTS:
            act, pack = capacity(slot)
            held = len(mat[slot]["a"]) + len(mat[slot]["p"])
            held -= sum(1 for c in out if slot_of(s, c) == slot)
            held += sum(1 for c in into if slot_of(s, c) == slot)
            if held > act + pack:
                return False
    return True


def _refusal_propose(s: State, seat: int, a: Action) -> Msg | None:
    why = _trade_ready(s, seat) or (msg("gg.err.bad_args") if a.args else None)
    if why:
        return why
    d = s["t"]["draft"]
    if not (d["give"] or d["take"] or d["xg"] or d["xt"]):
        return msg("gg.err.empty_trade")
    mate = teammate(s, seat)
    assert mate is not None
    me, other = s["players"][seat], s["players"][mate]
    # cards used or lost since they were put in the exchange
    if not set(d["give"]) <= set(all_cards(me)) or not set(d["take"]) <= set(all_cards(other)) \
            or d["xg"] > me["xc"] or d["xt"] > other["xc"]:
        return msg("gg.err.trade_changed")
    return None if trade_fits(s, seat) else msg("gg.err.trade_no_room")


def _refusal_withdraw(s: State, seat: int, a: Action) -> Msg | None:
    d = s["t"].get("draft")
    if a.args or d is None or not (d["give"] or d["take"] or d["xg"] or d["xt"]):
        return msg("gg.err.empty_trade")
    return None


#: The refusal of each kind of move played in a turn.
_TURN_REFUSALS = {
    "potion": _refusal_potion,
    "ammo": _refusal_ammo,
    "roll": _refusal_roll,
    "skip": _refusal_skip,
    "move_card": _refusal_move_card,
    "teleport": _refusal_teleport,
    "step": _refusal_step,
    "move": _refusal_move,
    "stop": _refusal_stop,
    "defend": _refusal_defend,
    "shoot": _refusal_shoot,
    "reroll": _refusal_reroll,
    "dober": _refusal_dober,
    "dober_done": _refusal_dober_done,
    "reload": _refusal_reload,
    "arrange": _refusal_arrange,
    "throw": _refusal_throw,
    "ability": _refusal_ability,
    "imitate": _refusal_imitate,
    "swap_back": _refusal_swap_back,
    "chest": _refusal_chest,
    "end": _refusal_end,
    "revive": _refusal_revive,
    "give": _refusal_give,
    "take": _refusal_give,
    "give_chest": _refusal_give_chest,
    "take_chest": _refusal_give_chest,
    "propose": _refusal_propose,
    "withdraw": _refusal_withdraw,
}


# ---------------------------------------------------------------- performing


def accepted_args(a: Action) -> ActionArgs:
    """The arguments of a move `refusal` accepted, typed: refusal checked the type of each one it lets through."""
    return cast(ActionArgs, a.arg_dict)


def perform(ctx: Ctx, seat: int, a: Action) -> None:
    """Play `a`, which `refusal` accepted."""
    s, t = ctx.state, ctx.turn_flags
    kind = a.kind
    args = accepted_args(a)
    if seat == SYSTEM:
        close_zone(ctx)
        return
    if kind == "place":
        head = s["pending"].pop(0)
        into = args["into"]
        if into == "discard":
            discard(ctx, head["card"])
            ctx.say("gg.ev.discarded_new", seat=SeatRef(seat), card=card_name(s, head["card"]))
        else:
            mat = ctx.fighter(seat)["mat"][slot_of(s, into)]
            area: Area = "a" if into in mat["a"] else "p"
            mat[area][mat[area].index(into)] = head["card"]
            discard(ctx, into)
            ctx.say("gg.ev.replaced", seat=SeatRef(seat), card=card_name(s, head["card"]), old=card_name(s, into))
        return
    if kind in ("accept", "decline"):
        _answer_trade(ctx, kind == "accept")
        return
    if kind == "pick":
        set_character(ctx.fighter(seat), args["char"])
        ctx.say("gg.ev.picked", seat=SeatRef(seat), char=msg(f"gg.char.{args['char']}"))
        if all(p["char"] for p in s["players"]):
            after_picks(ctx)
        return
    if s["phase"] == "octor":
        abilities.imitate(ctx, seat, args["target"])
        start_game(ctx)
        return
    if kind == "potion":
        card = args["card"]
        amount = int(SUPPORT[s["cards"][card]].values["heal"])
        ctx.say("gg.ev.used", seat=SeatRef(seat), card=card_name(s, card))
        use_consumable(ctx, seat, card)
        heal(ctx, seat, amount, "potion")
    elif kind == "ammo":
        ctx.say("gg.ev.used", seat=SeatRef(seat), card=card_name(s, args["card"]))
        use_consumable(ctx, seat, args["card"])
        for w in active_cards(ctx.fighter(seat), "weapon"):
            if w in s["unloaded"]:
                s["unloaded"].remove(w)
    elif kind == "roll":
        t["dice"] = [ctx.die(), ctx.die()]
        t["points"] = sum(t["dice"])
        t["stage"] = "rolled"
        ctx.say("gg.ev.rolled", seat=SeatRef(seat), a=t["dice"][0], b=t["dice"][1])
    elif kind == "skip":
        t["skipped"] = not t["frozen"]
        ctx.say("gg.ev.frozen_stay" if t["frozen"] else "gg.ev.skipped", seat=SeatRef(seat))
        movement.finish(ctx, seat)
    elif kind == "move_card":
        card = args["card"]
        key = s["cards"][card]
        ctx.say("gg.ev.used", seat=SeatRef(seat), card=card_name(s, card))
        use_consumable(ctx, seat, card)
        terrain = SUPPORT[key].values.get("terrain")
        if terrain:
            t["mods"].append(terrain)
        elif key == "compass":
            t["compass"] = True
        elif key == "adrenaline":
            t["points"] = 2 * sum(t["dice"])
    elif kind == "teleport":
        use_consumable(ctx, seat, args["card"])
        destination = ctx.board.parse(args["to"])
        assert destination is not None  # (refusal() checked the square)
        movement.teleport(ctx, seat, destination)
    elif kind == "step":
        movement.do_step(ctx, seat, args["dir"])
    elif kind == "move":
        for d in args["path"]:
            if not ctx.fighter(seat)["alive"] or t.get("stage") not in ("rolled", "moving"):
                break
            movement.do_step(ctx, seat, d)
    elif kind == "stop":
        movement.finish(ctx, seat)
    elif kind == "defend":
        cells = combat.defend_squares(s, ctx.board, seat, args["card"], args.get("at"), args.get("orient"))
        assert not isinstance(cells, Msg)
        combat.defend(ctx, seat, args["card"], cells)
    elif kind == "shoot":
        combat.shoot(ctx, seat, args["weapon"], args["target"], args.get("ext"))
    elif kind == "reroll":
        combat.reroll(ctx, seat, tuple(args["dice"]))
    elif kind == "dober":
        combat.dober_step(ctx, seat, args["dir"])
    elif kind == "dober_done":
        t["stage"], t["dober"] = "after", None
    elif kind == "reload":
        t["main"] = "reload"
        for w in active_cards(ctx.fighter(seat), "weapon"):
            if w in s["unloaded"]:
                s["unloaded"].remove(w)
        ctx.say("gg.ev.reloaded", seat=SeatRef(seat))
    elif kind == "arrange":
        _arrange(ctx, seat, args["card"], args.get("with"))
    elif kind == "throw":
        combat.throw(ctx, seat, args["card"], args.get("target"))
    elif kind == "ability":
        abilities.use(ctx, seat, args)
    elif kind == "imitate":
        abilities.imitate(ctx, seat, args["target"])
    elif kind == "swap_back":
        abilities.swap_back(ctx, seat)
    elif kind == "chest":
        ctx.fighter(seat)["xc"] -= 1
        t["xchest"] = True
        open_chest(ctx, seat, extra=True)
    elif kind == "end":
        end_turn(ctx)
    elif kind == "revive":
        comeback = ctx.board.parse(args["at"])
        assert comeback is not None  # (refusal() checked the square)
        _revive(ctx, seat, args["card"], comeback)
    elif kind in ("give", "take"):
        t["draft"]["give" if kind == "give" else "take"].append(args["card"])
    elif kind == "give_chest":
        t["draft"]["xg"] += 1
    elif kind == "take_chest":
        t["draft"]["xt"] += 1
    elif kind == "withdraw":
        t["draft"] = {"give": [], "take": [], "xg": 0, "xt": 0}
    elif kind == "propose":
        mate = teammate(s, seat)
        assert mate is not None  # (a fighter without a teammate cannot propose: _trade_ready)
        s["trade"] = {"from": seat, "to": mate, **clone_draft(t["draft"])}
        ctx.say("gg.ev.trade_offer", seat=SeatRef(seat), mate=SeatRef(mate))


def settle(ctx: Ctx) -> None:
    """An active player eliminated during its own turn ends it at once, with no end-of-turn steps (§5.1)."""
    s = ctx.state
    if s["winners"] is not None:
        s["t"] = {}
    elif s["phase"] == "play" and s["t"] and not ctx.fighter(seat_on_turn(s))["alive"]:
        advance(ctx, seat_on_turn(s))


def clone_draft(d: Draft) -> Draft:
    return {"give": list(d["give"]), "take": list(d["take"]), "xg": d["xg"], "xt": d["xt"]}


def use_consumable(ctx: Ctx, seat: int, cid: str) -> None:
    """Use up a consumable: the turn's one consumable."""
    use_card(ctx, seat, cid)
    ctx.turn_flags["consumable"] = True


def after_picks(ctx: Ctx) -> None:
    if octor_needs_start(ctx.state):
        ctx.state["phase"] = "octor"
    else:
        start_game(ctx)


def _arrange(ctx: Ctx, seat: int, card: str, other: str | None) -> None:
    s = ctx.state
    ctx.turn_flags["main"] = "arrange"
    mat = ctx.fighter(seat)["mat"][slot_of(s, card)]
    if card in mat["p"]:
        i = mat["p"].index(card)
        if other is None:
            mat["p"].pop(i)
            mat["a"].append(card)
        else:
            j = mat["a"].index(other)
            mat["a"][j], mat["p"][i] = card, other
    else:
        mat["a"].remove(card)
        mat["p"].append(card)
    ctx.say("gg.ev.arranged", seat=SeatRef(seat), card=card_name(s, card))


def _revive(ctx: Ctx, seat: int, card: str, at: int) -> None:
    s = ctx.state
    mate = teammate(s, seat)
    assert mate is not None
    amount = int(SUPPORT[s["cards"][card]].values["heal"])
    use_consumable(ctx, seat, card)
    m = ctx.fighter(mate)
    m.update({"alive": True, "hp": min(100, amount), "pos": at, "ghost": None, "mat": empty_mat(), "xc": 0,
              "cd": CHARACTERS[character(m)].cooldown or 0, "copy": None, "frozen": False, "heal_block": False,
              "skipped": False})
    if mate in s["out"]:
        s["out"].remove(mate)
    ctx.turn_flags["revived"] = True
    ctx.say("gg.ev.revived", seat=SeatRef(seat), mate=SeatRef(mate), hp=m["hp"], at=ctx.board.name(at))


def _answer_trade(ctx: Ctx, accept: bool) -> None:
    s = ctx.state
    trade = s["trade"]
    assert trade is not None  # (an answer is only asked for while a trade waits)
    s["trade"] = None
    giver, mate = trade["from"], trade["to"]
    if not accept:
        ctx.turn_flags["draft"] = {"give": [], "take": [], "xg": 0, "xt": 0}
        ctx.say("gg.ev.trade_declined", mate=SeatRef(mate))
        return
    for c in trade["give"]:
        remove_card(s, giver, c)
    for c in trade["take"]:
        remove_card(s, mate, c)
    for c in trade["give"]:
        gain(ctx, mate, c)
    for c in trade["take"]:
        gain(ctx, giver, c)
    ctx.fighter(giver)["xc"] += trade["xt"] - trade["xg"]
    ctx.fighter(mate)["xc"] += trade["xg"] - trade["xt"]
    ctx.say("gg.ev.traded", seat=SeatRef(giver), mate=SeatRef(mate))
    end_turn(ctx)


# ---------------------------------------------------------------- candidates (filtered by refusal)


def candidates(s: State, seat: int) -> Iterator[Action]:
    if seat == SYSTEM:
        yield Action.of("close_zone")
        return
    if s["pending"]:
        head = s["pending"][0]
        mat = s["players"][seat]["mat"][slot_of(s, head["card"])]
        for old in mat["a"] + mat["p"]:
            yield Action.of("place", card=head["card"], into=old)
        yield Action.of("place", card=head["card"], into="discard")
        return
    if s["trade"] is not None:
        yield Action.of("accept")
        yield Action.of("decline")
        return
    if s["phase"] == "pick":
        for ch in CHARACTERS:
            yield Action.of("pick", char=ch)
        return
    if s["phase"] == "octor":
        for n in abilities.neighbours(s, seat):
            yield Action.of("imitate", target=n)
        return
    t = s["t"]
    p = s["players"][seat]
    board = board_of(s["board"])
    cons = p["mat"]["consumable"]["a"]
    stage = t["stage"]
    if stage == "strike":
        shot = t["shot"]
        assert shot is not None
        n = len(shot["faces"])
        for k in range(n + 1):
            for combo in combinations(range(n), k):
                yield Action.of("reroll", dice=list(combo))
        return
    if stage == "dober":
        for d in ORTHO:
            yield Action.of("dober", dir=d)
        yield Action.of("dober_done")
        return
    if stage == "start":
        for c in cons:
            yield Action.of("potion", card=c)
            yield Action.of("ammo", card=c)
        yield Action.of("roll")
        yield Action.of("skip")
    if stage == "rolled":
        for c in cons:
            yield Action.of("move_card", card=c)
            if _support_use(s, c) == "teleport":
                r, col = board.row_col(square(p))
                for k in range(-movement.TELEPORT_REACH, movement.TELEPORT_REACH + 1):
                    for rr, cc in ((r + k, col), (r, col + k)):
                        if k and 0 <= rr < board.h and 0 <= cc < board.w:
                            yield Action.of("teleport", card=c, to=board.name(rr * board.w + cc))
        yield Action.of("skip")
    if stage in ("rolled", "moving"):
        for d in DIRS:
            yield Action.of("step", dir=d)
        yield Action.of("stop")
    if stage in abilities.STAGES:
        yield from _ability_candidates(s, seat)
        yield Action.of("chest")
    if stage == "after":
        yield from _after_candidates(s, seat, board)


def _ability_candidates(s: State, seat: int) -> Iterator[Action]:
    yield from abilities.candidates(s, seat)
    if s["players"][seat]["char"] == "octor":
        for o in s["players"]:
            if o["seat"] != seat:
                yield Action.of("imitate", target=o["seat"])
    yield Action.of("swap_back")


def _after_candidates(s: State, seat: int, board: Board) -> Iterator[Action]:
    p = s["players"][seat]
    others = [o["seat"] for o in s["players"] if o["alive"] and o["seat"] != seat]
    for c in p["mat"]["defensive"]["a"]:
        use = _support_use(s, c)
        if use in ("platform", "field"):
            yield Action.of("defend", card=c)
        else:
            for sq in board.around(square(p)):
                if use == "ball":
                    yield Action.of("defend", card=c, at=board.name(sq))
                else:
                    yield Action.of("defend", card=c, at=board.name(sq), orient="h")
                    yield Action.of("defend", card=c, at=board.name(sq), orient="v")
    exts = [c for c in p["mat"]["consumable"]["a"] if _support_use(s, c) == "extension"]
    for w in p["mat"]["weapon"]["a"]:
        for o in others:
            yield Action.of("shoot", weapon=w, target=o)
            for e in exts:
                yield Action.of("shoot", weapon=w, target=o, ext=e)
    yield Action.of("reload")
    for slot in ("consumable", "throwable"):
        mat = p["mat"][slot]
        for c in mat["p"]:
            yield Action.of("arrange", card=c)
            for active in mat["a"]:
                yield Action.of("arrange", card=c, **{"with": active})
        for c in mat["a"]:
            yield Action.of("arrange", card=c)
    for c in p["mat"]["throwable"]["a"]:
        if _support_use(s, c) == "smoke":
            yield Action.of("throw", card=c)
        else:
            for o in others:
                yield Action.of("throw", card=c, target=o)
    yield Action.of("end")
    mate = teammate(s, seat)
    if mate is not None:
        for c in p["mat"]["consumable"]["a"]:
            if _support_use(s, c) == "potion":
                for sq in revive_squares(s, seat):
                    yield Action.of("revive", card=c, at=board.name(sq))
        if s["players"][mate]["alive"]:
            for c in all_cards(p):
                yield Action.of("give", card=c)
            for c in all_cards(s["players"][mate]):
                yield Action.of("take", card=c)
            yield Action.of("give_chest")
            yield Action.of("take_chest")
            yield Action.of("propose")
            yield Action.of("withdraw")


__all__ = ["backpack_fill", "candidates", "perform", "refusal"]
