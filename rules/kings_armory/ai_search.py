"""A bounded look-ahead for the hard AI while a boss is on the board: each of a few candidate moves is played out
on copies of the game to the start of the next allies' round (the rest of this round with the hard policy, then
the enemy turn) and the move whose copies end best is taken.

Fair play: a copy never keeps what the seat cannot see. Before a copy is played out its hidden parts are
re-sampled from the search's own generator (determinization): the game's dice stream (`rng_state`), the order of
the monster piles, the gold coins, the boss pile and the equipment, reinforcement and Armory decks are replaced by
draws of this search, so the decision depends only on what is on the table (and the team's own cards) and on the
seat's generator. Every candidate is played out against the same samples (the same dice and draws), so they differ
only by the move.

The budget is counted in steps (moves and enemy steps applied on the copies), never in time: the same state and
generator always give the same move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rules.base import SYSTEM, Action, LegalAction, Step
from rules.kings_armory import armory, enemy, figures, queries
from rules.kings_armory import round as allies_round
from rules.kings_armory.shapes import Monster, State
from rules.rng import Rng

#: The policy played on the copies: (state, seat) -> its move (the hard AI without the search).
Policy = Callable[[State, int], Action]


class Engine(Protocol):
    """What the search needs of the game (`rules.kings_armory.GAME`, handed in: the rules modules never import
    the game object)."""

    def to_act(self, state: State) -> frozenset[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]: ...

    def apply(self, state: State, seat: int, action: Action) -> Step: ...


@dataclass(frozen=True)
class Budget:
    """How much the search may look: `samples` determinizations, each candidate played out on every one of them,
    at most `steps` steps in all (split evenly between the play-outs; a play-out that runs out is scored where it
    stands)."""

    samples: int = 2
    steps: int = 240
    #: How much better (in `score`'s points, on average over the samples) another move must end than the first
    #: candidate (the level's own move) to be taken instead: a few samples of dice are noisy.
    margin: float = 10.0


#: Seats of hidden order: the lists a player cannot see the order (or the content) of.
HIDDEN_LISTS = ("coins", "boss_pile", "gear_deck", "rdeck", "adeck")
#: Weights of the score of a copy (see `score`).
GATE_WEIGHT = 4.0
BOSS_WEIGHT = 2.0
HERO_DOWN = 30.0
CHAMPION_DOWN = 8.0
#: The score of a game won or lost on the copy (beyond any position's).
DECIDED = 10_000.0


def determinize(state: State, rng: Rng) -> State:
    """A copy of `state` whose hidden parts (the dice stream, every deck's and pile's order) are drawn from `rng`:
    what the seat does not know is replaced by one guess of it."""
    sim = queries.clone(state)
    sim["rng_state"] = rng.next_u64()
    for pile in sim["piles"].values():  # sorted first: the order the seat cannot see never shows through
        pile.sort()
        rng.shuffle(pile)
    for key in HIDDEN_LISTS:
        items = sim.get(key)
        if isinstance(items, list):
            items.sort()
            rng.shuffle(items)
    return sim


def advance(engine: Engine, state: State, seat: int, action: Action) -> State:
    """`action` (a listed legal move of `seat`, or the game's own step) applied to `state` IN PLACE (the state
    returned), as `Game.apply` applies it in the allies' round and the enemy turn, without checking it again or
    keeping the log: the copies' fast path. Moves of other phases go through `Game.apply` (a new state returned)."""
    rng = Rng(state["rng_state"])
    if seat == SYSTEM:
        if not armory.open_window(state, []):
            enemy.step(state, rng, [])
    elif action.kind in armory.CARD_KINDS:
        armory.card_apply(state, rng, [], seat, action)
    elif action.kind in armory.WINDOW_KINDS:
        armory.hold_apply(state, [], seat, action)
    elif state["reroll"] is not None:
        allies_round.answer_reroll(state, rng, [], action)
    elif state["ask"] is not None and action.kind in ("block", "pass"):
        ask = state["ask"]
        state["ask"] = None
        act = state["act"]
        mon = queries.monster(state, ask["mid"])
        assert act is not None and mon is not None
        if action.kind == "block":
            enemy.block(state, queries.ally(state, ask["ally"]), mon)
        else:
            act["passed"].append(ask["ally"])
    elif state["phase"] == "allies" and action.kind not in (*armory.GEAR_KINDS, *armory.TRADE_ANSWERS, "order"):
        allies_round.apply(state, rng, [], seat, action)
    else:  # the rest, checked (never met in a boss round's play-out)
        return engine.apply(state, seat, action).state
    state["rng_state"] = rng.state
    return state


def to_move(engine: Engine, state: State) -> int | None:
    """Who moves next on a copy: the lowest seat asked (the game's own step is SYSTEM), None when nobody does."""
    seats = engine.to_act(state)
    return min(seats) if seats else None


def play_out(engine: Engine, state: State, policy: Policy, steps: int) -> State:
    """Plays the copy (in place, as far as `advance` does) to the start of the next allies' round (or the game's
    end, or the end of the allies' and enemy phases), at most `steps` steps."""
    start = state["eturn"]
    for _ in range(steps):
        if state["result"] is not None or state["phase"] not in ("allies", "enemy") \
                or (state["phase"] == "allies" and state["eturn"] > start):
            break
        seat = to_move(engine, state)
        if seat is None:
            break
        state = advance(engine, state, seat, Action.of("step") if seat == SYSTEM else policy(state, seat))
    return state


def score(state: State) -> float:
    """How well a copy stands: the Gate's HP (x4), the heroes' and champions' HP (a hero down -30, a champion
    -8), less the monsters' HP weighted by how near the Gate they are (1 at the entrance to 3 at the exit; a
    boss's counted twice), less what their Burn and Bleed tokens will still take; a game won or lost on the copy
    beyond any of that."""
    if state["result"] is not None:
        return DECIDED if state["result"] == "won" else -DECIDED + state["gate"]
    b = queries.board_of(state)
    value = GATE_WEIGHT * state["gate"]
    for a in state["allies"]:
        if a["kind"] == "hero":
            value += -HERO_DOWN if a["ko"] else a["hp"]
        else:
            value += -CHAMPION_DOWN if a["ko"] else 0.5 * a["hp"]
    for m in state["monsters"]:
        lane = b.lanes[m["lane"]]
        urgency = 1 + 2 * m["i"] / max(1, len(lane) - 1)
        value -= (BOSS_WEIGHT if m["boss"] else 1.0) * urgency * max(0.0, m["hp"] - _burning(state, m))
    return value


def _burning(state: State, m: Monster) -> float:
    """The HP its Burn and Bleed tokens will still take off `m` (they never wear off): one a token for each turn
    it has left (a boss: its walk to the exit and 3 turns there; another monster: at most 3), as `ai` counts them."""
    tokens = m["st"]["burn"] + m["st"]["bleed"]
    if not tokens:
        return 0.0
    left = queries.board_of(state).route_left(m["lane"], m["i"])
    walk = left / max(1, figures.monster_mv(m))
    return tokens * (walk + 3 if m["boss"] else min(3.0, walk))


def best(engine: Engine, state: State, seat: int, candidates: list[Action], policy: Policy, rng: Rng,
         budget: Budget = Budget()) -> Action:
    """The candidate whose play-outs score best on average, if it beats the first one (the default) by
    `budget.margin`; else the first. Draws from `rng` once (its fork seeds the samples)."""
    if len(candidates) < 2:
        return candidates[0]
    totals = evaluate(engine, state, seat, candidates, policy, rng.fork(), budget)
    top = max(totals)
    if top - totals[0] <= budget.margin * budget.samples:
        return candidates[0]
    return candidates[totals.index(top)]


def evaluate(engine: Engine, state: State, seat: int, candidates: list[Action], policy: Policy, rng: Rng,
             budget: Budget = Budget()) -> list[float]:
    """Each candidate's summed score over `budget.samples` play-outs, the samples drawn from `rng` (the same
    samples for every candidate)."""
    seeds = [rng.next_u64() for _ in range(budget.samples)]
    each = max(1, budget.steps // (len(candidates) * budget.samples))
    totals = []
    for action in candidates:
        total = 0.0
        for seed in seeds:
            sim = advance(engine, determinize(state, Rng(seed)), seat, action)
            total += score(play_out(engine, sim, policy, each - 1))
        totals.append(total)
    return totals


def boss_round(state: State) -> bool:
    """Whether the search is worth its cost: the allies' round with a boss on the board, an ally acting and no
    question pending."""
    return state["phase"] == "allies" and state["active"] is not None and state["ask"] is None \
        and state["reroll"] is None and state["window"] is None and any(m["boss"] for m in state["monsters"])

