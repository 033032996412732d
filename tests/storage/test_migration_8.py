"""Schema 8 on both backends: a database of the previous schema (log lines in their own table, no stored heads)
upgrades in place; its log keeps every line with its visibility, and its games load and play on."""

from __future__ import annotations

import json

from rules.base import Action
from storage import Store
from storage.postgres import PostgresBackend
from storage.sqlite import SqliteBackend
from storage.store import pack
from table import Table, Who
from tests.conftest import FakeClock
from tests.table_reads import tiny_state
from tests.tinygame import TINY

ALICE, BOB = Who(1, "Alice"), Who(2, "Bob")


async def previous_schema(target: str, monkeypatch) -> list:
    """A store opened with the migrations before 8 only, holding one running game written the old way."""
    with monkeypatch.context() as patched:
        for backend in (SqliteBackend, PostgresBackend):
            patched.setattr(backend, "migrations", {k: v for k, v in backend.migrations.items() if k < 8})
        store = await Store(target).open()
    states = [TINY.new({"target": 60}, 2, 5)]
    async with store.backend.write() as q:
        await q.execute("INSERT INTO games (id, guild_id, channel_id, game_type, options, seed, status, creator_id,"
                        " version, extra, created_at, updated_at, snapshot_version) VALUES"
                        " (1, 1, 9, 'tiny', ?, 5, 'active', 1, 4, '{}', 0, 0, 1)", (json.dumps({"target": 60}),))
        await q.executemany("INSERT INTO seats (game_id, seat, user_id, kind, name) VALUES (1, ?, ?, 'human', ?)",
                            [(0, 1, "Alice"), (1, 2, "Bob")])
        await q.execute("INSERT INTO actions (game_id, version, kind, undoable, state_of, created_at)"
                        " VALUES (1, 1, 'start', 0, 1, 0)")
        await q.execute("INSERT INTO log_lines (game_id, version, idx, to_mask, msg) VALUES (1, 1, 0, NULL, ?)",
                        (json.dumps({"key": "core.log.start", "params": {}}),))
        await q.execute("INSERT INTO snapshots (game_id, version, state) VALUES (1, 1, ?)",
                        (pack(TINY.to_json(states[0])),))
        for version, (seat, kind) in enumerate(((0, "play"), (0, "end"), (1, "play")), start=2):
            state = states[-1]
            action = Action.of("end") if kind == "end" else Action.of("play", card=state.hands[seat][0])
            step = TINY.apply(state, seat, action)
            await q.execute("INSERT INTO actions (game_id, version, kind, seat, user_id, action, undoable, state_of,"
                            " created_at) VALUES (1, ?, 'act', ?, ?, ?, ?, ?, 0)",
                            (version, seat, seat + 1, json.dumps(action.to_json()), int(step.undoable), version))
            for idx, event in enumerate(step.events):
                mask = None if event.to is None else sum(1 << s for s in event.to)
                await q.execute("INSERT INTO log_lines (game_id, version, idx, to_mask, msg) VALUES (1, ?, ?, ?, ?)",
                                (version, idx, mask, json.dumps(event.msg.to_json())))
            states.append(step.state)
    await store.close()
    return states


async def test_the_previous_schema_upgrades_and_plays_on(db_target, monkeypatch) -> None:
    states = await previous_schema(db_target, monkeypatch)
    store = await Store(db_target).open()
    try:
        table = Table(store, clock=FakeClock())
        assert TINY.to_json(tiny_state(await table.inspect(1))) == TINY.to_json(states[-1])
        everything = await store.lines(1)
        assert everything[0][2]["key"] == "core.log.start"
        secret = [(v, to) for v, to, _ in everything if to is not None]
        assert secret, "the tiny game's draws are private lines"
        alice, stranger = await table.log(9, ALICE), await table.log(9, Who(99, "Stranger"))
        assert len(alice.lines) == len(everything) - sum(1 for _, to in secret if 0 not in to)
        assert len(stranger.lines) == len(everything) - len(secret)
        state = states[-1]
        report = await table.act(9, (ALICE, BOB)[state.turn], TINY.legal_actions(state, state.turn)[0].action)
        assert report.version == 5
        head = await store.head(1)
        assert head is not None and head[0] == 5
        assert len(await store.lines(1)) > len(everything)
    finally:
        await store.close()
