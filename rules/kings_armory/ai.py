"""AI heroes for The King's Armory: towers along the lanes, blockers at the front, fire at the Gate's nearest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.base import Action, LegalAction, by_kind
from rules.kings_armory import ai_search, armory, coop, data, figures, queries, shop
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import Sq, footprint, range_distance
from rules.kings_armory.shapes import Ally, Monster, Option, State
from rules.rng import Rng

#: Moves the AI never makes itself: trade offers and the enemy-turn pause are for people.
IGNORED = ("trade", "withdraw_trade", "hold", "unblock", "give", "transfer")
#: Heroes in the order the AI takes them: a tank, ranged damage, a healer, then the rest.
HERO_ORDER = ("valcor", "ember", "felicity", "midnight", "asphar", "cyrus", "boleslaw")
#: Champions in the order the AI hires them (ranged first: they fight from inside the towers).
HIRE_ORDER = ("archer", "sorcerer", "foot", "cleric", "psionicist")
#: Champions in the order the AI picks them when the players have no heroes: shooters first, who fight from inside
#: the towers (a lone foot soldier blocking at the path falls in the first wave and loses the game).
PICK_ORDER = ("archer", "sorcerer", "foot", "cleric", "psionicist")
#: Squares of a lane a tower is worth being near (its ranged attackers reach about this far).
TOWER_REACH = 4
#: Share of its HP below which an ally near monsters falls back.
RETREAT_AT = 0.35
#: Gold kept for levelling champions once this many towers stand.
TOWERS_WANTED = 4
#: Moves the AI looks ahead when it tells the team what it would buy (its plan never takes half as many).
PLAN_STEPS = 30
#: The levels an AI seat may play (`/game new ai_level`), weakest first.
LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Style:
    """What a level of play does. `normal` is the first AI (heroes chase the front monster, every block taken, gold
    into towers, hires then levels, no cards); `easy` plays like it but makes a random legal move instead about one
    time in `noise`; `hard` keeps its heroes alive (they fight from the towers, block only while healthy, fall back
    early), puts its gold into the shooters' levels before new hires and more towers when they need room, and buys
    and plays reinforcement and Armory cards."""

    shelter: bool
    cards: bool
    retreat_at: float
    noise: int = 0
    #: The heroes in the order this level takes them.
    heroes: tuple[str, ...] = HERO_ORDER
    #: Whether the ally who can lower a boss's resistances (Psychic Sunder) acts first and does so.
    sunder: bool = False
    #: Whether an attack's Burn and Bleed tokens count for the damage they will do on the monster's later turns
    #: (they never wear off and no resistance lowers them; Burn also stops Gorgath's regeneration).
    lasting: bool = False
    #: In an allies' round with a boss on the board, the budget of a look-ahead over the acting ally's best few
    #: moves (`ai_search`); None: none.
    search: ai_search.Budget | None = None
    #: How many moves the look-ahead compares (this level's own first, then its best-valued other attacks).
    candidates: int = 3
    #: Whether the look-ahead also tries the acting ally's step toward a square the boss is in its reach from.
    chase: bool = False
    #: Whether a healer heals the most hurt in her reach, heroes first (heroes lost lose the game, and between waves
    #: a hero gets back only its Heal rate), and calls her Guardian beside the boss's exit as the boss comes to it (a
    #: boss strikes an ally in its reach before the Gate).
    healer: bool = False
    #: Whether an ally owing an attack with nothing worth doing steps to bring the front monster into reach of its
    #: single-target attacks (else takes its least harmful attack) instead of the first legal move.
    unstick: bool = False


#: The heroes the hard AI takes: two shooters who fight from the towers (Midnight's supernatural damage is what the
#: bosses resist least; the tank Valcor is no use to a team that keeps its heroes out of reach) and the healer.
HARD_HEROES = ("ember", "midnight", "felicity", "valcor", "asphar", "cyrus", "boleslaw")
STYLES = {"easy": Style(shelter=False, cards=False, retreat_at=RETREAT_AT, noise=3),
          "normal": Style(shelter=False, cards=False, retreat_at=RETREAT_AT),
          "hard": Style(shelter=True, cards=True, retreat_at=0.5, heroes=HARD_HEROES,
                       sunder=True, lasting=True, healer=True, unstick=True)}
#: The hard level with the look-ahead of `ai_search` (measured in NOTES "Sixth pass": not better than `hard` on the
#: tuning seeds, so not the hard level's; `tools.ka_ai_eval --search-steps N` plays it).
SEARCHING = replace(STYLES["hard"], search=ai_search.Budget())
#: Monsters on the board at or below which a hero leaves its tower to chase them, as the behaviour rules ask of
#: shooters (a boss holding the exit out of reach of every tower would otherwise never be fought).
FEW = 5
#: Share of its HP a hero needs to block (normal and hard).
BLOCK_AT = 0.7
#: A card is played when it is worth at least this much (urgency-weighted damage, see `_card_value`).
CARD_WORTH = {"reinforcement": 9.0, "armory": 30.0}


def choose(legal: list[LegalAction], state: State, seat: int, rng: Rng, level: str = "normal",
           engine: ai_search.Engine | None = None) -> Action:
    """The AI's move for `seat` among `legal` (never empty) at `level` (LEVELS); deterministic for a state and the
    generator's state (`easy` draws its random moves from `rng`; the look-ahead of `SEARCHING`, which no level
    plays, its samples)."""
    return play(legal, state, seat, rng, STYLES.get(level, STYLES["normal"]), engine)


def play(legal: list[LegalAction], state: State, seat: int, rng: Rng, style: Style,
         engine: ai_search.Engine | None = None) -> Action:
    """The move of `style`: its look-ahead's when it has one, the game (`engine`) is handed in to play the copies
    and a boss is on the board; else its rules'."""
    action = _choose(legal, state, seat, rng, style)
    if style.search is None or engine is None or not ai_search.boss_round(state):
        return action
    candidates = _candidates(legal, state, action, style)
    if len(candidates) < 2:
        return action
    return ai_search.best(engine, state, seat, candidates, playout_policy(engine, style), rng, style.search)


def playout_policy(engine: ai_search.Engine, style: Style) -> ai_search.Policy:
    """`style` without its look-ahead, as the policy the look-ahead plays on its copies."""
    plain = replace(style, search=None)
    quiet = Rng(0)  # it draws nothing (no noise)

    def policy(sim: State, who: int) -> Action:
        return _choose(engine.legal_actions(sim, who), sim, who, quiet, plain)

    return policy


def _candidates(legal: list[LegalAction], state: State, action: Action, style: Style) -> list[Action]:
    """The moves the look-ahead compares: this level's own (first: it wins ties), then the acting ally's other
    attacks worth most by `_attack_value`."""
    if action.kind not in ("attack", "special", "move", "end", "enter", "exit") or state["active"] is None:
        return [action]
    a = queries.ally(state, state["active"])
    attacks = [la.action for la in legal if la.action.kind == "attack" and la.action != action]
    ranked = sorted(((_attack_value(state, a, x, style.sunder, style.lasting), x.token(), x) for x in attacks),
                    key=lambda v: (-v[0], v[1]))
    out = [action, *[x for value, _, x in ranked if value > 0][:style.candidates - 1]]
    step = _chase_step(legal, state, a) if style.chase else None
    return out if step is None or step in out else [*out, step]


def _chase_step(legal: list[LegalAction], state: State, a: Ally) -> Action | None:
    """The acting ally's step (a move or a way out of its tower) that brings the boss nearest its reach, when the
    boss is out of its reach now."""
    boss, p = _boss(state), queries.pos(a)
    if boss is None or p is None:
        return None
    goal = queries.monster_square(state, boss)
    reach = max((int(o["range"]) for o in figures.offered_options(a) if o["kind"] == "attack"), default=1)
    if range_distance(p, goal) <= reach:
        return None
    steps = [la.action for la in legal if la.action.kind in ("move", "exit")]
    if not steps:
        return None
    best = min(steps, key=lambda m: (max(0, range_distance(_square_of(state, m), goal) - reach), m.token()))
    return best if range_distance(_square_of(state, best), goal) < range_distance(p, goal) else None


def _choose(legal: list[LegalAction], state: State, seat: int, rng: Rng, style: Style) -> Action:
    """The move of `style` without its look-ahead."""
    by = by_kind(legal, leave_out=IGNORED)
    if not by:
        return legal[0].action
    if style.noise and state["phase"] in ("allies", "setup", "between") and rng.below(style.noise) == 0:
        return rng.choice([a for moves in by.values() for a in moves])
    if "accept_trade" in by:
        return by["accept_trade"][0]  # a teammate asked for this piece: the AI hands it over
    if "reroll" in by:
        return by["reroll"][0] if _missed_all(state) else by["keep_roll"][0]
    if "go_on" in by:
        return by["go_on"][0]
    blocks = [b for b in by.get("block", []) if not style.shelter or _may_block(state, b)]
    if blocks:
        return blocks[0]
    if "wait" in by or "pass" in by:
        return (by.get("pass") or by["wait"])[0]
    if "pick" in by:
        return min(by["pick"], key=lambda x: _pick_rank(x, style.heroes))
    if "defer" in by:  # the team's gold and towers wait for everyone else's choices; say what we would do
        plan = _plan(state, seat, style)
        return Action.of("defer", plan=tuple(plan)) if plan else by["defer"][0]
    if state["phase"] in ("setup", "between"):
        return _shop(state, seat, by, style)
    first = next((la.action for la in legal if la.action.kind not in IGNORED and la.action.kind != "block"),
                 legal[0].action)
    if style.cards:
        card = _card_move(state, seat, by)
        if card is not None:
            return card
    if state["active"] is None:
        if style.sunder and by.get("activate"):  # whoever lowers the boss's resistances acts first
            return min(by["activate"], key=lambda x: (not _sunder_now(state, queries.ally(state, str(x["ally"]))),
                                                      by["activate"].index(x)))
        return (by.get("activate") or by.get("end_turn") or [first])[0]
    a = queries.ally(state, state["active"])
    move = _activation(state, a, by, style)
    if move is None and style.unstick:
        move = _unstuck(state, a, by)
    return move or first


def _missed_all(state: State) -> bool:
    """Whether the roll waiting for the Lucky Charm's answer missed every monster it aimed at (then re-roll)."""
    r = state["reroll"]
    assert r is not None
    a = queries.ally(state, r["ally"])
    attack = Action.from_json(r["action"])
    opt = next(o for o in figures.offered_options(a) if o["id"] == attack["opt"])
    bonus = int(opt["hit"]) + (2 if a["st"]["bless"] else 0)
    monsters, _ = allies_round.aimed(state, a, opt, attack)
    return not any(figures.roll_hit(int(r["nat"]), bonus, figures.monster_card(m)["dodge"], list(opt["crit"]))[0]
                   for m in monsters)


def _pick_rank(action: Action, order: tuple[str, ...] = HERO_ORDER) -> int:
    """Heroes in HERO_ORDER; in General-ly Not Enough champions in PICK_ORDER."""
    if action.get("type") is not None:
        kind = str(action["type"])
        return PICK_ORDER.index(kind) if kind in PICK_ORDER else 99
    hero = str(action["hero"])
    return order.index(hero) if hero in order else 99


# ---------------------------------------------------------------- the map, as the AI weighs it


def _urgency(state: State, sq: Sq) -> float:
    """How close to the Gate a lane square is: 1 at the entrance up to 3 at the exit."""
    b = queries.board_of(state)
    best = 0.0
    for lane in b.lanes.values():
        if sq in lane:
            best = max(best, lane.index(sq) / (len(lane) - 1))
    return 1 + 2 * best


def _lane_weights(state: State) -> list[tuple[Sq, float]]:
    return [(sq, _urgency(state, sq)) for sq in sorted(queries.board_of(state).path)]


def _cover(squares: list[Sq], lanes: list[tuple[Sq, float]], reach: int) -> float:
    return sum(w for sq, w in lanes if min(range_distance(sq, q) for q in squares) <= reach)


def _front(state: State) -> Monster | None:
    """The monster nearest the Gate (fewest squares left to walk)."""
    b = queries.board_of(state)
    if not state["monsters"]:
        return None
    return min(state["monsters"], key=lambda m: (b.route_left(m["lane"], m["i"]), -m["hp"], m["id"]))


def _ranged(a: Ally) -> bool:
    return figures.primary_type(a) in ("R", "SN") or figures.primary_type(a) is None


# ---------------------------------------------------------------- set-up and between waves


def _shop(state: State, seat: int, by: dict[str, list[Action]], style: Style = STYLES["easy"]) -> Action:
    if style.shelter:
        return _shop_well(state, seat, by, style)
    lanes = _lane_weights(state)
    if "build" in by and (state["free_towers"] or len(state["towers"]) < TOWERS_WANTED):
        return max(by["build"], key=lambda a: (_build_score(state, a, lanes), str(a["at"])))
    mine = queries.seat_allies(state, seat)
    for a in [x for x in mine if x["kind"] == "hero"] + [x for x in mine if x["kind"] == "champion"]:
        if queries.housed(state, a) or (a["kind"] == "champion" and (a["pos"] is not None or _spare(state) < 1)):
            continue
        places = [x for x in by.get("place", []) if x["ally"] == a["id"]]
        if places:
            return max(places, key=lambda x: (_place_score(state, a, x, lanes), str(x["at"])))
    for kind in HIRE_ORDER:
        hire = next((a for a in by.get("hire", []) if a["type"] == kind), None)
        if hire is not None and _spare(state) >= 1:
            return hire
    if "upgrade" in by:
        return by["upgrade"][0]
    return (by.get("ready") or by.get("place") or [next(iter(by.values()))[0]])[0]


#: Champions worth gold for the team that spends it well: the shooters, who fight from inside the towers.
SHOOTERS = ("sorcerer", "archer")  # supernatural damage first: the bosses resist it least


def _shop_well(state: State, seat: int, by: dict[str, list[Action]], style: Style) -> Action:
    """Towers first (the free ones, then enough for everyone), every ally housed, then the gold into the shooters:
    a level-up before a new hire (more damage for the gold), a new tower when there is no slot for a hire, and
    (hard) reinforcement cards with what is left before the last wave."""
    lanes = _lane_weights(state)
    if "build" in by and (state["free_towers"] or len(state["towers"]) < TOWERS_WANTED):
        return max(by["build"], key=lambda a: (_build_score(state, a, lanes), str(a["at"])))
    mine = queries.seat_allies(state, seat)
    for a in [x for x in mine if x["kind"] == "hero"] + [x for x in mine if x["kind"] == "champion"]:
        if queries.housed(state, a) or (a["kind"] == "champion" and (a["pos"] is not None or _spare(state) < 1)):
            continue
        places = [x for x in by.get("place", []) if x["ally"] == a["id"]]
        if places:
            return max(places, key=lambda x: (_place_score(state, a, x, lanes), str(x["at"])))
    keep = _armory_savings(state) if style.cards else 0
    ups = [u for u in by.get("upgrade", []) if state["gold"] - _upgrade_cost(state, u) >= keep]
    if ups:
        return min(ups, key=lambda u: (0 if queries.ally(state, str(u["ally"]))["key"] in SHOOTERS else 1,
                                       _upgrade_cost(state, u), str(u["ally"])))
    for kind in SHOOTERS:
        hire = next((a for a in by.get("hire", []) if a["type"] == kind), None)
        if hire is None or state["gold"] - queries.champion_cost(state, kind, 0) < keep:
            continue
        if _spare(state) >= 1:
            return hire
        if "build" in by \
                and state["gold"] >= queries.champion_cost(state, kind, 0) + queries.tower_eco(state, "build") + keep:
            return max(by["build"], key=lambda a: (_build_score(state, a, lanes), str(a["at"])))
    if style.cards:
        if "buy_armory" in by:
            return by["buy_armory"][0]
        if "buy_card" in by and state["wave"] >= queries.last_wave(state) - 1 \
                and state["gold"] - data.economy()["reinforcement"]["buy"] >= keep:
            return by["buy_card"][0]
    return (by.get("ready") or by.get("place") or [next(iter(by.values()))[0]])[0]


def _upgrade_cost(state: State, action: Action) -> int:
    a = queries.ally(state, str(action["ally"]))
    return queries.champion_cost(state, a["key"], a["level"])


def _plan(state: State, seat: int, style: Style = STYLES["normal"]) -> list[str]:
    """The shared moves (towers, champions, levels) this seat would make now, after those its teammates already
    proposed: its proposal to the team while it waits for the others (the moves placing its own allies are left
    out, they are nobody else's business)."""
    base = coop.after_proposals(state)
    sim = queries.clone(base)
    rng = Rng(state["rng_state"])  # no shared move draws anything
    plan: list[str] = []
    for _ in range(PLAN_STEPS):
        by = by_kind(shop.legal(sim, seat))
        if not by:
            break
        action = _shop(sim, seat, by, style)
        if action.kind in coop.SHARED:
            plan.append(coop.item(action))
        elif action.kind not in ("place", "bench"):
            break  # ready: the rest is saved
        shop.apply(sim, rng, [], seat, action)
    plan = plan[:coop.MAX_PLAN]
    while plan and coop.try_plan(base, seat, plan) is None:  # only what the team could do in this order
        plan.pop()
    return plan


def _spare(state: State) -> int:
    """House slots left once every hero not yet housed has one: champions never take a hero's place."""
    free = sum(max(0, queries.capacity(state, h) - queries.slots_used(state, h)) for h in queries.houses(state))
    return free - sum(1 for a in queries.heroes(state) if not queries.housed(state, a))


def _build_score(state: State, action: Action, lanes: list[tuple[Sq, float]]) -> float:
    corner = queries.board_of(state).parse(str(action["at"]))
    assert corner is not None
    cells = footprint(corner)
    taken = queries.tower_squares(state)
    spread = min((range_distance(c, t) for c in cells for t in taken), default=9)
    return _cover(cells, lanes, TOWER_REACH) - (40 if spread <= 3 else 0)


def _place_score(state: State, a: Ally, action: Action, lanes: list[tuple[Sq, float]]) -> float:
    b = queries.board_of(state)
    sq = b.parse(str(action["at"]))
    assert sq is not None
    inside = sq in queries.houses(state)[str(action["house"])]
    if _ranged(a):
        return _cover([sq], lanes, TOWER_REACH + 1) + (20 if inside else 0)
    if inside or sq in b.path:
        return -1.0
    # a fighter stands beside a lane, as near the Gate as it can, to block
    near = [w for p, w in lanes if range_distance(sq, p) <= 1]
    return max(near, default=0.0) * 10 + len(near)


# ---------------------------------------------------------------- an activation


def _activation(state: State, a: Ally, by: dict[str, list[Action]], style: Style = STYLES["easy"]) -> Action | None:
    if style.healer:
        heal = _heal_most(state, a, by.get("special", [])) if state["eturn"] < STALL_TURN else None
    else:
        heal = _heal(state, a, by.get("special", []))
    if heal is not None:
        return heal
    if style.healer and state["eturn"] < STALL_TURN:
        guard = _guardian_call(state, a, by.get("special", []))
        if guard is not None:
            return guard
    retreat = _retreat(state, a, by) if a["hp"] <= figures.ally_card(a)["max"] * style.retreat_at else None
    if retreat is not None:
        return retreat
    boss = _boss(state) if style.sunder else None
    if boss is not None and style.sunder and not boss["sundered"]:
        sunder = next((x for x in by.get("special", []) if x.get("target") == boss["id"]
                       and _option(a, str(x["opt"]))["effect"] == "sunder"), None)
        if sunder is not None:
            return sunder
    best = max(by.get("attack", []), key=lambda x: (_attack_value(state, a, x, style.sunder, style.lasting),
                                                    x.token()), default=None)
    if best is not None and _attack_value(state, a, best, style.sunder, style.lasting) > 0:
        return best
    if style.shelter and a["kind"] == "hero" and len(state["monsters"]) > FEW:
        move = _shelter(state, a, by)
    else:
        move = _approach(state, a, by.get("move", []) + by.get("exit", []))
    if move is not None:
        return move
    ends = by.get("end")
    return ends[0] if ends else None


def _shelter(state: State, a: Ally, by: dict[str, list[Action]]) -> Action | None:
    """A hero keeps to its tower: a shooter inside stays there; one outside walks back and goes in; a fighter
    steps toward the front monster only while it stays within 2 squares of its tower (heroes lost lose the game)."""
    p = queries.pos(a)
    if p is None:
        return None
    if _ranged(a):
        if a["inside"]:
            return None
        if by.get("enter"):
            return by["enter"][0]
        return _homeward(state, a, by.get("move", []))
    house = a["house"] if a["house"] in queries.houses(state) else None
    near = [m for m in by.get("move", []) + by.get("exit", [])
            if house is None or queries.near_house(state, house, _square_of(state, m))]
    return _approach(state, a, near)


def _homeward(state: State, a: Ally, moves: list[Action]) -> Action | None:
    """A step toward the nearest house with room for this ally."""
    homes = [hid for hid in queries.houses(state) if queries.has_slot(state, hid, without=a["id"])]
    entries = [sq for hid in homes for sq in queries.entry_squares(state, hid)]
    p = queries.pos(a)
    if not entries or not moves or p is None:
        return None

    def gap(sq: Sq) -> int:
        return min(range_distance(sq, e) for e in entries)

    best = min(moves, key=lambda m: (gap(_square_of(state, m)), str(m["to"])))
    return best if gap(_square_of(state, best)) < gap(p) else None


def _square_of(state: State, action: Action) -> Sq:
    sq = queries.board_of(state).parse(str(action["to"]))
    assert sq is not None
    return sq


def _may_block(state: State, action: Action) -> bool:
    """Champions block whatever they can; a hero only while healthy (heroes lost lose the game)."""
    a = queries.ally(state, str(action["ally"]))
    return a["kind"] != "hero" or a["hp"] >= BLOCK_AT * figures.ally_card(a)["max"]


# ---------------------------------------------------------------- cards (hard)


def _armory_savings(state: State) -> int:
    """Gold kept back for the Armory card in the intermission before the last wave, when the team has that much."""
    if state["armory"] is not None or not state["adeck"] or state["wave"] != queries.last_wave(state) - 1 \
            or state["gold"] < armory.armory_price(state):
        return 0
    return armory.armory_price(state)


def _card_move(state: State, seat: int, by: dict[str, list[Action]]) -> Action | None:
    """Play the card worth most now if it is worth its price; buy one when the team's hand has room."""
    if state["ask"] is not None or state["reroll"] is not None:
        return None
    plays = by.get("play", [])
    if plays:
        scored = [(_card_value(state, seat, p), p.token(), p) for p in plays]
        value, _, best = max(scored, key=lambda x: (x[0], x[1]))
        kind = "armory" if str(best["card"]) == state["armory"] else "reinforcement"
        if value >= CARD_WORTH[kind]:
            return best
    if "buy_card" in by and state["active"] is None and len(state["monsters"]) >= 4:
        return by["buy_card"][0]
    return None


def _card_value(state: State, seat: int, action: Action) -> float:
    """What playing this card would do, tried on a copy: urgency-weighted damage to monsters (a kill counts its
    remaining HP and 4 more), less twice the harm to allies; the cards that do no damage by their own rules."""
    key = str(action["card"])
    target = data.cards()[key]["target"]
    if target == "phoenix":
        down = sum(1 for h in queries.leaders(state) if h["ko"])
        return 100.0 if down and down >= len(queries.leaders(state)) - 1 else 0.0
    if target == "golem":
        return 40.0
    if target == "hourglass":
        return 40.0 if len(state["monsters"]) >= 6 else 0.0
    if target == "allies":
        return 3.0 * len(action["targets"]) if len(state["monsters"]) >= 4 else 0.0
    before = {m["id"]: (m["hp"], _urgency(state, queries.monster_square(state, m))) for m in state["monsters"]}
    hp = {a["id"]: a["hp"] for a in state["allies"]}
    sim = queries.clone(state)
    armory.card_apply(sim, Rng(state["rng_state"]), [], seat, action)
    after = {m["id"]: m["hp"] for m in sim["monsters"]}
    value = 0.0
    for mid, (was, urgent) in before.items():
        now = after.get(mid)
        value += urgent * (was + 4 if now is None or now <= 0 else was - now)
    for a in sim["allies"]:
        if a["id"] in hp:
            value += 0.5 * max(0, a["hp"] - hp[a["id"]]) if target == "all_allies" else 0.0
            value -= 2 * max(0, hp[a["id"]] - a["hp"]) + (100 if a["ko"] and a["kind"] == "hero" else 0)
    return value


def _retreat(state: State, a: Ally, by: dict[str, list[Action]]) -> Action | None:
    """A hurt ally with monsters close by gets into a tower, or steps as far from them as it can."""
    p = queries.pos(a)
    if p is None or a["inside"]:
        return None
    near = [queries.monster_square(state, m) for m in state["monsters"]]
    if not near or min(range_distance(p, q) for q in near) > 2:
        return None
    if by.get("enter"):
        return by["enter"][0]
    b = queries.board_of(state)

    def away(action: Action) -> tuple[int, str]:
        sq = b.parse(str(action["to"]))
        assert sq is not None
        return min(range_distance(sq, q) for q in near), str(action["to"])

    best = max(by.get("move", []), key=away, default=None)
    return best if best is not None and away(best)[0] > min(range_distance(p, q) for q in near) else None


def _heal(state: State, a: Ally, specials: list[Action]) -> Action | None:
    hurt = {x["id"]: figures.ally_card(x)["max"] - x["hp"] for x in state["allies"] if not x["ko"]}
    for action in specials:
        opt = next(o for o in figures.offered_options(a) if o["id"] == action["opt"])
        if opt["effect"] == "heal" and hurt.get(str(action.get("target")), 0) >= 4:
            return action
        if opt["effect"] == "heal_area" and sum(1 for v in hurt.values() if v >= 4) >= 2:
            return action
    return None


def _guardian_call(state: State, a: Ally, specials: list[Action]) -> Action | None:
    """Call the Guardian beside the boss's exit once the boss will stand there by its next turn: a boss strikes an
    ally in its reach before the Gate, so the Guardian (and the healer mending it) buys the Gate turns."""
    boss = _boss(state)
    if boss is None:
        return None
    b = queries.board_of(state)
    if b.route_left(boss["lane"], boss["i"]) > figures.monster_mv(boss):
        return None
    goal = b.lanes[boss["lane"]][-1]
    calls = [x for x in specials if _option(a, str(x["opt"]))["effect"] == "summon_guardian"]
    best = min(calls, key=lambda x: (range_distance(_square_of(state, x), goal), str(x["to"])), default=None)
    return best if best is not None and range_distance(_square_of(state, best), goal) <= 1 else None


def _unstuck(state: State, a: Ally, by: dict[str, list[Action]]) -> Action | None:
    """An ally that may not end its activation yet (an attack is still owed and possible) with nothing worth doing:
    a step bringing the front monster into reach of its single-target attacks (where no friend is caught in an
    area), else its least harmful attack; never a step back and forth."""
    if by.get("end"):
        return None
    front, p = _front(state), queries.pos(a)
    if front is not None and p is not None:
        goal = queries.monster_square(state, front)
        reach = max((int(o["range"]) for o in figures.offered_options(a)
                     if o["kind"] == "attack" and o.get("area") is None), default=1)
        steps = by.get("move", []) + by.get("exit", [])
        best = min(steps, key=lambda m: (max(0, range_distance(_square_of(state, m), goal) - reach), m.token()),
                   default=None)
        if best is not None and max(0, range_distance(_square_of(state, best), goal) - reach) \
                < max(0, range_distance(p, goal) - reach):
            return best
    return max(by.get("attack", []), key=lambda x: (_attack_value(state, a, x, True, True), x.token()), default=None)


#: From this enemy turn of a wave on, the healer stops healing and calling the Guardian: a boss nobody can hurt
#: (Nyx is immune to melee) held at its exit for ever would never end the game.
STALL_TURN = 45


#: How much more a hero's HP is worth healing than a champion's (heroes lost lose the game).
HERO_HEAL = 3.0


def _heal_most(state: State, a: Ally, specials: list[Action]) -> Action | None:
    """The heal worth most: HP restored (at most what each is missing), a hero's counted HERO_HEAL times; a single
    heal only when its target misses at least its amount or is a hero below half, an area heal when it restores at
    least 4 of a hero's HP (12 weighted), then weighed per action point it costs."""
    b_pos = queries.pos(a)
    best: tuple[float, str, Action] | None = None
    for action in specials:
        opt = _option(a, str(action["opt"]))
        if opt["effect"] == "heal":
            x = queries.find_ally(state, action.get("target"))
            if x is None or x["ko"]:
                continue
            top = figures.ally_card(x)["max"]
            missing = top - x["hp"]
            hero = x["kind"] == "hero"
            if missing < int(opt["amount"]) and not (hero and missing > 0 and 2 * x["hp"] < top):
                continue
            worth = min(missing, int(opt["amount"])) * (HERO_HEAL if hero else 1.0)
        elif opt["effect"] == "heal_area" and b_pos is not None:
            worth = 0.0
            for x in state["allies"]:
                xp = queries.pos(x)
                if x["ko"] or xp is None or range_distance(b_pos, xp) > int(opt["range"]):
                    continue
                gain = min(figures.ally_card(x)["max"] - x["hp"], int(opt["amount"]))
                worth += gain * (HERO_HEAL if x["kind"] == "hero" else 1.0)
            if worth < 4 * HERO_HEAL:
                continue
            worth /= max(1, int(opt["ac"]))
        else:
            continue
        if best is None or (worth, action.token()) > (best[0], best[1]):
            best = (worth, action.token(), action)
    return None if best is None else best[2]


def _boss(state: State) -> Monster | None:
    """The boss on the board, if any (the one nearest the Gate)."""
    b = queries.board_of(state)
    bosses = [m for m in state["monsters"] if m["boss"]]
    return min(bosses, key=lambda m: (b.route_left(m["lane"], m["i"]), m["id"]), default=None)


def _option(a: Ally, opt: str) -> Option:
    return next(o for o in figures.offered_options(a) if o["id"] == opt)


def _sunder_now(state: State, a: Ally) -> bool:
    """Whether this ally could lower the resistances of a boss in its reach now (Psychic Sunder)."""
    boss = _boss(state)
    p = queries.pos(a)
    if boss is None or boss["sundered"] or p is None:
        return False
    return any(o["effect"] == "sunder"
               and range_distance(p, queries.monster_square(state, boss)) <= int(o["range"])
               for o in figures.offered_options(a) if o["kind"] == "special")


def _attack_value(state: State, a: Ally, action: Action, lowered: bool = False, lasting: bool = False) -> float:
    """Expected urgency-weighted damage per action point; `lowered`: counting the resistances as Psychic Sunder,
    Enchant Weapon and Bless leave them (hard); `lasting`: with the damage its Burn and Bleed tokens will do on
    the monster's later turns (hard)."""
    opt = next(o for o in figures.offered_options(a) if o["id"] == action["opt"])
    bonus = 0 if opt["hit"] == "auto" else int(opt["hit"]) + (2 if a["st"]["bless"] else 0)
    if opt.get("area") is None:
        aims = [queries.monster(state, action["target"]), queries.monster(state, action.get("second"))]
        targets = [m for m in aims if m is not None]
        friends = 0
    else:
        cells = set(allies_round.area_squares(state, a, opt, action))
        targets = [m for m in state["monsters"]
                   if queries.monster_square(state, m) in cells and allies_round.can_target(opt, m)]
        friends = sum(1 for x in state["allies"] if not x["ko"] and queries.pos(x) in cells and x["id"] != a["id"])
    value = 0.0
    for m in targets:
        card = figures.monster_card(m)
        res = allies_round.resistance(m, str(opt["type"]), a) if lowered else card["res"][opt["type"]]
        if res == "Im":
            continue
        hit = 1.0 if opt["hit"] == "auto" else min(0.95, max(0.05, (21 - card["dodge"] + bonus) / 20))
        dealt = sum(figures.damage(int(opt["dmg"]), opt.get("hits", 1), False, 1.0, 0,
                                   int(res) + (0 if lowered else m["st"]["bless"])))
        urgent = _urgency(state, queries.monster_square(state, m))
        value += hit * urgent * (min(dealt, m["hp"]) + (4 if dealt >= m["hp"] else 0))
        if lasting and dealt < m["hp"]:
            crit = len(opt.get("crit", [])) / 20
            for chance, effects in ((hit, opt.get("on_hit", [])), (crit, opt.get("on_crit", []))):
                value += chance * urgent * _lasting_worth(state, m, effects)
    return value / max(1, int(opt["ac"])) - 100 * friends


def _lasting_worth(state: State, m: Monster, effects: Sequence[tuple[str, int]]) -> float:
    """The damage the Burn and Bleed tokens of `effects` would add on `m`'s later turns: one a token for each turn
    it has left (a boss: its walk to the exit and a few turns there; another monster: at most 3), the tokens' caps
    kept; a Burn token on a regenerating boss is worth its regeneration too."""
    tokens = dict(m["st"])
    before = tokens["bleed"] + tokens["burn"]
    for kind, count in effects:
        if kind in ("bleed", "burn") and not figures.status_immune(m, kind):
            figures.add_status(tokens, kind, int(count))
    added = tokens["bleed"] + tokens["burn"] - before
    if added <= 0 and not (tokens["burn"] and not m["st"]["burn"]):
        return 0.0
    left = queries.board_of(state).route_left(m["lane"], m["i"])
    turns = left / max(1, figures.monster_mv(m)) + 3 if m["boss"] else min(3.0, left / max(1, figures.monster_mv(m)))
    regen = 5 if m["boss"] and data.bosses()[m["key"]].get("special") == "regenerate_5" \
        and tokens["burn"] and not m["st"]["burn"] else 0
    return turns * (added + regen)


def _approach(state: State, a: Ally, moves: list[Action]) -> Action | None:
    """A step toward the monster nearest the Gate (into range of it, for archers and casters: a tower with nothing
    in reach is no use to them)."""
    front = _front(state)
    p = queries.pos(a)
    if front is None or p is None or not moves:
        return None
    b = queries.board_of(state)
    goal = queries.monster_square(state, front)
    reach = max((int(o["range"]) for o in figures.offered_options(a) if o["kind"] == "attack"), default=1)
    want = 1 if not _ranged(a) else reach

    def score(action: Action) -> tuple[int, str]:
        sq = b.parse(str(action["to"]))
        assert sq is not None
        return abs(range_distance(sq, goal) - want), str(action["to"])

    best = min(moves, key=score)
    return best if score(best)[0] < abs(range_distance(p, goal) - want) else None
