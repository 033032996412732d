"""The table: lobby, seats, turns, permissions, undo, AI seats, reminders; Discord-free.

`Table` is put together from one room per responsibility: `table.lobby` (lobby and seats), `table.acting` (a
person's move, undo, skip), `table.automation` (the bots' and the game's own steps), `table.timers` (reminders
and time-outs), `table.reading` (status, views, legal moves, log, replay) and `table.settings` (server settings
and records), all on `table.steps` (applying one move) and `table.core` (loading, memory, languages).
"""

from __future__ import annotations

from table.acting import Acting
from table.automation import Automation
from table.lobby import Lobby
from table.reading import Reading
from table.refusals import _storage_refusals
from table.settings import Settings
from table.texts import _ai_name, _illegal_reason, _options_line, _seat_list, _seats_line, apply_or_raise
from table.timers import Timers


class Table(Lobby, Acting, Automation, Timers, Reading, Settings):
    """The one entry point for cogs, local play and tests.

    One asyncio lock per game serialises changes inside this process; the version check in every
    write is what keeps two processes (or two clicks) from both applying.
    """


__all__ = ["Table", "_ai_name", "_illegal_reason", "_options_line", "_seat_list", "_seats_line", "_storage_refusals",
           "apply_or_raise"]
