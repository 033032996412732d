"""Hero Realms computer players: a planning heuristic, a simple greedy policy and a random one."""

from __future__ import annotations

from collections.abc import Sequence

from rules.base import Action
from rules.hero_realms import engine, moves, variants
from rules.hero_realms.cards import CardDef, Effect
from rules.hero_realms.state import Option, PendingDecision, State
from rules.rng import Rng

#: Extra buy value on top of the cost, from how the card tends to play (our own judgement).
BUY_BONUS: dict[str, float] = {
    "fire_bomb": 2, "tyrannor": 2, "arkus": 2, "grak": 1.5, "domination": 1.5, "krythos": 1.5, "rake": 1,
    "command": 1.5, "torgen": 1, "cristov": 1.5, "myros": 2, "parov": 1.5, "varrick": 0.5, "lys": 1,
    "borg": 0.5, "cron": 1, "dire_wolf": 1, "word_of_power": 1, "life_drain": 1, "rampage": 0.5,
    "wolf_form": 1, "kraka": 1, "master_weyan": 1, "rasmus": 1, "broelyn": 1, "dark_energy": 1,
    "deception": 0.5, "hit_job": 1, "elven_curse": 1, "the_rot": 1, "close_ranks": 0.5, "rally_the_troops": 0.5,
    "tithe_priest": 0.5, "death_cultist": 1, "orc_grunt": 1, "man_at_arms": 1, "cult_priest": 0.5,
    "street_thug": 0.5, "wolf_shaman": 0.5, "intimidation": 1, "spark": 1, "death_touch": 1.5,
    "elven_gift": 1, "profit": 1, "taxation": 0.5, "bribe": 1, "influence": 1, "recruit": 0.5,
    "death_threat": 0.5, "smash_and_grab": 0.5, "natures_bounty": 1, "dark_reward": 1, "darian": 0.5,
    "rayla": 0.5,
}
#: How much a card is worth keeping in the deck (sacrifice and discard the cheapest first).
KEEP = {"dagger": 1.0, "gold": 1.5, "shortsword": 2.5, "ruby": 3.5, "fire_gem": 3.0}
EARLY_TURNS = 6
#: A captain moves a card to its emperor when it is worth at least this much (a market card of cost 3+).
PASS_WORTH = 6.0


def _cost(s: State, cid: str) -> int:
    return engine.card_of(s, cid).cost


def _own_turns(s: State) -> int:
    """Roughly how many turns each seat has had."""
    units = len(set(s.team_of)) if variants.VARIANTS[s.variant].team_turns else s.n
    return s.turn_no // units


def _gives(card: CardDef, pool: str) -> bool:
    def walk(effects: Sequence[Effect]) -> bool:
        for eff in effects:
            ((name, arg),) = eff.items()
            if name == pool or (name == "choose" and any(walk(o) for o in arg)):
                return True
        return False

    return any(walk(v) for v in card.abilities.values())


def _owned(s: State, seat: int) -> list[str]:
    p = s.players[seat]
    return p.deck + p.hand + p.discard + p.played + p.champions


def buy_value(s: State, seat: int, key: str) -> float:
    card = engine.CARDS[key]
    early = _own_turns(s) < EARLY_TURNS
    if key == "fire_gem":
        return 2.8 if early else 1.2
    value = card.cost + BUY_BONUS.get(key, 0.0)
    if card.champion:
        value += 0.5 + (0.5 if card.guard else 0)
    if early and _gives(card, "gold"):
        value += 1.5
    if card.faction is not None:
        same = sum(1 for c in _owned(s, seat) if engine.card_of(s, c).faction == card.faction)
        value += 0.5 * min(same, 5)
    return value


def keep_value(s: State, cid: str) -> float:
    key = s.cards[cid]
    if key in KEEP:
        return KEEP[key]
    return 3.0 + engine.card_of(s, cid).cost


def effect_value(s: State, seat: int, effects: Sequence[Effect], source: str | None) -> float:
    """A rough worth of resolving some effects now (gold early, combat, health when low, cards)."""
    p = s.players[seat]
    early = _own_turns(s) < EARLY_TURNS
    low = s.health[s.pool_of[seat]] < 20
    weights = {"gold": 1.3 if early else 0.9, "combat": 1.0, "health": 0.8 if low else 0.35, "draw": 2.0}
    total = 0.0
    for eff in effects:
        ((name, arg),) = eff.items()
        if name in weights:
            total += weights[name] * arg
        elif name == "choose":
            total += max(effect_value(s, seat, o, source) for o in arg)
        elif name in ("per_champion", "per_other_champion", "per_other_guard"):
            ((pool, amount),) = arg.items()
            count = engine._count_for(s, seat, name, arg, source)
            total += weights[pool] * amount * count
        elif name == "per_faction_in_play":
            ((pool, amount),) = arg["gain"].items()
            total += weights[pool] * amount * engine._count_for(s, seat, name, arg, source)
        else:
            total += 1.0
    del p
    return total


# ---------------------------------------------------------------- decisions


def _decide(s: State, seat: int, d: PendingDecision) -> Option:
    options = engine.decision_options(s, d)
    # The answers of each kind are all numbers (choose, draw_count) or all text (cards, "p<seat>", "none").
    numbers = [o for o in options if isinstance(o, int)]
    texts = [o for o in options if isinstance(o, str)]
    kind = d["kind"]
    p = s.players[seat]
    if kind == "choose":
        return max(numbers, key=lambda i: effect_value(s, seat, d["options"][i], d["source"]))
    if kind == "stun":
        targets = [o for o in texts if o != "none"]
        return max(targets, key=lambda c: (engine.card_of(s, c).guard, _cost(s, c))) if targets else "none"
    if kind == "prepare":
        return max(texts, key=lambda c: _cost(s, c))
    if kind == "to_top":
        cards = [o for o in texts if o != "none"]
        best = max(cards, key=lambda c: keep_value(s, c), default=None)
        if best is None or (d["optional"] and keep_value(s, best) < 4):
            return "none"
        return best
    if kind == "draw_count":
        return max(numbers)
    if kind == "discard":
        return min(texts, key=lambda c: keep_value(s, c))
    if kind == "opponent":
        return min(texts, key=lambda o: s.health[s.pool_of[int(o[1:])]])
    if kind == "sacrifice":
        threshold = 2.6 if d["bonus"] else 1.6 if _own_turns(s) >= 4 else 1.2
        cards = [o for o in texts if o != "none"]
        in_discard = [c for c in cards if c in p.discard]
        pool = in_discard or cards
        worst = min(pool, key=lambda c: keep_value(s, c), default=None)
        if worst is None or keep_value(s, worst) > threshold:
            return "none"
        return worst
    if kind == "pass_card":
        cards = [o for o in texts if o != "none" and not o.startswith("deck:")]
        return max(cards, key=lambda c: keep_value(s, c), default="none")
    return options[0]


# ---------------------------------------------------------------- combat


def _effective_health(s: State, target: int) -> int:
    return s.health[s.pool_of[target]]


def _sacrifice_combat(s: State, seat: int) -> tuple[int, list[str]]:
    p = s.players[seat]
    extra, cards = 0, []
    for c in engine.in_play(p):
        for eff in engine.card_of(s, c).abilities.get("sacrifice", ()):
            if "combat" in eff:
                extra += eff["combat"]
                cards.append(c)
    return extra, cards


def _attack_plan(s: State, seat: int) -> Action | None:
    p = s.players[seat]
    combat = p.combat
    if combat <= 0:
        return None
    players = engine.attackable_players(s, seat)
    # Lethal on someone: take it.
    for t in sorted(players, key=lambda o: _effective_health(s, o)):
        if combat >= _effective_health(s, t):
            return Action.of("attack", target=f"p{t}", amount=combat)
    champions = engine.targetable_champions(s, seat)

    def need(c: str) -> int:
        return engine.card_of(s, c).defense - s.damage.get(c, 0)

    # Guards standing between us and an opponent: knock them down, cheapest first.
    blockers = [c for c in champions
                if engine.card_of(s, c).guard and c not in s.players[engine.owner_of(s, c)].expended]
    affordable = [c for c in blockers if need(c) <= combat]
    if not players and affordable:
        best = max(affordable, key=lambda c: (_cost(s, c) - need(c), -need(c)))
        return Action.of("attack", target=best, amount=need(best))
    # Champions worth more than the damage it takes to stun them.
    worth = [c for c in champions if need(c) <= combat and need(c) <= 1.2 * _cost(s, c) + 1]
    if worth and (not players or combat - min(need(c) for c in worth) >= 0):
        best = max(worth, key=lambda c: (_cost(s, c) * 1.3 - need(c), _cost(s, c)))
        if not players or _cost(s, best) >= 3:
            return Action.of("attack", target=best, amount=need(best))
    if players:
        target = min(players, key=lambda o: _effective_health(s, o))
        return Action.of("attack", target=f"p{target}", amount=combat)
    if affordable:
        best = min(affordable, key=lambda c: need(c))
        return Action.of("attack", target=best, amount=need(best))
    return None


def _lethal_with_sacrifices(s: State, seat: int) -> str | None:
    extra, cards = _sacrifice_combat(s, seat)
    if not cards:
        return None
    combat = s.players[seat].combat + extra
    for t in engine.attackable_players(s, seat):
        if combat >= _effective_health(s, t):
            return cards[0]
    return None


# ---------------------------------------------------------------- the policies


#: For each AI level, the share of its buys made at random among the affordable cards instead of to the plan
#: (`/game new ai_level:`): "hard" is the planning heuristic itself.
WILD_BUYS = {"easy": 1.0, "normal": 0.7, "hard": 0.0}


def leveled_action(s: State, seat: int, rng: Rng, level: str = "normal") -> Action:
    """The AI at `level`: the planning heuristic, whose buys are partly ("normal") or all ("easy") made at
    random among the cards it can afford."""
    return smart_action(s, seat, rng, wild=WILD_BUYS.get(level, WILD_BUYS["normal"]))


def _wild_buy(s: State, seat: int, rng: Rng) -> str | None:
    gold = s.players[seat].gold
    options: list[str | None] = [c for c in s.market if _cost(s, c) <= gold]
    if s.gems and engine.CARDS["fire_gem"].cost <= gold:
        options.append("gem")
    return rng.choice(options) if options else None


def smart_action(s: State, seat: int, rng: Rng, wild: float = 0.0) -> Action:
    """The planning heuristic: play everything, use abilities in a good order, buy to a plan, fight well; a
    `wild` share of its buys goes to a random affordable card instead (weaker levels)."""
    d = engine.pending_of(s, seat)
    if d is not None:
        return Action.of("choose", option=_decide(s, seat, d))
    p = s.players[seat]
    if p.hand:
        return Action.of("play_all") if len(p.hand) > 1 else Action.of("play", card=p.hand[0])
    ready = [c for c in p.champions if c not in p.expended and "expend" in engine.card_of(s, c).abilities]
    if ready:
        best = max(ready, key=lambda c: (_gives(engine.card_of(s, c), "draw"), effect_value(
            s, seat, engine.card_of(s, c).abilities["expend"], c)))
        return Action.of("expend", card=best)
    for c in engine.in_play(p):
        if not engine.ally_ready(s, seat, c):
            continue
        effects = engine.card_of(s, c).abilities["ally"]
        if any("prepare_champion" in e for e in effects) and not p.expended:
            continue
        if any("stun_target_champion" in e for e in effects) and not engine.targetable_champions(s, seat):
            continue
        return Action.of("ally", card=c)
    if p.gold > 0:
        choice = _wild_buy(s, seat, rng) if wild and rng.below(1000) < wild * 1000 else _best_buy(s, seat)
        if choice is not None:
            return Action.of("buy", card=choice)
        teamwork = _share(s, seat)
        if teamwork is not None:
            return teamwork
    sac = _lethal_with_sacrifices(s, seat)
    if sac is not None:
        return Action.of("sacrifice", card=sac)
    holding = moves.can_wait(s, seat)
    plan = _lethal_or_finish(s, seat)
    if plan is None and not holding:
        plan = _attack_plan(s, seat)
    if plan is None and not holding:
        plan = _pooled_attack(s, seat)
    if plan is not None:
        return plan
    if holding:
        # Keep the combat for after the teammates still playing: they may wound a champion we then finish,
        # and they may give us gold.
        return Action.of("wait")
    return Action.of("end_turn")


# ---------------------------------------------------------------- playing as a team


def _share(s: State, seat: int) -> Action | None:
    """Gold the AI cannot spend well goes to a teammate still playing (Hydra, teams of three); in the
    emperor variant a captain pays its last gold to move its best card to its emperor's discard pile."""
    p = s.players[seat]
    playing = [t for t in variants.teammates(s, seat) if moves.acting(s, t)]
    if variants.VARIANTS[s.variant].team_turns and playing:
        to = max(playing, key=lambda t: (s.players[t].gold, -t))
        return Action.of("give_gold", to=to, amount=p.gold)
    if s.variant == "emperor" and s.roles[seat] == "captain":
        emperors = [t for t in moves.adjacent_teammates(s, seat) if s.roles[t] == "emperor"]
        worth = [c for c in p.discard if keep_value(s, c) >= PASS_WORTH]
        if emperors and worth:
            return Action.of("pass_card", card=max(worth, key=lambda c: keep_value(s, c)), to=emperors[0])
    return None


def _lethal_or_finish(s: State, seat: int) -> Action | None:
    """While teammates still play: only a killing blow, or finishing a champion someone already wounded."""
    combat = s.players[seat].combat
    if combat <= 0:
        return None
    for t in engine.attackable_players(s, seat):
        if combat >= _effective_health(s, t):
            return Action.of("attack", target=f"p{t}", amount=combat)
    wounded = [c for c in engine.targetable_champions(s, seat)
               if s.damage.get(c, 0) > 0 and engine.card_of(s, c).defense - s.damage[c] <= combat]
    if wounded:
        best = max(wounded, key=lambda c: (engine.card_of(s, c).guard, _cost(s, c)))
        return Action.of("attack", target=best, amount=engine.card_of(s, best).defense - s.damage[best])
    return None


def _pooled_attack(s: State, seat: int) -> Action | None:
    """Last to play in a shared turn, with a guard too strong alone: wound it so that a waiting teammate's
    combat finishes it."""
    if not variants.VARIANTS[s.variant].team_turns or engine.attackable_players(s, seat):
        return None
    combat = s.players[seat].combat
    waiting = sum(s.players[t].combat for t in variants.teammates(s, seat) if t in s.active and s.players[t].waiting)
    if combat <= 0 or not waiting:
        return None
    guards = [c for c in engine.targetable_champions(s, seat) if engine.card_of(s, c).guard]
    reachable = [c for c in guards if combat < engine.card_of(s, c).defense - s.damage.get(c, 0) <= combat + waiting]
    if not reachable:
        return None
    best = min(reachable, key=lambda c: engine.card_of(s, c).defense - s.damage.get(c, 0))
    return Action.of("attack", target=best, amount=combat)


def _best_buy(s: State, seat: int) -> str | None:
    gold = s.players[seat].gold
    options = [c for c in s.market if _cost(s, c) <= gold]
    scored = [(buy_value(s, seat, s.cards[c]), c) for c in options]
    if s.gems and engine.CARDS["fire_gem"].cost <= gold:
        scored.append((buy_value(s, seat, "fire_gem"), "gem"))
    if not scored:
        return None
    value, choice = max(scored)
    return choice if value >= 1.0 else None


def simple_action(s: State, seat: int, rng: Rng) -> Action:
    """A greedy baseline: first option, play all, every ability, most expensive buy, hit the player."""
    d = engine.pending_of(s, seat)
    if d is not None:
        return Action.of("choose", option=engine.decision_options(s, d)[0])
    p = s.players[seat]
    if p.hand:
        return Action.of("play_all") if len(p.hand) > 1 else Action.of("play", card=p.hand[0])
    for c in p.champions:
        if c not in p.expended and "expend" in engine.card_of(s, c).abilities:
            return Action.of("expend", card=c)
    for c in engine.in_play(p):
        if engine.ally_ready(s, seat, c):
            return Action.of("ally", card=c)
    affordable = [c for c in s.market if _cost(s, c) <= p.gold]
    if affordable:
        return Action.of("buy", card=max(affordable, key=lambda c: _cost(s, c)))
    if s.gems and p.gold >= engine.CARDS["fire_gem"].cost:
        return Action.of("buy", card="gem")
    if p.combat > 0:
        players = engine.attackable_players(s, seat)
        if players:
            return Action.of("attack", target=f"p{players[0]}", amount=p.combat)
        for c in engine.targetable_champions(s, seat):
            need = engine.card_of(s, c).defense - s.damage.get(c, 0)
            if need <= p.combat:
                return Action.of("attack", target=c, amount=need)
    return Action.of("end_turn")


def random_action(s: State, seat: int, rng: Rng) -> Action:
    """A uniformly random legal action (for measuring the other policies)."""
    pending = engine.pending_of(s, seat)
    legal = moves.main_actions(s, seat) if pending is None else moves.decision_actions(s, pending)
    return rng.choice(legal).action
