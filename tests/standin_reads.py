"""Typed reads of the Discord stand-in for tests: the default world's channel and guild, and a user by name (the
driver types them as optional, since a world may have none; the default world always has them)."""

from __future__ import annotations

from standin.driver import Driver
from standin.world import Channel, Guild, User, World


def home_channel(d: Driver) -> Channel:
    """The driver's default text channel."""
    assert d.channel is not None, "the world has no default channel"
    return d.channel


def home_guild(d: Driver) -> Guild:
    """The driver's default guild."""
    assert d.guild is not None, "the world has no guild"
    return d.guild


def home_guild_id(d: Driver) -> int:
    """The guild of the driver's default channel."""
    guild_id = home_channel(d).guild_id
    assert guild_id is not None, "the default channel is not in a guild"
    return guild_id


def named_user(world: World, name: str) -> User:
    """A user the test has already met by name."""
    user = world.user_named(name)
    assert user is not None, f"no user {name!r}"
    return user
