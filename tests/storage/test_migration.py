"""A database written by the previous schema (version 3) upgrades in place and plays on."""

from __future__ import annotations

import json
import sqlite3
import zlib

from rules.base import Action
from storage import Store
from storage.schema import LATEST, SQLITE_MIGRATIONS, statements
from table import Table, Who
from tests.conftest import FakeClock
from tests.table_reads import channel_row, tiny_state
from tests.tinygame import TINY

ALICE, BOB = Who(1, "Alice"), Who(2, "Bob")


def old_database(path: str) -> list:
    """Schema 3 with one running game as the old code stored it: events inside actions, a snapshot per
    version, the uploaded set-up inside `extra`; plus one undo row."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (3)")
    for number in (1, 2, 3):
        for statement in statements(SQLITE_MIGRATIONS[number]):
            db.execute(statement)
    extra = {"setup": {"note": "kept"}, "reminder_minutes": 30}
    db.execute("INSERT INTO games (id, guild_id, channel_id, game_type, options, seed, status, creator_id, version,"
               " extra, created_at, updated_at) VALUES (1, 1, 9, 'tiny', ?, 5, 'active', 1, 6, ?, 0, 0)",
               (json.dumps({"target": 60}), json.dumps(extra)))
    db.executemany("INSERT INTO seats VALUES (1, ?, ?, 'human', ?)", [(0, 1, "Alice"), (1, 2, "Bob")])
    states = [TINY.new({"target": 60}, 2, 5)]
    rows: list[tuple[int, str, int | None, int | None, str, int, Action | dict[str, int] | None, int]] = [
        (2, "start", None, None, "[]", 0, None, 2)]
    version = 2
    for seat, action in ((0, "play"), (0, "end"), (1, "play")):
        state = states[-1]
        act = Action.of("end") if action == "end" else Action.of("play", card=state.hands[seat][0])
        step = TINY.apply(state, seat, act)
        version += 1
        events = json.dumps([e.to_json() for e in step.events])
        rows.append((version, "act", seat, seat + 1, events, int(step.undoable), act, version))
        states.append(step.state)
    rows.append((6, "undo", 1, 2, "[]", 0, {"undo": 5}, 4))
    states.append(states[-2])
    for (v, kind, by_seat, user, events, undoable, logged, state_of), state in zip(rows, states, strict=True):
        stored = None if logged is None else json.dumps(logged if isinstance(logged, dict) else logged.to_json())
        db.execute("INSERT INTO actions VALUES (1, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 0)",
                   (v, kind, by_seat, user, stored, events, undoable, state_of))
        db.execute("INSERT INTO snapshots VALUES (1, ?, ?)",
                   (v, zlib.compress(json.dumps(TINY.to_json(state)).encode())))
    db.execute("UPDATE games SET version = 6")
    db.commit()
    db.close()
    return states


async def test_schema_3_upgrades_and_plays_on(tmp_path) -> None:
    path = str(tmp_path / "old.sqlite3")
    states = old_database(path)
    store = await Store(path).open()
    assert await store.schema_version() == LATEST
    table = Table(store, clock=FakeClock())
    row = await channel_row(table, 9)
    assert row.extra == {"reminder_minutes": 30} and await store.blob(row.id, "setup") == {"note": "kept"}
    assert TINY.to_json(tiny_state(await table.inspect(row.id))) == TINY.to_json(states[-1])
    # The log keeps its lines, redacted per viewer as before.
    alice = await table.log(9, ALICE)
    stranger = await table.log(9, Who(99, "Stranger"))
    keys = [m.key for _, m in alice.lines]
    assert keys[0] == "core.log.start" and keys[-1] == "core.undo.done"
    private = [m for _, m in alice.lines if "card" in m.params and m.params["card"] in states[2].hands[0]]
    assert private and len(stranger.lines) == len(alice.lines) - len(private)
    # And the game plays on from where it was.
    state = states[-1]
    who = (ALICE, BOB)[state.turn]
    report = await table.act(9, who, Action.of("play", card=state.hands[state.turn][0]))
    assert report.version == 7
    await store.close()
