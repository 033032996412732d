"""Bounded per-game memory: an LRU of recent states and locks that disappear when nobody holds them."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

DEFAULT_CACHED_GAMES = 256


@dataclass
class Cached:
    version: int
    state: Any
    #: Seats never change after the lobby, so a running game's seats are kept with its state.
    seats: list[Any]
    #: The public view of this state once drawn (the next move compares against it).
    board: dict[str, Any] | None = None
    #: The engine version that saved this state, and the undo chain stored with it (see `Inspection`).
    engine: str | None = None
    chain: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Each seat's legal moves in this state once listed: the menu sent after a move and the typed command that
    #: follows it read the same list.
    legal: dict[int, list[Any]] = field(default_factory=dict)


class StateCache:
    """The newest state of the most recently used games; a miss rebuilds from storage."""

    def __init__(self, capacity: int = DEFAULT_CACHED_GAMES) -> None:
        self.capacity = max(1, capacity)
        self._items: OrderedDict[int, Cached] = OrderedDict()

    def get(self, game_id: int, version: int) -> Cached | None:
        item = self._items.get(game_id)
        if item is None or item.version != version:
            return None
        self._items.move_to_end(game_id)
        return item

    def put(self, game_id: int, version: int, state: Any, seats: list[Any], *, engine: str | None = None,
            chain: dict[int, dict[str, Any]] | None = None) -> None:
        seal = getattr(state, "seal", None)
        if callable(seal):  # a state kept here is only read from now on: its game may remember answers about it
            seal()
        self._items[game_id] = Cached(version, state, seats, engine=engine, chain=chain or {})
        self._items.move_to_end(game_id)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def holds(self, game_id: int, version: int) -> bool:
        """Whether the newest state kept for this game is the one at `version` (no reordering)."""
        item = self._items.get(game_id)
        return item is not None and item.version == version

    def remember_board(self, game_id: int, version: int, board: dict[str, Any]) -> None:
        item = self._items.get(game_id)
        if item is not None and item.version == version:
            item.board = board

    def board(self, game_id: int, version: int) -> dict[str, Any] | None:
        item = self._items.get(game_id)
        return item.board if item is not None and item.version == version else None

    def remember_legal(self, game_id: int, version: int, seat: int, legal: list[Any]) -> None:
        item = self._items.get(game_id)
        if item is not None and item.version == version:
            item.legal[seat] = legal

    def legal(self, game_id: int, version: int, seat: int) -> list[Any] | None:
        item = self._items.get(game_id)
        return item.legal.get(seat) if item is not None and item.version == version else None

    def drop(self, game_id: int) -> None:
        self._items.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._items)


class GameLocks:
    """One asyncio lock per key (a channel) while someone holds or waits for it; forgotten when idle."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, game_id: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(game_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users <= 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)

    def contended(self, key: Hashable) -> bool:
        """Whether someone besides the holder waits for this key's lock."""
        return self._locks.get(key, (None, 0))[1] > 1

    def __len__(self) -> int:
        return len(self._locks)
