"""Versioned schema migrations per dialect: each entry upgrades the database by one version, in order."""

from __future__ import annotations

_SQLITE_STEPS: list[str] = [
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
    # 4: flat storage. Log lines get their own table (paged in SQL, visibility as a seat bitmask);
    # snapshots become sparse (games.snapshot_version points at the newest); a game's set-up and the
    # unchanging part of its state are stored once in game_blobs; seat and action kinds are checked
    # in code so new kinds need no table rebuild; user_prefs remembers each user's language for DMs.
    """
    CREATE TABLE actions_v4 (
        game_id INTEGER NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        user_id INTEGER,
        action TEXT,
        undoable INTEGER NOT NULL DEFAULT 0,
        turn_before TEXT,
        state_of INTEGER NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    INSERT INTO actions_v4 SELECT game_id, version, kind, seat, user_id, action, undoable, turn_before, state_of,
        created_at FROM actions;
    CREATE TABLE log_lines (
        game_id INTEGER NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        to_mask INTEGER,
        msg TEXT NOT NULL,
        PRIMARY KEY (game_id, version, idx)
    );
    INSERT INTO log_lines (game_id, version, idx, to_mask, msg)
        SELECT a.game_id, a.version, CAST(e.key AS INTEGER) + 1,
            CASE WHEN json_type(e.value, '$.to') = 'array'
                 THEN (SELECT COALESCE(SUM(1 << t.value), 0) FROM json_each(e.value, '$.to') AS t) END,
            json_extract(e.value, '$.msg')
        FROM actions AS a, json_each(a.events) AS e;
    INSERT INTO log_lines (game_id, version, idx, to_mask, msg)
        SELECT game_id, version, 0, NULL, '{"key":"core.log.start","params":{}}' FROM actions WHERE kind = 'start';
    INSERT INTO log_lines (game_id, version, idx, to_mask, msg)
        SELECT game_id, version, 0, NULL, json_object('key', 'core.undo.done',
            'params', json_object('who', json_object('seat', COALESCE(seat, 0))))
        FROM actions WHERE kind = 'undo';
    INSERT INTO log_lines (game_id, version, idx, to_mask, msg)
        SELECT game_id, version, 0, NULL, json_object('key', 'core.log.skipped',
            'params', json_object('seat', json_object('seat', COALESCE(seat, 0))))
        FROM actions WHERE kind = 'skip';
    DROP TABLE actions;
    ALTER TABLE actions_v4 RENAME TO actions;
    CREATE TABLE seats_v4 (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    INSERT INTO seats_v4 SELECT game_id, seat, user_id, kind, name FROM seats;
    DROP TABLE seats;
    ALTER TABLE seats_v4 RENAME TO seats;
    ALTER TABLE games ADD COLUMN snapshot_version INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET snapshot_version = COALESCE(
        (SELECT MAX(version) FROM snapshots AS s WHERE s.game_id = games.id), 0);
    CREATE TABLE game_blobs (
        game_id INTEGER NOT NULL REFERENCES games(id),
        name TEXT NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (game_id, name)
    );
    INSERT INTO game_blobs (game_id, name, data)
        SELECT id, 'setup', json_extract(extra, '$.setup') FROM games
        WHERE json_type(extra, '$.setup') = 'object';
    UPDATE games SET extra = json_remove(extra, '$.setup') WHERE json_type(extra, '$.setup') IS NOT NULL;
    CREATE INDEX games_active ON games(status, guild_id);
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        lang TEXT NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
    # 5: turn timers: when the seat on turn runs out of time (indexed, so the timer scan stays cheap),
    # and each server's default timer.
    """
    ALTER TABLE games ADD COLUMN deadline_at REAL;
    CREATE INDEX games_deadline ON games(deadline_at) WHERE deadline_at IS NOT NULL;
    ALTER TABLE guild_settings ADD COLUMN timer_minutes INTEGER
    """,
    # 6: each player's notification choices per server (DMs, pings); absent means the defaults.
    """
    CREATE TABLE notify_prefs (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        dms INTEGER NOT NULL,
        pings INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    # 7: records of finished and abandoned games (one row per game, keyed by the game so a second write is a
    # no-op), one row per seat (result, place, side, the game's figures as JSON) and each player's rating per
    # server and game. Finished games of older databases get their records lazily (table/records.py backfill).
    """
    CREATE TABLE game_records (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        options TEXT NOT NULL,
        started_at REAL,
        ended_at REAL NOT NULL,
        actions INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        summary TEXT,
        ai_seats INTEGER NOT NULL,
        rated INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX game_records_by_guild ON game_records(guild_id, ended_at, game_id);
    CREATE INDEX game_records_by_type ON game_records(guild_id, game_type, ended_at, game_id);
    CREATE INDEX game_records_unrated ON game_records(rated, ended_at) WHERE rated = 0;
    CREATE TABLE record_seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        ended_at REAL NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        result TEXT NOT NULL,
        place INTEGER,
        side INTEGER NOT NULL,
        figures TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX record_seats_by_player ON record_seats(guild_id, user_id, game_type, ended_at, game_id);
    CREATE INDEX record_seats_by_game ON record_seats(guild_id, game_type, user_id, result);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game_type TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, game_type, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game_type, ordinal)
    """,
]

SQLITE_MIGRATIONS: dict[int, str] = dict(enumerate(_SQLITE_STEPS, start=1))

# 8: upgrade-safe games. Each game's head state (the state its players last saw, stamped with the engine version
# that made it, with the states an undo within the turn may restore) is one row overwritten at every commit; replays
# that today's engine no longer reproduces are recorded for the operator. A move's log lines move into its log row
# (`actions.lines`: [[seats mask or null, message], ...], zlib-compressed JSON from now on, plain JSON for the rows
# moved here): one row per move instead of one per line.
SQLITE_MIGRATIONS[8] = """
    ALTER TABLE actions ADD COLUMN lines BLOB;
    UPDATE actions SET lines = (
        SELECT json_group_array(json_array(l.to_mask, json(l.msg))) FROM (
            SELECT to_mask, msg FROM log_lines AS o
            WHERE o.game_id = actions.game_id AND o.version = actions.version ORDER BY o.idx) AS l)
        WHERE EXISTS (SELECT 1 FROM log_lines AS e WHERE e.game_id = actions.game_id AND e.version = actions.version);
    DROP TABLE log_lines;
    CREATE TABLE game_heads (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        version INTEGER NOT NULL,
        engine TEXT NOT NULL,
        states BLOB NOT NULL
    );
    CREATE TABLE replay_mismatches (
        game_id INTEGER NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        engine_now TEXT NOT NULL,
        engine_then TEXT NOT NULL,
        game_type TEXT NOT NULL,
        detail TEXT NOT NULL,
        found_at REAL NOT NULL,
        PRIMARY KEY (game_id, version, engine_now)
    )
    """
# 9: a time-out is one logical deadline: the process that holds it (a lease, so that one process plays it) and,
# once announced, what is left of it (JSON), so a restart finishes it without a second announcement.
_TIMEOUT_CLAIMS = """
    ALTER TABLE games ADD COLUMN timeout_owner TEXT;
    ALTER TABLE games ADD COLUMN timeout_lease {real};
    ALTER TABLE games ADD COLUMN timeout_state TEXT
    """
SQLITE_MIGRATIONS[9] = _TIMEOUT_CLAIMS.format(real="REAL")

#: PostgreSQL starts at the current schema: there was never an older PostgreSQL database to upgrade.
POSTGRES_MIGRATIONS: dict[int, str] = {
    4: """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        game_type TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        creator_id BIGINT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        extra TEXT NOT NULL DEFAULT '{}',
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        turn_started_at DOUBLE PRECISION,
        reminded_at DOUBLE PRECISION,
        idle_offered_at DOUBLE PRECISION,
        snapshot_version INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_guild ON games(guild_id, status);
    CREATE INDEX games_active ON games(status, guild_id);
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        user_id BIGINT,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        user_id BIGINT,
        action TEXT,
        undoable INTEGER NOT NULL DEFAULT 0,
        turn_before TEXT,
        state_of INTEGER NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TABLE log_lines (
        game_id BIGINT NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        to_mask BIGINT,
        msg TEXT NOT NULL,
        PRIMARY KEY (game_id, version, idx)
    );
    CREATE TABLE snapshots (
        game_id BIGINT NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        state BYTEA NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TABLE game_blobs (
        game_id BIGINT NOT NULL REFERENCES games(id),
        name TEXT NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (game_id, name)
    );
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        reminder_minutes INTEGER,
        idle_hours INTEGER,
        lang TEXT
    );
    CREATE TABLE profiles (
        guild_id BIGINT NOT NULL,
        game_type TEXT NOT NULL,
        key TEXT NOT NULL,
        data TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game_type, key)
    );
    CREATE TABLE user_prefs (
        user_id BIGINT PRIMARY KEY,
        lang TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    )
    """,
    5: """
    ALTER TABLE games ADD COLUMN deadline_at DOUBLE PRECISION;
    CREATE INDEX games_deadline ON games(deadline_at) WHERE deadline_at IS NOT NULL;
    ALTER TABLE guild_settings ADD COLUMN timer_minutes INTEGER
    """,
    6: """
    CREATE TABLE notify_prefs (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        dms BOOLEAN NOT NULL,
        pings BOOLEAN NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    7: """
    CREATE TABLE game_records (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        game_type TEXT NOT NULL,
        options TEXT NOT NULL,
        started_at DOUBLE PRECISION,
        ended_at DOUBLE PRECISION NOT NULL,
        actions INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        summary TEXT,
        ai_seats INTEGER NOT NULL,
        rated INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX game_records_by_guild ON game_records(guild_id, ended_at, game_id);
    CREATE INDEX game_records_by_type ON game_records(guild_id, game_type, ended_at, game_id);
    CREATE INDEX game_records_unrated ON game_records(rated, ended_at) WHERE rated = 0;
    CREATE TABLE record_seats (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        game_type TEXT NOT NULL,
        ended_at DOUBLE PRECISION NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        result TEXT NOT NULL,
        place INTEGER,
        side INTEGER NOT NULL,
        figures TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX record_seats_by_player ON record_seats(guild_id, user_id, game_type, ended_at, game_id);
    CREATE INDEX record_seats_by_game ON record_seats(guild_id, game_type, user_id, result);
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        game_type TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        ordinal DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game_type, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game_type, ordinal)
    """,
    # The head row is updated in place at every move: kept inside the table's pages (STORAGE MAIN, not TOAST)
    # with room left on each page (fillfactor) so that the update is a heap-only one whose old copy the next
    # update prunes, and the database grows by the log alone, without waiting for VACUUM.
    8: """
    ALTER TABLE actions ADD COLUMN lines BYTEA;
    UPDATE actions AS a SET lines = convert_to((
        SELECT json_agg(json_build_array(l.to_mask, l.msg::json) ORDER BY l.idx)::text FROM log_lines AS l
        WHERE l.game_id = a.game_id AND l.version = a.version), 'UTF8')
        WHERE EXISTS (SELECT 1 FROM log_lines AS e WHERE e.game_id = a.game_id AND e.version = a.version);
    DROP TABLE log_lines;
    CREATE TABLE game_heads (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        version INTEGER NOT NULL,
        engine TEXT NOT NULL,
        states BYTEA NOT NULL
    ) WITH (fillfactor = 40);
    ALTER TABLE game_heads ALTER COLUMN states SET STORAGE MAIN;
    CREATE TABLE replay_mismatches (
        game_id BIGINT NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        engine_now TEXT NOT NULL,
        engine_then TEXT NOT NULL,
        game_type TEXT NOT NULL,
        detail TEXT NOT NULL,
        found_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, version, engine_now)
    )
    """,
}

POSTGRES_MIGRATIONS[9] = _TIMEOUT_CLAIMS.format(real="DOUBLE PRECISION")

LATEST = max(SQLITE_MIGRATIONS)
assert max(POSTGRES_MIGRATIONS) == LATEST, "both dialects reach the same schema version"


def statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
