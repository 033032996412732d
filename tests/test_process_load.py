"""The mixed load with the bot in a process of its own: people in the stand-in get answers over real sockets."""

from __future__ import annotations

import pytest

from tools.process_load import process_standin_load

pytestmark = pytest.mark.timeout(240)


async def test_a_bot_in_its_own_process_answers_every_command(tmp_path) -> None:
    figures = await process_standin_load(str(tmp_path / "load.sqlite3"), channels=2, seconds=4, think=0.5, seed=3,
                                         processes=1, folder=str(tmp_path))
    assert figures["failures"] == 0, figures["failure_samples"]
    assert figures["commands"] >= 2
    assert 0 < figures["reply_ms_p50"] <= figures["reply_ms_p99"]
    assert figures["pictures_shown"] > 0
