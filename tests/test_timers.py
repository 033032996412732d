"""Turn timers: when the seat on turn runs out of time the table plays the game's default, once, and says so."""

from __future__ import annotations

import itertools

import pytest

from rules.base import Action
from table import Table, TableError
from tests.conftest import ALICE, BOB, MOD, FakeClock

CH = 300


@pytest.fixture
async def store(any_store):
    return any_store


async def started(table: Table, **new) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", **new)
    await table.join(CH, BOB)
    await table.start(CH, ALICE)


async def on_turn(table: Table):
    row = await table.game_for(CH)
    state = (await table.inspect(row.id)).state
    return row, state, (ALICE, BOB)[state.turn]


async def test_a_late_player_gets_the_default_move_once(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(5).__next__)
    await started(table, timer_minutes=10)
    row, _state, _late = await on_turn(table)
    assert row.deadline_at == clock.now + 600
    clock.now += 9 * 60
    assert await table.due_timeouts() == [], "still in time"
    clock.now += 2 * 60
    other = Table(store, clock=clock)  # another process scanning at the same moment
    first, second = await table.due_timeouts(), await other.due_timeouts()
    assert len(first) == 1 and second == [], "played once"
    report = first[0]
    late = [user for user, m in report.addressed if m.key == "core.timeout.done"]
    assert len(late) == 1, "the notice is addressed to the late player (in their language, with a mention)"
    after, _state_after, _ = await on_turn(table)
    assert after.version > row.version and after.deadline_at == clock.now + 600, "the next turn gets its own time"
    assert [m.key for _, m in (await table.log(CH, ALICE)).lines].count("core.timeout.done") == 1


async def test_moving_in_time_resets_the_clock_and_no_timer_means_none(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock)
    await started(table, timer_minutes=10)
    clock.now += 8 * 60
    _row, state, mover = await on_turn(table)
    await table.act(CH, mover, Action.of("play", card=state.hands[state.turn][0]))
    await table.act(CH, mover, Action.of("end"))
    clock.now += 8 * 60
    assert await table.due_timeouts() == []
    await table.abandon(CH, ALICE)
    await started(table)
    assert (await table.game_for(CH)).deadline_at is None
    clock.now += 10_000
    assert await table.due_timeouts() == []


async def test_the_server_default_timer_and_its_limits(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock)
    with pytest.raises(TableError):
        await table.configure(1, MOD, timer_minutes=7 * 24 * 60 + 1)
    line = await table.configure(1, MOD, timer_minutes=30)
    assert line.params["timer"].params == {"n": 30}
    report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    assert "core.lobby.timer" in [m.key for m in report.public]
    assert (await table.game_for(CH)).extra["timer_minutes"] == 30
    await table.abandon(CH, ALICE)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", timer_minutes=0)
    assert "timer_minutes" not in (await table.game_for(CH)).extra, "0 turns the server's default off"


async def test_a_game_may_suggest_a_timer_that_the_command_or_the_server_overrides(store, clock: FakeClock) -> None:
    from rules import registry
    from tests.tinygame import TINY

    class Hurried(type(TINY)):  # type: ignore[misc]
        id = "tiny-hurried"
        suggested_timer_minutes = 15

    registry.register(Hurried())
    try:
        table = Table(store, clock=clock)
        report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hurried")
        assert "core.lobby.timer_suggested" in [m.key for m in report.public]
        assert (await table.game_for(CH)).extra["timer_minutes"] == 15
        await table.abandon(CH, ALICE)
        await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hurried", timer_minutes=0)
        assert "timer_minutes" not in (await table.game_for(CH)).extra
        await table.abandon(CH, ALICE)
        await table.configure(1, MOD, timer_minutes=0)  # the server plays without timers
        report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hurried")
        assert "timer_minutes" not in (await table.game_for(CH)).extra
        assert not {"core.lobby.timer", "core.lobby.timer_suggested"} & {m.key for m in report.public}
    finally:
        registry.unregister("tiny-hurried")
