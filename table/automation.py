"""Games that move by themselves: finding those that stall and playing their automated steps one by one."""

from __future__ import annotations

import logging

from rules.base import SYSTEM
from table.core import AI_STEP_LIMIT
from table.refusals import _storage_refusals
from table.results import Inspection, NoGame, Report
from table.steps import Steps

log = logging.getLogger("tabletop.table")


class Automation(Steps):
    """The bots' and the game's own steps after a person's move (a base of `Table`)."""

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

    async def _close_resumed(self, loaded: Inspection, report: Report, awaited: frozenset[int]) -> Report | None:
        if loaded.row.id != report.game_id:
            return None
        report.turn_start = None  # the bots' turns open the next message; they close no person's turn
        await self._finish_report(loaded, report, private_for=set(), awaited_before=awaited)
        return report
