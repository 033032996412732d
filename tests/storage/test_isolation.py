"""Many channels at once on one store: every transaction whole and alone, on both backends."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from rules.base import Action
from table import StaleAction, Table, TableError, Who
from tests.conftest import FakeClock
from tests.table_reads import channel_row, tiny_state

CHANNELS = 50


def players(channel: int) -> tuple[Who, Who]:
    return Who(channel * 10 + 1, f"A{channel}"), Who(channel * 10 + 2, f"B{channel}")


def make_table(store, clock=None) -> Table:
    seeds = itertools.count(1)
    return Table(store, clock=clock or FakeClock(), seed_source=lambda: next(seeds))


async def move(table: Table, channel: int) -> int:
    """One legal move by whoever is on turn in the channel; returns the new version."""
    row = await channel_row(table, channel)
    state = tiny_state(await table.inspect(row.id))
    who = players(channel)[state.turn]
    action = Action.of("end") if state.played else Action.of("play", card=state.hands[state.turn][0])
    return (await table.act(channel, who, action)).version


async def test_a_burst_of_new_games_in_fifty_channels_all_succeed(any_store) -> None:
    table = make_table(any_store)
    results = await asyncio.gather(
        *(table.new(guild_id=1, channel_id=c, who=players(c)[0], game_type="tiny") for c in range(CHANNELS)),
        return_exceptions=True)
    assert [r for r in results if isinstance(r, BaseException)] == []
    for c in range(CHANNELS):
        row = await table.game_for(c)
        assert row is not None and row.status == "lobby"
        assert [s.user_id for s in await any_store.seats(row.id)] == [players(c)[0].user_id], "a half-made lobby"
    # ...and every one of them can be joined and started at once, too.
    await asyncio.gather(*(table.join(c, players(c)[1]) for c in range(CHANNELS)))
    started = await asyncio.gather(*(table.start(c, players(c)[0]) for c in range(CHANNELS)))
    assert {r.status for r in started} == {"active"}


async def test_two_new_games_in_one_channel_one_wins_nothing_half_made(any_store) -> None:
    table = make_table(any_store)
    results = await asyncio.gather(
        *(table.new(guild_id=1, channel_id=7, who=Who(i, f"P{i}"), game_type="tiny") for i in range(1, 6)),
        return_exceptions=True)
    won = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(won) == 1 and len(refused) == 4
    assert {r.reason.key for r in refused} == {"core.error.channel_busy"}
    games = await any_store.games_in_guild(1, include_closed=True)
    assert len(games) == 1 and len(await any_store.seats(games[0].id)) == 1


async def test_fifty_running_games_moving_at_once_never_fail(any_store) -> None:
    table = make_table(any_store)
    for c in range(CHANNELS):
        await table.new(guild_id=1, channel_id=c, who=players(c)[0], game_type="tiny", options={"target": "60"})
        await table.join(c, players(c)[1])
        await table.start(c, players(c)[0])
    failures: list[BaseException] = []
    for _ in range(6):
        results = await asyncio.gather(*(move(table, c) for c in range(CHANNELS)), return_exceptions=True)
        failures += [r for r in results if isinstance(r, BaseException)]
    assert failures == []
    for c in range(CHANNELS):
        row = await channel_row(table, c)
        replayed = await table.replay(row.id)
        assert (await table.inspect(row.id)).game.to_json(replayed) == (
            (await table.inspect(row.id)).game.to_json((await make_table(any_store).inspect(row.id)).state))


async def test_two_tables_on_one_store_apply_a_double_click_once(any_store) -> None:
    """Two processes (two tables, no shared lock) race for one move: the version check lets one through."""
    first, second = make_table(any_store), make_table(any_store)
    await first.new(guild_id=1, channel_id=3, who=players(3)[0], game_type="tiny")
    await first.join(3, players(3)[1])
    await first.start(3, players(3)[0])
    row = await channel_row(first, 3)
    state = tiny_state(await first.inspect(row.id))
    who = players(3)[state.turn]
    action = Action.of("play", card=state.hands[state.turn][0])
    results = await asyncio.gather(first.act(3, who, action, expected_version=row.version),
                                   second.act(3, who, action, expected_version=row.version),
                                   return_exceptions=True)
    assert sum(1 for r in results if isinstance(r, StaleAction)) == 1
    assert (await channel_row(first, 3)).version == row.version + 1


@pytest.mark.parametrize("cache_size", [3])
async def test_memory_stays_bounded(any_store, cache_size: int) -> None:
    table = Table(any_store, clock=FakeClock(), cache_size=cache_size)
    for c in range(10):
        await table.new(guild_id=1, channel_id=c, who=players(c)[0], game_type="tiny")
        await table.join(c, players(c)[1])
        await table.start(c, players(c)[0])
        await move(table, c)
    assert len(table._cache) <= cache_size
    assert len(table._locks) == 0, "locks of idle games are released"
    # An evicted game rebuilds exactly from its snapshot and log.
    for c in range(10):
        await move(table, c)
