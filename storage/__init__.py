"""Durable storage of games, seats, the action log and snapshots (SQLite through aiosqlite)."""

from storage.store import (
    ActionRow,
    ChannelBusy,
    Commit,
    GameRow,
    SeatRow,
    Store,
    VersionConflict,
    db_path_from_env,
)

__all__ = ["ActionRow", "ChannelBusy", "Commit", "GameRow", "SeatRow", "Store", "VersionConflict",
           "db_path_from_env"]
