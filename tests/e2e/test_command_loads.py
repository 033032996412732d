"""Through the real bot: a `/game act` reads its game from storage once (its checks, its move, its answer)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import is_error_output
from storage import Store
from tests.standin_reads import home_channel

#: The store's calls that read a game: its row, its seats, its stored state.
LOADS = ("open_game", "game", "last_game", "seats", "stored_state")


@pytest.fixture
def loads(monkeypatch) -> Counter[str]:
    counted: Counter[str] = Counter()
    for name in LOADS:
        real = getattr(Store, name)

        async def counting(self: Store, *args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            counted[_name] += 1
            return await _real(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, counting)
    return counted


async def test_a_game_act_loads_its_game_once(tmp_path, loads: Counter[str]) -> None:
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "e2e.sqlite3"))) as d:
        await d.command("alice", "/game new game:tiny")
        await d.command("bob", "/game join")
        await d.command("alice", "/game start")
        table = d.bot.table
        for _ in range(6):
            row = await table.game_for(home_channel(d).id)
            loaded = await table.inspect(row.id)
            seat = sorted(loaded.game.to_act(loaded.state))[0]
            action = loaded.game.legal_actions(loaded.state, seat)[0].action
            loads.clear()
            out = await d.command(("alice", "bob")[seat], f"/game act action:{action.token()}")
            assert out and not any(is_error_output(o) for o in out), out
            assert sum(loads.values()) == 1 and loads["open_game"] == 1, loads
