"""The table: lobby, seats, turns, permissions, undo, AI seats, reminders; Discord-free."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, ParamSpec, TypeVar

from rules import registry
from rules.base import (
    SYSTEM,
    Action,
    BadOptions,
    Choice,
    Event,
    Game,
    GameOver,
    IllegalAction,
    LegalAction,
    NotYourTurn,
    OptionSpec,
    RuleError,
    Step,
    apply_logged,
    choices_from_legal,
)
from rules.rng import Rng
from rules.text import Lit, Msg, SeatRef, msg
from storage import (
    ActionRow,
    ChannelBusy,
    Commit,
    GameRow,
    Head,
    LogLine,
    Mismatch,
    SeatRow,
    StorageError,
    StorageFull,
    Store,
    StoredState,
    VersionConflict,
)
from storage.store import KEEP, pack
from table import ai_levels, engines, records, summary, uploads
from table.memory import DEFAULT_CACHED_GAMES, GameLocks, StateCache
from table.pacing import Pacing
from table.results import (
    GameSummary,
    Inspection,
    LogPage,
    NoGame,
    NotSeated,
    Reminder,
    Report,
    StaleAction,
    TableError,
    Who,
)

LOG_PAGE_LINES = 15
AI_STEP_LIMIT = 3000
DEFAULT_REMINDER_MINUTES = 12 * 60
DEFAULT_IDLE_HOURS = 48
AI_NAMES = ("Ada", "Bernat", "Carmen", "Dario", "Elena", "Fausto", "Gala", "Hugo", "Irene", "Jordi", "Lola",
            "Marco")
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
_LANG_MEMORY = 10_000
#: The languages a table may speak (`/game settings language:`).
LANGUAGES = ("es", "en")

log = logging.getLogger("tabletop.table")
P = ParamSpec("P")
R = TypeVar("R")


def _storage_refusals(func: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A full disk or a database that refuses writes becomes a localized refusal: nothing was changed."""

    @functools.wraps(func)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await func(*args, **kwargs)
        except StorageFull as exc:
            log.error("storage full: %s", exc)
            raise TableError(msg("core.error.storage_full")) from exc
        except StorageError as exc:
            log.error("storage unavailable: %s", exc)
            raise TableError(msg("core.error.storage_down")) from exc

    return wrapper


class Table:
    """The one entry point for cogs, local play and tests.

    One asyncio lock per game serialises changes inside this process; the version check in every
    write is what keeps two processes (or two clicks) from both applying.
    """

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

    # ---------------------------------------------------------------- loading

    async def _open_in(self, channel_id: int) -> GameRow:
        row = await self.store.open_game(channel_id)
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
        """The channel's open game loaded fresh under the channel's lock: one version seen and changed."""
        async with self._locks.hold(channel_id):
            yield await self._load(await self._open_in(channel_id))

    async def _reload(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        return row

    async def game_for(self, channel_id: int) -> GameRow | None:
        return await self.store.open_game(channel_id)

    async def inspect(self, game_id: int) -> Inspection:
        """A game's row, engine, seats and current state, for tools and tests (read-only)."""
        return await self._load(await self._reload(game_id))

    async def seat_names(self, game_id: int) -> dict[int, str]:
        return {s.seat: s.name for s in await self.store.seats(game_id)}

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        return await self.store.guild_settings(guild_id)

    # ---------------------------------------------------------------- languages

    async def remember(self, who: Who) -> None:
        """Keep the language of each user's client, so what reaches them later is in their language."""
        if who.lang is None or self._langs.get(who.user_id) == who.lang:
            return
        self._remember_lang(who.user_id, who.lang)
        try:
            await self.store.set_user_lang(who.user_id, who.lang, self.clock())
        except StorageError as exc:  # a language preference is not worth refusing a move for
            log.warning("could not remember a language: %s", exc)

    async def langs_of(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The remembered language of each of these users who ever told us one."""
        users = set(user_ids)
        missing = [u for u in users if u not in self._langs]
        if missing:
            stored = await self.store.user_langs(missing)
            for user in missing:  # "" remembers "never told us", so each user is looked up once
                self._remember_lang(user, stored.get(user, ""))
        return {u: self._langs[u] for u in users if self._langs.get(u)}

    async def notify_prefs(self, guild_id: int | None, user_ids: Iterable[int]) -> dict[int, tuple[bool, bool]]:
        """Each user's (DMs, pings) choice on this server; users who never chose are absent (both on)."""
        try:
            return await self.store.notify_prefs(guild_id, user_ids)
        except StorageError as exc:  # a preference is not worth losing a message for
            log.warning("could not read notification choices: %s", exc)
            return {}

    @_storage_refusals
    async def set_notify(self, guild_id: int | None, who: Who, *, dms: bool | None = None,
                         pings: bool | None = None) -> tuple[bool, bool]:
        """Change this person's notification choices on this server; returns (DMs, pings) now."""
        await self.remember(who)
        current = (await self.store.notify_prefs(guild_id, [who.user_id])).get(who.user_id, (True, True))
        chosen = (current[0] if dms is None else bool(dms), current[1] if pings is None else bool(pings))
        if chosen != current or (dms, pings) != (None, None):
            await self.store.set_notify_prefs(guild_id, who.user_id, *chosen, self.clock())
        return chosen

    async def _add_langs(self, report: Report) -> None:
        users = set(report.private) | set(report.private_views) | set(report.mention) | set(report.watch)
        users |= {user for user, _ in report.addressed}
        report.langs.update(await self.langs_of(users))

    def _remember_lang(self, user_id: int, lang: str) -> None:
        self._langs[user_id] = lang
        self._langs.move_to_end(user_id)
        while len(self._langs) > _LANG_MEMORY:
            self._langs.popitem(last=False)

    # ---------------------------------------------------------------- lobby

    @_storage_refusals
    async def new(self, *, guild_id: int | None, channel_id: int, who: Who, game_type: str,
                  options: Mapping[str, str] | None = None, ai_seats: int = 0,
                  extra: Mapping[str, Any] | None = None, upload: tuple[bytes, str] | None = None,
                  timer_minutes: int | None = None, ai_level: str | None = None) -> Report:
        """A lobby in the channel. `timer_minutes` (else the server's default) limits each turn: when it runs
        out, the table plays the game's default for the seat that is late and says so. `ai_level` (one of
        `AI_LEVELS`, default "normal") is how well its AI seats play, kept with the game."""
        await self.remember(who)
        if game_type not in self.offered_games():
            raise TableError(msg("core.error.unknown_game", game=game_type, valid=self._valid_games()))
        game = self._engine(game_type)
        resolved = game.resolve_options(dict(options or {}))
        low, high = game.seat_range(resolved)
        if ai_seats < 0 or ai_seats >= high:
            raise TableError(msg("core.error.ai_count", high=high - 1))
        if ai_seats and not game.supports_ai:
            raise TableError(msg("core.error.no_ai_here", game=Msg(game.name_key)))
        if await self.store.open_game(channel_id) is not None:
            raise TableError(msg("core.error.channel_busy"))
        extra = dict(extra or {})
        setup = extra.pop("setup", None)
        extra[ai_levels.EXTRA_KEY] = ai_levels.parse_level(ai_level)
        if timer_minutes is not None and not 0 <= timer_minutes <= MAX_TIMER_MINUTES:
            raise TableError(msg("core.error.timer_range", high=MAX_TIMER_MINUTES))
        suggested = False
        if timer_minutes is None:
            timer_minutes = (await self.store.guild_settings(guild_id)).get("timer_minutes")
        if timer_minutes is None and game.suggested_timer_minutes:
            timer_minutes, suggested = game.suggested_timer_minutes, True
        if timer_minutes:
            extra["timer_minutes"] = int(timer_minutes)
        if upload is not None:
            setup = await uploads.setup_from_upload(game, *upload)
        if setup is not None and len(pack(setup)) > MAX_SETUP_BYTES:
            raise BadOptions(msg("core.error.setup_too_big", kb=MAX_SETUP_BYTES // 1024))
        now = self.clock()
        seats = [SeatRow(0, who.user_id, "human", who.name)]
        seats += [SeatRow(i + 1, None, "ai", _ai_name(i)) for i in range(ai_seats)]
        try:
            game_id, version = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, game_type=game_type, options=resolved,
                seed=self.seed_source(), creator_id=who.user_id, now=now, seats=seats, extra=extra, setup=setup,
            )
        except ChannelBusy as exc:
            raise TableError(msg("core.error.channel_busy")) from exc
        report = Report(game_id, game_type, version, "lobby", seat_names={s.seat: s.name for s in seats},
                        channel_id=channel_id, guild_id=guild_id)
        report.public.append(msg("core.lobby.created", who=who.name, game=Msg(game.name_key), low=low, high=high))
        title = (setup or {}).get("title")
        if isinstance(title, dict) and isinstance(title.get("es"), str) and isinstance(title.get("en"), str):
            report.public.append(msg("core.lobby.upload", title=Lit(title["es"][:100], title["en"][:100])))
        for warning in (setup or {}).get("warnings", [])[:20]:
            report.add_private(who.user_id, Msg.from_json(warning))
        report.public.append(_options_line(game, resolved, hide=game.upload_overrides if setup else ()))
        if extra.get("timer_minutes"):
            report.public.append(msg("core.lobby.timer_suggested" if suggested else "core.lobby.timer",
                                     minutes=extra["timer_minutes"]))
        report.public.append(_seats_line(seats))
        if ai_seats or ai_level is not None:
            report.public.append(ai_levels.level_line(game, seats, extra[ai_levels.EXTRA_KEY]))
        return report

    @_storage_refusals
    async def join(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        async with self._session(channel_id) as loaded:
            if loaded.row.status != "lobby":
                raise TableError(msg("core.error.already_started"))
            held = len(loaded.seats_of(who.user_id))
            if held >= loaded.game.seats_per_player:
                raise TableError(msg("core.error.already_seated") if loaded.game.seats_per_player == 1 else
                                 msg("core.error.seats_per_player", n=loaded.game.seats_per_player))
            high = loaded.game.seat_range(loaded.row.options)[1]
            if len(loaded.seats) >= high:
                raise TableError(msg("core.error.table_full", high=high))
            seats = [*loaded.seats, SeatRow(len(loaded.seats), who.user_id, "human", who.name)]
            version = await self._set_seats(loaded, seats)
            report = self._report(loaded, version, "lobby", seats)
            report.public.append(msg("core.lobby.joined", who=who.name))
            report.public.append(_seats_line(seats))
            return report

    @_storage_refusals
    async def leave(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        async with self._session(channel_id) as loaded:
            if loaded.row.status != "lobby":
                raise TableError(msg("core.error.leave_started"))
            seat = loaded.seat_of(who.user_id)
            if seat is None:
                raise NotSeated(msg("core.error.not_seated"))
            rest = [s for s in loaded.seats if s.seat != seat]
            seats = [SeatRow(i, s.user_id, s.kind, s.name) for i, s in enumerate(rest)]
            humans = [s for s in seats if s.kind == "human"]
            if not humans:
                version = await self._bump(loaded.row, status="abandoned")
                report = self._report(loaded, version, "abandoned", seats)
                report.public.append(msg("core.lobby.closed_empty", who=who.name))
                return report
            version = await self._set_seats(loaded, seats)
            report = self._report(loaded, version, "lobby", seats)
            report.public.append(msg("core.lobby.left", who=who.name))
            report.public.append(_seats_line(seats))
            return report

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

    @_storage_refusals
    async def start(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        async with self._session(channel_id) as loaded:
            if loaded.row.status != "lobby":
                raise TableError(msg("core.error.already_started"))
            if loaded.seat_of(who.user_id) is None:
                raise NotSeated(msg("core.error.not_seated_lobby"))
            game, row = loaded.game, loaded.row
            game.check_seats(loaded.row.options, len(loaded.seats))
            setup = await self.store.blob(row.id, "setup")
            blobs: dict[str, dict[str, Any]] = {}
            keys = game.profile_keys(loaded.row.options, len(loaded.seats))
            if keys:
                # Snapshot the records into the game's set-up so replay never depends on later changes.
                setup = {**(setup or {}), "profiles": await self.store.profiles(loaded.row.guild_id, game.id, keys)}
                blobs["setup"] = setup
            state = _initial_state(game, loaded.row, len(loaded.seats), setup)
            dynamic, static = _split(game, state)
            if static:
                blobs["static"] = static
            try:
                version = await self.store.commit(
                    row.id, loaded.row.version,
                    Commit(kind="start", user_id=who.user_id, lines=[LogLine(msg("core.log.start").to_json())],
                           snapshot=dynamic, head=Head(engine := engines.engine_version(game), dynamic)),
                    self.clock(), status="active", new_turn=True, blobs=blobs,
                    deadline=(deadline := self._deadline(loaded, state)),
                )
            except VersionConflict as exc:
                raise StaleAction(msg("core.error.conflict")) from exc
            self._cache.put(row.id, version, state, loaded.seats, engine=engine)
            loaded.row.version, loaded.row.status, loaded.state, loaded.engine = version, "active", state, engine
            loaded.row.snapshot_version, loaded.row.deadline_at = version, deadline
            report = self._report(loaded, version, "active", loaded.seats)
            report.turn_changed = True
            report.public.append(msg("core.lobby.started", game=Msg(game.name_key)))
            await self._run_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=set(range(len(loaded.seats))))
            return report

    # ---------------------------------------------------------------- play

    @_storage_refusals
    async def act(self, channel_id: int, who: Who, action: Action, *, expected_version: int | None = None,
                  game_id: int | None = None) -> Report:
        await self.remember(who)
        async with self._session(channel_id) as loaded:
            if game_id is not None and game_id != loaded.row.id:
                raise StaleAction(msg("core.error.stale"))
            if expected_version is not None and expected_version != loaded.row.version:
                raise StaleAction(msg("core.error.stale"))
            report = self._report(loaded, loaded.row.version, loaded.row.status, loaded.seats)
            # Bots that `resume` is playing now go on there; otherwise (after a restart) they move first.
            caught_up = loaded.row.id not in self._resuming and await self._run_auto(loaded, report)
            if caught_up:
                # The game moved on by itself (after a restart): show that rather than apply a stale intent.
                report.add_private(who.user_id, msg("core.caught_up"))
                await self._finish_report(loaded, report, private_for=set())
                return report
            action = loaded.game.at_ai_level(action, ai_levels.level_of(loaded.row.extra))
            seat = self._acting_seat(loaded, who, action)
            public_before = self._cache.board(loaded.row.id, loaded.row.version) or loaded.game.view(
                loaded.state, None)
            awaited = loaded.game.to_act(loaded.state)
            changed = await self._apply(loaded, report, seat, action, who.user_id, kind="act")
            if self.defer_auto:
                report.pending_auto = self._auto_due(loaded)
            else:
                await self._run_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=changed, public_before=public_before,
                                      awaited_before=awaited)
            return report

    def _acting_seat(self, loaded: Inspection, who: Who, action: Action | None = None) -> int:
        """The seat this person acts for: of the seats they hold, one that may act now (and for `action`,
        one for which it is legal, so a player running several seats never has to say which)."""
        if loaded.row.status == "lobby":
            raise TableError(msg("core.error.not_started"))
        mine = loaded.seats_of(who.user_id)
        if not mine:
            raise NotSeated(msg("core.error.not_seated"))
        game, state = loaded.game, loaded.state
        if game.outcome(state) is not None:
            raise GameOver(msg("core.error.game_over"))
        to_act = game.to_act(state)
        allowed = [s for s in mine if (s in to_act if action is None else game.may_act(state, s, action))]
        if not allowed:
            raise NotYourTurn(msg("core.error.not_your_turn", seats=_seat_list(to_act, loaded.names())))
        if action is not None and len(allowed) > 1:
            return next((s for s in allowed if game.is_legal(state, s, action)), allowed[0])
        return allowed[0]

    async def _apply(self, loaded: Inspection, report: Report, seat: int, action: Action, user_id: int | None,
                     *, kind: str, lines: list[LogLine] | None = None,
                     timeout: dict[str, Any] | None = None) -> set[int]:
        """Apply one action, commit it, and add its events to the report; returns seats told privately.

        A step of a time-out passes what is left of it (`timeout`): the passed deadline is kept through the turns
        it changes, so the whole default is one deadline, ended by `_end_timeout`."""
        game, state = loaded.game, loaded.state
        if seat != SYSTEM and not game.is_legal(state, seat, action):
            raise IllegalAction(_illegal_reason(game, state, seat, action, loaded.names()))
        turn_before = json.dumps(game.turn_key(state), default=str)
        step: Step = game.apply(state, seat, action)
        finished = game.outcome(step.state) is not None
        new_turn = game.turn_key(step.state) != game.turn_key(state)
        report.turn_changed = report.turn_changed or new_turn
        version = loaded.row.version + 1
        since = version - loaded.row.snapshot_version
        engine = engines.engine_version(game)
        # After an upgrade the first move also stores a snapshot, so later replays start from what players saw.
        wants_snapshot = finished or since >= SNAPSHOT_MAX or (new_turn and since >= SNAPSHOT_EVERY) or (
            loaded.engine is not None and loaded.engine != engine)
        all_lines = [*(lines or []), *(LogLine(e.msg.to_json(), e.to) for e in step.events)]
        record = await records.build(self.store, loaded.row, game, loaded.seats, step.state, outcome_kind="finished",
                                     now=self.clock(), turn_before=turn_before) if finished else None
        undoable = step.undoable and kind == "act"
        dynamic = _split(game, step.state)[0]
        # The states an undo may return to are kept whole with the head: undo stays exact across an upgrade.
        chain = {**loaded.chain, loaded.row.version: _split(game, state)[0]} if undoable and not new_turn else {}
        try:
            version = await self.store.commit(
                loaded.row.id, loaded.row.version,
                Commit(kind=kind, seat=seat, user_id=user_id, action=action.to_json(), lines=all_lines,
                       undoable=undoable, turn_before=turn_before if undoable else None,  # undo's check only
                       snapshot=dynamic if wants_snapshot else None,
                       head=Head(engine, dynamic, chain)),
                self.clock(), status="finished" if finished else None, new_turn=new_turn,
                deadline=(deadline := None if finished or not new_turn else loaded.row.deadline_at
                          if timeout is not None else self._deadline(loaded, step.state)),
                timeout=KEEP if timeout is None else timeout,
                record=record,
            )
        except VersionConflict as exc:
            self._cache.drop(loaded.row.id)
            raise StaleAction(msg("core.error.conflict")) from exc
        self._cache.put(loaded.row.id, version, step.state, loaded.seats, engine=engine, chain=chain)
        loaded.row.version, loaded.state, loaded.engine, loaded.chain = version, step.state, engine, chain
        if new_turn:
            loaded.row.deadline_at = deadline
        if timeout is not None or new_turn:
            loaded.row.timeout = timeout
        if wants_snapshot:
            loaded.row.snapshot_version = version
        if finished:
            loaded.row.status = "finished"
            updates = game.profile_updates(step.state)
            if updates:
                await self.store.save_profiles(loaded.row.guild_id, game.id, updates, self.clock())
            await records.settle(self.store, self.clock())
        report.version, report.status = version, loaded.row.status
        report.can_undo = step.undoable and kind == "act" and user_id is not None and not new_turn
        awaited = game.to_act(step.state)
        report.left_wait.update(s.seat for s in loaded.seats if s.seat not in awaited)
        told = self._add_events(loaded, report, step.events)
        if new_turn and report.turn_start is None:
            report.turn_start = len(report.public)
        return told

    def _add_events(self, loaded: Inspection, report: Report, events: list[Event]) -> set[int]:
        told: set[int] = set()
        for event in events:
            if event.to is None:
                report.public.append(event.msg)
                continue
            for seat in sorted(event.to):
                told.add(seat)
                user = loaded.user_of(seat)
                if user is not None:
                    report.add_private(user, event.msg)
        return told

    async def _run_auto(self, loaded: Inspection, report: Report, steps: int = AI_STEP_LIMIT, *,
                        offload: bool = False) -> bool:
        """Play the game's own steps and the AI seats while it is their turn (at most `steps` of them); returns
        whether anything moved. With `offload` an AI thinks in a worker thread, so the event loop keeps answering
        people meanwhile (the state is immutable and the channel's lock is held: nothing else touches it).

        Each step is committed on its own, so a crash in the middle of a monster turn resumes where it was.
        """
        if loaded.state is None:
            return False
        ai, game, moved = loaded.ai_seats(), loaded.game, False
        for _ in range(steps):
            if loaded.row.status != "active" or game.outcome(loaded.state) is not None:
                break
            to_act = game.to_act(loaded.state)
            ready = sorted(ai & to_act)
            if SYSTEM in to_act:
                seat, kind = SYSTEM, "auto"
                try:
                    action = game.system_action(loaded.state)
                except Exception:
                    log.exception("the automated step of %s (game %s) failed", game.id, loaded.row.id)
                    break
            elif ready:
                seat, kind = ready[0], "act"
                picked = await asyncio.to_thread(self._ai_choice, loaded, seat) if offload \
                    else self._ai_choice(loaded, seat)
                if picked is None:
                    report.public.append(msg("core.ai.stuck", seat=SeatRef(seat)))
                    break
                action, kind = picked
            else:
                break
            lines = [LogLine(msg("core.log.skipped", seat=SeatRef(seat)).to_json())] if kind == "skip" else None
            try:
                await self._apply(loaded, report, seat, action, None, kind=kind, lines=lines)
            except (StorageError, StaleAction, RuleError) as exc:
                # What was committed stays committed and is reported; the rest resumes later.
                log.warning("automatic moves in game %s stopped: %s", loaded.row.id, exc)
                self._pending.add(loaded.row.id)
                break
            moved = True
        else:
            if steps >= AI_STEP_LIMIT:
                log.error("automatic step limit reached in game %s", loaded.row.id)
        if moved:
            self._pending.discard(loaded.row.id)
        return moved

    def _ai_choice(self, loaded: Inspection, seat: int) -> tuple[Action, str] | None:
        """The AI's move, or the game's skip for it when the AI cannot choose; None when neither works."""
        game, state = loaded.game, loaded.state
        rng = Rng.from_seed(loaded.row.seed ^ (loaded.row.version * 0x9E3779B1))
        try:
            action = game.ai_action(state, seat, rng, level=ai_levels.level_of(loaded.row.extra))
            if game.is_legal(state, seat, action):
                return action, "act"
            # the move's kind only: its arguments may name what the AI's hand hides
            log.error("AI of %s (game %s, seat %s) chose an illegal %s move", game.id, loaded.row.id, seat,
                      action.kind)
        except Exception:
            # An AI that cannot choose must not block the table: its turn is skipped if the game allows.
            log.exception("AI of %s (game %s, seat %s) failed", game.id, loaded.row.id, seat)
        skip = game.skip_action(state, seat)
        return (skip, "skip") if skip is not None and game.is_legal(state, seat, skip) else None

    def _deadline(self, loaded: Inspection, state: Any) -> float | None:
        """When the people now on turn run out of time: the head decision's own window, else the game's
        timer; None when no timer runs or only the game itself and AI seats are to act."""
        game = loaded.game
        humans = [s for s in game.to_act(state) if loaded.user_of(s) is not None]
        if not humans:
            return None
        seconds: float | None = None
        for decision in game.decisions(state):
            if decision.seat in humans and decision.seconds:
                seconds = float(decision.seconds)
                break
        minutes = loaded.row.extra.get("timer_minutes")
        if isinstance(minutes, int) and minutes > 0:
            seconds = min(seconds, minutes * 60.0) if seconds else minutes * 60.0
        return None if seconds is None else self.clock() + seconds

    async def _finish_report(self, loaded: Inspection, report: Report, *, private_for: set[int],
                             public_before: dict[str, Any] | None = None,
                             awaited_before: Iterable[int] = ()) -> None:
        game, state = loaded.game, loaded.state
        report.board = game.view(state, None)
        self._cache.remember_board(loaded.row.id, loaded.row.version, report.board)
        report.channel_id = loaded.row.channel_id
        outcome = game.outcome(state)
        if outcome is not None:
            report.finished = True
            report.public.extend(await summary.end_lines(self.store, self.clock(), loaded, outcome))
            await self._add_langs(report)
            return
        if (public_before is not None and not report.public and not report.turn_changed
                and report.board == public_before):
            # Nothing anyone else may see changed (a game master's hidden work): no public trace at all.
            report.board = None
        pinged = self._newly_awaited(loaded, report, set(awaited_before))
        for seat in sorted(pinged):
            user = loaded.user_of(seat)
            if user is not None and user not in report.mention:
                report.mention.append(user)
        # Buttons only where someone may use them: none while only the game itself or AI seats are to move.
        humans_on_turn = any(loaded.user_of(s) is not None for s in game.to_act(state))
        report.quick = game.quick_actions(state) if humans_on_turn else []
        report.deadline = loaded.row.deadline_at
        report.waiting_since = loaded.row.turn_started_at
        for decision in game.decisions(state):
            user = loaded.user_of(decision.seat)
            if user is None or decision.seat not in pinged:
                continue
            if decision.private:
                report.add_private(user, decision.prompt)
            else:
                report.addressed.append((user, decision.prompt))
        watchers = game.watchers(state) if report.turn_changed else frozenset()
        for seat in private_for | set(game.to_act(state)) | watchers:
            user = loaded.user_of(seat)
            if user is not None:
                report.private_views[user] = game.view(state, seat)
                if seat in watchers and user not in report.watch:
                    report.watch.append(user)
        await self._add_langs(report)

    @staticmethod
    def _newly_awaited(loaded: Inspection, report: Report, before: set[int]) -> set[int]:
        """Human seats whose wait begins in this report: not awaited before it, or no longer awaited at some step
        of it and awaited again now (their turn came back after others played). Each wait is announced once:
        neither a player's own moves in their turn nor others' moves while they keep waiting ping them again."""
        return {seat for seat in loaded.game.to_act(loaded.state)
                if loaded.user_of(seat) is not None and (seat not in before or seat in report.left_wait)}

    def _report(self, loaded: Inspection, version: int, status: str, seats: list[SeatRow]) -> Report:
        return Report(loaded.row.id, loaded.row.game_type, version, status,
                      seat_names={s.seat: s.name for s in seats}, channel_id=loaded.row.channel_id,
                      guild_id=loaded.row.guild_id,
                      user_names={s.user_id: s.name for s in seats if s.kind == "human" and s.user_id is not None})

    # ---------------------------------------------------------------- games that move by themselves

    async def stalled_games(self, *, full: bool = True) -> list[int]:
        """Running games (of this process's shards) where the game itself or an AI seat should be moving
        and nothing is.

        `full` looks at every running game (at start-up); otherwise only at games whose AI moves stopped
        early in this process (storage trouble), which is cheap enough to ask every minute.
        """
        if not full:
            return sorted(self._pending)
        stalled = []
        for row in await self.store.active_games(self.shards):
            if row.id in self._pending:
                stalled.append(row.id)
                continue
            try:
                loaded = await self._load(row)
            except Exception:
                log.exception("cannot load game %s", row.id)
                continue
            to_act = loaded.game.to_act(loaded.state) if loaded.state is not None else frozenset()
            if loaded.game.outcome(loaded.state) is None and (SYSTEM in to_act or loaded.ai_seats() & to_act):
                stalled.append(row.id)
        return stalled

    @_storage_refusals
    async def resume(self, game_id: int) -> Report | None:
        """Play the AI seats and the game's own steps of a game that waits on them (after a person's move, a crash,
        a restart); None if nothing to do. Each step is its own commit, taken in turn with every other game's
        (`pacing`), and the channel is let go between two steps whenever a command waits for it, so one channel's
        bots never delay anyone's command."""
        row = await self._reload(game_id)
        report: Report | None = None
        awaited: frozenset[int] = frozenset()
        self._resuming.add(game_id)
        try:
            steps = 0
            while steps < AI_STEP_LIMIT:
                async with self._session(row.channel_id) as loaded:
                    if loaded.row.id != game_id or loaded.row.status != "active":
                        self._pending.discard(game_id)
                        return None if report is None else await self._close_resumed(loaded, report, awaited)
                    if report is None:
                        report = self._report(loaded, loaded.row.version, loaded.row.status, loaded.seats)
                        awaited = loaded.game.to_act(loaded.state)
                    # Step after step while nobody else waits for this channel; then let them in between two steps.
                    while steps < AI_STEP_LIMIT:
                        steps += 1
                        async with self.pacing.automated_step():
                            moved = await self._run_auto(loaded, report, steps=1, offload=True)
                        if not moved:
                            changed = report.version != row.version
                            return await self._close_resumed(loaded, report, awaited) if changed else None
                        if not self._auto_due(loaded):
                            return await self._close_resumed(loaded, report, awaited)
                        if self._locks.contended(row.channel_id):
                            break
            log.error("automatic step limit reached in game %s", game_id)
            return None
        except NoGame:  # abandoned between two steps
            return None
        finally:
            self._resuming.discard(game_id)

    @staticmethod
    def _auto_due(loaded: Inspection) -> bool:
        """Whether the game itself or an AI seat is to move now."""
        if loaded.row.status != "active" or loaded.state is None or loaded.game.outcome(loaded.state) is not None:
            return False
        to_act = loaded.game.to_act(loaded.state)
        return SYSTEM in to_act or bool(loaded.ai_seats() & to_act)

    async def _close_resumed(self, loaded: Inspection, report: Report, awaited: frozenset[int]) -> Report | None:
        if loaded.row.id != report.game_id:
            return None
        report.turn_start = None  # the bots' turns open the next message; they close no person's turn
        await self._finish_report(loaded, report, private_for=set(), awaited_before=awaited)
        return report

    # ---------------------------------------------------------------- undo and skip

    @_storage_refusals
    async def undo(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        async with self._session(channel_id) as loaded:
            seat, row = self._acting_seat(loaded, who), loaded.row
            awaited = loaded.game.to_act(loaded.state)
            target = await self._head(row.id, loaded.row.version)
            if target is None or target.kind != "act" or target.seat != seat or target.user_id != who.user_id:
                raise TableError(msg("core.error.undo_not_yours"))
            if not target.undoable:
                raise TableError(msg("core.error.undo_hidden"))
            game = loaded.game
            if json.dumps(game.turn_key(loaded.state), default=str) != target.turn_before:
                raise TableError(msg("core.error.undo_turn"))
            restored_version = target.version - 1
            state = await self._rebuild(game, row.id, restored_version)
            dynamic, engine = _split(game, state)[0], engines.engine_version(game)
            chain = {v: s for v, s in loaded.chain.items() if v < restored_version}
            try:
                version = await self.store.commit(
                    row.id, loaded.row.version,
                    Commit(kind="undo", seat=seat, user_id=who.user_id, action={"undo": target.version},
                           state_of=restored_version, snapshot=dynamic, head=Head(engine, dynamic, chain),
                           lines=[LogLine(msg("core.undo.done", who=SeatRef(seat)).to_json())]),
                    self.clock(),
                )
            except VersionConflict as exc:
                raise StaleAction(msg("core.error.conflict")) from exc
            self._cache.put(row.id, version, state, loaded.seats, engine=engine, chain=chain)
            loaded.row.version, loaded.state, loaded.row.snapshot_version = version, state, version
            loaded.engine, loaded.chain = engine, chain
            report = self._report(loaded, version, "active", loaded.seats)
            report.public.append(msg("core.undo.done", who=SeatRef(seat)))
            await self._finish_report(loaded, report, private_for={seat}, awaited_before=awaited)
            return report

    async def can_undo(self, channel_id: int, who: Who) -> bool:
        """Whether `undo` would take back this person's newest move now (so an Undo button is worth showing)."""
        row = await self.store.open_game(channel_id)
        if row is None or row.status != "active":
            return False
        target = await self._head(row.id, row.version)
        if target is None or target.kind != "act" or target.user_id != who.user_id or not target.undoable:
            return False
        loaded = await self._load(row)
        return json.dumps(loaded.game.turn_key(loaded.state), default=str) == target.turn_before

    async def _head(self, game_id: int, version: int) -> ActionRow | None:
        """The log row that produced the state at `version` (following undo rows back)."""
        row = await self.store.action(game_id, version)
        while row is not None and row.kind == "undo":
            row = await self.store.action(game_id, row.state_of)
        return row

    @_storage_refusals
    async def skip(self, channel_id: int, who: Who, *, expected_version: int | None = None) -> Report:
        """Moves the game past whoever blocks it: an AI seat at once, an absent player after the idle limit."""
        await self.remember(who)
        async with self._session(channel_id) as loaded:
            if loaded.row.status != "active":
                raise TableError(msg("core.error.not_started"))
            if expected_version is not None and expected_version != loaded.row.version:
                raise StaleAction(msg("core.error.stale"))
            me = loaded.seat_of(who.user_id)
            if me is None:
                raise NotSeated(msg("core.error.not_seated"))
            game = loaded.game
            if game.outcome(loaded.state) is not None:
                raise GameOver(msg("core.error.game_over"))
            report = self._report(loaded, loaded.row.version, "active", loaded.seats)
            awaited = game.to_act(loaded.state)
            if await self._run_auto(loaded, report):
                await self._finish_report(loaded, report, private_for=set(), awaited_before=awaited)
                return report
            to_act = sorted(game.to_act(loaded.state))
            stuck_ai = [s for s in to_act if s in loaded.ai_seats()]
            absent = stuck_ai or [s for s in to_act if s != me and loaded.user_of(s) is not None]
            if not absent:
                raise TableError(msg("core.error.skip_nobody"))
            if not stuck_ai:
                idle_hours = await self._idle_hours(loaded.row)
                started = loaded.row.turn_started_at or loaded.row.updated_at
                if self.clock() - started < idle_hours * 3600:
                    raise TableError(summary.skip_too_soon(loaded, absent, idle_hours, self.clock()))
            changed: set[int] = set()
            for seat in absent:
                if game.outcome(loaded.state) is not None or seat not in game.to_act(loaded.state):
                    continue
                action = game.timeout_action(loaded.state, seat)
                if action is None:
                    raise TableError(msg("core.error.skip_unsupported"))
                report.public.append(msg("core.skip.done", who=who.name, seat=SeatRef(seat)))
                line = LogLine(msg("core.log.skipped", seat=SeatRef(seat)).to_json())
                changed |= await self._apply(loaded, report, seat, action, who.user_id, kind="skip", lines=[line])
            await self._run_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=changed, awaited_before=awaited)
            return report

    # ---------------------------------------------------------------- reading

    @_storage_refusals
    async def status(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        row = await self.store.open_game(channel_id) or await self.store.last_game(channel_id)
        if row is None or row.status == "abandoned":
            raise NoGame(msg("core.error.no_game"))
        if row.status == "active":
            async with self._session(channel_id) as loaded:
                report = self._report(loaded, loaded.row.version, loaded.row.status, loaded.seats)
                if loaded.row.id not in self._resuming:  # a game left waiting on an AI seat moves on now
                    await self._run_auto(loaded, report)
        else:
            loaded = await self._load(row)
            report = self._report(loaded, row.version, row.status, loaded.seats)
        report.version, report.status = loaded.row.version, loaded.row.status
        game = loaded.game
        if loaded.row.status == "lobby":
            low, high = game.seat_range(loaded.row.options)
            report.public.append(msg("core.lobby.waiting", game=Msg(game.name_key), low=low, high=high))
            report.public.append(_options_line(game, loaded.row.options))
            report.public.append(_seats_line(loaded.seats))
            return report
        outcome = game.outcome(loaded.state)
        if outcome is not None:
            report.finished = True
            report.public.extend(await summary.end_lines(self.store, self.clock(), loaded, outcome))
        else:
            report.public.append(summary.waiting_line(loaded, self.clock()))
        report.board = game.view(loaded.state, None)
        report.quick = game.quick_actions(loaded.state)
        seat = loaded.seat_of(who.user_id)
        if seat is not None:
            report.private_views[who.user_id] = game.view(loaded.state, seat)
        return report

    @_storage_refusals
    async def private_view(self, channel_id: int, who: Who) -> tuple[str, dict[str, Any], dict[int, str]]:
        await self.remember(who)
        row = await self._open_in(channel_id)
        loaded = await self._load(row)
        if row.status == "lobby":
            raise TableError(msg("core.error.not_started"))
        seat = loaded.seat_of(who.user_id)
        if seat is None:
            raise NotSeated(msg("core.error.not_seated"))
        return row.game_type, loaded.game.view(loaded.state, seat), loaded.names()

    async def choices(self, channel_id: int, who: Who, path: list[str]) -> list[Choice] | Action:
        """The next steps of a move built in steps by this user (empty when they may not act now)."""
        found = await self._stepping(channel_id, who)
        if found is None:
            return []
        loaded, seat, off_turn = found
        if seat is None:
            return choices_from_legal(off_turn, tuple(path[:32]))
        return loaded.game.choices(loaded.state, seat, tuple(path[:32]))

    async def step_moves(self, channel_id: int, who: Who, kinds: Sequence[str]) -> list[LegalAction]:
        """This user's whole step-built moves whose first step is one of `kinds`, found in one load (empty when
        they may not act now); the moves of a seat off turn are its out-of-turn moves of those kinds."""
        found = await self._stepping(channel_id, who) if kinds else None
        if found is None:
            return []
        loaded, seat, off_turn = found
        if seat is None:
            return [la for la in off_turn if la.action.kind in kinds]
        return loaded.game.moves_of_kinds(loaded.state, seat, list(kinds)[:32])

    async def _stepping(self, channel_id: int, who: Who) -> tuple[Inspection, int | None, list[LegalAction]] | None:
        """The channel's running game, this user's seat on turn (None when none is) and, without one, the moves
        one of their seats may make out of turn; None when there is no running game."""
        row = await self.store.open_game(channel_id)
        if row is None or row.status != "active":
            return None
        loaded = await self._load(row)
        if loaded.game.outcome(loaded.state) is not None:
            return None
        to_act = loaded.game.to_act(loaded.state)
        seat = next((s for s in loaded.seats_of(who.user_id) if s in to_act), None)
        off_turn = self._off_turn(loaded, who) if seat is None else None
        return loaded, seat, off_turn[1] if off_turn else []

    @staticmethod
    def _off_turn(loaded: Inspection, who: Who) -> tuple[int, list[LegalAction]] | None:
        """The first of this person's seats (none on turn) with moves it may make out of turn, and those moves."""
        for seat in loaded.seats_of(who.user_id):
            anytime = loaded.game.anytime_actions(loaded.state, seat)
            if anytime:
                return seat, anytime
        return None

    async def is_step_built(self, channel_id: int) -> bool:
        row = await self.store.open_game(channel_id)
        game = registry.get(row.game_type) if row else None
        return bool(game and game.step_built)

    async def check_turn(self, channel_id: int, who: Who) -> None:
        """Raise why this person cannot act now (no game, still a lobby, not seated, over, someone else's
        turn, named); return when one of their seats may act."""
        row = await self.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        self._acting_seat(await self._load(row), who)

    async def legal(self, channel_id: int, who: Who) -> list[LegalAction]:
        """The legal actions of this user now: their seat's on turn, else the moves one of their seats may make
        out of turn (a card played during another's turn); empty when there are none."""
        row = await self.store.open_game(channel_id)
        if row is None or row.status != "active":
            return []
        loaded = await self._load(row)
        if loaded.game.step_built:
            return []  # never listed: such moves are built in steps (`choices`)
        to_act = loaded.game.to_act(loaded.state)
        seat = next((s for s in loaded.seats_of(who.user_id) if s in to_act), None)
        if seat is None:
            off_turn = self._off_turn(loaded, who) if loaded.game.outcome(loaded.state) is None else None
            return off_turn[1] if off_turn else []
        return loaded.game.legal_actions(loaded.state, seat)

    @_storage_refusals
    async def log(self, channel_id: int, who: Who, page: int = 1, *, game_id: int | None = None) -> LogPage:
        """The game's log as this viewer may see it, newest page first (page 1); paged by the database."""
        if game_id is not None:
            row = await self.store.game(game_id)
            if row is None or row.channel_id != channel_id:
                raise NoGame(msg("core.error.no_game"))
        else:
            # After the end, the log of the channel's last game is still worth reading.
            row = await self.store.open_game(channel_id) or await self.store.last_game(channel_id)
            if row is None:
                raise NoGame(msg("core.error.no_game"))
        seats = await self.store.seats(row.id)
        viewer = next((s.seat for s in seats if s.kind == "human" and s.user_id == who.user_id), None)
        page = page if isinstance(page, int) else 0
        found, total = await self.store.log_page(row.id, viewer, max(1, page), LOG_PAGE_LINES)
        pages = max(1, math.ceil(total / LOG_PAGE_LINES))
        if not 1 <= page <= pages:
            raise TableError(msg("core.error.log_page", pages=pages))
        lines = tuple((version, Msg.from_json(data)) for version, data in found)
        return LogPage(row.id, page, pages, lines, {s.seat: s.name for s in seats})

    @_storage_refusals
    async def abandon(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        async with self._locks.hold(channel_id):
            row = await self._open_in(channel_id)
            if who.user_id != row.creator_id and not who.can_manage:
                raise TableError(msg("core.error.abandon_forbidden"))
            seats = await self.store.seats(row.id)
            record = None
            if row.status == "active":  # a game that had started keeps a record; a lobby does not
                record = await records.build(self.store, row, self._engine(row.game_type), seats, None,
                                             outcome_kind="abandoned", now=self.clock())
            version = await self._bump(row, status="abandoned", record=record)
            self._cache.drop(row.id)
            self._pending.discard(row.id)
            report = Report(row.id, row.game_type, version, "abandoned", seat_names={s.seat: s.name for s in seats},
                            channel_id=row.channel_id, guild_id=row.guild_id)
            report.public.append(msg("core.abandon.done", who=who.name))
            return report

    async def list_games(self, guild_id: int | None, *, include_closed: bool = False) -> list[GameSummary]:
        result = []
        for row in await self.store.games_in_guild(guild_id, include_closed=include_closed):
            loaded = await self._load(row)
            waiting: tuple[str, ...] = ()
            if row.status == "active" and loaded.state is not None:
                names = loaded.names()
                waiting = tuple(names.get(s, "?") for s in sorted(loaded.game.to_act(loaded.state)))
            result.append(GameSummary(row.id, row.game_type, row.channel_id, row.status,
                                      tuple(s.name for s in loaded.seats), waiting, row.updated_at))
        return result

    async def profiles(self, guild_id: int | None, game_type: str) -> dict[str, dict[str, Any]]:
        """This server's lasting records for a game (e.g. HeroQuest character sheets)."""
        return await self.store.profiles(guild_id, game_type)

    @_storage_refusals
    async def update_profile(self, guild_id: int | None, game_type: str, key: str,
                             change: Callable[[dict[str, Any] | None], dict[str, Any]]) -> dict[str, Any]:
        """Apply a pure change to one record (buying between quests...); `change` raises RuleError to refuse."""
        async with self._locks.hold(-hash((guild_id, game_type, key)) % (1 << 30) - (1 << 31)):
            current = (await self.store.profiles(guild_id, game_type, [key])).get(key)
            updated = change(current)
            await self.store.save_profiles(guild_id, game_type, {key: updated}, self.clock())
            return updated

    # ---------------------------------------------------------------- play-by-post

    @_storage_refusals
    async def configure(self, guild_id: int, who: Who, *, reminder_minutes: int | None = None,
                        idle_hours: int | None = None, timer_minutes: int | None = None,
                        language: str | None = None) -> Msg:
        await self.remember(who)
        if not who.can_manage:
            raise TableError(msg("core.error.settings_forbidden"))
        if language is not None and language not in LANGUAGES:
            raise TableError(msg("core.error.language", valid=", ".join(LANGUAGES)))
        if reminder_minutes is not None and not 1 <= reminder_minutes <= 7 * 24 * 60:
            raise TableError(msg("core.error.reminder_range"))
        if idle_hours is not None and not 1 <= idle_hours <= 30 * 24:
            raise TableError(msg("core.error.idle_range"))
        if timer_minutes is not None and not 0 <= timer_minutes <= MAX_TIMER_MINUTES:
            raise TableError(msg("core.error.timer_range", high=MAX_TIMER_MINUTES))
        await self.store.set_guild_settings(guild_id, reminder_minutes=reminder_minutes, idle_hours=idle_hours,
                                            timer_minutes=timer_minutes, lang=language)
        return await self.settings_line(guild_id)

    async def settings_line(self, guild_id: int | None) -> Msg:
        """The server's play-by-post settings in words (anyone may read them)."""
        settings = await self.store.guild_settings(guild_id)
        timer = settings.get("timer_minutes") or 0
        lang = settings.get("lang")
        return msg("core.settings.summary",
                   minutes=settings.get("reminder_minutes", DEFAULT_REMINDER_MINUTES),
                   hours=settings.get("idle_hours", DEFAULT_IDLE_HOURS),
                   timer=msg("core.settings.timer_of", n=timer) if timer else msg("core.settings.no_timer"),
                   language=msg(f"core.language.{lang}") if lang in LANGUAGES else msg("core.language.auto"))

    async def _idle_hours(self, row: GameRow) -> int:
        settings = await self.store.guild_settings(row.guild_id)
        return int(settings.get("idle_hours", DEFAULT_IDLE_HOURS))

    async def due_reminders(self) -> list[Reminder]:
        """Games whose turn has waited too long; marks them so each turn is nudged once per kind."""
        now = self.clock()
        due: list[Reminder] = []
        for row in await self.store.active_games(self.shards):
            settings = await self.store.guild_settings(row.guild_id)
            minutes = row.extra.get("reminder_minutes") or settings.get("reminder_minutes",
                                                                       DEFAULT_REMINDER_MINUTES)
            idle = int(settings.get("idle_hours", DEFAULT_IDLE_HOURS))
            started = row.turn_started_at or row.updated_at
            waited = now - started
            kind = None
            if waited >= idle * 3600 and row.idle_offered_at is None:
                kind = "idle"
            elif waited >= minutes * 60 and row.reminded_at is None:
                kind = "reminder"
            if kind is None:
                continue
            # Claimed in the database like a time-out: of several processes scanning this game, one sends it.
            if not await self.store.claim_reminder(row.id, row.version, kind, now):
                log.debug("the %s of game %s was sent by another process (or the game moved)", kind, row.id)
                continue
            loaded = await self._load(row)
            seats = tuple(sorted(s for s in loaded.game.to_act(loaded.state) if loaded.user_of(s) is not None))
            users = tuple(u for s in seats if (u := loaded.user_of(s)) is not None)
            if users:
                due.append(Reminder(row.id, row.game_type, row.channel_id, row.guild_id, kind, users, seats,
                                    row.version, loaded.names()))
        return due

    async def due_timeouts(self) -> list[Report]:
        """Games (of this process's shards) whose seat on turn ran out of time: the table plays the game's
        default for each late seat, says so, and lets the game and AI seats go on; one report per game."""
        reports = []
        for row in await self.store.active_games(self.shards, due_by=self.clock()):
            try:
                report = await self._time_out(row)
            except StaleAction:
                # Another process (or a player) moved first: theirs stands, and there is nothing wrong to report.
                log.debug("time-out of game %s: another process or a player moved first", row.id)
                continue
            except Exception:
                log.exception("timeout in game %s failed", row.id)
                continue
            if report is not None:
                reports.append(report)
        return reports

    async def _time_out(self, row: GameRow) -> Report | None:
        """One deadline, played once: claimed in the database first, so that of several processes one plays it."""
        if not await self.store.claim_timeout(row.id, self._owner, self.clock(), TIMEOUT_LEASE_SECONDS):
            log.debug("time-out of game %s is not due any more or another process holds it", row.id)
            return None
        try:
            return await self._play_timeout(row)
        finally:
            await self.store.release_timeout(row.id, self._owner)

    @_storage_refusals
    async def _play_timeout(self, row: GameRow) -> Report | None:
        """The defaults of every late seat as one logical deadline: the first step logs "Time ran out" for every
        late seat and the deadline is held (not restarted by the turns the defaults change) until all are played;
        after a crash in the middle, the rest is played from the state kept with each step, with no second notice
        in the log. The notice goes out with the report of whoever finishes it."""
        async with self._session(row.channel_id) as loaded:
            deadline = loaded.row.deadline_at
            if loaded.row.id != row.id or deadline is None or deadline > self.clock():
                return None  # someone moved in time, or another process got there first
            game, state = loaded.game, loaded.state
            report = self._report(loaded, loaded.row.version, loaded.row.status, loaded.seats)
            awaited = game.to_act(state)
            started_version = loaded.row.version
            plan = loaded.row.timeout
            if plan is None or plan.get("deadline") != deadline:
                late = [s for s in sorted(awaited) if loaded.user_of(s) is not None
                        and (action := game.timeout_action(state, s)) is not None and game.is_legal(state, s, action)]
                plan = {"deadline": deadline, "late": late, "turn": _turn_json(game, state), "begun": {}}
                notices = [LogLine(msg("core.timeout.done", seat=SeatRef(s)).to_json()) for s in late]
            else:
                plan, notices = json.loads(json.dumps(plan)), []  # announced before a crash: finish it quietly
            changed: set[int] = set()
            for seat in plan["late"]:
                # The default may take several steps (play a card, then end the turn): until the turn moves on.
                begun = plan["begun"].get(str(seat))
                turn = begun if begun is not None else _turn_json(game, loaded.state)
                for step in range(TIMEOUT_STEPS):
                    if game.outcome(loaded.state) is not None or seat not in game.to_act(loaded.state) or (
                            (step or begun is not None) and _turn_json(game, loaded.state) != turn):
                        break
                    action = game.timeout_action(loaded.state, seat)
                    if action is None or not game.is_legal(loaded.state, seat, action):
                        break
                    plan["begun"][str(seat)] = turn
                    changed |= await self._apply(loaded, report, seat, action, None, kind="timeout",
                                                 lines=notices or None, timeout=plan)
                    notices = []
            if not plan["late"]:
                # Nothing the table may play for them: stop the clock rather than ask every few seconds.
                await self.store.end_timeout(row.id, started_version, None)
                return None
            # The turn moved on: the seats now on turn get their own time; a turn that could not move stops it.
            moved = _turn_json(game, loaded.state) != plan["turn"] and game.outcome(loaded.state) is None
            following = self._deadline(loaded, loaded.state) if moved else None
            if await self.store.end_timeout(row.id, loaded.row.version, following):
                loaded.row.deadline_at, loaded.row.timeout = following, None
            for seat in plan["late"]:
                user = loaded.user_of(seat)
                if user is not None:
                    report.addressed.append((user, msg("core.timeout.done", seat=SeatRef(seat))))
                    report.quiet_private.add(user)
            await self._run_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=changed, awaited_before=awaited)
            return report

    # ---------------------------------------------------------------- replay (tests and tools)

    async def replay(self, game_id: int) -> Any:
        """Rebuild the state from the seed and the log alone (undo rows pop back to earlier states)."""
        row = await self._reload(game_id)
        game = self._engine(row.game_type)
        seats = await self.store.seats(game_id)
        setup = await self.store.blob(game_id, "setup")
        states: dict[int, Any] = {}
        state = None
        for entry in await self.store.actions(game_id):
            if entry.kind == "start":
                state = _initial_state(game, row, len(seats), setup)
            elif entry.kind == "undo":
                state = states[entry.state_of]
            elif entry.action is not None and entry.seat is not None:  # (a seat changing hands moves nothing)
                state = apply_logged(game, state, entry.seat, Action.from_json(entry.action)).state
            states[entry.version] = state
        return state


def _turn_json(game: Game, state: Any) -> str:
    """A state's turn key as stored (JSON), so a turn kept in the database compares with today's."""
    return json.dumps(game.turn_key(state), default=str)


def _initial_state(game: Game, row: GameRow, seats: int, setup: dict[str, Any] | None) -> Any:
    if setup is not None:
        return game.new_with_setup(setup, row.options, seats, row.seed)
    return game.new(row.options, seats, row.seed)


def _split(game: Game, state: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A state's JSON as (changing part, unchanging part): the unchanging part is stored once per game."""
    data = game.to_json(state)
    static = {k: data.pop(k) for k in game.static_keys if k in data}
    return data, static


def _ai_name(index: int) -> str:
    base = AI_NAMES[index % len(AI_NAMES)]
    lap = index // len(AI_NAMES)
    return f"{base} {lap + 1} (bot)" if lap else f"{base} (bot)"


def _seat_list(seats: Iterable[int], names: Mapping[int, str] | None = None) -> Msg:
    """Seats named for a message; with `names`, the names are written in (refusals carry no name table)."""
    ordered = sorted(seats)
    if not ordered:
        return msg("core.nobody")
    refs: list[Any] = [msg("core.seat.system") if s == SYSTEM else Lit(names[s], names[s]) if names and s in names
                       else SeatRef(s) for s in ordered]
    if len(ordered) <= 6:
        return Msg(f"core.list.{len(ordered)}", {f"s{i}": r for i, r in enumerate(refs)})
    shown = {f"s{i}": r for i, r in enumerate(refs[:5])}
    return Msg("core.list.many", {**shown, "n": len(ordered) - 5})


def _seats_line(seats: list[SeatRow]) -> Msg:
    names = ", ".join(f"{s.seat + 1}. {s.name}" for s in seats) or "-"
    return msg("core.lobby.seats", seats=names, n=len(seats))


def _options_line(game: Game, options: Mapping[str, Any], hide: tuple[str, ...] = ()) -> Msg:
    """The table's options as players read them: each option's label and its value's label, in the reader's
    language ("Options: Primacy points to win: 10 (standard) · Monster ties: at random"); a switch is named only
    when it is on. Never the keys and values typed in `/game new`."""
    parts: list[Msg] = []
    for spec in game.options():
        if spec.key in hide or spec.key not in options:
            continue
        value = options[spec.key]
        if isinstance(spec.default, bool):
            if _switched_on(value):
                parts.append(msg("core.lobby.option", name=spec.label, value=msg("core.value.yes")))
            continue
        parts.append(msg("core.lobby.option", name=spec.label, value=_option_value(spec, value)))
    if not parts:
        return msg("core.lobby.options", options=msg("core.lobby.options_none"))
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = msg("core.lobby.options_join", a=part, b=joined)
    return msg("core.lobby.options", options=joined)


def _switched_on(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1", "yes")


def _option_value(spec: OptionSpec, value: Any) -> Msg | Lit | int:
    """An option's value by its label (a number stays a number)."""
    for choice, label in spec.choices:
        if str(choice).lower() == str(value).lower():
            return label
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value)
    return Lit(text, text)


def _illegal_reason(game: Game, state: Any, seat: int, action: Action | None = None,
                    names: Mapping[int, str] | None = None) -> Msg:
    """Why a move is refused, in words people read: the engine's own reason when it gives one, else the
    moves that are legal now, by their labels (never internal ids). With `names`, the players it mentions are
    written in by name (a refusal reaches its reader without the table's list of names)."""
    reason = _engine_reason(game, state, seat, action)
    return _named(reason, names) if names else reason


def _engine_reason(game: Game, state: Any, seat: int, action: Action | None) -> Msg:
    if action is not None:
        reason = game.why_illegal(state, seat, action)
        if reason is None:
            try:  # the contract: apply refuses an illegal move with a RuleError and changes nothing
                game.apply(state, seat, action)
            except RuleError as exc:
                reason = exc.reason
            except Exception:  # an engine that cannot explain falls back to the list below
                log.exception("%s crashed while explaining a refusal of a %s move", game.id, action.kind)
                reason = None
        if reason is not None and reason.key != "core.error.illegal":
            return reason
    if game.step_built:
        first = game.choices(state, seat, ())
        labels = [c.label for c in first] if isinstance(first, list) else []
    else:
        labels = [la.label for la in game.legal_actions(state, seat)]
    if not labels:
        return msg("core.error.illegal", valid=msg("core.nobody"))
    shown: dict[str, Any] = {f"s{i}": label for i, label in enumerate(labels[:5])}
    listed = Msg(f"core.list.{len(labels)}", shown) if len(labels) <= 5 else Msg(
        "core.list.many", {**shown, "n": len(labels) - 5})
    return msg("core.error.illegal", valid=listed)


def _named(message: Msg, names: Mapping[int, str]) -> Msg:
    """`message` with every player it mentions (at any depth) written in by name."""
    def name(value: Any) -> Any:
        if isinstance(value, SeatRef) and value.seat in names:
            return Lit(names[value.seat], names[value.seat])
        return _named(value, names) if isinstance(value, Msg) else value

    return Msg(message.key, {key: name(value) for key, value in message.params.items()})


def apply_or_raise(game: Game, state: Any, seat: int, action: Action) -> Step:
    """Apply through the contract the way the table does (legality first); used by tools."""
    if seat not in game.to_act(state):
        raise NotYourTurn(msg("core.error.not_your_turn", seats=_seat_list(game.to_act(state))))
    if not game.is_legal(state, seat, action):
        raise IllegalAction(_illegal_reason(game, state, seat, action))
    return game.apply(state, seat, action)


__all__ = ["Table", "apply_or_raise"]
