"""AI rivals: hold the Source, deny and fight the primary monsters, keep heroes out of their reach, build for points."""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from functools import cache
from typing import NamedTuple

from rules.base import Action, LegalAction, by_kind
from rules.guerra_de_indagar import ai_cage
from rules.guerra_de_indagar import monsters as scripts
from rules.guerra_de_indagar.abilities import ability_number
from rules.guerra_de_indagar.actions import tile_of
from rules.guerra_de_indagar.combat import attacker_seat, damage_total, flanking
from rules.guerra_de_indagar.data import (
    RESOURCES,
    Cost,
    cards,
    factions,
    hero_card,
    monsters,
    number,
    numbers,
    strategy,
)
from rules.guerra_de_indagar.flow import MONSTER_TURNS
from rules.guerra_de_indagar.hexes import distance, unkey
from rules.guerra_de_indagar.moves import args_of
from rules.guerra_de_indagar.state import Question, State
from rules.guerra_de_indagar.units import (
    activation,
    adjacent_keys,
    can_pay,
    current_attack,
    defence_at,
    has_rule,
    hero_attack,
    hero_defence,
    hero_may_enter,
    hero_move,
    hero_resistance,
    hero_tile,
    impassable,
    monster_attack,
    monster_may_enter,
    monster_stats,
    outpost_stats,
    placed,
    type_info,
    unit_at,
)
from rules.rng import Rng
from rules.search import breadth_first

#: Strategy trees the AI declares when its board has none with a free income (see _declare), best first: Steel
#: Legion's defence keeps heroes out of the monsters' taste (RULING-34), Shadow Steps pays the keeper's gathering,
#: Expansion its outposts, Mutation's resistance.
TREES = ("steel_legion", "shadow_steps", "expansion", "mutation")
#: Primary monsters the AI hands out, the one it holds in check best first: Oryana only drinks the Source, which a
#: keeper on it denies her (and its spirits are the AI's points); measured with tools/gi_ai_eval.py.
MONSTERS = ("helgoth", "oryana", "walker", "tijian")
#: Factions in the AI's order of preference, measured with tools/gi_ai_eval.py: Arkland's Taxes pay Mercenaries on
#: every blow; with Arkland taken the Sect's fighters won 75 of 92 games where the Tribes won 62 (its heroes may not
#: build, but the AI builds little while Helgoth is about).
FACTIONS = ("arkland", "sect", "tribes", "ramal")
#: Hard's order: against Arkland the Forest Tribe's heroes do better than the Sect's, who may not build (hard
#: against normal on tuning seeds 0-99: 84 of 100 taking the Tribe second, 57 taking the Sect, 66 Ramal; 74 taking
#: the Tribe first, leaving Arkland to the rival).
HARD_FACTIONS = ("arkland", "tribes", "sect", "ramal")
#: Answers to the questions of a fight or a window, when nothing better applies.
QUIET = ("roll_defence", "done", "stay", "pass", "keep_hidden")
#: Face-down tiles the AI has peeked at and will not step on: walls, hurts, monsters, the Maelstrom's whims.
AVOID = frozenset({"mountain", "swamp", "maelstrom", "kakonositel", "kelfeerazen", "groxiah"})
#: How much sooner than its counter says each monster tends to win: Tijian destroys a tile every turn he finds
#: one, Helgoth scores only outposts, which the AI keeps few while he is about.
PACE = {"tijian": -2, "walker": -1, "oryana": 0, "helgoth": 1}
#: Peek at a face-down tile before stepping on it: it spares an ambush or a wall but costs a step, and
#: tools/gi_ai_eval.py measured walking straight on better (45 % against 35 % over 100 games).
PEEK = False
#: While Tijian is about, peek anyway and keep off face-down resource tiles: face up they are his prey
#: (measured: Tijian's wins 47 against 51 in 200 games).
TIJIAN_PEEK = True
#: While Oryana is about, heroes with nothing better to do stand beside the keeper.
GUARD = True
#: In a shut cage, spirit dice go on a strike unless it beats the defence by 2 with this chance already.
CAGE_SURE = 0.8
#: Face-down tiles worth turning face up once peeked: two spirits, a cache of attack or defence.
GIFTS = frozenset({"spirits", "weapons", "armour"})
#: While Oryana sits on the Source (or the hunted Walker stands anywhere), a hero already beside the monster is
#: activated after those that walk up to it, so every strike counts the most flanking dice.
JOIN_FIRST = 100.0
#: How much nearer his victory the hunted Spirit Walker counts when a fit hero weighs a blow at him: he eats the
#: other players' heroes, so only blows at him slow him; a hurt hero keeps away, it would be his next prey
#: (measured: the Walker's games won 119/187 -> 129/187 over 3 seed sets). Not in solo: there he eats only the AI's.
WALKER_URGE = 4
#: What a point made in the last round is worth to the plan (an outpost built; a pair of spirits gathered).
LAST_POINT = 9.0
#: Of the most plentiful resource, what is kept (a boost, an outpost) before three go for one below SPARE_LOW.
SPARE_KEEP = 4
SPARE_LOW = 2
#: The mean of one die (faces 0, 1, 1, 2, 2, 3, PROV-09).
DIE = 1.5


#: Moves never taken as a blunder: throwing resources or spirits away is no mistake a player makes by accident.
NO_BLUNDER = frozenset({"trade", "spirit_res", "spirit_heal", "spirit_pp"})
#: Easy never builds by accident either: its random outposts fed Helgoth, who then won the game for neither player
#: (normal against easy on tuning seeds 0-99: 63 of 100, Helgoth 20; easy building only when normal would: 72, 11).
EASY_STEADY = NO_BLUNDER | {"build"}


#: What each level plays differently (issue 23). `blunder`: the share of its own-turn moves the level picks at random
#: among the legal ones (never one of `steady`: a trade or a spirit spent, see NO_BLUNDER, and for easy a build);
#: `raid`: the plan also weighs walking up to the other players' points, an outpost on its own or an enemy commander
#: (see `_raids`); `primacy`: builds whenever Helgoth could not win on its outposts (`margin` short of it at the least),
#: upgrades with trades (`_affordable`); `rivals_posts`: the rivals' outposts count too in that margin (he wins on
#: anyone's: a rival that builds everywhere feeds him, one that builds little leaves room); `spend_from`: the round from
#: which its spirit reserve becomes points while no monster is near its victory; `cage` and `hand_out`: the monsters it
#: cages and hands out, best first (experiments); `cage_players`: the fewest players at the table for it to cage one;
#: `factions`: the factions it takes, best first; `hunt_within`: the
#: free heroes hunt only a monster this near its victory (an experiment: 3 measured no better); `push_from`: the
#: round from which it plays for points (see `_pushing`); `helgoth_pace`: in those rounds, the outposts it reckons
#: Helgoth can still take per turn he has left (it builds while he would still fall short); `slay`: in those rounds
#: Helgoth is hunted while he could still win at that pace (sent to retreat, he is back too late). Measured with
#: tools/gi_ai_eval.py and tools/gi_points.py (data/guerra_de_indagar/NOTES.md, "AI levels").
class Level(NamedTuple):
    blunder: float
    raid: bool = False
    primacy: bool = False
    spend_from: int = 99
    margin: int = 1
    rivals_posts: bool = False
    cage: tuple[str, ...] = ai_cage.CAGE
    cage_players: int = 1
    hand_out: tuple[str, ...] = ()
    factions: tuple[str, ...] = FACTIONS
    steady: frozenset[str] = NO_BLUNDER
    hunt_within: int = 99
    push_from: int = 99
    helgoth_pace: float = 1.0
    slay: bool = False


#: Hard raids the other players' points: what dropping an outpost (captured: a point each way) and sending an enemy
#: commander to retreat are worth to the plan, times their chance; blows worth less than RAID_FLOOR are not struck.
RAID_POST = 14.0
RAID_COMMANDER = 8.0
RAID_FLOOR = 2.0
#: Hard's last rounds (`push_from`): a monster is hunted, and Oryana's keeper kept, only this near its victory.
PUSH_NEAR = 2
#: Primacy: what an upgrade toward Merchant Crown's point (three outposts of level 2 or more, a point a round) is
#: worth to the plan.
UPGRADE_POINT = 11.0
#: Hard plays for points from round 8 (tuning seeds 0-39 against greedy: reached 10 in 19 of 38 wins, 17 of 39
#: from round 9, 13 of 39 from round 7; 9 of 38 before), reckoning two outposts taken for Helgoth's three turns
#: (0.67: 23 of 38, and 13 of 39 on seeds 40-79 where 1.0 made 19 and 15; 0.5: 20 of 36 with 3 Helgoth wins in 40).
#: Hard keeps Helgoth 2 short of his victory when it builds (tuning seeds, with the Tribe taken second: against greedy
#: 87 of 100 on seeds 0-99 and 91 on 100-199, 84 on 0-99 with a margin of 1; against normal 83 and 84).
#: Sixth pass (against greedy, won by reaching 10, tuning seeds 0-139): no Tijian cage at a table of two 72 of 133
#: wins (26 of 57 on seeds 0-59 before), with `slay` and a retreated Helgoth's turns counted from his return 79 of 133.
LEVELS: dict[str, Level] = {
    "easy": Level(blunder=0.75, steady=EASY_STEADY),
    "normal": Level(blunder=0.0),
    "hard": Level(blunder=0.0, raid=True, primacy=True, spend_from=6, margin=2, rivals_posts=True,
                  factions=HARD_FACTIONS, push_from=8, helgoth_pace=0.67, slay=True, cage_players=3),
}
#: The level of the decision under way: set by `choose` for its own call only, in its own context, so two games'
#: AIs deciding at once in two threads never read each other's level.
_LEVEL: ContextVar[Level] = ContextVar("guerra_ai_level", default=LEVELS["normal"])


def _level() -> Level:
    return _LEVEL.get()


def choose(legal: Sequence[LegalAction], s: State, seat: int, rng: Rng, level: str = "normal") -> Action:
    """The AI's move for `seat` among `legal` (never empty), playing `level` (easy, normal, hard; anything else
    plays normal); only what `seat` may know is read."""
    profile = LEVELS.get(level, LEVELS["normal"])
    token = _LEVEL.set(profile)
    try:
        if profile.blunder and not s["pending"] and rng.below(1000) < profile.blunder * 1000:
            slips = [la.action for la in legal if la.action.kind not in profile.steady]
            if slips:
                return rng.choice(slips)
        return _choose(legal, s, seat, rng)
    finally:
        _LEVEL.reset(token)


def _choose(legal: Sequence[LegalAction], s: State, seat: int, rng: Rng) -> Action:
    by = by_kind(legal)
    if s["pending"]:
        return _answer(s, seat, s["pending"][0], by, legal)
    if "faction" in by:
        ranked = {f: i for i, f in enumerate(_level().factions)}
        return min(by["faction"], key=lambda a: (ranked.get(args_of(a)["faction"], 9), args_of(a)["faction"]))
    if "commander" in by:
        return max(by["commander"], key=lambda a: (_command_move(args_of(a)["hero"]), _toughness(args_of(a)["hero"]),
                                                   args_of(a)["hero"]))
    if "monster" in by:
        return _monster(s, seat, by["monster"])
    if "spirit_pp" in by and _spare_spirits(s, seat) >= 2:
        return by["spirit_pp"][0]
    heal = _spirit_heal(s, seat, by)
    if heal is not None:
        return heal
    if s["act"] is None:
        return _activate(s, seat, by) if "activate" in by else _fallback(by, legal)
    return _activation(s, seat, by, legal)


def _fallback(by: dict[str, list[Action]], legal: Sequence[LegalAction]) -> Action:
    for kind in (*QUIET, "end"):
        if kind in by:
            return by[kind][0]
    return legal[0].action


def _command_move(hid: str) -> int:
    """The movement a hero's command ability gives every hero of its side (Arkland Cavalry): a step more for each
    shuts Tijian's cage before his first turn and brings the keeper to the Source first."""
    return sum(number(card["passive"], "move") if "move" in card["passive"] else 0 for card in cards().values()
               if card.get("hero") == hid and card.get("slot") == "command" and "passive" in card
               and card["passive"].get("scope") == "own")


def _toughness(hid: str) -> tuple[int, int]:
    card = hero_card(hid)
    return int(card["defence"]), int(card["resistance"])


@cache
def _sums(dice: int) -> tuple[float, ...]:
    """The chances of each total of a roll of `dice` dice."""
    faces = numbers()["die_faces"]["faces"]
    dist = [1.0]
    for _ in range(max(0, dice)):
        nxt = [0.0] * (len(dist) + max(faces))
        for total, p in enumerate(dist):
            for f in faces:
                nxt[total + f] += p / len(faces)
        dist = nxt
    return tuple(dist)


@cache
def chance(attack: int, defence: int, at_least: int) -> float:
    """The chance that `attack` dice beat `defence` dice by `at_least` or more."""
    a, d = _sums(attack), _sums(defence)
    total = 0.0
    for x, pa in enumerate(a):
        for y, pd in enumerate(d):
            if x - y >= at_least:
                total += pa * pd
    return total


# ---------------------------------------------------------------- the monsters, as the AI reads their cards


def _need(s: State, card: str) -> int:
    victory = monsters()["primary"][card]["victory"]
    if s["solo"]:
        return int(victory["solo"])
    return int(victory["base"]) + (len(s["players"]) if victory.get("per_player", True) else 0)


def _primaries(s: State) -> list[str]:
    return sorted(mid for mid, m in s["monsters"].items() if m["kind"] == "primary" and not m["gone"])


def _short(s: State, mid: str) -> int:
    """How far the monster is from its victory (PROV-18); Oryana counts the Source's spirits she would drink."""
    mon = s["monsters"][mid]
    held = mon["spirits"] + (s["source"] if mon["at"] is not None else 0) if mon["card"] == "oryana" else mon["count"]
    return _need(s, mon["card"]) - held


def _card_in_play(s: State, card: str) -> str | None:
    return next((mid for mid in _primaries(s) if s["monsters"][mid]["card"] == card), None)


def _oryana(s: State) -> bool:
    """Whether Oryana is about, who wins by drinking the Source: then every spirit there is worth a detour."""
    return _card_in_play(s, "oryana") is not None


def _prey(s: State, seat: int | None = None) -> str | None:
    """The primary monster the free heroes fight: the one `seat` cages when it got out, else the one on the board
    nearest its victory. Oryana only while she stands on the Source or holds spirits (else the keeper alone
    denies her); one in retreat is waited for."""
    caged = _cage_target(s, seat) if seat is not None else None
    if caged is not None and not ai_cage.caged(s, caged):
        return caged
    best: tuple[bool, int, str] | None = None
    for mid in _primaries(s):
        mon = s["monsters"][mid]
        if mon["card"] == "oryana" and mon["spirits"] == 0 and mon["at"] != s["source_at"]:
            continue
        if mon["card"] == "helgoth" and not _helgoth_hunts(s, mid):
            continue
        if _short(s, mid) + PACE.get(mon["card"], 0) > (PUSH_NEAR if _pushing(s) else _level().hunt_within) \
                and not (mon["card"] == "helgoth" and _slaying(s, mid)):
            continue  # far from its victory: the free heroes build rather than chase it
        key = (mon["at"] is None, _short(s, mid) + PACE.get(mon["card"], 0), mid)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else None


def _pushing(s: State) -> bool:
    """Hard's last rounds (`push_from` on): every hero not holding back a monster near its victory plays for
    points (outposts on the free resource tiles), the monsters far from theirs are left alone."""
    return s["round"] >= _level().push_from


def _slaying(s: State, mid: str) -> bool:
    """Hard's last rounds (`slay`): Helgoth is hunted while he stands on the board near enough his victory to
    forbid building (`_helgoth_blocks`): sent to retreat then, he is back too late to take what is built."""
    return _level().slay and _pushing(s) and s["monsters"][mid]["at"] is not None and _helgoth_blocks(s, mid)


def _helgoth_blocks(s: State, mid: str) -> bool:
    """In hard's last rounds, whether Helgoth, taking `helgoth_pace` outposts a turn he has left, could still win."""
    return _short(s, mid) <= int(_turns_left(s, mid) * _level().helgoth_pace)


def _out_of_time(s: State, mid: str) -> bool:
    """In hard's last rounds, whether the monster could not reach its victory even scoring on each turn it has
    left (Helgoth an outpost, Tijian a tile, the Walker a hero a turn)."""
    return _pushing(s) and s["monsters"][mid]["card"] != "oryana" and _short(s, mid) > _turns_left(s, mid)


def _tijian_wary(s: State) -> bool:
    """Whether Tijian is about and still a danger: then face-down resource tiles stay face down (his prey)."""
    mid = _card_in_play(s, "tijian")
    return mid is not None and not _out_of_time(s, mid)


def _helgoth_hunts(s: State, mid: str) -> bool:
    """Helgoth scores only outposts of the player with the most: he matters once there are outposts to take."""
    return bool(s["outposts"]) or s["monsters"][mid]["count"] > 0


def _spot(s: State, mid: str) -> str:
    """Where the monster stands, or for one in retreat its home, where it will come back."""
    mon = s["monsters"][mid]
    if mon["at"] is not None:
        return str(mon["at"])
    return ai_cage.home_of(s, mid)


def _reach(s: State, mid: str) -> set[str]:
    """The tiles the monster could strike on its next turn: next to any tile its movement takes it to."""
    mon = s["monsters"][mid]
    start = placed(mon["at"])
    moves = monster_stats(s, mid)["move"]
    walked = breadth_first([start], lambda k: adjacent_keys(s, k),
                           enter=lambda _here, there: monster_may_enter(s, there), within=moves)
    out: set[str] = set()
    for k in walked.dist:
        out.update(adjacent_keys(s, k))
    return out


def _threats(s: State) -> list[tuple[str, int, set[str]]]:
    """Every monster on the board that attacks: its id, attack value and the tiles it may strike next."""
    out = []
    for mid, mon in sorted(s["monsters"].items()):
        if mon["at"] is None or mon["gone"] or mon["stuck"]:
            continue
        out.append((mid, monster_attack(s, mid), _reach(s, mid)))
    return out


def _defence_on(s: State, hid: str, k: str) -> int:
    """The hero's defence if it stood on `k` (its own outpost there adds)."""
    hero = s["heroes"][hid]
    was = hero["at"]
    hero["at"] = k  # as if it stood there: the tile, its own outpost, Steel Legion's neighbours
    try:
        return hero_defence(s, hid)
    finally:
        hero["at"] = was


def _danger(s: State, hid: str, k: str, threats: list[tuple[str, int, set[str]]]) -> float:
    """What standing on `k` risks: for each monster that may strike there a juicy hero, the expected damage, and a
    heavy price when it could send the hero to retreat (the Spirit Walker counts those)."""
    hero = s["heroes"][hid]
    left = hero_resistance(s, hid) - hero["dmg"]
    defence = _defence_on(s, hid, k)
    total = 0.0
    for mid, attack, reach in threats:
        if k not in reach:
            continue
        mon = s["monsters"][mid]
        if mon["card"] == "oryana" and k != s["source_at"]:
            continue  # Oryana only strikes whoever stands on the Source
        if defence > attack and mon["card"] != "oryana":
            continue  # not juicy (RULING-34)
        hit = max(0.0, DIE * (attack - defence))
        walker = mon["card"] == "walker"
        total += hit
        if hit + 1.5 >= left:
            total += 12.0 if walker else 5.0
        elif walker:
            total += 1.0
    return total


# ---------------------------------------------------------------- set-up and questions


def _monster(s: State, seat: int, options: list[Action]) -> Action:
    """The monster it holds in check best. A monster it will cage goes on the home whose turn comes right after
    this seat's, and one it will not cage elsewhere, leaving that home to the other player's monster: a guard of
    the cage then always moves before the caged monster's turn."""
    mine = _deploy(s, seat)
    rank = {m: i for i, m in enumerate(_level().hand_out or MONSTERS)}
    card = min((args_of(a)["monster"] for a in options), key=lambda m: (rank.get(m, len(rank)), m))
    homes = [a for a in options if args_of(a)["monster"] == card]
    own = [a for a in homes if s["tiles"][tile_of(s, args_of(a)["home"])]["home"] == seat]
    if card in ai_cage.CAGE:
        if own:
            return own[0]
    else:  # the home right after this seat is left to the monster it will cage: a guard moves before each turn
        homes = [a for a in homes if a not in own] or homes
    return max(homes, key=lambda a: (_dist_from(s, mine, tile_of(s, args_of(a)["home"])), args_of(a)["home"]))


def _answer(s: State, seat: int, item: Question, by: dict[str, list[Action]],
            legal: Sequence[LegalAction]) -> Action:
    kind = item["kind"]
    if kind == "reveal":
        found = s["tiles"][item["tile"]]["t"]
        if found in GIFTS or (found == "abandoned" and _build_ok(s, seat)):
            return by["reveal"][0]
        return by["keep_hidden"][0]  # a face-up resource tile is Tijian's prey until an outpost stands on it
    if kind == "declare":
        return _declare(s, seat, by["declare"])
    if kind == "spirit_window":
        return by["spirit_pp"][0] if "spirit_pp" in by and _spare_spirits(s, seat) >= 2 else by["pass"][0]
    if kind == "degrade":
        choices = [args_of(a)["choice"] for a in by["degrade"]]
        for c in ("capture", "destroy", "leave"):
            if c in choices:
                return Action.of("degrade", choice=c)
    if kind == "level_up":
        return Action.of("level", side="shield")
    if kind == "reap":
        return _scarcest(s, seat, by["reap"])
    if kind == "charge":
        guarding = _cage(s, seat)
        if guarding is not None and current_attack(s)["by"][1] in guarding[1]:
            return by["stay"][0]  # a guard never leaves its tile of the cage
        return by["charge"][0] if _charge_worth(s, seat) else by["stay"][0]
    if kind == "fall_back":
        options = by.get("fall_back", [])
        if options:
            return _safest(s, item["hero"], options)
    if kind == "monster_fall_back":
        options = by.get("monster_fall_back", [])
        if options:
            return _monster_fall_back(s, seat, item["monster"], options)
    if kind in ("maelstrom", "redeploy"):
        options = by.get(str(kind), [])
        if options:
            hid = item["hero"]
            if kind == "redeploy":
                return _safest(s, hid, options)
            if s["heroes"][hid]["owner"] == seat:
                return _safest(s, hid, options, toward=_goal_tiles(s, seat, hid, _keeper(s, seat) == hid,
                                                                   _prey(s, seat)))
            return _most_dangerous(s, hid, options)
    if kind == "ignore":
        return _ignore(s, seat, item, by, legal)
    if kind in ("monster_target", "monster_opportunity"):
        options = by.get(str(kind), [])
        if options:
            return min(options, key=lambda a: (_is_mine(s, seat, tile_of(s, args_of(a)["to"])), args_of(a)["to"]))
    if kind == "a_boost" and "ability" in by and _boost_worth(s, seat):
        return max(by["ability"], key=lambda a: (_boost_dice(s, seat, args_of(a)["id"]), args_of(a)["id"]))
    if kind == "a_boost" and "spirit_dice" in by and _boost_worth(s, seat) and not _hoard(s):
        return by["spirit_dice"][0]
    if kind == "d_boost" and _hero_at_risk(s, seat):
        return _shield(s, by) or _fallback(by, legal)
    return _fallback(by, legal)


def _declare(s: State, seat: int, options: list[Action]) -> Action:
    """The tree with a free income (Taxes, Harvest) every round, unlocking first that ability, then the tree's
    others in order: a bolt where the ability has a `*` number to raise, else a coin. The income pays the dice
    bought for every blow at a monster (Mercenaries), and using it each activation makes this seat the last to
    use an ability, so the Spirit Walker hunts its heroes, who fight back, and not the other player's."""
    trees = [args_of(a)["tree"] for a in options if not args_of(a).get("unlock")]
    income = _income(trees)
    if income is None:
        return Action.of("declare", tree=next((t for t in TREES if t in trees), trees[0]))
    tree, first = income
    unlocked = s["players"][seat]["unlocks"]
    wanted = [first] + [aid for aid in strategy()["trees"][tree]["abilities"] if aid != first]
    for aid in wanted:
        if aid in unlocked:
            continue
        side = "bolt" if strategy()["abilities"][aid].get("star") else "coin"
        for a in options:
            if args_of(a)["tree"] == tree and args_of(a).get("unlock") == aid and args_of(a).get("side") == side:
                return a
    return Action.of("declare", tree=tree)


def _income(trees: Sequence[str]) -> tuple[str, str] | None:
    """The first of `trees` with an ability that gains resources for nothing, and that ability."""
    for tree in trees:
        for aid in strategy()["trees"][tree]["abilities"]:
            card = strategy()["abilities"][aid]
            if not card["cost"] and not card.get("pay_damage") and "gain" in card.get("do", {}):
                return tree, aid
    return None


def _charge_worth(s: State, seat: int) -> bool:
    """Charge through onto the Source while Oryana wants it; elsewhere only onto a tile no monster reaches."""
    att = current_attack(s)
    k = att["at"]
    hid = att["by"][1]
    if k == s["source_at"]:
        return True
    return _danger(s, hid, k, _threats(s)) <= _danger(s, hid, hero_tile(s, hid), _threats(s))


def _safest(s: State, hid: str, options: list[Action], toward: set[str] | None = None) -> Action:
    """The tile least in reach of the monsters (a face-down one counts as a risk), then the nearest to `toward`
    (by default the hero's start area)."""
    threats = _threats(s)
    home = _deploy(s, s["heroes"][hid]["owner"])

    def score(a: Action) -> tuple[float, int, str]:
        k = tile_of(s, args_of(a)["to"])
        hidden = not s["tiles"][k]["up"] and s["tiles"][k]["t"] is not None
        near = _dist_from(s, [k], None, toward) if toward else _dist_from(s, home, k)
        return (_danger(s, hid, k, threats) + (3.0 if hidden else 0.0), near, args_of(a)["to"])
    return min(options, key=score)


def _shield(s: State, by: dict[str, list[Action]]) -> Action | None:
    """What saves a hero from a blow: a defending ability (Monstrous Form, Oak Skin…) before a spirit, which is
    worth two attack dice; while the Spirit Walker hunts the last ability user, a spirit only (measured: using
    abilities then loses more games to him)."""
    walker = _card_in_play(s, "walker") is not None
    kinds: tuple[str, ...] = ("spirit_ignore",) if walker else ("ability", "spirit_ignore")
    if _hoard(s):
        kinds = tuple(kind for kind in kinds if kind != "spirit_ignore")
    for kind in kinds:
        if kind in by:
            return by[kind][0]
    return None


def _ignore(s: State, seat: int, item: Question, by: dict[str, list[Action]],
            legal: Sequence[LegalAction]) -> Action:
    """Damage outside an attack (an ability's, the Poisonous Swamp's): ignore it when it would send the hero to
    retreat, else let it land."""
    hid = item["hero"]
    left = item["n"] - item["ignore"]
    hero = s["heroes"][hid]
    if hero["at"] is not None and hero["dmg"] + left >= hero_resistance(s, hid):
        chosen = _shield(s, by)
        if chosen is not None:
            return chosen
    return by["done"][0] if "done" in by else _fallback(by, legal)


def _most_dangerous(s: State, hid: str, options: list[Action]) -> Action:
    threats = _threats(s)
    return max(options, key=lambda a: (_danger(s, hid, tile_of(s, args_of(a)["to"]), threats), args_of(a)["to"]))


def _monster_fall_back(s: State, seat: int, mid: str, options: list[Action]) -> Action:
    """Where a monster falls back when this seat chooses: beside as many of its still unused heroes as possible,
    then away from what it wants (the Source for Oryana, free resource tiles for Tijian)."""
    fresh = [h for h, hero in s["heroes"].items() if hero["owner"] == seat and hero["at"] is not None
             and not hero["done"] and (s["act"] is None or s["act"]["hero"] != h)]
    card = s["monsters"][mid]["card"]
    wants = {s["source_at"]} if card == "oryana" else _free_resources(s) if card == "tijian" else set()

    def score(a: Action) -> tuple[int, int, int, str]:
        k = tile_of(s, args_of(a)["to"])
        near = set(adjacent_keys(s, k))
        steps = [_dist_from(s, [s["heroes"][h]["at"]], None, near, h) for h in fresh]
        reachable = sum(1 for h, d in zip(fresh, steps, strict=True) if d <= _moves(s, h))
        away = _dist_from(s, [k], None, wants) if wants else 0
        return (-reachable, -away, sum(steps), args_of(a)["to"])
    return min(options, key=score)


def _boost_worth(s: State, seat: int) -> bool:
    """Spirit dice for this seat's attack on a primary monster while the roll looks short of sending it away."""
    att = s["attack"]
    if att is None or attacker_seat(s) != seat or att["target"] is None or att["target"][0] != "monster":
        return False
    mid = att["target"][1]
    if s["monsters"][mid]["kind"] != "primary":
        return False
    left = monster_stats(s, mid)["resistance"] - s["monsters"][mid]["dmg"]
    cage = _cage(s, seat)
    if cage is not None and cage[0] == mid and ai_cage.caged(s, mid) and ai_cage.shut(s, mid):
        # shut in, 2 damage send it to retreat: dice unless the roll already beats the defence by 2 most likely
        beats = sum(p for total, p in enumerate(_sums(defence_at(s, att["at"]))) if sum(att["a"]) - total >= 2)
        return beats < CAGE_SURE
    now = sum(att["a"]) - DIE * defence_at(s, att["at"])
    spirits = s["players"][seat]["spirits"]
    if now >= left + 1:
        return False
    return now + 3.0 * spirits >= left - 1 or now < 3 or _short(s, mid) <= 2


def _boost_dice(s: State, seat: int, aid: str) -> float:
    """What a boost adds to a blow, in attack dice."""
    card = cards()[aid]
    effect = card.get("effect", {})
    dice = ability_number(s, seat, aid, "effect", "attack_dice") if "attack_dice" in effect else 0
    return dice + DIE * effect.get("extra_damage", 0) + (1.0 if "min_damage" in effect else 0.0)


def _spare_spirits(s: State, seat: int) -> int:
    """Spirits beyond the reserve kept for the fight (2 attack dice each, or 3 damage ignored); none kept in the
    last round or with no monster to fight."""
    spirits = int(s["players"][seat]["spirits"])
    if s["round"] >= 10 or not _primaries(s):
        return spirits
    if s["round"] >= _level().spend_from and all(_short(s, mid) + PACE.get(s["monsters"][mid]["card"], 0) > 2
                                                 for mid in _primaries(s)):
        return spirits  # primacy: late in the game a pair is a point, while no monster is near its victory
    reserve = 2 if _prey(s, seat) is not None or _oryana(s) else 0
    return spirits - reserve


def _hoard(s: State) -> bool:
    """In the last round a spirit is worth most as half a point (ties go to the earlier seat), unless a monster
    is one step short of its victory."""
    return s["round"] >= 10 and all(_short(s, mid) > 1 for mid in _primaries(s))


def _spirit_heal(s: State, seat: int, by: dict[str, list[Action]]) -> Action | None:
    """A spirit heals a hero about to be sent to retreat by a monster within reach (the Walker counts it)."""
    if "spirit_heal" not in by or _hoard(s):
        return None
    threats = _threats(s)
    for a in by["spirit_heal"]:
        hid = args_of(a)["hero"]
        hero = s["heroes"][hid]
        left = hero_resistance(s, hid) - hero["dmg"]
        if left <= 3 and _danger(s, hid, hero_tile(s, hid), threats) >= 5.0:
            return a
    return None


def _scarcest(s: State, seat: int, options: list[Action]) -> Action:
    res = s["players"][seat]["res"]
    return min(options, key=lambda a: (sum(res[k] for k in args_of(a)["get"]), a.token()))


def _is_mine(s: State, seat: int, k: str) -> bool:
    unit = unit_at(s, k)
    if unit is not None and unit[0] == "hero":
        return bool(s["heroes"][unit[1]]["owner"] == seat)
    post = s["outposts"].get(k)
    return post is not None and post["owner"] == seat


def _hero_at_risk(s: State, seat: int) -> bool:
    """Ignore 3 damage when this roll would send the hero to retreat, or push the keeper off the Source or a
    guard off its tile of the cage."""
    att = s["attack"]
    if att is None or att["target"] is None or att["target"][0] != "hero":
        return False
    hid = att["target"][1]
    if s["heroes"][hid]["owner"] != seat:
        return False
    total = damage_total(att)
    post = s["outposts"].get(att["at"]) if att["post"] else None
    if post is not None and not post["dropped"]:
        total -= min(total, outpost_stats(post["level"])["resistance"] - post["dmg"])
    if s["heroes"][hid]["dmg"] + total >= hero_resistance(s, hid):
        return True
    if total >= 2 and att["at"] == s["source_at"] and _oryana(s):
        return True
    cage = _cage(s, seat)  # a guard pushed off its tile opens the cage
    return total >= 2 and cage is not None and cage[1].get(hid) == att["at"] and ai_cage.caged(s, cage[0])


# ---------------------------------------------------------------- a turn


def _activate(s: State, seat: int, by: dict[str, list[Action]]) -> Action:
    """A guard of the cage next to its monster strikes first, then guards walk to their tiles; otherwise the hero
    with the most worth doing now (ties: the order of the faction)."""
    cage = _cage(s, seat)
    if cage is not None:
        mid, where = cage
        at = s["monsters"][mid]["at"]
        ready = [a for a in by["activate"] if args_of(a)["hero"] in where]
        if at is not None:
            strikers = [a for a in ready if s["heroes"][args_of(a)["hero"]]["at"] in adjacent_keys(s, at)
                        and (ai_cage.shut(s, mid) or not ai_cage.caged(s, mid))]
            if not strikers and not ai_cage.caged(s, mid):
                strikers = [a for a in ready if _chase(s, seat, args_of(a)["hero"], at, _moves(s, args_of(a)["hero"]),
                                                       where[args_of(a)["hero"]]) is not None]
            if strikers:
                return max(strikers, key=lambda a: (hero_attack(s, args_of(a)["hero"], at), args_of(a)["hero"]))
        walking = [a for a in ready if s["heroes"][args_of(a)["hero"]]["at"] != where[args_of(a)["hero"]]]
        if walking:
            def closing(a: Action) -> tuple[bool, int, str]:  # one that gets there now first, else the farthest
                hid = args_of(a)["hero"]
                gap = ai_cage.walk_distances(s, hero_tile(s, hid)).get(where[hid], 99)
                return (gap > _moves(s, hid), -gap, hid)
            return min(walking, key=closing)
    faction = s["players"][seat]["faction"]
    assert faction is not None, "heroes are activated once factions are chosen"
    order = factions()["factions"][faction]["heroes"]
    threats = _threats(s)
    spot, ring = _ring(s, seat)
    plans = {args_of(a)["hero"]: _plan(s, seat, args_of(a)["hero"], _moves(s, args_of(a)["hero"]), False, threats)
             for a in by["activate"]}
    striking = {h for h, (_v, _k, deed) in plans.items() if ring and deed == ("attack", spot)}
    joining = any(s["heroes"][h]["at"] not in ring for h in striking)
    best: tuple[float, int, Action] | None = None
    for a in by["activate"]:
        hid = args_of(a)["hero"]
        value = plans[hid][0]
        value -= _danger(s, hid, hero_tile(s, hid), threats) * 0.5  # a hero in danger goes early
        if joining and hid in striking:
            value += JOIN_FIRST if s["heroes"][hid]["at"] not in ring else 0.0  # walk up first: the others' flanking
        key = (-value, order.index(hid) if hid in order else 9, a)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return best[2]


def _ring(s: State, seat: int) -> tuple[str, set[str]]:
    """Oryana's tile and those beside it while she sits on the Source, or the hunted Walker's, else none."""
    mid = _card_in_play(s, "oryana")
    if mid is not None and s["monsters"][mid]["at"] == s["source_at"]:
        return s["source_at"], set(adjacent_keys(s, s["source_at"]))
    prey = _prey(s, seat)
    walker_at = s["monsters"][prey]["at"] if prey is not None and s["monsters"][prey]["card"] == "walker" else None
    if walker_at is not None:
        return walker_at, set(adjacent_keys(s, walker_at))
    return "", set()


def _moves(s: State, hid: str) -> int:
    return hero_move(s, hid)


def _activation(s: State, seat: int, by: dict[str, list[Action]], legal: Sequence[LegalAction]) -> Action:
    act = activation(s)
    hid = act["hero"]
    here = hero_tile(s, hid)
    if "charge_step" in by or ("attack" in by and "end" not in by):  # an owed attack after a Charge! step
        return _owed(s, seat, hid, by)
    tree = s["players"][seat]["tree"]
    income = _income([tree]) if tree else None
    for a in by.get("skill", []):
        if income is not None and args_of(a)["id"] == income[1]:
            return a  # free, at once: the resources, and the Spirit Walker's eye
    swap = _spare_income(s, seat, by)
    if swap is not None:
        return swap
    last = _last_build(s, seat, hid, by)
    if last is not None:
        return last
    second = _second_build(s, seat, hid, by)
    if second is not None:
        return second
    cage = _cage(s, seat)
    if cage is not None and hid in cage[1]:
        return _guard(s, seat, hid, cage[0], cage[1][hid], by, legal)
    trade = _trade_for_outpost(s, seat, hid, by)
    if trade is not None:
        return trade
    mv = act["mv"] if not act.get("mud") else 0
    threats = _threats(s)
    builds_only = _pushing(s) and bool(act["acted"]) and bool(act.get("free_build"))
    _value, target, deed = _plan(s, seat, hid, mv, bool(act["acted"]) and not builds_only, threats, builds_only)
    if target == here:
        if deed == ("build", here) and not can_pay(s, seat, outpost_stats(1)["cost"]):
            pay = _pay_for_outpost(s, seat, by)
            if pay is not None:
                return pay
        if deed == ("upgrade", here) and here in s["outposts"] and "upgrade" not in by:
            pay = _trade_toward(s, seat, outpost_stats(s["outposts"][here]["level"] + 1)["cost"], by)
            if pay is not None:
                return pay
        if deed is not None:
            for a in by.get(deed[0], []):
                if deed[0] in ("build", "upgrade", "gather") or tile_of(s, args_of(a)["to"]) == deed[1]:
                    return a
        if not act["acted"]:
            strike = _strike(s, seat, hid, by)
            if strike is not None:
                return strike
        if "clearing" in by:
            return by["clearing"][0]
        return by["end"][0] if "end" in by else _fallback(by, legal)
    if "leave_maelstrom" in by:
        return by["leave_maelstrom"][0]  # the last player steers it out; staying there it can never move
    step = _first_step(s, seat, hid, target, mv)
    onto = _step(s, seat, step, mv, by) if step is not None else None
    if onto is not None:
        return onto
    return by["end"][0] if "end" in by else _fallback(by, legal)


def _walk_onto(s: State, k: str | None, by: dict[str, list[Action]]) -> Action | None:
    return next((a for a in by.get("move", []) if tile_of(s, args_of(a)["to"]) == k), None) if k is not None else None


def _step(s: State, seat: int, k: str, mv: int, by: dict[str, list[Action]]) -> Action | None:
    """The action that takes the active hero onto `k`. A face-down tile is peeked at first when it may hide a
    wall or a monster (PEEK, with steps to spare) and always while Tijian is about: stepped on, it turns face
    up, and a resource tile face up is his prey. One known to be a resource tile is then not stepped on."""
    tile = s["tiles"][k]
    hidden = not tile["up"] and tile["t"] is not None
    tijian = TIJIAN_PEEK and _tijian_wary(s)
    if hidden and _known_type(s, seat, k) is None and (tijian or PEEK) and mv >= 2:
        for a in by.get("explore", []):
            if tile_of(s, args_of(a)["to"]) == k:
                return a
    if hidden and tijian and _known_type(s, seat, k) in RESOURCES:
        return None
    return _walk_onto(s, k, by)


def _cage(s: State, seat: int) -> tuple[str, dict[str, str]] | None:
    """The monster this seat keeps caged on its home, and which hero guards which tile around it."""
    keeper = _keeper(s, seat)
    mid = _cage_target(s, seat)
    if mid is None:
        return None
    return mid, ai_cage.assign(s, seat, mid, keep=keeper)


def _cage_target(s: State, seat: int) -> str | None:
    """The monster this seat cages, with one hero spared to keep the Source while Oryana is about; none once it
    is out of time for its victory in hard's last rounds (the guards build)."""
    if len(s["players"]) < _level().cage_players:
        return None
    mid = ai_cage.target(s, seat, spare=1 if _oryana(s) else 0, cards=_level().cage)
    return None if mid is not None and _out_of_time(s, mid) else mid


def _guard(s: State, seat: int, hid: str, mid: str, spot: str, by: dict[str, list[Action]],
           legal: Sequence[LegalAction]) -> Action:
    """A guard walks to its tile of the cage and strikes the monster in it (any blow of 2 sends it away when the
    cage is shut). Out of its cage, guards within reach hunt it; the others hold their tiles."""
    here = hero_tile(s, hid)
    act = activation(s)
    at = s["monsters"][mid]["at"]
    if here != spot and "leave_maelstrom" in by:
        return by["leave_maelstrom"][0]
    options = by.get("attack", [])
    strike = [a for a in options if tile_of(s, args_of(a)["to"]) == at]
    mv = act["mv"] if not act.get("mud") else 0
    if at is not None and not ai_cage.caged(s, mid) and not act["acted"]:
        if strike:
            return strike[0]
        chase = _chase(s, seat, hid, at, mv, spot)
        if chase is None:
            chase = _lie_in_wait(s, seat, hid, mid, mv)
        step = _first_step(s, seat, hid, chase, mv) if chase is not None else None
        onto = _walk_onto(s, step, by)
        if onto is not None:
            return onto
    if not act["acted"] and here == s["source_at"] and "gather" in by:
        return by["gather"][0]
    errand = _errand(s, seat, hid, mid, spot, mv) if not act["acted"] else None
    if errand is not None:
        onto = _walk_onto(s, _first_step(s, seat, hid, errand, mv), by)
        if onto is not None:
            return onto
    if here != spot:  # straight on, face-down tiles too: a peek costs a step, and time is what a cage needs
        for k in ai_cage.steps_toward(s, hid, spot, [tile_of(s, args_of(a)["to"]) for a in by.get("move", [])]):
            return _walk_onto(s, k, by) or by["end"][0]
    if not ai_cage.shut(s, mid):
        strike = []  # struck in a cage still open, it would fall back through the gap
    if not strike and here == spot:
        for kind in ("build", "upgrade"):  # a guard on a resource tile holds it with an outpost: a point, a yield
            if kind in by and _build_ok(s, seat):
                return by[kind][0]
    if not strike:
        strike = [a for a in options if tile_of(s, args_of(a)["to"]) != at
                  and (unit_at(s, tile_of(s, args_of(a)["to"])) or ("", ""))[0] == "monster"]
    if strike:
        return strike[0]
    return by["end"][0] if "end" in by else _fallback(by, legal)


def _chase(s: State, seat: int, hid: str, at: str, mv: int, spot: str) -> str | None:
    """A tile beside the escaped monster this hero reaches now and from which one activation takes it back to its
    guard tile (the monster comes back home at the start of the round after next), the nearest to that tile."""
    reach = _reachable(s, seat, hid, mv)
    back = ai_cage.walk_distances(s, spot)
    near = [k for k in adjacent_keys(s, at) if k in reach and back.get(k, 99) <= _moves(s, hid)]
    if not near:
        return None
    return min(near, key=lambda k: (back.get(k, 99), k))


def _errand(s: State, seat: int, hid: str, mid: str, spot: str, mv: int) -> str | None:
    """The Source, when a guard can step there, drink its spirits (dice against the caged monster, or points)
    and be back on its tile in this same activation, or in its next one while the monster is away for a whole
    round more."""
    source = s["source_at"]
    if s["source"] <= 0 or unit_at(s, source) is not None:
        return None
    there = _reachable(s, seat, hid, mv).get(source)
    if there is None:
        return None
    mon = s["monsters"][mid]
    spare = mon["at"] is None and mon["retreat"] == 1  # sent away this round: back the round after next
    hero = s["heroes"][hid]
    was = hero["at"]
    hero["at"] = source  # the walk back, as if it stood there
    try:
        back = _reachable(s, seat, hid, _moves(s, hid) if spare else mv - there).get(spot)
    finally:
        hero["at"] = was
    return source if back is not None else None


def _lie_in_wait(s: State, seat: int, hid: str, mid: str, mv: int) -> str | None:
    """Out of reach of the escaped monster: a tile this hero reaches now beside where its next turn takes it
    (Tijian's next prey), so the next blow has a flanking die and fewer tiles to fall back to."""
    bound = {k for _kind, k in scripts.aims(s, mid)}
    reach = _reachable(s, seat, hid, mv)
    near = [beside for k in sorted(bound) for beside in adjacent_keys(s, k) if beside in reach and beside not in bound]
    return min(near, key=lambda beside: (reach[beside], beside)) if near else None


def _owed(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action:
    options = by.get("attack", [])
    if options:
        return max(options, key=lambda a: (unit_at(s, tile_of(s, args_of(a)["to"])) is not None, args_of(a)["to"]))
    return by["charge_step"][0]


def _spare_income(s: State, seat: int, by: dict[str, list[Action]]) -> Action | None:
    """Three of a plentiful resource (the income's) for one running short: they pay the cheap boosts and shields
    (Flaming Sword, Loyal Guard, Shield of Light, Healing Light) the income alone never buys."""
    res = s["players"][seat]["res"]
    rich = max(RESOURCES, key=lambda k: (res[k], k))
    short = min((k for k in RESOURCES if k != rich), key=lambda k: (res[k], k))
    if res[rich] < SPARE_KEEP + 3 or res[short] >= SPARE_LOW:
        return None
    return next((a for a in by.get("trade", [])
                 if args_of(a)["get"] == short and list(args_of(a)["give"]) == [rich] * 3), None)


def _trade_for_outpost(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action | None:
    """On a free resource tile without the gold to build: three of the most plentiful for one gold."""
    here = hero_tile(s, hid)
    tile = s["tiles"][here]
    if "trade" not in by or here in s["outposts"] or not tile["up"] or tile["t"] not in RESOURCES or tile["destroyed"]:
        return None
    if has_rule(hid, "burn_not_build") or not _build_ok(s, seat):
        return None
    cost = outpost_stats(1)["cost"]
    if can_pay(s, seat, cost) or activation(s)["acted"]:
        return None
    res = s["players"][seat]["res"]
    need = next(iter(k for k in cost if res.get(k, 0) < cost[k]))
    options = [a for a in by["trade"] if args_of(a)["get"] == need and need not in args_of(a)["give"]]
    if not options:
        return None
    return max(options, key=lambda a: (min(res[k] for k in args_of(a)["give"]), a.token()))


def _last_build(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action | None:
    """In the last round, unless a monster is one step short of its victory, a hero on a free resource tile builds
    there (paying with trades or an odd spirit) before anything else, a cage guard too: it is a point, and
    building leaves the hero where it stands."""
    here = hero_tile(s, hid)
    tile = s["tiles"][here]
    if not _hoard(s) or activation(s)["acted"] or has_rule(hid, "burn_not_build") or here in s["outposts"] \
            or not tile["up"] or tile["t"] not in RESOURCES or tile["destroyed"] or not _can_build(s, seat) \
            or not _build_ok(s, seat):
        return None
    if "build" in by:
        return by["build"][0]
    return _pay_for_outpost(s, seat, by)


def _second_build(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action | None:
    """Hard's last rounds: a hero that has used its action waives the next build's with its tree's ability
    (Engineers, Settlers) when a free resource tile lies within its walk and it can pay both."""
    act = activation(s)
    if not _pushing(s) or not act["acted"] or act.get("free_build") or has_rule(hid, "burn_not_build") \
            or not _build_ok(s, seat):
        return None
    mv = act["mv"] if not act.get("mud") else 0
    free = _free_resources(s) | ({hero_tile(s, hid)} if _free_tile(s, hero_tile(s, hid)) else set())
    if not free & set(_reachable(s, seat, hid, mv)):
        return None
    for a in by.get("skill", []):
        card = strategy()["abilities"].get(args_of(a)["id"])
        if card is None or "free_build" not in card.get("do", {}):
            continue
        cost = dict(outpost_stats(1)["cost"])
        for k, n in card["cost"].items():
            cost[k] = cost.get(k, 0) + n
        if can_pay(s, seat, cost):
            return a
    return None


def _free_tile(s: State, k: str) -> bool:
    tile = s["tiles"][k]
    return bool(tile["up"]) and tile["t"] in RESOURCES and not tile["destroyed"] and k not in s["outposts"]


def _pay_for_outpost(s: State, seat: int, by: dict[str, list[Action]]) -> Action | None:
    """Gold for an outpost in the last round: three resources for one, else a spirit for three gold."""
    res = s["players"][seat]["res"]
    gold = [a for a in by.get("trade", []) if args_of(a)["get"] == "gold" and "gold" not in args_of(a)["give"]]
    if gold and res["gold"] + (res["wood"] + res["mineral"]) // 3 >= outpost_stats(1)["cost"]["gold"]:
        return max(gold, key=lambda a: (min(res[k] for k in args_of(a)["give"]), a.token()))
    return next((a for a in by.get("spirit_res", []) if list(args_of(a)["get"]) == ["gold"] * 3), None)


def _can_build(s: State, seat: int) -> bool:
    """Whether this seat can pay a first-level outpost: with its gold, or in the last round (an outpost is a point
    Helgoth has no time left to take) with trades or an odd spirit, the one that makes no point."""
    if can_pay(s, seat, outpost_stats(1)["cost"]):
        return True
    if s["round"] < numbers()["rounds"]:
        return False
    res = s["players"][seat]["res"]
    return res["gold"] + (res["wood"] + res["mineral"]) // 3 >= 2 or s["players"][seat]["spirits"] % 2 == 1


def _affordable(s: State, seat: int, cost: Cost) -> bool:
    """Whether `seat` can pay `cost` with its resources, trading three of what it has spare for each one missing."""
    res = s["players"][seat]["res"]
    missing = sum(max(0, amount - res.get(k, 0)) for k, amount in cost.items())
    spare = sum(max(0, res[k] - cost.get(k, 0)) for k in RESOURCES)
    return missing == 0 or spare >= 3 * missing


def _trade_toward(s: State, seat: int, cost: Cost, by: dict[str, list[Action]]) -> Action | None:
    """One trade toward `cost`: three of what is most spare beyond it for one of what is missing."""
    res = s["players"][seat]["res"]
    need = next((k for k in sorted(cost) if res.get(k, 0) < cost[k]), None)
    if need is None:
        return None
    def left(a: Action) -> int:  # what is left beyond the cost after giving, the most spare kind first
        after = dict(res)
        for k in args_of(a)["give"]:
            after[k] -= 1
        return min(after[k] - cost.get(k, 0) for k in RESOURCES if k != need)
    options = [a for a in by.get("trade", []) if args_of(a)["get"] == need and need not in args_of(a)["give"]]
    options = [a for a in options if left(a) >= 0]
    return max(options, key=lambda a: (left(a), a.token())) if options else None


def _upgrade_value(s: State, seat: int, level: int) -> float:
    """Primacy: an upgrade toward Merchant Crown's point (three outposts of level 2 or more), else a tougher
    outpost that yields more."""
    if s["players"][seat]["tree"] == "merchant_crown" and level == 1:
        high = sum(1 for p in s["outposts"].values() if p["owner"] == seat and p["level"] >= 2)
        if high < 3:
            return UPGRADE_POINT
    return 6.0


def _strike(s: State, seat: int, hid: str, by: dict[str, list[Action]]) -> Action | None:
    """Attack an enemy outpost left alone, or an enemy hero, when this hero is fresh and the target weak."""
    if "attack" not in by or s["heroes"][hid]["dmg"] > 1:
        return None
    best: tuple[int, str, Action] | None = None
    for a in by["attack"]:
        k = tile_of(s, args_of(a)["to"])
        unit = unit_at(s, k)
        if unit is not None and unit[0] == "monster":
            continue
        post = s["outposts"].get(k)
        weak = defence_at(s, k) <= 1 and (post is None or post["level"] == 1)
        if not weak:
            continue
        score = (0 if post is not None and unit is None else 1, args_of(a)["to"], a)
        if best is None or score[:2] < best[:2]:
            best = score
    return best[2] if best is not None else None


# ---------------------------------------------------------------- the plan of one activation


def _keeper(s: State, seat: int) -> str | None:
    """While Oryana is about, one hero of this seat holds the Source and drinks it: the one standing there, else
    the one that gets there soonest (the commander, chosen the toughest, first among equals)."""
    if not _oryana(s):
        return None
    oryana = _card_in_play(s, "oryana")
    if _pushing(s) and oryana is not None and _short(s, oryana) > PUSH_NEAR:
        return None  # she cannot drink her victory in the rounds left: the keeper builds
    heroes = sorted(h for h, hero in s["heroes"].items() if hero["owner"] == seat and hero["at"] is not None)
    if not heroes:
        return None
    on = [h for h in heroes if s["heroes"][h]["at"] == s["source_at"]]
    if on:
        return on[0]
    def rounds(at: str, moves: int) -> int:  # activations to get there, as the crow flies
        return -(-distance(unkey(at), unkey(s["source_at"])) // max(1, moves))
    oryana = _card_in_play(s, "oryana")
    spot = _spot(s, oryana) if oryana is not None else s["source_at"]
    deadline = max(1, rounds(spot, monster_stats(s, oryana)["move"]) if oryana is not None else 1)
    in_time = [h for h in heroes if rounds(hero_tile(s, h), _moves(s, h)) <= deadline]
    if in_time:  # the toughest that gets there before her: a frail keeper is knocked off at her first blow
        return max(in_time, key=lambda h: (hero_defence(s, h), hero_resistance(s, h), h))
    return min(heroes, key=lambda h: (rounds(hero_tile(s, h), _moves(s, h)),
                                      s["players"][seat]["commander"] != h, tuple(-x for x in _toughness(h)), h))


def _build_ok(s: State, seat: int) -> bool:
    """Building is safe unless Helgoth could take this seat's outposts to his victory (PROV-18): never when taking
    all of them would win him the game (measured: his victories in 800 games 10 -> 6), and before round 9 only while
    another player has as many (he targets the player with the most). In the last round he takes one outpost a turn
    at most: safe while he needs more than the turns he has left (he has taken three built on round 10)."""
    mid = _card_in_play(s, "helgoth")
    if mid is None:
        return True
    if s["round"] >= numbers()["rounds"]:  # one outpost a turn at most, and his turns this round are counted
        mon = s["monsters"][mid]
        return mon["at"] is None or _short(s, mid) > MONSTER_TURNS - mon["turns"]
    if s["round"] >= _level().push_from and not _helgoth_blocks(s, mid):
        return True  # he takes one outpost a turn at most: too few turns are left for him to win on them
    mine = sum(1 for p in s["outposts"].values() if p["owner"] == seat)
    most_other = max((sum(1 for p in s["outposts"].values() if p["owner"] == o)
                      for o in range(len(s["players"])) if o != seat), default=0)
    food = sum(1 for p in s["outposts"].values() if p["owner"] != seat) if _level().rivals_posts else 0
    spare = _short(s, mid) - (mine + 1 + food) >= _level().margin  # all of them taken, he still falls short
    if _level().primacy:
        return spare or (_cage_target(s, seat) == mid and ai_cage.caged(s, mid) and s["monsters"][mid]["at"] is not None
                         and ai_cage.shut(s, mid))
    return spare and (mine + 1 <= most_other or s["round"] >= 9)


def _turns_left(s: State, mid: str) -> int:
    """The most turns a monster may still take in the game: what is left of this round's and the later rounds'. One
    in retreat comes back at the start of the round after next (sent away this round) or of the next one."""
    mon = s["monsters"][mid]
    if mon["at"] is None:
        back = s["round"] + (2 if mon["retreat"] == 1 else 1)
        return MONSTER_TURNS * max(0, numbers()["rounds"] - back + 1)
    return MONSTER_TURNS - mon["turns"] + MONSTER_TURNS * (numbers()["rounds"] - s["round"])


def _free_resources(s: State) -> set[str]:
    """Face-up resource tiles with nothing on them: Tijian's targets."""
    return {k for k, t in s["tiles"].items() if t["up"] and t["t"] in RESOURCES and not t["destroyed"]
            and unit_at(s, k) is None and k not in s["outposts"]}


def _plan(s: State, seat: int, hid: str, mv: int, acted: bool, threats: list[tuple[str, int, set[str]]],
          builds_only: bool = False) -> tuple[float, str, tuple[str, str] | None]:
    """The best tile to end on within `mv` steps and the deed to do there: (value, tile, (kind, target))."""
    here = hero_tile(s, hid)
    reach = _reachable(s, seat, hid, mv)
    keeper = _keeper(s, seat) == hid
    prey = _prey(s, seat)
    goals = _goal_tiles(s, seat, hid, keeper, prey)
    goal_dist = _goal_distances(s, seat, hid, goals)
    fit = _fit(s, hid)
    build_ok = _build_ok(s, seat) and not has_rule(hid, "burn_not_build")
    tijian = _card_in_play(s, "tijian") if _tijian_wary(s) else None
    best: tuple[float, str, tuple[str, str] | None] = (-1e9, here, None)
    for k, steps in sorted(reach.items()):
        danger = _danger(s, hid, k, threats)
        pos = -danger * (0.4 if (fit and prey is not None) else 1.0)
        pos -= 1.2 * goal_dist.get(k, 12)
        if keeper and k == s["source_at"]:
            pos += 20.0
        if tijian is not None and k in _free_resources(s) | ({here} if s["tiles"][here]["t"] in RESOURCES else set()):
            tile = s["tiles"][k]
            if tile["up"] and tile["t"] in RESOURCES and not tile["destroyed"] and k not in s["outposts"]:
                pos += 2.0  # standing there denies Tijian the tile
        pos -= 0.05 * steps
        deeds: list[tuple[float, tuple[str, str] | None]] = [(0.0, None)]
        if not acted:
            deeds += [(v, d) for v, d in _deeds(s, seat, hid, k, prey, build_ok)
                      if not builds_only or (d is not None and d[0] == "build")]
        for value, deed in deeds:
            total = pos + value
            if deed is not None and k == here and deed[0] != "attack":
                total += 1.2 * min(mv, goal_dist.get(k, 12))  # acting first leaves the whole walk toward the goal
            if total > best[0] + 1e-9:
                best = (total, k, deed)
    return best


def _deeds(s: State, seat: int, hid: str, k: str, prey: str | None,
           build_ok: bool) -> list[tuple[float, tuple[str, str] | None]]:
    out: list[tuple[float, tuple[str, str] | None]] = []
    tile = s["tiles"][k]
    if k == s["source_at"] and s["source"] > 0:
        value = 4.0 * s["source"]
        if s["round"] >= numbers()["rounds"]:  # the last round: only the pairs it completes are points
            have = int(s["players"][seat]["spirits"])
            value = LAST_POINT * ((have + s["source"]) // 2 - have // 2)
        out.append((value + (6.0 if _oryana(s) else 0.0), ("gather", k)))
    if build_ok and tile["up"] and tile["t"] in RESOURCES and not tile["destroyed"] and k not in s["outposts"] \
            and _can_build(s, seat):
        out.append((9.0, ("build", k)))
    post = s["outposts"].get(k)
    if not _level().primacy and build_ok and post is not None and post["owner"] == seat and post["level"] < 3 \
            and can_pay(s, seat, outpost_stats(post["level"] + 1)["cost"]):
        out.append((6.0, ("upgrade", k)))
    elif _level().primacy and post is not None and post["owner"] == seat and post["level"] < 3 \
            and not has_rule(hid, "burn_not_build") and _affordable(s, seat, outpost_stats(post["level"] + 1)["cost"]):
        out.append((_upgrade_value(s, seat, post["level"]), ("upgrade", k)))
    for beside in adjacent_keys(s, k):
        unit = unit_at(s, beside)
        if unit is None or unit[0] != "monster" or unit == ("hero", hid):
            continue
        value = _attack_value(s, seat, hid, k, unit[1], prey)
        if value > 0:
            out.append((value, ("attack", beside)))
    if _level().raid:
        out += _raids(s, seat, hid, k)
    return out


def _raids(s: State, seat: int, hid: str, k: str) -> list[tuple[float, tuple[str, str] | None]]:
    """Hard: blows at the other players' points from `k`: an outpost on its own (dropped, it is captured: a point
    taken from them and made one's own) or an enemy commander (sent to retreat, a point, RULING-25)."""
    out: list[tuple[float, tuple[str, str] | None]] = []
    for beside in adjacent_keys(s, k):
        unit = unit_at(s, beside)
        post = s["outposts"].get(beside)
        if unit is None and post is not None and post["owner"] != seat:
            left = outpost_stats(post["level"])["resistance"] - post["dmg"]
            worth = RAID_POST
        elif unit is not None and unit[0] == "hero" and s["heroes"][unit[1]]["owner"] != seat \
                and s["players"][s["heroes"][unit[1]]["owner"]]["commander"] == unit[1]:
            left = hero_resistance(s, unit[1]) - s["heroes"][unit[1]]["dmg"]
            worth = RAID_COMMANDER
        else:
            continue
        here = s["heroes"][hid]["at"]
        s["heroes"][hid]["at"] = k
        try:
            dice = hero_attack(s, hid, beside) + flanking(s, hid, beside)
        finally:
            s["heroes"][hid]["at"] = here
        defence = defence_at(s, beside)
        value = worth * chance(dice, defence, max(1, left)) + 0.5 * sum(chance(dice, defence, x)
                                                                        for x in range(1, left + 1))
        if value > RAID_FLOOR:
            out.append((value, ("attack", beside)))
    return out


def _attack_value(s: State, seat: int, hid: str, k: str, mid: str, prey: str | None) -> float:
    """What striking the monster from `k` is worth: the expected damage against what is left of it, much more
    for the hunted monster, a chance to send it to retreat, or to push Oryana off the Source."""
    mon = s["monsters"][mid]
    at = placed(mon["at"])
    here = s["heroes"][hid]["at"]
    s["heroes"][hid]["at"] = k  # the dice as if it stood there (flanking, Arcane Mist)
    try:
        dice = hero_attack(s, hid, at) + flanking(s, hid, at)
    finally:
        s["heroes"][hid]["at"] = here
    dice += 2 * min(2, s["players"][seat]["spirits"])
    defence = defence_at(s, at)
    left = monster_stats(s, mid)["resistance"] - mon["dmg"]
    expect = sum(chance(dice, defence, x) for x in range(1, left + 1))
    finish = chance(dice, defence, left)
    if mon["kind"] == "event":
        return expect + 4.0 * finish
    weight = 1.0
    if mid == prey:
        urge = WALKER_URGE if mon["card"] == "walker" and _fit(s, hid) and not s["solo"] else 0
        weight = 2.0 + max(0, 4 - _short(s, mid) + urge)
    value = weight * (expect + 5.0 * finish)
    if mon["card"] == "oryana" and at == s["source_at"]:
        value += (8.0 + 3.0 * mon["spirits"]) * chance(dice, defence, 2)
    return value


def _tradeable(s: State, seat: int) -> bool:
    res = s["players"][seat]["res"]
    return res["gold"] + (res["wood"] + res["mineral"] + max(0, res["gold"] - 2)) // 3 >= 2 and res["gold"] >= 1


def _goal_tiles(s: State, seat: int, hid: str, keeper: bool, prey: str | None) -> set[str]:
    """Where the hero heads when nothing is in reach: the Source for the keeper, beside the hunted monster for a
    fit hero, else free resource tiles it knows of and the Source while it holds spirits."""
    if keeper:
        return {s["source_at"]}
    if prey is not None and _fit(s, hid):
        return set(adjacent_keys(s, _spot(s, prey)))
    if _oryana(s) and _fit(s, hid) and GUARD:
        return set(adjacent_keys(s, s["source_at"]))  # beside the keeper: flanking dice, Steel Legion's shield
    goals = set()
    rich = _can_build(s, seat) or _tradeable(s, seat)
    if (_build_ok(s, seat) or _pushing(s)) and not has_rule(hid, "burn_not_build"):
        for k, tile in s["tiles"].items():
            kind = _known_type(s, seat, k)
            if kind in RESOURCES and not tile["destroyed"] and k not in s["outposts"] and (tile["up"] or rich):
                goals.add(k)
    if _level().primacy and not has_rule(hid, "burn_not_build"):
        for k, post in s["outposts"].items():
            if post["owner"] == seat and post["level"] < 3 \
                    and _affordable(s, seat, outpost_stats(post["level"] + 1)["cost"]):
                goals.add(k)
    if s["source"] >= 2 or (s["source"] >= 1 and _oryana(s)):
        goals.add(s["source_at"])
    if not goals:
        goals = set(adjacent_keys(s, s["source_at"]))
    return goals


def _goal_distances(s: State, seat: int, hid: str, goals: set[str]) -> dict[str, int]:
    """Steps from every tile to the nearest goal, through tiles the hero would cross (goals always count)."""
    here = s["heroes"][hid]["at"]

    def crossed(_from: str, there: str) -> bool:
        return there == here or _passable(s, seat, hid, there, bold=True, through=True)
    return breadth_first(sorted(goals), lambda k: adjacent_keys(s, k), enter=crossed).dist


def _reachable(s: State, seat: int, hid: str, mv: int) -> dict[str, int]:
    """Tiles the hero can end on this activation and the steps to each (mud and known swamps end the walk)."""
    here = hero_tile(s, hid)
    return breadth_first([here], lambda k: adjacent_keys(s, k),
                         enter=lambda _from, there: _passable(s, seat, hid, there, bold=True),
                         expand=lambda k: k == here or not _stops(s, seat, hid, k), within=mv).dist


def _stops(s: State, seat: int, hid: str, k: str) -> bool:
    kind = _known_type(s, seat, k)
    return bool(type_info(kind).get("stops")) and not has_rule(hid, "speed")


def _first_step(s: State, seat: int, hid: str, target: str, mv: int) -> str | None:
    """The first step of a shortest walk to `target` within the hero's reach."""
    here = hero_tile(s, hid)
    arrived = False

    def goes_on(k: str) -> bool:  # the walk stops once the target is reached (nothing past it matters)
        nonlocal arrived
        arrived = arrived or k == target
        return not arrived and (k == here or not _stops(s, seat, hid, k))
    walked = breadth_first([here], lambda k: sorted(adjacent_keys(s, k)),
                           enter=lambda _from, there: _passable(s, seat, hid, there, bold=True),
                           expand=goes_on, within=mv)
    if target not in walked:
        return None
    k = target
    while (back := walked.parent[k]) is not None and back != here:
        k = back
    return k


# ---------------------------------------------------------------- where to go


def _deploy(s: State, seat: int) -> list[str]:
    return [k for k, t in s["tiles"].items() if t["deploy"] and t["area"] == seat]


def _known_type(s: State, seat: int, k: str) -> str | None:
    tile = s["tiles"][k]
    if tile["up"] or k in s["players"][seat]["known"]:
        return tile["t"]
    return None


def _fit(s: State, hid: str) -> bool:
    """Whether a hero is fresh enough to stand next to a monster: its next hit would not send it away."""
    hero = s["heroes"][hid]
    return hero["at"] is not None and hero["dmg"] * 2 < hero_resistance(s, hid)


def _passable(s: State, seat: int, hid: str, k: str, bold: bool = False, through: bool = False) -> bool:
    """Whether the hero would step on `k`: a face-down tile only when known harmless (or `bold`, in a hurry);
    `through` also counts tiles other units stand on, which will have moved on by the time it gets there."""
    tile = s["tiles"][k]
    if not tile["up"] and tile["t"] is not None:
        kind = _known_type(s, seat, k)
        if kind in RESOURCES and TIJIAN_PEEK and _tijian_wary(s):
            return False  # turned face up it would be Tijian's next prey
        return (kind not in AVOID if kind is not None else bold) and (through or unit_at(s, k) is None)
    if through and unit_at(s, k) is not None:
        post = s["outposts"].get(k)
        return not impassable(s, k) and (post is None or post["owner"] == seat) \
            and (tile["t"] or "") not in ("swamp", "maelstrom")
    return hero_may_enter(s, hid, k) and (tile["t"] or "") not in ("swamp", "maelstrom")


def _dist_from(s: State, starts: Sequence[str | None], target: str | None, goals: set[str] | None = None,
               hid: str | None = None, bold: bool = False) -> int:
    """Steps from `starts` to `target` (or the nearest of `goals`, through tiles the hero may enter)."""
    wanted = goals if goals is not None else {target}
    found: list[str] = []  # the first goal reached: the search goes no further

    def goes_on(k: str) -> bool:
        if not found and k in wanted:
            found.append(k)
        return not found

    def may_cross(_from: str, there: str) -> bool:
        return hid is None or there in wanted or _passable(s, s["heroes"][hid]["owner"], hid, there, bold)
    walked = breadth_first([k for k in starts if k is not None], lambda k: adjacent_keys(s, k), enter=may_cross,
                           expand=goes_on)
    return walked.dist[found[0]] if found else 99
