"""A picture already drawn when its words go out is sent with them, in the same message: no edit is spent on it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from cogs import delivery
from cogs.late_images import drawn, early
from standin.inprocess import InProcessDiscord
from tests.e2e.games import bot_world, errors, hero_realms_for_two

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[InProcessDiscord]:
    async for world in bot_world(tmp_path, monkeypatch, 11):
        yield world


async def test_drawn_gives_only_a_finished_drawing() -> None:
    async def slow() -> bytes:
        await asyncio.sleep(0.01)
        return b"png"

    async def failing() -> bytes:
        raise ValueError("broken drawing")

    async def empty() -> None:
        return None

    pending = early(slow())
    assert pending is not None and drawn(pending) is None  # still drawing: never waited for
    assert await pending == b"png" and drawn(pending) == b"png"
    broken = early(failing())
    await asyncio.sleep(0)
    assert drawn(broken) is None  # a failed drawing goes out later or not at all, never as words' picture
    nothing = early(empty())
    await asyncio.sleep(0)
    assert drawn(nothing) is None and drawn(None) is None


async def test_pictures_drawn_before_their_words_leave_go_with_them(d: InProcessDiscord,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    on_turn = await hero_realms_for_two(d, second_locale="es-ES")

    held: list[Awaitable[bytes | None]] = []
    real_early = delivery.early

    def early_and_kept(pending: Awaitable[bytes | None] | None) -> Awaitable[bytes | None] | None:
        task = real_early(pending)
        if task is not None:
            held.append(task)
        return task

    monkeypatch.setattr(delivery, "early", early_and_kept)
    # Words are sent only once every picture this command draws is finished: what a fast drawing looks like (the
    # person's answer goes first, then the channel's message).
    real_answer = delivery.answer_privately

    async def answer_when_drawn(*args: object, **kwargs: object) -> None:
        await asyncio.gather(*held)
        await real_answer(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(delivery, "answer_privately", answer_when_drawn)
    with_words = delivery.LATE.at_once
    out = await d.command(on_turn, "/hr end")
    assert not errors(out)
    assert held, "no picture was drawn early"
    new = set()
    for kind in ("channel", "ephemeral", "dm"):
        first = next(o for o in out if o.kind == kind)
        assert first.attachments, f"the {kind} message went out without its finished picture"
        new.add(first.message_id)
    # (the turn that ended keeps its own board in the edit that closes it: only the new messages count)
    edits = [o for o in out if o.kind == "edit" and o.attachments and o.message_id in new]
    assert not edits, "a finished picture was still added by an edit"
    assert delivery.LATE.at_once - with_words == 3
