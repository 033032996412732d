"""Facts that hold in every reachable state; tools.simulate and the contract test check them after each step."""

from __future__ import annotations

from rules.guerra_de_indagar.data import RESOURCES, cards, numbers, strategy
from rules.guerra_de_indagar.state import State
from rules.guerra_de_indagar.units import hero_resistance, impassable, monster_stats, outpost_stats, unit_at


def check(s: State) -> list[str]:
    problems: list[str] = []
    seen: dict[str, str] = {}
    for hid, hero in s["heroes"].items():
        at = hero["at"]
        if at is None:
            continue
        if at in seen:
            problems.append(f"{hid} shares {at} with {seen[at]}")
        seen[at] = hid
        if at not in s["tiles"] or impassable(s, at):
            problems.append(f"{hid} stands on {at}, not a passable tile")
        post = s["outposts"].get(at)
        if post is not None and post["owner"] != hero["owner"]:
            problems.append(f"{hid} stands on another player's outpost at {at}")
        if not 0 <= hero["dmg"] < hero_resistance(s, hid):
            problems.append(f"{hid} has {hero['dmg']} damage")
        levels = len(hero["levels"])
        if levels > 3 or (levels < 3 and hero["xp"] >= numbers()["xp_thresholds"][levels]) or hero["xp"] < 0:
            problems.append(f"{hid} has {hero['xp']} XP at level {levels}")
    for mid, mon in s["monsters"].items():
        at = mon["at"]
        if at is None:
            continue
        if at in seen:
            problems.append(f"{mid} shares {at} with {seen[at]}")
        seen[at] = mid
        # A monster may stand on a mountain revealed under it (RULING-32 lets it stop on any face-down tile).
        if at in s["outposts"] or at not in s["tiles"]:
            problems.append(f"{mid} stands on {at} (outpost {s['outposts'].get(at)})")
        if not 0 <= mon["dmg"] < monster_stats(s, mid)["resistance"]:
            problems.append(f"{mid} has {mon['dmg']} damage")
        if mon["turns"] > 3:
            problems.append(f"{mid} took {mon['turns']} turns this round")
    for k, post in s["outposts"].items():
        tile = s["tiles"][k]
        if tile["t"] not in (*RESOURCES, "abandoned"):
            problems.append(f"outpost on {k}, a {tile['t']} tile")
        if not 0 <= post["dmg"] < outpost_stats(post["level"])["resistance"]:
            problems.append(f"outpost on {k} has {post['dmg']} damage")
    for seat, player in enumerate(s["players"]):
        if any(player["res"][k] < 0 for k in RESOURCES) or player["spirits"] < 0 or player["pp"] < 0:
            problems.append(f"seat {seat} has a negative pool")
        level3 = sum(1 for p in s["outposts"].values() if p["owner"] == seat and p["level"] == 3)
        if level3 > outpost_stats(3)["pieces"]:
            problems.append(f"seat {seat} has {level3} level-3 outposts")
    problems += _abilities(s)
    if s["source"] < 0:
        problems.append("negative spirits on the Source")
    if not 0 <= s["round"] <= 10:
        problems.append(f"round {s['round']}")
    return problems


def _abilities(s: State) -> list[str]:
    """Unlock tokens, once-per-turn uses, this turn's modifiers and the activation's counters."""
    problems: list[str] = []
    tokens = strategy()["tokens"]["per_player"]
    for seat, player in enumerate(s["players"]):
        trees = strategy()["boards"][player["faction"]]["trees"] if player["faction"] else []
        for aid, side in player["unlocks"].items():
            card = cards().get(aid)
            if side not in ("coin", "bolt") or card is None or card.get("tree") not in trees:
                problems.append(f"seat {seat} unlocked {aid} ({side})")
        if len(player["unlocks"]) > tokens:
            problems.append(f"seat {seat} placed {len(player['unlocks'])} strategy tokens")
        if player["tree"] is not None and player["tree"] not in trees:
            problems.append(f"seat {seat} plays the tree {player['tree']}")
    if len(set(s["used"])) != len(s["used"]) or any(aid not in cards() for aid in s["used"]):
        problems.append(f"abilities used this turn: {s['used']}")
    for unit, changes in s["mods"].items():
        kind, uid = unit.split(":")
        pieces = s["heroes"] if kind == "hero" else s["monsters"]
        if uid not in pieces or set(changes) - {"defence"}:
            problems.append(f"modifier on {unit}: {changes}")
    act = s["act"]
    if act is not None:
        hero = s["heroes"][act["hero"]]
        if act["mv"] < 0 or (hero["at"] is not None and unit_at(s, hero["at"]) != ("hero", act["hero"])):
            problems.append(f"activation of {act['hero']}: {act}")
    windows = {p["kind"] for p in s["pending"]} & {"a_boost", "p_boost", "d_boost"}
    if windows and s["attack"] is None:
        problems.append(f"boost window {windows} without an attack")
    if s["pending"] and s["pending"][0]["kind"] == "hurt":
        problems.append("damage outside an attack left unsettled at the head of the questions")
    for item in s["pending"]:
        if item["kind"] in ("hurt", "ignore") and (item["n"] <= 0 or item["ignore"] < 0):
            problems.append(f"damage outside an attack: {item}")
        if item["kind"] == "ignore" and s["heroes"][item["hero"]]["at"] is None:
            problems.append(f"a window to ignore damage to {item['hero']}, who is off the board")
    return problems
