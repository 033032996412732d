"""The bot's extensions in one explicit list, and which cog module serves each game (its UI and its words)."""

from __future__ import annotations

import importlib
from types import ModuleType

#: Each game's Discord side: the module holding its cog, its `UI` (drawing, panels) and its `WORDS`.
GAME_MODULES: dict[str, str] = {
    "hero-realms": "cogs.hero_realms",
    "heroquest": "cogs.heroquest",
    "gorgasali": "cogs.gorgasali",
    "kings-armory": "cogs.kings_armory",
    "guerra-de-indagar": "cogs.guerra_de_indagar",
}
#: Everything the bot loads at start, in this order (the lobby first: the game groups hang their help off it; the
#: collector last: it freezes what start-up made).
EXTENSIONS: tuple[str, ...] = ("cogs.lobby", "cogs.exits", "cogs.records", "cogs.replay", *GAME_MODULES.values(),
                               "cogs.collector")


def game_module(game_id: str) -> ModuleType | None:
    """The cog module of a game, or None for a game without a Discord side of its own. The module is loaded by
    then (it is an extension); importing here only reads it, since the game modules themselves import ours."""
    name = GAME_MODULES.get(game_id)
    return importlib.import_module(name) if name is not None else None
