"""The table's rooms: one load of the game per command, legality checked once per move, and the bots' moves
after a skip or a time-out run as their own steps once the person has their answer."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from typing import Any

import pytest

from rules.base import Action, IllegalAction
from storage import Store
from storage.rows import GameRow
from table import Table, Who
from table.texts import _illegal_reason
from tests.conftest import ALICE, BOB, FakeClock
from tests.table_reads import channel_row, tiny_state
from tests.tinygame import TINY, TinyState

CH = 700
#: The store's calls that read a game: its row, its seats, its stored state.
LOADS = ("open_game", "game", "last_game", "seats", "stored_state")


class CountingStore(Store):
    """A store that counts the calls that read a game."""

    calls: Counter[str]

    def count(self) -> None:
        self.calls = Counter()

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if name in LOADS:
            async def counted(*args: Any, **kwargs: Any) -> Any:
                self.calls[name] += 1
                return await value(*args, **kwargs)
            return counted
        return value


@pytest.fixture
async def counting(tmp_path):
    store = await CountingStore(str(tmp_path / "t.sqlite3")).open()
    store.count()
    yield store
    await store.close()


async def on_turn(table: Table) -> tuple[GameRow, TinyState, Who]:
    row = await channel_row(table, CH)
    state = tiny_state(await table.inspect(row.id))
    return row, state, (ALICE, BOB)[state.turn]


def a_move(state: Any) -> Action:
    return Action.of("end") if state.played else Action.of("play", card=state.hands[state.turn][0])


async def test_a_command_reads_the_game_once_for_its_checks_its_move_and_what_follows(counting, clock) -> None:
    table = Table(counting, clock=clock, seed_source=itertools.count(5).__next__)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    for _ in range(4):
        _row, state, mover = await on_turn(table)
        counting.count()
        with table.command():  # what the cogs do for `/game act`: look, check, move, then show what follows
            row = await table.game_for(CH)
            assert row is not None
            await table.is_step_built(CH)
            await table.legal(CH, mover)
            await table.check_turn(CH, mover)
            await table.seat_names(row.id)
            report = await table.act(CH, mover, a_move(state))
            await table.legal(CH, mover)
            await table.can_undo(CH, mover)
            await table.inspect(row.id)
        assert report.version == row.version + 1
        assert sum(counting.calls.values()) == 1 and counting.calls["open_game"] == 1, counting.calls
    # Outside a command every call reads storage afresh (tools, tests, the timers).
    counting.count()
    await table.game_for(CH)
    await table.game_for(CH)
    assert counting.calls["open_game"] == 2


async def test_the_row_a_command_keeps_after_its_move_is_the_stored_one(store, clock) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", timer_minutes=30)
    await table.join(CH, BOB)
    with table.command():
        clock.now += 7
        await table.start(CH, ALICE)
        kept = await table.game_for(CH)
    assert kept is not None
    assert dataclasses.asdict(kept) == dataclasses.asdict(await store.open_game(CH)), "after the start"
    for step in range(5):
        _row, state, mover = await on_turn(table)
        with table.command():
            clock.now += 11
            if step == 1:  # a card played, then taken back
                await table.undo(CH, mover)
            else:
                await table.act(CH, mover, a_move(state))
            kept = await table.game_for(CH)
        assert kept is not None
        assert dataclasses.asdict(kept) == dataclasses.asdict(await store.open_game(CH)), f"after step {step}"


async def test_a_row_changed_meanwhile_in_this_process_is_read_again(counting, clock) -> None:
    table = Table(counting, clock=clock, seed_source=itertools.count(5).__next__)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    _row, state, mover = await on_turn(table)
    with table.command():
        seen = await channel_row(table, CH)
        await table.inspect(seen.id)
        await table.act(CH, mover, a_move(state))  # another person's command, in this process
        counting.count()
        now = await channel_row(table, CH)
    assert now.version == seen.version + 1 and counting.calls["open_game"] == 0, "the move's own row is kept"


async def test_legality_is_checked_once_per_move_and_a_refusal_reads_the_same(store, clock, monkeypatch) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    _row, state, mover = await on_turn(table)
    checks = Counter[str]()
    real = TINY.is_legal

    def counted(state: Any, seat: int, action: Action) -> bool:
        checks[action.kind] += 1
        return real(state, seat, action)

    monkeypatch.setattr(TINY, "is_legal", counted)
    await table.act(CH, mover, a_move(state))
    assert checks["play"] == 1, "the engine's apply checks the move; the table does not check it again"
    _row, state, mover = await on_turn(table)
    wrong = Action.of("play", card="nope")
    with pytest.raises(IllegalAction) as refused:
        await table.act(CH, mover, wrong)
    seat = state.turn
    assert refused.value.reason == _illegal_reason(TINY, state, seat, wrong, {0: "Alice", 1: "Bob"})


# ---------------------------------------------------------------- the bots after the person's answer


async def waits_on_ai(table: Table) -> bool:
    loaded = await table.inspect((await channel_row(table, CH)).id)
    return bool(loaded.ai_seats() & loaded.game.to_act(loaded.state))


async def test_a_skip_is_answered_before_the_bots_move(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__, defer_auto=True)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1)
    await table.join(CH, BOB)  # Alice 0, the AI 1, Bob 2: Alice opens
    await table.start(CH, ALICE)
    clock.now += 49 * 3600
    reports = [await table.skip(CH, BOB)]
    while not reports[-1].pending_auto and len(reports) < 5:
        reports.append(await table.skip(CH, BOB))  # Alice's default takes a step or two: a card, then the end
    assert reports[-1].pending_auto and await waits_on_ai(table), "the skip's answer comes before the bot's move"
    assert reports[-1].version == (await channel_row(table, CH)).version
    follow = await table.resume(reports[-1].game_id)
    assert follow is not None and not await waits_on_ai(table)


async def test_a_time_out_is_announced_before_the_bots_move(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__, defer_auto=True)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1, timer_minutes=10)
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    clock.now += 11 * 60
    reports = await table.due_timeouts()
    assert len(reports) == 1 and reports[0].pending_auto, "Alice's default is played, the AI's turn is left"
    assert await waits_on_ai(table)
    assert reports[0].version == (await channel_row(table, CH)).version
    follow = await table.resume(reports[0].game_id)
    assert follow is not None and not await waits_on_ai(table)
    log = [m.key for _, m in (await table.log(CH, BOB)).lines]
    assert log.count("core.timeout.done") == 1


async def test_bots_left_waiting_by_a_crash_after_a_time_out_move_on_at_the_restart(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__, defer_auto=True)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1, timer_minutes=10)
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    clock.now += 11 * 60
    reports = await table.due_timeouts()
    assert reports[0].pending_auto  # ...and the process dies before `resume`
    restarted = Table(store, clock=clock, defer_auto=True)
    assert await restarted.stalled_games(full=True) == [reports[0].game_id]
    follow = await restarted.resume(reports[0].game_id)
    assert follow is not None and not await waits_on_ai(restarted)
    assert (await channel_row(restarted, CH)).version == follow.version, "the bots' moves are stored"


async def test_a_seats_legal_moves_are_listed_once_per_state(store, clock, monkeypatch) -> None:
    """The menu sent after a move and the typed command that follows read the same list: the engine lists a
    seat's moves once per state, and again once the state has moved on."""
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    listed: list[int] = []
    real = type(TINY).legal_actions

    def spy(self: Any, state: TinyState, seat: int) -> Any:
        listed.append(seat)
        return real(self, state, seat)

    monkeypatch.setattr(type(TINY), "legal_actions", spy)
    _row, state, mover = await on_turn(table)
    first = await table.legal(CH, mover)
    first.clear()  # a caller's list is its own
    again = await table.legal(CH, mover)
    assert len(listed) == 1 and again == real(TINY, state, state.turn)
    await table.act(CH, mover, a_move(state))
    _row, state, mover = await on_turn(table)
    listed.clear()
    assert await table.legal(CH, mover) == real(TINY, state, state.turn)
    assert len(listed) == 1, "a new state lists its moves afresh"
