"""Records of ended games: the record written with the move that ends a game, results per seat, and ratings."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from rules import registry
from rules.base import Game
from storage import GameRow, SeatRow, Store
from storage.records import NOT_RATED, PENDING, GameRecord, Rating, RecordSeat

log = logging.getLogger("tabletop.records")

#: One model for every game: Plackett-Luce ranks any number of sides of any size (free-for-all, duos, teams).
MODEL = PlackettLuce()
#: The shown rating: the conservative estimate mu - 3 sigma (what the player is at least, 99.7 % sure), times 40,
#: so a new player shows 0 and a strong one about 1,000 (mu 25 + 3 sigma of experience).
SCALE = 40


def shown(rating: Rating | None) -> int:
    """The rating as players see it: a whole number, never below 0."""
    return 0 if rating is None else max(0, round(rating.ordinal * SCALE))


def seat_results(game: Game, state: Any | None, seats: Sequence[SeatRow]) -> list[RecordSeat]:
    """Each seat's result, place and side; a game without an outcome (abandoned) has no results."""
    teams = game.record_teams(state) if state is not None else None
    side_of = {seat: i for i, team in enumerate(teams or []) for seat in team}
    for s in seats:
        side_of.setdefault(s.seat, len(teams or []) + s.seat)
    outcome = game.outcome(state) if state is not None else None
    figures = game.record_figures(state) if outcome is not None else {}
    user = {s.seat: (s.user_id if s.kind == "human" else None) for s in seats}
    if outcome is None:
        return [RecordSeat(s.seat, user[s.seat], s.name, "abandoned", None, side_of[s.seat]) for s in seats]
    winners = outcome.winners
    if game.record_kind == "coop":
        result = "coop_win" if winners else "coop_loss"
        return [RecordSeat(s.seat, user[s.seat], s.name, result, 1, side_of[s.seat], figures.get(s.seat, {}))
                for s in seats]
    # Places by side: winners first, then the sides in the outcome's ranking, then the rest together.
    order = list(outcome.ranking)
    rank_of = {seat: i for i, seat in enumerate(order)}
    sides = sorted({side_of[s.seat] for s in seats})

    def key(side: int) -> tuple[int, int]:
        members = [s.seat for s in seats if side_of[s.seat] == side]
        won = any(m in winners for m in members)
        best = min((rank_of[m] for m in members if m in rank_of), default=len(order))
        return (0 if won else 1, best if not won else 0)

    place_of: dict[int, int] = {}
    place, last = 0, None
    for i, side in enumerate(sorted(sides, key=key)):
        if key(side) != last:
            place, last = i + 1, key(side)
        place_of[side] = place
    out = []
    for s in seats:
        if not winners:
            result, place = "draw", 1
        else:
            result, place = ("won" if s.seat in winners else "lost"), place_of[side_of[s.seat]]
        out.append(RecordSeat(s.seat, user[s.seat], s.name, result, place, side_of[s.seat], figures.get(s.seat, {})))
    return out


async def build(store: Store, row: GameRow, game: Game, seats: Sequence[SeatRow], state: Any | None, *,
                outcome_kind: str, now: float, turn_before: str | None = None) -> GameRecord:
    """The record of a game ending now: with the move about to be committed (`turn_before` its turn) when one
    ends it, or as it stands (abandoned)."""
    moves, turns, started = await store.records.tally(row.id, turn_before)
    if turn_before is not None:
        moves += 1
    outcome = game.outcome(state) if state is not None and outcome_kind != "abandoned" else None
    results = seat_results(game, state if outcome is not None else None, seats)
    ai = sum(1 for s in seats if s.kind != "human")
    rated = PENDING if outcome is not None and game.record_kind == "versus" else NOT_RATED
    return GameRecord(row.id, row.guild_id, row.channel_id, row.game_type, dict(row.options), started, now,
                      moves, turns, outcome_kind if outcome is not None else "abandoned",
                      outcome.summary.to_json() if outcome is not None else None, ai, tuple(results), rated)


def rate(record: GameRecord, current: dict[int, Rating]) -> dict[int, tuple[float, float]] | None:
    """New (mu, sigma) per person after this game, as openskill's Plackett-Luce model gives them; None when the
    game is not rated: abandoned, co-operative or against a game master, or fewer than two sides of people.
    AI seats are left out: the people are ranked among themselves, by the places they reached."""
    game = registry.get(record.game_type)
    if record.outcome == "abandoned" or game is None or game.record_kind != "versus":
        return None
    sides: dict[int, list[RecordSeat]] = {}
    for s in record.seats:
        if s.user_id is not None and s.place is not None:
            sides.setdefault(s.side, []).append(s)
    side_users = {side: sorted({s.user_id for s in members if s.user_id is not None})
                  for side, members in sides.items()}
    everyone = [u for users in side_users.values() for u in users]
    if len(side_users) < 2 or len(everyone) != len(set(everyone)):
        return None  # one side of people only (the rest were AI), or one person on two sides
    ordered = sorted(side_users)
    teams = [[MODEL.rating(mu=current[u].mu, sigma=current[u].sigma) if u in current else MODEL.rating()
              for u in side_users[side]] for side in ordered]
    ranks = [float(min(s.place or 0 for s in sides[side])) for side in ordered]
    new = MODEL.rate(teams, ranks=ranks)
    return {u: (float(r.mu), float(r.sigma))
            for side, team in zip(ordered, new, strict=True) for u, r in zip(side_users[side], team, strict=True)}


async def settle(store: Store, now: float) -> None:
    """Rate every record still waiting (the one just written, and any a crash left behind); never raises: a
    rating that fails is retried at the next ending and the move stands."""
    try:
        while await store.records.rate_pending(rate, now) >= 200:
            pass
    except Exception:
        log.exception("rating the ended games failed; they are rated at the next ending")


async def backfill(table: Any, *, limit: int = 500) -> int:
    """Records for games that ended before records existed, rebuilt from their stored state through the `Table`;
    returns how many. Run in the background at start-up: a record is idempotent, so running it twice is harmless."""
    store, done = table.store, 0
    for game_id in await store.records.unrecorded(limit):
        try:
            loaded = await table.inspect(game_id)
            row = loaded.row
            kind = "finished" if row.status == "finished" else "abandoned"
            record = await build(store, row, loaded.game, loaded.seats, loaded.state if kind == "finished" else None,
                                 outcome_kind=kind, now=row.updated_at)
            await store.records.write(record)
            done += 1
        except Exception:
            log.exception("no record could be built for game %s", game_id)
    await settle(store, table.clock())
    return done
