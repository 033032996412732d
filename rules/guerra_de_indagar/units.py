"""The state's bookkeeping shared by every phase: who stands where, stats, dice, damage, retreat, XP and PP."""

from __future__ import annotations

from collections.abc import Sequence

from rules.base import Event
from rules.guerra_de_indagar.data import (
    RESOURCES,
    Cost,
    MonsterStats,
    OutpostLevel,
    Passive,
    PassiveValue,
    TileEffects,
    cards,
    hero_card,
    hero_name,
    monster_name,
    monsters,
    number,
    numbers,
    passive_cards,
    tile_name,
    tiles,
)
from rules.guerra_de_indagar.hexes import Hex, distance, key, label, left_angle, neighbours, unkey
from rules.guerra_de_indagar.state import Activation, Attack, Hero, State, Unit
from rules.rng import Rng
from rules.text import Lit, SeatRef, msg


def tile_label(s: State, k: str) -> str:
    """The tile's name as printed on the board's edges (e.g. `D4`)."""
    return label(s["players_n"], k)


def placed(at: str | None) -> str:
    """The tile of a hero or monster that stands on the board (callers never ask about one in retreat)."""
    assert at is not None, "a unit in retreat stands on no tile"
    return at


def as_unit(pair: list[str]) -> Unit:
    """A unit stored as a JSON list ([kind, id], e.g. an attack's `by`) as the tuple the rules pass around."""
    kind, uid = pair
    return kind, uid


def hero_tile(s: State, hid: str) -> str:
    """Where a hero stands that is on the board (an active or attacking hero, one being moved...)."""
    return placed(s["heroes"][hid]["at"])


def activation(s: State) -> Activation:
    """The activation under way (callers run only during a player's activation)."""
    act = s["act"]
    assert act is not None, "no hero is active"
    return act


def current_attack(s: State) -> Attack:
    """The attack under way (callers run only during an attack)."""
    att = s["attack"]
    assert att is not None, "no attack is under way"
    return att


def roll(rng: Rng, dice: int) -> list[int]:
    faces = numbers()["die_faces"]["faces"]
    return [rng.choice(faces) for _ in range(max(0, dice))]


def tile_kind(s: State, k: str) -> str | None:
    """The tile's type as everyone knows it: None while face down (or a solo home)."""
    tile = s["tiles"][k]
    return tile["t"] if tile["up"] else None


def type_info(kind: str | None) -> TileEffects:
    return tiles()["types"].get(kind, {}) if kind else {}


def unit_at(s: State, k: str) -> Unit | None:
    for hid, hero in s["heroes"].items():
        if hero["at"] == k:
            return ("hero", hid)
    for mid, mon in s["monsters"].items():
        if mon["at"] == k:
            return ("monster", mid)
    return None


def impassable(s: State, k: str) -> bool:
    return type_info(tile_kind(s, k)).get("kind") == "impassable"


def hero_may_enter(s: State, hid: str, k: str) -> bool:
    """Free for this hero [RB p.7]: no other unit, no other player's outpost, not known impassable."""
    if k not in s["tiles"] or impassable(s, k):
        return False
    other = unit_at(s, k)
    if other is not None and other != ("hero", hid):
        return False
    post = s["outposts"].get(k)
    return post is None or post["owner"] == s["heroes"][hid]["owner"]


def monster_may_enter(s: State, k: str) -> bool:
    """RULING-32: face-down tiles are plain for monsters; any unit or outpost blocks."""
    return k in s["tiles"] and not impassable(s, k) and unit_at(s, k) is None and k not in s["outposts"]


def adjacent_keys(s: State, k: str) -> list[str]:
    return [key(h) for h in neighbours(unkey(k)) if key(h) in s["tiles"]]


def has_rule(hid: str, rule: str) -> bool:
    return rule in hero_card(hid)["rules"]


def power(s: State, seat: int, tree: str) -> bool:
    """Whether `seat` has the strategy tree `tree` in play this round (its strategic power is on)."""
    return bool(s["players"][seat]["tree"] == tree)


def hero_resistance(s: State, hid: str) -> int:
    """Printed resistance, +1 under the Sect's Mutation power (PROV-13), plus passives (Unbroken Faith)."""
    mutation = 1 if power(s, s["heroes"][hid]["owner"], "mutation") else 0
    return int(hero_card(hid)["resistance"]) + mutation + passive(s, hid, "resistance")


def ability_on(s: State, aid: str) -> bool:
    """A hero ability whose hero is on the board (RULING-05), its slot open (commander, level)."""
    card = cards()[aid]
    hero = s["heroes"].get(card["hero"])
    if hero is None or hero["at"] is None:
        return False
    slot = card["slot"]
    if slot == "command":
        return bool(s["players"][hero["owner"]]["commander"] == card["hero"])
    return not isinstance(slot, int) or len(hero["levels"]) >= slot


def passive(s: State, hid: str, stat: str, vs: str | None = None) -> int:
    """The sum of the passives that give `hid` this stat (`vs`: the tile it attacks, for conditional ones)."""
    hero = s["heroes"][hid]
    total = 0
    for aid, card in passive_cards():
        eff = card["passive"]
        if stat not in eff or not ability_on(s, aid):
            continue
        source = s["heroes"][card["hero"]]
        if not _in_scope(s, eff, hid, hero, card["hero"], source) or not _condition(s, eff, hid, hero, vs):
            continue
        total += number(eff, stat)
    return total


def _in_scope(s: State, eff: Passive, hid: str, hero: Hero, src_id: str, source: Hero) -> bool:
    scope = eff.get("scope", "own")
    if scope == "self":
        return hid == src_id
    if scope == "adjacent_enemy":
        return hero["owner"] != source["owner"] and hero["at"] in adjacent_keys(s, placed(source["at"]))
    if hero["owner"] != source["owner"]:
        return False
    if scope == "own":
        return True
    if hid == src_id or hero["at"] is None:
        return False
    gap = distance(unkey(hero["at"]), unkey(placed(source["at"])))
    return gap == 1 if scope == "adjacent_own" else gap <= number(eff, "range")


def _condition(s: State, eff: Passive, hid: str, hero: Hero, vs: str | None) -> bool:
    when = eff.get("when")
    if when is None:
        return True
    if hero["at"] is None:
        return False
    if when == "terrain":
        terrain = eff["terrain"]
        assert isinstance(terrain, Sequence)
        return tile_kind(s, hero["at"]) in terrain
    if when == "near_own_outpost":
        at = hero["at"]
        return any((post := s["outposts"].get(k)) is not None and post["owner"] == hero["owner"]
                   for k in (at, *adjacent_keys(s, at)))
    unit = unit_at(s, vs) if vs is not None else None
    if when == "vs_monster":
        return unit is not None and unit[0] == "monster"
    return (unit is not None and unit[0] == "hero" and s["heroes"][unit[1]]["owner"] != hero["owner"]
            and s["players"][s["heroes"][unit[1]]["owner"]]["commander"] == unit[1])  # vs_commander


def seat_passive(s: State, seat: int, field: str) -> PassiveValue | None:
    """A player-wide passive's value (Fertile Land, Living Wall, Web of Spies...), or None when it is off."""
    for aid, card in passive_cards():
        source = s["heroes"].get(card["hero"])
        if field in card["passive"] and source is not None and source["owner"] == seat and ability_on(s, aid):
            return card["passive"][field]
    return None


def seat_number(s: State, seat: int, field: str) -> int | None:
    """A player-wide passive that is a number (Living Wall's defence, Web of Spies' range...), or None when off."""
    value = seat_passive(s, seat, field)
    assert value is None or isinstance(value, int), f"{field} is not a number"
    return value


def hero_move(s: State, hid: str) -> int:
    return int(hero_card(hid)["move"]) + passive(s, hid, "move")


def turn_modifier(s: State, unit: Unit, stat: str) -> int:
    """This turn's changes from abilities (Curse, Monstrous Form), cleared at the end of every turn."""
    return int(s["mods"].get(f"{unit[0]}:{unit[1]}", {}).get(stat, 0))


def add_turn_modifier(s: State, unit: Unit, stat: str, amount: int) -> None:
    entry = s["mods"].setdefault(f"{unit[0]}:{unit[1]}", {})
    entry[stat] = entry.get(stat, 0) + amount


def monster_level(s: State) -> int:
    heads = numbers()["demon_heads"]["levels"]
    return heads[min(max(s["round"], 1), len(heads)) - 1]


def monster_stats(s: State, mid: str) -> MonsterStats:
    """An event monster's card, or a primary monster's numbers at this round's demon level (a copy)."""
    mon = s["monsters"][mid]
    data = monsters()
    if mon["kind"] == "event":
        stats: MonsterStats = data["event"][mon["card"]]
    else:
        stats = data["primary"][mon["card"]]["levels"][monster_level(s) - 1]
    return {"move": stats["move"], "attack": stats["attack"], "defence": stats["defence"],
            "resistance": stats["resistance"]}


def monster_has(s: State, mid: str, ability: str) -> bool:
    mon = s["monsters"][mid]
    if mon["kind"] == "event":
        return False
    level = monsters()["primary"][mon["card"]]["abilities"].get(ability)
    return level is not None and monster_level(s) >= level


def outpost_stats(level: int) -> OutpostLevel:
    return numbers()["outposts"][level - 1]


def hero_attack(s: State, hid: str, vs: str | None = None) -> int:
    hero = s["heroes"][hid]
    value = hero_card(hid)["attack"] + hero["levels"].count("sword") + hero["cache"].count("attack")
    value += passive(s, hid, "attack", vs)
    return value + type_info(tile_kind(s, placed(hero["at"]))).get("attack", 0)


def hero_defence(s: State, hid: str, with_outpost: bool = True) -> int:
    """The dice the hero rolls before optional boosts (RULING-34 uses this for juiciness)."""
    hero = s["heroes"][hid]
    at = hero["at"]
    player = s["players"][hero["owner"]]
    value = hero_card(hid)["defence"] + hero["levels"].count("shield") + hero["cache"].count("defence")
    value += 1 if player["commander"] == hid else 0
    if power(s, hero["owner"], "steel_legion") and any(
            other != hid and h["owner"] == hero["owner"] and h["at"] in adjacent_keys(s, placed(at))
            for other, h in s["heroes"].items()):
        value += 1
    value += type_info(tile_kind(s, placed(at))).get("defence", 0)
    value = max(0, value + passive(s, hid, "defence") + turn_modifier(s, ("hero", hid), "defence"))
    post = s["outposts"].get(placed(at))
    if with_outpost and post is not None and post["owner"] == hero["owner"]:
        value += outpost_defence(s, placed(at))
    return value


def outpost_defence(s: State, k: str) -> int:
    """An outpost's defence, +1 under Living Wall (PROV-08)."""
    post = s["outposts"][k]
    return int(outpost_stats(post["level"])["defence"]) + (seat_number(s, post["owner"], "outpost_defence") or 0)


def monster_attack(s: State, mid: str) -> int:
    mon = s["monsters"][mid]
    return monster_stats(s, mid)["attack"] + type_info(tile_kind(s, placed(mon["at"]))).get("attack", 0)


def monster_defence(s: State, mid: str) -> int:
    mon = s["monsters"][mid]
    at = placed(mon["at"])
    value = monster_stats(s, mid)["defence"] + type_info(tile_kind(s, at)).get("defence", 0)
    if monster_has(s, mid, "ward") and s["tiles"][at]["t"] == "source":
        value += 1
    return max(0, value + turn_modifier(s, ("monster", mid), "defence"))


def defence_at(s: State, k: str) -> int:
    """Defence value of whatever stands on a tile (unit plus its owner's outpost, or the outpost alone)."""
    unit = unit_at(s, k)
    if unit is None:
        return outpost_defence(s, k) if k in s["outposts"] else 0
    return hero_defence(s, unit[1]) if unit[0] == "hero" else monster_defence(s, unit[1])


def primacy_points(s: State, seat: int) -> int:
    return int(s["players"][seat]["pp"]) + sum(1 for p in s["outposts"].values() if p["owner"] == seat)


def pieces_free(s: State, seat: int, level: int) -> bool:
    used = sum(1 for p in s["outposts"].values() if p["owner"] == seat and p["level"] == level)
    return used < outpost_stats(level)["pieces"]


def unit_name(s: State, unit: Unit) -> Lit:
    return monster_name(s["monsters"][unit[1]]["card"]) if unit[0] == "monster" else hero_name_lit(unit[1])


def hero_name_lit(hid: str) -> Lit:
    return hero_name(hid)


def gain_xp(s: State, hid: str, amount: int, events: list[Event]) -> None:
    """XP with immediate level-ups (3, +4, +5); each level asks its owner sword or shield [RB p.6-8]."""
    hero = s["heroes"][hid]
    thresholds = numbers()["xp_thresholds"]
    events.append(Event(msg("gi.ev.xp", hero=hero_name_lit(hid), xp=amount)))
    while amount > 0 and len(hero["levels"]) < 3:
        need = thresholds[len(hero["levels"])] - hero["xp"]
        if amount < need:
            hero["xp"] += amount
            return
        amount -= need
        hero["xp"] = 0
        hero["levels"].append("")
        s["pending"].append({"kind": "level_up", "seat": hero["owner"], "hero": hid})
        events.append(Event(msg("gi.ev.level", hero=hero_name_lit(hid), level=len(hero["levels"]))))
        if len(hero["levels"]) == 3:
            s["players"][hero["owner"]]["pp"] += 1


def retreat_hero(s: State, hid: str, events: list[Event]) -> None:
    """Retreat [RB p.7]: off the board, damage, XP and cache tokens lost; level tokens kept."""
    hero = s["heroes"][hid]
    hero.update({"at": None, "dmg": 0, "xp": 0, "cache": []})
    events.append(Event(msg("gi.ev.hero_retreat", hero=hero_name_lit(hid), seat=SeatRef(hero["owner"]))))
    act = s["act"]
    if act is not None and act["hero"] == hid:
        act["over"] = True  # RULING-11
    for other, h in sorted(s["heroes"].items()):  # a passive that raised resistance may have gone with it
        if h["at"] is not None and h["dmg"] >= hero_resistance(s, other):
            retreat_hero(s, other, events)


def retreat_monster(s: State, mid: str, events: list[Event]) -> None:
    mon = s["monsters"][mid]
    events.append(Event(msg("gi.ev.monster_retreat", monster=monster_name(mon["card"]))))
    if mon["spirits"]:
        s["source"] += mon["spirits"]  # PROV-19: Oryana's spirits go back to the Source
        mon["spirits"] = 0
    mon.update({"at": None, "dmg": 0})
    if mon["kind"] == "event":
        mon["gone"] = True
    else:
        mon["retreat"] = 1


def damage_unit(s: State, unit: Unit, amount: int, events: list[Event]) -> bool:
    """Damage outside the attack's own bookkeeping; True when the unit was sent to retreat."""
    if amount <= 0:
        return False
    if unit[0] == "hero":
        hero = s["heroes"][unit[1]]
        hero["dmg"] += amount
        if hero["dmg"] >= hero_resistance(s, unit[1]):
            retreat_hero(s, unit[1], events)
            return True
        return False
    mon = s["monsters"][unit[1]]
    mon["dmg"] += amount
    if mon["dmg"] >= monster_stats(s, unit[1])["resistance"]:  # RULING-22
        retreat_monster(s, unit[1], events)
        return True
    return False


def enter_tile(s: State, hid: str, k: str, events: list[Event]) -> None:
    """A hero arrives on a revealed tile: swamp hurts every entry (RULING-16); mud and swamp stop it."""
    hero = s["heroes"][hid]
    hero["at"] = k
    info = type_info(tile_kind(s, k))
    act = s["act"] if s["act"] is not None and s["act"]["hero"] == hid else None  # its own activation
    mud_proof = has_rule(hid, "speed") or power(s, hero["owner"], "wild_lands") or (
        act is not None and act.get("mudproof"))
    if info.get("stops") and not mud_proof and act is not None:
        act["mv"], act["mud"] = 0, True  # RULING-12, RULING-13: no movement ability moves it on either
    if info.get("entry_damage"):  # RULING-16; its owner may ignore some of it first (combat.settle_hurts)
        queue_hurt(s, hid, int(info["entry_damage"]), "swamp", None)


def queue_hurt(s: State, hid: str, amount: int, src: str, by: int | None) -> None:
    """Damage to a hero outside an attack lands before any question still open (after the damage queued just
    before it): its owner is asked first whether to ignore some of it."""
    if amount <= 0:
        return
    at = 0
    while at < len(s["pending"]) and s["pending"][at]["kind"] == "hurt":
        at += 1
    s["pending"].insert(at, {"kind": "hurt", "seat": s["heroes"][hid]["owner"], "hero": hid, "n": amount,
                             "src": src, "by": by, "ignore": 0})


def nearest_free_for_monster(s: State, start: str) -> str | None:
    """The nearest free tile to `start` (itself included), leftmost facing the Source on ties (RULING-38)."""
    origin = unkey(start)
    free = [k for k in s["tiles"] if monster_may_enter(s, k)]
    if not free:
        return None
    best = min(distance(origin, unkey(k)) for k in free)
    nearest = [k for k in free if distance(origin, unkey(k)) == best]
    return min(nearest, key=lambda k: (left_angle(origin, (0, 0), unkey(k)) if unkey(k) != origin else -9.0, k))


def reveal(s: State, k: str, seat: int | None, hid: str, events: list[Event]) -> str | None:
    """Turns a tile face up and applies its reveal effects; returns an event monster put on the board."""
    tile = s["tiles"][k]
    tile["up"] = True
    kind = tile["t"]
    assert kind is not None, "a solo home is never revealed (RULING-39)"
    info = type_info(kind)
    events.append(Event(msg("gi.ev.reveal", tile=tile_label(s, k), kind=tile_name(kind))))
    if seat is None:
        return None
    player = s["players"][seat]
    if info.get("spirits"):
        player["spirits"] += info["spirits"]
        events.append(Event(msg("gi.ev.spirit_cache", seat=SeatRef(seat), n=info["spirits"])))
    if info.get("token") and any(h["owner"] == seat and h["at"] is not None for h in s["heroes"].values()):
        # RULING-04: the player puts it on one of their heroes on the board (default: the discovering hero)
        s["pending"].append({"kind": "cache", "seat": seat, "token": info["token"], "hero": hid})
    if info.get("blocks_trees"):
        player["traitors"] = True
    # Not under a monster standing on the tile (explored, RULING-17): the two may never share a tile.
    if info.get("places_outpost") and pieces_free(s, seat, 1) and k not in s["outposts"] and unit_at(s, k) is None:
        s["outposts"][k] = {"owner": seat, "level": 1, "dmg": 0, "dropped": False}
        events.append(Event(msg("gi.ev.abandoned", seat=SeatRef(seat), tile=tile_label(s, k))))
    if info.get("monster"):
        mid = info["monster"]
        spot = k if unit_at(s, k) is None else nearest_free_for_monster(s, k)
        if spot is None:
            return None
        s["monsters"][mid] = {"kind": "event", "card": mid, "at": spot, "dmg": 0, "home": -1, "retreat": 0,
                              "turns": 0, "stuck": False, "count": 0, "spirits": 0, "gone": False,
                              "order": len(s["monsters"])}
        events.append(Event(msg("gi.ev.monster_appears", monster=monster_name(mid), tile=tile_label(s, spot))))
        return mid
    return None


def peek(s: State, seat: int, hid: str, k: str, events: list[Event]) -> None:
    """Exploring [RB p.6]: the player alone sees the tile, then chooses whether to reveal it."""
    s["players"][seat]["known"].append(k)
    kind_name = s["tiles"][k]["t"]
    assert kind_name is not None, "a solo home is never explored (RULING-39)"
    events.append(Event(msg("gi.ev.explore", hero=hero_name_lit(hid), tile=tile_label(s, k))))
    events.append(Event(msg("gi.ev.peek", tile=tile_label(s, k), kind=tile_name(kind_name),
                            secret=f"{tile_label(s, k)}={kind_name}"), to=frozenset({seat})))
    s["pending"].append({"kind": "reveal", "seat": seat, "tile": k})


def spend(s: State, seat: int, cost: Cost) -> None:
    res = s["players"][seat]["res"]
    for kind, amount in cost.items():
        res[kind] -= amount


def can_pay(s: State, seat: int, cost: Cost) -> bool:
    res = s["players"][seat]["res"]
    return all(res[kind] >= amount for kind, amount in cost.items())


def lose_resource(s: State, seat: int, kind: str) -> bool:
    res = s["players"][seat]["res"]
    if kind in RESOURCES and res[kind] > 0:
        res[kind] -= 1
        return True
    return False


def juicy(s: State, attack: int, k: str) -> bool:
    """RULING-34: the target's defence (with its outpost) must not exceed the monster's attack."""
    return defence_at(s, k) <= attack


__all__ = ["Hex"]
