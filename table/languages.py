"""Each user's language and notification choices, remembered for what reaches them later."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable

from storage import StorageError, Store
from table.refusals import _storage_refusals
from table.results import Report, Who

_LANG_MEMORY = 10_000

log = logging.getLogger("tabletop.table")


class Languages:
    """The table's memory of who reads which language (a base of `Table`)."""

    store: Store
    clock: Callable[[], float]
    _langs: OrderedDict[int, str]

    async def remember(self, who: Who) -> None:
        """Keep the language of each user's client, so what reaches them later is in their language."""
        if who.lang is None or self._langs.get(who.user_id) == who.lang:
            return
        self._remember_lang(who.user_id, who.lang)
        try:
            await self.store.set_user_lang(who.user_id, who.lang, self.clock())
        except StorageError as exc:  # a language preference is not worth refusing a move for
            log.warning("could not remember a language: %s", exc)

    async def langs_of(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The remembered language of each of these users who ever told us one."""
        users = set(user_ids)
        missing = [u for u in users if u not in self._langs]
        if missing:
            stored = await self.store.user_langs(missing)
            for user in missing:  # "" remembers "never told us", so each user is looked up once
                self._remember_lang(user, stored.get(user, ""))
        return {u: self._langs[u] for u in users if self._langs.get(u)}

    async def notify_prefs(self, guild_id: int | None, user_ids: Iterable[int]) -> dict[int, tuple[bool, bool]]:
        """Each user's (DMs, pings) choice on this server; users who never chose are absent (both on)."""
        try:
            return await self.store.notify_prefs(guild_id, user_ids)
        except StorageError as exc:  # a preference is not worth losing a message for
            log.warning("could not read notification choices: %s", exc)
            return {}

    @_storage_refusals
    async def set_notify(self, guild_id: int | None, who: Who, *, dms: bool | None = None,
                         pings: bool | None = None) -> tuple[bool, bool]:
        """Change this person's notification choices on this server; returns (DMs, pings) now."""
        await self.remember(who)
        current = (await self.store.notify_prefs(guild_id, [who.user_id])).get(who.user_id, (True, True))
        chosen = (current[0] if dms is None else bool(dms), current[1] if pings is None else bool(pings))
        if chosen != current or (dms, pings) != (None, None):
            await self.store.set_notify_prefs(guild_id, who.user_id, *chosen, self.clock())
        return chosen

    async def _add_langs(self, report: Report) -> None:
        users = set(report.private) | set(report.private_views) | set(report.mention) | set(report.watch)
        users |= {user for user, _ in report.addressed}
        report.langs.update(await self.langs_of(users))

    def _remember_lang(self, user_id: int, lang: str) -> None:
        self._langs[user_id] = lang
        self._langs.move_to_end(user_id)
        while len(self._langs) > _LANG_MEMORY:
            self._langs.popitem(last=False)
