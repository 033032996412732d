"""Hero and tree abilities [RB p.10-11, p.15-16]: who may use them, their cost, and the attack and defence boosts."""

from __future__ import annotations

from rules.base import Event
from rules.guerra_de_indagar.data import AbilityCard, Cost, cards, hero_name, number, section, tree_name
from rules.guerra_de_indagar.hexes import distance, unkey
from rules.guerra_de_indagar.state import Player, Question, State
from rules.guerra_de_indagar.units import (
    ability_on,
    add_turn_modifier,
    can_pay,
    current_attack,
    hero_resistance,
    hero_tile,
    roll,
    spend,
    tile_kind,
)
from rules.rng import Rng
from rules.text import Lit, Msg, SeatRef, msg


def source_name(aid: str) -> Lit:
    """The hero whose card holds the ability, or the strategy tree."""
    card = cards()[aid]
    return hero_name(card["hero"]) if "hero" in card else tree_name(card["tree"])


def ability_number(s: State, seat: int, aid: str, part: str, field: str) -> int:
    """A number of the ability, +1 when it is the tree ability's `*` and unlocked with the bolt (PROV-14)."""
    card = cards()[aid]
    bolt = s["players"][seat]["unlocks"].get(aid) == "bolt" and f"{part}.{field}" in card.get("star", ())
    return number(section(card, part), field) + (1 if bolt else 0)


def pay_options(s: State, seat: int, aid: str) -> list[str | None]:
    """How the cost can be paid: None for the printed cost, or the resource a coin token saves (one per use,
    the player's choice [RB p.15]); empty when the player cannot pay."""
    cost = cards()[aid]["cost"]
    if s["players"][seat]["unlocks"].get(aid) != "coin" or not cost:
        return [None] if can_pay(s, seat, cost) else []
    kinds = sorted(cost)
    options: list[str | None] = [k for k in kinds if can_pay(s, seat, _saving(cost, k))]
    return options if len(kinds) > 1 else ([None] if options else [])


def _saving(cost: Cost, save: str | None) -> dict[str, int]:
    if save is None:
        if len(cost) == 1:  # a coin on a one-resource cost: the only choice
            save = next(iter(cost))
        else:
            return dict(cost)
    return {k: amount - (1 if k == save else 0) for k, amount in cost.items()}


def paid_cost(s: State, seat: int, aid: str, save: str | None) -> dict[str, int]:
    cost = cards()[aid]["cost"]
    return _saving(cost, save) if s["players"][seat]["unlocks"].get(aid) == "coin" else dict(cost)


def ready(s: State, seat: int, aid: str, actor: str | None = None) -> bool:
    """Usable by `seat` now, cost aside: a hero ability of a hero on the board with its slot open (RULING-05),
    or an unlocked ability of the tree in play and no Local Traitors (RULING-20); once per turn [RB p.10]."""
    card = cards()[aid]
    if aid in s["used"]:
        return False
    if "hero" in card:
        hero = s["heroes"].get(card["hero"])
        if hero is None or hero["owner"] != seat or not ability_on(s, aid):
            return False
        actor = card["hero"]
    else:
        player = s["players"][seat]
        if player["tree"] != card["tree"] or aid not in player["unlocks"] or player["traitors"]:
            return False
    toll = int(card.get("pay_damage", 0))
    if toll and (actor is None or s["heroes"][actor]["dmg"] + toll >= hero_resistance(s, actor)):
        return False  # never offered when its own damage would send the hero to retreat (our decision)
    return bool(pay_options(s, seat, aid))


def boost_cards() -> list[str]:
    return [aid for aid, card in cards().items() if "effect" in card]


BOOSTS = tuple(sorted(boost_cards()))


def usable(s: State, seat: int, window: str) -> list[str]:
    """Boosts `seat` may use now in the attack's "attack", "pre_defence" or "defence" window."""
    return [aid for aid in BOOSTS if _fits(s, seat, aid, window)]


def _fits(s: State, seat: int, aid: str, window: str) -> bool:
    card = cards()[aid]
    att = s["attack"]
    who = card["who"]
    if window == "attack":
        assert att is not None, "an attack's window"
        if who != "attacker" or att["by"][0] != "hero" or s["heroes"][att["by"][1]]["owner"] != seat:
            return False
        hid = att["by"][1]
        if "hero" in card and card["hero"] != hid:
            return False
        if card.get("moved") and (s["act"] is None or s["act"]["hero"] != hid or s["act"]["moved"] < card["moved"]):
            return False
        if "terrain" in card and tile_kind(s, hero_tile(s, hid)) not in card["terrain"]:
            return False
        if card.get("vs_outpost") and not att["post"]:
            return False
        return ready(s, seat, aid, hid)
    if who == "attacker":
        return window == "defence" and _own_turn_defence(s, seat, aid, card)
    if (who == "deceive") != (window == "pre_defence"):
        return False
    assert att is not None, "an attack's window"
    target = att["target"]
    if who == "outpost":
        post = s["outposts"].get(att["at"])
        return post is not None and post["owner"] == seat and ready(s, seat, aid)
    if target is None or target[0] != "hero" or s["heroes"][target[1]]["owner"] != seat:
        return False
    if s["heroes"][target[1]]["at"] != att["at"] or not ready(s, seat, aid):
        return False
    return "hero" not in card or _covers(s, card, target[1])


#: What a boost of the active hero can do for its own defence (the rest of an attack boost only helps attacking).
DEFENDING = ("defence_dice", "turn_defence", "ignore")


def defender_hero(s: State, seat: int) -> str | None:
    """The hero of `seat` that the attack under way targets, while it stands on the attacked tile."""
    att = current_attack(s)
    target = att["target"]
    if target is None or target[0] != "hero" or s["heroes"][target[1]]["owner"] != seat:
        return None
    return str(target[1]) if s["heroes"][target[1]]["at"] == att["at"] else None


def _own_turn_defence(s: State, seat: int, aid: str, card: AbilityCard) -> bool:
    """Digest §6.3: attacked on its own turn (an event monster it revealed), the active hero may also use its
    own boosts, and the tree's, that strengthen a defence (Monstrous Form's +1 defence)."""
    hid = defender_hero(s, seat)
    act = s["act"]
    if hid is None or act is None or act["hero"] != hid or s["turn"] != ["p", str(seat)]:
        return False
    if not any(field in card["effect"] for field in DEFENDING):
        return False
    if "hero" in card and card["hero"] != hid:
        return False
    return ready(s, seat, aid, hid)


def _covers(s: State, card: AbilityCard, defender: str) -> bool:
    own = hero_tile(s, card["hero"])
    gap = distance(unkey(own), unkey(hero_tile(s, defender)))
    if card["who"] == "self":
        return defender == card["hero"]
    if card["who"] == "adjacent":
        return gap == 1
    return gap <= int(card["range"])


#: Whom an always-available ignoring boost may cover (a hero ability names one of its own; a tree any of yours).
WHO_COVERS = ("self", "adjacent", "range", "any_own")


def ignoring(s: State, seat: int, hid: str) -> list[str]:
    """Abilities of `seat` that let its hero `hid` ignore damage outside an attack [RB p.14] (always available:
    Oak Skin, Mutated Flesh, Veil of Shadows, Blessing, Bark); those that speak of the attack under way
    (`attack_only`: Shield of Light) are not."""
    out = []
    for aid in BOOSTS:
        card = cards()[aid]
        if "ignore" not in card["effect"] or card.get("attack_only") or card["who"] not in WHO_COVERS:
            continue
        if ready(s, seat, aid) and ("hero" not in card or _covers(s, card, hid)):
            out.append(aid)
    return out


def _tradeable(s: State, seat: int, cost: Cost) -> bool:
    """`cost` payable now or after trading 3 of the resources it leaves over for each 1 it lacks [RB p.9]."""
    res = s["players"][seat]["res"]
    short = sum(max(0, amount - res[k]) for k, amount in cost.items())
    spare = sum(max(0, amount - cost.get(k, 0)) for k, amount in res.items())
    return short <= spare // 3


def within_trade(s: State, seat: int, window: str, hid: str | None = None) -> bool:
    """Some boost of `seat` fits the attack's `window` ("attack", "pre_defence", "defence"; "ignore" for damage
    to `hid` outside an attack) once its cost is paid by trading «en cualquier momento» (RULING-07): the window is
    then opened so the player may trade and use it."""
    rich_player: Player = {**s["players"][seat], "res": {k: 99 for k in s["players"][seat]["res"]}}
    rich: State = {**s, "players": [rich_player if i == seat else p for i, p in enumerate(s["players"])]}
    found = ignoring(rich, seat, str(hid)) if window == "ignore" else usable(rich, seat, window)
    return any(_tradeable(s, seat, paid_cost(s, seat, aid, save)) for aid in found
               for save in pay_options(rich, seat, aid))


def use_ignore(s: State, seat: int, aid: str, save: str | None, item: Question, events: list[Event]) -> None:
    """Pay an ignoring ability against damage outside an attack; the amount comes off when the damage lands."""
    card = cards()[aid]
    spend_for(s, seat, aid, save, card.get("hero"))
    item["ignore"] += ability_number(s, seat, aid, "effect", "ignore")
    events.append(Event(_used(seat, aid, [])))


def _used(seat: int, aid: str, dice: list[int]) -> Msg:
    """`seat` used an ability, with the dice it rolled (none: the ability alone)."""
    card = cards()[aid]
    if not dice:
        return msg("gi.ev.ability_used", seat=SeatRef(seat), hero=source_name(aid), ability=Lit(card["es"], card["en"]))
    return msg("gi.ev.ability", seat=SeatRef(seat), hero=source_name(aid), ability=Lit(card["es"], card["en"]),
               dice=" ".join(map(str, dice)))


def spend_for(s: State, seat: int, aid: str, save: str | None, actor: str | None) -> None:
    """Pay an ability (resources, or damage to the hero using it), mark it used this turn (RULING-18) and
    remember its user (the Spirit Walker's target [RB p.18])."""
    card = cards()[aid]
    spend(s, seat, paid_cost(s, seat, aid, save))
    if card.get("pay_damage") and actor is not None:
        s["heroes"][actor]["dmg"] += int(card["pay_damage"])
    s["used"].append(aid)
    s["last_ability"] = seat


def use(s: State, seat: int, aid: str, save: str | None, rng: Rng, events: list[Event]) -> None:
    """Pay and apply a boost inside the attack's windows."""
    card = cards()[aid]
    att = current_attack(s)
    attacker = att["by"][1] if att["by"][0] == "hero" else None
    if card["who"] == "attacker" and (attacker is None or s["heroes"][attacker]["owner"] != seat):
        _use_defending(s, seat, aid, save, rng, events)
        return
    spend_for(s, seat, aid, save, attacker if card["who"] == "attacker" else card.get("hero"))
    effect = card["effect"]

    def amount(field: str) -> int:
        return ability_number(s, seat, aid, "effect", field) if field in effect else 0

    extra: list[int] = []
    if amount("attack_dice"):
        extra = roll(rng, amount("attack_dice"))
        att["a"] += extra
    if amount("defence_dice"):
        extra = roll(rng, amount("defence_dice"))
        att["d"] += extra
    if amount("reroll_attack"):
        att["a"] = roll(rng, len(att["a"]))  # "reroll all" [RB p.19]
        extra = list(att["a"])
    if amount("turn_defence") and attacker is not None:
        add_turn_modifier(s, ("hero", attacker), "defence", amount("turn_defence"))
    att["min"] = max(att["min"], amount("min_damage"))
    att["extra"] += amount("extra_damage")
    att["ignore"] += amount("ignore")
    events.append(Event(_used(seat, aid, extra)))


def _use_defending(s: State, seat: int, aid: str, save: str | None, rng: Rng, events: list[Event]) -> None:
    """An active hero's boost used in its own defence: only its defending parts count. A defence raised after the
    defence roll rolls its extra dice at once (as Undead Immunity's +1 defence in the rulebook's example), and
    lasts the turn."""
    card = cards()[aid]
    att = current_attack(s)
    hid = defender_hero(s, seat)
    assert hid is not None
    spend_for(s, seat, aid, save, hid)
    effect = card["effect"]

    def amount(field: str) -> int:
        return ability_number(s, seat, aid, "effect", field) if field in effect else 0

    more = amount("defence_dice") + amount("turn_defence")
    if amount("turn_defence"):
        add_turn_modifier(s, ("hero", hid), "defence", amount("turn_defence"))
    extra = roll(rng, more) if more else []
    att["d"] += extra
    att["ignore"] += amount("ignore")
    events.append(Event(_used(seat, aid, extra)))
