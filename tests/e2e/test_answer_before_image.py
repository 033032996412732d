"""A person's command is answered with words at once; the board and their private picture follow as edits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import ParamSpec

import pytest

from cogs import delivery
from standin.inprocess import InProcessDiscord
from standin.world import Output
from tests.e2e.games import bot_world, hero_realms_for_two

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
P = ParamSpec("P")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 11):
        yield world


async def test_the_answer_comes_before_any_image_and_every_image_follows(d: InProcessDiscord, monkeypatch) -> None:
    on_turn = await hero_realms_for_two(d)

    # Every drawing waits until the person has had their answer: were the answer to wait for an image, the command
    # would never settle (the stand-in's settle time-out fails the test).
    answered = asyncio.Event()

    def listen(output: Output) -> None:
        if output.kind == "ephemeral" and output.recipient_id == d.user(on_turn).id:
            answered.set()

    d.world.listeners.append(listen)

    def held(draw: Callable[P, Awaitable[bytes | None] | None]) -> Callable[P, Awaitable[bytes | None]]:
        def start(*args: P.args, **kwargs: P.kwargs) -> Awaitable[bytes | None]:
            async def run() -> bytes | None:
                await answered.wait()
                drawing = draw(*args, **kwargs)
                assert drawing is not None
                return await drawing
            return run()
        return start

    monkeypatch.setattr(delivery, "board_png", held(delivery.board_png))
    monkeypatch.setattr(delivery, "private_png", held(delivery.private_png))
    out = await d.command(on_turn, "/hr end")
    answer = next(n for n, o in enumerate(out) if o.kind == "ephemeral")
    posted = [o for o in out if o.kind == "channel"]
    assert posted and not posted[0].attachments, "the turn's words were held back for its board"
    # (an edit of the turn that ended still shows that turn's own board: only the new messages' images count)
    new = {posted[0].message_id, out[answer].message_id}
    pictures = [n for n, o in enumerate(out) if o.attachments and o.message_id in new]
    assert pictures and min(pictures) > answer, "an image came before the person's answer"
    message = d.world.messages[posted[0].message_id]
    assert message.attachments and message.attachments[0].filename.endswith(".png"), "the board never followed"
    assert message.attachments[0].description, "the board that followed has no alt text"
    mine = d.world.messages[out[answer].message_id]
    assert mine.attachments, "the person's private picture never followed their answer"
