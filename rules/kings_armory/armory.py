"""Equipment (unlock, equip, sell, buy blind), reinforcement cards and the Armory card (§4.5, §4.6, §8.6–8.8)."""

from __future__ import annotations

from rules.base import Action, Event, LegalAction, Scalar
from rules.kings_armory import data, enemy, figures, maps, queries
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import STEP, Sq, range_distance
from rules.kings_armory.shapes import Card, Decks, Economy, GearPiece, Monster, State
from rules.rng import Rng
from rules.text import Lit, Msg, Param, SeatRef, msg

GEAR_KINDS = ("unlock", "equip", "unequip", "sell_gear", "buy_gear", "trade", "withdraw_trade")
TRADE_ANSWERS = ("accept_trade", "decline_trade")
CARD_KINDS = ("buy_card", "buy_armory", "play")
WINDOW_KINDS = ("go_on", "hold")


def _offer(action: Action, key: str, described: Msg | None = None, **params: Param) -> LegalAction:
    return LegalAction(action, msg(f"ka.act.{key}", **params), group=action.kind, description=described)


def _gear_text(piece: GearPiece) -> Msg:
    """What a piece of equipment does for the hero carrying it (the line under it in menus)."""
    return msg(f"ka.desc.gear.{piece['card']}")


def _economy() -> Economy:
    return data.economy()


def card_name(key: str) -> Lit:
    card = data.cards()[key]
    return Lit(card["es"], card["en"])


def gear_name(piece: GearPiece) -> Lit:
    card = data.equipment()[piece["card"]]
    return Lit(card["es"], card["en"])


# ---------------------------------------------------------------- set-up


def deal(seats: int, generals: bool, rng: Rng) -> Decks:
    """Shuffle the three decks; every seat gets its 2 locked starting equipment cards (§2.2 step 6), unlocked in
    General-ly Enough (`generals`)."""
    deck = sorted(data.equipment())
    rng.shuffle(deck)
    gear: list[GearPiece] = []
    for seat in range(seats):
        for _ in range(int(_economy()["equipment"]["starting_per_player"])):
            if deck:
                gear.append({"id": f"e{len(gear)}", "card": deck.pop(), "seat": seat, "locked": not generals,
                             "on": None})
    reinforcements = sorted(k for k, c in data.cards().items() if c["deck"] == "reinforcements"
                            for _ in range(c["copies"]))
    armory = sorted(k for k, c in data.cards().items() if c["deck"] == "armory")
    rng.shuffle(reinforcements)
    rng.shuffle(armory)
    # General-ly Enough: both starting pieces come unlocked. Out-of-turn questions: an equipment trade offered, the
    # seats pausing the enemy turn for cards and the pause itself, a Lucky Charm roll waiting for its holder's answer
    return {"gear": gear, "gear_deck": deck, "gear_gate": generals, "used_gear": [],
            "rdeck": reinforcements, "hand": [], "used_cards": [], "adeck": armory, "armory": None, "hourglass": None,
            "trade": None, "holds": [], "window": None, "offered": False, "reroll": None}


# ---------------------------------------------------------------- equipment (between waves)


def piece(state: State, gid: object) -> GearPiece | None:
    return next((g for g in state["gear"] if g["id"] == gid), None)


def gear_legal(state: State, seat: int) -> list[LegalAction]:
    if state["phase"] != "between":
        return []
    eco = _economy()["equipment"]
    out = []
    heroes = [a for a in queries.seat_allies(state, seat) if a["kind"] == "hero"]
    offered = trade_pieces(state)
    for g in state["gear"]:
        if g["seat"] != seat or g["id"] in offered:
            continue
        name = gear_name(g)
        if g["locked"]:
            if state["gold"] >= eco["unlock"]:
                out.append(_offer(Action.of("unlock", gear=g["id"]), "unlock", _gear_text(g), gear=name,
                               gold=eco["unlock"]))
            continue
        if g["on"] is not None:
            out.append(_offer(Action.of("unequip", gear=g["id"]), "unequip", _gear_text(g), gear=name))
            continue
        out.append(_offer(Action.of("sell_gear", gear=g["id"]), "sell_gear", _gear_text(g), gear=name,
                       gold=eco["sell"]))
        for a in heroes:
            if len(a["gear"]) < eco["max_carried"]:
                out.append(_offer(Action.of("equip", gear=g["id"], ally=a["id"]), "equip", _gear_text(g), gear=name,
                               ally=figures.ally_name(a)))
    if state["gear_gate"] and state["gear_deck"] and state["gold"] >= eco["buy"]:
        out.append(_offer(Action.of("buy_gear"), "buy_gear", gold=eco["buy"]))
    return out + trade_legal(state, seat)


def gear_apply(state: State, rng: Rng, events: list[Event], seat: int, action: Action) -> None:
    eco = _economy()["equipment"]
    kind = action.kind
    if kind in ("trade", "withdraw_trade", *TRADE_ANSWERS):
        trade_apply(state, events, seat, action)
        return
    if kind == "buy_gear":
        state["gold"] -= eco["buy"]
        # every piece ever dealt or bought is in `gear` or (sold) in `used_gear`: a new id never repeats an old one
        bought: GearPiece = {"id": f"e{len(state['gear']) + len(state['used_gear'])}", "card": state["gear_deck"].pop(),
                             "seat": seat, "locked": False, "on": None}
        state["gear"].append(bought)
        events.append(Event(msg("ka.ev.buy_gear", gear=gear_name(bought), gold=eco["buy"])))
        return
    g = piece(state, action["gear"])
    assert g is not None
    if kind == "unlock":
        state["gold"] -= eco["unlock"]
        g["locked"] = False
        mine = [x for x in state["gear"] if x["id"] in starting_gear_ids(state, seat)]
        if mine and all(not x["locked"] for x in mine):
            state["gear_gate"] = True  # some player has unlocked both starting pieces: blind buys open
        events.append(Event(msg("ka.ev.unlock", gear=gear_name(g), gold=eco["unlock"])))
    elif kind == "sell_gear":
        state["gold"] += eco["sell"]
        state["gear"] = [x for x in state["gear"] if x["id"] != g["id"]]
        state["used_gear"] = [*state["used_gear"], g["card"]]
        events.append(Event(msg("ka.ev.sell_gear", gear=gear_name(g), gold=eco["sell"])))
    elif kind == "equip":
        a = queries.ally(state, str(action["ally"]))
        g["on"] = a["id"]
        a["gear"] = [*a["gear"], g["card"]]
        a["hp"] += data.equipment()[g["card"]]["mods"].get("max", 0)
        events.append(Event(msg("ka.ev.equip", gear=gear_name(g), ally=figures.ally_name(a))))
    elif kind == "unequip":
        _take_off(state, events, g)


def _take_off(state: State, events: list[Event], g: GearPiece) -> None:
    a = queries.ally(state, str(g["on"]))
    g["on"] = None
    gear = list(a["gear"])
    gear.remove(g["card"])
    a["gear"] = gear
    a["hp"] = max(1, min(figures.ally_card(a)["max"], a["hp"] - data.equipment()[g["card"]]["mods"].get("max", 0)))
    events.append(Event(msg("ka.ev.unequip", gear=gear_name(g), ally=figures.ally_name(a))))


# ---------------------------------------------------------------- equipment trades (between waves, one for one)


def trade_pieces(state: State) -> set[str]:
    """The two pieces of the offer waiting for an answer: neither may be sold or equipped meanwhile."""
    t = state["trade"]
    return set() if t is None else {t["give"], t["want"]}


def tradable(g: GearPiece) -> bool:
    """Only unlocked equipment is traded (§4.5); a worn piece is taken off when the trade is made."""
    return not g["locked"]


def trade_legal(state: State, seat: int) -> list[LegalAction]:
    """Offers one for one of the seat's unlocked pieces against another seat's, one offer at a time; the offering
    seat may withdraw it; the other seat answers it (`trade_answers`)."""
    if state["phase"] != "between":
        return []
    t = state["trade"]
    if t is not None:
        return [_offer(Action.of("withdraw_trade"), "withdraw_trade")] if t["from"] == seat else []
    mine = [g for g in state["gear"] if g["seat"] == seat and tradable(g)]
    theirs = [w for w in state["gear"] if w["seat"] != seat and tradable(w)]
    return [_offer(Action.of("trade", gear=g["id"], want=w["id"]), "trade", _gear_text(w), gear=gear_name(g),
                want=gear_name(w), seat=SeatRef(w["seat"])) for g in mine for w in theirs]


def trade_answers(state: State, seat: int) -> list[LegalAction]:
    t = state["trade"]
    if t is None or t["to"] != seat or state["phase"] != "between":
        return []
    give, want = piece(state, t["give"]), piece(state, t["want"])
    assert give is not None and want is not None
    return [_offer(Action.of("accept_trade"), "accept_trade", _gear_text(give), gear=gear_name(give),
                want=gear_name(want), seat=SeatRef(t["from"])),
            _offer(Action.of("decline_trade"), "decline_trade", gear=gear_name(give), seat=SeatRef(t["from"]))]


def trade_apply(state: State, events: list[Event], seat: int, action: Action) -> None:
    kind = action.kind
    if kind == "trade":
        give, want = piece(state, action["gear"]), piece(state, action["want"])
        assert give is not None and want is not None
        state["trade"] = {"from": seat, "to": want["seat"], "give": give["id"], "want": want["id"]}
        events.append(Event(msg("ka.ev.trade_offer", seat=SeatRef(seat), gear=gear_name(give), want=gear_name(want),
                                to=SeatRef(want["seat"]))))
        return
    t = state["trade"]
    assert t is not None
    state["trade"] = None
    give, want = piece(state, t["give"]), piece(state, t["want"])
    assert give is not None and want is not None
    if kind == "withdraw_trade":
        events.append(Event(msg("ka.ev.trade_withdrawn", seat=SeatRef(seat), gear=gear_name(give))))
    elif kind == "decline_trade":
        events.append(Event(msg("ka.ev.trade_declined", seat=SeatRef(seat), gear=gear_name(give),
                                want=gear_name(want))))
    else:
        for g in (give, want):
            if g["on"] is not None:
                _take_off(state, events, g)
        give["seat"], want["seat"] = t["to"], t["from"]
        events.append(Event(msg("ka.ev.trade_done", seat=SeatRef(t["from"]), gear=gear_name(give),
                                want=gear_name(want), to=SeatRef(t["to"]))))


def lapse_trade(state: State, events: list[Event]) -> None:
    """An offer nobody answered before the wave started lapses (trades happen only between waves)."""
    if state["trade"] is not None and state["phase"] != "between":
        give = piece(state, state["trade"]["give"])
        state["trade"] = None
        if give is not None:
            events.append(Event(msg("ka.ev.trade_lapsed", gear=gear_name(give))))


def starting_gear_ids(state: State, seat: int) -> list[str]:
    """The pieces dealt to `seat` at set-up: dealt first, seat by seat, so their ids come before any bought."""
    per_seat = int(_economy()["equipment"]["starting_per_player"])
    return [f"e{per_seat * seat + k}" for k in range(per_seat)]


# ---------------------------------------------------------------- reinforcement and Armory cards


def can_buy_card(state: State) -> bool:
    eco = _economy()["reinforcement"]
    return bool(state["rdeck"]) and len(state["hand"]) < eco["max_held"] and state["gold"] >= eco["buy"] \
        and state["phase"] not in ("pick", "over")


def armory_price(state: State) -> int:
    return int(_economy()["armory"][str(state["waves"])])


def can_buy_armory(state: State) -> bool:
    return state["phase"] == "between" and state["armory"] is None and bool(state["adeck"]) \
        and state["gold"] >= armory_price(state)


def playable_now(state: State) -> bool:
    """Cards are played during the waves (allies' round and enemy turn); there is nothing to hit between them."""
    return state["phase"] in ("allies", "enemy") and state["result"] is None


def held(state: State) -> list[str]:
    return [*state["hand"], *([state["armory"]] if state["armory"] else [])]


def card_legal(state: State, *, full: bool = False) -> list[LegalAction]:
    """Buying and playing cards; `full` lists every way to play (checks), otherwise a few per card (menus)."""
    out = []
    if can_buy_card(state):
        out.append(_offer(Action.of("buy_card"), "buy_card", gold=_economy()["reinforcement"]["buy"]))
    if can_buy_armory(state):
        out.append(_offer(Action.of("buy_armory"), "buy_armory", gold=armory_price(state)))
    if playable_now(state):
        for key in dict.fromkeys(held(state)):
            for action in plays(state, key, full=full):
                how = aim(state, action)
                text = msg(f"ka.desc.card.{key}")
                out.append(_offer(action, "play", text, card=card_name(key), how=how) if how else
                           _offer(action, "play_plain", text, card=card_name(key)))
    return out


def aim(state: State, action: Action) -> Msg | None:
    """What a card play aims at, for its label: an area's corner, a line, a lane, or the figures it names."""
    b = queries.board_of(state)
    card = data.cards()[str(action["card"])]
    if "targets" in action.arg_dict:
        names = [figures.monster_name(m) if (m := queries.monster(state, t)) is not None
                 else figures.ally_name(queries.ally(state, t)) for t in action["targets"]]
        return msg("ka.aim.figures", figures=maps.listing(names))
    if card["target"] in ("area", "golem"):
        return msg(f"ka.aim.{card['target']}", square=str(action["at"]), rows=card.get("rows", 1),
                   cols=card.get("cols", 1))
    if card["target"] == "edge_line":
        first = _edge_line(state, str(action["edge"]), int(action["line"]), 1)[0]
        return msg("ka.aim.edge_line", square=b.label(first), edge=str(action["edge"]))
    if card["target"] == "row_or_col":
        i = int(action["line"])
        return msg(f"ka.aim.{action['axis']}", square=b.label((i, 0) if action["axis"] == "row" else (0, i)))
    if card["target"] == "lane_run":
        return msg("ka.aim.lane_run", square=b.label(b.lanes[str(action["lane"])][int(action["start"])]))
    return None


def _rectangle(anchor: Sq, rows: int, cols: int) -> list[Sq]:
    return [(anchor[0] + r, anchor[1] + c) for r in range(rows) for c in range(cols)]


def _filter(card: Card, m: Monster) -> bool:
    f = card.get("filter")
    if f == "flying":
        return figures.flying(m)
    if f == "siege":  # Gnome Sappers destroy: a boss (the Siege Colossus) is immune, so never a target
        return figures.siege(m) and not figures.status_immune(m, "destroy")
    if f == "non_boss_non_siege":
        return not m["boss"] and not figures.siege(m)
    return not m["boss"] if f == "non_boss" else True


def plays(state: State, key: str, *, full: bool) -> list[Action]:
    """The ways to play card `key` now: every one when `full`, else those aimed at a monster (a few each)."""
    card = data.cards()[key]
    b = queries.board_of(state)
    target = card["target"]
    here = [queries.monster_square(state, m) for m in state["monsters"]]
    if target == "area":
        rows, cols = card["rows"], card["cols"]
        if full:
            anchors = [(r, c) for r in range(b.height) for c in range(b.width)]
        else:  # the area centred on each monster (moved onto the field)
            anchors = [(min(max(0, q[0] - rows // 2), b.height - 1), min(max(0, q[1] - cols // 2), b.width - 1))
                       for q in here]
        out = []
        for anchor in dict.fromkeys(anchors):
            if card.get("near_exit") and not _near_exit(state, _rectangle(anchor, rows, cols), card["near_exit"]):
                continue
            out.append(Action.of("play", card=key, at=b.label(anchor)))
        return out
    if target == "edge_line":
        lines = [(d, i) for d in "NSEW" for i in range(b.width if d in "NS" else b.height)]
        if not full:
            lines = [(d, i) for d, i in lines if set(_edge_line(state, d, i, card["length"])) & set(here)]
        return [Action.of("play", card=key, edge=d, line=i) for d, i in lines]
    if target == "row_or_col":
        lines = [("row", i) for i in range(b.height)] + [("col", i) for i in range(b.width)]
        if not full:
            lines = [(axis, i) for axis, i in lines if any(q[0 if axis == "row" else 1] == i for q in here)]
        return [Action.of("play", card=key, axis=axis, line=i) for axis, i in lines]
    if target == "lane_run":
        runs = [(lane, i) for lane, squares in b.lanes.items() for i in range(1, len(squares) - card["length"])]
        if not full:
            runs = [(m["lane"], m["i"]) for m in state["monsters"] if not figures.flying(m)
                    and 1 <= m["i"] < len(b.lanes[m["lane"]]) - card["length"]]
        return [Action.of("play", card=key, lane=lane, start=i) for lane, i in dict.fromkeys(runs)]
    if target == "monsters":
        fit: list[Scalar] = [m["id"] for m in state["monsters"] if _filter(card, m)]
        if not fit:
            return []
        picks: list[list[Scalar]] = [[mid] for mid in fit]
        if card["max"] > 1 and len(fit) > 1:
            picks.append(fit[:card["max"]])
        return [Action.of("play", card=key, targets=p) for p in picks]
    if target == "allies":
        fit = [a["id"] for a in state["allies"] if not a["ko"] and a["pos"] is not None]
        picks = [[aid] for aid in fit] + ([fit[:card["max"]]] if len(fit) > 1 else [])
        return [Action.of("play", card=key, targets=p) for p in picks]
    if target == "golem":
        return [Action.of("play", card=key, at=b.label(sq)) for sq in golem_squares(state)[:None if full else 4]]
    return [Action.of("play", card=key)]


def _near_exit(state: State, cells: list[Sq], reach: int) -> bool:
    exits = queries.board_of(state).exits.values()
    return all(min(range_distance(c, e) for e in exits) <= reach for c in cells)


def _edge_line(state: State, edge: str, index: int, length: int) -> list[Sq]:
    """`length` squares from the field's `edge` inwards along row or column `index`."""
    b = queries.board_of(state)
    start = {"N": (0, index), "S": (b.height - 1, index), "W": (index, 0), "E": (index, b.width - 1)}[edge]
    dr, dc = STEP[{"N": "S", "S": "N", "W": "E", "E": "W"}[edge]]
    return [(start[0] + dr * k, start[1] + dc * k) for k in range(length)]


def golem_squares(state: State) -> list[Sq]:
    """Free squares next to an exit square or a parapet where the Sword Golem may enter."""
    b = queries.board_of(state)
    towers = queries.tower_squares(state)
    spots = [*b.exits.values(), *b.parapets.values()]
    out = []
    for spot in spots:
        for dr, dc in STEP.values():
            sq = (spot[0] + dr, spot[1] + dc)
            if sq not in out and queries.walkable(state, sq, towers) and sq not in spots \
                    and queries.free_for_ally(state, sq):
                out.append(sq)
    return sorted(out)


def play_ok(state: State, action: Action) -> bool:
    """Whether this card play is legal now, without listing every way to play it."""
    key = action.get("card")
    if not playable_now(state) or key not in held(state):
        return False
    card = data.cards()[str(key)]
    if card["target"] in ("monsters", "allies"):
        return _play_ok_targets(state, action)
    return _aim_ok(state, card, action)


def _aim_ok(state: State, card: Card, action: Action) -> bool:
    """One aim checked directly, without listing the hundreds a card may have (an area anywhere)."""
    b = queries.board_of(state)
    args = set(action.arg_dict)
    target = card["target"]
    if target in ("area", "golem"):
        sq = b.parse(str(action.get("at"))) if args == {"card", "at"} else None
        if sq is None or b.label(sq) != action["at"] or not b.on_field(sq):
            return False
        if target == "golem":
            return sq in golem_squares(state)
        return not card.get("near_exit") \
            or _near_exit(state, _rectangle(sq, card["rows"], card["cols"]), card["near_exit"])
    if target in ("edge_line", "row_or_col"):
        head = "edge" if target == "edge_line" else "axis"
        if args != {"card", head, "line"} or not isinstance(action["line"], int) or isinstance(action["line"], bool):
            return False
        way, line = action[head], action["line"]
        if target == "edge_line":
            return way in ("N", "S", "E", "W") and 0 <= line < (b.width if way in "NS" else b.height)
        return way in ("row", "col") and 0 <= line < (b.height if way == "row" else b.width)
    if target == "lane_run":
        if args != {"card", "lane", "start"} or action["lane"] not in b.lanes or not isinstance(action["start"], int):
            return False
        return 1 <= action["start"] < len(b.lanes[action["lane"]]) - card["length"]
    return args == {"card"}


def _play_ok_targets(state: State, action: Action) -> bool:
    card = data.cards()[str(action["card"])]
    picks = action.get("targets")
    if card["target"] not in ("monsters", "allies") or not isinstance(picks, tuple) or set(action.arg_dict) != {
            "card", "targets"}:
        return False
    if not 1 <= len(picks) <= card["max"] or len(set(picks)) != len(picks):
        return False
    if card["target"] == "monsters":
        return all((m := queries.monster(state, p)) is not None and _filter(card, m) for p in picks)
    return all((a := queries.find_ally(state, p)) is not None and not a["ko"] and a["pos"] is not None for p in picks)


def card_apply(state: State, rng: Rng, events: list[Event], seat: int, action: Action) -> None:
    kind = action.kind
    if kind == "buy_card":
        state["gold"] -= _economy()["reinforcement"]["buy"]
        key = state["rdeck"].pop()
        state["hand"].append(key)
        events.append(Event(msg("ka.ev.buy_card", card=card_name(key), gold=_economy()["reinforcement"]["buy"])))
        return
    if kind == "buy_armory":
        price = armory_price(state)
        state["gold"] -= price
        bought = state["adeck"].pop()
        state["armory"] = bought
        events.append(Event(msg("ka.ev.buy_armory", card=card_name(bought), gold=price)))
        return
    key = str(action["card"])
    if state["armory"] == key:
        state["armory"] = None
    else:
        state["hand"].remove(key)
    state["used_cards"].append(key)
    events.append(Event(msg("ka.ev.play", card=card_name(key), seat=SeatRef(seat))))
    _resolve(state, events, seat, data.cards()[key], action)
    settle(state)
    enemy.check_end(state, events)


def _squares(state: State, card: Card, action: Action) -> list[Sq]:
    b = queries.board_of(state)
    target = card["target"]
    if target == "area":
        anchor = b.parse(str(action["at"]))
        assert anchor is not None
        return _rectangle(anchor, card["rows"], card["cols"])
    if target == "edge_line":
        return _edge_line(state, str(action["edge"]), int(action["line"]), card["length"])
    if target == "row_or_col":
        i = int(action["line"])
        if action["axis"] == "row":
            return [(i, c) for c in range(-1, b.width + 1)]
        return [(r, i) for r in range(-1, b.height + 1)]
    if target == "lane_run":
        start = int(action["start"])
        return b.lanes[str(action["lane"])][start:start + card["length"]]
    return []


def _resistance(m: Monster, kind: str) -> int | str:
    value = figures.monster_card(m)["res"][kind]
    if value == "Im":
        return value
    return figures.lowered(int(value) + (1 if m["st"]["bless"] else 0), m["sundered"])


def hurt_monster(state: State, events: list[Event], m: Monster, card: Card) -> None:
    """Card damage never rolls: printed damage of its type, less resistance (minimum 1, 0 if immune)."""
    res = _resistance(m, card["type"]) if "type" in card else 0
    if card.get("dmg"):
        hurt = figures.damage(int(card["dmg"]), 1, False, 1, 0, res)[0]
        m["hp"] -= hurt
        events.append(Event(msg("ka.ev.hit", monster=figures.monster_name(m), hp=hurt)))
    if res != "Im":
        for kind, n in card.get("status", []):
            if not figures.status_immune(m, kind):
                figures.add_status(m["st"], kind, n)
    if m["hp"] <= 0:
        enemy.kill(state, events, m)


def _resolve(state: State, events: list[Event], seat: int, card: Card, action: Action) -> None:
    target = card["target"]
    if target in ("area", "edge_line", "row_or_col", "lane_run", "all_monsters"):
        cells = None if target == "all_monsters" else set(_squares(state, card, action))
        hits = card.get("hits", "monsters")
        for m in list(state["monsters"]):
            if cells is not None and queries.monster_square(state, m) not in cells:
                continue
            if hits == "ground" and figures.flying(m) and not m["grounded"]:
                continue
            hurt_monster(state, events, m, card)
            if card.get("stun_after") and queries.monster(state, m["id"]) and not figures.flying(m) \
                    and not figures.status_immune(m, "stun") and not m["boss"]:
                figures.add_status(m["st"], "stun")
        if hits == "figures" and cells is not None:
            for a in list(state["allies"]):
                if not a["ko"] and queries.pos(a) in cells:
                    res = figures.ally_res(a, card["type"])
                    hurt = figures.damage(int(card["dmg"]), 1, False, 1, 0, res)[0]
                    a["hp"] = max(0, a["hp"] - hurt)
                    events.append(Event(msg("ka.ev.friendly_hit", ally=figures.ally_name(a), hp=hurt)))
                    if a["hp"] <= 0:
                        enemy.fall(state, events, a)
    elif target == "monsters":
        for mid in action["targets"]:
            mon = queries.monster(state, mid)
            if mon is None:
                continue
            if card.get("destroy"):
                if not figures.status_immune(mon, "destroy"):
                    enemy.kill(state, events, mon)
            else:
                hurt_monster(state, events, mon, card)
    elif target == "allies":
        for aid in action["targets"]:
            figures.add_status(queries.ally(state, aid)["st"], "bless")
    elif target == "all_allies":
        for a in state["allies"]:
            if not a["ko"]:
                a["hp"] = min(figures.ally_card(a)["max"], a["hp"] + int(card["heal"]))
    elif target == "phoenix":
        for a in state["allies"]:
            a["ko"] = False
            a["hp"] = figures.ally_card(a)["max"]
    elif target == "hourglass":
        state["hourglass"] = "next"
    elif target == "golem":
        sq = queries.board_of(state).parse(str(action["at"]))
        assert sq is not None
        state["allies"].append(allies_round.new_summon(state, "golem", seat, sq))


# ---------------------------------------------------------------- pausing the enemy turn for card plays


def hold_legal(state: State, seat: int) -> list[LegalAction]:
    """The seat's standing order: pause the enemy turn before each monster acts while the team holds a card it
    can play (digest §12.3 `hold` / `release`)."""
    if state["phase"] in ("pick", "over") or state["result"] is not None:
        return []
    on = seat in state["holds"]
    return [_offer(Action.of("hold", on=not on), "hold_off" if on else "hold_on")]


def hold_ok(state: State, seat: int, action: Action) -> bool:
    return action.get("on") in (True, False) and set(action.arg_dict) == {"on"} \
        and state["phase"] not in ("pick", "over") and state["result"] is None


def can_play_any(state: State) -> bool:
    """Whether the team holds a card with a legal play now."""
    return playable_now(state) and any(plays(state, key, full=False) for key in dict.fromkeys(held(state)))


def open_window(state: State, events: list[Event]) -> bool:
    """Before a monster's activation, the seats holding the enemy turn are asked whether to play a card first;
    only when the team holds a card it can play, once per activation. Returns whether the window opened."""
    if state["offered"] or not state["holds"] or state["act"] is not None or not enemy.activation_next(state) \
            or not can_play_any(state):
        return False
    state["offered"] = True
    state["window"] = {"seats": sorted(state["holds"])}
    events.append(Event(msg("ka.ev.window")))
    return True


def window_legal(state: State) -> list[LegalAction]:
    """A seat in the window: any card play (or buy), go on, or go on and stop pausing for it."""
    return [*card_legal(state), _offer(Action.of("go_on"), "go_on"), _offer(Action.of("hold", on=False), "hold_off")]


def leave_window(state: State, seat: int) -> None:
    w = state["window"]
    if w is None or seat not in w["seats"]:
        return
    w["seats"] = [x for x in w["seats"] if x != seat]
    if not w["seats"]:
        state["window"] = None


def hold_apply(state: State, events: list[Event], seat: int, action: Action) -> None:
    if action.kind == "hold":
        on = bool(action["on"])
        state["holds"] = sorted({*state["holds"], seat} if on else set(state["holds"]) - {seat})
        events.append(Event(msg("ka.ev.hold_on" if on else "ka.ev.hold_off", seat=SeatRef(seat))))
    leave_window(state, seat)


def settle(state: State) -> None:
    """After a card played in the middle of a monster's turn: a monster that died ends its activation, and a
    block question about a figure that is gone or can no longer block is dropped."""
    act, ask = state["act"], state["ask"]
    if act is not None and queries.monster(state, act["mid"]) is None:
        state["act"] = state["ask"] = None
        return
    if ask is not None:
        m = queries.monster(state, ask["mid"])
        if m is None or all(a["id"] != ask["ally"] for a in enemy.blockers(state, m)):
            state["ask"] = None
