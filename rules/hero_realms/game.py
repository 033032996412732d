"""The Hero Realms `Game`: set-up, the contract methods, secrets, invariants and AI hooks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rules.base import (
    Action,
    BadOptions,
    Game,
    GameOver,
    IllegalAction,
    LegalAction,
    NotYourTurn,
    OptionSpec,
    Outcome,
    RuleError,
    Scalar,
    Step,
    View,
)
from rules.hero_realms import engine, moves, variants
from rules.hero_realms.ai import leveled_action, random_action, simple_action
from rules.hero_realms.cards import STARTING_DECK, market_keys
from rules.hero_realms.invariants import check_invariants
from rules.hero_realms.state import Player, State, StateJson
from rules.hero_realms.views import view
from rules.rng import Rng
from rules.text import Msg, SeatRef, msg

MARKET_ROW = 5
GEMS = 16


def _resolve_variant(options: Mapping[str, Scalar]) -> str:
    variant = str(options.get("variant", variants.DEFAULT_VARIANT))
    if variant not in variants.VARIANTS:
        raise BadOptions(msg("core.error.option_choice", option="variant", valid=", ".join(variants.VARIANTS)))
    return variant


class HeroRealms(Game[State]):
    id = "hero-realms"
    kind_names = "hr.kind."
    name_key = "hr.name"
    min_seats = 2
    max_seats = 6
    supports_ai = True

    def options(self) -> Sequence[OptionSpec]:
        return (
            OptionSpec("variant", msg("hr.opt.variant"), variants.DEFAULT_VARIANT,
                       tuple((k, msg(f"hr.variant.{k}")) for k in variants.VARIANTS)),
        )

    def seat_role(self, options: Mapping[str, Scalar], seat: int) -> str:
        if _resolve_variant(options) == "emperor":
            return "emperor" if seat in variants.EMPEROR_SEATS else "captain"
        return "player"

    def seat_range(self, options: Mapping[str, Scalar]) -> tuple[int, int]:
        v = variants.VARIANTS[_resolve_variant(options)]
        return (v.low, v.high)

    def check_seats(self, options: Mapping[str, Scalar], seats: int) -> None:
        variant = _resolve_variant(options)
        low, high = self.seat_range(options)
        if not low <= seats <= high:
            raise BadOptions(msg("hr.err.seats", variant=msg(f"hr.variant.{variant}"), low=low, high=high))

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> State:
        self.check_seats(options, seats)
        variant = _resolve_variant(options)
        rng = Rng.from_seed(seed)
        cards: dict[str, str] = {}

        def make(key: str) -> str:
            cid = f"c{len(cards) + 1:03d}"
            cards[cid] = key
            return cid

        players = []
        for _ in range(seats):
            deck = [make(k) for k, n in STARTING_DECK.items() for _ in range(n)]
            rng.shuffle(deck)
            players.append(Player(deck=deck))
        market_deck = [make(k) for k in market_keys()]
        rng.shuffle(market_deck)
        market = [market_deck.pop() for _ in range(MARKET_ROW)]
        gems = [make("fire_gem") for _ in range(GEMS)]
        # "Se echa a suertes el jugador que iniciará la partida" (in team variants, the team).
        first = rng.below(variants.first_choices(variant, seats))
        team_of, pool_of, health, roles, hands = variants.layout(variant, seats, first)
        for p, size in zip(players, hands, strict=True):
            p.hand = [p.deck.pop() for _ in range(size)]
        state = State(variant, cards, players, team_of, pool_of, health, roles, market_deck, market, gems, [],
                      {}, [], 0, [], [], [], None, rng.state)
        ctx = engine.Ctx(state)
        engine.start_turn(ctx, variants.first_seats(variant, seats, first))
        ctx.finish()
        return state

    def step_name(self, path: tuple[str, ...], token: str, moves: Sequence[LegalAction]) -> Msg | None:
        """An attack's amount comes before its target in the move's words: it is named as combat spent."""
        arg, _, value = token.partition("=")
        if path and arg == "amount" and value.startswith("#"):
            return msg("hr.step.amount", n=int(value[1:]))
        return super().step_name(path, token, moves)

    def quick_actions(self, state: State) -> list[tuple[Msg, Action]]:
        """Play all, one attack when only one health pool can be hit, and End turn: from the legal moves."""
        if self.outcome(state) is not None:
            return []
        out: list[tuple[Msg, Action]] = []
        ends = False
        for seat in sorted(self.to_act(state)):
            legal = [la.action for la in self.legal_actions(state, seat)]
            if Action.of("play_all") in legal and (msg("hr.bot.button.play_all"), Action.of("play_all")) not in out:
                out.append((msg("hr.bot.button.play_all"), Action.of("play_all")))
            attacks = [a for a in legal if a.kind == "attack" and str(a["target"]).startswith("p")]
            pools = {state.pool_of[int(str(a["target"])[1:])] for a in attacks}
            if len(pools) == 1:
                biggest = max(attacks, key=lambda a: int(a["amount"]))
                if all(biggest != quick for _, quick in out):
                    out.append((msg("hr.bot.button.attack", n=int(biggest["amount"])), biggest))
            ends = ends or Action.of("end_turn") in legal
        if ends:
            out.append((msg("hr.bot.button.end"), Action.of("end_turn")))
        return out[:8]

    def seat_count(self, state: State) -> int:
        return len(state.players)

    def to_act(self, state: State) -> frozenset[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        if seat not in moves.to_act(state):
            return []
        d = engine.pending_of(state, seat)
        if d is not None:
            return moves.decision_actions(state, d)
        return moves.main_actions(state, seat)

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        try:
            moves.check(state, seat, action)
        except RuleError:
            return False
        return True

    def apply(self, state: State, seat: int, action: Action) -> Step:
        decision = moves.check(state, seat, action)
        s = state.copy()
        if decision is not None:
            decision = s.pending[state.pending.index(decision)]
        ctx = engine.Ctx(s)
        moves.perform(ctx, seat, action, decision)
        ctx.finish()
        return Step(s, ctx.events, not ctx.hidden)

    def view(self, state: State, seat: int | None) -> View:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.winners is None:
            return None
        winners = list(state.winners)
        others = [o for o in range(state.n) if o not in winners and o not in state.eliminated_order]
        losers = [o for o in reversed(state.eliminated_order) if o not in winners]
        ranking = winners + others + losers
        # The win itself was just announced (hr.ev.won_*): the summary adds the final standing.
        places = []
        teams = variants.VARIANTS[state.variant].team_size > 0
        units: list[int] = []  # a team shares its place in team variants
        for seat in ranking:
            unit = state.team_of[seat] if teams else seat
            if unit not in units:
                units.append(unit)
        for seat in ranking:
            shown = units.index(state.team_of[seat] if teams else seat) + 1
            if state.players[seat].eliminated:
                places.append(msg("hr.standing.out", place=shown, seat=SeatRef(seat)))
            else:
                places.append(msg("hr.standing.alive", place=shown, seat=SeatRef(seat),
                                  health=max(0, state.health[state.pool_of[seat]])))
        return Outcome(frozenset(winners), msg("hr.outcome", standing=moves.label_list(places)), tuple(ranking))

    def resign(self, state: State, seat: int) -> Step | None:
        """Resigning eliminates the player, by the variant's rules for an elimination; the last side standing
        wins."""
        if state.winners is not None or not 0 <= seat < state.n:
            return None
        if state.players[seat].eliminated:
            raise IllegalAction(msg("core.resign.error.out"))
        s = state.copy()
        ctx = engine.Ctx(s)
        engine.resign(ctx, seat)
        ctx.finish()
        return Step(s, ctx.events, False)

    def final_figures(self, state: State) -> list[Msg]:
        """Turns played, then each player's health left (or the order they went out in) and cards owned."""
        lines = [msg("hr.figures.turns", n=state.turn_no)]
        for seat, p in enumerate(state.players):
            cards = len(p.deck) + len(p.hand) + len(p.discard) + len(p.played) + len(p.champions)
            if p.eliminated:
                lines.append(msg("hr.figures.out", seat=SeatRef(seat), order=state.eliminated_order.index(seat) + 1,
                                 cards=cards))
            else:
                lines.append(msg("hr.figures.alive", seat=SeatRef(seat),
                                 health=max(0, state.health[state.pool_of[seat]]), cards=cards))
        return lines

    def record_figures(self, state: State) -> dict[int, dict[str, int]]:
        """Turns played (a winner's turns to win) and the health each player had left (0 once out)."""
        return {seat: {"turns": state.turn_no,
                       "health": 0 if p.eliminated else max(0, state.health[state.pool_of[seat]])}
                for seat, p in enumerate(state.players)}

    def record_teams(self, state: State) -> list[list[int]] | None:
        if variants.VARIANTS[state.variant].team_size <= 0:
            return None
        sides: dict[int, list[int]] = {}
        for seat in range(state.n):
            sides.setdefault(state.team_of[seat], []).append(seat)
        return list(sides.values())

    def to_json(self, state: State) -> StateJson:
        return state.to_json()

    def from_json(self, data: Mapping[str, object]) -> State:
        return State.from_json(dict(data))

    def copy_state(self, state: State) -> State:
        return state.copy()

    def turn_key(self, state: State) -> int:
        return state.turn_no

    def secret_tokens(self, state: State) -> Mapping[str, frozenset[int]]:
        out: dict[str, frozenset[int]] = {}
        nobody: frozenset[int] = frozenset()
        for seat, p in enumerate(state.players):
            owner = frozenset({seat})
            for c in p.hand:
                out[c] = owner
            for c in p.deck:
                out[c] = nobody
        for c in state.market_deck:
            out[c] = nobody
        return out

    def check_invariants(self, state: State) -> list[str]:
        return check_invariants(state)

    def skip_action(self, state: State, seat: int) -> Action | None:
        if seat not in moves.to_act(state):
            return None
        d = engine.pending_of(state, seat)
        if d is not None:
            return moves.decision_actions(state, d)[0].action
        return Action.of("end_turn")

    def ai_action(self, state: State, seat: int, rng: Rng, level: str = "normal") -> Action:
        return self._ai(state, seat, rng, lambda s, seat, rng: leveled_action(s, seat, rng, level))

    def ai_action_simple(self, state: State, seat: int, rng: Rng) -> Action:
        """A greedy baseline policy, for measuring `ai_action`."""
        return self._ai(state, seat, rng, simple_action)

    def ai_action_random(self, state: State, seat: int, rng: Rng) -> Action:
        """A uniformly random legal action."""
        return self._ai(state, seat, rng, random_action)

    def _ai(self, state: State, seat: int, rng: Rng, policy: Callable[[State, int, Rng], Action]) -> Action:
        if state.winners is not None:
            raise GameOver(msg("hr.err.game_over"))
        if seat not in moves.to_act(state):
            raise NotYourTurn(msg("hr.err.not_your_turn"))
        return policy(state, seat, rng)
