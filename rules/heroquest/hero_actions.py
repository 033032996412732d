"""What a hero may do on its turn (move, run, doors, jumps, the eight actions, potions, gifts) and doing it."""

from __future__ import annotations

import re

from rules.base import Action, ArgValue, IllegalAction, LegalAction
from rules.heroquest import artefacts, board, catalog, fight, magic, moves, quest_treasures, sight, trade, traps, view
from rules.heroquest import descriptions as describe
from rules.heroquest.board import Square
from rules.heroquest.catalog import EquipmentEntry
from rules.heroquest.combat import count_skulls
from rules.heroquest.dice import roll_text
from rules.heroquest.shapes import EQUIP_SLOTS, BoardObject, Hero, Monster, Offer, equip_slot
from rules.heroquest.state import (
    Ctx,
    HQState,
    as_square,
    door_cells,
    figure_label,
    hero_label,
    hero_square,
    is_outside,
    monster_label,
    parse_sq,
    refuse,
    sq_token,
)
from rules.heroquest.turns import damage_hero, end_hero_turn, mark_potion, potion_used
from rules.text import Lit, Msg, msg

_GOLD = re.compile(r"(\d+)\s*(?:gold|monedas de oro|oro)", re.IGNORECASE)
_TREASURE_WORDS = re.compile(r"gold|treasure|find|found|oro|tesoro|encontrar", re.IGNORECASE)


# ---------------------------------------------------------------- queries


def can_move(s: HQState) -> bool:
    turn = s.d["turn"]
    return not turn["closed"] and turn["moves"] > 0


def can_act(s: HQState) -> bool:
    turn = s.d["turn"]
    return not turn["acted"] or turn.get("attacks", 0) > 0


def shocked(h: Hero) -> bool:
    return h["mind"] <= 0


def monster_adjacent(s: HQState, sq: Square) -> bool:
    return any(board.adjacent(sq, as_square(m["sq"])) for m in s.monsters.values() if m["revealed"])


def area_key(sq: Square) -> str:
    room = board.room_of(sq)
    return f"room{room}" if room is not None else ""


def corridor_segment(s: HQState, sq: Square) -> set[Square]:
    """The straight corridor squares in sight of a hero standing in a corridor (its row and column)."""
    out = {sq}
    open_edges = s.open_edges()
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        cur = sq
        while True:
            nxt = (cur[0] + dr, cur[1] + dc)
            if not board.in_board(nxt) or not board.is_corridor(nxt) or nxt in s.dark:
                break
            if not board.passable(cur, nxt, open_edges):
                break
            out.add(nxt)
            cur = nxt
    return out


def on_stairs(s: HQState, h: Hero) -> bool:
    """Standing on the stairway, the way out (offered from the second round on, accepted at any time)."""
    return any(o["kind"] == "stairs" and h["sq"] in o["squares"] for o in s.objects.values())


def search_area(s: HQState, sq: Square) -> set[Square]:
    room = board.room_of(sq)
    return set(board.room_squares(room)) if room is not None else corridor_segment(s, sq)


def visible_targets(s: HQState, h: Hero) -> tuple[list[Monster], list[Hero]]:
    sq = hero_square(h)
    monsters = [m for m in s.monsters.values() if m["revealed"] and magic.can_target(s, sq, as_square(m["sq"]))]
    heroes = [o for o in s.on_board_heroes() if magic.can_target(s, sq, hero_square(o))]
    return monsters, heroes


def monster_in(s: HQState, area: set[Square]) -> bool:
    """Whether a monster the heroes know of stands in `area` (unseen ones never change what heroes may do)."""
    return any(m["revealed"] and as_square(m["sq"]) in area for m in s.monsters.values())


def search_blocked(s: HQState, sq: Square) -> bool:
    """No searching with monsters in sight; in a corridor only monsters in that corridor count (rulebook,
    «podrá haber monstruos en la visión del jugador siempre y cuando se encuentren fuera del pasillo»)."""
    if board.room_of(sq) is None:
        return monster_in(s, search_area(s, sq))
    return bool(sight.monsters_in_sight(s, sq)) or monster_in(s, search_area(s, sq))


def beyond_open_doors(s: HQState, sq: Square) -> list[set[Square]]:
    """The rooms or corridors on the far side of the open doors the hero stands in front of."""
    out = []
    for o in sorted(s.objects.values(), key=lambda o: o["uid"]):
        if o["kind"] in ("door", "secret_door") and o.get("open") and [sq[0], sq[1]] in door_cells(o):
            other = next(as_square(q) for q in door_cells(o) if as_square(q) != sq)
            out.append(search_area(s, other))
    return out


def trap_search_area(s: HQState, sq: Square) -> set[Square]:
    """Where a trap search looks: the hero's room or corridor, and beyond an open door next to the hero when
    no creature is there (rulebook: «la búsqueda de trampas detrás de la puerta también muestra las que se
    encuentran en el pasillo o habitación»)."""
    area = search_area(s, sq)
    for beyond in beyond_open_doors(s, sq):
        if not monster_in(s, beyond):
            area |= beyond
    return area


# ---------------------------------------------------------------- listing


def legal(s: HQState, h: Hero) -> list[LegalAction]:
    if is_outside(h):
        return outside_legal(s, h)
    out: list[LegalAction] = []
    sq = hero_square(h)
    turn = s.d["turn"]
    name = hero_label(h)

    def add(kind: str, label: Msg, group: str, description: Msg | None = None, /, **args: ArgValue) -> None:
        out.append(LegalAction(Action.of(kind, **args), label, group, description))

    if can_move(s):
        for q in moves.destinations(s, h, turn["moves"]):
            add("move", msg("hq.act.move", hero=name, sq=sq_token(q)), "move", to=sq_token(q))
        if not turn["jumped"]:
            for q in jump_targets(s, h):
                add("jump", msg("hq.act.jump", hero=name, sq=sq_token(q)), "move", to=sq_token(q))
        for q in pits_to_enter(s, h):
            add("jump_in", msg("hq.act.jump_in", hero=name, sq=sq_token(q)), "move",
                msg("hq.act.jump_in.desc"), to=sq_token(q))
    for door in s.objects.values():
        if (door["kind"] in ("door", "secret_door") and door["found"] and not door["open"] and door["revealed"]
                and [sq[0], sq[1]] in door_cells(door)):
                add("open_door", msg("hq.act.open_door", hero=name), "move", door=door["uid"])
    if can_act(s):
        if not turn["acted"] and not turn["moved"] and not shocked(h):
            add("run", msg("hq.act.run", hero=name), "action")
        for m in s.monsters.values():
            if not m["revealed"]:
                continue
            monster_sq = as_square(m["sq"])
            fists_reach = fight.reach_mode(s, h, monster_sq, fists=True) is not None
            if h["weapon"]:
                if fight.reach_mode(s, h, monster_sq, fists=False):
                    add("attack", msg("hq.act.attack", hero=name, target=monster_label(m)), "attack",
                        target=m["uid"])
                if fists_reach:
                    add("attack", msg("hq.act.fists", hero=name, target=monster_label(m)), "attack",
                        target=m["uid"], fists=True)
            elif fists_reach:
                add("attack", msg("hq.act.fists", hero=name, target=monster_label(m)), "attack", target=m["uid"])
        if not turn["acted"] and not shocked(h):
            _legal_spells(s, h, add)
            artefacts.scroll_offers(s, h, add)
            artefacts.rune_offers(s, h, add)
            _legal_searches(s, h, add)
            for item in h["items"]:
                if can_equip(s, h, item) is None:
                    add("equip", msg("hq.act.equip", hero=name, item=catalog.item_name(item)), "equipment",
                        describe.item(item), item=item)
            for slot in EQUIP_SLOTS:
                worn = h[slot]
                if worn and (slot != "armour" or not monster_adjacent(s, sq)):
                    add("unequip", msg("hq.act.unequip", hero=name, item=catalog.item_name(worn)), "equipment",
                        slot=slot)
            for trap in disarmable(s, h):
                add("disarm", msg("hq.act.disarm", hero=name), "search", trap=trap["uid"])
            clear = not sight.monsters_in_sight(s, sq)
            for i, thrown in enumerate(s.d["thrown"]):
                if clear and (board.adjacent(sq, as_square(thrown["sq"])) or as_square(thrown["sq"]) == sq):
                    add("pick_up", msg("hq.act.pick_up", hero=name, item=catalog.item_name(thrown["item"])), "search",
                        index=i)
    if not turn["potion"]:
        table = catalog.equipment()
        for item in sorted(set(h["items"])):
            entry = table.get(item)
            if entry is not None and entry["slot"] == "potion":
                add("drink", msg("hq.act.drink", hero=name, item=catalog.item_name(item)), "items",
                    describe.item(item), item=item)
    trade.offers(s, h, add)
    if any(_loaded_corpse(o, h) for o in s.objects.values()) and not sight.monsters_in_sight(s, sq):
        add("recover", msg("hq.act.recover", hero=name), "items")
    if on_stairs(s, h) and s.d["round"] > 1:
        add("leave", msg("hq.act.leave", hero=name), "move")
    add("end_turn", msg("hq.act.end_turn", hero=name), "turn")
    return out


def _legal_spells(s: HQState, h: Hero, add: Offer) -> None:
    if not h["spells"]:
        return
    monsters, heroes = visible_targets(s, h)
    for sid in h["spells"]:
        spell = catalog.spell(sid)
        pool = heroes if spell["target"] == "hero" else monsters
        for target in pool:
            label = figure_label(target)
            add("cast", msg("hq.act.cast", hero=hero_label(h), spell=catalog.spell_name(sid), target=label), "spell",
                describe.spell(sid), spell=sid, target=target["uid"])


def _legal_searches(s: HQState, h: Hero, add: Offer) -> None:
    sq = hero_square(h)
    name = hero_label(h)
    in_sight = bool(sight.monsters_in_sight(s, sq))
    key = area_key(sq)
    area = search_area(s, sq)
    if key and not in_sight and key not in h["searched"] and not found_traps_in(s, area) and not monster_in(s, area):
        add("search_treasure", msg("hq.act.search_treasure", hero=name), "search")
    if not search_blocked(s, sq):
        add("search_traps", msg("hq.act.search_traps", hero=name), "search")
        add("search_secret", msg("hq.act.search_secret", hero=name), "search")


def found_traps_in(s: HQState, area: set[Square]) -> list[BoardObject]:
    return [o for o in s.objects.values() if traps.active(o) and o["found"] and not o["sprung"]
            and o["trap"] not in traps.UNSEARCHABLE and any(as_square(q) in area for q in o["squares"])]


def jump_targets(s: HQState, h: Hero) -> list[Square]:
    sq = hero_square(h)
    longest = catalog.heroes()[h["hero"]].get("pit_jump", 1)
    out = []
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    figures = s.figure_at()
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        cur = sq
        over = 0
        while over < longest:
            nxt = (cur[0] + dr, cur[1] + dc)
            if not board.in_board(nxt) or not board.passable(cur, nxt, open_edges) or not traps.known_trap_at(s, nxt):
                break
            over += 1
            cur = nxt
            land = (cur[0] + dr, cur[1] + dc)
            if (board.in_board(land) and board.passable(cur, land, open_edges) and s.is_revealed(land)
                    and land not in blocked and land not in figures and land not in s.dark
                    and not traps.known_trap_at(s, land) and over + 1 <= s.d["turn"]["moves"]):
                out.append(land)
    return out


def pits_to_enter(s: HQState, h: Hero) -> list[Square]:
    """Found pits next to the hero that have not gone off: the hero may jump into one on purpose (rulebook:
    «Saltar al interior de un pozo es una opción libre que se puede efectuar siempre que el jugador quiera»;
    a corner pit, which cannot be jumped over, is entered this way). It takes one square of movement.
    Open pits are entered by an ordinary move."""
    if s.d["turn"]["moves"] < 1:
        return []
    sq = hero_square(h)
    open_edges = s.open_edges()
    figures = s.figure_at()
    out = []
    for nb in board.orthogonal(sq):
        trap = traps.known_trap_at(s, nb)
        if (trap is not None and trap["trap"] in traps.PIT_KINDS and not trap["sprung"]
                and board.passable(sq, nb, open_edges) and nb not in figures):
            out.append(nb)
    return sorted(out)


def can_disarm(h: Hero) -> bool:
    """The Tool Kit, or a hero who needs none (the Dwarf, or the Trap Lore skill)."""
    return ("toolkit" in h["items"] or bool(catalog.heroes()[h["hero"]].get("disarm_without_kit"))
            or "trap_lore" in h.get("skills", ()))


def on_trap(sq: Square, trap: BoardObject) -> bool:
    """Standing on a floor trap (rulebook: «colocarse encima de la trampa»), or beside the furniture holding one."""
    if trap["trap"] == "furniture":
        return any(board.adjacent(sq, as_square(q)) for q in trap["squares"])
    return any(as_square(q) == sq for q in trap["squares"])


def found_traps(s: HQState) -> list[BoardObject]:
    return [o for o in s.objects.values()
            if traps.active(o) and o["found"] and not o["sprung"] and o["trap"] not in traps.UNSEARCHABLE]


def disarmable(s: HQState, h: Hero) -> list[BoardObject]:
    if not can_disarm(h):
        return []
    sq = hero_square(h)
    return [o for o in found_traps(s) if on_trap(sq, o)]


def can_equip(s: HQState, h: Hero, item: str) -> Msg | None:
    """None when the hero may put `item` on now, else the reason."""
    entry = catalog.equipment().get(item)
    if entry is None or entry["slot"] not in EQUIP_SLOTS:
        return msg("hq.err.not_equipment")
    if h["hero"] in entry.get("forbidden", []):
        return msg("hq.err.cannot_use", item=catalog.item_name(item))
    if entry["slot"] == "armour" and monster_adjacent(s, hero_square(h)):
        return msg("hq.err.armour_monster_adjacent")
    if entry["slot"] == "shield" and h["weapon"] and catalog.equipment()[h["weapon"]].get("two_handed"):
        return msg("hq.err.two_handed")
    return None


# ---------------------------------------------------------------- doing


def outside_legal(s: HQState, h: Hero) -> list[LegalAction]:
    """A hero waiting at the Door In may enter on a free square inside it, or pass (nothing else: it is not on
    the board)."""
    name = hero_label(h)
    out = [LegalAction(Action.of("enter", to=sq_token(q)), msg("hq.act.enter", hero=name, sq=sq_token(q)), "move",
                       msg("hq.act.enter.desc"))
           for q in s.entry_squares()]
    out.append(LegalAction(Action.of("end_turn"), msg("hq.act.end_turn", hero=name), "turn"))
    return out


def act_outside(ctx: Ctx, h: Hero, a: Action) -> None:
    """Enter through the Door In (the hero stands on the square inside it and plays the rest of its turn from
    there, its whole movement still to come) or stay outside this turn."""
    s = ctx.state
    if a.kind == "end_turn":
        ctx.say("hq.ev.waits_outside", hero=hero_label(h))
        end_hero_turn(ctx)
        return
    if a.kind != "enter":
        raise refuse("hq.err.outside", hero=hero_label(h))
    target = parse_sq(a.get("to"))
    free = s.entry_squares()
    if target is None or target not in free:
        if free:
            raise refuse("hq.err.enter_where", squares=", ".join(sq_token(q) for q in free))
        raise refuse("hq.err.entry_taken", hero=hero_label(h), count=len(s.quest_obj.start))
    h.pop("outside", None)
    h["sq"] = list(target)
    ctx.say("hq.ev.enters", hero=hero_label(h), sq=sq_token(target))
    sight.refresh(ctx)


def act(ctx: Ctx, h: Hero, a: Action) -> None:
    """Validate and carry out one hero action (raises IllegalAction, the caller discards the copy)."""
    if is_outside(h):
        act_outside(ctx, h, a)
        return
    s = ctx.state
    turn = s.d["turn"]
    kind = a.kind
    sq = hero_square(h)
    if kind == "end_turn":
        end_hero_turn(ctx)
        return
    if kind == "move":
        target = parse_sq(a.get("to"))
        if target is None:
            raise refuse("hq.err.off_board")
        parents = moves.hero_paths(s, h, turn["moves"]) if can_move(s) else {}
        if target not in parents or target == sq or target in s.figure_at() or target in s.blocked_squares():
            raise IllegalAction(move_refusal(s, h, target))
        walk(ctx, h, moves.path_to(parents, target))
        return
    if kind == "jump":
        target = parse_sq(a.get("to"))
        if target is None:
            raise refuse("hq.err.off_board")
        if not can_move(s):
            raise IllegalAction(movement_refusal(s))
        if turn["jumped"]:
            raise refuse("hq.err.jumped")
        if target not in jump_targets(s, h):
            raise refuse("hq.err.cannot_jump")
        jump(ctx, h, target)
        return
    if kind == "jump_in":
        target = parse_sq(a.get("to"))
        if target is None:
            raise refuse("hq.err.off_board")
        if not can_move(s):
            raise IllegalAction(movement_refusal(s))
        if target not in pits_to_enter(s, h):
            raise refuse("hq.err.cannot_jump_in")
        trap = traps.known_trap_at(s, target)
        assert trap is not None
        turn["moved"] = True
        turn["moves"] = 0
        h["sq"] = list(target)
        ctx.say("hq.ev.jumps_in", hero=hero_label(h))
        traps.spring(ctx, trap, h, deliberate=True)
        _after_trap(ctx, h)
        return
    if kind == "open_door":
        door = s.objects.get(str(a.get("door")))
        if door is None or door["kind"] not in ("door", "secret_door") or not view.door_visible(door):
            raise refuse("hq.err.no_door")
        if door["open"]:
            raise refuse("hq.err.door_open")
        if [sq[0], sq[1]] not in door_cells(door):
            raise refuse("hq.err.not_at_door")
        door["open"] = True
        ctx.say("hq.ev.door_opened", hero=hero_label(h))
        sight.open_door(ctx, door)
        ctx.undoable = False
        return
    if kind == "drink":
        drink(ctx, h, str(a.get("item")))
        return
    if kind in ("give", "take", "swap"):
        trade.act(ctx, h, kind, a.arg_dict)
        return
    if kind == "recover":
        recover(ctx, h)
        return
    if kind == "leave":
        if not on_stairs(s, h):
            raise refuse("hq.err.not_on_stairs")
        h["sq"] = None
        h["left"] = True
        ctx.say("hq.ev.leaves", hero=hero_label(h))
        end_hero_turn(ctx)
        return
    # ---- the actions proper
    if not can_act(s):
        raise refuse("hq.err.already_acted")
    if shocked(h) and kind not in ("attack",):
        raise refuse("hq.err.shocked")
    if kind == "attack":
        attack(ctx, h, str(a.get("target")), bool(a.get("fists", False)))
    elif turn["acted"]:
        raise refuse("hq.err.already_acted")
    elif kind == "run":
        if turn["moved"]:
            raise refuse("hq.err.run_first")
        turn["moves"] += 5
        turn["run"] = True
        ctx.say("hq.ev.runs", hero=hero_label(h))
    elif kind == "cast":
        cast(ctx, h, str(a.get("spell")), str(a.get("target")))
    elif kind == "read_scroll":
        artefacts.read_scroll(ctx, h, str(a.get("item")), str(a.get("target")))
    elif kind == "rune":
        artefacts.throw_rune(ctx, h, str(a.get("rune")), str(a.get("target")), a.get("power", 0))
    elif kind == "search_treasure":
        search_treasure(ctx, h)
    elif kind == "search_traps":
        search_traps(ctx, h)
    elif kind == "search_secret":
        search_secret(ctx, h)
    elif kind == "disarm":
        disarm(ctx, h, str(a.get("trap")))
    elif kind == "equip":
        equip(ctx, h, str(a.get("item")))
    elif kind == "unequip":
        unequip(ctx, h, str(a.get("slot")))
    elif kind == "pick_up":
        pick_up(ctx, h, a.get("index"))
    else:
        raise refuse("hq.err.unknown_action")
    if kind != "attack" and s.d["turn"] is turn:
        _spend_action(s)


def movement_refusal(s: HQState) -> Msg:
    turn = s.d["turn"]
    if turn["closed"]:
        return msg("hq.err.turn_closed")
    return msg("hq.err.movement_spent")


def move_refusal(s: HQState, h: Hero, target: Square) -> Msg:
    """Why the hero cannot move to `target` now, from what the heroes know (never from hidden things)."""
    turn = s.d["turn"]
    sq = hero_square(h)
    if target == sq:
        return msg("hq.err.already_there")
    if not s.is_revealed(target):
        return msg("hq.err.unseen_square")
    who = s.figure_at().get(target)
    if who is not None:
        return msg("hq.err.occupied", who=hero_label(who[1]) if who[0] == "hero" else monster_label(who[1]))
    if target in s.blocked_squares():
        return msg("hq.err.blocked_square")
    if not can_move(s):
        return movement_refusal(s)
    far = moves.hero_paths(s, h, 10_000)
    if target in far:
        steps = len(moves.path_to(far, target))
        return msg("hq.err.too_far", steps=steps, moves=turn["moves"])
    if target in moves.hero_paths(s, h, 10_000, over_traps=True):
        return msg("hq.err.trap_in_way")
    if target in moves.hero_paths(s, h, 10_000, over_monsters=True):
        return msg("hq.err.monsters_in_way")
    return msg("hq.err.wall_in_way")


def reach_refusal(s: HQState, h: Hero, m: Monster, fists: bool) -> Msg:
    """Why this weapon (or bare hands) cannot reach the monster from where the hero stands."""
    sq, target = hero_square(h), as_square(m["sq"])
    weapon_stats = None if fists else fight.weapon_of(h)
    weapon_id = h["weapon"]
    weapon = catalog.item_name(weapon_id) if weapon_stats and weapon_id else msg("hq.bare_hands")
    if weapon_stats and (weapon_stats.get("ranged") or weapon_stats.get("thrown")) and not board.adjacent(sq, target):
        if traps.in_pit(s, sq):
            return msg("hq.err.in_pit_no_missiles")
        return msg("hq.err.no_line_of_sight", target=monster_label(m))
    if weapon_stats and weapon_stats.get("ranged"):
        return msg("hq.err.ranged_adjacent", weapon=weapon)
    if board.adjacent(sq, target):
        return msg("hq.err.wall_in_way")
    return msg("hq.err.not_adjacent", target=monster_label(m), weapon=weapon)


def _spend_action(s: HQState) -> None:
    turn = s.d["turn"]
    if turn["who"] != "hero":
        return
    turn["acted"] = True
    if turn["moved"]:
        turn["closed"] = True


def walk(ctx: Ctx, h: Hero, path: list[Square]) -> None:
    """Step along `path`: a hidden trap stops the hero and ends the turn; newly seen monsters stop the walk."""
    s = ctx.state
    turn = s.d["turn"]
    turn["moved"] = True
    for q in path:
        h["sq"] = list(q)
        turn["moves"] -= 1
        _watch_corpses(s)
        trap = traps.hidden_trap_at(s, q)
        if trap is not None:
            traps.spring(ctx, trap, h)
            _after_trap(ctx, h)
            return
        trap = traps.known_trap_at(s, q)
        if trap is not None and (trap["sprung"] or trap["trap"] in traps.UNSEARCHABLE):
            # walking into an open pit is jumping into it; slippery stairs stay slippery
            traps.spring(ctx, trap, h, deliberate=trap["trap"] in traps.PIT_KINDS)
            turn["moves"] = 0
            _after_trap(ctx, h)
            return
        if trap is not None:
            # a found mechanism: the hero steps onto it with care (to disarm it) and stops there
            turn["moves"] = 0
            sight.refresh(ctx)
            ctx.say("hq.ev.on_found_trap", hero=hero_label(h), sq=sq_token(q))
            return
        if sight.refresh(ctx):
            return
    ctx.say("hq.ev.moved", hero=hero_label(h), sq=sq_token(q))


def _after_trap(ctx: Ctx, h: Hero) -> None:
    """Falling into a trap ends the hero's turn (after any pending decision)."""
    s = ctx.state
    if h["sq"] is not None:
        sight.refresh(ctx)
    if s.d["pending"]:
        s.d["pending"][-1]["then_end"] = True
        return
    end_hero_turn(ctx)


def _watch_corpses(s: HQState) -> None:
    """A witness who loses sight of a corpse can no longer recover its equipment without a roll."""
    for o in s.objects.values():
        if o["kind"] == "corpse" and o["witnesses"]:
            keep = []
            for uid in o["witnesses"]:
                witness = s.hero(uid)
                if witness and witness["sq"] and sight.sees(s, hero_square(witness), as_square(o["squares"][0])):
                    keep.append(uid)
            o["witnesses"] = keep


def jump(ctx: Ctx, h: Hero, target: Square) -> None:
    s = ctx.state
    turn = s.d["turn"]
    sq = hero_square(h)
    dist = abs(target[0] - sq[0]) + abs(target[1] - sq[1])
    turn["jumped"] = True
    turn["moved"] = True
    step = ((target[0] - sq[0]) // dist, (target[1] - sq[1]) // dist)
    first = (sq[0] + step[0], sq[1] + step[1])
    face = ctx.roll(1)[0]
    if face in ("bskull", "wskull"):
        trap = traps.known_trap_at(s, first)
        assert trap is not None
        ctx.say("hq.ev.jump_fails", hero=hero_label(h))
        other = s.figure_at().get(first)
        if other is None:
            h["sq"] = list(first)
        elif other[0] == "hero":
            damage_hero(ctx, other[1], 1)
        traps.spring(ctx, trap, h)
        turn["moves"] = 0
        _after_trap(ctx, h)
        return
    h["sq"] = list(target)
    turn["moves"] -= dist
    ctx.say("hq.ev.jumps", hero=hero_label(h))
    sight.refresh(ctx)


def attack(ctx: Ctx, h: Hero, target_uid: str, fists: bool) -> None:
    s = ctx.state
    turn = s.d["turn"]
    m = s.monsters.get(target_uid)
    if m is None or not m["revealed"]:
        raise refuse("hq.err.no_target")
    if fists is False and not h["weapon"]:
        fists = True
    if fight.reach_mode(s, h, as_square(m["sq"]), fists) is None:
        raise IllegalAction(reach_refusal(s, h, m, fists))
    if turn["acted"] and turn.get("attacks", 0) <= 0:
        raise refuse("hq.err.already_acted")
    if not turn["acted"]:
        turn["attacks"] = 1 + int(bool(h["status"].pop("brew", False))) + int("double_attack" in h.get("skills", ()))
        _spend_action(s)
    turn["attacks"] -= 1
    fight.hero_attacks(ctx, h, m, fists)


def cast(ctx: Ctx, h: Hero, spell_id: str, target_uid: str) -> None:
    s = ctx.state
    if spell_id not in h["spells"]:
        raise refuse("hq.err.no_spell")
    spell = catalog.spell(spell_id)
    target = artefacts.spell_target(s, h, target_uid, spell["target"] == "hero")
    magic.hero_casts(ctx, h, spell_id, target)


def search_treasure(ctx: Ctx, h: Hero) -> None:
    s = ctx.state
    sq = hero_square(h)
    key = area_key(sq)
    area = search_area(s, sq)
    if not key:
        raise refuse("hq.err.treasure_in_rooms")
    if sight.monsters_in_sight(s, sq) or monster_in(s, area):
        raise refuse("hq.err.monsters_in_sight")
    if key in h["searched"]:
        raise refuse("hq.err.already_searched")
    if found_traps_in(s, area):
        raise refuse("hq.err.disarm_first")
    ctx.undoable = False
    hidden = [o for o in s.objects.values() if traps.active(o) and not o["found"] and not o["sprung"]
              and o["trap"] not in traps.UNSEARCHABLE and any(as_square(q) in area for q in o["squares"])]
    if hidden:
        trap = min(hidden, key=lambda o: (min(abs(q[0] - sq[0]) + abs(q[1] - sq[1]) for q in o["squares"]), o["uid"]))
        spot = as_square(trap["squares"][0])
        if trap["trap"] != "furniture" and spot not in s.figure_at() and spot not in s.blocked_squares():
            h["sq"] = list(spot)
        traps.spring(ctx, trap, h)
        _spend_action(s)
        _after_trap(ctx, h)
        return
    h["searched"].append(key)
    note = _treasure_note(s, area)
    if note is not None:
        letter, text = note
        s.d["notes_used"].append(letter)
        ctx.gm("hq.ev.gm_note_treasure", hero=hero_label(h), note=letter, text=text)
        gold = _GOLD.search(text.en) or _GOLD.search(text.es)
        found = False
        if gold and "empty" not in text.en.lower():
            h["gold"] += int(gold.group(1))
            ctx.say("hq.ev.finds_gold", hero=hero_label(h), gold=int(gold.group(1)))
            found = True
        tid = quest_treasures.named_in(text.en, text.es)
        if tid is not None and not any(tid in x["quest_treasures"] for x in s.heroes):
            h["quest_treasures"].append(tid)
            ctx.say("hq.ev.finds_named_treasure", hero=hero_label(h), item=quest_treasures.name(tid))
            found = True
        if not found:
            ctx.say("hq.ev.finds_quest_treasure", hero=hero_label(h))
        return
    draw_treasure(ctx, h)


def _treasure_note(s: HQState, area: set[Square]) -> tuple[str, Lit] | None:
    quest = s.quest_obj
    for o in sorted(s.objects.values(), key=lambda o: o["uid"]):
        letter = o.get("note")
        if o["kind"] != "marker" or not letter or letter in s.d["notes_used"] or letter not in quest.notes:
            continue
        if as_square(o["squares"][0]) in area and _TREASURE_WORDS.search(quest.notes[letter].en):
            return letter, quest.notes[letter]
    return None


def draw_treasure(ctx: Ctx, h: Hero) -> None:
    """Draw from the treasure deck; wandering monsters and hazards go back and the deck is reshuffled."""
    s = ctx.state
    deck = s.d["deck"]
    if not deck:
        ctx.say("hq.ev.finds_nothing", hero=hero_label(h))
        return
    cid = deck.pop(0)
    card = catalog.treasure_card(cid)
    kind = card["kind"]
    if kind == "gold":
        h["gold"] += card["gold"]
        ctx.say("hq.ev.finds_gold", hero=hero_label(h), gold=card["gold"])
    elif kind == "item":
        h["items"].append(card["item"])
        ctx.say("hq.ev.finds_item", hero=hero_label(h), item=catalog.item_name(card["item"]))
    elif kind == "nothing":
        ctx.say("hq.ev.finds_nothing", hero=hero_label(h))
    else:
        deck.append(cid)
        ctx.rng.shuffle(deck)
        if kind == "wandering":
            wandering_monster(ctx, h)
        else:
            hazard = msg(f"hq.trap.{card.get('trap', 'arrow')}")
            damage = card.get("damage", 0)
            if card.get("damage_dice"):
                faces = ctx.roll(card["damage_dice"])
                damage += count_skulls(faces)
                ctx.say("hq.ev.hazard_roll", hero=hero_label(h), hazard=hazard, roll=roll_text(faces), damage=damage)
            else:
                ctx.say("hq.ev.hazard_fixed", hero=hero_label(h), hazard=hazard, damage=damage)
            damage_hero(ctx, h, damage, then_end=True)
            if not s.d["pending"] and not h["dead"]:
                end_hero_turn(ctx)


def wandering_monster(ctx: Ctx, h: Hero) -> None:
    """The quest's wandering monster appears next to the hero and attacks at once; the hero's turn ends."""
    s = ctx.state
    ref = s.quest.get("wandering_monster") or "orc"
    sq = hero_square(h)
    free = traps.free_steps(s, sq)
    adjacent = bool(free)
    if not free:
        room = board.room_of(sq)
        pool = sorted(board.room_squares(room)) if room is not None else []
        blocked = s.blocked_squares()
        free = [q for q in pool if q not in s.figure_at() and q not in blocked]
    ctx.say("hq.ev.wandering", hero=hero_label(h))
    if free:
        m = magic.spawn(ctx, ref, free[0], revealed=True)
        if adjacent and "survival_instinct" not in h.get("skills", ()):
            fight.monster_attacks(ctx, m, h)
    if s.d["pending"]:
        s.d["pending"][-1]["then_end"] = True
    elif not h["dead"]:
        end_hero_turn(ctx)


def search_traps(ctx: Ctx, h: Hero) -> None:
    s = ctx.state
    sq = hero_square(h)
    if search_blocked(s, sq):
        raise refuse("hq.err.monsters_in_sight")
    ctx.undoable = False
    area = trap_search_area(s, sq)
    found = 0
    for o in s.objects.values():
        if traps.active(o) and not o["found"] and o["trap"] not in traps.UNSEARCHABLE and any(
                as_square(q) in area for q in o["squares"]):
            o["found"] = True
            o["revealed"] = True
            found += 1
    ctx.say("hq.ev.searched_traps", hero=hero_label(h), found=found)
    if not any(m["revealed"] for m in s.monsters.values()):
        _find_secret_doors(ctx, h, search_area(s, sq))


def search_secret(ctx: Ctx, h: Hero) -> None:
    s = ctx.state
    sq = hero_square(h)
    if search_blocked(s, sq):
        raise refuse("hq.err.monsters_in_sight")
    ctx.undoable = False
    _find_secret_doors(ctx, h, search_area(s, sq))


def _find_secret_doors(ctx: Ctx, h: Hero, area: set[Square]) -> None:
    found = 0
    for o in ctx.state.objects.values():
        if o["kind"] == "secret_door" and not o["found"] and any(as_square(q) in area for q in door_cells(o)):
            o["found"] = True
            o["revealed"] = True
            found += 1
    ctx.say("hq.ev.searched_secret", hero=hero_label(h), found=found)


def disarm(ctx: Ctx, h: Hero, trap_uid: str) -> None:
    s = ctx.state
    trap = s.objects.get(trap_uid)
    if trap is None or trap not in found_traps(s):
        raise refuse("hq.err.no_found_trap")
    if not can_disarm(h):
        raise refuse("hq.err.needs_toolkit")
    if not on_trap(hero_square(h), trap):
        raise refuse("hq.err.stand_on_trap")
    kit = "toolkit" in h["items"] or "trap_lore" in h.get("skills", ())
    face = ctx.roll(1)[0]
    if face in traps.disarm_fail_faces(s, kit):
        ctx.say("hq.ev.disarm_fails", hero=hero_label(h))
        spot = as_square(trap["squares"][0])
        if trap["trap"] != "furniture" and spot not in s.figure_at() and spot not in s.blocked_squares():
            h["sq"] = list(spot)
        traps.spring(ctx, trap, h)
        _spend_action(s)
        _after_trap(ctx, h)
        return
    trap["disarmed"] = True
    ctx.say("hq.ev.disarmed", hero=hero_label(h))


def equip(ctx: Ctx, h: Hero, item: str) -> None:
    if item not in h["items"]:
        raise refuse("hq.err.not_owned")
    reason = can_equip(ctx.state, h, item)
    if reason is not None:
        raise IllegalAction(reason)
    slot = equip_slot(catalog.equipment()[item]["slot"])
    assert slot is not None  # can_equip refuses anything not worn
    h["items"].remove(item)
    worn = h[slot]
    if worn:
        h["items"].append(worn)
    h[slot] = item
    if slot == "weapon" and catalog.equipment()[item].get("two_handed") and h["shield"]:
        h["items"].append(h["shield"])
        h["shield"] = None
    ctx.say("hq.ev.equips", hero=hero_label(h), item=catalog.item_name(item))


def unequip(ctx: Ctx, h: Hero, slot_name: str) -> None:
    slot = equip_slot(slot_name)
    worn = h[slot] if slot is not None else None
    if slot is None or not worn:
        raise refuse("hq.err.not_owned")
    if slot == "armour" and monster_adjacent(ctx.state, hero_square(h)):
        raise refuse("hq.err.armour_monster_adjacent")
    h["items"].append(worn)
    ctx.say("hq.ev.unequips", hero=hero_label(h), item=catalog.item_name(worn))
    h[slot] = None


def pick_up(ctx: Ctx, h: Hero, index: ArgValue | None) -> None:
    s = ctx.state
    thrown = s.d["thrown"]
    if not isinstance(index, int) or not 0 <= index < len(thrown):
        raise refuse("hq.err.nothing_here")
    spot = as_square(thrown[index]["sq"])
    sq = hero_square(h)
    if spot != sq and not board.adjacent(sq, spot):
        raise refuse("hq.err.nothing_here")
    if sight.monsters_in_sight(s, sq):
        raise refuse("hq.err.monsters_in_sight")
    entry = thrown.pop(index)
    if ctx.roll(1)[0] == "bshield":
        ctx.say("hq.ev.weapon_lost", hero=hero_label(h), item=catalog.item_name(entry["item"]))
        return
    h["items"].append(entry["item"])
    ctx.say("hq.ev.weapon_recovered", hero=hero_label(h), item=catalog.item_name(entry["item"]))


def drink(ctx: Ctx, h: Hero, item: str) -> None:
    s = ctx.state
    entry = catalog.equipment().get(item)
    if item not in h["items"] or entry is None or entry["slot"] != "potion":
        raise refuse("hq.err.not_owned")
    if potion_used(s, h):
        raise refuse("hq.err.one_potion")
    h["items"].remove(item)
    mark_potion(s, h)
    ctx.say("hq.ev.drinks", hero=hero_label(h), item=catalog.item_name(item))
    apply_potion(ctx, h, entry)


def apply_potion(ctx: Ctx, h: Hero, entry: EquipmentEntry) -> None:
    heal = entry.get("heal_body", 0)
    if entry.get("heal_body_die"):
        heal += ctx.rng.die(6)
        ctx.undoable = False
    if heal:
        h["body"] = min(h["max_body"], h["body"] + heal)
        if entry.get("heal_body"):
            h["mind"] = min(h["max_mind"], h["mind"] + 2)
    for bonus, status in ((entry.get("attack_bonus"), "strength"), (entry.get("defend_bonus"), "defence")):
        if bonus:
            h["status"][status] = bonus
    if entry.get("double_attack"):
        h["status"]["brew"] = True
    if entry.get("kill_undead"):
        for m in list(ctx.state.monsters.values()):
            if (m["revealed"] and catalog.monster(m["ref"]).get("undead")
                    and board.adjacent(as_square(m["sq"]), hero_square(h))):
                del ctx.state.monsters[m["uid"]]
                ctx.say("hq.ev.monster_dies", monster=monster_label(m))


def _loaded_corpse(o: BoardObject, h: Hero) -> bool:
    """A fallen hero's body under `h` that still holds equipment or Quest Treasures."""
    return o["kind"] == "corpse" and bool(o["items"] or o.get("treasures")) and o["squares"][0] == h["sq"]


def recover(ctx: Ctx, h: Hero) -> None:
    s = ctx.state
    corpse = next((o for o in s.objects.values() if _loaded_corpse(o, h)), None)
    if corpse is None:
        raise refuse("hq.err.nothing_here")
    if sight.monsters_in_sight(s, hero_square(h)):
        raise refuse("hq.err.monsters_in_sight")
    items, treasures = corpse["items"], corpse.get("treasures", [])
    corpse["items"], corpse["treasures"] = [], []
    if h["uid"] in corpse["witnesses"] or ctx.roll(1)[0] == "wshield":
        h["items"].extend(items)
        h["quest_treasures"].extend(treasures)
        ctx.say("hq.ev.recovered", hero=hero_label(h), count=len(items) + len(treasures))
    else:
        ctx.say("hq.ev.looted", hero=hero_label(h))
