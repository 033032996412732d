"""The SQLite store (aiosqlite, WAL): the only code that knows SQL."""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from storage.migrations import MIGRATIONS

DEFAULT_PATH = "data/runtime/tabletop.sqlite3"
OPEN_STATUSES = ("lobby", "active")


class VersionConflict(Exception):
    """Someone else changed the game first (two clicks at once, or a stale button)."""


class ChannelBusy(Exception):
    """The channel already has a game in the lobby or running."""


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_type: str
    options: dict[str, Any]
    seed: int
    status: str
    creator_id: int
    version: int
    extra: dict[str, Any]
    created_at: float
    updated_at: float
    turn_started_at: float | None
    reminded_at: float | None
    idle_offered_at: float | None


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    kind: str
    name: str


@dataclass
class ActionRow:
    version: int
    kind: str
    seat: int | None
    user_id: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    undoable: bool
    turn_before: str | None
    state_of: int
    created_at: float


@dataclass
class Commit:
    """One accepted change: a log row plus the resulting snapshot."""

    kind: str
    state: dict[str, Any]
    seat: int | None = None
    user_id: int | None = None
    action: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    undoable: bool = False
    turn_before: str | None = None
    #: For undo rows: the version whose state this restores. None: this row's own version.
    state_of: int | None = None


def db_path_from_env() -> str:
    return os.environ.get("TABLETOP_DB", DEFAULT_PATH)


class Store:
    """Async access to games, seats, the action log and snapshots."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> Store:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged action survives even a power cut, not only a killed process.
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()
        return self

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def _migrate(self) -> None:
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        if row is None:
            await self.db.execute("INSERT INTO schema_version VALUES (0)")
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(script):
                    await self.db.execute(statement)
                await self.db.execute("UPDATE schema_version SET version = ?", (number,))
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

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
        extra: dict[str, Any] | None = None,
    ) -> int:
        try:
            cur = await self.db.execute(
                "INSERT INTO games (guild_id, channel_id, game_type, options, seed, status, creator_id,"
                " version, extra, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, 0, ?, ?, ?)",
                (guild_id, channel_id, game_type, json.dumps(options), seed, creator_id,
                 json.dumps(extra or {}), now, now),
            )
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy() from exc
        return int(cur.lastrowid or 0)

    async def game(self, game_id: int) -> GameRow | None:
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def open_game(self, channel_id: int) -> GameRow | None:
        async with self.db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, finished or not."""
        async with self.db.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def games_in_guild(self, guild_id: int | None, *, include_closed: bool = False,
                             limit: int = 25) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE guild_id IS ?"
        if not include_closed:
            sql += " AND status IN ('lobby', 'active')"
        sql += " ORDER BY updated_at DESC LIMIT ?"
        async with self.db.execute(sql, (guild_id, limit)) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def active_games(self) -> list[GameRow]:
        async with self.db.execute("SELECT * FROM games WHERE status = 'active'") as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def bump(self, game_id: int, expected_version: int, now: float, **fields: Any) -> int:
        """Change lobby fields (status, options, extra...) guarded by the version; returns the new version."""
        allowed = {"status", "options", "extra", "turn_started_at", "reminded_at"}
        sets, values = ["version = version + 1", "updated_at = ?"], [now]
        for key, value in fields.items():
            if key not in allowed:
                raise ValueError(key)
            sets.append(f"{key} = ?")
            values.append(json.dumps(value) if key in ("options", "extra") else value)
        cur = await self.db.execute(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
            (*values, game_id, expected_version),
        )
        if cur.rowcount != 1:
            raise VersionConflict()
        return expected_version + 1

    async def touch(self, game_id: int, **fields: Any) -> None:
        """Update bookkeeping that is not part of the game (reminder times) without a version bump."""
        allowed = {"turn_started_at", "reminded_at", "idle_offered_at"}
        if not fields or set(fields) - allowed:
            raise ValueError(fields)
        sets = ", ".join(f"{k} = ?" for k in fields)
        await self.db.execute(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))

    # ---------------------------------------------------------------- seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.db.execute(
            "SELECT seat, user_id, kind, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cur:
            return [SeatRow(r["seat"], r["user_id"], r["kind"], r["name"]) for r in await cur.fetchall()]

    async def set_seats(self, game_id: int, expected_version: int, seats: list[SeatRow], now: float) -> int:
        """Replace the lobby's seat list atomically (join, leave, fill with AI)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.db.execute(
                "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                (now, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict()
            await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self.db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, kind, name) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.kind, s.name) for s in seats],
            )
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return expected_version + 1

    # ---------------------------------------------------------------- the log

    async def commit(self, game_id: int, expected_version: int, entry: Commit, now: float,
                     *, status: str | None = None, new_turn: bool = False) -> int:
        """Append one log row and its snapshot and bump the version, all in one transaction."""
        version = expected_version + 1
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            sets = "version = ?, updated_at = ?"
            params: list[Any] = [version, now]
            if new_turn:
                sets += ", turn_started_at = ?, reminded_at = NULL, idle_offered_at = NULL"
                params.append(now)
            if status is not None:
                sets += ", status = ?"
                params.append(status)
            cur = await self.db.execute(
                f"UPDATE games SET {sets} WHERE id = ? AND version = ? AND status IN ('lobby', 'active')",
                (*params, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict()
            await self.db.execute(
                "INSERT INTO actions (game_id, version, kind, seat, user_id, action, events, undoable,"
                " turn_before, state_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, version, entry.kind, entry.seat, entry.user_id,
                 None if entry.action is None else json.dumps(entry.action),
                 json.dumps(entry.events), int(entry.undoable), entry.turn_before,
                 version if entry.state_of is None else entry.state_of, now),
            )
            await self.db.execute(
                "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                (game_id, version, _pack(entry.state)),
            )
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return version

    async def snapshot(self, game_id: int, version: int) -> dict[str, Any] | None:
        async with self.db.execute(
            "SELECT state FROM snapshots WHERE game_id = ? AND version = ?", (game_id, version)
        ) as cur:
            row = await cur.fetchone()
        return _unpack(row[0]) if row else None

    async def latest_snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        async with self.db.execute(
            "SELECT version, state FROM snapshots WHERE game_id = ? ORDER BY version DESC LIMIT 1", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return (int(row[0]), _unpack(row[1])) if row else None

    async def action(self, game_id: int, version: int) -> ActionRow | None:
        async with self.db.execute(
            "SELECT * FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
        ) as cur:
            row = await cur.fetchone()
        return _action(row) if row else None

    async def actions(self, game_id: int, *, offset: int = 0, limit: int = -1) -> list[ActionRow]:
        async with self.db.execute(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY version LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        ) as cur:
            return [_action(r) for r in await cur.fetchall()]

    async def count_actions(self, game_id: int) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return int(row[0])

    # ---------------------------------------------------------------- per-server records

    async def profiles(self, guild_id: int | None, game_type: str, keys: list[str] | None = None
                       ) -> dict[str, dict[str, Any]]:
        async with self.db.execute(
            "SELECT key, data FROM profiles WHERE guild_id IS ? AND game_type = ?", (guild_id or 0, game_type)
        ) as cur:
            rows = {r["key"]: json.loads(r["data"]) for r in await cur.fetchall()}
        return rows if keys is None else {k: rows[k] for k in keys if k in rows}

    async def save_profiles(self, guild_id: int | None, game_type: str, records: dict[str, dict[str, Any]],
                            now: float) -> None:
        """Insert or replace several records in one transaction."""
        if not records:
            return
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.executemany(
                "INSERT INTO profiles (guild_id, game_type, key, data, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(guild_id, game_type, key) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                [(guild_id or 0, game_type, k, json.dumps(v), now) for k, v in records.items()],
            )
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    # ---------------------------------------------------------------- server settings

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        async with self.db.execute(
            "SELECT reminder_minutes, idle_hours, lang FROM guild_settings WHERE guild_id IS ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return {}
        return {k: row[k] for k in ("reminder_minutes", "idle_hours", "lang") if row[k] is not None}

    async def set_guild_settings(self, guild_id: int, **values: Any) -> None:
        current = await self.guild_settings(guild_id)
        current.update({k: v for k, v in values.items() if v is not None})
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, reminder_minutes, idle_hours, lang) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET reminder_minutes = excluded.reminder_minutes,"
            " idle_hours = excluded.idle_hours, lang = excluded.lang",
            (guild_id, current.get("reminder_minutes"), current.get("idle_hours"), current.get("lang")),
        )


def _pack(state: dict[str, Any]) -> bytes:
    """Snapshots are compressed: a state is mostly repeated names and ids (HeroQuest keeps its quest inside)."""
    return zlib.compress(json.dumps(state, separators=(",", ":")).encode("utf-8"), 6)


def _unpack(data: bytes | str) -> dict[str, Any]:
    if isinstance(data, bytes):
        data = zlib.decompress(data).decode("utf-8")
    return json.loads(data)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _game(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game_type=row["game_type"],
        options=json.loads(row["options"]), seed=row["seed"], status=row["status"],
        creator_id=row["creator_id"], version=row["version"], extra=json.loads(row["extra"]),
        created_at=row["created_at"], updated_at=row["updated_at"],
        turn_started_at=row["turn_started_at"], reminded_at=row["reminded_at"],
        idle_offered_at=row["idle_offered_at"],
    )


def _action(row: sqlite3.Row) -> ActionRow:
    return ActionRow(
        version=row["version"], kind=row["kind"], seat=row["seat"], user_id=row["user_id"],
        action=None if row["action"] is None else json.loads(row["action"]),
        events=json.loads(row["events"]), undoable=bool(row["undoable"]), turn_before=row["turn_before"],
        state_of=row["state_of"], created_at=row["created_at"],
    )
