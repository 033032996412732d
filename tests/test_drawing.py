"""Images drawn in the worker processes are the very bytes the game's UI draws in the bot's own process."""

from __future__ import annotations

import asyncio
import importlib
import os

import pytest

import cogs.hero_realms  # noqa: F401  (registers the game's UI)
from cogs import drawing
from cogs.ui import ui_for
from rules import registry


async def test_a_board_drawn_in_a_worker_process_is_the_same_image(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_DRAWING_PROCESSES", "1")
    game = registry.get("hero-realms")
    assert game is not None
    view = game.view(game.new(game.resolve_options({}), 2, 7), None)
    # the class as its module holds it now (a test that started the bot may have imported the cog again, and a
    # worker pickles methods by their module's name)
    registered = type(ui_for("hero-realms"))
    ui = getattr(importlib.import_module(registered.__module__), registered.__name__)()
    expected = ui.board_image(view, "es")
    try:
        for _ in range(200):  # until the worker has started (images are drawn in threads meanwhile)
            png = await drawing.draw(ui.board_image, view, "es")
            assert png == expected
            if drawing._get_pool() is not None:
                break
            await asyncio.sleep(0.1)
        pool = drawing._get_pool()
        assert pool is not None, "the worker process never started"
        pids = {pid for pid in await asyncio.gather(*(asyncio.get_running_loop().run_in_executor(pool, _pid)
                                                      for _ in range(2)))}
        assert pids and all(pid != _pid() for pid in pids), "drawn in another process"
        assert await drawing.draw(ui.board_image, view, "es") == expected
    finally:
        drawing.shutdown()


def _pid() -> int:
    return os.getpid()


async def test_ready_waits_for_the_worker_processes_and_is_at_once_without_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_DRAWING_PROCESSES", "0")
    assert await drawing.ready(timeout=0) and drawing.mode() == "threads"
    monkeypatch.setenv("TABLETOP_DRAWING_PROCESSES", "1")
    try:
        assert await drawing.ready(), "the worker process never started"
        assert drawing._get_pool() is not None and drawing.mode() == "processes 1"
    finally:
        drawing.shutdown()
