"""The store: games, seats, the action log, log lines, sparse snapshots and records; the only code that knows SQL."""

from __future__ import annotations

import asyncio
import json
import os
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from storage.backend import Backend, Row, Statement, UnexpectedRows, UniqueViolation, run_batch
from storage.fastjson import to_json_bytes
from storage.lines import pack_lines, unpack_lines
from storage.records import GameRecord, Records, record_statements
from storage.rows import (
    ActionRow,
    ChannelBusy,
    Commit,
    GameRow,
    Head,
    LogLine,
    Mismatch,
    SeatRow,
    StorageError,
    StoredState,
    VersionConflict,
)
from storage.schema import LATEST, statements

T = TypeVar("T")
DEFAULT_PATH = "data/runtime/tabletop.sqlite3"
OPEN_STATUSES = ("lobby", "active")
_OPEN = "status IN ('lobby', 'active')"
#: `commit(timeout=KEEP)`: leave a time-out under way as it is (a new turn ends it).
KEEP: Any = object()
_PUT_BLOB = ("INSERT INTO game_blobs (game_id, name, data) VALUES (?, ?, ?)"
             " ON CONFLICT (game_id, name) DO UPDATE SET data = excluded.data")
_PUT_HEAD = ("INSERT INTO game_heads (game_id, version, engine, states) VALUES (?, ?, ?, ?)"
             " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, engine = excluded.engine,"
             " states = excluded.states")


def db_path_from_env() -> str:
    return os.environ.get("TABLETOP_DB", DEFAULT_PATH)


def backend_for(target: str) -> Backend:
    """A SQLite file path (the default), or a `postgresql://` / `postgres://` URL."""
    if target.startswith(("postgresql://", "postgres://")):
        from storage.postgres import PostgresBackend

        return PostgresBackend(target)
    from storage.sqlite import SqliteBackend

    return SqliteBackend(target)


class Store:
    """Async access to games and their history, over SQLite or PostgreSQL."""

    def __init__(self, target: str, backend: Backend | None = None) -> None:
        self.target = target
        self.backend = backend or backend_for(target)
        self.records = Records(self.backend)

    @property
    def path(self) -> str:
        return self.target

    async def open(self) -> Store:
        await self.backend.open()
        try:
            await self._migrate()
        except BaseException:
            await self.backend.close()
            raise
        return self

    async def close(self) -> None:
        await self.backend.close()

    async def _migrate(self) -> None:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT version FROM schema_version")
        current = int(row["version"]) if row else 0
        if current > LATEST:
            raise StorageError(
                f"the database was written by a newer version of the bot (schema {current}; this code knows up to "
                f"{LATEST}): update the bot, or set TABLETOP_DB to another database.")
        if current == LATEST:
            return
        async with self.backend.write() as q:
            if self.backend.name == "postgresql":
                # Several processes may start at once against one database: one migrates, the others wait.
                await q.execute("SELECT pg_advisory_xact_lock(717171)")
            row = await q.fetchone("SELECT version FROM schema_version")
            if row is None:
                await q.execute("INSERT INTO schema_version VALUES (0)")
            current = int(row["version"]) if row else 0
            for number in sorted(self.backend.migrations):
                if number <= current:
                    continue
                for statement in statements(self.backend.migrations[number]):
                    await q.execute(statement)
                await q.execute("UPDATE schema_version SET version = ?", (number,))

    async def schema_version(self) -> int:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT version FROM schema_version")
        return int(row["version"]) if row else 0

    # ---------------------------------------------------------------- games

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_type: str,
        options: dict[str, Any],
        seed: int,
        creator_id: int,
        now: float,
        seats: Sequence[SeatRow],
        extra: dict[str, Any] | None = None,
        setup: dict[str, Any] | None = None,
    ) -> tuple[int, int]:
        """The game, its seats and its uploaded set-up in one transaction; returns (id, version)."""
        try:
            async with self.backend.write() as q:
                game_id = await q.insert(
                    "INSERT INTO games (guild_id, channel_id, game_type, options, seed, status, creator_id,"
                    " version, extra, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, 1, ?, ?, ?)",
                    (guild_id, channel_id, game_type, json.dumps(options), seed, creator_id,
                     json.dumps(extra or {}), now, now),
                )
                await self._insert_seats(q, game_id, seats)
                if setup is not None:
                    await self._put_blob(q, game_id, "setup", setup)
        except UniqueViolation as exc:
            raise ChannelBusy() from exc
        return game_id, 1

    async def game(self, game_id: int) -> GameRow | None:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def open_game(self, channel_id: int) -> GameRow | None:
        async with self.backend.read() as q:
            row = await q.fetchone(f"SELECT * FROM games WHERE channel_id = ? AND {_OPEN}", (channel_id,))
        return _game(row) if row else None

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, finished or not."""
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return _game(row) if row else None

    async def games_in_guild(self, guild_id: int | None, *, include_closed: bool = False,
                             limit: int = 25) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE COALESCE(guild_id, 0) = ?"
        if not include_closed:
            sql += f" AND {_OPEN}"
        sql += " ORDER BY updated_at DESC, id DESC LIMIT ?"
        async with self.backend.read() as q:
            return [_game(r) for r in await q.fetchall(sql, (guild_id or 0, limit))]

    async def active_games(self, shards: tuple[Iterable[int], int] | None = None, *,
                           due_by: float | None = None) -> list[GameRow]:
        """Running games; with `(shard_ids, shard_count)`, only those of guilds on these shards (DMs: shard 0);
        with `due_by`, only those whose deadline has passed by then."""
        sql, params = "SELECT * FROM games WHERE status = 'active'", []
        if due_by is not None:
            sql += " AND deadline_at IS NOT NULL AND deadline_at <= ?"
            params.append(due_by)
        if shards is not None:
            ids, count = sorted(set(shards[0])), max(1, int(shards[1]))
            marks = ", ".join("?" for _ in ids) or "NULL"
            sql += f" AND ((COALESCE(guild_id, 0) / 4194304) % ?) IN ({marks})"
            params += [count, *ids]
        async with self.backend.read() as q:
            return [_game(r) for r in await q.fetchall(sql + " ORDER BY id", params)]

    async def bump(self, game_id: int, expected_version: int, now: float, *, record: GameRecord | None = None,
                   **fields: Any) -> int:
        """Change lobby fields (status, options, extra...) guarded by the version; returns the new version. A game
        that ends here (abandoned) writes its `record` in the same transaction."""
        allowed = {"status", "options", "extra", "turn_started_at", "reminded_at"}
        sets: list[str] = ["version = version + 1", "updated_at = ?"]
        values: list[Any] = [now]
        for key, value in fields.items():
            if key not in allowed:
                raise ValueError(key)
            sets.append(f"{key} = ?")
            values.append(json.dumps(value) if key in ("options", "extra") else value)
        async with self.backend.write() as q:
            changed = await q.execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                                      (*values, game_id, expected_version))
            if changed != 1:
                raise VersionConflict()
            if record is not None:
                await run_batch(q, record_statements(record))
        return expected_version + 1

    async def clear_deadline(self, game_id: int, version: int) -> None:
        """Stop a game's clock (nothing can be played for the late seat); only if nobody moved meanwhile."""
        await self.end_timeout(game_id, version, None)

    async def claim_timeout(self, game_id: int, owner: str, now: float, lease: float) -> bool:
        """Take the game's due time-out for `lease` seconds: True for exactly one claimant while it holds, and
        again after the lease ran out (its holder died); False when it is not due or another holds it."""
        async with self.backend.write() as q:
            changed = await q.execute(
                "UPDATE games SET timeout_owner = ?, timeout_lease = ? WHERE id = ? AND status = 'active'"
                " AND deadline_at IS NOT NULL AND deadline_at <= ?"
                " AND (timeout_lease IS NULL OR timeout_lease < ? OR timeout_owner = ?)",
                (owner, now + lease, game_id, now, now, owner))
        return changed == 1

    async def release_timeout(self, game_id: int, owner: str) -> None:
        """Let go of a time-out this owner claimed (a no-op once it ended or another took it)."""
        async with self.backend.write() as q:
            await q.execute("UPDATE games SET timeout_owner = NULL, timeout_lease = NULL"
                            " WHERE id = ? AND timeout_owner = ?", (game_id, owner))

    async def end_timeout(self, game_id: int, version: int, deadline: float | None) -> bool:
        """A time-out done: the next `deadline` (None: the clock stops), nothing left of it, nobody holding it;
        only if nobody moved since `version`."""
        async with self.backend.write() as q:
            changed = await q.execute(
                "UPDATE games SET deadline_at = ?, timeout_state = NULL, timeout_owner = NULL, timeout_lease = NULL"
                " WHERE id = ? AND version = ?", (deadline, game_id, version))
        return changed == 1

    async def claim_reminder(self, game_id: int, version: int, kind: str, now: float) -> bool:
        """Mark this turn reminded ("reminder") or offered to skip ("idle"): True for the one caller that marks
        it, so that of several processes scanning the same games exactly one sends it."""
        if kind == "idle":
            sql = ("UPDATE games SET idle_offered_at = ?, reminded_at = ? WHERE id = ? AND version = ?"
                   " AND status = 'active' AND idle_offered_at IS NULL")
            params: tuple[Any, ...] = (now, now, game_id, version)
        elif kind == "reminder":
            sql = ("UPDATE games SET reminded_at = ? WHERE id = ? AND version = ? AND status = 'active'"
                   " AND reminded_at IS NULL")
            params = (now, game_id, version)
        else:
            raise ValueError(kind)
        async with self.backend.write() as q:
            return await q.execute(sql, params) == 1

    async def touch(self, game_id: int, **fields: Any) -> None:
        """Update bookkeeping that is not part of the game (reminder times) without a version bump."""
        allowed = {"turn_started_at", "reminded_at", "idle_offered_at"}
        if not fields or set(fields) - allowed:
            raise ValueError(fields)
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self.backend.write() as q:
            await q.execute(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))

    # ---------------------------------------------------------------- seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.backend.read() as q:
            rows = await q.fetchall("SELECT seat, user_id, kind, name FROM seats WHERE game_id = ? ORDER BY seat",
                                    (game_id,))
        return [SeatRow(r["seat"], r["user_id"], r["kind"], r["name"]) for r in rows]

    async def set_seats(self, game_id: int, expected_version: int, seats: list[SeatRow], now: float) -> int:
        """Replace the lobby's seat list atomically (join, leave, fill with AI)."""
        async with self.backend.write() as q:
            changed = await q.execute(
                "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                (now, game_id, expected_version),
            )
            if changed != 1:
                raise VersionConflict()
            await q.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(q, game_id, seats)
        return expected_version + 1

    @staticmethod
    async def _insert_seats(q: Any, game_id: int, seats: Sequence[SeatRow]) -> None:
        await q.executemany("INSERT INTO seats (game_id, seat, user_id, kind, name) VALUES (?, ?, ?, ?, ?)",
                            [(game_id, s.seat, s.user_id, s.kind, s.name) for s in seats])

    # ---------------------------------------------------------------- set-up and static state

    async def blob(self, game_id: int, name: str) -> dict[str, Any] | None:
        """A game's stored-once data: "setup" (an uploaded file, read at start) or "static" (unchanging state)."""
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT data FROM game_blobs WHERE game_id = ? AND name = ?", (game_id, name))
        if row is None:
            return None
        data = row["data"]
        return await _off_loop(lambda: unpack(data), len(data) // _BYTES_PER_ROW)

    async def put_blob(self, game_id: int, name: str, data: dict[str, Any]) -> None:
        """Store a game's small side record (a table setting such as its spectators) without a version bump."""
        async with self.backend.write() as q:
            await self._put_blob(q, game_id, name, data)

    @staticmethod
    async def _put_blob(q: Any, game_id: int, name: str, data: dict[str, Any]) -> None:
        await q.execute(_PUT_BLOB, (game_id, name, pack(data)))

    # ---------------------------------------------------------------- the log

    async def commit(self, game_id: int, expected_version: int, entry: Commit, now: float,
                     *, status: str | None = None, new_turn: bool = False, deadline: float | None = None,
                     blobs: dict[str, dict[str, Any]] | None = None, timeout: Any = KEEP,
                     record: GameRecord | None = None) -> int:
        """One log row, its lines, its snapshot where it has one and the version bump: one transaction.

        `new_turn` restarts the turn's clock, and sets the new `deadline` (None: no timer runs) and ends any
        time-out under way; a step of a time-out passes what is left of it as `timeout` instead (kept with the
        move, so a crash between two steps resumes exactly there). A move that ends the game brings its `record`,
        written in the same transaction.
        """
        statements = self._commit_statements(game_id, expected_version, entry, now, status=status,
                                             new_turn=new_turn, deadline=deadline, blobs=blobs, timeout=timeout)
        if record is not None:
            statements += record_statements(record)
        try:
            await self.backend.batch(statements)
        except UnexpectedRows as exc:
            raise VersionConflict() from exc
        return expected_version + 1

    async def commit_seats(self, game_id: int, expected_version: int, entry: Commit, seats: Sequence[SeatRow],
                           now: float, *, status: str | None = None, creator_id: int | None = None) -> int:
        """A running game's seats changing hands (a player resigns to the AI, a newcomer takes a seat): the log
        row with its lines, the seats that change (replaced by number) and, when given, the game's new creator,
        in one transaction guarded by the version like every move."""
        statements = self._commit_statements(game_id, expected_version, entry, now, status=status)
        for seat in seats:
            statements.append(Statement(
                "UPDATE seats SET user_id = ?, kind = ?, name = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.kind, seat.name, game_id, seat.seat), expect=1))
        if creator_id is not None:
            statements.append(Statement("UPDATE games SET creator_id = ? WHERE id = ?", (creator_id, game_id)))
        try:
            await self.backend.batch(statements)
        except UnexpectedRows as exc:
            raise VersionConflict() from exc
        return expected_version + 1

    @staticmethod
    def _commit_statements(game_id: int, expected_version: int, entry: Commit, now: float, *,
                           status: str | None = None, new_turn: bool = False, deadline: float | None = None,
                           blobs: dict[str, dict[str, Any]] | None = None, timeout: Any = KEEP) -> list[Statement]:
        version = expected_version + 1
        sets = "version = ?, updated_at = ?"
        params: list[Any] = [version, now]
        if entry.snapshot is not None:
            sets += ", snapshot_version = ?"
            params.append(version)
        if new_turn:
            sets += ", turn_started_at = ?, reminded_at = NULL, idle_offered_at = NULL, deadline_at = ?"
            params += [now, deadline]
        if timeout is not KEEP:
            sets += ", timeout_state = ?"
            params.append(None if timeout is None else json.dumps(timeout, separators=(",", ":")))
        elif new_turn:
            sets += ", timeout_state = NULL"
        if status is not None:
            sets += ", status = ?"
            params.append(status)
        # Every statement is known before the transaction starts: one batch, one round trip to the writer.
        statements = [
            Statement(f"UPDATE games SET {sets} WHERE id = ? AND version = ? AND {_OPEN}",
                      (*params, game_id, expected_version), expect=1),
            Statement("INSERT INTO actions (game_id, version, kind, seat, user_id, action, undoable, turn_before,"
                      " state_of, created_at, lines) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (game_id, version, entry.kind, entry.seat, entry.user_id,
                       None if entry.action is None else json.dumps(entry.action, separators=(",", ":")),
                       int(entry.undoable), entry.turn_before,
                       version if entry.state_of is None else entry.state_of, now, pack_lines(entry.lines))),
        ]
        if entry.snapshot is not None:
            statements.append(Statement("INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                                        (game_id, version, pack(entry.snapshot))))
        if entry.head is not None:
            statements.append(Statement(_PUT_HEAD, (game_id, version, entry.head.engine, pack_head(entry.head))))
        statements += [Statement(_PUT_BLOB, (game_id, name, pack(data))) for name, data in (blobs or {}).items()]
        return statements

    async def stored_state(self, game_id: int, version: int | None = None, *, heads: bool = True
                           ) -> StoredState | None:
        """The newest stored state at or before `version` (default: the newest) and the log rows after it.

        The stored head (or a state of its undo chain) is preferred to a sparse snapshot: it is the state players
        saw, whatever engine loads it. `heads=False` uses the snapshots alone (the replay an upgrade check makes).
        """
        async with self.backend.read(consistent=True) as q:
            if version is None:
                game = await q.fetchone("SELECT version FROM games WHERE id = ?", (game_id,))
                if game is None:
                    return None
                version = int(game["version"])
            head = await q.fetchone("SELECT version, engine, states FROM game_heads WHERE game_id = ?",
                                    (game_id,)) if heads else None
            stored = unpack_head(head["engine"], head["states"]) if head else None
            base: tuple[int, dict[str, Any]] | None = None
            if stored is not None and head is not None:
                candidates = {int(head["version"]): stored.state, **stored.chain}
                usable = [v for v in candidates if v <= version]
                if usable:
                    base = (max(usable), candidates[max(usable)])
            snap = None if base is not None and base[0] == version else await q.fetchone(
                "SELECT version, state FROM snapshots WHERE game_id = ? AND version <= ? AND version > ?"
                " ORDER BY version DESC LIMIT 1", (game_id, version, base[0] if base else -1))
            if base is None or snap is not None:
                if snap is None:
                    return None
                base, stored = (int(snap["version"]), unpack(snap["state"])), None
            rows = await q.fetchall(
                "SELECT * FROM actions WHERE game_id = ? AND version > ? AND version <= ? ORDER BY version",
                (game_id, base[0], version))
            static = await q.fetchone("SELECT data FROM game_blobs WHERE game_id = ? AND name = 'static'",
                                      (game_id,))
        return StoredState(base[0], base[1], unpack(static["data"]) if static else None, [_action(r) for r in rows],
                           engine=stored.engine if stored else None, chain=stored.chain if stored else {})

    async def head(self, game_id: int) -> tuple[int, Head] | None:
        """The game's stored head: (its version, the head)."""
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT version, engine, states FROM game_heads WHERE game_id = ?", (game_id,))
        return (int(row["version"]), unpack_head(row["engine"], row["states"])) if row else None

    async def record_mismatch(self, mismatch: Mismatch) -> bool:
        """Keep a replay mismatch for the operator (once per game, version and engine); True when it is new."""
        async with self.backend.write() as q:
            changed = await q.execute(
                "INSERT INTO replay_mismatches (game_id, version, engine_now, engine_then, game_type, detail,"
                " found_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, version, engine_now) DO NOTHING",
                (mismatch.game_id, mismatch.version, mismatch.engine_now, mismatch.engine_then, mismatch.game_type,
                 mismatch.detail, mismatch.found_at))
        return changed == 1

    async def mismatches(self) -> list[Mismatch]:
        """Every recorded replay mismatch, oldest first."""
        async with self.backend.read() as q:
            rows = await q.fetchall("SELECT * FROM replay_mismatches ORDER BY found_at, game_id, version")
        return [Mismatch(game_id=r["game_id"], game_type=r["game_type"], version=r["version"],
                         engine_then=r["engine_then"], engine_now=r["engine_now"], detail=r["detail"],
                         found_at=r["found_at"]) for r in rows]

    async def snapshot(self, game_id: int, version: int) -> dict[str, Any] | None:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT state FROM snapshots WHERE game_id = ? AND version = ?",
                                   (game_id, version))
        if row is None:
            return None
        data = row["state"]
        return await _off_loop(lambda: unpack(data), len(data) // _BYTES_PER_ROW)

    async def action(self, game_id: int, version: int) -> ActionRow | None:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT * FROM actions WHERE game_id = ? AND version = ?", (game_id, version))
        return _action(row) if row else None

    async def actions(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[ActionRow]:
        sql, params = "SELECT * FROM actions WHERE game_id = ? AND version > ? ORDER BY version", [game_id, after]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        async with self.backend.read() as q:
            rows = await q.fetchall(sql, params)
        return await _off_loop(lambda: [_action(r) for r in rows], len(rows))

    async def started_at(self, game_id: int) -> float | None:
        """When the game started (its `start` log row), or None while it is a lobby."""
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT created_at FROM actions WHERE game_id = ? AND kind = 'start'"
                                   " ORDER BY version LIMIT 1", (game_id,))
        return float(row["created_at"]) if row else None

    async def count_actions(self, game_id: int) -> int:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT COUNT(*) AS n FROM actions WHERE game_id = ?", (game_id,))
        return int(row["n"]) if row else 0

    async def lines(self, game_id: int, *, after: int = 0
                    ) -> list[tuple[int, frozenset[int] | None, dict[str, Any]]]:
        """Every log line after a version, unredacted: (version, seats allowed or None, message JSON)."""
        async with self.backend.read() as q:
            rows = await q.fetchall("SELECT version, lines FROM actions WHERE game_id = ? AND version > ?"
                                    " AND lines IS NOT NULL ORDER BY version", (game_id, after))
        return await _off_loop(lambda: [(int(r["version"]), _seats_of(mask), message)
                                        for r in rows for mask, message in unpack_lines(r["lines"])], len(rows))

    async def log_page(self, game_id: int, viewer: int | None, page: int, per_page: int
                       ) -> tuple[list[tuple[int, dict[str, Any]]], int]:
        """One page of the lines `viewer` may read, newest page first, lines oldest first; and the total."""
        mask = 0 if viewer is None else 1 << viewer
        async with self.backend.read() as q:
            rows = await q.fetchall("SELECT version, lines FROM actions WHERE game_id = ? AND lines IS NOT NULL"
                                    " ORDER BY version", (game_id,))
        visible = await _off_loop(lambda: [(int(r["version"]), message) for r in rows
                                           for to, message in unpack_lines(r["lines"]) if to is None or to & mask],
                                  len(rows))
        end = max(0, len(visible) - (page - 1) * per_page)
        return visible[max(0, end - per_page):end], len(visible)

    # ---------------------------------------------------------------- per-server records

    async def profiles(self, guild_id: int | None, game_type: str, keys: list[str] | None = None
                       ) -> dict[str, dict[str, Any]]:
        async with self.backend.read() as q:
            found = await q.fetchall("SELECT key, data FROM profiles WHERE guild_id = ? AND game_type = ?",
                                     (guild_id or 0, game_type))
        rows = {r["key"]: json.loads(r["data"]) for r in found}
        return rows if keys is None else {k: rows[k] for k in keys if k in rows}

    async def save_profiles(self, guild_id: int | None, game_type: str, records: dict[str, dict[str, Any]],
                            now: float) -> None:
        """Insert or replace several records in one transaction."""
        if not records:
            return
        async with self.backend.write() as q:
            await q.executemany(
                "INSERT INTO profiles (guild_id, game_type, key, data, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, game_type, key) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                [(guild_id or 0, game_type, k, json.dumps(v), now) for k, v in records.items()],
            )

    # ---------------------------------------------------------------- server settings and user languages

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        async with self.backend.read() as q:
            row = await q.fetchone("SELECT reminder_minutes, idle_hours, lang, timer_minutes FROM guild_settings"
                                   " WHERE guild_id = ?", (guild_id or 0,))
        if row is None:
            return {}
        return {k: row[k] for k in ("reminder_minutes", "idle_hours", "lang", "timer_minutes") if row[k] is not None}

    async def set_guild_settings(self, guild_id: int, **values: Any) -> None:
        current = await self.guild_settings(guild_id)
        current.update({k: v for k, v in values.items() if v is not None})
        async with self.backend.write() as q:
            await q.execute(
                "INSERT INTO guild_settings (guild_id, reminder_minutes, idle_hours, lang, timer_minutes)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " reminder_minutes = excluded.reminder_minutes, idle_hours = excluded.idle_hours,"
                " lang = excluded.lang, timer_minutes = excluded.timer_minutes",
                (guild_id, current.get("reminder_minutes"), current.get("idle_hours"), current.get("lang"),
                 current.get("timer_minutes")),
            )

    async def user_langs(self, user_ids: Iterable[int]) -> dict[int, str]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self.backend.read() as q:
            rows = await q.fetchall(f"SELECT user_id, lang FROM user_prefs WHERE user_id IN ({marks})", ids)
        return {int(r["user_id"]): r["lang"] for r in rows}

    async def notify_prefs(self, guild_id: int | None, user_ids: Iterable[int]) -> dict[int, tuple[bool, bool]]:
        """(DMs wanted, pings wanted) of the users who chose, on this server; the others keep the defaults."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self.backend.read() as q:
            rows = await q.fetchall(f"SELECT user_id, dms, pings FROM notify_prefs WHERE guild_id = ?"
                                    f" AND user_id IN ({marks})", [guild_id or 0, *ids])
        return {int(r["user_id"]): (bool(r["dms"]), bool(r["pings"])) for r in rows}

    async def set_notify_prefs(self, guild_id: int | None, user_id: int, dms: bool, pings: bool, now: float) -> None:
        async with self.backend.write() as q:
            await q.execute(
                "INSERT INTO notify_prefs (guild_id, user_id, dms, pings, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET dms = excluded.dms, pings = excluded.pings,"
                " updated_at = excluded.updated_at",
                (guild_id or 0, user_id, dms, pings, now),
            )

    async def set_user_lang(self, user_id: int, lang: str, now: float) -> None:
        async with self.backend.write() as q:
            await q.execute(
                "INSERT INTO user_prefs (user_id, lang, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang, updated_at = excluded.updated_at",
                (user_id, lang, now),
            )


def pack(data: dict[str, Any]) -> bytes:
    """Snapshots and blobs are compressed JSON: mostly repeated names and ids."""
    return zlib.compress(to_json_bytes(data), 6)


def unpack(data: bytes | memoryview | str) -> dict[str, Any]:
    if isinstance(data, memoryview):
        data = bytes(data)
    if isinstance(data, bytes):
        data = zlib.decompress(data).decode("utf-8")
    return json.loads(data)  # not orjson: it would read an integer over 64 bits as a float


def pack_head(head: Head) -> bytes:
    """The head and its undo chain in one compressed blob: the chain's states are near copies of the head, which
    zlib stores as back-references."""
    return pack({"head": head.state, "chain": {str(v): state for v, state in head.chain.items()}})


def unpack_head(engine: str, data: bytes | memoryview | str) -> Head:
    stored = unpack(data)
    return Head(engine, stored["head"], {int(v): state for v, state in stored["chain"].items()})


#: Rows decoded on the event loop at most; a longer log (a replay, an export) is decoded in a worker thread so
#: that no channel waits on another's history.
_ON_LOOP_ROWS = 200
#: A stored state counts as this many bytes per row: a compressed state over 100 KB is unpacked off the loop.
_BYTES_PER_ROW = 500


async def _off_loop(decode: Callable[[], T], rows: int) -> T:
    return decode() if rows <= _ON_LOOP_ROWS else await asyncio.to_thread(decode)


def _seats_of(mask: int | None) -> frozenset[int] | None:
    return None if mask is None else frozenset(i for i in range(64) if mask >> i & 1)


def _game(row: Row) -> GameRow:
    return GameRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game_type=row["game_type"],
        options=json.loads(row["options"]), seed=row["seed"], status=row["status"],
        creator_id=row["creator_id"], version=row["version"], extra=json.loads(row["extra"]),
        created_at=row["created_at"], updated_at=row["updated_at"],
        turn_started_at=row["turn_started_at"], reminded_at=row["reminded_at"],
        idle_offered_at=row["idle_offered_at"], snapshot_version=row["snapshot_version"],
        deadline_at=row["deadline_at"],
        timeout=json.loads(row["timeout_state"]) if row["timeout_state"] else None,
    )


def _action(row: Row) -> ActionRow:
    return ActionRow(
        version=row["version"], kind=row["kind"], seat=row["seat"], user_id=row["user_id"],
        action=None if row["action"] is None else json.loads(row["action"]),
        undoable=bool(row["undoable"]), turn_before=row["turn_before"],
        state_of=row["state_of"], created_at=row["created_at"],
    )


__all__ = ["DEFAULT_PATH", "LogLine", "Store", "backend_for", "db_path_from_env", "pack", "pack_head", "unpack",
           "unpack_head"]
