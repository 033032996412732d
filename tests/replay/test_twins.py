"""Twin worlds: two games that differ only in what nobody outside could see (the order deep in a hidden deck, the
terrain of a face-down tile) are played in lockstep through the table; every non-player gets identical replay bytes,
identical step-through frames and lines, and an identical spectator view, for each of the five games."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from cogs.replay_jobs import ReplayWorks
from renderers.replay import with_names
from rules import registry
from rules.base import Game
from rules.rng import Rng
from storage import Store
from table import Table, Who
from table.replay import Replays
from table.summary import waiting_line
from tools.replay_bench import ai_or_random

pytestmark = [pytest.mark.timeout(600)]

MOVES = 36
#: Guerra's heroes explore the few face-down tiles within a few turns: its twins stay twins for fewer moves.
WINDOW = {"guerra-de-indagar": 10}
SEED = 4242


def _middle_reversed(*keys: str) -> Callable[[dict[str, Any]], None]:
    """Reverse the middle fifth of each hidden deck: the cards at both ends (where cards are drawn) stay put."""
    def edit(data: dict[str, Any]) -> None:
        for key in keys:
            deck = data[key]
            cut = max(2, len(deck) * 2 // 5)
            data[key] = deck[:cut] + deck[cut:len(deck) - cut][::-1] + deck[len(deck) - cut:]
    return edit


def _face_down_swapped(data: dict[str, Any]) -> None:
    """Two face-down tiles of different terrain trade places: those farthest from the deployment tiles."""
    tiles = data["tiles"]

    def cell(key: str) -> tuple[int, int]:
        q, r = key.split(",")
        return int(q), int(r)

    def distance(a: str, b: str) -> int:
        (q1, r1), (q2, r2) = cell(a), cell(b)
        return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))

    deploy = [key for key, tile in tiles.items() if tile.get("deploy")]
    down = sorted((key for key, tile in tiles.items() if not tile["up"]),
                  key=lambda k: (-min(distance(k, d) for d in deploy), k))
    a = down[0]
    b = next(key for key in down if tiles[key]["t"] != tiles[a]["t"])
    tiles[a]["t"], tiles[b]["t"] = tiles[b]["t"], tiles[a]["t"]


EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "gorgasali": _middle_reversed("wdeck", "sdeck"),
    "guerra-de-indagar": _face_down_swapped,
    "hero-realms": _middle_reversed("market_deck"),
    "heroquest": _middle_reversed("deck"),
    "kings-armory": _middle_reversed("rdeck", "gear_deck"),
}


def _edited(game: Game, name: str, edit: Callable[[dict[str, Any]], None]) -> Callable[..., Any]:
    """`game.new` (or `new_with_setup`) whose new state gets the hidden edit."""
    original = getattr(type(game), name)

    def made(*args: Any) -> Any:
        data: dict[str, Any] = dict(game.to_json(original(game, *args)))  # (a shallow copy the edit may change)
        edit(data)
        return game.from_json(data)
    return made


async def _twin_tables(tmp_path: Any, game_id: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Table, int, int]:
    """The same game twice (same seed, same people, same moves), the second with its hidden edit; returns both
    tables and both game ids, the games left running after MOVES moves."""
    game = registry.get(game_id)
    assert game is not None
    tables = []
    for name in ("a", "b"):
        store = await Store(str(tmp_path / f"{name}.sqlite3")).open()
        tables.append(Table(store, seed_source=lambda: SEED, clock=lambda: 1_700_000_000.0))
    people = [Who(1, "Ana"), Who(2, "Ben")][: 1 if game.supports_ai else 2]
    ids = []
    for n, table in enumerate(tables):
        with monkeypatch.context() as patch:
            if n == 1:
                for name in ("new", "new_with_setup"):
                    patch.setattr(game, name, _edited(game, name, EDITS[game_id]))
            report = await table.new(guild_id=5, channel_id=50, who=people[0], game_type=game_id,
                                     ai_seats=2 - len(people))
            for who in people[1:]:
                await table.join(50, who)
            await table.start(50, people[0])
        ids.append(report.game_id)
    seats = {s.seat: next(p for p in people if p.user_id == s.user_id)
             for s in await tables[0].store.seats(ids[0]) if s.user_id is not None}
    rng = Rng.from_seed(7)
    for _ in range(WINDOW.get(game_id, MOVES)):
        first, second = [await t.inspect(i) for t, i in zip(tables, ids, strict=True)]
        public = [t.game.view(t.state, None) for t in (first, second)]
        assert public[0] == public[1], ("the edit became public", _differences(public[0], public[1]))
        if first.game.outcome(first.state) is not None:
            break
        seat = next((s for s in sorted(game.to_act(first.state)) if s in seats), None)
        if seat is None:
            break
        action = ai_or_random(game, first.state, seat, rng)
        for table in tables:
            await table.act(50, seats[seat], action)
    first, second = [await t.inspect(i) for t, i in zip(tables, ids, strict=True)]
    assert json.dumps(game.to_json(first.state), sort_keys=True) != json.dumps(game.to_json(second.state),
                                                                               sort_keys=True), "no twin"
    return tables[0], tables[1], ids[0], ids[1]


def _differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two views differ (the first few places), to say which hidden thing came to light."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b), key=str)
        return [d for k in keys for d in _differences(a.get(k), b.get(k), f"{path}.{k}")][:5]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in _differences(x, y, f"{path}[{i}]")][:5]
    return [] if a == b else [f"{path}: {a!r} / {b!r}"[:200]]


@pytest.mark.parametrize("game_id", sorted(EDITS))
async def test_non_players_see_the_same_replay_and_view_of_twin_games(tmp_path, monkeypatch, game_id: str) -> None:
    table_a, table_b, id_a, id_b = await _twin_tables(tmp_path, game_id, monkeypatch)
    assert id_a == id_b
    stranger = Who(99, "Carol")
    results: list[dict[str, object]] = []
    for table in (table_a, table_b):
        works = ReplayWorks(in_process=True)  # each twin its own (the two games share their number)
        replays = Replays(table)
        row, seats = await replays.target(50, 5, stranger, None)
        timeline = await works.timeline(partial(replays.source, row, seats), (row.id, row.version, None))
        works.timelines.clear()
        animation = await works.animation(timeline, None, None, "es", "normal")
        works.animations.clear()
        stills = [await works.still(timeline, turn.number, "en")
                  for turn in timeline.turns[:: max(1, len(timeline.turns) // 4)]]
        loaded, view = await replays.spectate(50, stranger)
        results.append({
            "replay": animation.data, "frames": animation.frames, "stills": stills,
            "lines": [turn.lines for turn in timeline.turns],
            "spectator": json.dumps(with_names(view, loaded.names()), sort_keys=True),
            "waiting": waiting_line(loaded, table.clock()).to_json(),
        })
        await table.store.close()
    first, second = results
    assert isinstance(first["frames"], int) and first["frames"] > 1
    for key in first:
        assert first[key] == second[key], f"{game_id}: the twins differ for a non-player in {key}"
