"""The Hero Realms game state: per-player zones and pools, the shared market, pending decisions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NotRequired, Required, TypedDict, cast

from rules.hero_realms.cards import Effect
from rules.text import MsgJson

#: How many recent public events the state keeps for views.
LOG_SIZE = 8

#: An answer to a pending decision: a card id, "p<seat>" (an opponent), "deck:<card key>" (a card of the deck, by
#: name), "none", or a number (an option's index, how many cards to draw).
Option = int | str


class PendingDecision(TypedDict, total=False):
    """A decision a seat must answer, as JSON (never changed in place: an answer that leaves more to decide pushes
    a new dict). `source` is the card whose effect asked (None: the rules asked) and `rest` the effects still to
    resolve once it is answered; the other keys belong to some kinds only."""

    seat: Required[int]
    #: choose, stun, prepare, to_top, draw_count, discard, opponent, sacrifice or pass_card.
    kind: Required[str]
    source: Required[str | None]
    rest: Required[list[Effect]]
    #: choose: the effect lists to pick one of.
    options: list[list[Effect]]
    #: stun, to_top: whether "none" is an answer.
    optional: bool
    #: to_top: which discarded cards may go on top ("any" or "champion").
    filter: str
    #: discard: cards still to discard; opponent: cards the chosen opponent will owe.
    count: int
    #: draw_count: the most cards that may be drawn.
    up_to: int
    #: sacrifice: cards that may still be sacrificed, and how many were.
    left: int
    done: int
    #: sacrifice: the effects earned when at least one card was sacrificed.
    bonus: list[Effect]


class PlayerJson(TypedDict):
    """A `Player` as stored (sets as sorted lists)."""

    deck: list[str]
    hand: list[str]
    discard: list[str]
    played: list[str]
    champions: list[str]
    expended: list[str]
    allies_used: list[str]
    gold: int
    combat: int
    owed_discards: int
    next_action_top: bool
    next_card_top: bool
    next_card_hand: bool
    eliminated: bool
    done: bool
    #: Missing in games stored before shared turns could wait (read as False).
    waiting: NotRequired[bool]


class StateJson(TypedDict):
    """A `State` as stored (the RNG's state as a decimal string)."""

    variant: str
    cards: dict[str, str]
    players: list[PlayerJson]
    team_of: list[int]
    pool_of: list[int]
    health: list[int]
    roles: list[str]
    market_deck: list[str]
    market: list[str]
    gems: list[str]
    sacrificed: list[str]
    damage: dict[str, int]
    active: list[int]
    turn_no: int
    pending: list[PendingDecision]
    log: list[MsgJson]
    eliminated_order: list[int]
    winners: list[int] | None
    rng: str


@dataclass(slots=True)
class Player:
    """One seat's cards (lists of instance ids; a deck's top is its last element) and turn pools."""

    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    #: Actions and items played this turn.
    played: list[str] = field(default_factory=list)
    champions: list[str] = field(default_factory=list)
    expended: set[str] = field(default_factory=set)
    allies_used: set[str] = field(default_factory=set)
    gold: int = 0
    combat: int = 0
    owed_discards: int = 0
    next_action_top: bool = False
    next_card_top: bool = False
    next_card_hand: bool = False
    eliminated: bool = False
    done: bool = False
    #: In a shared turn: holding its moves until a teammate still playing ends or gives it gold.
    waiting: bool = False

    def copy(self) -> Player:
        return Player(
            self.deck[:], self.hand[:], self.discard[:], self.played[:], self.champions[:],
            set(self.expended), set(self.allies_used), self.gold, self.combat, self.owed_discards,
            self.next_action_top, self.next_card_top, self.next_card_hand, self.eliminated, self.done,
            self.waiting,
        )

    def to_json(self) -> PlayerJson:
        return {
            "deck": self.deck, "hand": self.hand, "discard": self.discard, "played": self.played,
            "champions": self.champions, "expended": sorted(self.expended),
            "allies_used": sorted(self.allies_used), "gold": self.gold, "combat": self.combat,
            "owed_discards": self.owed_discards, "next_action_top": self.next_action_top,
            "next_card_top": self.next_card_top, "next_card_hand": self.next_card_hand,
            "eliminated": self.eliminated, "done": self.done, "waiting": self.waiting,
        }

    @staticmethod
    def from_json(d: PlayerJson) -> Player:
        return Player(
            list(d["deck"]), list(d["hand"]), list(d["discard"]), list(d["played"]), list(d["champions"]),
            set(d["expended"]), set(d["allies_used"]), int(d["gold"]), int(d["combat"]),
            int(d["owed_discards"]), bool(d["next_action_top"]), bool(d["next_card_top"]),
            bool(d["next_card_hand"]), bool(d["eliminated"]), bool(d["done"]), bool(d.get("waiting", False)),
        )


@dataclass(slots=True)
class State:
    """Everything about one game. `cards` (instance id -> card key) never changes after set-up."""

    variant: str
    cards: dict[str, str]
    players: list[Player]
    #: Team index of each seat (free-for-all: every seat its own team).
    team_of: list[int]
    #: Health pool index of each seat (shared by a team in Hydra and teams of three).
    pool_of: list[int]
    health: list[int]
    #: "player", "emperor" or "captain".
    roles: list[str]
    market_deck: list[str]
    market: list[str]
    gems: list[str]
    sacrificed: list[str]
    #: Damage dealt this turn to champions, by instance id.
    damage: dict[str, int]
    #: Seats taking the current turn (one seat, or a team in shared-turn variants).
    active: list[int]
    turn_no: int
    #: Pending decisions (JSON-able dicts, never mutated in place), at most one per seat.
    pending: list[PendingDecision]
    log: list[MsgJson]
    eliminated_order: list[int]
    winners: list[int] | None
    rng: int

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def seats(self) -> int:
        return len(self.players)

    def copy(self) -> State:
        return State(
            self.variant, self.cards, [p.copy() for p in self.players], self.team_of, self.pool_of,
            self.health[:], self.roles, self.market_deck[:], self.market[:], self.gems[:],
            self.sacrificed[:], dict(self.damage), self.active[:], self.turn_no, self.pending[:],
            self.log[:], self.eliminated_order[:], None if self.winners is None else self.winners[:],
            self.rng,
        )

    def to_json(self) -> StateJson:
        return {
            "variant": self.variant, "cards": dict(self.cards), "players": [p.to_json() for p in self.players],
            "team_of": list(self.team_of), "pool_of": list(self.pool_of), "health": list(self.health),
            "roles": list(self.roles), "market_deck": list(self.market_deck), "market": list(self.market),
            "gems": list(self.gems), "sacrificed": list(self.sacrificed), "damage": dict(self.damage),
            "active": list(self.active), "turn_no": self.turn_no, "pending": [p.copy() for p in self.pending],
            "log": list(self.log), "eliminated_order": list(self.eliminated_order),
            "winners": None if self.winners is None else list(self.winners), "rng": str(self.rng),
        }

    @staticmethod
    def from_json(data: Mapping[str, object]) -> State:
        """A state read back from storage: stored by `to_json`, so it has that shape (not checked again here)."""
        d = cast(StateJson, data)
        return State(
            str(d["variant"]), dict(d["cards"]), [Player.from_json(p) for p in d["players"]],
            list(d["team_of"]), list(d["pool_of"]), list(d["health"]), list(d["roles"]),
            list(d["market_deck"]), list(d["market"]), list(d["gems"]), list(d["sacrificed"]),
            {k: int(v) for k, v in d["damage"].items()}, list(d["active"]), int(d["turn_no"]),
            [PendingDecision(**p) for p in d["pending"]], list(d["log"]), list(d["eliminated_order"]),
            None if d["winners"] is None else list(d["winners"]), int(d["rng"]),
        )
