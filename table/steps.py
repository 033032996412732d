"""One move applied and committed, the automated steps and AI seats after it, and the report that tells it."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from typing import Any

from rules.base import SYSTEM, Action, Event, GameOver, IllegalAction, NotYourTurn, RuleError, Step
from rules.rng import Rng
from rules.text import SeatRef, msg
from storage import Commit, Head, LogLine, StorageError, VersionConflict
from storage.store import KEEP
from table import ai_levels, engines, records, summary
from table.core import AI_STEP_LIMIT, SNAPSHOT_EVERY, SNAPSHOT_MAX, TableCore, _split
from table.results import Inspection, NotSeated, Report, StaleAction, TableError, Who
from table.texts import _illegal_reason, _seat_list

log = logging.getLogger("tabletop.table")


class Steps(TableCore):
    """Applying moves (a base of `Table`)."""

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

    @staticmethod
    def _step(loaded: Inspection, seat: int, action: Action) -> Step:
        """The engine's step for this move. Its `apply` is the one legality check of a move (the contract: it
        refuses an illegal move and changes nothing); only a refusal asks `is_legal`, to tell a move the engine
        refuses for its own reason (its words stand) from an illegal one (the table's words: why, or what is
        legal now)."""
        game, state = loaded.game, loaded.state
        try:
            return game.apply(state, seat, action)
        except Exception:
            if seat == SYSTEM or game.is_legal(state, seat, action):
                raise
        raise IllegalAction(_illegal_reason(game, state, seat, action, loaded.names()))

    async def _apply(self, loaded: Inspection, report: Report, seat: int, action: Action, user_id: int | None,
                     *, kind: str, lines: list[LogLine] | None = None,
                     timeout: dict[str, Any] | None = None) -> set[int]:
        """Apply one action, commit it, and add its events to the report; returns seats told privately.

        A step of a time-out passes what is left of it (`timeout`): the passed deadline is kept through the turns
        it changes, so the whole default is one deadline, ended by `_end_timeout`."""
        game, state = loaded.game, loaded.state
        step = self._step(loaded, seat, action)
        turn_before = json.dumps(game.turn_key(state), default=str)
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
                (now := self.clock()), status="finished" if finished else None, new_turn=new_turn,
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
        self._settle(loaded, now, new_turn=new_turn)
        if finished:
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

    async def _then_auto(self, loaded: Inspection, report: Report) -> None:
        """The AI seats' and the game's own moves that follow a person's command (a move, a start, a skip) or a
        time-out: with `defer_auto` they are left to `resume` (`report.pending_auto`), which the caller runs once
        the person has their answer, each step its own commit; otherwise they are played here, at once."""
        if self.defer_auto:
            report.pending_auto = self._auto_due(loaded)
        else:
            await self._run_auto(loaded, report)

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
            try:
                if SYSTEM in to_act:
                    try:
                        action = game.system_action(loaded.state)
                    except Exception:
                        log.exception("the automated step of %s (game %s) failed", game.id, loaded.row.id)
                        break
                    await self._apply(loaded, report, SYSTEM, action, None, kind="auto")
                elif ready:
                    seat = ready[0]
                    chosen = await asyncio.to_thread(self._ai_action, loaded, seat) if offload \
                        else self._ai_action(loaded, seat)
                    if not await self._ai_move(loaded, report, seat, chosen):
                        report.public.append(msg("core.ai.stuck", seat=SeatRef(seat)))
                        break
                else:
                    break
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

    def _ai_action(self, loaded: Inspection, seat: int) -> Action | None:
        """The AI's move (unchecked: applying it checks it), or None when the AI cannot choose."""
        game = loaded.game
        rng = Rng.from_seed(loaded.row.seed ^ (loaded.row.version * 0x9E3779B1))
        try:
            return game.ai_action(loaded.state, seat, rng, level=ai_levels.level_of(loaded.row.extra))
        except Exception:
            # An AI that cannot choose must not block the table: its turn is skipped if the game allows.
            log.exception("AI of %s (game %s, seat %s) failed", game.id, loaded.row.id, seat)
            return None

    async def _ai_move(self, loaded: Inspection, report: Report, seat: int, action: Action | None) -> bool:
        """Apply the AI's move, or the game's skip for the seat when the AI could not choose or chose an illegal
        move; False when neither could be played (nothing changed)."""
        game = loaded.game
        if action is not None:
            try:
                await self._apply(loaded, report, seat, action, None, kind="act")
                return True
            except IllegalAction:
                # the move's kind only: its arguments may name what the AI's hand hides
                log.error("AI of %s (game %s, seat %s) chose an illegal %s move", game.id, loaded.row.id, seat,
                          action.kind)
        skip = game.skip_action(loaded.state, seat)
        if skip is None:
            return False
        try:
            await self._apply(loaded, report, seat, skip, None, kind="skip",
                              lines=[LogLine(msg("core.log.skipped", seat=SeatRef(seat)).to_json())])
        except IllegalAction:
            return False
        return True

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

    @staticmethod
    def _auto_due(loaded: Inspection) -> bool:
        """Whether the game itself or an AI seat is to move now."""
        if loaded.row.status != "active" or loaded.state is None or loaded.game.outcome(loaded.state) is not None:
            return False
        to_act = loaded.game.to_act(loaded.state)
        return SYSTEM in to_act or bool(loaded.ai_seats() & to_act)
