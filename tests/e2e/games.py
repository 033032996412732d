"""Shared pieces of the per-game end-to-end tests: a bot in the stand-in, the channel's game, error replies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output
from tests.standin_reads import home_channel


async def bot_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, *, previews: bool = False
                    ) -> AsyncIterator[InProcessDiscord]:
    """The real bot on a fresh database, behind the in-process Discord stand-in, with seeded dice."""
    monkeypatch.setenv("TABLETOP_SEED", str(seed))
    if previews:
        monkeypatch.setenv("TABLETOP_PREVIEW_GAMES", "1")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "x.sqlite3"))) as world:
        yield world


async def loaded(d: InProcessDiscord) -> Any:
    """The channel's game as the table holds it (row, seats, state)."""
    row = await d.bot.table.game_for(home_channel(d).id)
    assert row is not None
    return await d.bot.table.inspect(row.id)


def errors(out: list[Output]) -> list[str]:
    """The texts of the error replies among a command's outputs."""
    return [o.text() for o in out if is_error_output(o)]


async def hero_realms_for_two(d: InProcessDiscord, *, second_locale: str = "en-US") -> str:
    """Ann (English) and Berta (`second_locale`) start a two-player Hero Realms game through the stand-in; the name
    of the one on turn."""
    d.user("ann", locale="en-US")
    d.user("berta", locale=second_locale)
    out = await d.command("ann", "/game new game:hero-realms")
    out += await d.command("berta", "/game join")
    out += await d.command("ann", "/game start")
    assert not errors(out)
    state = await loaded(d)
    return ["ann", "berta"][next(iter(state.game.to_act(state.state)))]
