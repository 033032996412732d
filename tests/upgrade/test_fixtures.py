"""Every release's fixture database opens with today's code, each game resumes from the state its players saw
(its stored head), and plays on to its end."""

from __future__ import annotations

import itertools
import json
from typing import Any

from rules.rng import Rng
from table import Table
from tests.upgrade.conftest import RELEASES
from tools.make_upgrade_fixture import play_to_end


def dynamic(game: Any, state: Any) -> str:
    data = game.to_json(state)
    return canon({k: v for k, v in data.items() if k not in game.static_keys})


def canon(value: Any) -> str:
    return json.dumps(json.loads(json.dumps(value)), sort_keys=True)


def test_every_game_has_a_fixture():
    from rules import registry

    assert RELEASES, "tests/fixtures/upgrade/ holds no release: run python -m tools.make_upgrade_fixture"
    covered = set().union(*(json.loads((r / "manifest.json").read_text())["games"] for r in RELEASES))
    real = {g for g, game in registry.games().items() if type(game).__module__.startswith("rules.")}
    assert real <= covered, f"no fixture database holds {sorted(real - covered)}"


async def test_games_resume_where_players_left_them_and_play_to_the_end(fixture_db):
    store = fixture_db.store
    table = Table(store, seed_source=itertools.count(1).__next__)
    rng = Rng.from_seed(3)
    for game_id, info in sorted(fixture_db.games().items()):
        row = await store.game(info["game_id"])
        assert row is not None and row.game_type == game_id and row.status == "active"
        assert row.version == info["version"]
        head = await store.head(row.id)
        assert head is not None and head[0] == row.version
        loaded = await table.inspect(row.id)
        assert dynamic(loaded.game, loaded.state) == canon(head[1].state), f"{game_id} did not resume from its head"
        moves = await play_to_end(table, info["channel"], rng)
        row = await store.game(row.id)
        assert row is not None and row.status == "finished", f"{game_id} stopped after {moves} moves unfinished"
        assert moves > 0
