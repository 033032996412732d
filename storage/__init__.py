"""Durable storage of games, seats, the action log, log lines and snapshots (SQLite or PostgreSQL)."""

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
    StorageFull,
    StorageUnavailable,
    StoredState,
    VersionConflict,
)
from storage.store import Store, db_path_from_env

__all__ = ["ActionRow", "ChannelBusy", "Commit", "GameRow", "Head", "LogLine", "Mismatch", "SeatRow", "StorageError",
           "StorageFull", "StorageUnavailable", "Store", "StoredState", "VersionConflict", "db_path_from_env"]
