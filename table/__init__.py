"""The Discord-free table layer that cogs, local play and tests call."""

from table.results import (
           GameSummary,
           LogPage,
           NoGame,
           NotSeated,
           Reminder,
           Report,
           StaleAction,
           TableError,
           Who,
)
from table.service import Table

__all__ = ["GameSummary", "LogPage", "NoGame", "NotSeated", "Reminder", "Report", "StaleAction", "Table",
           "TableError", "Who"]
