"""`/game replay`, its step-through and a spectator's `/game view`, through the stand-in, for each of the five games:
a finished game and a game in progress replay as animated images of more than one frame."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from rules import registry
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output
from table import Who
from tests.e2e.games import bot_world
from tests.standin_reads import home_channel, home_guild_id
from tools.replay_bench import play

pytestmark = [pytest.mark.timeout(600), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

GAMES = ("gorgasali", "guerra-de-indagar", "hero-realms", "heroquest", "kings-armory")


def people(d: InProcessDiscord, game_id: str) -> list[Who]:
    """The people seated: alice (and bob where the game needs a game master and a hero)."""
    game = registry.get(game_id)
    assert game is not None
    names = ["alice"] if game.supports_ai else ["alice", "bob"]
    return [Who(d.user(name).id, name) for name in names]


def animation_of(outputs: list[Output], kind: str) -> GifImageFile:
    found = [(name, data) for o in outputs if o.kind == kind for name, data in o.attachments]
    assert found, [o.text()[:200] for o in outputs]
    name, data = found[-1]
    assert name.endswith(".gif"), name
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    return image


def errors(outputs: list[Output]) -> list[str]:
    return [o.text() for o in outputs if is_error_output(o)]


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 7, previews=True):
        world.settle_timeout = 180.0  # a replay is drawn in a worker process: seconds on a busy machine
        yield world


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_finished_game_and_a_game_in_progress_replay_as_animations(d: InProcessDiscord, game_id: str) -> None:
    table = d.bot.table
    seated = people(d, game_id)
    finished = await play(table, home_channel(d).id, game_id, humans=len(seated), seats=2, moves=None, people=seated,
                          guild_id=home_guild_id(d))
    row = await table.store.game(finished)
    assert row.status == "finished"
    out = await d.command("carol", f"/game replay game:{finished}")
    assert not errors(out), errors(out)
    image = animation_of(out, "channel")
    assert image.is_animated and image.n_frames > 1
    public = next(o for o in out if o.kind == "channel" and o.attachments)
    assert f"#{finished}" in public.content and "game is over" in public.content
    # The step-through, for anyone: a turn with its summary, and ◀ ▶ that walk the turns in place.
    step = next(cid for cid, _ in public.components if cid.startswith("tgb:rs:"))
    out = await d.click("dave", public, step)
    assert not errors(out), errors(out)
    shown = next(o for o in out if o.kind == "ephemeral" and o.attachments)
    assert "Start" in shown.content
    forward = next(cid for cid, label in shown.components if label == "Next")
    out = await d.click("dave", shown.message_id, forward)
    assert not errors(out), errors(out)
    assert any("Turn 1 of" in o.content or "Move 1 of" in o.content for o in out), [o.content for o in out]
    # A player's own replay of the finished game comes only to them.
    out = await d.command(seated[-1].name, f"/game replay game:{finished} mine:True")
    assert not errors(out), errors(out)
    assert animation_of(out, "ephemeral").n_frames > 1
    assert not any(o.kind == "channel" for o in out)
    out = await d.command("carol", f"/game replay game:{finished} mine:True")
    assert errors(out) and "did not play" in errors(out)[0]

    # A game in progress in the same channel: replayed so far, and watched by someone not playing.
    running = await play(table, home_channel(d).id, game_id, humans=len(seated), seats=2, moves=14, people=seated,
                         guild_id=home_guild_id(d))
    assert (await table.store.game(running)).status == "active"
    out = await d.command("carol", "/game replay speed:fast")
    assert not errors(out), errors(out)
    image = animation_of(out, "channel")
    assert image.is_animated and image.n_frames > 1
    out = await d.command("carol", "/game view")
    assert not errors(out), errors(out)
    assert any(o.kind == "ephemeral" and o.attachments and "not playing" in o.content for o in out)


async def test_spectators_off_refuses_the_view_and_the_replay_to_non_players(d: InProcessDiscord) -> None:
    table = d.bot.table
    seated = people(d, "hero-realms")
    await play(table, home_channel(d).id, "hero-realms", humans=1, seats=2, moves=10, people=seated,
               guild_id=home_guild_id(d))
    out = await d.command("carol", "/game spectators mode:off")
    assert errors(out) and "Only a player" in errors(out)[0]
    out = await d.command("alice", "/game spectators mode:off")
    assert not errors(out)
    assert any(o.kind == "channel" and "Spectators are off" in o.content for o in out)
    for line in ("/game view", "/game replay"):
        out = await d.command("carol", line)
        assert errors(out) and "turned spectators off" in errors(out)[0], (line, [o.text() for o in out])
    out = await d.command("alice", "/game replay")
    assert not errors(out), errors(out)
    out = await d.command("alice", "/game view")
    assert not errors(out) and not any("not playing" in o.content for o in out)
    out = await d.command("alice", "/game spectators mode:on")
    out = await d.command("carol", "/game view")
    assert not errors(out), errors(out)


async def test_replay_refusals_are_clear(d: InProcessDiscord) -> None:
    out = await d.command("carol", "/game replay")
    assert errors(out) and "no game" in errors(out)[0].lower()
    out = await d.command("carol", "/game replay game:999")
    assert errors(out) and "999" in errors(out)[0]
    table = d.bot.table
    await play(table, home_channel(d).id, "hero-realms", humans=1, seats=2, moves=8, people=people(d, "hero-realms"),
               guild_id=home_guild_id(d))
    out = await d.command("carol", "/game replay from:5 to:2")
    assert errors(out) and "turns go from 0" in errors(out)[0]
    out = await d.command("alice", "/game replay mine:True")
    assert errors(out) and "finished game" in errors(out)[0]
