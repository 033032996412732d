"""What the table says about time and endings: how long it has waited and for whom, and the end-of-game summary."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.base import SYSTEM, Outcome
from rules.text import Lit, Msg, SeatRef, msg
from storage import Store
from table.results import Inspection


def duration(seconds: float) -> Msg:
    """A span in words, to the minute under two days and to the hour beyond ("3 hours 5 minutes", "2 days 4
    hours")."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return msg("core.time.under_minute")
    if minutes < 60:
        return msg("core.time.minutes", m=minutes)
    hours, rest = divmod(minutes, 60)
    if hours < 48:
        return msg("core.time.hours", h=hours) if rest == 0 else msg("core.time.hours_minutes", h=hours, m=rest)
    days, hours = divmod(hours, 24)
    return msg("core.time.days", d=days) if hours == 0 else msg("core.time.days_hours", d=days, h=hours)


def stamp(when: float) -> str:
    """A Discord relative timestamp ("in 3 hours", "2 days ago"), shown in each reader's own clock and language."""
    return f"<t:{int(when)}:R>"


def seat_list(seats: Iterable[int], names: Mapping[int, str] | None = None) -> Msg:
    """Seats named in a message ("Ana, Bob and Carla"); with `names`, written in (for a refusal)."""
    ordered = sorted(seats)
    if not ordered:
        return msg("core.nobody")
    refs: list[Msg | SeatRef | Lit] = [
        msg("core.seat.system") if s == SYSTEM else Lit(names[s], names[s]) if names and s in names else SeatRef(s)
        for s in ordered]
    if len(ordered) <= 6:
        return Msg(f"core.list.{len(ordered)}", {f"s{i}": r for i, r in enumerate(refs)})
    return Msg("core.list.many", {**{f"s{i}": r for i, r in enumerate(refs[:5])}, "n": len(ordered) - 5})


def waiting_line(loaded: Inspection, now: float) -> Msg:
    """Whom a running game waits for, since when, and when their time runs out if a timer runs."""
    to_act = loaded.game.to_act(loaded.state)
    humans = [s for s in to_act if loaded.user_of(s) is not None]
    seats = seat_list(to_act, loaded.names())
    since = loaded.row.turn_started_at or loaded.row.updated_at
    if not humans:  # the game itself or a bot: they move at once
        return msg("core.status.turn", seats=seats)
    waited = duration(now - since)
    deadline = loaded.row.deadline_at
    if deadline is not None:
        return msg("core.wait.since_deadline", seats=seats, since=stamp(since), waited=waited, when=stamp(deadline))
    return msg("core.wait.since", seats=seats, since=stamp(since), waited=waited)


def skip_too_soon(loaded: Inspection, seats: Iterable[int], idle_hours: int, now: float) -> Msg:
    """Why a skip is refused yet: how long the seat has had the turn and how long is left before it may be
    skipped."""
    since = loaded.row.turn_started_at or loaded.row.updated_at
    allowed = since + idle_hours * 3600
    return msg("core.wait.skip_soon", seats=seat_list(seats, loaded.names()), waited=duration(now - since),
               hours=idle_hours, left=duration(allowed - now), when=stamp(allowed))


async def end_lines(store: Store, now: float, loaded: Inspection, outcome: Outcome) -> list[Msg]:
    """The end-of-game summary: the result, how long the game lasted, and the game's own key figures."""
    started = await store.started_at(loaded.row.id)
    lines = [msg("core.end.over", summary=outcome.summary)]
    if 0 < len(outcome.winners) < len(loaded.seats):  # the rule that decided is said above; now who
        lines.append(msg("core.end.winners", n=len(outcome.winners),
                         seats=seat_list(sorted(outcome.winners), loaded.names())))
    if started is not None:
        lines.append(msg("core.end.lasted", time=duration(now - started)))
    lines += loaded.game.final_figures(loaded.state)
    return lines


async def stopped_lines(store: Store, now: float, loaded: Inspection) -> list[Msg]:
    """What an abandoned game had come to: how long it ran and the game's figures at that moment."""
    if loaded.state is None:
        return []
    started = await store.started_at(loaded.row.id)
    lines = [msg("core.abandon.lasted", time=duration(now - started))] if started is not None else []
    return lines + loaded.game.final_figures(loaded.state)
