"""The game master's tools (seat 0): monsters, objects, Chaos spells, adjustments, notes, reveals, the end."""

from __future__ import annotations

from collections.abc import Callable

from rules.base import AI_LEVELS, Action, ArgValue, IllegalAction, LegalAction
from rules.heroquest import board, catalog, fight, magic, moves, quest_treasures, sight
from rules.heroquest import descriptions as describe
from rules.heroquest.autoplay import autoplay
from rules.heroquest.board import Square
from rules.heroquest.monsters import attack_targets, can_act, can_move
from rules.heroquest.setup import trap_kind, trap_uid
from rules.heroquest.shapes import BoardObject, Figure, Hero, Monster, Stat
from rules.heroquest.state import (
    Ctx,
    HQState,
    as_square,
    hero_label,
    hero_square,
    monster_label,
    parse_sq,
    refuse,
    sq_token,
)
from rules.heroquest.turns import damage_hero, damage_monster, end_gm_turn, finish
from rules.text import Lit, Msg, msg

#: GM tools accepted at any moment of the game (not only on the game master's turn).
ANYTIME = frozenset({"gm_place", "gm_place_object", "gm_remove", "gm_adjust", "gm_note", "gm_reveal", "gm_end_quest",
                     "gm_award", "gm_spell"})
#: Most gold the game master may hand out at once (a typo guard).
MAX_AWARD_GOLD = 10_000
OBJECT_KINDS = frozenset({"furniture", "blocked", "trap"})
#: Ending the quest is always accepted; the menu offers it from this round on (fewer misclicks).
OFFER_END_FROM_ROUND = 3


def spells_left(m: Monster) -> list[str]:
    """The Chaos spells the quest gave this creature (the game master grants them) that it has not cast yet."""
    return [sid for sid in m.get("spells", []) if sid not in m["cast"]]


def cast_offers(s: HQState, m: Monster) -> list[tuple[Action, Msg]]:
    out = []
    for sid in spells_left(m):
        spell = catalog.spell(sid)
        if spell["target"] != "hero":
            out.append((Action.of("gm_cast", caster=m["uid"], spell=sid),
                        msg("hq.act.gm_cast_self", monster=monster_label(m), spell=catalog.spell_name(sid))))
            continue
        for h in s.on_board_heroes():
            if magic.can_target(s, as_square(m["sq"]), hero_square(h)):
                out.append((Action.of("gm_cast", caster=m["uid"], spell=sid, target=h["uid"]),
                            msg("hq.act.gm_cast", monster=monster_label(m), spell=catalog.spell_name(sid),
                                hero=hero_label(h))))
    return out


def legal(s: HQState) -> list[LegalAction]:
    """What the game master is offered on its turn (more tools are accepted, see `ANYTIME`)."""
    out: list[LegalAction] = []

    def add(kind: str, label: Msg, group: str, **args: ArgValue) -> None:
        out.append(LegalAction(Action.of(kind, **args), label, group))

    if s.d.get("verdict"):
        add("gm_end_quest", msg("hq.act.gm_end_quest.win"), "gm", result="win")
        add("gm_end_quest", msg("hq.act.gm_end_quest.lose"), "gm", result="lose")
        return out
    pending_monsters = False
    for m in sorted(s.monsters.values(), key=lambda m: m["uid"]):
        if can_act(m):
            for h in attack_targets(s, m):
                pending_monsters = True
                add("gm_attack", msg("hq.act.gm_attack", monster=monster_label(m), hero=hero_label(h)), "monster",
                    monster=m["uid"], target=h["uid"])
        if can_act(m):
            for a, label in cast_offers(s, m):
                pending_monsters = True
                out.append(LegalAction(a, label, "monster", describe.spell(str(a["spell"]))))
        if can_move(m):
            stats = catalog.monster(m["ref"])
            for q in moves.monster_destinations(s, m, stats["move"]):
                pending_monsters = True
                add("gm_move", msg("hq.act.gm_move", monster=monster_label(m), sq=sq_token(q)),
                    "monster", monster=m["uid"], to=sq_token(q))
    if pending_monsters:
        add("gm_autoplay", msg("hq.act.gm_autoplay"), "gm")
    for key in sorted(s.quest_obj.notes):
        if key not in s.d["notes_read"]:
            add("gm_note", msg("hq.act.gm_note", note=key), "gm", note=key)
    add("end_turn", msg("hq.act.gm_end_turn"), "turn")
    if s.d["round"] >= OFFER_END_FROM_ROUND:
        add("gm_end_quest", msg("hq.act.gm_end_quest.win"), "gm", result="win")
        add("gm_end_quest", msg("hq.act.gm_end_quest.lose"), "gm", result="lose")
    return out


def act(ctx: Ctx, a: Action) -> None:
    s = ctx.state
    kind = a.kind
    gm_turn = s.d["turn"]["who"] == "gm"
    if kind not in ANYTIME and not gm_turn:
        raise refuse("hq.err.not_gm_turn")
    if s.d.get("verdict") and kind != "gm_end_quest":
        raise refuse("hq.err.verdict_due")
    if kind == "end_turn":
        end_gm_turn(ctx)
    elif kind == "gm_end_quest":
        finish(ctx, _result(a), "gm")
    elif kind == "gm_move":
        m = _monster(s, a.get("monster"))
        target = parse_sq(a.get("to"))
        if target is None:
            raise refuse("hq.err.off_board")
        if not can_move(m):
            raise IllegalAction(_idle_reason(m, "hq.err.monster_moved"))
        if target not in moves.monster_destinations(s, m, catalog.monster(m["ref"])["move"]):
            raise refuse("hq.err.no_path", moves=catalog.monster(m["ref"])["move"])
        m["sq"] = list(target)
        m["moved"] = True
        ctx.say("hq.ev.monster_moves", monster=monster_label(m), sq=sq_token(target))
    elif kind == "gm_attack":
        m = _monster(s, a.get("monster"))
        h = s.hero(str(a.get("target")))
        if not can_act(m):
            raise IllegalAction(_idle_reason(m, "hq.err.monster_acted"))
        if h is None or h not in attack_targets(s, m):
            raise refuse("hq.err.monster_not_adjacent", monster=monster_label(m))
        m["acted"] = True
        fight.monster_attacks(ctx, m, h)
    elif kind == "gm_cast":
        _cast(ctx, a)
    elif kind == "gm_autoplay":
        level = a.get("level", "normal")
        if level not in AI_LEVELS:
            names = {f"s{i}": msg(f"core.ai_level.{name}") for i, name in enumerate(AI_LEVELS)}
            raise refuse("hq.err.ai_level", valid=Msg(f"core.list.{len(AI_LEVELS)}", names))
        autoplay(ctx, str(level))
    elif kind == "gm_place":
        _place_monster(ctx, a)
    elif kind == "gm_place_object":
        _place_object(ctx, a)
    elif kind == "gm_remove":
        _remove(ctx, a)
    elif kind == "gm_adjust":
        _adjust(ctx, a)
    elif kind == "gm_note":
        key = _note(s, a)
        if key not in s.d["notes_read"]:
            s.d["notes_read"].append(key)
        ctx.say("hq.ev.note_read", note=key, text=s.quest_obj.notes[key])
    elif kind == "gm_award":
        _award(ctx, a)
    elif kind == "gm_spell":
        _grant_spell(ctx, a)
    elif kind == "gm_reveal":
        sight.reveal_squares(ctx, _reveal_area(s, a))
    else:
        raise refuse("hq.err.unknown_action")


def accepts_tool(s: HQState, a: Action) -> bool:
    """Whether `act` takes this tool of `ANYTIME` now; the same checks `act` makes, without doing anything."""
    try:
        check_tool(s, a)
    except IllegalAction:
        return False
    return True


def check_tool(s: HQState, a: Action) -> None:
    """Raise the refusal `act` gives a tool of `ANYTIME`, or return when it would be carried out."""
    kind = a.kind
    if kind not in ANYTIME:
        raise refuse("hq.err.unknown_action")
    if s.d.get("verdict") and kind != "gm_end_quest":
        raise refuse("hq.err.verdict_due")
    check = _CHECKS.get(kind)
    if check is not None:
        check(s, a)


def _result_of(s: HQState, a: Action) -> None:
    _result(a)


def _result(a: Action) -> str:
    result = a.get("result")
    if result not in ("win", "lose"):
        raise refuse("hq.err.bad_result")
    return str(result)


def _note(s: HQState, a: Action) -> str:
    key = a.get("note")
    if key not in s.quest_obj.notes:
        raise refuse("hq.err.no_note")
    return str(key)


def _reveal_area(s: HQState, a: Action) -> set[Square]:
    """The room (or the one corridor square) `gm_reveal` uncovers; refused when it holds nothing hidden."""
    sq = parse_sq(a.get("at"))
    if sq is None:
        raise refuse("hq.err.bad_square")
    room = board.room_of(sq)
    area = set(board.room_squares(room)) if room is not None else {sq}
    if all(s.is_revealed(q) or q in s.dark for q in area):
        raise refuse("hq.err.already_revealed")
    return area


def _idle_reason(m: Monster, used: str) -> Msg:
    """Why a monster cannot move or act: not on the board yet for the heroes, asleep, or already done."""
    if not m["revealed"]:
        return msg("hq.err.monster_unseen", monster=monster_label(m))
    if m["status"].get("sleep"):
        return msg("hq.err.monster_asleep", monster=monster_label(m))
    return msg(used, monster=monster_label(m))


def _monster(s: HQState, uid: ArgValue | None) -> Monster:
    m = s.monsters.get(str(uid))
    if m is None:
        raise refuse("hq.err.no_monster")
    return m


def _free(s: HQState, sq: tuple[int, int] | None) -> tuple[int, int]:
    if sq is None or sq in s.dark or sq in s.blocked_squares() or sq in s.figure_at():
        raise refuse("hq.err.bad_square")
    return sq


def _placement(s: HQState, a: Action) -> tuple[str, Square]:
    ref = str(a.get("ref"))
    if ref not in catalog.monsters():
        raise refuse("hq.err.unknown_monster")
    return ref, _free(s, parse_sq(a.get("at")))


def _place_monster(ctx: Ctx, a: Action) -> None:
    s = ctx.state
    ref, sq = _placement(s, a)
    # a monster Morcar places moves and acts on his turn like the others (rulebook: monsters put on the board)
    m = magic.spawn(ctx, ref, sq, revealed=s.is_revealed(sq), ready=True)
    if not m["revealed"]:
        ctx.gm("hq.ev.gm_placed_hidden", monster=monster_label(m), sq=sq_token(sq))


def _object_placement(s: HQState, a: Action) -> tuple[str, str, Square]:
    kind = str(a.get("type"))
    ref = str(a.get("ref"))
    if kind not in OBJECT_KINDS or not ref.replace("_", "").isalnum():
        raise refuse("hq.err.bad_object")
    return kind, ref, _free(s, parse_sq(a.get("at")))


def _place_object(ctx: Ctx, a: Action) -> None:
    s = ctx.state
    kind, ref, sq = _object_placement(s, a)
    s.d["spawned"] += 1
    uid = trap_uid(s.objects, sq) if kind == "trap" else f"{ref}_x{s.d['spawned']}"
    entry: BoardObject = {"uid": uid, "kind": kind, "ref": ref, "squares": [list(sq)], "rotation":
                             str(a.get("rotation", "downward")), "between": None, "note": None,
                             "revealed": kind != "trap" and s.is_revealed(sq)}
    if kind == "trap":
        entry.update({"trap": trap_kind(ref), "found": False, "sprung": False, "disarmed": False})
    s.objects[uid] = entry
    if entry["revealed"]:
        ctx.say("hq.ev.object_placed", thing=Lit(ref.replace("_", " "), ref.replace("_", " ")))
    else:
        ctx.gm("hq.ev.gm_placed_object", uid=uid)


def _removal(s: HQState, a: Action) -> str:
    """The uid of the monster or removable object `gm_remove` names."""
    uid = str(a.get("uid"))
    if uid not in s.monsters and not (
            uid in s.objects and s.objects[uid]["kind"] not in ("door", "secret_door", "corpse", "marker")):
        raise refuse("hq.err.no_such_thing")
    return uid


def _remove(ctx: Ctx, a: Action) -> None:
    s = ctx.state
    uid = _removal(s, a)
    if uid in s.monsters:
        m = s.monsters.pop(uid)
        if m["revealed"]:
            ctx.say("hq.ev.monster_removed", monster=monster_label(m))
        else:
            ctx.gm("hq.ev.gm_removed", uid=uid)
    else:
        o = s.objects.pop(uid)
        if o["revealed"] or o.get("found"):
            ctx.say("hq.ev.object_removed")
        else:
            ctx.gm("hq.ev.gm_removed", uid=uid)


def _adjustment(s: HQState, a: Action) -> tuple[Figure, Stat, int]:
    """The figure `gm_adjust` changes (a hero on the board, else a monster), the stat and the change."""
    uid = str(a.get("uid"))
    stat = a.get("stat")
    delta = a.get("delta")
    if stat not in ("body", "mind") or not isinstance(delta, int) or isinstance(delta, bool) or delta == 0:
        raise refuse("hq.err.bad_adjust")
    which: Stat = "body" if stat == "body" else "mind"
    h = s.hero(uid)
    if h is not None and h["sq"] is not None and not h["dead"]:
        return h, which, delta
    m = s.monsters.get(uid)
    if m is None:
        raise refuse("hq.err.no_such_thing")
    return m, which, delta


def _raise(figure: Figure, stat: Stat, delta: int) -> None:
    """Up to the figure's maximum."""
    if stat == "body":
        figure["body"] = min(figure["max_body"], figure["body"] + delta)
    else:
        figure["mind"] = min(figure["max_mind"], figure["mind"] + delta)


def _adjust(ctx: Ctx, a: Action) -> None:
    figure, stat, delta = _adjustment(ctx.state, a)
    if "hero" in figure:
        h = figure
        if delta > 0:
            _raise(h, stat, delta)
        elif stat == "body":
            damage_hero(ctx, h, -delta)
        else:
            h["mind"] = max(0, h["mind"] + delta)
        ctx.say("hq.ev.adjusted", who=hero_label(h), stat=msg(f"hq.stat.{stat}"), value=h[stat])
        return
    m = figure
    if delta > 0:
        _raise(m, stat, delta)
    else:
        damage_monster(ctx, m, -delta, mind=stat == "mind")
        return
    ctx.about(m, "hq.ev.adjusted", who=monster_label(m), stat=msg(f"hq.stat.{stat}"), value=m[stat])


def _cast(ctx: Ctx, a: Action) -> None:
    s = ctx.state
    m = _monster(s, a.get("caster"))
    sid = str(a.get("spell"))
    chaos = catalog.spells()["chaos"]
    if sid not in chaos:
        raise refuse("hq.err.no_spell")
    if sid not in m.get("spells", []):
        # rulebook: «esta última sólo la podrán realizar las criaturas que en el reto estén indicadas»
        raise refuse("hq.err.not_a_caster", monster=monster_label(m), spell=catalog.spell_name(sid))
    if sid in m["cast"]:
        raise refuse("hq.err.spell_cast", spell=catalog.spell_name(sid))
    if not can_act(m):
        raise IllegalAction(_idle_reason(m, "hq.err.monster_acted"))
    target = None
    if chaos[sid]["target"] == "hero":
        target = s.hero(str(a.get("target")))
        if (target is None or target["sq"] is None
                or not magic.can_target(s, as_square(m["sq"]), as_square(target["sq"]))):
            raise refuse("hq.err.not_in_sight")
    m["acted"] = True
    ctx.undoable = False
    magic.chaos_casts(ctx, m, sid, target)


def _grant(s: HQState, a: Action) -> tuple[Monster, str]:
    m = _monster(s, a.get("monster"))
    sid = str(a.get("spell"))
    if sid not in catalog.spells()["chaos"]:
        raise refuse("hq.err.no_spell")
    if sid in m.get("spells", []):
        raise refuse("hq.err.spell_known", monster=monster_label(m), spell=catalog.spell_name(sid))
    return m, sid


def _grant_spell(ctx: Ctx, a: Action) -> None:
    """The quest says this creature knows a Chaos spell: from now on it may cast it (once, like every spell)."""
    m, sid = _grant(ctx.state, a)
    m.setdefault("spells", []).append(sid)
    # which creatures cast spells is the quest's secret until they do
    ctx.gm("hq.ev.gm_spell_granted", monster=monster_label(m), spell=catalog.spell_name(sid))


def _award_of(s: HQState, a: Action) -> tuple[Hero, str | None, str | None, int]:
    """The hero `gm_award` names, the equipment id or else the Quest Treasure id it hands over, and the gold."""
    h = s.hero(str(a.get("hero")))
    if h is None or h["dead"]:
        raise refuse("hq.err.no_hero")
    item, gold = a.get("item"), a.get("gold", 0)
    if item is None and not gold:
        raise refuse("hq.err.bad_award")
    if not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold <= MAX_AWARD_GOLD:
        raise refuse("hq.err.bad_gold", most=MAX_AWARD_GOLD)
    key = tid = None
    if item is not None:
        key = _item_key(str(item))
        if key is None:
            tid = quest_treasures.resolve(str(item))
            if tid is None:
                raise refuse("hq.err.bad_treasure", most=quest_treasures.MAX_NAME)
    return h, key, tid, gold


def _award(ctx: Ctx, a: Action) -> None:
    """Hand a hero what a quest note promises: equipment, a potion, a scroll, a Quest Treasure, or gold."""
    h, key, tid, gold = _award_of(ctx.state, a)
    if key is not None:
        h["items"].append(key)
        ctx.say("hq.ev.awarded", hero=hero_label(h), item=catalog.item_name(key))
    elif tid is not None:
        h["quest_treasures"].append(tid)
        ctx.say("hq.ev.awarded_treasure", hero=hero_label(h), item=quest_treasures.name(tid))
    if gold:
        h["gold"] += gold
        ctx.say("hq.ev.finds_gold", hero=hero_label(h), gold=gold)


def _item_key(text: str) -> str | None:
    """An equipment, potion, scroll or rune id named by its id or its name in either language."""
    table = catalog.equipment()
    if text in table:
        return text
    needle = quest_treasures.fold(text)
    for key, entry in table.items():
        if needle in (quest_treasures.fold(entry["name"]["es"]), quest_treasures.fold(entry["name"]["en"])):
            return key
    return None


#: The check each tool of `ANYTIME` makes before `act` carries it out (it raises the refusal).
_CHECKS: dict[str, Callable[[HQState, Action], object]] = {
    "gm_end_quest": _result_of, "gm_place": _placement, "gm_place_object": _object_placement,
    "gm_remove": _removal, "gm_adjust": _adjustment, "gm_note": _note, "gm_award": _award_of,
    "gm_spell": _grant, "gm_reveal": _reveal_area,
}
