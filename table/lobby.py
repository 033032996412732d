"""The lobby: a new table, seats taken and left, the start, and abandoning."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import BadOptions
from rules.text import Lit, Msg, msg
from storage import ChannelBusy, Commit, Head, LogLine, SeatRow, VersionConflict
from storage.store import pack
from table import ai_levels, engines, records, uploads
from table.core import MAX_SETUP_BYTES, MAX_TIMER_MINUTES, _initial_state, _split
from table.refusals import _storage_refusals
from table.results import NotSeated, Report, StaleAction, TableError, Who
from table.steps import Steps
from table.texts import _ai_name, _options_line, _seats_line


class Lobby(Steps):
    """Lobby and seats (a base of `Table`)."""

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
        _file_notes(report, who.user_id, [Msg.from_json(w) for w in (setup or {}).get("warnings", [])])
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
                    (now := self.clock()), status="active", new_turn=True, blobs=blobs,
                    deadline=(deadline := self._deadline(loaded, state)),
                )
            except VersionConflict as exc:
                raise StaleAction(msg("core.error.conflict")) from exc
            self._cache.put(row.id, version, state, loaded.seats, engine=engine)
            loaded.row.version, loaded.row.status, loaded.state, loaded.engine = version, "active", state, engine
            loaded.row.snapshot_version, loaded.row.deadline_at, loaded.row.timeout = version, deadline, None
            self._settle(loaded, now, new_turn=True)
            report = self._report(loaded, version, "active", loaded.seats)
            report.turn_changed = True
            report.public.append(msg("core.lobby.started", game=Msg(game.name_key)))
            # The bots that open the game move inside the start: their first moves are part of its announcement.
            await self._run_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=set(range(len(loaded.seats))))
            return report

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


#: Warnings shown in the answer to an upload; the rest are counted (a phone screen holds about this many).
FILE_NOTES_SHOWN = 12
#: An importer's line that tells a ruling it made and asks nothing of the reader (HeroQuest's Door In).
INFO_MARK = ".imp.info."


def _file_notes(report: Report, user_id: int, told: list[Msg]) -> None:
    """What the uploader should know of their file: the rulings first, then what to check, counted."""
    warnings = [m for m in told if INFO_MARK not in m.key]
    for info in (m for m in told if INFO_MARK in m.key):
        report.add_private(user_id, msg("core.lobby.file_info", text=info))
    if warnings:
        report.add_private(user_id, msg("core.lobby.file_warnings", count=len(warnings)))
    for warning in warnings[:FILE_NOTES_SHOWN]:
        report.add_private(user_id, msg("core.lobby.file_warning", text=warning))
    if len(warnings) > FILE_NOTES_SHOWN:
        report.add_private(user_id, msg("core.lobby.file_more", count=len(warnings) - FILE_NOTES_SHOWN))

