"""Plays the tiny game forever, printing each acknowledged version; the crash test kills it with SIGKILL."""

from __future__ import annotations

import asyncio
import sys

from rules import registry
from rules.base import Action
from storage import Store
from table import Table, Who
from tests.tinygame import TINY

registry.register(TINY)
PLAYERS = (Who(1, "Alice"), Who(2, "Bob"))


async def main(path: str) -> None:
    store = await Store(path).open()
    table = Table(store)
    if await table.game_for(7) is None:
        await table.new(guild_id=1, channel_id=7, who=PLAYERS[0], game_type="tiny", options={"target": "60"})
        await table.join(7, PLAYERS[1])
        await table.start(7, PLAYERS[0])
    while True:
        row = await table.game_for(7)
        if row is None:
            print("DONE", flush=True)
            return
        state = (await table.inspect(row.id)).state
        who = PLAYERS[state.turn]
        action = Action.of("end") if state.played else Action.of("play", card=state.hands[state.turn][0])
        report = await table.act(7, who, action)
        print(f"ACK {report.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
