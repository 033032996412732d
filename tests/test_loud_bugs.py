"""A bug is never swallowed in silence: autocomplete still answers nothing, but the log says what broke."""

from __future__ import annotations

import logging

import pytest

from cogs.plumbing import GameCog
from rules.base import IllegalAction
from rules.text import msg


async def test_a_refusal_in_autocomplete_is_quiet(caplog: pytest.LogCaptureFixture) -> None:
    async def refuse() -> list:
        raise IllegalAction(msg("core.error.illegal", valid=msg("core.nobody")))

    with caplog.at_level(logging.ERROR):
        assert await GameCog.complete(refuse) == []
    assert not caplog.records


async def test_a_crash_in_autocomplete_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def crash() -> list:
        raise KeyError("oops")

    with caplog.at_level(logging.ERROR):
        assert await GameCog.complete(crash) == []
    assert [r.levelname for r in caplog.records] == ["ERROR"] and caplog.records[0].exc_info
