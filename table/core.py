"""The table's ground floor: its memory, loading a game under the channel's lock, and plain state helpers."""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractContextManager, asynccontextmanager
from typing import Any

from rules import registry
from rules.base import Action, Game, apply_logged
from rules.text import msg
from storage import GameRow, Mismatch, SeatRow, StorageError, Store, StoredState, VersionConflict
from table import engines
from table.languages import Languages
from table.memory import DEFAULT_CACHED_GAMES, GameLocks, StateCache
from table.pacing import Pacing
from table.results import Inspection, NoGame, Report, StaleAction, TableError
from table.rows import CommandRows, after_commit

LOG_PAGE_LINES = 15
AI_STEP_LIMIT = 3000
DEFAULT_REMINDER_MINUTES = 12 * 60
DEFAULT_IDLE_HOURS = 48
#: A snapshot is stored at the first turn boundary after this many log rows, and always after SNAPSHOT_MAX. Loads
#: read the stored head, so snapshots only bound the replays of an upgrade check and of older databases.
SNAPSHOT_EVERY = 96
SNAPSHOT_MAX = 192
MAX_TIMER_MINUTES = 7 * 24 * 60
TIMEOUT_STEPS = 50
#: How long a process holds a due time-out it claimed; one that died mid-way is taken over after this.
TIMEOUT_LEASE_SECONDS = 60.0
#: An uploaded set-up is stored once, compressed; beyond this it is refused.
MAX_SETUP_BYTES = 256 * 1024
#: The languages a table may speak (`/game settings language:`).
LANGUAGES = ("es", "en")

log = logging.getLogger("tabletop.table")


class TableCore(Languages):
    """What every room of the table shares: its memory, loading, and writing a game's row (a base of `Table`)."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] | None = None, cache_size: int = DEFAULT_CACHED_GAMES,
                 shards: tuple[Iterable[int], int] | None = None, previews: bool = True,
                 defer_auto: bool = False) -> None:
        self.store = store
        #: Whether games still being built (`Game.in_progress`) may be started here.
        self.previews = previews
        #: Whether `act` leaves the AI seats' and the game's own moves that follow a person's move to `resume`, so
        #: the person is answered before the bots think (the bot does; tests and tools play through at once).
        self.defer_auto = defer_auto
        self.clock = clock
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self.shards = None if shards is None else (tuple(shards[0]), shards[1])
        self._cache = StateCache(cache_size)
        self._locks = GameLocks()
        self._langs: OrderedDict[int, str] = OrderedDict()
        #: Games whose automatic moves stopped early (storage trouble, another process); retried by resume.
        self._pending: set[int] = set()
        #: Who holds a time-out claimed by this table (one per process), so another process never plays it too.
        self._owner = secrets.token_hex(8)
        #: The bots' and the game's own steps (`resume`) take turns, so they never queue up before a person's command.
        self.pacing = Pacing()
        #: Games whose automated steps `resume` is playing now, step by step (a person's move meanwhile does not
        #: play them inside its own command).
        self._resuming: set[int] = set()
        #: The game rows read during the command being handled (`command`).
        self._rows = CommandRows()

    # ---------------------------------------------------------------- loading

    def command(self) -> AbstractContextManager[None]:
        """One person's command or click (opened by the cogs' guard): every table call it makes reads the
        channel's game row once, as long as nothing in this process changes the game meanwhile, and the row its
        move leaves serves what is shown after it. Outside a command every call reads storage."""
        return self._rows.scope()

    def _kept(self, row: GameRow | None) -> GameRow | None:
        """A row this command read that still stands for the stored one: a running game whose newest state in
        this process is that row's version (every change this process makes moves or drops it). A change by
        another process meanwhile is caught by the version check of the next commit, as between any load and
        commit."""
        if row is not None and row.status == "active" and self._cache.holds(row.id, row.version):
            return row
        return None

    async def _open_row(self, channel_id: int) -> GameRow | None:
        """The channel's open game: the row this command read already, else from storage."""
        row = self._kept(self._rows.by_channel(channel_id))
        if row is None:
            row = await self.store.open_game(channel_id)
            if row is not None:
                self._rows.keep(row)
        return row

    async def _open_in(self, channel_id: int) -> GameRow:
        row = await self._open_row(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        return row

    def _engine(self, game_type: str) -> Game:
        game = registry.get(game_type)
        if game is None:
            raise TableError(msg("core.error.unknown_game", game=game_type, valid=self._valid_games()))
        return game

    def offered_games(self) -> dict[str, Game]:
        """The games players may start here, by id (games still being built only when previews are on)."""
        return {k: g for k, g in registry.games().items() if self.previews or not g.in_progress}

    def _valid_games(self) -> str:
        return ", ".join(sorted(self.offered_games())) or "-"

    async def _load(self, row: GameRow) -> Inspection:
        game = self._engine(row.game_type)
        if row.status == "lobby":
            return Inspection(row, game, await self.store.seats(row.id), None)
        cached = self._cache.get(row.id, row.version)
        if cached is not None:
            return Inspection(row, game, cached.seats, cached.state, cached.engine, cached.chain)
        seats = await self.store.seats(row.id)
        stored = await self._stored(row.id, row.version)
        state = await self._rebuild(game, row.id, row.version, stored)
        engine = stored.engine
        if stored.engine is not None and stored.engine != engines.engine_version(game):
            await self._check_upgrade(row, game, stored)
        self._cache.put(row.id, row.version, state, seats, engine=engine, chain=stored.chain)
        return Inspection(row, game, seats, state, engine, stored.chain)

    async def _stored(self, game_id: int, version: int, *, heads: bool = True) -> StoredState:
        stored = await self.store.stored_state(game_id, version, heads=heads)
        if stored is None:
            raise NoGame(msg("core.error.no_game"))
        return stored

    async def _rebuild(self, game: Game, game_id: int, version: int, stored: StoredState | None = None) -> Any:
        """The state at `version`: the stored head (the state players saw) or the nearest snapshot, then the log
        rows after it applied again."""
        stored = stored or await self._stored(game_id, version)
        data = stored.snapshot if stored.static is None else {**stored.static, **stored.snapshot}
        state = game.from_json(data)
        for entry in stored.actions:
            if entry.kind == "undo":  # every undo row has its own snapshot and head; kept for older databases
                state = await self._rebuild(game, game_id, entry.state_of)
            elif entry.action is not None and entry.seat is not None:
                state = apply_logged(game, state, entry.seat, Action.from_json(entry.action)).state
        return state

    async def _check_upgrade(self, row: GameRow, game: Game, stored: StoredState) -> None:
        """The game's head was saved by another engine version: replay its log from the nearest snapshot with
        today's engine and record a difference for the operator. The head wins either way; players see nothing."""
        try:
            replay = await self._stored(row.id, stored.snapshot_version, heads=False)
        except NoGame:
            return
        base = replay.snapshot if replay.static is None else {**replay.static, **replay.snapshot}
        detail = engines.check_replay(game, stored.snapshot, base, replay.actions)
        if detail is None:
            return
        mismatch = Mismatch(row.id, game.id, stored.snapshot_version, stored.engine or "", engines.engine_version(game),
                            detail, self.clock())
        try:
            if await self.store.record_mismatch(mismatch):
                engines.warn(mismatch)
        except StorageError as exc:  # a database that cannot take the record now: say so, and play on
            log.warning("cannot record the replay mismatch of game %s: %s", row.id, exc)

    @asynccontextmanager
    async def _session(self, channel_id: int) -> AsyncIterator[Inspection]:
        """The channel's open game loaded under the channel's lock (the row this command read, if nothing in this
        process changed the game since): one version seen and changed. The row it leaves is kept for the rest of
        the command when it is the stored one (unchanged, or changed by the table's own commits)."""
        async with self._locks.hold(channel_id):
            loaded = await self._load(await self._open_in(channel_id))
            read = loaded.row.version
            try:
                yield loaded
            except BaseException:
                self._rows.forget(channel_id)
                raise
            if loaded.row.version in (read, loaded.settled):
                self._rows.keep(loaded.row)
            else:
                self._rows.forget(channel_id)

    def _settle(self, loaded: Inspection, now: float, *, new_turn: bool) -> None:
        """After one of the table's commits (the version, status, snapshot, deadline and time-out already set on
        `loaded.row`): the rest of what the commit wrote, so that the row is the stored one."""
        after_commit(loaded.row, now, new_turn=new_turn)
        loaded.settled = loaded.row.version

    async def _reload(self, game_id: int) -> GameRow:
        row = self._kept(self._rows.by_id(game_id)) or await self.store.game(game_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        return row

    async def game_for(self, channel_id: int) -> GameRow | None:
        return await self._open_row(channel_id)

    async def inspect(self, game_id: int) -> Inspection:
        """A game's row, engine, seats and current state, for tools and tests (read-only)."""
        return await self._load(await self._reload(game_id))

    async def seat_names(self, game_id: int) -> dict[int, str]:
        row = self._kept(self._rows.by_id(game_id))
        cached = self._cache.get(row.id, row.version) if row is not None else None
        seats = cached.seats if cached is not None else await self.store.seats(game_id)
        return {s.seat: s.name for s in seats}

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        return await self.store.guild_settings(guild_id)

    async def _set_seats(self, loaded: Inspection, seats: list[SeatRow]) -> int:
        try:
            return await self.store.set_seats(loaded.row.id, loaded.row.version, seats, self.clock())
        except VersionConflict as exc:
            raise StaleAction(msg("core.error.conflict")) from exc

    async def _bump(self, row: GameRow, **fields: Any) -> int:
        try:
            return await self.store.bump(row.id, row.version, self.clock(), **fields)
        except VersionConflict as exc:
            raise StaleAction(msg("core.error.conflict")) from exc

    def _report(self, loaded: Inspection, version: int, status: str, seats: list[SeatRow]) -> Report:
        return Report(loaded.row.id, loaded.row.game_type, version, status,
                      seat_names={s.seat: s.name for s in seats}, channel_id=loaded.row.channel_id,
                      guild_id=loaded.row.guild_id,
                      user_names={s.user_id: s.name for s in seats if s.kind == "human" and s.user_id is not None})

    async def _idle_hours(self, row: GameRow) -> int:
        settings = await self.store.guild_settings(row.guild_id)
        return int(settings.get("idle_hours", DEFAULT_IDLE_HOURS))


def _turn_json(game: Game, state: Any) -> str:
    """A state's turn key as stored (JSON), so a turn kept in the database compares with today's."""
    return json.dumps(game.turn_key(state), default=str)


def _initial_state(game: Game, row: GameRow, seats: int, setup: dict[str, Any] | None) -> Any:
    if setup is not None:
        return game.new_with_setup(setup, row.options, seats, row.seed)
    return game.new(row.options, seats, row.seed)


def _split(game: Game, state: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A state's JSON as (changing part, unchanging part): the unchanging part is stored once per game."""
    data = dict(game.to_json(state))  # a game may give its state's JSON as a read-only Mapping (a TypedDict)
    static = {k: data.pop(k) for k in game.static_keys if k in data}
    return data, static
