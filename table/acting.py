"""A person's move, taking it back, and skipping past whoever blocks the game."""

from __future__ import annotations

import json

from rules.base import Action, GameOver
from rules.text import SeatRef, msg
from storage import ActionRow, Commit, Head, LogLine, VersionConflict
from table import ai_levels, engines, summary
from table.core import _split
from table.refusals import _storage_refusals
from table.results import NotSeated, Report, StaleAction, TableError, Who
from table.steps import Steps


class Acting(Steps):
    """Acting, undo and skip (a base of `Table`)."""

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
            await self._then_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=changed, public_before=public_before,
                                      awaited_before=awaited)
            return report

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
                    (now := self.clock()),
                )
            except VersionConflict as exc:
                raise StaleAction(msg("core.error.conflict")) from exc
            self._cache.put(row.id, version, state, loaded.seats, engine=engine, chain=chain)
            loaded.row.version, loaded.state, loaded.row.snapshot_version = version, state, version
            loaded.engine, loaded.chain = engine, chain
            self._settle(loaded, now, new_turn=False)
            report = self._report(loaded, version, "active", loaded.seats)
            report.public.append(msg("core.undo.done", who=SeatRef(seat)))
            await self._finish_report(loaded, report, private_for={seat}, awaited_before=awaited)
            return report

    async def can_undo(self, channel_id: int, who: Who) -> bool:
        """Whether `undo` would take back this person's newest move now (so an Undo button is worth showing)."""
        row = await self._open_row(channel_id)
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
            await self._then_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=changed, awaited_before=awaited)
            return report
