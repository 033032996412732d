"""AI levels of a table: reading `/game new ai_level:`, keeping it with the game and saying it in the lobby."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import AI_LEVELS, Game
from rules.text import Lit, Msg, msg
from storage import SeatRow
from table.results import TableError

DEFAULT_LEVEL = "normal"
#: Where the level is kept in the game's stored extras (with the timer), so restarts, replays and rematches
#: keep it.
EXTRA_KEY = "ai_level"
#: What a person may type for each level, besides the level itself: its Spanish name, with or without accents.
_SPOKEN = {"facil": "easy", "dificil": "hard", "normal": "normal"}


def _plain(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(ch for ch in folded if not unicodedata.combining(ch))


def level_name(level: str) -> Msg:
    """The level as a reader reads it ("hard", "difícil")."""
    return msg(f"core.ai_level.{level}")


def valid_levels() -> Msg:
    names = [level_name(level) for level in AI_LEVELS]
    return Msg(f"core.list.{len(names)}", {f"s{i}": name for i, name in enumerate(names)})


def parse_level(value: object) -> str:
    """The level `value` names ("hard", "Difícil"...); refuses anything else, listing the levels."""
    if value is None:
        return DEFAULT_LEVEL
    text = _plain(value) if isinstance(value, str) else ""
    level = text if text in AI_LEVELS else _SPOKEN.get(text)
    if level is None:
        shown = str(value).strip()[:40] or "?"
        raise TableError(msg("core.error.ai_level", level=Lit(shown, shown), valid=valid_levels()))
    return level


def level_of(extra: Mapping[str, Any] | None) -> str:
    """The level a stored game's AI seats play at (tables made before levels existed play "normal")."""
    level = (extra or {}).get(EXTRA_KEY)
    return level if isinstance(level, str) and level in AI_LEVELS else DEFAULT_LEVEL


def level_line(game: Game, seats: Sequence[SeatRow], level: str) -> Msg:
    """The lobby line naming the level each AI seat plays at (or the game's own automation, in a game without AI
    seats such as HeroQuest's monster autoplay)."""
    bots = [s for s in seats if s.kind == "ai"]
    if not game.supports_ai:
        return msg("core.lobby.ai_level_auto", level=level_name(level))
    if not bots:
        return msg("core.lobby.ai_level_none", level=level_name(level))
    names = ", ".join(f"{s.seat + 1}. {s.name}" for s in bots)
    return msg("core.lobby.ai_level", n=len(bots), level=level_name(level), seats=Lit(names, names))
