"""Reading a game: its status, a seat's view, the moves a person may make now, the log, replay."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules import registry
from rules.base import Action, Choice, LegalAction, apply_logged, choices_from_legal
from rules.text import Msg, msg
from table import summary
from table.core import LOG_PAGE_LINES, _initial_state
from table.refusals import _storage_refusals
from table.results import GameSummary, Inspection, LogPage, NoGame, NotSeated, Report, TableError, Who
from table.steps import Steps
from table.texts import _options_line, _seats_line


class Reading(Steps):
    """What players and tools read (a base of `Table`)."""

    @_storage_refusals
    async def status(self, channel_id: int, who: Who) -> Report:
        await self.remember(who)
        row = await self._open_row(channel_id) or await self.store.last_game(channel_id)
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
        row = await self._open_row(channel_id)
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
        row = await self._open_row(channel_id)
        game = registry.get(row.game_type) if row else None
        return bool(game and game.step_built)

    async def check_turn(self, channel_id: int, who: Who) -> None:
        """Raise why this person cannot act now (no game, still a lobby, not seated, over, someone else's
        turn, named); return when one of their seats may act."""
        row = await self._open_row(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        self._acting_seat(await self._load(row), who)

    async def legal(self, channel_id: int, who: Who) -> list[LegalAction]:
        """The legal actions of this user now: their seat's on turn, else the moves one of their seats may make
        out of turn (a card played during another's turn); empty when there are none."""
        row = await self._open_row(channel_id)
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
        known = self._cache.legal(row.id, row.version, seat)
        if known is None:
            known = loaded.game.legal_actions(loaded.state, seat)
            self._cache.remember_legal(row.id, row.version, seat, known)
        return list(known)

    @_storage_refusals
    async def log(self, channel_id: int, who: Who, page: int = 1, *, game_id: int | None = None) -> LogPage:
        """The game's log as this viewer may see it, newest page first (page 1); paged by the database."""
        if game_id is not None:
            row = await self.store.game(game_id)
            if row is None or row.channel_id != channel_id:
                raise NoGame(msg("core.error.no_game"))
        else:
            # After the end, the log of the channel's last game is still worth reading.
            row = await self._open_row(channel_id) or await self.store.last_game(channel_id)
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
