"""Crafted payloads on the shared commands: values Discord would never send, a DM, a stale command."""

from __future__ import annotations

from typing import Any

import pytest

from bot import make_bot
from standin.driver import APP_COMMAND
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output
from tests.e2e.crafted import crafted


@pytest.fixture
async def d(tmp_path):
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "x.sqlite3"))) as world:
        yield world


def refusal(outputs: list[Output]) -> str:
    errors = [o for o in outputs if is_error_output(o)]
    assert len(errors) == 1 and len(outputs) == 1, [o.text() for o in outputs]
    text = errors[0].content
    assert "went wrong" not in text and "Traceback" not in text, text
    return text


async def send(d: InProcessDiscord, who: str, line: str, edit: Any, *, dm: bool = False) -> list[Output]:
    """Run `line` with its `data` changed by `edit`, from the channel or from the user's DM."""
    user = d.user(who)
    assert d.channel is not None
    data = d.command_data(user, d.channel, line)
    edit(data)
    ch = d.world.dm_channel(user) if dm else d.channel
    if dm:
        data.pop("guild_id", None)
    inter = d.world.new_interaction(APP_COMMAND, user, ch)
    return await d._run(inter, d.interaction_payload(inter, user, ch, data))


@pytest.mark.parametrize(("line", "raw", "words"), [
    ("/game new game:hero-realms ai:1", {"ai": "lots"}, ["ai", "0", "9"]),
    ("/game new game:hero-realms ai:1", {"ai": 99}, ["ai", "0", "9"]),
    ("/game new game:hero-realms timer:5", {"timer": -3}, ["timer", "10080"]),
    ("/game new game:hero-realms reminder:5", {"reminder": 2.5}, ["reminder", "10080"]),
    ("/game new game:hero-realms options:variant=hydra", {"options": 7}, ["options"]),
    ("/game log page:1", {"page": "x"}, ["page", "10000"]),
    ("/game settings timer_minutes:5", {"timer_minutes": "x"}, ["timer_minutes", "10080"]),
])
async def test_crafted_values_on_game_commands_are_refused_naming_the_option(d, line, raw, words) -> None:
    text = refusal(await crafted(d, "alice", line, **raw))
    assert all(w in text for w in words), text
    assert await d.bot.table.game_for(d.channel.id) is None


async def test_a_file_id_the_interaction_does_not_carry_is_refused(d) -> None:
    def bad_file(data: dict[str, Any]) -> None:
        data["options"][0]["options"].append({"name": "file", "type": 11, "value": "123456"})

    text = refusal(await send(d, "alice", "/game new game:heroquest", bad_file))
    assert "file" in text and "attached" in text, text
    assert await d.bot.table.game_for(d.channel.id) is None


async def test_server_commands_sent_from_a_dm_are_refused_and_make_nothing(d) -> None:
    d.user("alice", locale="es-ES")
    text = refusal(await send(d, "alice", "/game new game:hero-realms", lambda data: None, dm=True))
    assert "servidor" in text, text
    dm = d.world.dm_channel(d.user("alice"))
    assert await d.bot.table.game_for(dm.id) is None
    text = refusal(await send(d, "alice", "/hr play card:all", lambda data: None, dm=True))
    assert "servidor" in text, text


async def test_a_payload_that_does_not_match_the_synced_command_is_a_clear_refusal(d) -> None:
    def unknown_sub(data: dict[str, Any]) -> None:
        data["options"][0]["name"] = "nosuch"

    def required_left_out(data: dict[str, Any]) -> None:
        data["options"][0]["options"] = []

    for edit in (unknown_sub, required_left_out):
        text = refusal(await send(d, "alice", "/game new game:hero-realms", edit))
        assert "Nothing was changed" in text and "/game help" in text, text
    assert await d.bot.table.game_for(d.channel.id) is None
