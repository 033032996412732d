"""Attacks [RB p.13-14]: rolls and windows, damage through outposts, fall back, capture, XP and Charge through."""

from __future__ import annotations

from rules.base import Event
from rules.guerra_de_indagar import abilities
from rules.guerra_de_indagar.data import monsters, numbers, tile_name, tree_name
from rules.guerra_de_indagar.state import Attack, AttackContext, Outpost, Question, State, Unit
from rules.guerra_de_indagar.units import (
    adjacent_keys,
    as_unit,
    current_attack,
    damage_unit,
    defence_at,
    enter_tile,
    gain_xp,
    has_rule,
    hero_attack,
    hero_may_enter,
    hero_resistance,
    hero_tile,
    impassable,
    monster_attack,
    monster_has,
    monster_may_enter,
    outpost_stats,
    passive,
    pieces_free,
    placed,
    power,
    queue_hurt,
    retreat_hero,
    retreat_monster,
    reveal,
    roll,
    seat_number,
    tile_kind,
    tile_label,
    unit_at,
    unit_name,
)
from rules.rng import Rng
from rules.text import SeatRef, msg


def start_attack(s: State, attacker: Unit, target: str, ctx: AttackContext) -> None:
    """Begin an attack of `attacker` on the tile `target`; `ctx` says what resumes when it ends."""
    unit = unit_at(s, target)
    s["attack"] = {"by": list(attacker), "at": target, "ctx": ctx, "stage": "roll", "a": [], "d": [],
                   "ignore": 0, "min": 0, "extra": 0, "target": list(unit) if unit else None,
                   "post": target in s["outposts"], "dropped": False, "destroyed": False, "captured": False,
                   "level0": 0, "hit": 0, "retreated": False, "success": False}


def attacker_seat(s: State) -> int | None:
    by = current_attack(s)["by"]
    return s["heroes"][by[1]]["owner"] if by[0] == "hero" else None


def defender_seat(s: State) -> int | None:
    att = current_attack(s)
    if att["target"] is not None:
        return s["heroes"][att["target"][1]]["owner"] if att["target"][0] == "hero" else None
    post = s["outposts"].get(att["at"])
    return post["owner"] if post else None


def blood_magic(s: State, seat: int) -> bool:
    """Blood Magic: offered once per attack, and never when the damage would send the attacker to retreat."""
    att = current_attack(s)
    if not power(s, seat, "blood_magic") or att.get("blood") or att["by"][0] != "hero":
        return False
    hid = att["by"][1]
    return bool(s["heroes"][hid]["dmg"] + 1 < hero_resistance(s, hid))


def flanking(s: State, hid: str, target: str) -> int:
    """+1 per additional hero of the attacker's player adjacent to the target (RULING-35)."""
    owner = s["heroes"][hid]["owner"]
    near = set(adjacent_keys(s, target))
    return sum(1 for other, h in s["heroes"].items()
               if other != hid and h["owner"] == owner and h["at"] in near)


def attack_dice(s: State) -> int:
    att = current_attack(s)
    kind, uid = att["by"]
    if kind == "hero":
        return hero_attack(s, uid, att["at"]) + flanking(s, uid, att["at"])
    siege = 1 if monster_has(s, uid, "siege") and att["at"] in s["outposts"] else 0
    return monster_attack(s, uid) + siege


def step(s: State, rng: Rng, events: list[Event]) -> AttackContext | None:
    """Advance the attack by one stage; returns its context when it has ended."""
    att = current_attack(s)
    stage = att["stage"]
    if stage == "roll":
        _passives(s, att)
        att["a"] = roll(rng, attack_dice(s))
        events.append(Event(msg("gi.ev.attack", attacker=unit_name(s, as_unit(att["by"])),
                                tile=tile_label(s, att["at"]), dice=_dice(att["a"]), total=sum(att["a"]))))
        seat = attacker_seat(s)
        att["stage"] = "defence"
        if seat is not None and (s["players"][seat]["spirits"] > 0 or abilities.usable(s, seat, "attack")
                                 or blood_magic(s, seat) or abilities.within_trade(s, seat, "attack")):
            s["pending"].append({"kind": "a_boost", "seat": seat})
    elif stage == "defence":
        seat = defender_seat(s)
        if not att.get("asked") and seat is not None and abilities.within_trade(s, seat, "pre_defence"):
            att["asked"] = True  # Deception: before the defence roll, the attacker must reroll
            s["pending"].append({"kind": "p_boost", "seat": seat})
            return None
        att["d"] = roll(rng, defence_at(s, att["at"]))
        events.append(Event(msg("gi.ev.defence", dice=_dice(att["d"]), total=sum(att["d"]))))
        att["stage"] = "damage"
        if seat is not None and (s["players"][seat]["spirits"] > 0 or abilities.within_trade(s, seat, "defence")):
            s["pending"].append({"kind": "d_boost", "seat": seat})
    elif stage == "damage":
        _damage(s, events)
        att["stage"] = "degrade"
    elif stage == "degrade":
        _after_degrade(s, events)
        att["stage"] = "xp"
    elif stage == "xp":
        _experience(s, events)
        att["stage"] = "charge"
    elif stage == "charge":
        att["stage"] = "done"
        _charge_through(s, events)
    else:
        s["attack"] = None
        s["last_dice"] = {"by": list(att["by"]), "at": att["at"], "a": list(att["a"]), "d": list(att["d"]),
                          "damage": damage_total(att)}  # for the board image: the last dice stay in view
        return att["ctx"]
    return None


def _passives(s: State, att: Attack) -> None:
    """Passives that shape the damage: Blood King's minimum, Devastator against outposts, Heavy Plate."""
    if att["by"][0] == "hero":
        hid = att["by"][1]
        att["min"] = max(att["min"], passive(s, hid, "min_damage"))
        if att["post"]:
            att["extra"] += passive(s, hid, "outpost_extra")
    target = att["target"]
    if target is not None and target[0] == "hero":
        att["ignore"] += passive(s, target[1], "ignore")


def _dice(values: list[int]) -> str:
    return " ".join(str(v) for v in values) or "-"


def damage_total(att: Attack) -> int:
    """RULING-21: additional damage only on a hit, then minimum damage, and ignoring beats both."""
    hit = max(0, sum(att["a"]) - sum(att["d"]))
    if hit > 0:
        hit += att["extra"]
    hit = max(hit, att["min"])
    return max(0, hit - att["ignore"])


def _damage(s: State, events: list[Event]) -> None:
    att = current_attack(s)
    total = damage_total(att)
    hit = total
    post = s["outposts"].get(att["at"]) if att["post"] else None
    if post is not None and not post["dropped"]:
        res = outpost_stats(post["level"])["resistance"]
        absorbed = min(total, res - post["dmg"])
        post["dmg"] += absorbed
        hit = total - absorbed
        if post["dmg"] >= res:  # RULING-23: the outpost absorbs exactly its remaining resistance
            _drop_level(s, att, post, events)
    events.append(Event(msg("gi.ev.damage", total=total)))
    att["hit"] = hit
    target = att["target"]
    if target is None or unit_at(s, att["at"]) != tuple(target):
        att["success"] = att["dropped"] or att["destroyed"]
        return
    kind, uid = target
    retreated = damage_unit(s, (kind, uid), hit, events)
    att["retreated"] = retreated
    att["success"] = att["dropped"] or att["destroyed"] or hit >= numbers()["fall_back_damage"] or retreated
    if retreated:
        _on_retreat_by_attack(s, events)
    elif hit >= numbers()["fall_back_damage"]:
        _ask_fall_back(s, (kind, uid), events)
    if kind == "hero" and hit == 0 and not att["dropped"] and not att["destroyed"] and not retreated:
        ancestors = 1 if power(s, s["heroes"][uid]["owner"], "ancestors") else 0
        gain_xp(s, uid, numbers()["xp_success"] + ancestors, events)  # a successful defence


def _drop_level(s: State, att: Attack, post: Outpost, events: list[Event]) -> None:
    att["level0"] = post["level"]
    if post["level"] == 1:
        _destroy(s, att, events)
    else:
        post.update({"level": post["level"] - 1, "dmg": 0, "dropped": True})
        att["dropped"] = True
        events.append(Event(msg("gi.ev.degraded", tile=tile_label(s, att["at"]), level=post["level"])))


def _destroy(s: State, att: Attack, events: list[Event]) -> None:
    """Remove the outpost; a player's hero gains its former level in the tile's resource [RB p.9]."""
    s["outposts"].pop(att["at"])
    att["destroyed"] = True
    events.append(Event(msg("gi.ev.destroyed", tile=tile_label(s, att["at"]))))
    kind, uid = att["by"]
    if kind == "monster":
        if s["monsters"][uid]["card"] == "helgoth":
            s["monsters"][uid]["count"] += 1
        return
    _spoils(s, s["heroes"][uid]["owner"], att["at"], att["level0"], events)


def _spoils(s: State, seat: int, k: str, level: int, events: list[Event]) -> None:
    """A player destroyed an outpost: Devastation's point, and the outpost's level in the tile's resource."""
    if power(s, seat, "devastation") and "devastation" not in s["players"][seat]["flags"]:
        s["players"][seat]["flags"].append("devastation")
        s["players"][seat]["pp"] += 1
        events.append(Event(msg("gi.ev.power_pp", seat=SeatRef(seat), tree=tree_name("devastation"))))
    resource = s["tiles"][k]["t"]
    if resource in ("gold", "wood", "mineral"):
        s["players"][seat]["res"][resource] += level
        events.append(Event(msg("gi.ev.loot", seat=SeatRef(seat), n=level, kind=tile_name(resource))))


def _on_retreat_by_attack(s: State, events: list[Event]) -> None:
    att = current_attack(s)
    target = att["target"]
    assert target is not None, "a unit was sent to retreat"
    kind, uid = target
    by_kind, by_id = att["by"]
    if by_kind == "hero" and power(s, s["heroes"][by_id]["owner"], "reaping_energy"):
        s["pending"].append({"kind": "reap", "seat": s["heroes"][by_id]["owner"]})
    if kind == "hero" and by_kind == "hero":
        victim = s["heroes"][uid]["owner"]
        seat = s["heroes"][by_id]["owner"]
        if s["players"][victim]["commander"] == uid and victim != seat:  # RULING-25
            s["players"][seat]["pp"] += 1
            events.append(Event(msg("gi.ev.commander_pp", seat=SeatRef(seat))))
    if kind == "hero" and by_kind == "monster" and s["monsters"][by_id]["card"] == "walker":
        s["monsters"][by_id]["count"] += 1
        victim = s["heroes"][uid]["owner"]
        if monster_has(s, by_id, "devour") and s["players"][victim]["spirits"] > 0:
            s["players"][victim]["spirits"] -= 1
            s["source"] += 1


def fall_back_options(s: State, unit: Unit) -> list[str]:
    kind, uid = unit
    here = placed(s["heroes"][uid]["at"] if kind == "hero" else s["monsters"][uid]["at"])
    if kind == "hero":
        return [k for k in adjacent_keys(s, here) if hero_may_enter(s, uid, k)]
    return [k for k in adjacent_keys(s, here) if monster_may_enter(s, k)]


def _ask_fall_back(s: State, unit: Unit, events: list[Event]) -> None:
    """[RB p.14] the hero's controller picks; a monster's tile is picked by the last player in play order."""
    if not fall_back_options(s, unit):
        _retreat(s, unit, events)  # RULING-24: not counted as sent to retreat by the attack
        return
    kind, uid = unit
    if kind == "hero" and tile_kind(s, hero_tile(s, uid)) == "maelstrom":
        # [RB p.12] "Cuando un héroe deja esta loseta, el último jugador en orden de juego elige": a fall back
        # leaves it too, and the tile's own rule names who chooses (over the controller, and over Tricks).
        s["pending"].append({"kind": "maelstrom", "seat": s["order"][-1], "hero": uid})
    elif kind == "hero":
        seat = s["heroes"][uid]["owner"]
        by = attacker_seat(s)
        if by is not None and by != seat and power(s, by, "tricks"):
            seat = by  # Tricks: the attacker chooses where the enemy hero falls back
        s["pending"].append({"kind": "fall_back", "seat": seat, "hero": uid})
    else:
        s["pending"].append({"kind": "monster_fall_back", "seat": s["order"][-1], "monster": uid})


def _retreat(s: State, unit: Unit, events: list[Event]) -> None:
    if unit[0] == "hero":
        retreat_hero(s, unit[1], events)
    else:
        retreat_monster(s, unit[1], events)


def fall_back(s: State, unit: Unit, to: str, events: list[Event], key: str = "gi.ev.fall_back") -> None:
    """The forced move: an unrevealed tile is revealed and, if not enterable, sends the hero to retreat."""
    kind, uid = unit
    if kind == "monster":
        s["monsters"][uid]["at"] = to
        events.append(Event(msg("gi.ev.fall_back", unit=unit_name(s, unit), tile=tile_label(s, to))))
        return
    hero = s["heroes"][uid]
    tile = s["tiles"][to]
    if not tile["up"] and tile["t"] is not None:
        reveal(s, to, hero["owner"], uid, events)
        if impassable(s, to) or unit_at(s, to) is not None:
            retreat_hero(s, uid, events)
            return
    events.append(Event(msg(key, unit=unit_name(s, unit), tile=tile_label(s, to))))
    enter_tile(s, uid, to, events)


def degrade_options(s: State) -> list[str]:
    att = current_attack(s)
    post = s["outposts"].get(att["at"])
    if not att["dropped"] or post is None or att["by"][0] != "hero":
        return []
    hid = att["by"][1]
    seat = s["heroes"][hid]["owner"]
    options = ["leave", "destroy"]
    enemy_hero = unit_at(s, att["at"])
    if not has_rule(hid, "burn_not_build") and pieces_free(s, seat, post["level"]) and enemy_hero is None:
        options.append("capture")  # RULING-27
    return options


def _after_degrade(s: State, events: list[Event]) -> None:
    att = current_attack(s)
    if not att["dropped"] or att["at"] not in s["outposts"]:
        return
    if att["by"][0] == "monster":
        _destroy(s, att, events)  # monsters always destroy, never capture
        return
    seat = attacker_seat(s)
    assert seat is not None, "a hero's attack"
    s["pending"].append({"kind": "degrade", "seat": seat})


def resolve_degrade(s: State, choice: str, events: list[Event]) -> None:
    att = current_attack(s)
    if choice == "destroy":
        _destroy(s, att, events)
    elif choice == "capture":
        seat = s["heroes"][att["by"][1]]["owner"]
        post = s["outposts"][att["at"]]
        post.update({"owner": seat, "dmg": 0, "dropped": True})
        att["captured"] = True
        events.append(Event(msg("gi.ev.captured", seat=SeatRef(seat), tile=tile_label(s, att["at"]))))


def _experience(s: State, events: list[Event]) -> None:
    att = current_attack(s)
    if att["by"][0] != "hero" or not att["success"]:
        return
    amount = numbers()["xp_success"]
    if att["retreated"]:
        target = att["target"]
        assert target is not None, "a unit was sent to retreat"
        kind, uid = target
        amount = numbers()["xp_retreat"]
        if kind == "monster" and s["monsters"][uid]["kind"] == "event":
            amount = monsters()["event"][s["monsters"][uid]["card"]]["xp"]
    seat = attacker_seat(s)
    assert seat is not None, "a hero's attack"
    if power(s, seat, "ancestors"):
        amount += 1
    thirst = seat_number(s, seat, "retreat_xp") if att["retreated"] else None  # Thirst for Power
    if thirst:
        amount += thirst
    if s["heroes"][att["by"][1]]["at"] is not None:
        gain_xp(s, att["by"][1], amount, events)


def charge_possible(s: State) -> bool:
    att = current_attack(s)
    kind, uid = att["by"]
    target = att["target"]
    changed = att["destroyed"] or att["captured"] or (target is not None and unit_at(s, att["at"]) is None)
    if not changed:
        return False
    if kind == "hero":
        return s["heroes"][uid]["at"] is not None and hero_may_enter(s, uid, att["at"])
    return s["monsters"][uid]["at"] is not None and monster_may_enter(s, att["at"])


def _charge_through(s: State, events: list[Event]) -> None:
    """[RB p.14] heroes may, monsters always do, step into the attacked tile when it is free."""
    if not charge_possible(s):
        return
    att = current_attack(s)
    kind, uid = att["by"]
    if kind == "monster":
        s["monsters"][uid]["at"] = att["at"]
        events.append(Event(msg("gi.ev.charge", unit=unit_name(s, ("monster", uid)), tile=tile_label(s, att["at"]))))
        return
    seat = attacker_seat(s)
    assert seat is not None, "a hero's attack"
    s["pending"].append({"kind": "charge", "seat": seat})


def do_charge(s: State, events: list[Event]) -> str | None:
    """The hero's Charge through; returns an event monster revealed in its way (it then attacks)."""
    att = current_attack(s)
    hid = att["by"][1]
    tile = s["tiles"][att["at"]]
    if not tile["up"] and tile["t"] is not None:
        spawned = reveal(s, att["at"], s["heroes"][hid]["owner"], hid, events)
        if impassable(s, att["at"]) or unit_at(s, att["at"]) is not None:
            return spawned
    events.append(Event(msg("gi.ev.charge", unit=unit_name(s, ("hero", hid)), tile=tile_label(s, att["at"]))))
    mv = s["act"]["mv"] if s["act"] is not None else 0
    enter_tile(s, hid, att["at"], events)
    if s["act"] is not None and s["act"]["hero"] == hid:
        s["act"]["mv"] = mv  # Charge through ignores mud
    return None


def ability_damage(s: State, seat: int, unit: Unit, amount: int, events: list[Event]) -> None:
    """Damage from a player's ability (not an attack: no fall back, no XP); a retreat it causes still scores
    an enemy commander (RULING-25) and feeds Reaping Energy. A hero's owner may first ignore some of it."""
    if unit[0] == "hero":
        hurt_hero(s, unit[1], amount, "ability", seat)
        return
    _ability_hit(s, seat, unit, amount, events)


def _ability_hit(s: State, seat: int, unit: Unit, amount: int, events: list[Event]) -> None:
    events.append(Event(msg("gi.ev.hurt", unit=unit_name(s, unit), n=amount)))
    was_commander = unit[0] == "hero" and s["players"][s["heroes"][unit[1]]["owner"]]["commander"] == unit[1]
    victim = s["heroes"][unit[1]]["owner"] if unit[0] == "hero" else None
    if not damage_unit(s, unit, amount, events):
        return
    if victim is not None and victim != seat and was_commander:
        s["players"][seat]["pp"] += 1
        events.append(Event(msg("gi.ev.commander_pp", seat=SeatRef(seat))))
    if victim != seat and power(s, seat, "reaping_energy"):
        s["pending"].append({"kind": "reap", "seat": seat})


def ability_hits_outpost(s: State, seat: int, k: str, amount: int, events: list[Event]) -> None:
    """Damage to an outpost outside an attack [RB p.9]: it drops a level at its resistance (destroyed from
    level 1, the user gaining its level in the tile's resource); never captured this way."""
    post = s["outposts"][k]
    if post["dropped"]:
        return  # after dropping a level it takes no more damage this turn
    res = outpost_stats(post["level"])["resistance"]
    post["dmg"] = min(res, post["dmg"] + amount)
    events.append(Event(msg("gi.ev.outpost_hurt", tile=tile_label(s, k), n=amount)))
    if post["dmg"] < res:
        return
    if post["level"] > 1:
        post.update({"level": post["level"] - 1, "dmg": 0, "dropped": True})
        events.append(Event(msg("gi.ev.degraded", tile=tile_label(s, k), level=post["level"])))
        return
    s["outposts"].pop(k)
    events.append(Event(msg("gi.ev.destroyed", tile=tile_label(s, k))))
    _spoils(s, seat, k, 1, events)


# ---------------------------------------------------------------- damage outside attacks


def hurt_hero(s: State, hid: str, amount: int, src: str, by: int | None) -> None:
    """Damage to a hero outside an attack (an ability's, or `src` "swamp"), queued: [RB p.14] "El Daño puede ser
    ignorado por Habilidades tanto durante como fuera de los ataques", so its owner may answer first
    (`settle_hurts`)."""
    queue_hurt(s, hid, amount, src, by)


def settle_hurts(s: State, events: list[Event]) -> None:
    """The queued damage at the head of the questions: a window for its owner when they can ignore some of it
    (an ignoring ability that reaches the hero, or a spirit), else it lands at once."""
    while s["pending"] and s["pending"][0]["kind"] == "hurt":
        item = s["pending"][0]
        hid = item["hero"]
        if s["heroes"][hid]["at"] is None:  # gone meanwhile (retreated by an earlier hurt): nothing to take
            s["pending"].pop(0)
            continue
        seat = item["seat"]
        if s["players"][seat]["spirits"] > 0 or abilities.within_trade(s, seat, "ignore", hid):
            item["kind"] = "ignore"
            events.append(Event(msg("gi.ev.incoming", unit=unit_name(s, ("hero", hid)), n=item["n"],
                                    seat=SeatRef(seat))))
            return
        s["pending"].pop(0)
        land_hurt(s, item, events)


def land_hurt(s: State, item: Question, events: list[Event]) -> None:
    """The damage, less what was ignored (ignoring is applied last, RULING-21), and its consequences."""
    hid = item["hero"]
    if s["heroes"][hid]["at"] is None:
        return
    ignored = min(item["ignore"], item["n"])
    if ignored:
        events.append(Event(msg("gi.ev.ignored", unit=unit_name(s, ("hero", hid)), n=ignored)))
    amount = item["n"] - ignored
    if amount <= 0:
        return
    if item["src"] == "swamp":
        events.append(Event(msg("gi.ev.swamp", hero=unit_name(s, ("hero", hid)), dmg=amount)))
        damage_unit(s, ("hero", hid), amount, events)
    else:
        by = item["by"]
        assert by is not None, "an ability's damage names the seat that used it"
        _ability_hit(s, by, ("hero", hid), amount, events)
