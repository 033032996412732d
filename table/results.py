"""What the table hands back to cogs, local play and tests: plain values, no Discord types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.base import Game, RuleError
from rules.text import Msg
from storage import GameRow, SeatRow


@dataclass(frozen=True)
class Who:
    """The person asking: their id, display name and whether they may manage the channel/thread."""

    user_id: int
    name: str
    can_manage: bool = False
    #: The language of their Discord client ("es" or "en"), remembered for what reaches them later by DM.
    lang: str | None = None


class TableError(RuleError):
    """A refusal by the table (no game here, not seated, stale button...), with a localized reason."""

    code = "table"


class StaleAction(TableError):
    code = "stale"


class NotSeated(TableError):
    code = "not_seated"


class NoGame(TableError):
    code = "no_game"


@dataclass
class Report:
    """The outcome of one request, ready to be turned into messages by a cog."""

    game_id: int
    game_type: str
    version: int
    status: str
    #: Lines for everyone in the channel.
    public: list[Msg] = field(default_factory=list)
    #: Lines for one user only (ephemeral or DM), by user id.
    private: dict[int, list[Msg]] = field(default_factory=dict)
    #: Users to ping because it is now their turn.
    mention: list[int] = field(default_factory=list)
    #: The public view to render as the board image, when the board changed.
    board: dict[str, Any] | None = None
    #: Users whose private view (hand, secret map) changed, with that view.
    private_views: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Users who get their private view by DM whenever the turn moves on (e.g. a game master's map).
    watch: list[int] = field(default_factory=list)
    #: Whether any action in this report passed the turn on.
    turn_changed: bool = False
    #: Seat number to display name, to resolve `SeatRef` in messages.
    seat_names: dict[int, str] = field(default_factory=dict)
    #: Each seated person's display name, for a line about them that must not ping them.
    user_names: dict[int, str] = field(default_factory=dict)
    finished: bool = False
    #: The language each concerned user last used, for messages that reach them outside their own command.
    langs: dict[int, str] = field(default_factory=dict)
    channel_id: int = 0
    guild_id: int | None = None
    #: Whether the newest move may be taken back by its player (no draw, roll or reveal; same turn).
    can_undo: bool = False
    #: When the seats on turn run out of time (a turn timer or a decision's window), as a Unix time.
    deadline: float | None = None
    #: Buttons for the public turn message, from the engine (None: the game's Discord UI decides).
    quick: list[tuple[Msg, Any]] | None = None
    #: Index in `public` where the first turn change of this report happened: lines before it close the previous
    #: turn's message, the rest (AI turns, the game's own steps, the new turn) open the next one.
    turn_start: int | None = None
    #: Public lines addressed to one person (a decision prompt, a time-out notice): shown in the channel with a
    #: mention, in that person's language.
    addressed: list[tuple[int, Msg]] = field(default_factory=list)
    #: Seats the game stopped waiting for at some step of this report: if it waits for them again at the end,
    #: that is a new wait, announced anew.
    left_wait: set[int] = field(default_factory=set)
    #: Whether the game itself or an AI seat is to move next and was left for `Table.resume`, so that the person
    #: who acted is answered first (a table made with `defer_auto`).
    pending_auto: bool = False
    #: Users whose private lines in this report need no DM of their own: what the table played for them when their
    #: time ran out (their log keeps it, and their next turn's DM shows where they stand).
    quiet_private: set[int] = field(default_factory=set)
    #: When the seats now awaited started waiting, as a Unix time (None when unknown).
    waiting_since: float | None = None

    def add_private(self, user_id: int, line: Msg) -> None:
        self.private.setdefault(user_id, []).append(line)


@dataclass
class Inspection:
    """A game as the table loaded it: its row, engine, seats and current state (None in the lobby)."""

    row: GameRow
    game: Game
    seats: list[SeatRow]
    state: Any | None
    #: The engine version that saved this state (None: rebuilt from a snapshot, or not saved yet).
    engine: str | None = None
    #: Earlier states (JSON) that an undo within this turn may restore, by version; stored with the head.
    chain: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: The version whose row the table's own commit left as stored (see `Table._settle`); None: none yet.
    settled: int | None = None

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.kind == "human" and s.user_id == user_id:
                return s.seat
        return None

    def seats_of(self, user_id: int) -> list[int]:
        """Every seat this person holds (a solo player may run several)."""
        return [s.seat for s in self.seats if s.kind == "human" and s.user_id == user_id]

    def user_of(self, seat: int) -> int | None:
        for s in self.seats:
            if s.seat == seat and s.kind == "human":
                return s.user_id
        return None

    def names(self) -> dict[int, str]:
        return {s.seat: s.name for s in self.seats}

    def ai_seats(self) -> set[int]:
        return {s.seat for s in self.seats if s.kind == "ai"}


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    game_type: str
    channel_id: int
    status: str
    players: tuple[str, ...]
    waiting_for: tuple[str, ...]
    updated_at: float


@dataclass(frozen=True)
class LogPage:
    game_id: int
    page: int
    pages: int
    lines: tuple[tuple[int, Msg], ...]
    seat_names: dict[int, str]


@dataclass(frozen=True)
class Reminder:
    """A play-by-post nudge: `kind` is "reminder" (ping the absent players) or "idle" (offer a skip)."""

    game_id: int
    game_type: str
    channel_id: int
    guild_id: int | None
    kind: str
    user_ids: tuple[int, ...]
    seats: tuple[int, ...]
    version: int
    seat_names: dict[int, str]
