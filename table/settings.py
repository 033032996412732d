"""A server's play-by-post settings and its lasting records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.text import Msg, msg
from table.core import DEFAULT_IDLE_HOURS, DEFAULT_REMINDER_MINUTES, LANGUAGES, MAX_TIMER_MINUTES, TableCore
from table.refusals import _storage_refusals
from table.results import TableError, Who


class Settings(TableCore):
    """Settings and records (a base of `Table`)."""

    async def profiles(self, guild_id: int | None, game_type: str) -> dict[str, dict[str, Any]]:
        """This server's lasting records for a game (e.g. HeroQuest character sheets)."""
        return await self.store.profiles(guild_id, game_type)

    @_storage_refusals
    async def update_profile(self, guild_id: int | None, game_type: str, key: str,
                             change: Callable[[dict[str, Any] | None], dict[str, Any]]) -> dict[str, Any]:
        """Apply a pure change to one record (buying between quests...); `change` raises RuleError to refuse."""
        async with self._locks.hold(-hash((guild_id, game_type, key)) % (1 << 30) - (1 << 31)):
            current = (await self.store.profiles(guild_id, game_type, [key])).get(key)
            updated = change(current)
            await self.store.save_profiles(guild_id, game_type, {key: updated}, self.clock())
            return updated

    # ---------------------------------------------------------------- play-by-post

    @_storage_refusals
    async def configure(self, guild_id: int, who: Who, *, reminder_minutes: int | None = None,
                        idle_hours: int | None = None, timer_minutes: int | None = None,
                        language: str | None = None) -> Msg:
        await self.remember(who)
        if not who.can_manage:
            raise TableError(msg("core.error.settings_forbidden"))
        if language is not None and language not in LANGUAGES:
            raise TableError(msg("core.error.language", valid=", ".join(LANGUAGES)))
        if reminder_minutes is not None and not 1 <= reminder_minutes <= 7 * 24 * 60:
            raise TableError(msg("core.error.reminder_range"))
        if idle_hours is not None and not 1 <= idle_hours <= 30 * 24:
            raise TableError(msg("core.error.idle_range"))
        if timer_minutes is not None and not 0 <= timer_minutes <= MAX_TIMER_MINUTES:
            raise TableError(msg("core.error.timer_range", high=MAX_TIMER_MINUTES))
        await self.store.set_guild_settings(guild_id, reminder_minutes=reminder_minutes, idle_hours=idle_hours,
                                            timer_minutes=timer_minutes, lang=language)
        return await self.settings_line(guild_id)

    async def settings_line(self, guild_id: int | None) -> Msg:
        """The server's play-by-post settings in words (anyone may read them)."""
        settings = await self.store.guild_settings(guild_id)
        timer = settings.get("timer_minutes") or 0
        lang = settings.get("lang")
        return msg("core.settings.summary",
                   minutes=settings.get("reminder_minutes", DEFAULT_REMINDER_MINUTES),
                   hours=settings.get("idle_hours", DEFAULT_IDLE_HOURS),
                   timer=msg("core.settings.timer_of", n=timer) if timer else msg("core.settings.no_timer"),
                   language=msg(f"core.language.{lang}") if lang in LANGUAGES else msg("core.language.auto"))
