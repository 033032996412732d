"""Typed reads of what the table holds, for tests: a channel's game row and a tiny test game's state (the table
types the first as optional and holds every game's state untyped)."""

from __future__ import annotations

from storage.rows import GameRow
from table import Table
from table.results import Inspection
from tests.tinygame import TinyState


async def channel_row(table: Table, channel_id: int) -> GameRow:
    """The game row of a channel that has a game."""
    row = await table.game_for(channel_id)
    assert row is not None, f"no game in channel {channel_id}"
    return row


def tiny_state(loaded: Inspection) -> TinyState:
    """The state of a started tiny test game (tests/tinygame.py)."""
    assert isinstance(loaded.state, TinyState), loaded.state
    return loaded.state
