"""The real bot, end to end, through the in-process Discord stand-in: lobby, turns, buttons, errors."""

from __future__ import annotations

import pytest

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import is_error_output


@pytest.fixture
async def discord_(tmp_path):
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "e2e.sqlite3"))) as d:
        yield d


async def test_lobby_flow_with_the_tiny_game(discord_) -> None:
    out = await discord_.command("alice", "/game new game:tiny")
    assert out and not any(is_error_output(o) for o in out), out
    out = await discord_.command("bob", "/game join")
    assert any("bob joined" in (o.content or "") for o in out), out
    out = await discord_.command("bob", "/game start")
    assert not any(is_error_output(o) for o in out), out
    public = [o for o in out if o.kind == "channel"]
    assert public and "<@" in public[-1].content, "the next player is mentioned"
    labels = [label for _, label in public[-1].components]
    assert "My view / my options" in labels, "a game without hands offers no hand"
    out = await discord_.click("carol", public[-1], "tgb:pv:1:3:")
    assert any(is_error_output(o) and o.kind == "ephemeral" for o in out), "spectators get a polite refusal"


async def test_refusals_are_localized_errors(discord_) -> None:
    out = await discord_.command("alice", "/game start")
    assert any(is_error_output(o) for o in out)
    assert any("/game new" in (o.content or "") for o in out)
    discord_.user("carla", locale="es-ES")
    out = await discord_.command("carla", "/game join")
    assert any(is_error_output(o) and "No hay ninguna partida" in (o.content or "") for o in out), out
