"""Ways out and ways on: resigning, a seat handed to someone else, abandoning with a summary and the rematch;
Discord-free, on top of the table."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from rules.base import RESIGN, Action, Game, GameOver, Step
from rules.text import Msg, msg
from storage import ChannelBusy, Commit, Head, LogLine, SeatRow, VersionConflict
from table import ai_levels, engines, records
from table.results import Inspection, NoGame, NotSeated, Report, StaleAction, TableError, Who
from table.service import (
    Table,
    _options_line,
    _seats_line,
    _storage_refusals,
)
from table.summary import seat_list, stopped_lines

#: What a seat handed to the bot is called: its player's name, marked.
BOT_SUFFIX = " (bot)"
_MENTION = re.compile(r"^<@!?(\d+)>$")


@dataclass
class ResignPlan:
    """What resigning does for one person now: their seats, and the game's steps taking each out in turn (empty:
    the seats go to the AI), ending in `state`."""

    seats: list[int]
    steps: list[tuple[int, Step]]
    state: Any

    def question(self, game: Game) -> Msg:
        if not self.steps:
            return msg("core.resign.ask.ai", seats=seat_list(self.seats))
        outcome = game.outcome(self.state)
        if outcome is None:
            return msg("core.resign.ask.out")
        if not outcome.winners:
            return msg("core.resign.ask.ends")
        return msg("core.resign.ask.wins", n=len(outcome.winners), winners=seat_list(outcome.winners))


class Exits:
    """Resign, replace, abandon (asked first) and rematch, for one table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    # ---------------------------------------------------------------- resigning

    def _plan(self, loaded: Inspection, who: Who) -> ResignPlan:
        """What resigning would do for this person, or the refusal that says why they may not."""
        if loaded.row.status == "lobby":
            raise TableError(msg("core.resign.error.lobby"))
        seats = loaded.seats_of(who.user_id)
        if not seats:
            raise NotSeated(msg("core.error.not_seated"))
        game, state = loaded.game, loaded.state
        if loaded.row.status != "active" or game.outcome(state) is not None:
            raise GameOver(msg("core.error.game_over"))
        if any(game.seat_role(loaded.row.options, s) == "gm" for s in seats):
            raise TableError(msg("core.resign.error.gm"))
        steps: list[tuple[int, Step]] = []
        after = state
        for seat in seats:
            if game.outcome(after) is not None:
                break
            step = game.resign(after, seat)
            if step is None:
                steps = []
                break
            steps.append((seat, step))
            after = step.state
        others = [s for s in loaded.seats if s.kind == "human" and s.user_id != who.user_id]
        if not steps:
            if not game.supports_ai:
                raise TableError(msg("core.resign.error.no_ai", game=Msg(game.name_key)))
            if not others:
                raise TableError(msg("core.resign.error.last"))
            return ResignPlan(seats, [], state)
        if game.outcome(after) is None and not others:
            raise TableError(msg("core.resign.error.last"))
        return ResignPlan(seats, steps, after)

    async def resign_question(self, channel_id: int, who: Who) -> Msg:
        """The confirmation's question: what resigning would do now; raises the refusal when it is not allowed."""
        await self.table.remember(who)
        row = await self.table.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        loaded = await self.table.inspect(row.id)
        return self._plan(loaded, who).question(loaded.game)

    @_storage_refusals
    async def resign(self, channel_id: int, who: Who, *, game_id: int | None = None) -> Report:
        """The person resigns: taken out by the game's rules, or their seats handed to the AI; announced, and
        the game goes on (the AI moves at once) or ends with its summary."""
        table = self.table
        await table.remember(who)
        async with table._session(channel_id) as loaded:
            if game_id is not None and game_id != loaded.row.id:
                raise StaleAction(msg("core.error.stale"))
            plan = self._plan(loaded, who)
            awaited = loaded.game.to_act(loaded.state)
            report = table._report(loaded, loaded.row.version, loaded.row.status, loaded.seats)
            if plan.steps:
                line = msg("core.resign.out", who=who.name)
                report.public.append(line)
                await self._commit_resign(loaded, report, plan, who, line)
            else:
                changed = [SeatRow(s.seat, None, "ai", s.name + BOT_SUFFIX) for s in loaded.seats
                           if s.seat in plan.seats]
                line = msg("core.resign.to_ai", who=who.name, seats=seat_list(plan.seats))
                report.public.append(line)
                await self._change_seats(loaded, changed, Commit(kind="seat", seat=plan.seats[0],
                                                                 user_id=who.user_id,
                                                                 lines=[LogLine(line.to_json())]))
                report.seat_names = loaded.names()
            report.version, report.status = loaded.row.version, loaded.row.status
            # Whoever the table waits for now is told so when the resigning player was among those awaited.
            report.turn_changed = bool(awaited & set(plan.seats)) or loaded.game.to_act(loaded.state) != awaited
            await table._run_auto(loaded, report)
            await table._finish_report(loaded, report, private_for=set(), awaited_before=awaited - set(plan.seats))
            return report

    async def _commit_resign(self, loaded: Inspection, report: Report, plan: ResignPlan, who: Who,
                             line: Msg) -> None:
        """The game's own steps taking the player out, one log row per seat, logged as resignations (replayed
        through `resign`); the last row carries a snapshot."""
        table, game, row = self.table, loaded.game, loaded.row
        for i, (seat, step) in enumerate(plan.steps):
            last = i == len(plan.steps) - 1
            finished = game.outcome(step.state) is not None
            new_turn = game.turn_key(step.state) != game.turn_key(loaded.state)
            events = [LogLine(e.msg.to_json(), e.to) for e in step.events]
            snapshot = {k: v for k, v in game.to_json(step.state).items() if k not in game.static_keys}
            deadline = table._deadline(loaded, step.state) if new_turn and not finished else None
            record = await records.build(table.store, row, game, loaded.seats, step.state, outcome_kind="resigned",
                                         now=table.clock(), turn_before=json.dumps(game.turn_key(loaded.state),
                                                                                   default=str)) if finished else None
            try:
                version = await table.store.commit(
                    row.id, row.version,
                    Commit(kind="resign", seat=seat, user_id=who.user_id, action=Action.of(RESIGN).to_json(),
                           lines=[LogLine(line.to_json())] * (i == 0) + events, snapshot=snapshot if last else None,
                           head=Head(engines.engine_version(game), snapshot)),
                    table.clock(), status="finished" if finished else None, new_turn=new_turn, deadline=deadline,
                    record=record)
            except VersionConflict as exc:
                table._cache.drop(row.id)
                raise StaleAction(msg("core.error.conflict")) from exc
            row.version, loaded.state = version, step.state
            if last:
                row.snapshot_version = version
            if new_turn:
                row.deadline_at = deadline
            table._cache.put(row.id, version, step.state, loaded.seats, engine=engines.engine_version(game))
            loaded.engine, loaded.chain = engines.engine_version(game), {}
            table._add_events(loaded, report, step.events)
            if finished:
                row.status = "finished"
                updates = game.profile_updates(step.state)
                if updates:
                    await table.store.save_profiles(row.guild_id, game.id, updates, table.clock())
                await records.settle(table.store, table.clock())

    async def _change_seats(self, loaded: Inspection, changed: list[SeatRow], entry: Commit,
                            creator_id: int | None = None) -> None:
        table, row = self.table, loaded.row
        try:
            version = await table.store.commit_seats(row.id, row.version, entry, changed, table.clock(),
                                                     creator_id=creator_id)
        except VersionConflict as exc:
            table._cache.drop(row.id)
            raise StaleAction(msg("core.error.conflict")) from exc
        by_seat = {s.seat: s for s in changed}
        loaded.seats = [by_seat.get(s.seat, s) for s in loaded.seats]
        row.version = version
        if creator_id is not None:
            row.creator_id = creator_id
        table._cache.put(row.id, version, loaded.state, loaded.seats, engine=loaded.engine, chain=loaded.chain)

    # ---------------------------------------------------------------- a seat to someone new

    @_storage_refusals
    async def replace(self, channel_id: int, who: Who, target: str, newcomer: Who) -> Report:
        """The game's creator (or a manager) hands a seat, human or AI, to a newcomer mid-game; announced, and the
        newcomer is sent their private view (pinged if the table waits for them)."""
        table = self.table
        await table.remember(who)
        async with table._session(channel_id) as loaded:
            row = loaded.row
            if row.status == "lobby":
                raise TableError(msg("core.replace.error.lobby"))
            if who.user_id != row.creator_id and not who.can_manage:
                raise TableError(msg("core.replace.error.forbidden"))
            if loaded.game.outcome(loaded.state) is not None:
                raise GameOver(msg("core.error.game_over"))
            seat = find_seat(loaded, target)
            awaited = loaded.game.to_act(loaded.state)
            old = next(s for s in loaded.seats if s.seat == seat)
            if old.kind == "human" and old.user_id == newcomer.user_id:
                raise TableError(msg("core.replace.error.same", who=newcomer.name))
            if len(loaded.seats_of(newcomer.user_id)) >= loaded.game.seats_per_player:
                raise TableError(msg("core.replace.error.seated", who=newcomer.name))
            hands_over_own = old.kind == "human" and old.user_id == row.creator_id \
                and len(loaded.seats_of(row.creator_id)) == 1
            line = msg("core.replace.done", who=who.name, old=old.name, new=newcomer.name, n=seat + 1)
            await self._change_seats(
                loaded, [SeatRow(seat, newcomer.user_id, "human", newcomer.name)],
                Commit(kind="seat", seat=seat, user_id=who.user_id, lines=[LogLine(line.to_json())]),
                creator_id=newcomer.user_id if hands_over_own else None)
            report = table._report(loaded, row.version, row.status, loaded.seats)
            report.public.append(line)
            if hands_over_own:
                report.public.append(msg("core.replace.creator", who=newcomer.name))
            # Only the newcomer is told the table waits for them; the others were told already.
            await table._run_auto(loaded, report)
            await table._finish_report(loaded, report, private_for={seat}, awaited_before=awaited)
            if seat in loaded.game.to_act(loaded.state) and newcomer.user_id not in report.mention:
                report.mention.append(newcomer.user_id)
            return report

    # ---------------------------------------------------------------- abandoning

    async def abandon_question(self, channel_id: int, who: Who) -> Msg:
        """The confirmation's question; raises the refusal when this person may not abandon the game."""
        await self.table.remember(who)
        row = await self.table.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        if who.user_id != row.creator_id and not who.can_manage:
            raise TableError(msg("core.error.abandon_forbidden"))
        game = self.table._engine(row.game_type)
        return msg("core.abandon.ask_lobby" if row.status == "lobby" else "core.abandon.ask", game=Msg(game.name_key))

    async def abandon(self, channel_id: int, who: Who, *, game_id: int | None = None) -> Report:
        """Abandon, once confirmed: the table's abandon, then what the game had come to (time, figures, board)."""
        table = self.table
        row = await table.store.open_game(channel_id)
        if row is None:
            raise NoGame(msg("core.error.no_game"))
        if game_id is not None and row.id != game_id:
            raise StaleAction(msg("core.error.stale"))
        before = await table.inspect(row.id)
        report = await table.abandon(channel_id, who)
        if report.game_id == before.row.id and before.state is not None and report.version == before.row.version + 1:
            report.public.extend(await stopped_lines(table.store, table.clock(), before))
            report.board = before.game.view(before.state, None)
        report.finished = True  # no turn follows: a message of its own, no buttons
        return report

    # ---------------------------------------------------------------- rematch

    @_storage_refusals
    async def rematch(self, channel_id: int, who: Who, game_id: int) -> Report:
        """A new lobby in the channel for a finished game: the same seats (people and bots, in the same order),
        options, uploaded set-up and table settings, a new seed; anyone seated may `/game start` it."""
        table = self.table
        await table.remember(who)
        row = await table.store.game(game_id)
        if row is None or row.channel_id != channel_id or row.status != "finished":
            raise TableError(msg("core.rematch.error.not_finished"))
        old = await table.store.seats(game_id)
        if not any(s.kind == "human" and s.user_id == who.user_id for s in old) and not who.can_manage:
            raise NotSeated(msg("core.rematch.error.not_seated"))
        game = table._engine(row.game_type)
        if row.game_type not in table.offered_games():
            raise TableError(msg("core.error.unknown_game", game=row.game_type, valid=", ".join(table.offered_games())))
        setup = await table.store.blob(game_id, "setup")
        if setup is not None:
            setup = {k: v for k, v in setup.items() if k != "profiles"}  # records are read again at the start
        seats = [SeatRow(s.seat, s.user_id, s.kind, s.name) for s in old]
        try:
            new_id, version = await table.store.create_game(
                guild_id=row.guild_id, channel_id=channel_id, game_type=row.game_type, options=row.options,
                seed=table.seed_source(), creator_id=row.creator_id, now=table.clock(), seats=seats,
                extra=row.extra, setup=setup)
        except ChannelBusy as exc:
            raise TableError(msg("core.error.channel_busy")) from exc
        report = Report(new_id, row.game_type, version, "lobby", seat_names={s.seat: s.name for s in seats},
                        channel_id=channel_id)
        report.public.append(msg("core.rematch.created", who=who.name, game=Msg(game.name_key)))
        report.public.append(_options_line(game, row.options, hide=game.upload_overrides if setup else ()))
        report.public.append(_seats_line(seats))
        if any(s.kind == "ai" for s in seats):
            report.public.append(ai_levels.level_line(game, seats, ai_levels.level_of(row.extra)))
        return report


def find_seat(loaded: Inspection, target: str) -> int:
    """The seat `target` names: its number as the lobby lists it ("2"), a mention of its player, or its player's
    name (exactly, else a unique beginning); refuses listing the seats otherwise."""
    text = str(target).strip()
    number = text.lstrip("#")
    if number.isdigit() and 1 <= int(number) <= len(loaded.seats):
        return int(number) - 1
    mention = _MENTION.match(text)
    if mention:
        held = loaded.seats_of(int(mention.group(1)))
        if held:
            return held[0]
    folded = text.casefold()
    exact = [s.seat for s in loaded.seats if s.name.casefold() == folded]
    begins = [s.seat for s in loaded.seats if s.name.casefold().startswith(folded)] if folded else []
    found = exact or begins
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{s.seat + 1}. {s.name}" for s in loaded.seats)
    raise TableError(msg("core.replace.error.no_seat", target=text[:50] or "-", seats=listed))


def seat_choices(seats: list[SeatRow]) -> list[tuple[str, str]]:
    """(label, value) for the seat option's suggestions: "2. Bob" -> "2"."""
    return [(f"{s.seat + 1}. {s.name}", str(s.seat + 1)) for s in seats]


__all__ = ["BOT_SUFFIX", "Exits", "ResignPlan", "find_seat", "seat_choices"]
