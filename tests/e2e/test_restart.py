"""After a restart the game continues where it was, and the buttons already posted still work."""

from __future__ import annotations

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import default_world, is_error_output


async def test_buttons_survive_a_restart(tmp_path) -> None:
    db = str(tmp_path / "restart.sqlite3")
    world, guild, channel = default_world()
    async with InProcessDiscord(lambda: make_bot(db), world=world, guild=guild, channel=channel) as d:
        await d.command("alice", "/game new game:tiny")
        await d.command("bob", "/game join")
        out = await d.command("alice", "/game start")
        turn_message = next(o for o in out if o.kind == "channel" and o.components)
        pv_id = next(cid for cid, _ in turn_message.components if cid.startswith("tgb:pv:"))
    async with InProcessDiscord(lambda: make_bot(db), world=world, guild=guild, channel=channel) as d:
        out = await d.click("alice", turn_message, pv_id)
        assert out and not any(is_error_output(o) for o in out), out
        assert any(o.kind == "ephemeral" for o in out)
        status = await d.command("bob", "/game status")
        assert not any(is_error_output(o) for o in status)
        assert not any(cid.startswith("tgb:undo:") for cid, _ in turn_message.components), "nothing to undo yet"
        out = await d.click("carol", turn_message, pv_id)
        assert any(is_error_output(o) for o in out), "a spectator's click is refused politely"
