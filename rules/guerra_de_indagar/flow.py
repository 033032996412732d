"""Rounds and turns [RB p.5, p.17]: round start and end, the ring of player and monster turns, the run loop."""

from __future__ import annotations

from rules.base import Event
from rules.guerra_de_indagar import combat, monsters
from rules.guerra_de_indagar.data import hero_card, monster_name, numbers, resources, tile_name, tree_name
from rules.guerra_de_indagar.setup import primary
from rules.guerra_de_indagar.state import AttackContext, Question, State
from rules.guerra_de_indagar.units import (
    adjacent_keys,
    hero_may_enter,
    monster_has,
    monster_may_enter,
    nearest_free_for_monster,
    power,
    primacy_points,
    seat_passive,
    tile_label,
)
from rules.rng import Rng
from rules.text import SeatRef, msg

#: A primary monster's turns in a round at most (digest §3.2).
MONSTER_TURNS = 3


def available(s: State, seat: int) -> list[str]:
    return sorted(hid for hid, h in s["heroes"].items() if h["owner"] == seat and h["at"] is not None and not h["done"])


def deploy_tiles(s: State, seat: int, hid: str) -> list[str]:
    """Free deployment tiles of the player's area; with Crimson Portal also free face-up tiles next to one of
    their outposts."""
    spots = {k for k, t in s["tiles"].items() if t["deploy"] and t["area"] == seat and hero_may_enter(s, hid, k)}
    if seat_passive(s, seat, "redeploy_near_outpost"):
        spots |= {a for k, p in s["outposts"].items() if p["owner"] == seat for a in adjacent_keys(s, k)
                  if s["tiles"][a]["up"] and hero_may_enter(s, hid, a)}
    return sorted(spots)


def start_round(s: State, events: list[Event]) -> None:
    s["round"] += 1
    events.append(Event(msg("gi.ev.round", round=s["round"])))
    for mid, mon in sorted(s["monsters"].items()):
        if mon["at"] is not None:
            mon["dmg"] = max(0, mon["dmg"] - (2 if monster_has(s, mid, "tough") else 1))
        elif mon["kind"] == "primary" and mon["retreat"] == 1:
            mon["retreat"] = 2
        elif mon["kind"] == "primary" and mon["retreat"] == 2:
            _redeploy_monster(s, mid, events)
        mon["turns"] = 0
    for seat in s["order"]:  # each player in play order declares a tree, then heals and redeploys
        s["players"][seat].update({"traitors": False, "flags": []})
        s["pending"].append({"kind": "declare", "seat": seat})
    for hero in s["heroes"].values():
        hero["done"] = False
    s["ring"] = _ring(s)
    s["ring_pos"], s["lap"] = -1, -1
    s["phase"] = "turns"
    s["turn"] = None


def after_declaring(s: State, seat: int) -> None:
    """Round start steps 3-4 for one player [RB p.5]: heal (Tough 2, Priests of the Light +1), then redeploy."""
    redeploys: list[Question] = []
    for hid, hero in sorted(s["heroes"].items()):
        if hero["owner"] != seat:
            continue
        if hero["at"] is not None:
            heal = (2 if "tough" in hero_card(hid)["rules"] else 1) + (1 if power(s, seat, "priests") else 0)
            hero["dmg"] = max(0, hero["dmg"] - heal)
        else:
            redeploys.append({"kind": "redeploy", "seat": seat, "hero": hid})
    s["pending"][0:0] = redeploys


def _redeploy_monster(s: State, mid: str, events: list[Event]) -> None:
    """[RB p.18] on its home, else the nearest free tile from left to right (RULING-38)."""
    mon = s["monsters"][mid]
    home = next(k for k, t in s["tiles"].items() if t["home"] == mon["home"])
    spot = home if monster_may_enter(s, home) else nearest_free_for_monster(s, home)
    if spot is None:
        return
    s["monsters"][mid] = primary(mon["card"], spot, mon["home"]) | {"count": mon["count"]}
    events.append(Event(msg("gi.ev.monster_back", monster=monster_name(mon["card"]), tile=tile_label(s, spot))))


def _ring(s: State) -> list[list[str]]:
    """RULING-10: each player followed by the monster whose home lies clockwise after their area."""
    if s["solo"]:
        return [["m", ""], ["p", "0"], ["m", ""], ["p", "0"], ["m", ""], ["p", "0"], ["m", ""]]
    by_home = {m["home"]: mid for mid, m in s["monsters"].items() if m["kind"] == "primary"}
    ring: list[list[str]] = []
    for seat in s["order"]:
        ring.append(["p", str(seat)])
        if seat in by_home:
            ring.append(["m", by_home[seat]])
    return ring


def monster_may_act(s: State, mid: str) -> bool:
    mon = s["monsters"].get(mid)
    return (mon is not None and mon["at"] is not None and not mon["stuck"] and monsters_awake(s)
            and mon["turns"] < MONSTER_TURNS)


def monsters_awake(s: State) -> bool:
    """RULING-31: monsters act from round 2; option `monsters_start=second_pass` (the rulebook's "exactly 1
    activation to prepare") wakes them in round 1 once every player has had a turn."""
    if s["round"] > 1:
        return True
    if s.get("monsters_start") != "second_pass":
        return False
    return s["ring_pos"] > 1 if s["solo"] else s["lap"] >= 1


def advance(s: State) -> None:
    """Find the next slot of the ring that can act; the round's turns end when no hero is available."""
    ring = s["ring"]
    if s["solo"]:
        while s["ring_pos"] + 1 < len(ring):
            s["ring_pos"] += 1
            kind = ring[s["ring_pos"]][0]
            if kind == "p" and available(s, 0):
                s["turn"] = ["p", "0"]
                return
            if kind == "m":
                acting = sorted((m["home"], mid) for mid, m in s["monsters"].items()
                                if m["kind"] == "primary" and m["turns"] == 0 and monster_may_act(s, mid))
                if acting:
                    s["turn"] = ["m", acting[0][1]]
                    return
        _to_round_end(s)
        return
    for _ in range(len(ring) * 4):
        if not any(available(s, seat) for seat in s["order"]):
            break
        s["ring_pos"] = (s["ring_pos"] + 1) % len(ring)
        if s["ring_pos"] == 0:
            s["lap"] += 1
        kind, who = ring[s["ring_pos"]]
        if kind == "p" and available(s, int(who)):
            s["turn"] = ["p", who]
            return
        if kind == "m" and monster_may_act(s, who):
            s["turn"] = ["m", who]
            return
    _to_round_end(s)


def open_spirit_window(s: State) -> None:
    """RULING-07: before the win check, players holding 2 or more spirits may turn them into points."""
    s["window"] = True
    for seat in s["order"]:
        if s["players"][seat]["spirits"] >= numbers()["spirits_per_pp"]:
            s["pending"].append({"kind": "spirit_window", "seat": seat})


def _to_round_end(s: State) -> None:
    s["phase"] = "round_end"
    s["turn"] = None
    s["window"] = False
    if monsters_awake(s):  # event monsters act once at the end of the round, in order of appearance (PROV-21)
        s["end_queue"] = [mid for mid, m in sorted(s["monsters"].items(), key=lambda i: i[1]["order"])
                          if m["kind"] == "event" and m["at"] is not None]


def end_turn(s: State) -> None:
    """Outpost damage that did not degrade is discarded at the end of every turn [RB p.9]."""
    for post in s["outposts"].values():
        post.update({"dmg": 0, "dropped": False})
    s["used"], s["mods"] = [], {}  # each ability once per turn; a monster's turn is a turn (RULING-18)
    if s["act"] is not None:
        s["heroes"][s["act"]["hero"]]["done"] = True
        s["act"] = None
    if s["turn"] is not None and s["turn"][0] == "m":
        s["monsters"][s["turn"][1]]["turns"] += 1
    s["turn"] = None


def end_round(s: State, events: list[Event]) -> None:
    """Round end [RB p.5]: win check, production, a spirit on the Source, initiative passes."""
    _round_end_powers(s, events)
    target = s["target"]
    reached = [seat for seat in s["order"] if primacy_points(s, seat) >= target]
    if reached:
        s["result"] = {"winners": [reached[0]], "key": "gi.end.target"}
        return
    if s["round"] >= 10:
        if s["solo"]:
            s["result"] = {"winners": [], "key": "gi.end.solo_lost"}
        else:
            best = max(primacy_points(s, seat) for seat in s["order"])
            s["result"] = {"winners": [next(x for x in s["order"] if primacy_points(s, x) == best)],
                           "key": "gi.end.rounds"}
        return
    for k, post in sorted(s["outposts"].items()):
        tile = s["tiles"][k]
        kind = tile["t"]
        if kind in ("gold", "wood", "mineral") and kind is not None and not tile["destroyed"]:
            bonus = resources(seat_passive(s, post["owner"], "produce"))  # Fertile Land
            amount = post["level"] + int(bonus.get(kind, 0))
            s["players"][post["owner"]]["res"][kind] += amount
            events.append(Event(msg("gi.ev.produce", seat=SeatRef(post["owner"]), n=amount, kind=tile_name(kind))))
    s["source"] += 1
    if not s["solo"]:
        players = len(s["order"])
        s["order"] = [(s["order"][0] + 1 + i) % players for i in range(players)]
    s["phase"] = "round_start"


def _round_end_powers(s: State, events: list[Event]) -> None:
    """End-of-round strategic powers, in play order (RULING-09): Merchant Crown and Expansion."""
    counts = {seat: sum(1 for p in s["outposts"].values() if p["owner"] == seat) for seat in s["order"]}
    for seat in s["order"]:
        gained = False
        if power(s, seat, "merchant_crown"):
            gained = sum(1 for p in s["outposts"].values() if p["owner"] == seat and p["level"] >= 2) >= 3
        if power(s, seat, "expansion"):
            others = [count for other, count in counts.items() if other != seat]
            gained = counts[seat] >= 4 if s["solo"] else all(counts[seat] > count for count in others)
        tree = s["players"][seat]["tree"]
        if gained and tree is not None:  # a power is on only while its tree is declared
            s["players"][seat]["pp"] += 1
            events.append(Event(msg("gi.ev.power_pp", seat=SeatRef(seat), tree=tree_name(tree))))


def run(s: State, rng: Rng, events: list[Event]) -> None:
    """Resolve everything automatic until a seat (or the game's own SYSTEM step) must act."""
    while s["result"] is None:
        _drop_empty_redeploys(s)
        combat.settle_hurts(s, events)
        if s["pending"]:
            return
        if s["attack"] is not None:
            then = s["attack"].get("then")
            ctx = combat.step(s, rng, events)
            if ctx is not None:
                _attack_over(s, ctx, then)
        elif s["act"] is not None and s["act"].get("over"):
            end_turn(s)
        elif s["phase"] == "turns" and s["turn"] is None:
            advance(s)
        else:
            return
        _monster_victory(s)


def _drop_empty_redeploys(s: State) -> None:
    while s["pending"] and s["pending"][0]["kind"] == "redeploy":
        item = s["pending"][0]
        if deploy_tiles(s, item["seat"], item["hero"]):
            return
        s["pending"].pop(0)  # no free deployment tile: the hero stays in retreat this round


def _attack_over(s: State, ctx: AttackContext, then: list[str] | None) -> None:
    if then is not None:
        mid, hid = then
        monster, hero = s["monsters"].get(mid), s["heroes"].get(hid)
        if monster is not None and monster["at"] is not None and hero is not None and hero["at"] is not None:
            combat.start_attack(s, ("monster", mid), hero["at"], ctx)
            return
    if ctx in ("monster", "event"):
        monster_done(s, ctx)


def monster_done(s: State, ctx: AttackContext) -> None:
    """A primary monster's turn ends in the ring; an event monster's round-end turn leaves the queue."""
    if ctx == "monster":
        end_turn(s)
        return
    s["end_queue"].pop(0)
    s["used"], s["mods"] = [], {}
    for post in s["outposts"].values():
        post.update({"dmg": 0, "dropped": False})


def _monster_victory(s: State) -> None:
    if s["result"] is None and (mid := monsters.winner(s)) is not None:
        s["result"] = {"winners": [], "key": "gi.end.monster", "monster": mid}


def system_step(s: State, kind: str, rng: Rng, events: list[Event]) -> None:
    if kind == "round_start":
        start_round(s, events)
    elif kind == "monster":
        turn = s["turn"]
        assert turn is not None, "a monster's turn"
        if monsters.take_turn(s, turn[1], "monster", rng, events) == "done":
            monster_done(s, "monster")
    elif kind == "spirit_window":
        open_spirit_window(s)
    elif kind == "event_turn":
        mid = s["end_queue"][0]
        if s["monsters"][mid]["at"] is None or monsters.take_turn(s, mid, "event", rng, events) == "done":
            monster_done(s, "event")
    else:
        end_round(s, events)
    _monster_victory(s)
    run(s, rng, events)


def system_kind(s: State) -> str:
    if s["phase"] == "round_start":
        return "round_start"
    if s["phase"] == "round_end":
        if s["end_queue"]:
            return "event_turn"
        return "round_end" if s["window"] else "spirit_window"
    return "monster"
