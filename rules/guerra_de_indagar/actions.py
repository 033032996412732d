"""The seats' moves: set-up choices, an activation (move, explore, one action), trades, spirits and answers."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Literal

from rules.base import Action, Event, IllegalAction, LegalAction
from rules.guerra_de_indagar import abilities as powers
from rules.guerra_de_indagar import combat, flow, skills
from rules.guerra_de_indagar import descriptions as describe
from rules.guerra_de_indagar import monsters as scripts
from rules.guerra_de_indagar.data import (
    RESOURCES,
    ability_name,
    cards,
    faction_name,
    factions,
    hero_cards_of,
    hero_name,
    monster_name,
    monsters,
    numbers,
    resources,
    strategy,
    tile_name,
    tree_name,
)
from rules.guerra_de_indagar.hexes import codec
from rules.guerra_de_indagar.moves import args_of, resource, resources_taken
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.state import Activation, Question, State
from rules.guerra_de_indagar.units import (
    activation,
    adjacent_keys,
    can_pay,
    current_attack,
    enter_tile,
    gain_xp,
    has_rule,
    hero_may_enter,
    hero_move,
    hero_tile,
    impassable,
    outpost_stats,
    peek,
    pieces_free,
    power,
    retreat_hero,
    reveal,
    roll,
    seat_number,
    seat_passive,
    spend,
    tile_kind,
    tile_label,
    unit_at,
)
from rules.rng import Rng
from rules.text import Lit, SeatRef, msg

UNLOCK_KEYS = {"coin": "gi.act.declare_coin", "bolt": "gi.act.declare_bolt"}
UNLOCKED_KEYS = {"coin": "gi.ev.unlock_coin", "bolt": "gi.ev.unlock_bolt"}
DEGRADE_KEYS = {"leave": "gi.act.degrade_leave", "destroy": "gi.act.degrade_destroy",
                "capture": "gi.act.degrade_capture"}
PAIRS = [tuple(c) for c in combinations_with_replacement(RESOURCES, 2)]
TRIPLES = [tuple(c) for c in combinations_with_replacement(RESOURCES, 3)]
QUADS = [tuple(c) for c in combinations_with_replacement(RESOURCES, 4)]
WINDOWS = {"a_boost": "attack", "p_boost": "pre_defence", "d_boost": "defence"}


def seat_to_act(s: State) -> int | None:
    """The one seat that may act now, or None (the game's own step, or the end)."""
    if s["result"] is not None:
        return None
    if s["pending"]:
        return int(s["pending"][0]["seat"])
    if s["phase"] in ("faction", "commander", "monster"):
        return int(s["order"][s["chooser"]])
    if s["phase"] == "turns" and s["turn"] is not None and s["turn"][0] == "p" and s["attack"] is None:
        return int(s["turn"][1])
    return None


def _lit_triple(kinds: tuple[str, ...]) -> Lit:
    names = [tile_name(k) for k in kinds]
    return Lit(", ".join(name.es for name in names), ", ".join(name.en for name in names))


def legal(s: State, seat: int) -> list[LegalAction]:
    if seat_to_act(s) != seat:
        return []
    if s["pending"]:
        return _answers(s, s["pending"][0])
    phase = s["phase"]
    if phase == "faction":
        taken = {p["faction"] for p in s["players"]}
        return [LegalAction(Action.of("faction", faction=f), msg("gi.act.faction", faction=faction_name(f)),
                            description=describe.faction(f))
                for f in sorted(factions()["factions"]) if f not in taken]
    if phase == "commander":
        faction = s["players"][seat]["faction"]
        assert faction is not None, "factions are chosen before commanders"
        return [LegalAction(Action.of("commander", hero=h), msg("gi.act.commander", hero=hero_name(h)),
                            description=describe.commander(h))
                for h in factions()["factions"][faction]["heroes"]]
    if phase == "monster":
        used = {m["card"] for m in s["monsters"].values()}
        homes = sorted((t["home"], k) for k, t in s["tiles"].items() if t["home"] >= 0
                       and not any(m["at"] == k for m in s["monsters"].values()))
        return [LegalAction(Action.of("monster", monster=m, home=tile_label(s, k)),
                            msg("gi.act.monster", monster=monster_name(m), tile=tile_label(s, k)),
                            description=describe.monster(m))
                for m in sorted(monsters()["primary"]) if m not in used for _, k in homes]
    return _turn_moves(s, seat)


def _answers(s: State, item: Question) -> list[LegalAction]:
    kind = item["kind"]
    seat = item["seat"]
    spirits = s["players"][seat]["spirits"] > 0
    out: list[LegalAction] = []
    if kind in WINDOWS:
        for aid in powers.usable(s, seat, WINDOWS[kind]):
            for save in powers.pay_options(s, seat, aid):
                action = Action.of("ability", id=aid, **({"save": save} if save else {}))
                label = msg("gi.act.ability", ability=ability_name(aid), hero=powers.source_name(aid))
                out.append(LegalAction(action, label, description=describe.ability(aid)))
    if kind == "a_boost":
        if combat.blood_magic(s, seat):
            out.append(LegalAction(Action.of("blood_magic"), msg("gi.act.blood_magic")))
        if spirits:
            out.append(LegalAction(Action.of("spirit_dice"), msg("gi.act.spirit_dice")))
        out.append(LegalAction(Action.of("roll_defence"), msg("gi.act.roll_defence")))
    elif kind == "p_boost":
        out.append(LegalAction(Action.of("done"), msg("gi.act.done")))
    elif kind == "ignore":
        for aid in powers.ignoring(s, seat, item["hero"]):
            for save in powers.pay_options(s, seat, aid):
                action = Action.of("ability", id=aid, **({"save": save} if save else {}))
                out.append(LegalAction(action, msg("gi.act.ability", ability=ability_name(aid),
                                                   hero=powers.source_name(aid)), description=describe.ability(aid)))
        if spirits:
            out.append(LegalAction(Action.of("spirit_ignore"), msg("gi.act.spirit_ignore")))
        out.append(LegalAction(Action.of("done"), msg("gi.act.done")))
    elif kind == "d_boost":
        if spirits:
            out.append(LegalAction(Action.of("spirit_dice"), msg("gi.act.spirit_dice")))
            out.append(LegalAction(Action.of("spirit_ignore"), msg("gi.act.spirit_ignore")))
        out.append(LegalAction(Action.of("done"), msg("gi.act.done")))
    elif kind in ("fall_back", "monster_fall_back"):
        unit = ("hero", item["hero"]) if kind == "fall_back" else ("monster", item["monster"])
        out = [LegalAction(Action.of(kind, to=tile_label(s, k)), msg("gi.act.fall_back", tile=tile_label(s, k)))
               for k in sorted(combat.fall_back_options(s, unit), key=lambda k: tile_label(s, k))]
    elif kind == "level_up":
        out = [LegalAction(Action.of("level", side=side), msg(key, hero=hero_name(item["hero"])))
               for side, key in (("sword", "gi.act.level_sword"), ("shield", "gi.act.level_shield"))]
    elif kind == "degrade":
        out = [LegalAction(Action.of("degrade", choice=c), msg(DEGRADE_KEYS[c])) for c in combat.degrade_options(s)]
    elif kind == "declare":
        faction = s["players"][seat]["faction"]
        assert faction is not None, "trees are declared once factions are chosen"
        board = strategy()["boards"][faction]
        unlocked = s["players"][seat]["unlocks"]
        for tree in board["trees"]:
            out.append(LegalAction(Action.of("declare", tree=tree), msg("gi.act.declare", tree=tree_name(tree)),
                                   description=describe.tree(tree)))
            out += [LegalAction(Action.of("declare", tree=tree, unlock=aid, side=side),
                                msg(UNLOCK_KEYS[side], tree=tree_name(tree), ability=ability_name(aid)),
                                description=describe.ability(aid))
                    for aid in strategy()["trees"][tree]["abilities"] if aid not in unlocked
                    for side in ("coin", "bolt")]
    elif kind == "reap":
        out = [LegalAction(Action.of("reap", get=list(pair)), msg("gi.act.reap", get=_lit_triple(pair)))
               for pair in PAIRS]
    elif kind == "spirit_window":
        out = [LegalAction(Action.of("spirit_pp"), msg("gi.act.spirit_pp")),
               LegalAction(Action.of("pass"), msg("gi.act.pass"))]
    elif kind == "charge":
        out = [LegalAction(Action.of("charge"), msg("gi.act.charge", tile=tile_label(s, current_attack(s)["at"]))),
               LegalAction(Action.of("stay"), msg("gi.act.stay"))]
    elif kind == "reveal":
        out = [LegalAction(Action.of("reveal"), msg("gi.act.reveal", tile=tile_label(s, item["tile"]))),
               LegalAction(Action.of("keep_hidden"), msg("gi.act.keep_hidden"))]
    elif kind == "maelstrom":
        hid = item["hero"]
        out = [LegalAction(Action.of("maelstrom", to=tile_label(s, k)), msg("gi.act.maelstrom", hero=hero_name(hid),
                                                                     tile=tile_label(s, k)))
               for k in sorted(combat.fall_back_options(s, ("hero", hid)), key=lambda k: tile_label(s, k))]
    elif kind == "cache":
        heroes = sorted(h for h, hero in s["heroes"].items() if hero["owner"] == seat and hero["at"] is not None)
        key = "gi.act.cache_attack" if item["token"] == "attack" else "gi.act.cache_defence"
        out = [LegalAction(Action.of("cache", hero=h), msg(key, hero=hero_name(h))) for h in heroes]
    elif kind in ("monster_target", "monster_opportunity"):
        name = monster_name(s["monsters"][item["monster"]]["card"])
        options = item["options"]  # monster_target: [kind, tile] targets; monster_opportunity: tiles
        spots = [str(option[1]) for option in options] if kind == "monster_target" else [str(k) for k in options]
        out = [LegalAction(Action.of(kind, to=tile_label(s, k)),
                           msg("gi.act.monster_target", monster=name, tile=tile_label(s, k)))
               for k in spots]
    elif kind == "redeploy":
        hid = item["hero"]
        out = [LegalAction(Action.of("redeploy", to=tile_label(s, k)),
                           msg("gi.act.redeploy", hero=hero_name(hid), tile=tile_label(s, k)))
               for k in flow.deploy_tiles(s, seat, hid)]
    if kind in TRADE_WINDOWS:  # RULING-07: trades and spirits «en cualquier momento», inside one's windows too
        out[-1:-1] = _exchanges(s, seat)  # before the answer that closes the window
    return out


#: The windows of an attack (and of damage outside one) in which their player may also trade and spend spirits.
TRADE_WINDOWS = frozenset({"a_boost", "p_boost", "d_boost", "ignore"})
#: Those moves: «En cualquier momento, puedes cambiar 3 recursos cualquiera por 1 de otro recurso» and spirits
#: spent «en cualquier momento» [RB p.10].
EXCHANGES = frozenset({"trade", "spirit_res", "spirit_heal", "spirit_pp"})


def _exchanges(s: State, seat: int) -> list[LegalAction]:
    """Trades 3 for 1 and spirits spent (3 resources, 3 damage healed, 2 for a primacy point)."""
    out: list[LegalAction] = []
    player = s["players"][seat]
    for give in TRIPLES:
        if all(player["res"][k] >= give.count(k) for k in RESOURCES):
            out += [LegalAction(Action.of("trade", give=list(give), get=k),
                                msg("gi.act.trade", give=_lit_triple(give), get=tile_name(k)), "trade")
                    for k in RESOURCES]
    if player["spirits"] >= 1:
        sets = QUADS if seat_passive(s, seat, "spirit_resources") == len(QUADS[0]) else TRIPLES  # Dark Ritual
        out += [LegalAction(Action.of("spirit_res", get=list(t)), msg("gi.act.spirit_res", get=_lit_triple(t)),
                            "spirit") for t in sets]
        out += [LegalAction(Action.of("spirit_heal", hero=h), msg("gi.act.spirit_heal", hero=hero_name(h)), "spirit")
                for h, hero in sorted(s["heroes"].items())
                if hero["owner"] == seat and hero["at"] is not None and hero["dmg"] > 0]
    if player["spirits"] >= numbers()["spirits_per_pp"]:
        out.append(LegalAction(Action.of("spirit_pp"), msg("gi.act.spirit_pp"), "spirit"))
    return out


def _turn_moves(s: State, seat: int) -> list[LegalAction]:
    act = s["act"]
    out: list[LegalAction] = []
    if act is None:
        out += [LegalAction(Action.of("activate", hero=h), msg("gi.act.activate", hero=hero_name(h)), "activate")
                for h in flow.available(s, seat)]
    else:
        out += _activation_moves(s, seat)
    return out + _exchanges(s, seat)


def _activation_moves(s: State, seat: int) -> list[LegalAction]:
    act = activation(s)
    hid = act["hero"]
    here = hero_tile(s, hid)
    out: list[LegalAction] = []
    maelstrom = tile_kind(s, here) == "maelstrom"
    steps = act["mv"] > 0 and not act.get("mud")
    for k in adjacent_keys(s, here):
        tile = s["tiles"][k]
        hidden = not tile["up"] and tile["t"] is not None
        if steps and not maelstrom and (hero_may_enter(s, hid, k) if not hidden else unit_at(s, k) is None):
            out.append(LegalAction(Action.of("move", to=tile_label(s, k)), msg("gi.act.move", tile=tile_label(s, k)),
                                   "move"))
        if not act["acted"] and _attackable(s, seat, k):
            out.append(LegalAction(Action.of("attack", to=tile_label(s, k)),
                                   msg("gi.act.attack", tile=tile_label(s, k)), "attack"))
    if steps:
        out += [LegalAction(Action.of("explore", to=tile_label(s, k)), msg("gi.act.explore", tile=tile_label(s, k)),
                            "explore")
                for k in _explorable(s, seat, here)]
    builds = not act["acted"] or act.get("free_build")
    if builds and _can_build(s, seat, hid):
        out.append(LegalAction(Action.of("build"), msg("gi.act.build"), "action"))
    if builds and _can_upgrade(s, seat, hid):
        out.append(LegalAction(Action.of("upgrade"), msg("gi.act.upgrade"), "action"))
    out += skills.options(s, seat)
    if not act["acted"] and here == s["source_at"] and s["source"] > 0:
        out.append(LegalAction(Action.of("gather"), msg("gi.act.gather", n=s["source"]), "action"))
    if maelstrom and act["mv"] > 0 and combat.fall_back_options(s, ("hero", hid)):
        out.append(LegalAction(Action.of("leave_maelstrom"), msg("gi.act.leave_maelstrom"), "move"))
    out += [LegalAction(Action.of("charge_step", to=tile_label(s, k)), msg("gi.act.charge_step", tile=tile_label(s, k)),
                        "move")
            for k in _charge_steps(s, seat, hid)]
    if tile_kind(s, here) == "portal" and not act["swapped"]:
        out += [LegalAction(Action.of("portal", to=tile_label(s, k)), msg("gi.act.portal", tile=tile_label(s, k)),
                            "tile")
                for k in _portal_targets(s, hid)]
    if tile_kind(s, here) == "clearing" and not act["healed"] and s["heroes"][hid]["dmg"] > 0:
        out.append(LegalAction(Action.of("clearing"), msg("gi.act.clearing"), "tile"))
    owes_attack = act["charged"] and not act["acted"] and any(la.action.kind == "attack" for la in out)
    if not owes_attack:  # RULING-14: after a Charge! step the hero must attack
        out.append(LegalAction(Action.of("end"), msg("gi.act.end"), "end"))
    return out


def _charge_steps(s: State, seat: int, hid: str) -> list[str]:
    """RULING-14: one more step once movement is spent, into a revealed free tile next to an attack target."""
    act = activation(s)
    if not has_rule(hid, "charge") or act["mv"] > 0 or act["acted"] or act["charged"]:
        return []
    here = hero_tile(s, hid)
    return [k for k in adjacent_keys(s, here)
            if (s["tiles"][k]["up"] or s["tiles"][k]["t"] is None) and hero_may_enter(s, hid, k)
            and any(_attackable(s, seat, beside) for beside in adjacent_keys(s, k) if beside != here)]


def _portal_targets(s: State, hid: str) -> list[str]:
    """[RB p.12] «cambiar de lugar con cualquier héroe en el tablero» (a monster counts as an enemy hero «para todos
    los propósitos», a monster on a face-down tile too: the swap reveals it, see `_portal`), not an enemy hero on
    an outpost."""
    owner = s["heroes"][hid]["owner"]
    out = []
    for k in s["tiles"]:
        unit = unit_at(s, k)
        if unit is None or unit == ("hero", hid):
            continue
        if unit[0] == "hero" and s["heroes"][unit[1]]["owner"] != owner and k in s["outposts"]:
            continue
        out.append(k)
    return sorted(out, key=lambda k: tile_label(s, k))


def _attackable(s: State, seat: int, k: str) -> bool:
    unit = unit_at(s, k)
    if unit is not None:
        return unit[0] == "monster" or s["heroes"][unit[1]]["owner"] != seat
    post = s["outposts"].get(k)
    return post is not None and post["owner"] != seat


def _explorable(s: State, seat: int, here: str) -> list[str]:
    """Adjacent face-down tiles, or up to range 2 with Web of Spies; never one the player already knows."""
    reach = seat_number(s, seat, "explore_range") or 1
    ring = adjacent_keys(s, here) if reach == 1 else skills.near(s, here, reach)
    known = s["players"][seat]["known"]
    return [k for k in ring if not s["tiles"][k]["up"] and s["tiles"][k]["t"] is not None and k not in known]


def build_cost(s: State, seat: int, hid: str) -> tuple[dict[str, int], str | None]:
    """A level-1 outpost's cost, less Living Wood's gold when that hero builds (and the ability is free now)."""
    cost = dict(outpost_stats(1)["cost"])
    for aid in hero_cards_of(hid):
        card = cards()[aid]
        if "build_discount" in card.get("do", {}) and powers.ready(s, seat, aid, hid):
            for kind, amount in resources(card["do"]["build_discount"]).items():
                cost[kind] = max(0, cost.get(kind, 0) - amount)
            return cost, aid
    return cost, None


def _can_build(s: State, seat: int, hid: str) -> bool:
    here = hero_tile(s, hid)
    tile = s["tiles"][here]
    return (tile["up"] and tile["t"] in RESOURCES and not tile["destroyed"] and here not in s["outposts"]
            and not has_rule(hid, "burn_not_build") and pieces_free(s, seat, 1)
            and can_pay(s, seat, build_cost(s, seat, hid)[0]))


def _can_upgrade(s: State, seat: int, hid: str) -> bool:
    here = hero_tile(s, hid)
    post = s["outposts"].get(here)
    return (post is not None and post["owner"] == seat and post["level"] < 3 and not s["tiles"][here]["destroyed"]
            and not has_rule(hid, "burn_not_build") and pieces_free(s, seat, post["level"] + 1)
            and can_pay(s, seat, outpost_stats(post["level"] + 1)["cost"]))


def tile_of(s: State, text: object) -> str:
    found = codec(s["players_n"]).parse(str(text))
    if found is None:
        raise IllegalAction(msg("gi.error.tile", tile=str(text)))
    return f"{found[0]},{found[1]}"


def apply(s: State, seat: int, action: Action, rng: Rng, events: list[Event]) -> bool:
    """Apply a legal action of `seat` to `s` (already a copy); True when something hidden or random was used."""
    if s["pending"]:
        return _answer(s, seat, s["pending"][0], action, rng, events)
    kind = action.kind
    args = args_of(action)
    if kind == "faction":
        _choose_faction(s, seat, args["faction"], events)
    elif kind == "commander":
        s["players"][seat]["commander"] = args["hero"]
        events.append(Event(msg("gi.ev.commander", seat=SeatRef(seat), hero=hero_name(args["hero"]))))
        _next_chooser(s, "monster" if not s["solo"] else "")
    elif kind == "monster":
        home = tile_of(s, args["home"])
        s["monsters"][args["monster"]] = primary(args["monster"], home, s["tiles"][home]["home"])
        events.append(Event(msg("gi.ev.monster_placed", seat=SeatRef(seat), monster=monster_name(args["monster"]),
                                tile=tile_label(s, home))))
        _next_chooser(s, "")
    else:
        return _turn_action(s, seat, action, events)
    return False


def _choose_faction(s: State, seat: int, faction: str, events: list[Event]) -> None:
    s["players"][seat]["faction"] = faction
    for hid in factions()["factions"][faction]["heroes"]:
        s["heroes"][hid] = {"owner": seat, "at": None, "dmg": 0, "xp": 0, "levels": [], "cache": [], "done": False}
    events.append(Event(msg("gi.ev.faction", seat=SeatRef(seat), faction=faction_name(faction))))
    _next_chooser(s, "commander")


def _next_chooser(s: State, following: Literal["commander", "monster", ""]) -> None:
    """The next seat chooses; after the last, the set-up goes on to `following` ("": heroes deployed, round 1)."""
    s["chooser"] += 1
    if s["chooser"] < len(s["order"]):
        return
    s["chooser"] = 0
    if following:
        s["phase"] = following
        return
    for seat in range(len(s["players"])):  # [RB p.3] step 9: heroes on their deployment tiles
        spots = sorted(k for k, t in s["tiles"].items() if t["deploy"] and t["area"] == seat)
        faction = s["players"][seat]["faction"]
        assert faction is not None, "every player chose a faction"
        heroes = factions()["factions"][faction]["heroes"]
        for hid, k in zip(heroes, spots, strict=True):
            s["heroes"][hid]["at"] = k
    s["phase"] = "round_start"


def _turn_action(s: State, seat: int, action: Action, events: list[Event]) -> bool:
    kind = action.kind
    args = args_of(action)
    player = s["players"][seat]
    if kind == "activate":
        hid = args["hero"]
        s["act"] = {"hero": hid, "mv": hero_move(s, hid), "acted": False, "healed": False, "over": False,
                    "charged": False, "swapped": False, "moved": 0}
        events.append(Event(msg("gi.ev.activate", seat=SeatRef(seat), hero=hero_name(hid))))
        return False
    if kind == "trade":
        _trade(s, seat, action, events)
        return False
    if kind in ("spirit_res", "spirit_heal", "spirit_pp"):
        _spirit(s, seat, action, events)
        return False
    act = activation(s)
    hid = act["hero"]
    hero = s["heroes"][hid]
    if kind == "end":
        act["over"] = True
        return False
    if kind == "move":
        return _move(s, seat, hid, tile_of(s, args["to"]), events)
    if kind == "explore":
        act["mv"] -= 1
        peek(s, seat, hid, tile_of(s, args["to"]), events)
        return True
    if kind == "skill":
        return skills.use(s, seat, action, tile_of, events)
    if kind == "attack":
        act["acted"] = act["attacked"] = True
        combat.start_attack(s, ("hero", hid), tile_of(s, args["to"]), "turn")
        return True
    if kind == "build":
        cost, discount = build_cost(s, seat, hid)
        spend(s, seat, cost)
        if discount is not None:  # Living Wood: an ability use (once per turn, and the Spirit Walker notices)
            powers.spend_for(s, seat, discount, None, hid)
        here = hero_tile(s, hid)
        s["outposts"][here] = {"owner": seat, "level": 1, "dmg": 0, "dropped": False}
        _use_action(act)
        events.append(Event(msg("gi.ev.build", hero=hero_name(hid), tile=tile_label(s, here))))
        if has_rule(hid, "fortified"):
            gain_xp(s, hid, 1, events)
        return False
    if kind == "upgrade":
        here = hero_tile(s, hid)
        post = s["outposts"][here]
        spend(s, seat, outpost_stats(post["level"] + 1)["cost"])
        post["level"] += 1
        _use_action(act)
        events.append(Event(msg("gi.ev.upgrade", hero=hero_name(hid), tile=tile_label(s, here),
                                level=post["level"])))
        if has_rule(hid, "fortified"):
            gain_xp(s, hid, 2 if post["level"] == 3 else 1, events)
        return False
    if kind == "gather":
        if power(s, seat, "shadow_steps") and "shadow_steps" not in player["flags"]:
            player["flags"].append("shadow_steps")
            player["pp"] += 1
            events.append(Event(msg("gi.ev.power_pp", seat=SeatRef(seat), tree=tree_name("shadow_steps"))))
        player["spirits"] += s["source"]
        events.append(Event(msg("gi.ev.gather", hero=hero_name(hid), n=s["source"])))
        s["source"] = 0
        act["acted"] = True
        return False
    if kind == "charge_step":
        k = tile_of(s, args["to"])
        act["charged"] = True
        act["moved"] += 1
        events.append(Event(msg("gi.ev.charge_step", hero=hero_name(hid), tile=tile_label(s, k))))
        enter_tile(s, hid, k, events)
        return False
    if kind == "leave_maelstrom":
        act["mv"] -= 1
        s["pending"].append({"kind": "maelstrom", "seat": s["order"][-1], "hero": hid})  # RULING-15
        return False
    if kind == "portal":
        return _portal(s, hid, tile_of(s, args["to"]), events)
    if kind == "clearing":
        hero["dmg"] = max(0, hero["dmg"] - 2)
        act["healed"] = True
        events.append(Event(msg("gi.ev.clearing", hero=hero_name(hid))))
        return False
    raise IllegalAction(msg("gi.error.illegal"))


def _portal(s: State, hid: str, k: str, events: list[Event]) -> bool:
    """The Unearthed Ancient Portal [RB p.12]: the hero and the unit on `k` change places; the hero may not move
    on. A face-down `k` (a monster may stand on one, RULING-32) is revealed as the hero reaches it, as «Cada vez
    que un héroe … se mueve a una loseta escondida, por cualquier razón, la loseta es revelada»; like a
    fall back, a tile that turns out impassable or taken (an event monster appearing on it) sends the hero to
    retreat. True when a tile was revealed."""
    hero = s["heroes"][hid]
    act = activation(s)
    other = unit_at(s, k)
    assert other is not None
    (s["heroes"] if other[0] == "hero" else s["monsters"])[other[1]]["at"] = hero["at"]
    events.append(Event(msg("gi.ev.portal", hero=hero_name(hid), tile=tile_label(s, k))))
    act["mv"], act["swapped"] = 0, True
    tile = s["tiles"][k]
    hidden = not tile["up"] and tile["t"] is not None
    if hidden:
        reveal(s, k, hero["owner"], hid, events)
        if impassable(s, k) or not hero_may_enter(s, hid, k):
            retreat_hero(s, hid, events)
            return True
    enter_tile(s, hid, k, events)
    return hidden


def _trade(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """3 resources of any kinds for 1 (RULING-06)."""
    player = s["players"][seat]
    give, get = args_of(action)["give"], resource(action)
    for k in give:
        player["res"][k] -= 1
    player["res"][get] += 1
    events.append(Event(msg("gi.ev.trade", seat=SeatRef(seat), give=_lit_triple(give), get=tile_name(get))))


def _use_action(act: Activation) -> None:
    """Building spends the action, unless an ability (Consecrate, Deep Roots, Engineers, Settlers) waived it."""
    if act.get("free_build"):
        act["free_build"] = False
    else:
        act["acted"] = True


def _spirit(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Spending spirits [RB p.10]: 3 resources, 3 damage removed, or 2 spirits for 1 PP."""
    player = s["players"][seat]
    if action.kind == "spirit_pp":
        player["spirits"] -= numbers()["spirits_per_pp"]
        player["pp"] += 1
        events.append(Event(msg("gi.ev.spirit_pp", seat=SeatRef(seat))))
        return
    player["spirits"] -= 1
    if action.kind == "spirit_res":
        taken = resources_taken(action)
        for k in taken:
            player["res"][k] += 1
        events.append(Event(msg("gi.ev.spirit_res", seat=SeatRef(seat), get=_lit_triple(taken))))
    else:
        hid = args_of(action)["hero"]
        hero = s["heroes"][hid]
        hero["dmg"] = max(0, hero["dmg"] - numbers()["spirit_ignore"])
        events.append(Event(msg("gi.ev.spirit_heal", hero=hero_name(hid))))


def _move(s: State, seat: int, hid: str, k: str, events: list[Event]) -> bool:
    """One step [RB p.6-7, p.11]; an unrevealed tile is revealed and entered only if it turns out free."""
    act = activation(s)
    act["mv"] -= 1
    tile = s["tiles"][k]
    if not tile["up"] and tile["t"] is not None:
        spawned = reveal(s, k, seat, hid, events)
        if impassable(s, k) or not hero_may_enter(s, hid, k):
            events.append(Event(msg("gi.ev.blocked", hero=hero_name(hid), tile=tile_label(s, k))))
            if spawned is not None and s["heroes"][hid]["at"] is not None:
                _event_monster_strikes(s, spawned, hid)
            return True
        events.append(Event(msg("gi.ev.move", hero=hero_name(hid), tile=tile_label(s, k))))
        act["moved"] += 1
        enter_tile(s, hid, k, events)
        if spawned is not None and s["heroes"][hid]["at"] is not None:
            _event_monster_strikes(s, spawned, hid)
        return True
    events.append(Event(msg("gi.ev.move", hero=hero_name(hid), tile=tile_label(s, k))))
    act["moved"] += 1
    enter_tile(s, hid, k, events)
    return False


def _event_monster_strikes(s: State, mid: str, hid: str) -> None:
    """[RB p.12] the revealed event monster attacks the revealing hero at once (RULING-37: no juicy check)."""
    mon_at = s["monsters"][mid]["at"]
    hero_at = s["heroes"][hid]["at"]
    if mon_at is not None and hero_at in adjacent_keys(s, mon_at):
        combat.start_attack(s, ("monster", mid), hero_at, "turn")


def _ignore_answer(s: State, seat: int, item: Question, action: Action, events: list[Event]) -> None:
    """Damage outside an attack: ignore some with an ability or a spirit (3) and be asked again, until done,
    nothing is left to ignore or nothing is left to ignore it with; then it lands."""
    args = args_of(action)
    if action.kind == "ability":
        powers.use_ignore(s, seat, args["id"], args.get("save"), item, events)
    elif action.kind == "spirit_ignore":
        s["players"][seat]["spirits"] -= 1
        item["ignore"] += numbers()["spirit_ignore"]
        events.append(Event(msg("gi.ev.spirit_ignore", seat=SeatRef(seat))))
    more = s["players"][seat]["spirits"] > 0 or powers.within_trade(s, seat, "ignore", item["hero"])
    if action.kind != "done" and item["ignore"] < item["n"] and more:
        s["pending"].insert(0, item)
        return
    combat.land_hurt(s, item, events)


def _answer(s: State, seat: int, item: Question, action: Action, rng: Rng, events: list[Event]) -> bool:
    kind = action.kind
    args = args_of(action)
    s["pending"].pop(0)
    if kind in EXCHANGES and item["kind"] in TRADE_WINDOWS:  # RULING-07: the window stays open
        if kind == "trade":
            _trade(s, seat, action, events)
        else:
            _spirit(s, seat, action, events)
        s["pending"].insert(0, item)
        return False
    if item["kind"] == "ignore":
        _ignore_answer(s, seat, item, action, events)
        return False
    if kind == "spirit_dice":
        s["players"][seat]["spirits"] -= 1
        extra = roll(rng, numbers()["spirit_dice"])
        att = current_attack(s)
        if item["kind"] == "a_boost":
            att["a"] += extra
        else:
            att["d"] += extra
        events.append(Event(msg("gi.ev.spirit_dice", seat=SeatRef(seat), dice=" ".join(map(str, extra)))))
        s["pending"].insert(0, item)
        return True
    if kind == "ability":
        powers.use(s, seat, args["id"], args.get("save"), rng, events)
        s["pending"].insert(0, item)
        return True
    if kind == "blood_magic":  # once per attack: 1 damage (not attack damage) for 1 more attack die
        att = current_attack(s)
        att["blood"] = True
        s["heroes"][att["by"][1]]["dmg"] += 1
        extra = roll(rng, 1)
        att["a"] += extra
        events.append(Event(msg("gi.ev.blood_magic", hero=hero_name(att["by"][1]), dice=" ".join(map(str, extra)))))
        s["pending"].insert(0, item)
        return True
    if kind == "declare":
        s["players"][seat]["tree"] = args["tree"]
        events.append(Event(msg("gi.ev.declare", seat=SeatRef(seat), tree=tree_name(args["tree"]))))
        if args.get("unlock"):  # RULING-19: every declaration may unlock one ability, its token side for good
            s["players"][seat]["unlocks"][args["unlock"]] = args["side"]
            events.append(Event(msg(UNLOCKED_KEYS[args["side"]], tree=tree_name(args["tree"]),
                                    ability=ability_name(args["unlock"]))))
        flow.after_declaring(s, seat)
        return False
    if kind == "reap":
        taken = resources_taken(action)
        for k in taken:
            s["players"][seat]["res"][k] += 1
        events.append(Event(msg("gi.ev.reap", seat=SeatRef(seat), get=_lit_triple(taken))))
        return False
    if kind == "spirit_ignore":
        s["players"][seat]["spirits"] -= 1
        att = current_attack(s)
        att["ignore"] += numbers()["spirit_ignore"]
        events.append(Event(msg("gi.ev.spirit_ignore", seat=SeatRef(seat))))
        s["pending"].insert(0, item)
        return False
    if kind in ("roll_defence", "done", "stay", "pass"):
        return False
    if kind == "spirit_pp":  # the end-of-round window: again while 2 spirits remain
        _spirit(s, seat, action, events)
        if s["players"][seat]["spirits"] >= numbers()["spirits_per_pp"]:
            s["pending"].insert(0, item)
        return False
    if kind == "fall_back":
        combat.fall_back(s, ("hero", item["hero"]), tile_of(s, args["to"]), events)
        return True
    if kind == "monster_fall_back":
        combat.fall_back(s, ("monster", item["monster"]), tile_of(s, args["to"]), events)
        return False
    if kind in ("monster_target", "monster_opportunity"):
        if scripts.resume(s, item, tile_of(s, args["to"]), rng, events) == "done":
            flow.monster_done(s, item["ctx"])
        return True
    if kind == "maelstrom":
        combat.fall_back(s, ("hero", item["hero"]), tile_of(s, args["to"]), events, "gi.ev.maelstrom")
        return True
    if kind == "cache":
        s["heroes"][args["hero"]]["cache"].append(item["token"])
        return False
    if kind == "level":
        hero = s["heroes"][item["hero"]]
        hero["levels"][hero["levels"].index("")] = args["side"]
        return False
    if kind == "degrade":
        combat.resolve_degrade(s, args["choice"], events)
        return False
    if kind == "charge":
        att = current_attack(s)
        hid = att["by"][1]
        spawned = combat.do_charge(s, events)
        if spawned is not None and s["heroes"][hid]["at"] is not None:
            att["then"] = [spawned, hid]
        return True
    if kind == "reveal":
        k = item["tile"]
        hid = activation(s)["hero"]
        spawned = reveal(s, k, seat, hid, events)
        if spawned is not None:
            _event_monster_strikes(s, spawned, hid)
        return True
    if kind == "keep_hidden":
        return False
    if kind == "redeploy":
        hid = item["hero"]
        k = tile_of(s, args["to"])
        events.append(Event(msg("gi.ev.redeploy", hero=hero_name(hid), tile=tile_label(s, k))))
        enter_tile(s, hid, k, events)  # RULING-16: a swamp hurts every entry, a redeployment too
        return False
    raise IllegalAction(msg("gi.error.illegal"))
