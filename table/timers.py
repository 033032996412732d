"""Reminders of a turn that waits and the time-outs that play the default for a late seat, each once."""

from __future__ import annotations

import json
import logging

from rules.text import SeatRef, msg
from storage import GameRow, LogLine
from table.core import DEFAULT_IDLE_HOURS, DEFAULT_REMINDER_MINUTES, TIMEOUT_LEASE_SECONDS, TIMEOUT_STEPS, _turn_json
from table.refusals import _storage_refusals
from table.results import Reminder, Report, StaleAction
from table.steps import Steps

log = logging.getLogger("tabletop.table")


class Timers(Steps):
    """Reminders and time-outs (a base of `Table`)."""

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
            await self._then_auto(loaded, report)
            await self._finish_report(loaded, report, private_for=changed, awaited_before=awaited)
            return report
