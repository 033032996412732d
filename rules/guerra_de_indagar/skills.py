"""Active abilities outside attacks (digest §1.11-1.12): healing, damage, movement, teleports, gains, building."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypedDict

from rules.base import Action, Event, LegalAction
from rules.guerra_de_indagar import combat
from rules.guerra_de_indagar.abilities import ability_number, pay_options, ready, source_name, spend_for
from rules.guerra_de_indagar.data import RESOURCES, DoValue, cards, hero_cards_of, hero_name, strategy, tile_name
from rules.guerra_de_indagar.descriptions import ability
from rules.guerra_de_indagar.hexes import distance, unkey
from rules.guerra_de_indagar.moves import args_of, resource
from rules.guerra_de_indagar.state import State, Unit
from rules.guerra_de_indagar.units import (
    activation,
    adjacent_keys,
    enter_tile,
    gain_xp,
    hero_may_enter,
    hero_tile,
    peek,
    pieces_free,
    tile_kind,
    tile_label,
    unit_at,
    unit_name,
)
from rules.search import breadth_first
from rules.text import Lit, SeatRef, msg


class SkillTarget(TypedDict, total=False):
    """What one use of an active ability aims at: the arguments of its `skill` move besides `id`."""

    hero: str  #: a hero healed or moved
    to: str  #: a tile label
    pick: str  #: "last": the last player in play order picks the tile (out of a Maelstrom)
    get: str  #: a resource gained or plundered
    frm: int  #: the seat plundered
    save: str  #: the resource a coin token saves


#: Actives handled elsewhere: Living Wood lowers the build cost when the Warden builds.
NOT_LISTED = {"build_discount"}


def near(s: State, here: str, reach: int) -> list[str]:
    origin = unkey(here)
    return sorted((k for k in s["tiles"] if distance(origin, unkey(k)) <= reach), key=lambda k: tile_label(s, k))


def _open(s: State, k: str) -> bool:
    """Face up (or a solo home, RULING-39): teleports and placements never reveal."""
    tile = s["tiles"][k]
    return bool(tile["up"] or tile["t"] is None)


def _enemy(s: State, seat: int, k: str, heroes_only: bool = False) -> bool:
    unit = unit_at(s, k)
    if unit is None:
        return False
    if unit[0] == "monster":
        return not heroes_only
    return bool(s["heroes"][unit[1]]["owner"] != seat)


def _targets(s: State, seat: int, hid: str, do: Mapping[str, DoValue], aid: str) -> Iterator[SkillTarget]:
    """The parameter sets an active ability can take now (one empty dict when it takes none)."""
    here = hero_tile(s, hid)
    act = activation(s)

    def amount(field: str) -> int:
        return ability_number(s, seat, aid, "do", field)

    if "heal" in do:
        if do["target"] == "self":
            if s["heroes"][hid]["dmg"] > 0:
                yield {}
            return
        around = set(near(s, here, amount("range")))
        for other, h in sorted(s["heroes"].items()):
            if h["owner"] == seat and h["at"] in around and h["dmg"] > 0:
                yield {"hero": other}
    elif "damage" in do:
        for k in near(s, here, amount("range")):
            if k != here and _enemy(s, seat, k, do["target"] == "enemy_hero"):
                yield {"to": tile_label(s, k)}
    elif "curse" in do:
        for k in near(s, here, amount("range")):
            if k != here and _enemy(s, seat, k):
                yield {"to": tile_label(s, k)}
    elif "area_damage" in do:
        if any(_enemy(s, seat, k) for k in near(s, here, amount("range"))):
            yield {}
    elif "outpost_damage" in do:
        for k in near(s, here, amount("range")):
            post = s["outposts"].get(k)
            if post is not None and post["owner"] != seat and not post["dropped"]:
                yield {"to": tile_label(s, k)}
    elif "move" in do:
        if not act.get("mud"):
            yield {}
    elif "free_build" in do:
        if not act.get("free_build"):
            yield {}
    elif "teleport" in do:
        for k in near(s, here, amount("teleport")):
            if k == here or not _open(s, k) or not hero_may_enter(s, hid, k):
                continue
            if do.get("near_enemy") and not any(_enemy(s, seat, a) for a in adjacent_keys(s, k)):
                continue
            yield {"to": tile_label(s, k)}
    elif "swap" in do:
        for k in near(s, here, amount("swap")):
            unit = unit_at(s, k)
            if unit is not None and unit[0] == "hero" and unit[1] != hid and s["heroes"][unit[1]]["owner"] == seat:
                yield {"to": tile_label(s, k)}
    elif "relief" in do:
        for other, h in sorted(s["heroes"].items()):
            if h["owner"] == seat and other != hid and h["at"] is not None:
                if tile_kind(s, h["at"]) == "maelstrom":  # RULING-15: the last player picks its one step out
                    if combat.fall_back_options(s, ("hero", other)):
                        yield {"hero": other, "pick": "last"}
                    continue
                for k in _steps(s, other, amount("relief")):
                    yield {"hero": other, "to": tile_label(s, k)}
    elif "after_attack_move" in do:
        if act.get("attacked") and act["acted"]:
            yield {}
    elif "gain" in do:
        if "kind" in do:
            yield {}
        else:
            for resource in RESOURCES:
                yield {"get": resource}
    elif "explore" in do:
        for k in near(s, here, amount("explore")):
            tile = s["tiles"][k]
            if not tile["up"] and tile["t"] is not None and k not in s["players"][seat]["known"]:
                yield {"to": tile_label(s, k)}
    elif "place_outpost" in do:
        if pieces_free(s, seat, 1):
            for k in near(s, here, amount("place_outpost")):
                tile = s["tiles"][k]
                if (tile["up"] and tile["t"] in RESOURCES and not tile["destroyed"] and k not in s["outposts"]
                        and unit_at(s, k) in (None, ("hero", hid))):
                    yield {"to": tile_label(s, k)}
    elif "plunder" in do:
        victims = sorted({s["heroes"][u[1]]["owner"] for a in adjacent_keys(s, here)
                          if (u := unit_at(s, a)) is not None and u[0] == "hero"} - {seat})
        for victim in victims:
            for k in RESOURCES:
                if s["players"][victim]["res"][k] > 0:
                    yield {"frm": victim, "get": k}
    elif "raze" in do:
        for k in adjacent_keys(s, here):
            tile = s["tiles"][k]
            if (tile["up"] and tile["t"] in RESOURCES and not tile["destroyed"] and k not in s["outposts"]
                    and unit_at(s, k) is None):
                yield {"to": tile_label(s, k)}
    else:  # xp, spirit, storm: no parameter
        yield {}


def _steps(s: State, hid: str, reach: int) -> list[str]:
    """Face-up tiles another hero may walk to in up to `reach` steps (Relief moves it by the normal rules,
    without revealing: our decision); a Maelstrom ends the walk (leaving it is the last player's choice)."""
    start = hero_tile(s, hid)
    walked = breadth_first([start], lambda k: adjacent_keys(s, k),
                           enter=lambda _from, there: _open(s, there) and hero_may_enter(s, hid, there),
                           expand=lambda k: k == start or tile_kind(s, k) != "maelstrom", within=reach)
    return sorted((k for k in walked.dist if k != start), key=lambda k: tile_label(s, k))


def offered(s: State, seat: int) -> list[str]:
    """Active abilities the active hero (or the tree in play) offers now, before checking their targets."""
    hid = activation(s)["hero"]
    tree = s["players"][seat]["tree"]
    ids = list(hero_cards_of(hid))
    if tree is not None:
        ids += strategy()["trees"][tree]["abilities"]
    return [aid for aid in ids if "do" in cards()[aid] and not set(cards()[aid]["do"]) & NOT_LISTED]


def options(s: State, seat: int) -> list[LegalAction]:
    """Every use of an active ability open to the active hero on its own turn (never during an attack, §4.9)."""
    hid = activation(s)["hero"]
    out: list[LegalAction] = []
    for aid in offered(s, seat):
        if not ready(s, seat, aid, hid):
            continue
        saves = pay_options(s, seat, aid)
        for params in _targets(s, seat, hid, cards()[aid]["do"], aid):
            for save in saves:
                extra: SkillTarget = {**params, **({"save": save} if save else {})}
                action = Action.of("skill", id=aid, **extra)
                name = Lit(cards()[aid]["es"], cards()[aid]["en"])
                detail = _detail(s, extra)
                if detail is None:
                    label = msg("gi.act.skill_plain", ability=name)
                elif "frm" in extra:
                    label = msg("gi.act.skill_from", ability=name, detail=detail, victim=SeatRef(extra["frm"]))
                else:
                    label = msg("gi.act.skill", ability=name, detail=detail)
                out.append(LegalAction(action, label, "ability", ability(aid)))
    return out


def _detail(s: State, params: SkillTarget) -> Lit | None:
    """What a use of an ability aims at (a hero, a tile, a resource), or None when it aims at nothing."""
    parts_es: list[str] = []
    parts_en: list[str] = []
    if "hero" in params:
        name = hero_name(params["hero"])
        parts_es.append(name.es)
        parts_en.append(name.en)
    if "to" in params:
        parts_es.append(f"→ {params['to']}")
        parts_en.append(f"→ {params['to']}")
    if "pick" in params:  # the Maelstrom's way out, chosen by the last player in play order
        parts_es.append("→ ?")
        parts_en.append("→ ?")
    if "get" in params:
        name = tile_name(params["get"])
        parts_es.append(f"+{name.es}")
        parts_en.append(f"+{name.en}")
    if "save" in params:
        name = tile_name(params["save"])
        parts_es.append(f"(−1 {name.es})")
        parts_en.append(f"(−1 {name.en})")
    return Lit(" ".join(parts_es), " ".join(parts_en)) if parts_en else None


def use(s: State, seat: int, action: Action, tile_of: Callable[[State, object], str], events: list[Event]) -> bool:
    """Apply a legal use; True when it peeked at a hidden tile (Track)."""
    args = args_of(action)
    aid = args["id"]
    card = cards()[aid]
    do = card["do"]
    act = activation(s)
    hid = act["hero"]
    here = hero_tile(s, hid)
    spend_for(s, seat, aid, args.get("save"), hid)
    events.append(Event(msg("gi.ev.skill", seat=SeatRef(seat), ability=Lit(card["es"], card["en"]),
                            hero=source_name(aid))))

    def amount(field: str) -> int:
        return ability_number(s, seat, aid, "do", field)

    to = tile_of(s, args["to"]) if args.get("to") is not None else None
    if "heal" in do:
        target = hid if do["target"] == "self" else args["hero"]
        _heal(s, target, amount("heal"), events)
    elif "damage" in do:
        assert to is not None
        unit = unit_at(s, to)
        assert unit is not None
        combat.ability_damage(s, seat, unit, amount("damage"), events)
        if do.get("heal_self"):
            _heal(s, hid, amount("heal_self"), events)
    elif "curse" in do:
        assert to is not None
        unit = unit_at(s, to)
        assert unit is not None
        entry = s["mods"].setdefault(f"{unit[0]}:{unit[1]}", {})
        entry["defence"] = entry.get("defence", 0) - amount("curse")
        events.append(Event(msg("gi.ev.cursed", unit=unit_name(s, unit), n=amount("curse"))))
    elif "area_damage" in do:
        for k in near(s, here, amount("range")):
            unit = unit_at(s, k)
            if unit is not None and _enemy(s, seat, k):
                combat.ability_damage(s, seat, unit, amount("area_damage"), events)
    elif "storm" in do:
        _storm(s, seat, amount("storm"), events)
    elif "outpost_damage" in do:
        assert to is not None
        combat.ability_hits_outpost(s, seat, to, amount("outpost_damage"), events)
    elif "move" in do:
        act["mv"] += amount("move")
        events.append(Event(msg("gi.ev.more_move", hero=hero_name(hid), n=amount("move"))))
    elif "free_build" in do:
        act["free_build"] = True
    elif "teleport" in do:
        assert to is not None
        events.append(Event(msg("gi.ev.teleport", hero=hero_name(hid), tile=tile_label(s, to))))
        enter_tile(s, hid, to, events)
    elif "swap" in do:
        assert to is not None
        _swap(s, hid, to, events)
    elif "relief" in do:
        other = args["hero"]
        if to is None:  # out of a Maelstrom: one step, where the last player in play order says (RULING-15)
            s["pending"].append({"kind": "maelstrom", "seat": s["order"][-1], "hero": other})
            return False
        events.append(Event(msg("gi.ev.move", hero=hero_name(other), tile=tile_label(s, to))))
        enter_tile(s, other, to, events)
    elif "after_attack_move" in do:
        act.update({"mv": act["mv"] + amount("after_attack_move"), "mud": False, "mudproof": True})
        events.append(Event(msg("gi.ev.more_move", hero=hero_name(hid), n=amount("after_attack_move"))))
    elif "gain" in do:
        kind = str(do.get("kind") or args["get"])
        s["players"][seat]["res"][kind] += amount("gain")
        events.append(Event(msg("gi.ev.gain", seat=SeatRef(seat), n=amount("gain"), kind=tile_name(kind))))
    elif "explore" in do:
        assert to is not None
        peek(s, seat, hid, to, events)
        return True
    elif "place_outpost" in do:
        assert to is not None
        s["outposts"][to] = {"owner": seat, "level": 1, "dmg": 0, "dropped": False}
        events.append(Event(msg("gi.ev.placed", seat=SeatRef(seat), tile=tile_label(s, to))))
    elif "plunder" in do:
        victim, kind = args["frm"], resource(action)
        taken = min(amount("plunder"), s["players"][victim]["res"][kind])
        s["players"][victim]["res"][kind] -= taken
        s["players"][seat]["res"][kind] += taken
        events.append(Event(msg("gi.ev.plunder", seat=SeatRef(seat), victim=SeatRef(victim), n=taken,
                                kind=tile_name(kind))))
    elif "raze" in do:
        assert to is not None
        razed = s["tiles"][to]["t"]
        assert razed is not None, "only a resource tile is razed"
        s["tiles"][to]["destroyed"] = True
        s["players"][seat]["res"][razed] += amount("raze")
        events.append(Event(msg("gi.ev.razed", seat=SeatRef(seat), tile=tile_label(s, to), n=amount("raze"),
                                kind=tile_name(razed))))
    elif "xp" in do:
        gain_xp(s, hid, amount("xp"), events)
    elif "spirit" in do:
        s["players"][seat]["spirits"] += amount("spirit")
        events.append(Event(msg("gi.ev.spirit_cache", seat=SeatRef(seat), n=amount("spirit"))))
    return False


def _heal(s: State, hid: str, amount: int, events: list[Event]) -> None:
    hero = s["heroes"][hid]
    healed = min(amount, hero["dmg"])
    hero["dmg"] -= healed
    events.append(Event(msg("gi.ev.healed", hero=hero_name(hid), n=healed)))


def _storm(s: State, seat: int, amount: int, events: list[Event]) -> None:
    """Wild Storm [RB p.16]: every hero and monster not on a resource tile, the user's own included."""
    victims: list[Unit] = []
    for k in sorted(s["tiles"], key=lambda k: tile_label(s, k)):
        unit = unit_at(s, k)
        tile = s["tiles"][k]
        if unit is not None and not (tile["up"] and tile["t"] in RESOURCES):
            victims.append(unit)
    for unit in victims:
        combat.ability_damage(s, seat, unit, amount, events)


def _swap(s: State, hid: str, to: str, events: list[Event]) -> None:
    unit = unit_at(s, to)
    assert unit is not None
    here = s["heroes"][hid]["at"]
    s["heroes"][unit[1]]["at"] = None
    events.append(Event(msg("gi.ev.swap", hero=hero_name(hid), other=hero_name(unit[1]))))
    enter_tile(s, hid, to, events)
    if s["heroes"][unit[1]]["at"] is None and here is not None:
        enter_tile(s, unit[1], here, events)

