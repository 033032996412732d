"""Turn order, the start of each turn (poison, stun, sleep), damage, death and the end of the quest."""

from __future__ import annotations

import math

from rules.heroquest import catalog, combat, sight
from rules.heroquest.dice import WHITE_SHIELD, red_die, roll_text
from rules.heroquest.shapes import Hero, Monster, Stat, Turn
from rules.heroquest.state import GM, Ctx, HQState, hero_label, hero_square, is_outside, monster_label
from rules.text import msg


def saving_potion(h: Hero) -> str | None:
    table = catalog.equipment()
    return next((i for i in h["items"] if i in table and table[i].get("saves")), None)


def hero_turn_state(ctx: Ctx, h: Hero) -> Turn:
    """Fresh per-turn flags; the movement allowance is fixed or rolled on 2d6 (classic option)."""
    s = ctx.state
    base = catalog.heroes()[h["hero"]]["move"]
    armour = catalog.equipment().get(h["armour"] or "")
    half_move = armour is not None and armour.get("half_move")
    if s.d["opts"]["movement"] == "2d6":
        dice_n = 1 if half_move else 2
        base = sum(red_die(ctx.rng) for _ in range(dice_n))
        ctx.undoable = False
        ctx.say("hq.ev.movement_roll", hero=hero_label(h), moves=base)
    elif half_move:
        base = math.ceil(base / 2)
    if h["status"].pop("swift", False):
        base *= 2
    if h["mind"] <= 0:
        base = math.ceil(base / 2)
    return {"who": "hero", "i": s.heroes.index(h), "moves": base, "moved": False, "closed": False,
            "acted": False, "potion": False, "gave": False, "jumped": False, "run": False, "attacks": 0}


def start_round(ctx: Ctx) -> None:
    start_hero_turn(ctx, 0)


def start_hero_turn(ctx: Ctx, i: int) -> None:
    """Begin the turn of hero `i` or of the next one able to play; after the last, the game master's turn."""
    s = ctx.state
    while i < len(s.heroes):
        h = s.heroes[i]
        if h["dead"] or (h["sq"] is None and not is_outside(h)):
            i += 1
            continue
        s.d["turn"] = hero_turn_state(ctx, h)
        if _turn_opening(ctx, h):
            return
        if s.d["over"] or s.d["pending"]:
            return
        i += 1
    start_gm_turn(ctx)


def _turn_opening(ctx: Ctx, h: Hero) -> bool:
    """Poison, then lost turns. True when the hero plays this turn."""
    status = h["status"]
    if status.get("poison"):
        face = ctx.roll(1)[0]
        damage, goes_on = combat.poison_result(face)
        if not goes_on:
            status.pop("poison", None)
        ctx.say("hq.ev.poison_roll", who=hero_label(h), face=roll_text([face]), damage=damage)
        if damage:
            damage_hero(ctx, h, damage, then_end=False)
            if h["dead"] or ctx.state.d["pending"]:
                return bool(ctx.state.d["pending"])
    if status.get("sleep"):
        faces = ctx.roll(max(1, h["mind"]))
        if WHITE_SHIELD in faces:
            status.pop("sleep")
            ctx.say("hq.ev.wakes", who=hero_label(h))
        else:
            ctx.say("hq.ev.sleeps", who=hero_label(h))
            return False
    if status.pop("stun", False) or status.pop("lose_turn", False):
        ctx.say("hq.ev.loses_turn", who=hero_label(h))
        return False
    if status.get("fear"):
        faces = ctx.roll(max(1, h["mind"]))
        if WHITE_SHIELD in faces:
            status.pop("fear")
            ctx.say("hq.ev.fear_ends", who=hero_label(h))
    if status.get("courage") and h["sq"] is not None and not sight.monsters_in_sight(ctx.state, hero_square(h)):
        status.pop("courage")
    ctx.say("hq.ev.hero_turn", hero=hero_label(h), seat=h["seat"])
    return True


def start_gm_turn(ctx: Ctx) -> None:
    s = ctx.state
    s.d["turn"] = {"who": "gm", "i": 0, "potions": []}
    for m in list(s.monsters.values()):
        m["moved"] = m["acted"] = False
        status = m["status"]
        if status.get("poison") and m["revealed"]:
            face = ctx.roll(1)[0]
            damage, goes_on = combat.poison_result(face)
            if not goes_on:
                status.pop("poison")
            ctx.say("hq.ev.poison_roll", who=monster_label(m), face=roll_text([face]), damage=damage)
            if damage:
                damage_monster(ctx, m, damage)
                if m["uid"] not in s.monsters:
                    continue
        if status.pop("stun", False) or status.pop("lose_turn", False) or status.get("sleep"):
            m["moved"] = m["acted"] = True
    ctx.say("hq.ev.gm_turn", seat=GM)


def end_gm_turn(ctx: Ctx) -> None:
    s = ctx.state
    s.d["round"] += 1
    limit = s.d["opts"].get("rounds", 0)
    if limit and s.d["round"] > limit:
        finish(ctx, "lose", "rounds")
        return
    start_round(ctx)


def end_hero_turn(ctx: Ctx) -> None:
    s = ctx.state
    if s.d["over"]:
        return
    turn = s.d["turn"]
    start_hero_turn(ctx, turn["i"] + 1)


def damage_hero(ctx: Ctx, h: Hero, amount: int, then_end: bool = False) -> None:
    """Lose body points; at zero the hero dies unless a restoration potion can still be drunk this turn."""
    if amount <= 0 or h["dead"]:
        return
    h["status"].pop("rock_skin", None)
    h["body"] -= amount
    ctx.say("hq.ev.hero_wounded", hero=hero_label(h), damage=amount, body=max(0, h["body"]))
    if h["body"] > 0:
        return
    deficit = -h["body"]
    h["body"] = 0
    potion = saving_potion(h)
    if potion and not potion_used(ctx.state, h):
        ctx.state.d["pending"].append({"kind": "save", "hero": h["uid"], "deficit": deficit, "then_end": then_end})
        ctx.say("hq.ev.dying", hero=hero_label(h))
        return
    die(ctx, h)


def potion_used(s: HQState, h: Hero) -> bool:
    turn = s.d["turn"]
    if turn["who"] == "hero":
        return bool(turn.get("potion")) and s.heroes[turn["i"]]["uid"] == h["uid"]
    if turn["who"] == "gm":
        return h["uid"] in turn.get("potions", [])
    return False


def mark_potion(s: HQState, h: Hero) -> None:
    turn = s.d["turn"]
    if turn["who"] == "hero" and s.heroes[turn["i"]]["uid"] == h["uid"]:
        turn["potion"] = True
    elif turn["who"] == "gm":
        turn.setdefault("potions", []).append(h["uid"])


def die(ctx: Ctx, h: Hero) -> None:
    """The hero dies: a corpse token with the equipment stays on the square until the end of the quest."""
    s = ctx.state
    sq = hero_square(h)
    h["dead"] = True
    h["body"] = 0
    witnesses = [o["uid"] for o in s.on_board_heroes() if o["uid"] != h["uid"] and sight.sees(s, hero_square(o), sq)]
    items = [i for i in (h["weapon"], h["shield"], h["helmet"], h["armour"]) if i] + list(h["items"])
    h["weapon"] = h["shield"] = h["helmet"] = h["armour"] = None
    h["items"] = []
    # Quest Treasures stay with the body: another hero may recover them (rulebook, Tesoros de Reto)
    treasures, h["quest_treasures"] = h["quest_treasures"], []
    h["sq"] = None
    h["status"] = {}
    uid = f"corpse_{h['hero']}"
    s.objects[uid] = {"uid": uid, "kind": "corpse", "ref": h["hero"], "squares": [list(sq)], "rotation": "downward",
                      "between": None, "note": None, "revealed": True, "items": items, "treasures": treasures,
                      "witnesses": witnesses}
    ctx.say("hq.ev.hero_dies", hero=hero_label(h))


def damage_monster(ctx: Ctx, m: Monster, amount: int, mind: bool = False) -> None:
    if amount <= 0:
        return
    key: Stat = "mind" if mind else "body"
    m[key] = max(0, m[key] - amount)
    if m["body"] <= 0 or (mind and m["mind"] <= 0):
        del ctx.state.monsters[m["uid"]]
        ctx.about(m, "hq.ev.monster_dies", monster=monster_label(m))
    elif mind:
        ctx.about(m, "hq.ev.monster_loses_mind", monster=monster_label(m), damage=amount, mind=m["mind"])
    else:
        ctx.about(m, "hq.ev.monster_wounded", monster=monster_label(m), damage=amount, body=m["body"])


def finish(ctx: Ctx, result: str, reason: str) -> None:
    if ctx.state.d["over"]:
        return
    ctx.state.d["over"] = {"result": result, "reason": reason}
    ctx.state.d["pending"] = []
    ctx.say(f"hq.ev.over.{result}", reason=msg(f"hq.reason.{reason}"))
