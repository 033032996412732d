"""The table: lobby, seats, turns, permissions, undo, AI seats, reminders; Discord-free."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules import registry
from rules.base import Action, Event, Game, GameOver, IllegalAction, LegalAction, NotYourTurn, RuleError, Step
from rules.rng import Rng
from rules.text import Msg, SeatRef, msg
from storage import ActionRow, ChannelBusy, Commit, GameRow, SeatRow, Store, VersionConflict
from table.results import (
    GameSummary,
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
AI_NAMES = ("Ada", "Bernat", "Carmen", "Dario", "Elena", "Fausto", "Gala", "Hugo")


@dataclass
class _Loaded:
    row: GameRow
    game: Game
    seats: list[SeatRow]
    state: Any | None

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.kind == "human" and s.user_id == user_id:
                return s.seat
        return None

    def user_of(self, seat: int) -> int | None:
        for s in self.seats:
            if s.seat == seat and s.kind == "human":
                return s.user_id
        return None

    def names(self) -> dict[int, str]:
        return {s.seat: s.name for s in self.seats}

    def ai_seats(self) -> set[int]:
        return {s.seat for s in self.seats if s.kind == "ai"}


class Table:
    """The one entry point for cogs, local play and tests. One lock per game serialises changes."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Any]] = {}

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # ---------------------------------------------------------------- loading

    async def _open_in(self, channel_id: int) -> GameRow:
        row = await self.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        return row

    async def _load(self, row: GameRow) -> _Loaded:
        game = registry.get(row.game_type)
        if game is None:
            raise TableError(msg("core.error.unknown_game", game=row.game_type, valid=_valid_games()))
        seats = await self.store.seats(row.id)
        state = None
        if row.status != "lobby":
            cached = self._cache.get(row.id)
            if cached and cached[0] == row.version:
                state = cached[1]
            else:
                snap = await self.store.latest_snapshot(row.id)
                if snap is not None:
                    state = game.from_json(snap[1])
                    self._cache[row.id] = (snap[0], state)
        return _Loaded(row, game, seats, state)

    async def game_for(self, channel_id: int) -> GameRow | None:
        return await self.store.open_game(channel_id)

    # ---------------------------------------------------------------- lobby

    async def new(self, *, guild_id: int | None, channel_id: int, who: Who, game_type: str,
                  options: Mapping[str, str] | None = None, ai_seats: int = 0,
                  extra: Mapping[str, Any] | None = None) -> Report:
        game = registry.get(game_type)
        if game is None:
            raise TableError(msg("core.error.unknown_game", game=game_type, valid=_valid_games()))
        resolved = game.resolve_options(dict(options or {}))
        if ai_seats < 0 or ai_seats >= game.max_seats:
            raise TableError(msg("core.error.ai_count", high=game.max_seats - 1))
        if ai_seats and not game.supports_ai:
            raise TableError(msg("core.error.no_ai_here", game=Msg(game.name_key)))
        now = self.clock()
        try:
            game_id = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, game_type=game_type, options=resolved,
                seed=self.seed_source(), creator_id=who.user_id, now=now, extra=dict(extra or {}),
            )
        except ChannelBusy as exc:
            raise TableError(msg("core.error.channel_busy")) from exc
        seats = [SeatRow(0, who.user_id, "human", who.name)]
        seats += [SeatRow(i + 1, None, "ai", f"{AI_NAMES[i % len(AI_NAMES)]} (IA)") for i in range(ai_seats)]
        version = await self.store.set_seats(game_id, 0, seats, now)
        report = Report(game_id, game_type, version, "lobby", seat_names={s.seat: s.name for s in seats})
        report.public.append(msg("core.lobby.created", who=who.name, game=Msg(game.name_key),
                                 low=game.min_seats, high=game.max_seats))
        uploaded = bool((extra or {}).get("setup"))
        report.public.append(_options_line(game, resolved, hide=game.upload_overrides if uploaded else ()))
        report.public.append(_seats_line(seats))
        return report

    async def join(self, channel_id: int, who: Who) -> Report:
        row = await self._open_in(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(await self._reload(row.id))
            if loaded.row.status != "lobby":
                raise TableError(msg("core.error.already_started"))
            if loaded.seat_of(who.user_id) is not None:
                raise TableError(msg("core.error.already_seated"))
            if len(loaded.seats) >= loaded.game.max_seats:
                raise TableError(msg("core.error.table_full", high=loaded.game.max_seats))
            seats = [*loaded.seats, SeatRow(len(loaded.seats), who.user_id, "human", who.name)]
            version = await self._set_seats(loaded, seats)
            report = self._report(loaded, version, "lobby", seats)
            report.public.append(msg("core.lobby.joined", who=who.name))
            report.public.append(_seats_line(seats))
            return report

    async def leave(self, channel_id: int, who: Who) -> Report:
        row = await self._open_in(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(await self._reload(row.id))
            if loaded.row.status != "lobby":
                raise TableError(msg("core.error.leave_started"))
            seat = loaded.seat_of(who.user_id)
            if seat is None:
                raise NotSeated(msg("core.error.not_seated"))
            rest = [s for s in loaded.seats if s.seat != seat]
            seats = [SeatRow(i, s.user_id, s.kind, s.name) for i, s in enumerate(rest)]
            humans = [s for s in seats if s.kind == "human"]
            if not humans:
                version = await self.store.bump(row.id, loaded.row.version, self.clock(), status="abandoned")
                report = self._report(loaded, version, "abandoned", seats)
                report.public.append(msg("core.lobby.closed_empty", who=who.name))
                return report
            version = await self._set_seats(loaded, seats)
            report = self._report(loaded, version, "lobby", seats)
            report.public.append(msg("core.lobby.left", who=who.name))
            report.public.append(_seats_line(seats))
            return report

    async def _set_seats(self, loaded: _Loaded, seats: list[SeatRow]) -> int:
        try:
            return await self.store.set_seats(loaded.row.id, loaded.row.version, seats, self.clock())
        except VersionConflict as exc:
            raise StaleAction(msg("core.error.conflict")) from exc

    async def start(self, channel_id: int, who: Who) -> Report:
        row = await self._open_in(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(await self._reload(row.id))
            if loaded.row.status != "lobby":
                raise TableError(msg("core.error.already_started"))
            if loaded.seat_of(who.user_id) is None:
                raise NotSeated(msg("core.error.not_seated_lobby"))
            game = loaded.game
            game.check_seats(loaded.row.options, len(loaded.seats))
            keys = game.profile_keys(loaded.row.options, len(loaded.seats))
            if keys:
                # Snapshot the records into the game's set-up so replay never depends on later changes.
                profiles = await self.store.profiles(loaded.row.guild_id, game.id, keys)
                setup = {**loaded.row.extra.get("setup", {}), "profiles": profiles}
                loaded.row.extra = {**loaded.row.extra, "setup": setup}
                await self.store.bump(row.id, loaded.row.version, self.clock(), extra=loaded.row.extra)
                loaded.row.version += 1
            state = self._initial_state(loaded)
            version = await self.store.commit(
                row.id, loaded.row.version,
                Commit(kind="start", state=game.to_json(state), user_id=who.user_id), self.clock(),
                status="active", new_turn=True,
            )
            self._cache[row.id] = (version, state)
            loaded.row.version, loaded.row.status, loaded.state = version, "active", state
            report = self._report(loaded, version, "active", loaded.seats)
            report.public.append(msg("core.lobby.started", game=Msg(game.name_key)))
            await self._run_ai(loaded, report)
            self._finish_report(loaded, report, private_for=set(range(len(loaded.seats))))
            return report

    def _initial_state(self, loaded: _Loaded) -> Any:
        game, row = loaded.game, loaded.row
        setup = row.extra.get("setup")
        new_with_setup = getattr(game, "new_with_setup", None)
        if setup is not None and callable(new_with_setup):
            return new_with_setup(setup, row.options, len(loaded.seats), row.seed)
        return game.new(row.options, len(loaded.seats), row.seed)

    # ---------------------------------------------------------------- play

    async def act(self, channel_id: int, who: Who, action: Action, *, expected_version: int | None = None,
                  game_id: int | None = None) -> Report:
        row = await self._open_in(channel_id)
        if game_id is not None and game_id != row.id:
            raise StaleAction(msg("core.error.stale"))
        async with self._lock(row.id):
            loaded = await self._load(await self._reload(row.id))
            if expected_version is not None and expected_version != loaded.row.version:
                raise StaleAction(msg("core.error.stale"))
            seat = self._acting_seat(loaded, who, action)
            report = self._report(loaded, loaded.row.version, loaded.row.status, loaded.seats)
            changed = await self._apply(loaded, report, seat, action, who.user_id, kind="act")
            await self._run_ai(loaded, report)
            self._finish_report(loaded, report, private_for=changed)
            return report

    def _acting_seat(self, loaded: _Loaded, who: Who, action: Action | None = None) -> int:
        if loaded.row.status == "lobby":
            raise TableError(msg("core.error.not_started"))
        seat = loaded.seat_of(who.user_id)
        if seat is None:
            raise NotSeated(msg("core.error.not_seated"))
        if loaded.game.outcome(loaded.state) is not None:
            raise GameOver(msg("core.error.game_over"))
        to_act = loaded.game.to_act(loaded.state)
        allowed = seat in to_act if action is None else loaded.game.may_act(loaded.state, seat, action)
        if not allowed:
            raise NotYourTurn(msg("core.error.not_your_turn", seats=_seat_list(to_act)))
        return seat

    async def _apply(self, loaded: _Loaded, report: Report, seat: int, action: Action, user_id: int | None,
                     *, kind: str) -> set[int]:
        """Apply one action, commit it, and add its events to the report; returns seats told privately."""
        game, state = loaded.game, loaded.state
        if not game.is_legal(state, seat, action):
            raise IllegalAction(_illegal_reason(game, state, seat))
        turn_before = json.dumps(game.turn_key(state), default=str)
        step: Step = game.apply(state, seat, action)
        finished = game.outcome(step.state) is not None
        new_turn = game.turn_key(step.state) != game.turn_key(state)
        report.turn_changed = report.turn_changed or new_turn
        try:
            version = await self.store.commit(
                loaded.row.id, loaded.row.version,
                Commit(kind=kind, state=game.to_json(step.state), seat=seat, user_id=user_id,
                       action=action.to_json(), events=[e.to_json() for e in step.events],
                       undoable=step.undoable and kind == "act", turn_before=turn_before),
                self.clock(), status="finished" if finished else None, new_turn=new_turn,
            )
        except VersionConflict as exc:
            self._cache.pop(loaded.row.id, None)
            raise StaleAction(msg("core.error.conflict")) from exc
        self._cache[loaded.row.id] = (version, step.state)
        loaded.row.version, loaded.state = version, step.state
        if finished:
            loaded.row.status = "finished"
            updates = game.profile_updates(step.state)
            if updates:
                await self.store.save_profiles(loaded.row.guild_id, game.id, updates, self.clock())
        report.version, report.status = version, loaded.row.status
        return self._add_events(loaded, report, step.events)

    def _add_events(self, loaded: _Loaded, report: Report, events: list[Event]) -> set[int]:
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

    async def _run_ai(self, loaded: _Loaded, report: Report) -> None:
        ai = loaded.ai_seats()
        if not ai or loaded.state is None:
            return
        game = loaded.game
        for _ in range(AI_STEP_LIMIT):
            if loaded.row.status != "active" or game.outcome(loaded.state) is not None:
                return
            ready = sorted(ai & game.to_act(loaded.state))
            if not ready:
                return
            seat = ready[0]
            rng = Rng.from_seed(loaded.row.seed ^ (loaded.row.version * 0x9E3779B1))
            action = game.ai_action(loaded.state, seat, rng)
            await self._apply(loaded, report, seat, action, None, kind="act")

    def _finish_report(self, loaded: _Loaded, report: Report, *, private_for: set[int]) -> None:
        game, state = loaded.game, loaded.state
        report.board = game.view(state, None)
        outcome = game.outcome(state)
        if outcome is not None:
            report.finished = True
            report.public.append(outcome.summary)
            return
        for seat in sorted(game.to_act(state)):
            user = loaded.user_of(seat)
            if user is not None and user not in report.mention:
                report.mention.append(user)
        watchers = game.watchers(state) if report.turn_changed else frozenset()
        for seat in private_for | set(game.to_act(state)) | watchers:
            user = loaded.user_of(seat)
            if user is not None:
                report.private_views[user] = game.view(state, seat)
                if seat in watchers and user not in report.watch:
                    report.watch.append(user)

    def _report(self, loaded: _Loaded, version: int, status: str, seats: list[SeatRow]) -> Report:
        return Report(loaded.row.id, loaded.row.game_type, version, status,
                      seat_names={s.seat: s.name for s in seats})

    async def _reload(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        return row

    # ---------------------------------------------------------------- undo and skip

    async def undo(self, channel_id: int, who: Who) -> Report:
        row = await self._open_in(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(await self._reload(row.id))
            seat = self._acting_seat(loaded, who)
            target = await self._head(row.id, loaded.row.version)
            if target is None or target.kind != "act" or target.seat != seat or target.user_id != who.user_id:
                raise TableError(msg("core.error.undo_not_yours"))
            if not target.undoable:
                raise TableError(msg("core.error.undo_hidden"))
            game = loaded.game
            if json.dumps(game.turn_key(loaded.state), default=str) != target.turn_before:
                raise TableError(msg("core.error.undo_turn"))
            restored_version = target.version - 1
            snap = await self.store.snapshot(row.id, restored_version)
            if snap is None:
                raise TableError(msg("core.error.undo_turn"))
            state = game.from_json(snap)
            try:
                version = await self.store.commit(
                    row.id, loaded.row.version,
                    Commit(kind="undo", state=snap, seat=seat, user_id=who.user_id,
                           action={"undo": target.version}, state_of=restored_version),
                    self.clock(),
                )
            except VersionConflict as exc:
                raise StaleAction(msg("core.error.conflict")) from exc
            self._cache[row.id] = (version, state)
            loaded.row.version, loaded.state = version, state
            report = self._report(loaded, version, "active", loaded.seats)
            report.public.append(msg("core.undo.done", who=SeatRef(seat)))
            self._finish_report(loaded, report, private_for={seat})
            return report

    async def _head(self, game_id: int, version: int) -> ActionRow | None:
        """The log row that produced the state at `version` (following undo rows back)."""
        row = await self.store.action(game_id, version)
        while row is not None and row.kind == "undo":
            row = await self.store.action(game_id, row.state_of)
        return row

    async def skip(self, channel_id: int, who: Who, *, expected_version: int | None = None) -> Report:
        """Another seated player skips the turn of an absent one, once the idle limit has passed."""
        row = await self._open_in(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(await self._reload(row.id))
            if loaded.row.status != "active":
                raise TableError(msg("core.error.not_started"))
            if expected_version is not None and expected_version != loaded.row.version:
                raise StaleAction(msg("core.error.stale"))
            me = loaded.seat_of(who.user_id)
            if me is None:
                raise NotSeated(msg("core.error.not_seated"))
            idle_hours = await self._idle_hours(loaded.row)
            started = loaded.row.turn_started_at or loaded.row.updated_at
            if self.clock() - started < idle_hours * 3600:
                raise TableError(msg("core.error.skip_too_soon", hours=idle_hours))
            absent = [s for s in sorted(loaded.game.to_act(loaded.state)) if s != me and loaded.user_of(s)]
            if not absent:
                raise TableError(msg("core.error.skip_nobody"))
            report = self._report(loaded, loaded.row.version, "active", loaded.seats)
            changed: set[int] = set()
            for seat in absent:
                action = loaded.game.skip_action(loaded.state, seat)
                if action is None:
                    raise TableError(msg("core.error.skip_unsupported"))
                report.public.append(msg("core.skip.done", who=who.name, seat=SeatRef(seat)))
                changed |= await self._apply(loaded, report, seat, action, who.user_id, kind="skip")
            await self._run_ai(loaded, report)
            self._finish_report(loaded, report, private_for=changed)
            return report

    # ---------------------------------------------------------------- reading

    async def status(self, channel_id: int, who: Who) -> Report:
        row = await self.store.open_game(channel_id) or await self.store.last_game(channel_id)
        if row is None or row.status == "abandoned":
            raise NoGame(msg("core.error.no_game"))
        loaded = await self._load(row)
        report = self._report(loaded, row.version, row.status, loaded.seats)
        if row.status == "lobby":
            report.public.append(msg("core.lobby.waiting", game=Msg(loaded.game.name_key),
                                     low=loaded.game.min_seats, high=loaded.game.max_seats))
            report.public.append(_options_line(loaded.game, row.options))
            report.public.append(_seats_line(loaded.seats))
            return report
        outcome = loaded.game.outcome(loaded.state)
        if outcome is not None:
            report.public.append(outcome.summary)
        else:
            report.public.append(msg("core.status.turn", seats=_seat_list(loaded.game.to_act(loaded.state))))
        report.board = loaded.game.view(loaded.state, None)
        seat = loaded.seat_of(who.user_id)
        if seat is not None:
            report.private_views[who.user_id] = loaded.game.view(loaded.state, seat)
        return report

    async def private_view(self, channel_id: int, who: Who) -> tuple[str, dict[str, Any], dict[int, str]]:
        row = await self._open_in(channel_id)
        loaded = await self._load(row)
        if row.status == "lobby":
            raise TableError(msg("core.error.not_started"))
        seat = loaded.seat_of(who.user_id)
        if seat is None:
            raise NotSeated(msg("core.error.not_seated"))
        return row.game_type, loaded.game.view(loaded.state, seat), loaded.names()

    async def legal(self, channel_id: int, who: Who) -> list[LegalAction]:
        """The legal actions of this user now (empty when it is not their turn)."""
        row = await self.store.open_game(channel_id)
        if row is None or row.status != "active":
            return []
        loaded = await self._load(row)
        seat = loaded.seat_of(who.user_id)
        if seat is None or seat not in loaded.game.to_act(loaded.state):
            return []
        return loaded.game.legal_actions(loaded.state, seat)

    async def log(self, channel_id: int, who: Who, page: int = 1, *, game_id: int | None = None) -> LogPage:
        """The game's log as this viewer may see it, newest page first (page 1)."""
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
        lines: list[tuple[int, Msg]] = []
        for entry in await self.store.actions(row.id):
            if entry.kind == "start":
                lines.append((entry.version, msg("core.log.start")))
            elif entry.kind == "undo":
                lines.append((entry.version, msg("core.undo.done", who=SeatRef(entry.seat or 0))))
            else:
                if entry.kind == "skip":
                    lines.append((entry.version, msg("core.log.skipped", seat=SeatRef(entry.seat or 0))))
                for data in entry.events:
                    event = Event.from_json(data)
                    if event.visible_to(viewer):
                        lines.append((entry.version, event.msg))
        pages = max(1, -(-len(lines) // LOG_PAGE_LINES))
        if not 1 <= page <= pages:
            raise TableError(msg("core.error.log_page", pages=pages))
        end = len(lines) - (page - 1) * LOG_PAGE_LINES
        start = max(0, end - LOG_PAGE_LINES)
        return LogPage(row.id, page, pages, tuple(lines[start:end]), {s.seat: s.name for s in seats})

    async def abandon(self, channel_id: int, who: Who) -> Report:
        row = await self._open_in(channel_id)
        async with self._lock(row.id):
            row = await self._reload(row.id)
            if who.user_id != row.creator_id and not who.can_manage:
                raise TableError(msg("core.error.abandon_forbidden"))
            version = await self.store.bump(row.id, row.version, self.clock(), status="abandoned")
            self._cache.pop(row.id, None)
            seats = await self.store.seats(row.id)
            report = Report(row.id, row.game_type, version, "abandoned", seat_names={s.seat: s.name for s in seats})
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

    async def update_profile(self, guild_id: int | None, game_type: str, key: str,
                             change: Callable[[dict[str, Any] | None], dict[str, Any]]) -> dict[str, Any]:
        """Apply a pure change to one record (buying between quests...); `change` raises RuleError to refuse."""
        async with self._lock(-hash((guild_id, game_type, key)) % (1 << 30) - (1 << 31)):
            current = (await self.store.profiles(guild_id, game_type, [key])).get(key)
            updated = change(current)
            await self.store.save_profiles(guild_id, game_type, {key: updated}, self.clock())
            return updated

    # ---------------------------------------------------------------- play-by-post

    async def configure(self, guild_id: int, who: Who, *, reminder_minutes: int | None = None,
                        idle_hours: int | None = None) -> Msg:
        if not who.can_manage:
            raise TableError(msg("core.error.settings_forbidden"))
        if reminder_minutes is not None and not 1 <= reminder_minutes <= 7 * 24 * 60:
            raise TableError(msg("core.error.reminder_range"))
        if idle_hours is not None and not 1 <= idle_hours <= 30 * 24:
            raise TableError(msg("core.error.idle_range"))
        await self.store.set_guild_settings(guild_id, reminder_minutes=reminder_minutes, idle_hours=idle_hours)
        settings = await self.store.guild_settings(guild_id)
        return msg("core.settings.now",
                   minutes=settings.get("reminder_minutes", DEFAULT_REMINDER_MINUTES),
                   hours=settings.get("idle_hours", DEFAULT_IDLE_HOURS))

    async def _idle_hours(self, row: GameRow) -> int:
        settings = await self.store.guild_settings(row.guild_id)
        return int(settings.get("idle_hours", DEFAULT_IDLE_HOURS))

    async def due_reminders(self) -> list[Reminder]:
        """Games whose turn has waited too long; marks them so each turn is nudged once per kind."""
        now = self.clock()
        due: list[Reminder] = []
        for row in await self.store.active_games():
            settings = await self.store.guild_settings(row.guild_id)
            minutes = row.extra.get("reminder_minutes") or settings.get("reminder_minutes",
                                                                       DEFAULT_REMINDER_MINUTES)
            idle = int(settings.get("idle_hours", DEFAULT_IDLE_HOURS))
            started = row.turn_started_at or row.updated_at
            waited = now - started
            kind = None
            if waited >= idle * 3600 and row.idle_offered_at is None:
                kind = "idle"
                await self.store.touch(row.id, idle_offered_at=now, reminded_at=now)
            elif waited >= minutes * 60 and row.reminded_at is None:
                kind = "reminder"
                await self.store.touch(row.id, reminded_at=now)
            if kind is None:
                continue
            loaded = await self._load(row)
            seats = tuple(sorted(s for s in loaded.game.to_act(loaded.state) if loaded.user_of(s) is not None))
            users = tuple(u for s in seats if (u := loaded.user_of(s)) is not None)
            if users:
                due.append(Reminder(row.id, row.game_type, row.channel_id, row.guild_id, kind, users, seats,
                                    row.version, loaded.names()))
        return due

    # ---------------------------------------------------------------- replay (tests and tools)

    async def replay(self, game_id: int) -> Any:
        """Rebuild the state from the seed and the log alone (undo rows pop back to earlier states)."""
        row = await self._reload(game_id)
        loaded = await self._load(row)
        game = loaded.game
        states: dict[int, Any] = {}
        state = None
        for entry in await self.store.actions(game_id):
            if entry.kind == "start":
                state = self._initial_state(loaded)
            elif entry.kind == "undo":
                state = states[entry.state_of]
            else:
                assert entry.action is not None and entry.seat is not None
                state = game.apply(state, entry.seat, Action.from_json(entry.action)).state
            states[entry.version] = state
        return state


def _valid_games() -> str:
    return ", ".join(sorted(registry.games())) or "-"


def _seat_list(seats: frozenset[int] | set[int]) -> Msg:
    ordered = sorted(seats)
    if not ordered:
        return msg("core.nobody")
    names: dict[str, Any] = {f"s{i}": SeatRef(s) for i, s in enumerate(ordered)}
    template_key = f"core.list.{min(len(ordered), 6)}"
    return Msg(template_key, names) if len(ordered) <= 6 else msg("core.list.many", n=len(ordered))


def _seats_line(seats: list[SeatRow]) -> Msg:
    names = ", ".join(f"{s.seat + 1}. {s.name}" for s in seats) or "-"
    return msg("core.lobby.seats", seats=names, n=len(seats))


def _options_line(game: Game, options: Mapping[str, Any], hide: tuple[str, ...] = ()) -> Msg:
    parts = [f"{k}={v}" for k, v in options.items() if k not in hide]
    return msg("core.lobby.options", options=" ".join(parts) or "-")


def _illegal_reason(game: Game, state: Any, seat: int) -> Msg:
    legal = game.legal_actions(state, seat)
    examples = ", ".join(la.action.token() for la in legal[:5])
    if len(legal) > 5:
        examples += ", …"
    return msg("core.error.illegal", valid=examples or "-")


def apply_or_raise(game: Game, state: Any, seat: int, action: Action) -> Step:
    """Apply through the contract the way the table does (legality first); used by tools."""
    if seat not in game.to_act(state):
        raise NotYourTurn(msg("core.error.not_your_turn", seats=_seat_list(game.to_act(state))))
    if not game.is_legal(state, seat, action):
        raise IllegalAction(_illegal_reason(game, state, seat))
    return game.apply(state, seat, action)


__all__ = ["RuleError", "Table", "apply_or_raise"]
