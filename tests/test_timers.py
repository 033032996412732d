"""Turn timers: when the seat on turn runs out of time the table plays the game's default, once, and says so."""

from __future__ import annotations

import itertools
import logging

import pytest

from rules.base import Action
from rules.text import Msg
from storage import Store
from storage.rows import GameRow
from table import Table, TableError, Who
from tests.conftest import ALICE, BOB, CAROL, MOD, FakeClock
from tests.table_reads import channel_row, tiny_state
from tests.tinygame import TinyState

CH = 300


@pytest.fixture
async def store(any_store):
    return any_store


async def started(table: Table, **new) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", **new)
    await table.join(CH, BOB)
    await table.start(CH, ALICE)


async def on_turn(table: Table) -> tuple[GameRow, TinyState, Who]:
    row = await channel_row(table, CH)
    state = tiny_state(await table.inspect(row.id))
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
    assert (await channel_row(table, CH)).deadline_at is None
    clock.now += 10_000
    assert await table.due_timeouts() == []


async def test_the_server_default_timer_and_its_limits(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock)
    with pytest.raises(TableError):
        await table.configure(1, MOD, timer_minutes=7 * 24 * 60 + 1)
    line = await table.configure(1, MOD, timer_minutes=30)
    timer = line.params["timer"]
    assert isinstance(timer, Msg) and timer.params == {"n": 30}
    report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    assert "core.lobby.timer" in [m.key for m in report.public]
    assert (await channel_row(table, CH)).extra["timer_minutes"] == 30
    await table.abandon(CH, ALICE)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", timer_minutes=0)
    assert "timer_minutes" not in (await channel_row(table, CH)).extra, "0 turns the server's default off"


async def test_a_game_may_suggest_a_timer_that_the_command_or_the_server_overrides(store, clock: FakeClock) -> None:
    from rules import registry
    from tests.tinygame import TinyGame

    class Hurried(TinyGame):
        id = "tiny-hurried"
        suggested_timer_minutes = 15

    registry.register(Hurried())
    try:
        table = Table(store, clock=clock)
        report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hurried")
        assert "core.lobby.timer_suggested" in [m.key for m in report.public]
        assert (await channel_row(table, CH)).extra["timer_minutes"] == 15
        await table.abandon(CH, ALICE)
        await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hurried", timer_minutes=0)
        assert "timer_minutes" not in (await channel_row(table, CH)).extra
        await table.abandon(CH, ALICE)
        await table.configure(1, MOD, timer_minutes=0)  # the server plays without timers
        report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hurried")
        assert "timer_minutes" not in (await channel_row(table, CH)).extra
        assert not {"core.lobby.timer", "core.lobby.timer_suggested"} & {m.key for m in report.public}
    finally:
        registry.unregister("tiny-hurried")


# ---------------------------------------------------------------- two processes, crashes (issue 24)

class Crash(BaseException):
    """The process dies here: nothing after this line of the bot runs (not even its clean-up)."""


async def two_processes(db_target: str, clock: FakeClock) -> tuple[Table, Table, list[Store]]:
    """Two tables, each on its own connection to one database, as two bot processes would be."""
    stores = [await Store(db_target).open(), await Store(db_target).open()]
    seeds = itertools.count(5)
    return (Table(stores[0], clock=clock, seed_source=seeds.__next__),
            Table(stores[1], clock=clock, seed_source=seeds.__next__), stores)


def crash_after_commits(table: Table, commits: int) -> None:
    """Kill this "process" right after its Nth commit from now (the commit itself is durable)."""
    store, original, count = table.store, table.store.commit, 0

    async def commit(*args, **kwargs):
        nonlocal count
        version = await original(*args, **kwargs)
        count += 1
        if count >= commits:
            async def dead(*_args, **_kwargs):
                raise Crash()
            store.release_timeout = dead  # a killed process lets go of nothing
            raise Crash()
        return version

    store.commit = commit  # type: ignore[method-assign]


def notices(reports) -> list[int]:
    return [user for report in reports for user, m in report.addressed if m.key == "core.timeout.done"]


async def logged_notices(table: Table) -> int:
    return [m.key for _, m in (await table.log(CH, ALICE)).lines].count("core.timeout.done")


async def test_a_lost_time_out_race_is_quiet_and_played_once(db_target, clock: FakeClock, caplog) -> None:
    first, second, stores = await two_processes(db_target, clock)
    try:
        await started(first, timer_minutes=10)
        clock.now += 11 * 60
        # The second process reads the game, then the first plays the whole time-out before the second goes on.
        from_first: list = []
        read = stores[1].open_game

        async def open_game(channel_id: int):
            row = await read(channel_id)
            if not from_first:
                from_first.append(await first.due_timeouts())
            return row

        stores[1].open_game = open_game  # type: ignore[method-assign]
        caplog.set_level(logging.DEBUG, logger="tabletop")
        from_second = await second.due_timeouts()
        reports = [*from_first[0], *from_second]
        assert len(reports) == 1 and len(notices(reports)) == 1, "one process played it, and said so once"
        assert await logged_notices(first) == 1
        loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
        assert loud == [], [(r.levelname, r.getMessage()) for r in loud]
    finally:
        for store in stores:
            await store.close()


async def test_reminders_are_claimed_so_two_processes_send_each_once(db_target, clock: FakeClock) -> None:
    first, second, stores = await two_processes(db_target, clock)
    try:
        await started(first)
        for kind, wait in (("reminder", 13 * 3600), ("idle", 48 * 3600)):
            clock.now += wait
            # Both processes scan the same games at the same moment, before either has sent anything.
            scanned = await stores[1].active_games()
            stores[1].active_games = lambda *_a, _rows=scanned, **_k: _async(_rows)  # type: ignore[method-assign]
            sent = await first.due_reminders() + await second.due_reminders()
            assert [r.kind for r in sent] == [kind], f"the {kind} is sent by exactly one process"
            del stores[1].active_games
    finally:
        for store in stores:
            await store.close()


async def _async(value):
    return value


async def test_a_multi_step_default_cut_by_a_crash_is_finished_at_restart_without_a_new_notice(
        db_target, clock: FakeClock) -> None:
    first, second, stores = await two_processes(db_target, clock)
    try:
        await started(first, timer_minutes=10)
        before, state, late = await on_turn(first)
        clock.now += 11 * 60
        crash_after_commits(first, 1)  # the default is "play a card, then end the turn": dies between the two
        with pytest.raises(Crash):
            await first.due_timeouts()
        row, mid, _ = await on_turn(second)
        assert row.version == before.version + 1 and mid.turn == state.turn and mid.played, "half of it is done"
        assert await logged_notices(second) == 1
        assert await second.due_timeouts() == [], "the dead process's claim holds for its lease"
        clock.now += 61
        reports = await second.due_timeouts()
        after, end_state, _ = await on_turn(second)
        assert end_state.turn != state.turn, "the restart finished the late seat's default"
        assert await logged_notices(second) == 1, "no second 'Time ran out' in the log"
        assert notices(reports) == [late.user_id], "told once, by the process that finished it"
        assert after.deadline_at == clock.now + 600, "the next seat's own time, not the late seat's again"
        assert await second.due_timeouts() == [] and await first.due_timeouts() == []
    finally:
        for store in stores:
            await store.close()


async def test_kings_armory_set_up_with_three_late_seats_is_one_deadline_across_a_crash(
        db_target, clock: FakeClock) -> None:
    first, second, stores = await two_processes(db_target, clock)
    people = (ALICE, BOB, CAROL)
    try:
        await first.new(guild_id=1, channel_id=CH, who=ALICE, game_type="kings-armory", timer_minutes=5)
        for person in people[1:]:
            await first.join(CH, person)
        await first.start(CH, ALICE)
        for _ in range(3):  # each picks a hero in turn; then all three set up at once
            loaded = await first.inspect((await channel_row(first, CH)).id)
            seat = min(loaded.game.to_act(loaded.state))
            default = loaded.game.timeout_action(loaded.state, seat)
            assert default is not None
            await first.act(CH, people[seat], default)
        loaded = await first.inspect((await channel_row(first, CH)).id)
        assert loaded.state is not None
        assert loaded.state["phase"] == "setup" and loaded.game.to_act(loaded.state) == {0, 1, 2}
        clock.now += 6 * 60
        crash_after_commits(first, 1)  # dies after the first late seat's default
        with pytest.raises(Crash):
            await first.due_timeouts()
        clock.now += 61
        reports = await second.due_timeouts()
        row = await channel_row(second, CH)
        loaded = await second.inspect(row.id)
        kinds = [a.kind for a in await stores[1].actions(row.id)]
        assert kinds.count("timeout") == 3, "every late seat's default was played, each once"
        assert sorted(notices(reports)) == [1, 2, 3], "each late player told once, at the end"
        assert await logged_notices(second) == 3, "the log says it once per late seat, not again at restart"
        assert row.timeout is None and row.deadline_at == clock.now + 5 * 60, "then one fresh deadline for all"
        assert await second.due_timeouts() == []
    finally:
        for store in stores:
            await store.close()
