"""`/game act` with a move's exact token (what autocomplete sends) finds it among the legal moves without building
the view and wording that typed words need; words still go through them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cogs.plumbing import GameCog
from standin.inprocess import InProcessDiscord
from tests.e2e.games import bot_world, errors, hero_realms_for_two, loaded

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[InProcessDiscord]:
    async for world in bot_world(tmp_path, monkeypatch, 5):
        yield world


async def test_an_exact_token_skips_the_wording_and_words_still_use_it(d: InProcessDiscord,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    mover = await hero_realms_for_two(d)
    worded: list[str] = []
    real = GameCog.seen

    async def spy(self: GameCog, interaction: Any) -> Any:
        worded.append(self.game_id)
        return await real(self, interaction)

    monkeypatch.setattr(GameCog, "seen", spy)
    before = await loaded(d)
    seat = next(iter(before.game.to_act(before.state)))
    move = before.game.legal_actions(before.state, seat)[0].action
    out = await d.command(mover, f'/game act action:"{move.token()}"')
    assert not errors(out)
    assert (await loaded(d)).row.version > before.row.version
    assert worded == []
    out = await d.command(mover, '/game act action:"no such move at all"')
    assert errors(out) and worded == ["hero-realms"]
