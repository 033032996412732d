"""Where to send a person's DMs, remembered: a DM to someone already written to costs no REST call but the send.

discord.py's `fetch_user` (GET /users/{id}) before every DM spent rate-limit budget shared by the whole bot
on an answer that never changes. A DM needs only the DM channel: it is opened once per person (POST
/users/@me/channels, or discord.py's own small cache) and its id kept here, least recently used first,
bounded, so a bot that has written to many people never grows without limit.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any

import discord

#: People whose DM channel ids are kept (an id is a few dozen bytes: 50,000 is about 5 MB at most).
KEPT = 50_000


class DmChannels:
    """User id -> DM channel id, bounded, least recently used dropped first."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._ids: OrderedDict[int, int] = OrderedDict()
        self.opened = 0  # DM channels asked of Discord (for the bench and tests)

    def __len__(self) -> int:
        return len(self._ids)

    def remember(self, user_id: int, channel_id: int) -> None:
        self._ids[user_id] = channel_id
        self._ids.move_to_end(user_id)
        while len(self._ids) > self.kept:
            self._ids.popitem(last=False)

    def forget(self, user_id: int) -> None:
        self._ids.pop(user_id, None)

    async def channel(self, client: discord.Client, user_id: int) -> Any:
        """Something to `.send` a DM to `user_id` with; no user fetch, and no REST call when seen before."""
        known = self._ids.get(user_id)
        if known is not None:
            self._ids.move_to_end(user_id)
            return client.get_partial_messageable(known, type=discord.ChannelType.private)
        dm = await client.create_dm(discord.Object(user_id))
        self.opened += 1
        self.remember(user_id, dm.id)
        return dm


_BY_CLIENT: weakref.WeakKeyDictionary[Any, DmChannels] = weakref.WeakKeyDictionary()


def dm_channels(client: Any) -> DmChannels:
    """The DM channels one bot (one login: ids are per bot) remembers."""
    found = _BY_CLIENT.get(client)
    if found is None:
        found = _BY_CLIENT[client] = DmChannels()
    return found
