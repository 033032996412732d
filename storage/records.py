"""Records of ended games, per-seat results and ratings: the SQL behind history, statistics and leaderboards."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.backend import Backend, Query, Row, Statement
from storage.lines import unpack_lines

#: Results a seat may have: won, lost or draw (versus games), co-op win or loss, or none (abandoned).
RESULTS = ("won", "lost", "draw", "coop_win", "coop_loss", "abandoned")
WINS = ("won", "coop_win")
#: `game_records.rated`: waiting for the rating pass, rated, or never rated (co-op, AI only, abandoned...).
PENDING, RATED, NOT_RATED = 0, 1, 2
_RATING_LOCK = 717172


@dataclass(frozen=True)
class RecordSeat:
    seat: int
    user_id: int | None  # None: an AI seat
    name: str
    result: str
    #: Finishing place, 1 best (teammates share it); None when the game was abandoned.
    place: int | None
    #: Seats on one side (a duo, a team) share this number.
    side: int
    figures: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRecord:
    game_id: int
    guild_id: int | None
    channel_id: int
    game_type: str
    options: dict[str, Any]
    started_at: float | None
    ended_at: float
    actions: int
    turns: int
    #: "finished", "resigned" (ended by a resignation) or "abandoned".
    outcome: str
    #: The outcome's summary message (catalog JSON), public; None when abandoned.
    summary: Mapping[str, Any] | None
    ai_seats: int
    seats: tuple[RecordSeat, ...]
    rated: int = PENDING


@dataclass(frozen=True)
class Rating:
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int


@dataclass(frozen=True)
class PlayerGame:
    """One game of one player, for statistics."""

    game_type: str
    result: str
    figures: dict[str, int]
    seconds: float | None
    turns: int


@dataclass(frozen=True)
class Standing:
    """A leaderboard line: games played and won on this server for one game, with the rating when rated."""

    user_id: int
    name: str
    played: int
    won: int
    rating: Rating | None = None


#: The rating pass's callback: the record and the current ratings of its people -> the new (mu, sigma) per user,
#: or None when the game is not rated.
Rater = Callable[[GameRecord, dict[int, Rating]], dict[int, tuple[float, float]] | None]


def record_statements(record: GameRecord) -> list[Statement]:
    """The record's rows, to go into the transaction that ends the game; a second write of the same game is a
    no-op (the game id is the key), so a retried or doubled end never doubles a record."""
    summary = None if record.summary is None else json.dumps(record.summary, separators=(",", ":"))
    return [
        Statement("INSERT INTO game_records (game_id, guild_id, channel_id, game_type, options, started_at, ended_at,"
                  " actions, turns, outcome, summary, ai_seats, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                  " ON CONFLICT (game_id) DO NOTHING",
                  (record.game_id, record.guild_id or 0, record.channel_id, record.game_type,
                   json.dumps(record.options, sort_keys=True), record.started_at, record.ended_at, record.actions,
                   record.turns, record.outcome, summary, record.ai_seats, record.rated)),
        Statement("INSERT INTO record_seats (game_id, seat, guild_id, game_type, ended_at, user_id, name, result,"
                  " place, side, figures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                  " ON CONFLICT (game_id, seat) DO NOTHING",
                  [(record.game_id, s.seat, record.guild_id or 0, record.game_type, record.ended_at, s.user_id,
                    s.name, s.result, s.place, s.side, json.dumps(s.figures, sort_keys=True, separators=(",", ":")))
                   for s in record.seats], many=True),
    ]


class Records:
    """Queries over the records: history pages, a player's games, leaderboards, and the rating pass."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def write(self, record: GameRecord) -> None:
        """A record on its own (backfill of games that ended before records existed)."""
        async with self.backend.write() as q:
            await _run(q, record_statements(record))

    async def tally(self, game_id: int, turn_before: str | None = None) -> tuple[int, int, float | None]:
        """Moves played, turns played (each change of the game's turn key; with `turn_before`, the turn of a move
        about to be committed counts too) and when the game started."""
        moves = "game_id = ? AND kind IN ('act', 'auto', 'skip', 'resign')"
        async with self.backend.read(consistent=True) as q:
            start = await q.fetchone("SELECT MIN(created_at) AS s FROM actions WHERE game_id = ? AND kind = 'start'",
                                     (game_id,))
            row = await q.fetchone(
                "SELECT COUNT(*) AS n, SUM(CASE WHEN prev IS NULL OR prev <> turn_before THEN 1 ELSE 0 END) AS t"
                " FROM (SELECT turn_before, LAG(turn_before) OVER (ORDER BY version) AS prev FROM actions"
                f" WHERE {moves}) AS m", (game_id,))
            last = await q.fetchone(f"SELECT turn_before FROM actions WHERE {moves} ORDER BY version DESC LIMIT 1",
                                    (game_id,))
        assert row is not None
        turns = int(row["t"] or 0)
        if turn_before is not None and (last is None or last["turn_before"] != turn_before):
            turns += 1
        started = start["s"] if start else None
        return int(row["n"]), turns, None if started is None else float(started)

    async def record(self, game_id: int) -> GameRecord | None:
        async with self.backend.read(consistent=True) as q:
            row = await q.fetchone("SELECT * FROM game_records WHERE game_id = ?", (game_id,))
            if row is None:
                return None
            return (await _with_seats(q, [row]))[0]

    async def history(self, guild_id: int | None, *, game_type: str | None = None, user_id: int | None = None,
                      limit: int = 5, offset: int = 0) -> tuple[list[GameRecord], int]:
        """A page of the server's ended games, newest first, with the total that match."""
        where, params = "r.guild_id = ?", list[Any]([guild_id or 0])
        if game_type is not None:
            where += " AND r.game_type = ?"
            params.append(game_type)
        if user_id is not None:
            inner, inner_params = "s.guild_id = ? AND s.user_id = ?", list[Any]([guild_id or 0, user_id])
            if game_type is not None:
                inner += " AND s.game_type = ?"
                inner_params.append(game_type)
            where += f" AND r.game_id IN (SELECT s.game_id FROM record_seats AS s WHERE {inner})"
            params += inner_params
        async with self.backend.read(consistent=True) as q:
            if user_id is not None:  # counted on the player's own index, without touching the games
                total = await q.fetchone(f"SELECT COUNT(DISTINCT s.game_id) AS n FROM record_seats AS s WHERE {inner}",
                                         inner_params)
            else:
                total = await q.fetchone(f"SELECT COUNT(*) AS n FROM game_records AS r WHERE {where}", params)
            rows = await q.fetchall(f"SELECT r.* FROM game_records AS r WHERE {where}"
                                    " ORDER BY r.ended_at DESC, r.game_id DESC LIMIT ? OFFSET ?",
                                    [*params, limit, offset])
            found = await _with_seats(q, rows)
        return found, int(total["n"]) if total else 0

    async def player_games(self, guild_id: int | None, user_id: int, game_type: str | None = None
                           ) -> list[PlayerGame]:
        """Every game this person played to an end on this server (abandoned ones left out)."""
        sql = ("SELECT s.game_type, s.result, s.figures, r.started_at, r.ended_at, r.turns FROM record_seats AS s"
               " JOIN game_records AS r ON r.game_id = s.game_id"
               " WHERE s.guild_id = ? AND s.user_id = ? AND s.result <> 'abandoned'")
        params: list[Any] = [guild_id or 0, user_id]
        if game_type is not None:
            sql += " AND s.game_type = ?"
            params.append(game_type)
        async with self.backend.read() as q:
            rows = await q.fetchall(sql, params)
        return [PlayerGame(r["game_type"], r["result"], json.loads(r["figures"]),
                           None if r["started_at"] is None else float(r["ended_at"]) - float(r["started_at"]),
                           int(r["turns"])) for r in rows]

    async def server_games(self, guild_id: int | None, game_type: str | None = None
                           ) -> list[tuple[str, int, float | None, float]]:
        """Per game on this server: (game, games ended other than abandoned, average seconds, average turns)."""
        sql = ("SELECT game_type, COUNT(*) AS n, AVG(ended_at - started_at) AS secs, AVG(turns) AS turns"
               " FROM game_records WHERE guild_id = ? AND outcome <> 'abandoned'")
        params: list[Any] = [guild_id or 0]
        if game_type is not None:
            sql += " AND game_type = ?"
            params.append(game_type)
        async with self.backend.read() as q:
            rows = await q.fetchall(sql + " GROUP BY game_type ORDER BY game_type", params)
        return [(r["game_type"], int(r["n"]), None if r["secs"] is None else float(r["secs"]), float(r["turns"] or 0))
                for r in rows]

    async def ratings(self, guild_id: int | None, game_type: str, user_ids: Iterable[int] | None = None
                      ) -> dict[int, Rating]:
        async with self.backend.read() as q:
            return await _ratings(q, guild_id, game_type, user_ids)

    async def leaderboard(self, guild_id: int | None, game_type: str, *, rated: bool, limit: int = 10
                          ) -> list[Standing]:
        """The best of the server at one game: by conservative rating (rated games), else by wins then games."""
        async with self.backend.read(consistent=True) as q:
            if rated:
                rows = await q.fetchall("SELECT * FROM ratings WHERE guild_id = ? AND game_type = ?"
                                        " ORDER BY ordinal DESC, user_id LIMIT ?", (guild_id or 0, game_type, limit))
                best = [_rating(r) for r in rows]
                counts = await _counts(q, guild_id, game_type, [r.user_id for r in best])
                return [Standing(r.user_id, r.name, *counts.get(r.user_id, (r.games, 0)), rating=r) for r in best]
            # Counted on the covering index (server, game, person, result); then each one's newest name.
            rows = await q.fetchall(
                "SELECT user_id, COUNT(*) AS n,"
                " SUM(CASE WHEN result IN ('won', 'coop_win') THEN 1 ELSE 0 END) AS w FROM record_seats"
                " WHERE guild_id = ? AND game_type = ? AND user_id IS NOT NULL AND result <> 'abandoned'"
                " GROUP BY user_id ORDER BY w DESC, n DESC, user_id LIMIT ?", (guild_id or 0, game_type, limit))
            names = {}
            for r in rows:
                found = await q.fetchone("SELECT name FROM record_seats WHERE guild_id = ? AND user_id = ?"
                                         " AND game_type = ? ORDER BY ended_at DESC LIMIT 1",
                                         (guild_id or 0, r["user_id"], game_type))
                names[int(r["user_id"])] = found["name"] if found else ""
        return [Standing(int(r["user_id"]), names[int(r["user_id"])], int(r["n"]), int(r["w"] or 0)) for r in rows]

    async def rate_pending(self, rate: Rater, now: float, *, limit: int = 200) -> int:
        """Rate the records not yet rated, oldest first, in one transaction (ratings and the records' marks
        together, so a crash rates nothing twice); returns how many records were settled."""
        async with self.backend.read() as q:  # the common case, nothing waiting, takes no write lock
            if await q.fetchone("SELECT 1 AS x FROM game_records WHERE rated = 0 LIMIT 1") is None:
                return 0
        async with self.backend.write() as q:
            if self.backend.name == "postgresql":
                await q.execute(f"SELECT pg_advisory_xact_lock({_RATING_LOCK})")
            rows = await q.fetchall("SELECT * FROM game_records WHERE rated = 0 ORDER BY ended_at, game_id LIMIT ?",
                                    (limit,))
            for record in await _with_seats(q, rows):
                people = [s.user_id for s in record.seats if s.user_id is not None]
                current = await _ratings(q, record.guild_id, record.game_type, people)
                new = rate(record, current)
                if new:
                    names = {s.user_id: s.name for s in record.seats if s.user_id is not None}
                    await q.executemany(
                        "INSERT INTO ratings (guild_id, game_type, user_id, name, mu, sigma, ordinal, games,"
                        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game_type, user_id)"
                        " DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
                        " ordinal = excluded.ordinal, games = ratings.games + 1, updated_at = excluded.updated_at",
                        [(record.guild_id or 0, record.game_type, user, names[user], mu, sigma, mu - 3 * sigma, now)
                         for user, (mu, sigma) in sorted(new.items())])
                await q.execute("UPDATE game_records SET rated = ? WHERE game_id = ?",
                                (RATED if new else NOT_RATED, record.game_id))
        return len(rows)

    async def unrecorded(self, limit: int = 100) -> list[int]:
        """Games that ended (finished, or abandoned after they started) before records existed."""
        async with self.backend.read() as q:
            rows = await q.fetchall(
                "SELECT g.id FROM games AS g LEFT JOIN game_records AS r ON r.game_id = g.id"
                " WHERE g.status IN ('finished', 'abandoned') AND r.game_id IS NULL"
                " AND EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = g.id AND a.kind = 'start')"
                " ORDER BY g.id LIMIT ?", (limit,))
        return [int(r["id"]) for r in rows]

    async def public_log(self, game_id: int) -> list[tuple[int, float, dict[str, Any]]]:
        """The lines everyone could read (no private line), with the time of the move that wrote them."""
        async with self.backend.read() as q:
            rows = await q.fetchall("SELECT version, created_at, lines FROM actions WHERE game_id = ?"
                                    " AND lines IS NOT NULL ORDER BY version", (game_id,))
        return [(int(r["version"]), float(r["created_at"]), message)
                for r in rows for mask, message in unpack_lines(r["lines"]) if mask is None]


async def _run(q: Query, statements: Sequence[Statement]) -> None:
    for s in statements:
        if s.many:
            await q.executemany(s.sql, list(s.params))
        else:
            await q.execute(s.sql, s.params)


async def _with_seats(q: Query, rows: Sequence[Row]) -> list[GameRecord]:
    if not rows:
        return []
    ids = [int(r["game_id"]) for r in rows]
    marks = ", ".join("?" for _ in ids)
    seat_rows = await q.fetchall(f"SELECT * FROM record_seats WHERE game_id IN ({marks}) ORDER BY game_id, seat", ids)
    by_game: dict[int, list[RecordSeat]] = {}
    for s in seat_rows:
        by_game.setdefault(int(s["game_id"]), []).append(RecordSeat(
            int(s["seat"]), None if s["user_id"] is None else int(s["user_id"]), s["name"], s["result"],
            None if s["place"] is None else int(s["place"]), int(s["side"]), json.loads(s["figures"])))
    return [GameRecord(int(r["game_id"]), int(r["guild_id"]) or None, int(r["channel_id"]), r["game_type"],
                       json.loads(r["options"]), None if r["started_at"] is None else float(r["started_at"]),
                       float(r["ended_at"]), int(r["actions"]), int(r["turns"]), r["outcome"],
                       None if r["summary"] is None else json.loads(r["summary"]), int(r["ai_seats"]),
                       tuple(by_game.get(int(r["game_id"]), ())), int(r["rated"])) for r in rows]


async def _ratings(q: Query, guild_id: int | None, game_type: str, user_ids: Iterable[int] | None
                   ) -> dict[int, Rating]:
    sql, params = "SELECT * FROM ratings WHERE guild_id = ? AND game_type = ?", [guild_id or 0, game_type]
    if user_ids is not None:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        sql += f" AND user_id IN ({', '.join('?' for _ in ids)})"
        params += ids
    return {r.user_id: r for r in map(_rating, await q.fetchall(sql, params))}


async def _counts(q: Query, guild_id: int | None, game_type: str, user_ids: list[int]) -> dict[int, tuple[int, int]]:
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await q.fetchall(
        "SELECT user_id, COUNT(*) AS n, SUM(CASE WHEN result IN ('won', 'coop_win') THEN 1 ELSE 0 END) AS w"
        f" FROM record_seats WHERE guild_id = ? AND game_type = ? AND user_id IN ({marks})"
        " AND result <> 'abandoned' GROUP BY user_id", [guild_id or 0, game_type, *user_ids])
    return {int(r["user_id"]): (int(r["n"]), int(r["w"] or 0)) for r in rows}


def _rating(r: Row) -> Rating:
    return Rating(int(r["user_id"]), r["name"], float(r["mu"]), float(r["sigma"]), float(r["ordinal"]),
                  int(r["games"]))


__all__ = ["NOT_RATED", "PENDING", "RATED", "RESULTS", "WINS", "GameRecord", "PlayerGame", "Rater", "Rating",
           "RecordSeat", "Records", "Standing", "record_statements"]
