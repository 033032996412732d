"""Replays and spectators: a game's turns rebuilt from its stored log as one viewer saw them; Discord-free."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import registry
from rules.base import Action, apply_logged
from rules.text import msg
from storage import GameRow, SeatRow
from table.results import Inspection, NoGame, NotSeated, TableError, Who
from table.service import Table

#: A game of at most this many moves is replayed move by move; a longer one turn by turn.
STEP_GAME_MOVES = 40
#: The most frames one animation draws: beyond this the turns are sampled evenly (the caption says so). Each
#: frame costs a full board drawing (about 0.1 s here), which is what keeps a 500-move game under 10 s.
MAX_FRAMES = 30
#: The blob that holds a table's spectator choice (no version bump: the game's buttons stay valid).
SPECTATORS_BLOB = "spectators"


@dataclass(frozen=True)
class ReplaySource:
    """Everything a game's replay is rebuilt from, as plain data (it is sent to a worker process)."""

    game_type: str
    game_id: int
    version: int
    #: The full state JSON stored when the game started (its unchanging part merged in).
    start: dict[str, Any]
    static: dict[str, Any] | None
    #: The log after the start: (version, kind, seat, action JSON, version whose state it restores).
    rows: list[tuple[int, str, int | None, dict[str, Any] | None, int]]
    #: The snapshot stored with each undo row (the state it went back to), by the undo row's version.
    undo_states: dict[int, dict[str, Any]]
    #: Every log line: (version, seats allowed to read it or None for everyone, message JSON).
    lines: list[tuple[int, frozenset[int] | None, dict[str, Any]]]
    names: dict[int, str]


@dataclass(frozen=True)
class Turn:
    """One frame of a replay: the view after a turn (or a move, in a short game) and what was said in it."""

    number: int
    version: int
    view: dict[str, Any]
    #: The log lines this viewer could read during the turn (message JSON), oldest first.
    lines: tuple[dict[str, Any], ...]


@dataclass
class Timeline:
    """A game as one viewer saw it: turn 0 is the start, then one entry per turn (or per move)."""

    game_type: str
    game_id: int
    version: int
    viewer: int | None
    per_move: bool
    moves: int
    finished: bool
    names: dict[int, str]
    turns: list[Turn] = field(default_factory=list)

    @property
    def last(self) -> int:
        return self.turns[-1].number if self.turns else 0


@dataclass(frozen=True)
class Selection:
    """The turns an animation shows: the asked range, and the frames drawn from it (sampled when long)."""

    first: int
    last: int
    total: int
    numbers: tuple[int, ...]

    @property
    def sampled(self) -> bool:
        return len(self.numbers) < self.last - self.first + 1


def build_timeline(source: ReplaySource, viewer: int | None) -> Timeline:
    """The game's turns as `viewer` (a seat, or None for the public) saw them; pure and deterministic, so two
    games that differ only in what this viewer could not see give equal timelines."""
    game = registry.get(source.game_type)
    if game is None:
        raise ValueError(source.game_type)
    state = game.from_json(source.start)
    moves = sum(1 for row in source.rows if row[3] is not None and row[1] != "undo")
    per_move = moves <= STEP_GAME_MOVES
    said: dict[int, list[dict[str, Any]]] = {}
    for version, seats, line in source.lines:
        if seats is None or (viewer is not None and viewer in seats):
            said.setdefault(version, []).append(line)
    first_version = source.rows[0][0] - 1 if source.rows else source.version
    timeline = Timeline(source.game_type, source.game_id, source.version, viewer, per_move, moves,
                        False, dict(source.names))
    pending: list[dict[str, Any]] = [*said.get(first_version, [])]
    timeline.turns.append(Turn(0, first_version, game.view(state, viewer), tuple(pending)))
    pending = []
    turn_key = game.turn_key(state)
    for version, kind, seat, action, _ in source.rows:
        if kind == "undo":
            data = source.undo_states[version]
            state = game.from_json(data if source.static is None else {**source.static, **data})
        elif action is not None and seat is not None:
            state = apply_logged(game, state, seat, Action.from_json(action)).state
        pending.extend(said.get(version, []))
        key = game.turn_key(state)
        over = game.outcome(state) is not None
        if per_move or key != turn_key or over or version == source.version:
            if per_move and action is None and kind != "undo" and not over and version != source.version:
                continue  # a seat changing hands moves nothing: its lines go with the next move
            timeline.turns.append(Turn(len(timeline.turns), version, game.view(state, viewer), tuple(pending)))
            pending = []
            turn_key = key
    timeline.finished = game.outcome(state) is not None
    return timeline


def select(timeline: Timeline, first: int | None, last: int | None, limit: int = MAX_FRAMES) -> Selection:
    """The frames of turns `first`..`last` (defaults: the whole game), at most `limit`, evenly spread and always
    with both ends; raises a refusal naming the valid range when the range is empty or outside the game."""
    total = timeline.last
    low = 0 if first is None else first
    high = total if last is None else last
    if not (0 <= low <= high <= total):
        raise TableError(msg("rp.error.range", last=total))
    span = high - low + 1
    if span <= limit:
        numbers = tuple(range(low, high + 1))
    else:
        numbers = tuple(sorted({low + round(i * (span - 1) / (limit - 1)) for i in range(limit)}))
    return Selection(low, high, total, numbers)


def spectators_allowed(setting: dict[str, Any] | None) -> bool:
    return not (setting and setting.get("off"))


class Replays:
    """What a replay or a spectator may be shown of a game, for one table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def target(self, channel_id: int, guild_id: int | None, who: Who, game_id: int | None = None
                     ) -> tuple[GameRow, list[SeatRow]]:
        """The game a replay is asked of: by its number (a game of this server), else the channel's running game,
        else its last one. Refused: a lobby, another server's game, and a running game whose table turned
        spectators off, for whoever is not seated at it."""
        store = self.table.store
        if game_id is not None:
            row = await store.game(game_id) if isinstance(game_id, int) and 0 < game_id < 1 << 62 else None
            if row is None or (row.guild_id or 0) != (guild_id or 0):
                raise NoGame(msg("rp.error.no_such_game", number=game_id if isinstance(game_id, int) else 0))
        else:
            row = await store.open_game(channel_id) or await store.last_game(channel_id)
            if row is None:
                raise NoGame(msg("core.error.no_game"))
        if row.status == "lobby" or await store.started_at(row.id) is None:
            raise TableError(msg("rp.error.not_started"))
        seats = await store.seats(row.id)
        if row.status == "active" and _seated(seats, who.user_id) is None and not await self.spectators_on(row.id):
            raise NotSeated(msg("rp.error.spectators_off"))
        return row, seats

    async def source(self, row: GameRow, seats: list[SeatRow], version: int | None = None) -> ReplaySource:
        """The stored log of a game up to `version` (default: now), ready to rebuild."""
        store = self.table.store
        upto = row.version if version is None else min(version, row.version)
        rows = [r for r in await store.actions(row.id) if r.version <= upto]
        start = next((r for r in rows if r.kind == "start"), None)
        if start is None:
            raise TableError(msg("rp.error.not_started"))
        snapshot = await store.snapshot(row.id, start.version)
        static = await store.blob(row.id, "static")
        if snapshot is None:
            raise NoGame(msg("core.error.no_game"))
        after = [r for r in rows if r.version > start.version]
        undo_states: dict[int, dict[str, Any]] = {}
        for entry in after:
            if entry.kind == "undo":
                stored = await store.snapshot(row.id, entry.version)
                if stored is None:  # an old undo row without its own snapshot: rebuilt like the table does
                    stored = await self._state_json(row, entry.state_of)
                undo_states[entry.version] = stored
        lines = [line for line in await store.lines(row.id, after=start.version - 1) if line[0] <= upto]
        return ReplaySource(
            row.game_type, row.id, upto, snapshot if static is None else {**static, **snapshot}, static,
            [(r.version, r.kind, r.seat, r.action, r.state_of) for r in after], undo_states, lines,
            {s.seat: s.name for s in seats})

    async def _state_json(self, row: GameRow, version: int) -> dict[str, Any]:
        game = registry.get(row.game_type)
        if game is None:
            raise NoGame(msg("core.error.no_game"))
        state = await self.table._rebuild(game, row.id, version)
        data = game.to_json(state)
        return {k: v for k, v in data.items() if k not in game.static_keys}

    async def private_seat(self, row: GameRow, seats: list[SeatRow], who: Who) -> int:
        """The seat whose private replay this person may see: theirs, once the game is finished."""
        seat = _seated(seats, who.user_id)
        if seat is None:
            raise NotSeated(msg("rp.error.mine_not_seated"))
        if row.status != "finished":
            raise TableError(msg("rp.error.mine_not_finished"))
        return seat

    # ---------------------------------------------------------------- spectators

    async def spectators_on(self, game_id: int) -> bool:
        return spectators_allowed(await self.table.store.blob(game_id, SPECTATORS_BLOB))

    async def spectate(self, channel_id: int, who: Who) -> tuple[Inspection, dict[str, Any]]:
        """The public view of the channel's running game for someone not seated at it (refused when the
        table turned spectators off)."""
        row = await self.table.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        if row.status == "lobby":
            raise TableError(msg("core.error.not_started"))
        seats = await self.table.store.seats(row.id)
        if _seated(seats, who.user_id) is None and not await self.spectators_on(row.id):
            raise NotSeated(msg("rp.error.spectators_off"))
        loaded = await self.table.inspect(row.id)
        return loaded, loaded.game.view(loaded.state, None)

    async def set_spectators(self, channel_id: int, who: Who, on: bool | None) -> bool:
        """Turn spectators on or off at the channel's table (a seated player, or someone who manages the
        channel); None only reads the setting. Returns whether spectators are welcome now."""
        row = await self.table.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        if on is None:
            return await self.spectators_on(row.id)
        seats = await self.table.store.seats(row.id)
        if _seated(seats, who.user_id) is None and not who.can_manage:
            raise TableError(msg("rp.error.spectators_forbidden"))
        await self.table.store.put_blob(row.id, SPECTATORS_BLOB, {"off": not on})
        return on


def _seated(seats: list[SeatRow], user_id: int) -> int | None:
    return next((s.seat for s in seats if s.kind == "human" and s.user_id == user_id), None)


__all__ = ["MAX_FRAMES", "ReplaySource", "Replays", "Selection", "Timeline", "Turn", "build_timeline", "select"]
