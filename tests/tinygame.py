"""A tiny card game used only by tests to exercise the stack: hidden hands, draws, undo, AI."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.base import Action, BadOptions, Event, Game, IllegalAction, LegalAction, OptionSpec, Outcome, Scalar, Step
from rules.rng import Rng
from rules.text import Lit, msg

# Catalog keys are resolved by i18n only if present; tests read the keys, not the text.


@dataclass
class TinyState:
    seats: int
    rng: int
    deck: list[str]
    values: dict[str, int]
    hands: list[list[str]]
    table: list[list[str]]
    turn: int = 0
    played: bool = False
    target: int = 12
    log: list[dict[str, Any]] = field(default_factory=list)


class TinyGame(Game):
    id = "tiny"
    name_key = "core.help.title"
    min_seats = 1
    max_seats = 4
    supports_ai = True

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("target", msg("core.help.title"), 12, low=3, high=60)]

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> TinyState:
        rng = Rng.from_seed(seed)
        ids = [f"k{i}" for i in range(18)]
        values = {cid: (i % 9) + 1 for i, cid in enumerate(ids)}
        deck = list(ids)
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(2)] for _ in range(seats)]
        return TinyState(seats, rng.state, deck, values, hands, [[] for _ in range(seats)],
                         target=int(options.get("target", 12)))

    def to_act(self, state: TinyState) -> frozenset[int]:
        return frozenset() if self.outcome(state) else frozenset({state.turn})

    def legal_actions(self, state: TinyState, seat: int) -> list[LegalAction]:
        if seat not in self.to_act(state):
            return []
        if state.played:
            return [LegalAction(Action.of("end"), msg("core.button.end"))]
        return [LegalAction(Action.of("play", card=c), msg("core.log.start")) for c in state.hands[seat]]

    def apply(self, state: TinyState, seat: int, action: Action) -> Step:
        if not self.is_legal(state, seat, action):
            raise IllegalAction(msg("core.error.illegal", valid="play/end"))
        new = self.copy_state(state)
        if action.kind == "play":
            card = action["card"]
            new.hands[seat].remove(card)
            new.table[seat].append(card)
            new.played = True
            return Step(new, [Event(msg("core.log.start", card=card))], undoable=True)
        events = [Event(msg("core.log.start", seat=seat))]
        if new.deck:
            rng = Rng(new.rng)
            if len(new.deck) > 1 and rng.below(4) == 0:
                rng.shuffle(new.deck)
            new.rng = rng.state
            card = new.deck.pop()
            new.hands[seat].append(card)
            events.append(Event(msg("core.log.start", card=card), to=frozenset({seat})))
        new.played = False
        new.turn = (new.turn + 1) % new.seats
        for _ in range(new.seats):
            if new.hands[new.turn]:
                break
            new.turn = (new.turn + 1) % new.seats
        return Step(new, events, undoable=False)

    def score(self, state: TinyState, seat: int) -> int:
        return sum(state.values[c] for c in state.table[seat])

    def outcome(self, state: TinyState) -> Outcome | None:
        scores = [self.score(state, s) for s in range(state.seats)]
        over = max(scores) >= state.target or not any(state.hands)
        if not over or state.played:
            return None
        best = max(scores)
        return Outcome(frozenset(s for s in range(state.seats) if scores[s] == best), msg("core.log.start"))

    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "deck": len(state.deck),
            "hands": [len(h) for h in state.hands],
            "table": [[[c, state.values[c]] for c in t] for t in state.table],
            "scores": [self.score(state, s) for s in range(state.seats)],
            "hand": [] if seat is None else [[c, state.values[c]] for c in state.hands[seat]],
            "name": Lit("Mini", "Tiny").en,
        }

    def to_json(self, state: TinyState) -> dict[str, Any]:
        return {"seats": state.seats, "rng": state.rng, "deck": state.deck, "values": state.values,
                "hands": state.hands, "table": state.table, "turn": state.turn, "played": state.played,
                "target": state.target}

    def from_json(self, data: Mapping[str, Any]) -> TinyState:
        return TinyState(data["seats"], data["rng"], list(data["deck"]), dict(data["values"]),
                         [list(h) for h in data["hands"]], [list(t) for t in data["table"]], data["turn"],
                         data["played"], data["target"])

    def secret_tokens(self, state: TinyState) -> dict[str, frozenset[int]]:
        tokens = {c: frozenset({s}) for s, hand in enumerate(state.hands) for c in hand}
        tokens.update({c: frozenset() for c in state.deck})
        return tokens

    def check_invariants(self, state: TinyState) -> list[str]:
        total = len(state.deck) + sum(map(len, state.hands)) + sum(map(len, state.table))
        return [] if total == 18 else [f"cards: {total} != 18"]

    def ai_action(self, state: TinyState, seat: int, rng: Rng, level: str = "normal") -> Action:
        return rng.choice(self.legal_actions(state, seat)).action

    def skip_action(self, state: TinyState, seat: int) -> Action | None:
        return self.legal_actions(state, seat)[0].action

    def setup_from_upload(self, data: bytes, filename: str) -> dict[str, Any]:
        """Test uploads: `slow` never finishes, `boom` crashes, `bad` is refused, `big` is huge, else accepted."""
        if data.startswith(b"slow"):
            while True:
                pass
        if data.startswith(b"boom"):
            raise RuntimeError("the checker itself broke")
        if data.startswith(b"bad"):
            raise BadOptions(msg("core.error.no_upload"))
        if data.startswith(b"big"):
            return {"junk": [hashlib.sha256(str(i).encode()).hexdigest() for i in range(20_000)]}
        return {"title": {"es": "Archivo", "en": "File"}, "warnings": [msg("core.nobody").to_json()],
                "note": data.decode("utf-8", "replace")[:100]}


TINY = TinyGame()
