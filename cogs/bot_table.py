"""The table a cog's `setup` finds on the bot (bot.py opens it in `setup_hook`, before it loads the cogs)."""

from __future__ import annotations

from discord.ext import commands

from table import Table


def table_of(bot: commands.Bot) -> Table:
    """The bot's table; a cog loaded before the table is open is a start-up bug, said plainly."""
    table: Table | None = getattr(bot, "table", None)
    if table is None:
        raise RuntimeError("the bot loads its cogs after it opens its table (bot.py setup_hook)")
    return table
