"""The enemy turn (rulebook §B): arrivals, turn priority, upkeep, movement along the arrows, blocking windows,
attacks by priority and the Gate; one SYSTEM step at a time so the table can show and pause each one."""

from __future__ import annotations

from rules.base import Event
from rules.kings_armory import data, figures, queries
from rules.kings_armory.board import Sq, range_distance
from rules.kings_armory.shapes import Ally, Monster, MonsterAttack, State
from rules.rng import Rng
from rules.text import Param, msg


def _say(events: list[Event], key: str, **params: Param) -> None:
    events.append(Event(msg(f"ka.ev.{key}", **params)))


# ---------------------------------------------------------------- piles and arrival


def draw_monster(state: State, rng: Rng, level: int) -> str:
    """A random token of the level (piles are shuffled at set-up); an empty pile takes its discards back,
    else the nearest lower level, then higher (P-27)."""
    order = [level, *range(level - 1, 0, -1), *range(level + 1, 6)]
    for lvl in order:
        pile, used = state["piles"][str(lvl)], state["discard"][str(lvl)]
        if not pile and used:
            pile.extend(used)
            used.clear()
            rng.shuffle(pile)
        if pile:
            return str(pile.pop())
    raise AssertionError("all 85 monster tokens are on the board")


def _place(state: State, mon: Monster) -> None:
    """At an occupied entrance square a monster goes forward to the first free square of its route."""
    b = queries.board_of(state)
    while queries.layer_taken(state, mon, queries.monster_square(state, mon)) and not mon["boss"] \
            and mon["i"] < len(b.lanes[mon["lane"]]) - 2:
        mon["i"] += 1


def new_monster(state: State, key: str, side: str, *, boss: bool = False) -> Monster:
    card = data.bosses()[key] if boss else data.monsters()[key]
    hp = card["hp"] + (data.boss_hp_step() * (state["n"] - 1) if boss else 0)
    lane = queries.board_of(state).lane_of(side, card["arrow"])
    mon: Monster = {"id": f"m{state['mseq']}", "key": key, "boss": boss, "hp": hp, "max": hp, "lane": lane, "i": 0,
                    "st": figures.no_status(), "blocked_by": None, "acted": False, "grounded": False, "fog": 0,
                    "sundered": 0}
    state["mseq"] += 1
    state["monsters"].append(mon)
    _place(state, mon)
    return mon


def arrive(state: State, rng: Rng, events: list[Event], level: int | None = None) -> Monster:
    """One arrival: d12 on the Wave Card row (unless the level is forced), draw, odd left / even right (A-07)."""
    roll = rng.die(12)
    mining = queries.variant(state, "gold_mining")
    if mining and level is None and roll == mining["bank_roll"]:
        state["banked"] += mining["bank_gold"]  # Gold Mining: a natural 12 on the wave die banks gold (P-28)
    lvl = level if level is not None else data.level_for_roll(state["wave"], roll)
    key = draw_monster(state, rng, lvl)
    side = "L" if roll % 2 else "R"
    mon = new_monster(state, key, side)
    _say(events, "arrive", monster=figures.monster_name(mon), roll=roll, level=lvl,
         square=queries.board_of(state).label(queries.monster_square(state, mon)))
    return mon


# ---------------------------------------------------------------- the step machine


def step(state: State, rng: Rng, events: list[Event]) -> None:
    """One automated step of the enemy turn; ends by handing over to the allies when nothing is left to do."""
    if state["act"] is not None:
        _continue(state, rng, events)
        return
    if state["extra"]:
        mon = arrive(state, rng, events, level=state["extra"].pop(0))
        _start(state, rng, events, mon, upkeep=False)
        return
    if state["arrive"] > 0:
        state["arrive"] -= 1
        mon = arrive(state, rng, events)
        _start(state, rng, events, mon, upkeep=False)
        return
    waiting = [m for m in state["monsters"] if not m["acted"]]
    if waiting:
        mon = _next_by_priority(state, rng, waiting)
        _start(state, rng, events, mon, upkeep=True)
        return
    if state["boss_due"] and state["boss_due"][0] == state["eturn"]:
        state["boss_due"].pop(0)
        _boss_arrives(state, rng, events)
        return
    start_allies_round(state, events)


def _next_by_priority(state: State, rng: Rng, waiting: list[Monster]) -> Monster:
    """Turn priority (§3.3): nearest the Armory, faster, flyer, red arrow, right lane; then a die (A-08)."""
    b = queries.board_of(state)

    def key(m: Monster) -> tuple[int, int, int, int, int]:
        card = figures.monster_card(m)
        return (b.route_left(m["lane"], m["i"]), -figures.monster_mv(m), 0 if figures.flying(m) else 1,
                0 if card["arrow"] == "r" else 1, 0 if m["lane"][-1] == "R" else 1)

    best = min(key(m) for m in waiting)
    tied = [m for m in waiting if key(m) == best]
    return tied[0] if len(tied) == 1 else tied[rng.below(len(tied))]


def _boss_arrives(state: State, rng: Rng, events: list[Event]) -> None:
    key = state["boss_pile"].pop(rng.below(len(state["boss_pile"])))
    if state["boss_side"] is None:
        roll = rng.die(12)
        side = "L" if roll % 2 else "R"
        state["boss_side"] = side
    else:
        side = "R" if state["boss_side"] == "L" else "L"  # the second boss enters on the other side, no roll
    mon = new_monster(state, key, side, boss=True)
    _say(events, "boss", monster=figures.monster_name(mon),
         square=queries.board_of(state).label(queries.monster_square(state, mon)))
    if data.bosses()[key].get("special") == "escort_l2x2":
        state["extra"] += [2, 2]
    _start(state, rng, events, mon, upkeep=False)


def activation_next(state: State) -> bool:
    """Whether the next step starts a monster's activation (an arrival, a monster waiting to act, a boss)."""
    return bool(state["extra"] or state["arrive"] > 0 or any(not m["acted"] for m in state["monsters"])
                or (state["boss_due"] and state["boss_due"][0] == state["eturn"]))


def _start(state: State, rng: Rng, events: list[Event], mon: Monster, *, upkeep: bool) -> None:
    mon["acted"] = True
    state["offered"] = False  # the next activation may be paused for card plays again
    if upkeep and not _upkeep(state, events, mon):
        check_end(state, events)
        return
    if state["result"] is not None or queries.monster(state, mon["id"]) is None:
        return
    if state["hourglass"] == "now" and not mon["boss"]:
        _say(events, "hourglass", monster=figures.monster_name(mon))  # the King's Hourglass: no move, no attack
        return
    stays = mon["blocked_by"] is not None
    in_range = queries.board_of(state).gate_range(queries.monster_square(state, mon)) <= card_range(mon)
    if figures.siege(mon) and monster_attacks(mon)[0]["type"] == "R" and in_range:
        stays = True  # ranged siege already in range of the Gate skips its movement
    state["act"] = {"mid": mon["id"], "left": 0 if stays else figures.monster_mv(mon), "trail": [], "asked": [],
                "passed": [], "moved": 0}
    _continue(state, rng, events)


def card_range(mon: Monster) -> int:
    card = figures.monster_card(mon)
    return int(card["attacks"][0]["range"] if mon["boss"] else card["range"])


def _upkeep(state: State, events: list[Event], mon: Monster) -> bool:
    """Bleed, Burn, Slow, Stun, Bless in that order; False when the monster dies or is stunned."""
    tokens = mon["st"]
    loss = tokens["bleed"] + tokens["burn"]
    if loss:
        mon["hp"] -= loss
        _say(events, "upkeep", monster=figures.monster_name(mon), hp=loss)
        if mon["hp"] <= 0:
            kill(state, events, mon)
            return False
    if tokens["stun"]:
        tokens["stun"] = 0
        _say(events, "stunned", monster=figures.monster_name(mon))
        return False
    tokens["bless"] = 0
    if mon["boss"] and data.bosses()[mon["key"]].get("special") == "regenerate_5" and not tokens["burn"]:
        mon["hp"] = min(mon["max"], mon["hp"] + 5)
    return True


def blockers(state: State, mon: Monster) -> list[Ally]:
    """Allies that may block this monster where it stands now (§4.3)."""
    if mon["boss"] or figures.siege(mon) or "UnS" in figures.flags(mon):
        return []
    if figures.flying(mon) and not mon["grounded"]:
        return []
    sq = queries.monster_square(state, mon)
    if (not queries.board_of(state).on_field(sq) and sq not in queries.board_of(state).exits.values()) \
            or queries.layer_taken(state, mon, sq):
        return []
    out = []
    for a in state["allies"]:
        p = queries.pos(a)
        if a["ko"] or p is None or range_distance(p, sq) > 1 or len(a["blocks"]) >= figures.tank(a):
            continue
        if a["inside"] and not figures.ally_card(a).get("mind_cage"):
            continue
        if "U" in figures.flags(mon) and not (a.get("phalanx") and not a.get("phalanx_used")):
            continue
        out.append(a)
    return out


def block(state: State, a: Ally, mon: Monster) -> None:
    mon["blocked_by"] = a["id"]
    a["blocks"].append(mon["id"])
    if "U" in figures.flags(mon):
        a["phalanx_used"] = True


def _continue(state: State, rng: Rng, events: list[Event]) -> None:
    act = state["act"]
    assert act is not None
    mon = queries.monster(state, act["mid"])
    assert mon is not None
    b = queries.board_of(state)
    lane = b.lanes[mon["lane"]]
    while act["left"] > 0 and mon["blocked_by"] is None and mon["i"] < len(lane) - 1:
        # a blocking window on every square where the monster could stop, unless a standing order answers it
        for a in blockers(state, mon):
            if a["id"] in act["asked"] or a["id"] in act["passed"]:
                continue
            standing = a.get("order", "ask")
            if standing == "pass":
                act["passed"].append(a["id"])
                continue
            if standing == "block":
                block(state, a, mon)
                events.append(Event(msg("ka.ev.block_order", ally=figures.ally_name(a),
                                        monster=figures.monster_name(mon))))
                break
            state["ask"] = {"ally": a["id"], "mid": mon["id"]}
            act["asked"].append(a["id"])
            return
        if mon["blocked_by"] is not None:
            break
        nxt = mon["i"] + 1
        if walled(state, mon, lane[nxt]):
            act["left"] = 0  # stops before a Psychic Wall as if blocked, with no blocker (§8.3)
            break
        _push(state, events, mon, nxt)
        if state["result"] is not None:
            state["act"] = None
            return
        act["trail"].append(mon["i"])
        mon["i"] = nxt
        act["left"] -= 1
        act["moved"] += 1
        act["asked"] = []
        if nxt == len(lane) - 1:
            if mon["boss"] or figures.siege(mon):
                act["left"] = 0
                break
            _enters_armory(state, events, mon)
            return
    if act["moved"]:
        _land(state, mon, act["trail"])
        if queries.monster(state, mon["id"]) is None:  # pushed forward into the Armory while landing
            _enters_armory(state, events, mon, already_removed=True)
            return
        _say(events, "monster_move", monster=figures.monster_name(mon),
             square=b.label(queries.monster_square(state, mon)))
    state["act"] = None
    _attack(state, rng, events, mon, moved=act["moved"])
    if mon["boss"] and data.bosses()[mon["key"]].get("special") == "summon_l1" and queries.monster(state, mon["id"]):
        summoned = arrive(state, rng, events, level=1)
        summoned["acted"] = True
    check_end(state, events)


def walled(state: State, mon: Monster, sq: Sq) -> bool:
    """Psychic Wall: non-boss, non-unstoppable ground monsters cannot enter the square."""
    if mon["boss"] or "UnS" in figures.flags(mon) or (figures.flying(mon) and not mon["grounded"]):
        return False
    return [sq[0], sq[1]] in state["walls"]


def _pushable(m: Monster) -> bool:
    return "push" in figures.flags(m) and not m["boss"] and not figures.flying(m) and m["blocked_by"] is None


def _push(state: State, events: list[Event], mover: Monster, nxt: int) -> None:
    """A ground monster stepping onto a pushable (+) one pushes it, and any chain of them, a square ahead;
    a non-pushable monster in front stops the push and the mover passes through (§3.4, A-12)."""
    if figures.flying(mover):
        return
    lanes = queries.board_of(state).lanes
    lane = lanes[mover["lane"]]
    # a boss stacked with a pushable monster holds the square: non-pushable monsters are read last and win
    ground = {queries.monster_square(state, m): m for m in sorted(state["monsters"], key=_pushable, reverse=True)
              if not figures.flying(m) and m["id"] != mover["id"]}
    chain = []
    k = nxt
    while k < len(lane) and lane[k] in ground:
        m = ground[lane[k]]
        own = lanes[m["lane"]]
        # the push stops at a monster that cannot be pushed, or where its arrows leave the mover's (a fork)
        if not _pushable(m) or k + 1 >= len(lane) or m["i"] + 1 >= len(own) or own[m["i"] + 1] != lane[k + 1]:
            return
        chain.append(m)
        k += 1
    if not chain or k >= len(lane):
        return
    for m in reversed(chain):
        m["i"] += 1
        if m["i"] == len(lanes[m["lane"]]) - 1 and not figures.siege(m):
            _into_armory(state, events, m)
            if state["result"] is not None:
                return


def _land(state: State, mon: Monster, trail: list[int]) -> None:
    """Back up to the last free square of the way just walked, or forward when it cannot (§3.4)."""
    if mon["boss"] or not queries.layer_taken(state, mon, queries.monster_square(state, mon)) \
            or mon["blocked_by"] is not None:
        return
    for i in reversed(trail):
        mon["i"] = i
        if not queries.layer_taken(state, mon, queries.monster_square(state, mon)):
            return
    last = len(queries.board_of(state).lanes[mon["lane"]]) - 1
    mon["i"] = trail[-1] + 1 if trail else mon["i"]
    while queries.layer_taken(state, mon, queries.monster_square(state, mon)) and mon["i"] < last:
        mon["i"] += 1
    if mon["i"] == last:
        remove(state, mon)


def _enters_armory(state: State, events: list[Event], mon: Monster, *, already_removed: bool = False) -> None:
    """The acting monster reaches an exit square: the Gate takes its full damage and its activation ends."""
    state["act"] = None
    _into_armory(state, events, mon, already_removed=already_removed)


def _into_armory(state: State, events: list[Event], mon: Monster, *, already_removed: bool = False) -> None:
    card = figures.monster_card(mon)
    hurt = card["dmg"] * card.get("hits", 1)
    state["gate"] = max(0, state["gate"] - hurt)
    if not already_removed:
        remove(state, mon)
    _say(events, "armory", monster=figures.monster_name(mon), hp=hurt, gate=state["gate"])
    check_end(state, events)


def remove(state: State, mon: Monster) -> None:
    """Off the board (defeated or into the Armory): its token goes to its level's discard (P-27)."""
    state["monsters"] = [m for m in state["monsters"] if m["id"] != mon["id"]]
    if mon["blocked_by"] is not None:
        blocker = queries.find_ally(state, mon["blocked_by"])
        if blocker is not None and mon["id"] in blocker["blocks"]:
            blocker["blocks"].remove(mon["id"])
    if mon["boss"]:
        state["boss_dead"].append(mon["key"])
    else:
        state["discard"][str(data.monsters()[mon["key"]]["level"])].append(mon["key"])


def kill(state: State, events: list[Event], mon: Monster) -> None:
    remove(state, mon)
    _say(events, "defeated", monster=figures.monster_name(mon))


# ---------------------------------------------------------------- attacks


def _reach(kind: str, reach: int, a: Ally) -> bool:
    """Melee never reaches into a tower; supernatural only at range 2 or more; ranged always (§3.7.2)."""
    if not a["inside"]:
        return True
    return kind == "R" or (kind == "SN" and reach >= 2)


def viable(state: State, mon: Monster, attack: MonsterAttack) -> list[Ally]:
    sq = queries.monster_square(state, mon)
    out = []
    for a in state["allies"]:
        p = queries.pos(a)
        if a["ko"] or p is None or range_distance(sq, p) > attack["range"]:
            continue
        if _reach(attack["type"], attack["range"], a):
            out.append(a)
    return out


def choose_target(state: State, rng: Rng, mon: Monster, attack: MonsterAttack, exclude: set[str]) -> Ally | None:
    """Attack priority (§3.5.1, A-14): blocker, nearest, same damage type, on its route, on the path, nearest
    the path, nearest the Gate, then a die."""
    targets = viable(state, mon, attack)
    if exclude and any(a["id"] not in exclude for a in targets):
        targets = [a for a in targets if a["id"] not in exclude]
    if not targets:
        return None
    b = queries.board_of(state)
    sq = queries.monster_square(state, mon)
    ahead = set(b.lanes[mon["lane"]][mon["i"] + 1:])

    def key(a: Ally) -> tuple[int, ...]:
        p = queries.pos(a)
        assert p is not None
        return (0 if mon["blocked_by"] == a["id"] else 1, range_distance(sq, p),
                0 if figures.primary_type(a) == attack["type"] else 1,
                0 if p in ahead else 1, 0 if p in b.path else 1, b.path_distance(p), b.gate_range(p))

    best = min(key(a) for a in targets)
    tied = [a for a in targets if key(a) == best]
    return tied[0] if len(tied) == 1 else tied[rng.below(len(tied))]


def guard_of(state: State, a: Ally) -> Ally:
    """Guard Ally: an attack that selects a guarded ally strikes its adjacent, standing guardian instead."""
    p = queries.pos(a)
    for g in state["allies"]:
        gp = queries.pos(g)
        if g.get("guarding") == a["id"] and not g["ko"] and gp is not None and p is not None \
                and range_distance(gp, p) <= 1:
            return g
    return a


def monster_attacks(mon: Monster) -> list[MonsterAttack]:
    card = figures.monster_card(mon)
    if mon["boss"]:
        return [{**a, "hit": card["hit"]} for a in card["attacks"]]
    return [{"type": card["type"], "range": card["range"], "dmg": card["dmg"], "hits": card.get("hits", 1),
             "hit": card["hit"]}]


def _attack(state: State, rng: Rng, events: list[Event], mon: Monster, *, moved: int) -> None:
    if queries.monster(state, mon["id"]) is None or state["result"] is not None:
        return
    hit_against: set[str] = set()
    for attack in monster_attacks(mon):
        bonus = 3 if mon["boss"] and data.bosses()[mon["key"]].get("special") == "charge_3" and moved >= 4 else 0
        target = None
        if attack["hit"] != "CO":
            target = choose_target(state, rng, mon, attack, hit_against if attack.get("other_target") else set())
        if target is None:
            if queries.board_of(state).gate_range(queries.monster_square(state, mon)) <= attack["range"]:
                hurt = (attack["dmg"] + bonus) * attack.get("hits", 1)
                state["gate"] = max(0, state["gate"] - hurt)
                _say(events, "gate_hit", monster=figures.monster_name(mon), hp=hurt, gate=state["gate"])
                check_end(state, events)
            continue
        hit_against.add(target["id"])
        target = guard_of(state, target)
        _strike(state, rng, events, mon, target, attack, bonus)
        if state["result"] is not None:
            return


def _strike(state: State, rng: Rng, events: list[Event], mon: Monster, a: Ally, attack: MonsterAttack,
            bonus: int) -> None:
    quick = queries.variant(state, "quick")
    nat = None if quick else rng.die(20)  # Quick Game: every attack is Auto
    ettin = queries.variant(state, "ettin")
    hit_bonus = int(attack["hit"]) + (2 if mon["st"]["bless"] else 0) - mon["fog"] \
        + (ettin["monster_hit"] if ettin else 0)
    hit, crit = figures.roll_hit(nat, hit_bonus, figures.ally_dodge(a), [20])
    bonus += quick["damage"] if quick else 0
    if not hit:
        assert nat is not None  # an Auto attack (no roll) always hits
        _say(events, "monster_miss", monster=figures.monster_name(mon), ally=figures.ally_name(a), roll=nat)
        return
    res = figures.ally_res(a, attack["type"])
    hurt = sum(figures.damage(attack["dmg"], attack.get("hits", 1), crit, 2, bonus, res))
    a["hp"] = max(0, a["hp"] - hurt)
    if nat is None:
        _say(events, "monster_hit_auto", monster=figures.monster_name(mon), ally=figures.ally_name(a), hp=hurt)
    else:
        _say(events, "monster_hit", monster=figures.monster_name(mon), ally=figures.ally_name(a), roll=nat, hp=hurt)
    if res != "Im":
        for kind, n in [*attack.get("on_hit", []), *(attack.get("on_crit", []) if crit else [])]:
            figures.add_status(a["st"], kind, n)
    if a["hp"] <= 0:
        fall(state, events, a)


def fall(state: State, events: list[Event], a: Ally) -> None:
    """A hero at 0 HP is KO'd and keeps its square and slot; a champion at 0 HP is dead for good (§4.1)."""
    for m in state["monsters"]:
        if m["blocked_by"] == a["id"]:
            m["blocked_by"] = None
    a["blocks"] = []
    if a["kind"] == "hero" or a.get("own"):  # General-ly Not Enough: a player's own champion is KO'd (P-28)
        a["ko"] = True
        a["hp"] = 0
        _say(events, "ko", ally=figures.ally_name(a))
    else:
        state["allies"] = [x for x in state["allies"] if x["id"] != a["id"]]
        if a["kind"] == "champion":
            state["fallen"][a["key"]] = state["fallen"].get(a["key"], 0) + 1
        _say(events, "champion_dies", ally=figures.ally_name(a))
    if state["active"] == a["id"]:
        state["active"] = None
    check_end(state, events)


# ---------------------------------------------------------------- phases


def start_enemy_turn(state: State, events: list[Event]) -> None:
    state["phase"] = "enemy"
    state["eturn"] += 1
    state["mc"] = (state["mc"] + 1) % state["n"]
    for m in state["monsters"]:
        m["acted"] = False
        m["sundered"] = 0  # Psychic Sunder and Enchant Weapon last until the allies' round ends
    for a in state["allies"]:
        a["enchanted"] = 0
    if state["hourglass"] == "next":
        state["hourglass"] = "now"
    if state["eturn"] == 2 and state["later"]:
        state["arrive"], state["later"] = state["later"], 0
    _say(events, "enemy_turn", wave=state["wave"], turn=state["eturn"])


def start_allies_round(state: State, events: list[Event]) -> None:
    """Blocks are cleared, allies' Bless removed and round effects end (§3.9 step 1, P-18)."""
    state["phase"] = "allies"
    state["offered"] = False
    for m in state["monsters"]:
        m["blocked_by"] = None
        m["grounded"], m["fog"] = False, 0  # Gravity Well and Mind Fog end with the enemy turn
    state["walls"] = []
    if state["hourglass"] == "now":
        state["hourglass"] = None
    for a in state["allies"]:
        a["guarding"] = None
        a["blocks"] = []
        a["st"]["bless"] = 0
        a.update({"tank_bonus": 0, "phalanx": False, "phalanx_used": False, "done": False, "attacks": 0,
                  "sprinted": False, "ap": 0})
    state["active"] = None
    state["turn"] = -1
    _say(events, "allies_round")
    next_seat(state, events)


def next_seat(state: State, events: list[Event]) -> None:
    """The next seat in order with an ally able to act, after its allies' upkeep (A-19); else the enemy."""
    while True:
        state["turn"] += 1
        if state["turn"] >= state["n"]:
            start_enemy_turn(state, events)
            return
        for a in queries.seat_allies(state, state["turn"]):
            _ally_upkeep(state, events, a)
            if state["result"] is not None:
                return
        if any(not a["ko"] and not a["done"] and a["pos"] is not None
               for a in queries.seat_allies(state, state["turn"])):
            return


def _ally_upkeep(state: State, events: list[Event], a: Ally) -> None:
    if a["ko"]:
        a["done"] = True
        return
    a["shield"] = False
    a["dodge_pen"] = 0
    loss = a["st"]["bleed"] + a["st"]["burn"]
    if loss:
        a["hp"] = max(0, a["hp"] - loss)
        _say(events, "ally_upkeep", ally=figures.ally_name(a), hp=loss)
        if a["hp"] <= 0:
            fall(state, events, a)
            return
    if a["st"]["stun"]:
        a["st"]["stun"] = 0
        a["done"] = True


def check_end(state: State, events: list[Event]) -> None:
    """Defeat as soon as the Gate falls or every hero is KO'd; the wave ends when nothing is left (§3.8)."""
    if state["result"] is not None:
        return
    if state["gate"] <= 0:
        state["result"] = "gate"
        state["phase"] = "over"
        _say(events, "lost_gate")
        return
    if all(h["ko"] for h in queries.leaders(state)):
        lost = "champions" if queries.variant(state, "not_enough") else "heroes"
        state["result"] = lost
        state["phase"] = "over"
        _say(events, "lost_champions" if lost == "champions" else "lost_heroes")
        return
    if state["phase"] in ("enemy", "allies") and not state["monsters"] and not state["arrive"] and not state["later"] \
            and not state["extra"] and not state["boss_due"] and state["act"] is None:
        end_wave(state, events)


def end_wave(state: State, events: list[Event]) -> None:
    if state["wave"] == queries.last_wave(state):
        state["result"] = "won"
        state["phase"] = "over"
        _say(events, "won")
        return
    state["phase"] = "between"
    state["act"] = state["ask"] = state["active"] = state["window"] = state["reroll"] = None
    state["offered"] = False
    state["ready"] = []
    state["walls"] = []
    if state["hourglass"] == "now":
        state["hourglass"] = None  # the King's Hourglass was spent on the turn that ended the wave
    # the Guardian leaves when the wave ends; Felicity may call it again next wave
    state["allies"] = [a for a in state["allies"]
                       if a["kind"] != "summon" or not data.summons()[a["key"]]["leaves_after_wave"]]
    for a in state["allies"]:
        card = figures.ally_card(a)
        if a["ko"]:
            a["ko"], a["hp"] = False, min(card["max"], card["heal"])
        else:
            a["hp"] = min(card["max"], a["hp"] + card["heal"])
        a.update({"blocks": [], "done": False, "ap": 0, "tank_bonus": 0, "phalanx": False, "shield": False,
                  "dodge_pen": 0, "summoned": False, "guarding": None, "enchanted": 0, "once": []})
    for a in state["allies"]:  # assignments kept only where the house still has room for everyone assigned
        if a["house"] is not None and not a["inside"] and a["kind"] == "hero":
            a["house"] = None
    for a in state["allies"]:
        here = queries.pos(a)
        if a["kind"] == "hero" and a["house"] is None and here is not None:
            near = [h for h in queries.houses(state)
                    if queries.near_house(state, h, here) and queries.has_slot(state, h)]
            a["house"] = near[0] if near else None
    draws = state["n"] + state["wave"] + (1 if queries.board_of(state).short else 0) \
        + (1 if queries.board_of(state).split else 0)
    stars, scarce = queries.variant(state, "stars"), queries.variant(state, "scarce")
    if stars:
        lost = state["gate"] < state["gate_at_start"]
        draws = max(1, draws - stars["penalty_cards"]) if lost else draws + stars["bonus_cards"]
    if scarce:
        draws = max(1, draws + scarce["coin_cards"])
    if queries.variant(state, "endurance"):
        draws = 0  # Endurance: no income (P-28)
    gained = 0
    for _ in range(draws):
        gained += state["coins"].pop() if state["coins"] else 100
    gained += state["banked"]
    state["banked"] = 0
    state["gold"] += gained
    state["ready"] = []
    if queries.variant(state, "endurance"):
        _say(events, "wave_survived", wave=state["wave"], gold=gained)
    else:
        _say(events, "wave_won", wave=state["wave"], cards=draws, gold=gained)
