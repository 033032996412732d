"""What the records say, as messages: history pages, a player's statistics, leaderboards and the public export."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import registry
from rules.text import Lit, Msg, msg
from storage import GameRow, Store
from storage.records import WINS, GameRecord, PlayerGame, Standing
from table import summary
from table.records import settle, shown
from table.results import NoGame, TableError
from table.service import _options_line  # the lobby's own wording of a table's options

HISTORY_PAGE = 5
LEADERBOARD_SIZE = 10

#: The figures each game's statistics show: (figure, how it is summed up, message key). "won_avg" averages over
#: the games won only (turns to win), "avg" over every game, "sum" adds them up, "max" keeps the best.
FIGURES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "hero-realms": (("turns", "won_avg", "core.rec.fig.turns_to_win"),
                    ("health", "won_avg", "core.rec.fig.health_left")),
    "gorgasali": (("kills", "sum", "core.rec.fig.kills"), ("damage", "sum", "core.rec.fig.damage"),
                  ("damage", "avg", "core.rec.fig.damage_avg")),
    "guerra-de-indagar": (("pp", "avg", "core.rec.fig.pp_avg"), ("pp", "max", "core.rec.fig.pp_best")),
    "kings-armory": (("waves", "avg", "core.rec.fig.waves_avg"), ("waves", "max", "core.rec.fig.waves_best"),
                     ("gate", "avg", "core.rec.fig.gate_avg")),
    "heroquest": (("quests", "sum", "core.rec.fig.quests"),),
}


@dataclass(frozen=True)
class Entry:
    """One game of the history: its lines and the seat names its messages refer to."""

    game_id: int
    lines: list[Msg]
    names: dict[int, str]


@dataclass(frozen=True)
class HistoryPage:
    page: int
    pages: int
    total: int
    entries: list[Entry]


@dataclass(frozen=True)
class GameStats:
    """One player's figures at one game on one server."""

    game_type: str
    played: int
    won: int
    drawn: int
    seconds: float | None
    turns: float
    figures: list[tuple[str, float]]  # (message key, value)
    rating: int | None


@dataclass(frozen=True)
class Board:
    game_type: str
    rated: bool
    standings: list[Standing]
    ratings: list[int | None] = field(default_factory=list)


def game_name(game_type: str) -> Msg | Lit:
    game = registry.get(game_type)
    return Msg(game.name_key) if game else Lit(game_type, game_type)


def check_game(game_type: str | None) -> str | None:
    """A game named in a command, checked: None for every game, else a known game's id (a refusal names them)."""
    if game_type is None or game_type == "":
        return None
    if registry.get(game_type) is None:
        raise TableError(msg("core.error.unknown_game", game=game_type, valid=", ".join(sorted(registry.games()))))
    return game_type


def entry(record: GameRecord) -> Entry:
    """A history entry: the game and when it ended, its options in words, who sat where with what result, the
    outcome, and how long and how many turns and moves it took."""
    game = registry.get(record.game_type)
    names = {s.seat: s.name for s in record.seats}
    lines = [msg("core.rec.history.title", id=record.game_id, game=game_name(record.game_type),
                 when=f"<t:{int(record.ended_at)}:f>")]
    if game is not None:
        lines.append(_options_line(game, record.options))
    lines.append(msg("core.rec.history.players", players=_players(record)))
    if record.outcome == "abandoned":
        lines.append(msg("core.rec.outcome.abandoned"))
    elif record.summary is not None:
        key = "core.rec.outcome.resigned" if record.outcome == "resigned" else "core.rec.outcome.finished"
        lines.append(msg(key, summary=Msg.from_json(record.summary)))
    lasted = summary.duration(record.ended_at - record.started_at) if record.started_at is not None else \
        msg("core.time.under_minute")
    lines.append(msg("core.rec.history.length", time=lasted, turns=record.turns, moves=record.actions))
    if record.ai_seats and game is not None and game.record_kind == "versus":
        lines.append(msg("core.rec.history.ai"))
    return Entry(record.game_id, lines, names)


def _players(record: GameRecord) -> Msg:
    parts: list[Msg] = [
        msg("core.rec.seat_plain", n=s.seat + 1, name=Lit(s.name, s.name),
            ai=msg("core.rec.seat_ai") if s.user_id is None else "") if s.result == "abandoned" else
        msg("core.rec.seat", n=s.seat + 1, name=Lit(s.name, s.name), result=_result(s.result, s.place),
            ai=msg("core.rec.seat_ai") if s.user_id is None else "") for s in record.seats]
    joined = parts[-1] if parts else msg("core.nobody")
    for part in reversed(parts[:-1]):
        joined = msg("core.rec.join", a=part, b=joined)
    return joined


def _result(result: str, place: int | None) -> Msg:
    if result in ("won", "lost") and place is not None and place > 1:
        return msg("core.rec.result.place", place=place)
    return Msg(f"core.rec.result.{result}")


async def history(store: Store, guild_id: int | None, *, game_type: str | None = None, user_id: int | None = None,
                  page: int = 1) -> HistoryPage:
    game_type = check_game(game_type)
    if not isinstance(page, int) or page < 1:
        raise TableError(msg("core.rec.error.page", pages=1))
    records, total = await store.records.history(guild_id, game_type=game_type, user_id=user_id,
                                                 limit=HISTORY_PAGE, offset=(page - 1) * HISTORY_PAGE)
    pages = max(1, math.ceil(total / HISTORY_PAGE))
    if page > pages:
        raise TableError(msg("core.rec.error.page", pages=pages))
    return HistoryPage(page, pages, total, [entry(r) for r in records])


def _sum_up(games: Sequence[PlayerGame], figure: str, how: str) -> float | None:
    pool = [g for g in games if g.result in WINS] if how == "won_avg" else list(games)
    values = [g.figures[figure] for g in pool if figure in g.figures]
    if not values:
        return None
    if how == "sum":
        return float(sum(values))
    if how == "max":
        return float(max(values))
    return sum(values) / len(values)


async def stats(store: Store, guild_id: int | None, user_id: int, game_type: str | None, now: float
                ) -> list[GameStats]:
    """One person's statistics per game on this server (games ended, not abandoned)."""
    game_type = check_game(game_type)
    await settle(store, now)
    games = await store.records.player_games(guild_id, user_id, game_type)
    out = []
    for gtype in sorted({g.game_type for g in games}):
        mine = [g for g in games if g.game_type == gtype]
        timed = [g.seconds for g in mine if g.seconds is not None]
        figures = [(key, value) for figure, how, key in FIGURES.get(gtype, ())
                   if (value := _sum_up(mine, figure, how)) is not None]
        engine = registry.get(gtype)
        rating = None
        if engine is not None and engine.record_kind == "versus":
            found = (await store.records.ratings(guild_id, gtype, [user_id])).get(user_id)
            rating = shown(found) if found else None
        out.append(GameStats(gtype, len(mine), sum(1 for g in mine if g.result in WINS),
                             sum(1 for g in mine if g.result == "draw"),
                             sum(timed) / len(timed) if timed else None, sum(g.turns for g in mine) / len(mine),
                             figures, rating))
    return out


def stats_lines(rows: Sequence[GameStats], who: str) -> list[Msg]:
    if not rows:
        return [msg("core.rec.stats.none", who=Lit(who, who))]
    lines: list[Msg] = [msg("core.rec.stats.title", who=Lit(who, who))]
    for r in rows:
        rate = round(100 * r.won / r.played) if r.played else 0
        lines.append(msg("core.rec.stats.game", game=game_name(r.game_type), played=r.played, won=r.won, rate=rate))
        length = summary.duration(r.seconds) if r.seconds is not None else msg("core.time.under_minute")
        lines.append(msg("core.rec.stats.length", time=length, turns=round(r.turns)))
        for key, value in r.figures:
            lines.append(Msg(key, {"value": _number(value)}))
        if r.rating is not None:
            lines.append(msg("core.rec.stats.rating", rating=r.rating))
    return lines


def _number(value: float) -> int | Lit:
    """A figure as shown: whole numbers as they are (plural forms work on them), else one decimal."""
    if float(value).is_integer():
        return int(value)
    text = f"{value:.1f}"
    return Lit(text.replace(".", ","), text)


async def leaderboard(store: Store, guild_id: int | None, game_type: str, now: float) -> Board:
    checked = check_game(game_type)
    if checked is None:
        raise TableError(msg("core.rec.error.game_needed", valid=", ".join(sorted(registry.games()))))
    engine = registry.get(checked)
    rated = engine is not None and engine.record_kind == "versus"
    await settle(store, now)
    standings = await store.records.leaderboard(guild_id, checked, rated=rated, limit=LEADERBOARD_SIZE)
    return Board(checked, rated, standings, [shown(s.rating) if s.rating else None for s in standings])


def board_lines(board: Board) -> list[Msg]:
    if not board.standings:
        return [msg("core.rec.board.empty", game=game_name(board.game_type))]
    key = "core.rec.board.title_rated" if board.rated else "core.rec.board.title_record"
    lines: list[Msg] = [msg(key, game=game_name(board.game_type))]
    for i, (s, rating) in enumerate(zip(board.standings, board.ratings, strict=True), start=1):
        name = Lit(s.name, s.name)
        if board.rated and rating is not None:
            lines.append(msg("core.rec.board.row_rated", n=i, name=name, rating=rating, played=s.played, won=s.won))
        else:
            lines.append(msg("core.rec.board.row", n=i, name=name, played=s.played, won=s.won))
    return lines


# ---------------------------------------------------------------- the public export


@dataclass(frozen=True)
class Export:
    """What everyone could see of one game: its record (when it ended) and its public log lines with times."""

    game_id: int
    game_type: str
    status: str
    options: dict[str, Any]
    names: dict[int, str]
    entry: Entry | None
    lines: list[tuple[float, Msg]]


async def export(store: Store, guild_id: int | None, channel_id: int, game_id: int | None) -> Export:
    """The public record of a game of this server: by id, else the channel's current or last game."""
    row: GameRow | None
    if game_id is None:
        row = await store.open_game(channel_id) or await store.last_game(channel_id)
    else:
        if not isinstance(game_id, int) or game_id < 1:
            raise NoGame(msg("core.rec.error.no_such_game"))
        row = await store.game(game_id)
        if row is not None and (row.guild_id or 0) != (guild_id or 0):
            row = None  # another server's game: as if it did not exist
    if row is None:
        raise NoGame(msg("core.rec.error.no_such_game") if game_id is not None else msg("core.error.no_game"))
    if row.status == "lobby":
        raise TableError(msg("core.rec.error.lobby"))
    record = await store.records.record(row.id)
    seats = await store.seats(row.id)
    names = {s.seat: s.name for s in seats}
    lines = [(at, Msg.from_json(data)) for _, at, data in await store.records.public_log(row.id)]
    return Export(row.id, row.game_type, row.status, dict(row.options), names,
                  entry(record) if record is not None else None, lines)
