"""What reaches a player outside their own command (DMs) is in their language; pings come when the turn passes."""

from __future__ import annotations

import pytest

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import is_error_output

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_SEED", "11")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "x.sqlite3"))) as world:
        yield world


async def started(d: InProcessDiscord) -> tuple[str, str]:
    """An English and a Spanish player; returns (who is on turn, the other)."""
    d.user("ann", locale="en-US")
    d.user("berta", locale="es-ES")
    out = await d.command("ann", "/game new game:hero-realms")
    out += await d.command("berta", "/game join")
    out += await d.command("ann", "/game start")
    assert not [o.text() for o in out if is_error_output(o)]
    row = await d.bot.table.game_for(d.channel.id)
    loaded = await d.bot.table.inspect(row.id)
    first = next(iter(loaded.game.to_act(loaded.state)))
    names = ["ann", "berta"]
    return names[first], names[1 - first]


async def test_dms_go_out_in_the_readers_language(d: InProcessDiscord) -> None:
    on_turn, other = await started(d)
    out = await d.command(on_turn, "/hr end")
    dms = [o for o in out if o.kind == "dm" and o.recipient_id == d.world.user_named(other).id]
    assert dms, [(o.kind, o.text()[:60]) for o in out]
    header = {"ann": "Your game of", "berta": "Tu partida de"}[other]
    assert all(header in o.content for o in dms), [o.content[:80] for o in dms]


async def test_the_next_player_is_pinged_when_the_turn_passes_not_after_every_move(d: InProcessDiscord) -> None:
    on_turn, other = await started(d)
    mover = d.world.user_named(on_turn)
    out = await d.command(on_turn, "/hr play card:all")
    posts = [o for o in out if o.kind == "channel"]
    assert posts and not any(f"<@{mover.id}>" in o.content for o in posts), "pinged again in the middle of a turn"
    out = await d.command(on_turn, "/hr end")
    waiting = d.world.user_named(other)
    assert any(f"<@{waiting.id}>" in o.content for o in out if o.kind == "channel")
