"""The game rows one command reads: its checks, its move and what is shown after it share one load."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import count

from storage import GameRow

_TABLES = count()


class CommandRows:
    """The channels' game rows read during one person's command (`scope`), each kept as storage holds it.

    A kept row stands for the stored one only while `valid` says so (the table asks whether this process has
    changed the game since); callers always get a copy, so nothing they change reaches the kept row.
    """

    def __init__(self) -> None:
        self._rows: ContextVar[dict[int, GameRow] | None] = ContextVar(f"command-rows-{next(_TABLES)}", default=None)

    @contextmanager
    def scope(self) -> Iterator[None]:
        token = self._rows.set({})
        try:
            yield
        finally:
            self._rows.reset(token)

    def by_channel(self, channel_id: int) -> GameRow | None:
        kept = self._rows.get()
        row = kept.get(channel_id) if kept else None
        return dataclasses.replace(row) if row is not None else None

    def by_id(self, game_id: int) -> GameRow | None:
        kept = self._rows.get()
        row = next((r for r in kept.values() if r.id == game_id), None) if kept else None
        return dataclasses.replace(row) if row is not None else None

    def keep(self, row: GameRow) -> None:
        """Remember `row` (as stored now) for the rest of the command; outside a command, nothing is kept."""
        kept = self._rows.get()
        if kept is not None:
            kept[row.channel_id] = dataclasses.replace(row)

    def forget(self, channel_id: int) -> None:
        kept = self._rows.get()
        if kept is not None:
            kept.pop(channel_id, None)


def after_commit(row: GameRow, now: float, *, new_turn: bool) -> None:
    """The bookkeeping a commit writes besides what the table sets itself (version, status, snapshot, deadline,
    time-out): the same fields `storage.Store.commit` sets, so that the row a move leaves is the stored one."""
    row.updated_at = now
    if new_turn:
        row.turn_started_at, row.reminded_at, row.idle_offered_at = now, None, None
