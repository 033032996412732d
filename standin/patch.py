"""The one place that points discord.py at the stand-in: its REST base URL and its default gateway."""

from __future__ import annotations

from collections.abc import Callable

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def point_discord_at(base_url: str) -> Callable[[], None]:
    """Send discord.py's REST calls to `{base_url}/api/v10` and its gateway to `ws://.../gateway`.

    Route.BASE covers the bot's HTTPClient and the interaction/webhook adapter (both build Route objects);
    DEFAULT_GATEWAY covers plain Clients, which never ask /gateway/bot, and non-resume reconnects.
    Returns a function that restores the previous targets.
    """
    base = yarl.URL(base_url.rstrip("/"))
    previous = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    Route.BASE = str(base / "api" / "v10")
    DiscordWebSocket.DEFAULT_GATEWAY = base.with_scheme("wss" if base.scheme == "https" else "ws") / "gateway"

    def undo() -> None:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = previous

    return undo
