"""Versioned schema migrations: each entry upgrades the database by one version, in order."""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games, seats, the append-only action log and per-version snapshots.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        creator_id INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        extra TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        turn_started_at REAL,
        reminded_at REAL,
        idle_offered_at REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_guild ON games(guild_id, status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('start', 'act', 'undo', 'skip')),
        seat INTEGER,
        user_id INTEGER,
        action TEXT,
        events TEXT NOT NULL DEFAULT '[]',
        undoable INTEGER NOT NULL DEFAULT 0,
        turn_before TEXT,
        state_of INTEGER NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    """,
    # 2: per-server settings for play-by-post.
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        reminder_minutes INTEGER,
        idle_hours INTEGER,
        lang TEXT
    );
    """,
    # 3: per-server records that outlive a game (e.g. HeroQuest character sheets).
    """
    CREATE TABLE profiles (
        guild_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        key TEXT NOT NULL,
        data TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, game_type, key)
    );
    """,
]
