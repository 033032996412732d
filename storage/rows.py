"""The plain values and errors the store hands to the table: no SQL and no driver types."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class StorageError(Exception):
    """The database cannot be used; `reason` is one line saying what to do (start-up checks)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full: the transaction was rolled back."""


class StorageUnavailable(StorageError):
    """The database refused the write (read-only, gone, connection lost): nothing was changed."""


class VersionConflict(Exception):
    """Someone else changed the game first (two clicks at once, a stale button, another process)."""


class ChannelBusy(Exception):
    """The channel already has a game in the lobby or running."""


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_type: str
    options: dict[str, Any]
    seed: int
    status: str
    creator_id: int
    version: int
    extra: dict[str, Any]
    created_at: float
    updated_at: float
    turn_started_at: float | None
    reminded_at: float | None
    idle_offered_at: float | None
    #: The version of the newest snapshot (the state is that snapshot plus the log after it).
    snapshot_version: int = 0
    #: When the seat(s) on turn run out of time (a turn timer or a decision's window); None: no timer.
    deadline_at: float | None = None
    #: A time-out under way (already announced): its deadline, its late seats and how far each got; None: none.
    timeout: dict[str, Any] | None = None


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    kind: str
    name: str


@dataclass
class ActionRow:
    version: int
    kind: str
    seat: int | None
    user_id: int | None
    action: dict[str, Any] | None
    undoable: bool
    turn_before: str | None
    state_of: int
    created_at: float


@dataclass(frozen=True)
class LogLine:
    """One line of a game's log: a message (JSON form) and the seats allowed to read it (None: all)."""

    msg: Mapping[str, Any]
    to: frozenset[int] | None = None

    @property
    def mask(self) -> int | None:
        return None if self.to is None else sum(1 << s for s in self.to)


@dataclass
class Head:
    """The state players see after a commit (its changing part), stamped with the engine version that made it,
    and the earlier states an undo within the turn may return to: stored whole, so no upgrade can change them."""

    engine: str
    state: dict[str, Any]
    #: States of earlier versions that `undo` may restore now, by version (empty once the turn moves on).
    chain: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass
class Commit:
    """One accepted change: a log row, its log lines and, where it pays, the resulting snapshot."""

    kind: str
    seat: int | None = None
    user_id: int | None = None
    action: Mapping[str, Any] | None = None
    lines: list[LogLine] = field(default_factory=list)
    undoable: bool = False
    turn_before: str | None = None
    #: For undo rows: the version whose state this restores. None: this row's own version.
    state_of: int | None = None
    #: The state's changing part, stored as a snapshot; None when this version needs none.
    snapshot: dict[str, Any] | None = None
    #: The state after this commit, overwriting the game's one stored head; None leaves the head as it was.
    head: Head | None = None


@dataclass
class StoredState:
    """What rebuilding a game's state needs: the nearest snapshot at or before a version, and the log after it."""

    snapshot_version: int
    snapshot: dict[str, Any]
    static: dict[str, Any] | None
    actions: list[ActionRow]
    #: The engine version that saved the base state when it is a stored head (None: a sparse snapshot).
    engine: str | None = None
    #: The undo chain stored with the head (versions an undo may restore), for the next commit to carry on.
    chain: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Mismatch:
    """A replay under today's engine that did not give the state players saw (recorded, never applied)."""

    game_id: int
    game_type: str
    version: int
    engine_then: str
    engine_now: str
    detail: str
    found_at: float
