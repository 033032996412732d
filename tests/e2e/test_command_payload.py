"""The slash commands the bot syncs respect Discord's limits and match the reviewed snapshot."""

from __future__ import annotations

import json
import os
from pathlib import Path

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.validate import validate_commands

SNAPSHOT = Path(__file__).resolve().parent.parent / "snapshots" / "commands.json"
VOLATILE = {"id", "application_id", "version", "guild_id"}


def _stable(value):
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in sorted(value.items()) if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


async def test_synced_commands_are_valid_and_match_the_snapshot(tmp_path) -> None:
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "c.sqlite3"))) as d:
        payload = [_stable(c) for c in d.world.global_commands]
    assert payload, "the bot synced no commands"
    assert validate_commands(payload) == []
    names = {c["name"] for c in payload}
    assert "game" in names
    game = next(c for c in payload if c["name"] == "game")
    assert game["name_localizations"].get("es-ES") == "partida"
    assert {o["name"] for o in game["options"]} >= {"new", "join", "leave", "start", "status", "undo", "log",
                                                     "abandon", "list", "help"}
    text = json.dumps(sorted(payload, key=lambda c: c["name"]), indent=1, ensure_ascii=False, sort_keys=True)
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not SNAPSHOT.exists():
        SNAPSHOT.write_text(text + "\n", encoding="utf-8")
    assert SNAPSHOT.read_text(encoding="utf-8") == text + "\n", (
        "the synced commands changed: review the diff, then run with UPDATE_SNAPSHOTS=1"
    )
