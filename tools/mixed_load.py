"""All five games at once, AI seats on: how long a person's command takes while every channel's bots play.

`python -m tools.bench --load --mixed [--channels 100] [--seconds 20] [--think 1] [--backend sqlite|postgresql|both]
[--inline]`. Each channel plays one game (the five in turn) with one person per seat the game lets no bot take
(HeroQuest: the game master and a hero) and AI seats in the others. A person waits `--think` seconds (jittered),
then makes a random legal move through the table as the bot does (`defer_auto`: answered first, then the AI seats
and the game's own steps run through `Table.resume`); `--inline` plays them inside the person's command instead,
as tools and tests do. Figures: a person's command p50/p99, the bots' follow-ups, committed moves per second,
how late the event loop wakes a sleeping task (`loop_lag_ms`) and the load average when the run began and ended
(`os.getloadavg()`). Through the stand-in (`--standin-channels`), `reply_ms` is until the person sees the words
of their answer; their board and private picture follow by an edit, `image_ms` after the words (p50/p99);
`images_cancelled` counts those replaced by a newer one before their turn, their early drawing stopped;
`reply_loop_turns` counts the event loop's turns from the command's arrival to its answer (`LoopTurns`).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from rules import registry
from rules.base import Game
from rules.rng import Rng
from storage import Store
from table import Table, TableError, Who
from tools.pgserver import PgServer

GAMES = ("hero-realms", "heroquest", "gorgasali", "kings-armory", "guerra-de-indagar")
#: AI seats per game beside its one person (HeroQuest has none: two people, the game master and a hero).
AI_SEATS = {"hero-realms": 1, "heroquest": 0, "gorgasali": 3, "kings-armory": 2, "guerra-de-indagar": 2}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def typed_moves(table: Table, channel_id: int, game: Game, names: list[str], rng: Rng, think: float,
                      deadline: float) -> AsyncIterator[tuple[str, str]]:
    """What the channel's people (seats 0, 1... named `names`) type until `deadline`: after `think` seconds
    (jittered), one of those on turn and a random legal move of theirs as `/game act`; nothing while none of them
    may move (the bots are at it: a person waits too). A random game master would end the quest at once, so quests
    are played to their own end."""
    while time.perf_counter() < deadline:
        await asyncio.sleep(think * (0.5 + rng.below(1000) / 1000))
        row = await table.game_for(channel_id)
        if row is None:
            return
        state = (await table.inspect(row.id)).state
        mine = [i for i in range(len(names)) if i in game.to_act(state)]
        if not mine:
            continue
        seat = rng.choice(mine)
        legal = [la for la in game.legal_actions(state, seat)
                 if len(la.action.token()) <= 100 and la.action.kind != "gm_end_quest"]
        if legal:
            yield names[seat], f'/game act action:"{rng.choice(legal).action.token()}"'


class LoopLag:
    """How late the event loop wakes a task that asked to sleep `every` seconds: what blocks the loop (JSON, zlib,
    a drawing holding the GIL) or starves the process of CPU, as every command in it feels it."""

    def __init__(self, every: float = 0.01) -> None:
        self.every = every
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def __enter__(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._probe())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _probe(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(self.every)
            self.lags.append((time.perf_counter() - started - self.every) * 1000)

    def figures(self) -> dict[str, float]:
        return {"loop_lag_ms_p50": round(percentile(self.lags, 50), 1),
                "loop_lag_ms_p99": round(percentile(self.lags, 99), 1),
                "loop_lag_ms_max": round(max(self.lags, default=0.0), 1)}


class LoopTurns:
    """Counts the event loop's turns (one per batch of ready callbacks). Between a command's arrival and its answer
    that is how often the answer went back to the end of the queue: each turn waits for whatever else is ready, so
    the count, unlike a time, says how much a busy loop can delay an answer, whatever the machine's speed."""

    def __init__(self) -> None:
        self.count = 0
        self._loop: Any = None
        self._real: Any = None

    def __enter__(self) -> LoopTurns:
        self._loop = asyncio.get_running_loop()
        self._real = self._loop._run_once  # a private method of asyncio's loop: a measuring tool's liberty

        def counted() -> None:
            self.count += 1
            self._real()

        self._loop._run_once = counted
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None:
            self._loop._run_once = self._real


class Channel:
    """One channel's game and the people at it."""

    def __init__(self, number: int, game: Game) -> None:
        self.number, self.game = number, game
        humans = 2 if AI_SEATS[game.id] == 0 else 1
        self.people = [Who(number * 100 + i + 1, f"P{number}-{i}", lang="en") for i in range(humans)]

    async def start(self, table: Table) -> None:
        await table.new(guild_id=1, channel_id=self.number, who=self.people[0], game_type=self.game.id,
                        ai_seats=AI_SEATS[self.game.id], timer_minutes=0)
        for person in self.people[1:]:
            await table.join(self.number, person)
        await table.start(self.number, self.people[0])


async def mixed_table_load(store: Store, channels: int, seconds: float, think: float, seed: int,
                           inline: bool = False) -> dict[str, Any]:
    """`channels` games of all five kinds played at once through one table, as one bot process would."""
    known = registry.games()
    games = [known[g] for g in GAMES]
    table = Table(store, seed_source=itertools.count(seed).__next__, defer_auto=not inline)
    rooms = [Channel(c + 1, games[c % len(games)]) for c in range(channels)]
    for room in rooms:
        await room.start(table)
        if not inline:
            row = await table.game_for(room.number)
            assert row is not None
            await table.resume(row.id)  # bots who open the game move before anyone is measured
    human: dict[str, list[float]] = {g: [] for g in GAMES}
    follow: list[float] = []
    failures: list[str] = []
    versions_before = await _versions(store)
    load_before = load_average()
    deadline = time.perf_counter() + seconds

    async def player(room: Channel) -> None:
        rng = Rng.from_seed(seed * 7919 + room.number)
        game = room.game
        while time.perf_counter() < deadline:
            await asyncio.sleep(think * (0.5 + rng.below(1000) / 1000))
            try:
                row = await table.game_for(room.number)
                if row is None:
                    await room.start(table)
                    continue
                state = (await table.inspect(row.id)).state
                mine = [i for i, _ in enumerate(room.people) if i in game.to_act(state)]
                if not mine:
                    continue  # the bots are still at it: a person would wait too
                seat = rng.choice(mine)
                # A random game master would end the quest at once; quests are played to their own end here.
                legal = [la for la in game.legal_actions(state, seat) if la.action.kind != "gm_end_quest"]
                if not legal:
                    continue
                started = time.perf_counter()
                report = await table.act(room.number, room.people[seat], rng.choice(legal).action)
                human[game.id].append((time.perf_counter() - started) * 1000)
                if report.pending_auto:  # what the bot does once the person has their answer
                    started = time.perf_counter()
                    await table.resume(report.game_id)
                    follow.append((time.perf_counter() - started) * 1000)
            except TableError as exc:
                failures.append(f"{game.id}: {exc.reason.key}")
            except Exception as exc:  # a benchmark counts failures instead of stopping at the first
                failures.append(f"{game.id}: {exc!r}"[:160])

    began = time.perf_counter()
    with LoopLag() as lag:
        await asyncio.gather(*(player(room) for room in rooms))
    elapsed = time.perf_counter() - began
    moves = await _versions(store) - versions_before
    every = [x for values in human.values() for x in values]
    return {
        "channels": channels, "think_s": think, "seconds": round(elapsed, 1), "bots": "inline" if inline else "resume",
        "human_commands": len(every), "human_ms_p50": round(percentile(every, 50), 1),
        "human_ms_p99": round(percentile(every, 99), 1),
        "human_ms_p99_by_game": {g: round(percentile(v, 99), 1) for g, v in human.items()},
        "bot_follow_ups": len(follow), "follow_up_ms_p50": round(percentile(follow, 50), 1),
        "follow_up_ms_p99": round(percentile(follow, 99), 1),
        "committed_moves_per_s": round(moves / elapsed, 1),
        "failures": len(failures), "failure_kinds": sorted(set(failures))[:5],
        **lag.figures(), "load_average_before": load_before, "load_average_after": load_average(),
    }


async def mixed_standin_load(target: str, channels: int, seconds: float, think: float, seed: int
                             ) -> dict[str, Any]:
    """The same mix through the unmodified bot and the in-process stand-in, images drawn: how long until the person
    who typed `/game act` has their answer (`reply_ms`), and until everything their command set off is done, the
    bots' turns included (`handled_ms`)."""
    from bot import make_bot
    from cogs import drawing
    from cogs.delivery import LATE
    from cogs.late_images import TASK_NAME
    from standin.inprocess import APP_COMMAND, InProcessDiscord, _is_idle, _owner
    from standin.world import Output, default_world, is_error_output

    world, guild, first = default_world()
    rooms_at = [first, *(world.add_text_channel(guild, f"mesa-{i}") for i in range(1, channels))]
    games = [registry.get(g) for g in GAMES]
    replies: dict[int, asyncio.Event] = {}
    turns = LoopTurns()
    turns_at: dict[int, int] = {}
    reply_turns: list[float] = []

    def answered(out: Output) -> None:
        if out.interaction_id in replies:
            replies[out.interaction_id].set()
        if out.interaction_id in turns_at:
            reply_turns.append(turns.count - turns_at.pop(out.interaction_id))

    world.listeners.append(answered)
    reply_ms: dict[str, list[float]] = {g: [] for g in GAMES}
    handled_ms: list[float] = []
    failures: list[str] = []
    async with InProcessDiscord(lambda: make_bot(target), world=world, guild=guild, channel=first,
                                settle_timeout=120, strict=False) as d:
        table: Table = d.bot.table
        rooms = []
        for c, at in enumerate(rooms_at):
            game = games[c % len(games)]
            assert game is not None
            names = [f"u{c}x{i}" for i in range(2 if AI_SEATS[game.id] == 0 else 1)]
            await d.command(names[0], f"/game new game:{game.id} ai:{AI_SEATS[game.id]}", channel=at)
            for name in names[1:]:
                await d.command(name, "/game join", channel=at)
            await d.command(names[0], "/game start", channel=at)
            rooms.append((at, game, names))
        await LATE.idle()
        load_before = load_average()
        shown_before, skipped_before, waits_before = LATE.shown, LATE.skipped, len(LATE.waits)
        at_once_before, cancelled_before = LATE.at_once, LATE.cancelled
        deadline = time.perf_counter() + seconds

        async def player(c: int) -> None:
            at, game, names = rooms[c]
            async for name, line in typed_moves(table, at.id, game, names, Rng.from_seed(seed * 7919 + c), think,
                                                deadline):
                user = d.user(name)
                data = d.command_data(user, at, line)
                inter = d.world.new_interaction(APP_COMMAND, user, at)
                answered = replies[inter.id] = asyncio.Event()
                turns_at[inter.id] = turns.count
                started_tasks: set[asyncio.Task[Any]] = set()
                started = time.perf_counter()
                token = _owner.set(started_tasks)
                try:
                    with d._tracking():
                        d.feed("INTERACTION_CREATE", d.interaction_payload(inter, user, at, data))
                finally:
                    _owner.reset(token)
                try:
                    await asyncio.wait_for(answered.wait(), 60)
                    reply_ms[game.id].append((time.perf_counter() - started) * 1000)
                except TimeoutError:
                    failures.append(f"{game.id}: no answer in 60 s")
                # Then until what the command set off is done (the bots' turns), not tasks waiting for a click, nor
                # images still being drawn (a person moves on once they have read the words; image_ms times those).
                limit = time.perf_counter() + 60
                while (busy := [t for t in list(started_tasks) if not t.done() and not _is_idle(t, d.ignore_task)
                                and t.get_name() != TASK_NAME]) and time.perf_counter() < limit:
                    await asyncio.wait(busy, timeout=1)
                handled_ms.append((time.perf_counter() - started) * 1000)
                del replies[inter.id]
                failures.extend(f"{game.id}: {o.content[:80]}" for o in world.outputs[-20:]
                                if o.interaction_id == inter.id and is_error_output(o))

        began = time.perf_counter()
        with LoopLag() as lag, turns:
            await asyncio.gather(*(player(c) for c in range(channels)))
            await LATE.idle()
        elapsed = time.perf_counter() - began
        image_ms = list(LATE.waits)[waits_before:]
    every = [x for values in reply_ms.values() for x in values]
    return {"channels": channels, "think_s": think, "seconds": round(elapsed, 1), "commands": len(every),
            "reply_ms_p50": round(percentile(every, 50), 1), "reply_ms_p99": round(percentile(every, 99), 1),
            "reply_ms_p99_by_game": {g: round(percentile(v, 99), 1) for g, v in reply_ms.items()},
            "reply_loop_turns_p50": percentile(reply_turns, 50), "reply_loop_turns_p99": percentile(reply_turns, 99),
            "handled_ms_p50": round(percentile(handled_ms, 50), 1),
            "handled_ms_p99": round(percentile(handled_ms, 99), 1),
            "images_shown": LATE.shown - shown_before,
            "images_with_words": LATE.at_once - at_once_before, "images_skipped": LATE.skipped - skipped_before,
            "images_cancelled": LATE.cancelled - cancelled_before,
            "image_ms_p50": round(percentile(image_ms, 50), 1), "image_ms_p99": round(percentile(image_ms, 99), 1),
            "failures": len(failures), "failure_samples": sorted(set(failures))[:5], **lag.figures(),
            "drawing": drawing.mode(), "load_average_before": load_before, "load_average_after": load_average()}


async def _versions(store: Store) -> int:
    """Every game's version summed: each committed move adds one."""
    async with store.backend.read() as q:
        row = await q.fetchone("SELECT COALESCE(SUM(version), 0) AS n FROM games")
    return int(row["n"]) if row else 0


def _target(backend: str, tmp: str, pg: PgServer | None, name: str) -> str:
    if backend == "sqlite" or pg is None:
        return str(Path(tmp) / f"{name}.sqlite3")
    return pg.create_database(name)


async def mixed_figures(backends: list[str], channels: int, seconds: float, think: float, seed: int,
                        inline: bool = False, standin_channels: int = 0, bot_processes: int = 0) -> dict[str, Any]:
    result: dict[str, Any] = {}
    pg = PgServer(durable=True).start() if "postgresql" in backends else None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for backend in backends:
                target = _target(backend, tmp, pg, "mixed")
                result[backend] = {}
                if channels:
                    store = await Store(target).open()
                    try:
                        result[backend]["table_layer"] = await mixed_table_load(store, channels, seconds, think, seed,
                                                                                inline)
                    finally:
                        await store.close()
                if standin_channels and bot_processes:
                    from tools.process_load import process_standin_load

                    target = _target(backend, tmp, pg, "processes")
                    result[backend]["bot_in_processes"] = await process_standin_load(
                        target, standin_channels, seconds, think, seed, bot_processes, tmp)
                elif standin_channels:
                    target = _target(backend, tmp, pg, "standin")
                    result[backend]["through_standin"] = await mixed_standin_load(target, standin_channels, seconds,
                                                                                  think, seed)
    finally:
        if pg is not None:
            pg.stop()
    return result


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="sqlite")
    parser.add_argument("--inline", action="store_true")
    parser.add_argument("--standin-channels", type=int, default=0)
    parser.add_argument("--bot-processes", type=int, default=0,
                        help="with --standin-channels: the bot in this many processes of its own (shards when 2+)")
    args = parser.parse_args()
    if args.bot_processes > 1 and args.backend != "postgresql":
        parser.error("several bot processes share a PostgreSQL database: add --backend postgresql")
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    print(json.dumps(asyncio.run(mixed_figures(backends, args.channels, args.seconds, args.think, args.seed,
                                               args.inline, args.standin_channels, args.bot_processes))))
