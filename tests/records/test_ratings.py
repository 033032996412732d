"""Records and ratings through the table, on SQLite and PostgreSQL: one record per ended game, ratings that move
as openskill's Plackett-Luce model defines, co-op and AI rules, and ratings that survive a restart."""

from __future__ import annotations

import itertools

import pytest
from openskill.models import PlackettLuce

from rules import registry
from rules.base import Action, Outcome
from rules.rng import Rng
from rules.text import msg
from storage import Store
from storage.records import NOT_RATED, RATED, RecordSeat
from table import Table, Who
from table import records as R
from tests.conftest import ALICE, BOB, CAROL, FakeClock
from tests.table_reads import channel_row, tiny_state
from tests.tinygame import TINY, TinyGame, TinyState

CH = 300


@pytest.fixture
async def store(any_store):
    return any_store


class CoopTiny(TinyGame):
    """The tiny game played together: everyone wins when the team's best score reaches the target."""

    id = "tiny-coop"
    record_kind = "coop"

    def outcome(self, state: TinyState) -> Outcome | None:
        plain = TINY.outcome(state)
        if plain is None:
            return None
        won = max(self.score(state, s) for s in range(state.seats)) >= state.target
        return Outcome(frozenset(range(state.seats)) if won else frozenset(), msg("core.log.start"))


class GmTiny(TinyGame):
    """The tiny game as a game against a game master: a record with won and lost, never a rating."""

    id = "tiny-gm"
    record_kind = "unrated"


@pytest.fixture(autouse=True)
def kinds():
    for game in (CoopTiny(), GmTiny()):
        registry.register(game)
    yield
    registry.unregister("tiny-coop")
    registry.unregister("tiny-gm")


async def play(table: Table, players: tuple[Who, ...], *, ai: int = 0, game: str = "tiny", seed: int = 0,
               channel: int = CH) -> int:
    """A whole game, each person playing a card picked by a seeded generator; returns the game's id."""
    await table.new(guild_id=1, channel_id=channel, who=players[0], game_type=game, ai_seats=ai)
    for p in players[1:]:
        await table.join(channel, p)
    await table.start(channel, players[0])
    rng = Rng.from_seed(seed)
    game_id = 0
    for _ in range(300):
        row = await table.game_for(channel)
        if row is None:
            break
        game_id = row.id
        loaded = await table.inspect(row.id)
        state = tiny_state(loaded)
        user = loaded.user_of(state.turn)
        who = next(p for p in players if p.user_id == user)
        hand = state.hands[state.turn]
        await table.act(channel, who, Action.of("end") if state.played else
                        Action.of("play", card=hand[rng.below(len(hand))]))
    assert game_id and await table.game_for(channel) is None
    return game_id


def expected_places(state: TinyState, seats: list[int]) -> list[int]:
    """The places the tiny game gives, computed here from its final state: the best score wins, the rest tie."""
    outcome = TINY.outcome(state)
    assert outcome is not None
    return [1 if s in outcome.winners else 2 for s in seats]


async def test_a_finished_game_leaves_one_record(table: Table, store: Store) -> None:
    game_id = await play(table, (ALICE, BOB), seed=1)
    record = await store.records.record(game_id)
    assert record is not None and record.outcome == "finished" and record.rated == RATED
    final = tiny_state(await table.inspect(game_id))
    assert [s.result for s in record.seats] == ["won" if p == 1 else "lost" for p in expected_places(final, [0, 1])]
    moves = [a for a in await store.actions(game_id) if a.kind == "act"]
    assert record.actions == len(moves) and record.turns >= 2
    assert [(s.user_id, s.name) for s in record.seats] == [(1, "Alice"), (2, "Bob")]
    # The record's key is the game: a second write (a retried end) changes nothing.
    await store.records.write(record)
    found, total = await store.records.history(1)
    assert total == 1 and found[0].seats == record.seats


async def test_ratings_move_as_openskill_defines(table: Table, store: Store) -> None:
    model = PlackettLuce()
    expected = {u: model.rating() for u in (1, 2, 3)}
    for seed in range(4):
        order = (ALICE, BOB, CAROL)[seed % 3:] + (ALICE, BOB, CAROL)[:seed % 3]
        game_id = await play(table, order, seed=seed)
        final = tiny_state(await table.inspect(game_id))
        places = expected_places(final, [0, 1, 2])
        teams = [[expected[p.user_id]] for p in order]
        ranks: list[float] = [*places]
        new = model.rate(teams, ranks=ranks)
        for p, team in zip(order, new, strict=True):
            expected[p.user_id] = team[0]
    ratings = await store.records.ratings(1, "tiny")
    assert set(ratings) == {1, 2, 3}
    for user, rating in ratings.items():
        assert rating.mu == pytest.approx(expected[user].mu, abs=1e-9)
        assert rating.sigma == pytest.approx(expected[user].sigma, abs=1e-9)
        assert rating.games == 4
    assert len({round(r.mu, 6) for r in ratings.values()}) > 1  # the seeded results did move them apart
    board = await store.records.leaderboard(1, "tiny", rated=True)
    assert [s.user_id for s in board] == sorted(ratings, key=lambda u: -(ratings[u].mu - 3 * ratings[u].sigma))


async def test_ai_seats_are_left_out_of_ratings(table: Table, store: Store) -> None:
    solo = await play(table, (ALICE,), ai=1, seed=2)
    record = await store.records.record(solo)
    assert record is not None and record.ai_seats == 1 and record.rated == NOT_RATED
    assert record.seats[1].user_id is None and record.seats[1].result in ("won", "lost")
    assert await store.records.ratings(1, "tiny") == {}  # one person against the AI: nobody to be rated against
    mixed = await play(table, (ALICE, BOB), ai=1, seed=3)
    record = await store.records.record(mixed)
    assert record is not None and record.rated == RATED
    ratings = await store.records.ratings(1, "tiny")
    assert set(ratings) == {1, 2}
    # Exactly openskill's update of the two people ranked by their places (the AI seat left out).
    model = PlackettLuce()
    people = [s for s in record.seats if s.user_id is not None]
    new = model.rate([[model.rating()] for _ in people], ranks=[float(s.place or 0) for s in people])
    for s, team in zip(people, new, strict=True):
        assert s.user_id is not None
        assert ratings[s.user_id].mu == pytest.approx(team[0].mu, abs=1e-9)


async def test_coop_and_game_master_games_get_a_record_not_a_rating(table: Table, store: Store) -> None:
    coop = await play(table, (ALICE, BOB), game="tiny-coop", seed=4)
    record = await store.records.record(coop)
    assert record is not None and record.rated == NOT_RATED
    assert {s.result for s in record.seats} in ({"coop_win"}, {"coop_loss"})
    gm = await play(table, (ALICE, BOB), game="tiny-gm", seed=5)
    record = await store.records.record(gm)
    assert record is not None and record.rated == NOT_RATED and {s.result for s in record.seats} <= {"won", "lost"}
    assert await store.records.ratings(1, "tiny-coop") == {} and await store.records.ratings(1, "tiny-gm") == {}
    board = await store.records.leaderboard(1, "tiny-coop", rated=False)
    assert {s.user_id for s in board} == {1, 2} and all(s.played == 1 and s.rating is None for s in board)


async def test_abandoned_games_are_recorded_but_not_rated_and_lobbies_not_at_all(table: Table, store: Store) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    lobby = (await channel_row(table, CH)).id
    await table.abandon(CH, ALICE)
    assert await store.records.record(lobby) is None
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    started = (await channel_row(table, CH)).id
    await table.abandon(CH, ALICE)
    record = await store.records.record(started)
    assert record is not None and record.outcome == "abandoned" and record.rated == NOT_RATED
    assert {s.result for s in record.seats} == {"abandoned"}
    assert await store.records.ratings(1, "tiny") == {}


def _person(seat: RecordSeat) -> int:
    """The user a record's seat was (every seat of these games is a person's)."""
    assert seat.user_id is not None, "an AI seat"
    return seat.user_id


def _place(seat: RecordSeat) -> float:
    """The place a record's seat finished in."""
    assert seat.place is not None, "no place"
    return seat.place


async def test_a_rating_left_pending_by_a_crash_is_made_at_the_next_ending(table: Table, store: Store,
                                                                           monkeypatch) -> None:
    async def crashed(store, now):  # the process died right after the ending was committed
        return None

    monkeypatch.setattr(R, "settle", crashed)
    first = await play(table, (ALICE, BOB), seed=6)
    unrated = await store.records.record(first)
    assert unrated is not None and unrated.rated == 0 and await store.records.ratings(1, "tiny") == {}
    monkeypatch.undo()
    second = await play(table, (ALICE, BOB), seed=7)
    model = PlackettLuce()
    expected = {1: model.rating(), 2: model.rating()}
    for game_id in (first, second):
        record = await store.records.record(game_id)
        assert record is not None and record.rated == RATED
        new = model.rate([[expected[_person(s)]] for s in record.seats], ranks=[_place(s) for s in record.seats])
        expected = {_person(s): team[0] for s, team in zip(record.seats, new, strict=True)}
    ratings = await store.records.ratings(1, "tiny")
    assert {u: round(r.mu, 9) for u, r in ratings.items()} == {u: round(r.mu, 9) for u, r in expected.items()}
    assert all(r.games == 2 for r in ratings.values())


async def test_old_finished_games_get_their_record_by_backfill(table: Table, store: Store) -> None:
    game_id = await play(table, (ALICE, BOB), seed=8)
    before = await store.records.record(game_id)
    assert before is not None
    async with store.backend.write() as q:  # as a database written before records existed
        await q.execute("DELETE FROM record_seats")
        await q.execute("DELETE FROM game_records")
        await q.execute("DELETE FROM ratings")
    assert await store.records.unrecorded() == [game_id]
    assert await R.backfill(table) == 1
    after = await store.records.record(game_id)
    assert after is not None and after.seats == before.seats and after.actions == before.actions
    assert after.rated == RATED and set(await store.records.ratings(1, "tiny")) == {1, 2}
    assert await R.backfill(table) == 0  # nothing left: running it again at every start is harmless


async def test_ratings_survive_a_restart(db_target: str) -> None:
    store = await Store(db_target).open()
    seeds = itertools.count(21)
    table = Table(store, clock=FakeClock(), seed_source=lambda: next(seeds))
    for seed in range(2):
        await play(table, (ALICE, BOB), seed=seed)
    before = await store.records.ratings(1, "tiny")
    await store.close()
    reopened = await Store(db_target).open()
    try:
        assert await reopened.records.ratings(1, "tiny") == before and len(before) == 2
        board = await reopened.records.leaderboard(1, "tiny", rated=True)
        assert [s.played for s in board] == [2, 2]
    finally:
        await reopened.close()
