"""A rules fix between releases: replaying a stored game's log with the fixed engine fails, yet every game goes on
from the state its players saw, undo returns to the state they saw before their last move, and the mismatch is
recorded for the operator (a table row and a WARNING without hidden information), never shown to players."""

from __future__ import annotations

import itertools
import logging
from typing import Any

import pytest

from rules import registry
from rules.base import Action, IllegalAction, apply_logged
from rules.rng import Rng
from rules.text import msg
from storage import Store
from table import Table, Who, engines
from tests.upgrade.conftest import Fixture
from tests.upgrade.test_fixtures import canon, dynamic
from tools.make_upgrade_fixture import random_turn
from tools.mismatches import listed


async def replayed_without_heads(store: Store, game: Any, game_id: int, version: int) -> tuple[Any, list[tuple]]:
    """The state at `version` from the nearest snapshot and the log, with today's (unpatched) engine; and the
    (state, seat, move) of every move replayed, which the patched engine will refuse."""
    stored = await store.stored_state(game_id, version, heads=False)
    assert stored is not None
    state = game.from_json({**(stored.static or {}), **stored.snapshot})
    moves = []
    for entry in stored.actions:
        if entry.action is not None and entry.seat is not None:
            action = Action.from_json(entry.action)
            moves.append((dynamic(game, state), entry.seat, action.token()))
            state = apply_logged(game, state, entry.seat, action).state
    return state, moves


def refuse_old_moves(monkeypatch, game: Any, refused: set[tuple]) -> None:
    """The 'fixed' engine: the moves the log recorded are no longer legal where they were made."""
    original = game.apply

    def apply(state: Any, seat: int, action: Action) -> Any:
        if (dynamic(game, state), seat, action.token()) in refused:
            raise IllegalAction(msg("core.error.illegal", valid=msg("core.nobody")))
        return original(state, seat, action)

    monkeypatch.setattr(game, "apply", apply)


async def test_a_rules_fix_keeps_every_game_where_players_left_it(fixture_db: Fixture, monkeypatch: pytest.MonkeyPatch,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    store, games = fixture_db.store, fixture_db.games()
    expected: dict[str, dict[str, Any]] = {}
    for game_id, info in games.items():
        game = registry.get(game_id)
        head = await store.head(info["game_id"])
        assert head is not None
        _, moves = await replayed_without_heads(store, game, info["game_id"], info["version"])
        assert moves, f"{game_id}: the fixture stops right at a snapshot, so a replay checks nothing"
        before_last, older = (await replayed_without_heads(store, game, info["game_id"], info["version"] - 1)
                              if info["can_undo"] else (None, []))
        expected[game_id] = {"head": canon(head[1].state), "refused": set(moves) | set(older),
                             "undo": None if before_last is None else dynamic(game, before_last)}
    # The upgrade: every engine's version changes and its old moves become illegal.
    monkeypatch.setattr(engines, "engine_version", lambda game: "fixed-" + game.id)
    for game_id in games:
        refuse_old_moves(monkeypatch, registry.get(game_id), expected[game_id]["refused"])
    caplog.set_level(logging.WARNING, logger="tabletop.upgrade")

    table = Table(store, seed_source=itertools.count(1).__next__)
    for game_id, info in sorted(games.items()):
        loaded = await table.inspect(info["game_id"])
        assert dynamic(loaded.game, loaded.state) == expected[game_id]["head"], f"{game_id} lost its players' state"

    recorded = {m.game_type: m for m in await store.mismatches()}
    assert set(recorded) == set(games)
    for game_id, mismatch in recorded.items():
        assert mismatch.engine_now == "fixed-" + game_id and mismatch.engine_then != mismatch.engine_now
        assert "replay raised IllegalAction" in mismatch.detail
    assert [m["game_type"] for m in await listed(store.target)] == [m.game_type for m in await store.mismatches()]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == len(games), "one WARNING per game, not one per load"
    await Table(store).inspect(next(iter(games.values()))["game_id"])  # a second process loading it again
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == len(games)

    rng = Rng.from_seed(5)
    for game_id, info in sorted(games.items()):
        channel = info["channel"]
        if expected[game_id]["undo"] is not None:
            last = await store.action(info["game_id"], info["version"])
            assert last is not None and last.user_id is not None and last.seat is not None
            await table.undo(channel, Who(last.user_id, f"Player {last.seat + 1}"))
            loaded = await table.inspect(info["game_id"])
            assert dynamic(loaded.game, loaded.state) == expected[game_id]["undo"], f"{game_id}: undo is not exact"
        for _ in range(20_000):
            try:
                moved, _ = await random_turn(table, channel, rng)
            except IllegalAction:  # the fixed engine refuses an old move made again: another one is chosen
                continue
            if not moved:
                break
        row = await store.game(info["game_id"])
        assert row is not None and row.status == "finished", f"{game_id} could not be played to its end"


async def test_an_engine_change_that_changes_nothing_records_nothing(fixture_db, monkeypatch, caplog):
    """A refactor changes the engine's hash but not its states: the replay check runs and finds no mismatch."""
    same = {}
    for game_id, info in fixture_db.games().items():
        head = await fixture_db.store.head(info["game_id"])
        game = registry.get(game_id)
        if head is not None and game is not None and head[1].engine == engines.engine_version(game):
            same[game_id] = info
    if not same:
        pytest.skip("the rules changed since this fixture was written: its replays may differ for real")
    monkeypatch.setattr(engines, "engine_version", lambda game: "refactored-" + game.id)
    caplog.set_level(logging.WARNING, logger="tabletop.upgrade")
    table = Table(fixture_db.store)
    for info in same.values():
        await table.inspect(info["game_id"])
    assert await fixture_db.store.mismatches() == []
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]
