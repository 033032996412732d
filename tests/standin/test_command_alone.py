"""`command_alone` waits for its own command only, so many channels can be driven at once (load tests)."""

from __future__ import annotations

import asyncio

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import default_world, is_error_output


async def test_commands_in_several_channels_at_once(tmp_path) -> None:
    world, guild, first = default_world()
    rooms = [first, *(world.add_text_channel(guild, f"mesa-{i}") for i in range(1, 4))]
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "a.sqlite3")), world=world, guild=guild,
                                channel=first) as d:
        outs = await asyncio.gather(*(d.command_alone(f"p{i}", "/game new game:hero-realms ai:1", channel=room)
                                      for i, room in enumerate(rooms)))
        assert all(out and not any(is_error_output(o) for o in out) for out in outs)
        assert all(any(o.kind in ("ephemeral", "edit") for o in out) for out in outs), "each got its own answer"
        assert {(await d.bot.table.game_for(room.id)).channel_id for room in rooms} == {r.id for r in rooms}
