"""Each game's figures and sides as the records keep them, and teams rated as openskill rates teams."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from rules import registry
from storage.records import GameRecord, RecordSeat
from table import Table
from table import records as R
from table.exits import Exits
from tests.conftest import ALICE, BOB
from tests.table_reads import channel_row

CH = 500


async def test_a_resignation_ends_a_hero_realms_game_with_its_figures(table: Table) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="hero-realms")
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    game_id = (await channel_row(table, CH)).id
    await Exits(table).resign(CH, BOB)
    record = await table.store.records.record(game_id)
    assert record is not None and record.outcome == "resigned" and record.rated == 1
    alice, bob = record.seats
    assert (alice.result, alice.place, bob.result, bob.place) == ("won", 1, "lost", 2)
    assert alice.figures["health"] == 50 and bob.figures["health"] == 0 and alice.figures["turns"] >= 1
    assert set(await table.store.records.ratings(1, "hero-realms")) == {1, 2}


def test_every_game_gives_figures_for_its_seats() -> None:
    for game_type, keys in (("hero-realms", {"turns", "health"}), ("gorgasali", {"kills", "damage", "health"}),
                            ("guerra-de-indagar", {"pp", "outposts"}), ("kings-armory", {"waves", "gate"})):
        game = registry.get(game_type)
        assert game is not None
        state = game.new(game.resolve_options({}), 2, 3)
        figures = game.record_figures(state)
        assert set(figures) == {0, 1} and all(set(f) == keys for f in figures.values()), game_type
        assert all(isinstance(v, int) for f in figures.values() for v in f.values())
    hq = registry.get("heroquest")
    assert hq is not None and hq.record_kind == "unrated"
    state = hq.new(hq.resolve_options({}), 3, 3)
    assert set(hq.record_figures(state)) <= {1, 2} and all(f["quests"] == 0 for f in hq.record_figures(state).values())


def test_duos_and_teams_are_sides() -> None:
    gorgasali = registry.get("gorgasali")
    assert gorgasali is not None
    duo = gorgasali.new(gorgasali.resolve_options({"mode": "duo"}), 4, 5)
    teams = gorgasali.record_teams(duo)
    assert teams is not None and sorted(len(t) for t in teams) == [2, 2]
    assert sorted(s for t in teams for s in t) == [0, 1, 2, 3]
    assert gorgasali.record_teams(gorgasali.new(gorgasali.resolve_options({}), 4, 5)) is None
    hero_realms = registry.get("hero-realms")
    assert hero_realms is not None
    three = hero_realms.new(hero_realms.resolve_options({"variant": "teams-of-three"}), 6, 5)
    assert sorted(len(t) for t in hero_realms.record_teams(three) or []) == [3, 3]


def test_teams_are_rated_as_openskill_rates_teams() -> None:
    seats = (RecordSeat(0, 1, "Ana", "won", 1, 0), RecordSeat(1, 2, "Bob", "lost", 2, 1),
             RecordSeat(2, 3, "Cid", "won", 1, 0), RecordSeat(3, None, "Bot", "lost", 2, 1))
    record = GameRecord(9, 1, 1, "gorgasali", {}, 0.0, 60.0, 10, 3, "finished", None, 1, seats)
    new = R.rate(record, {})
    model = PlackettLuce()
    (ana, cid), (bob,) = model.rate([[model.rating(), model.rating()], [model.rating()]], ranks=[1, 2])
    assert new is not None
    assert new[1] == pytest.approx((ana.mu, ana.sigma)) and new[3] == pytest.approx((cid.mu, cid.sigma))
    assert new[2] == pytest.approx((bob.mu, bob.sigma)) and set(new) == {1, 2, 3}
    # One person on both sides, or only one side of people: not rated.
    twice = (*seats[:3], RecordSeat(3, 1, "Ana", "lost", 2, 1))
    assert R.rate(GameRecord(9, 1, 1, "gorgasali", {}, 0.0, 60.0, 10, 3, "finished", None, 0, twice), {}) is None
    alone = (seats[0], seats[3])
    assert R.rate(GameRecord(9, 1, 1, "gorgasali", {}, 0.0, 60.0, 10, 3, "finished", None, 1, alone), {}) is None
