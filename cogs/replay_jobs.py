"""Replays built off the event loop: timelines and animations made in a worker process, and kept in small caches."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import multiprocessing
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

import i18n
from renderers import replay as drawing
from rules import registry
from rules.text import Msg, msg
from table.replay import ReplaySource, Selection, Timeline, build_timeline, select

T = TypeVar("T")
#: Timelines (the rebuilt game, one per game, version and viewer) and finished animations kept in memory.
TIMELINES_KEPT = 8
ANIMATIONS_KEPT = 16
ANIMATION_BYTES_KEPT = 64 * 1024 * 1024
FORMAT = "gif"

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["rules.registry", "renderers.replay", "table.replay"])


@dataclass(frozen=True)
class Animation:
    data: bytes
    filename: str
    selection: Selection
    frames: int


class Bounded(OrderedDict[Hashable, Any]):
    """A least-recently-used cache of at most `count` entries (and `weight` total, by `weigh`)."""

    def __init__(self, count: int, weight: int | None = None, weigh: Callable[[Any], int] = lambda _: 0) -> None:
        super().__init__()
        self.count, self.weight, self.weigh = count, weight, weigh

    def get_fresh(self, key: Hashable) -> Any:
        if key not in self:
            return None
        self.move_to_end(key)
        return self[key]

    def keep(self, key: Hashable, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.count or (self.weight is not None and len(self) > 1
                                         and sum(self.weigh(v) for v in self.values()) > self.weight):
            self.popitem(last=False)


def which(per_move: bool, number: int, total: int) -> Msg:
    """"Start", "Turn 3 of 40" or "Move 3 of 12"."""
    if number == 0:
        return msg("rp.frame.start")
    return msg("rp.frame.move" if per_move else "rp.frame.turn", n=number, total=total)


def caption(game_type: str, per_move: bool, total: int, number: int, lang: str) -> str:
    """What a frame's strip says: the game, and which turn (or move) of how many."""
    game = registry.get(game_type)
    name = i18n.t(Msg(game.name_key), lang) if game else ""
    return i18n.t(msg("rp.frame.caption", game=name, which=which(per_move, number, total)), lang)


#: The worker's own rebuilt games (views included), by (works token, game, version, viewer): only what the
#: bot needs (turn numbers, lines) travels back, since unpickling every view on the bot's side would hold the GIL,
#: and so the event loop, for a long game.
_KEPT = Bounded(TIMELINES_KEPT)


class Missing(Exception):
    """The worker no longer holds that game (it was restarted, or the game fell out of its cache)."""


def timeline_job(source: ReplaySource, viewer: int | None, token: str) -> Timeline:
    full = build_timeline(source, viewer)
    _KEPT.keep((token, full.game_id, full.version, viewer), full)
    return dataclasses.replace(full, turns=[dataclasses.replace(t, view={}) for t in full.turns])


def _kept(key: tuple[str, int, int, int | None]) -> Timeline:
    found = _KEPT.get_fresh(key)
    if found is None:
        raise Missing(str(key))
    return found


def animation_job(key: tuple[str, int, int, int | None], numbers: tuple[int, ...], lang: str, speed: str,
                  fmt: str) -> bytes:
    full = _kept(key)
    turns = [full.turns[n] for n in numbers]
    captions = [caption(full.game_type, full.per_move, full.last, t.number, lang) for t in turns]
    return drawing.animate(full.game_type, [t.view for t in turns], captions, full.names, lang, speed=speed, fmt=fmt)


def still_job(key: tuple[str, int, int, int | None], number: int, lang: str) -> bytes:
    full = _kept(key)
    turn = full.turns[number]
    return drawing.still(full.game_type, turn.view, full.names,
                         caption(full.game_type, full.per_move, full.last, turn.number, lang), lang)


def _ready() -> bool:
    return True


def _start_pool() -> concurrent.futures.ProcessPoolExecutor:
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=_context)
    pool.submit(_ready).result()
    return pool


class ReplayWorks:
    """The worker process (one: two cores are shared with the bot) and the caches in front of it."""

    def __init__(self, *, in_process: bool = False) -> None:
        #: Tests and tools may build in this process (on a thread), which is simpler to debug.
        self.in_process = in_process
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()
        self.timelines = Bounded(TIMELINES_KEPT)
        self._sources = Bounded(TIMELINES_KEPT)
        #: Names this bot's games in the worker's cache (tests run several stores, with the same game ids, at once).
        self.token = uuid.uuid4().hex
        self.animations = Bounded(ANIMATIONS_KEPT, ANIMATION_BYTES_KEPT, lambda a: len(a.data))

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        if self.in_process:
            return await asyncio.to_thread(func, *args)
        async with self._starting:
            if self._pool is None:
                # Starting the worker waits for it to import the games: done on a thread, never on the loop.
                self._pool = await asyncio.to_thread(_start_pool)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, func, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self._pool = None  # a worker that died (out of memory...) is replaced on the next call
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def timeline(self, source_of: Callable[[], Any], key: tuple[int, int, int | None]) -> Timeline:
        """The timeline of (game, version, viewer), rebuilt from `await source_of()` when not kept; its views stay
        in the worker, which draws from them."""
        found = self.timelines.get_fresh(key)
        if found is None:
            found = await self.run(timeline_job, await source_of(), key[2], self.token)
            self.timelines.keep(key, found)
        self._sources.keep(key, source_of)
        return found

    async def _drawn(self, timeline: Timeline, func: Callable[..., bytes], *args: Any) -> bytes:
        key = (self.token, timeline.game_id, timeline.version, timeline.viewer)
        try:
            return await self.run(func, key, *args)
        except Missing:  # the worker was replaced: it rebuilds the game once more
            source_of = self._sources.get_fresh(key[1:])
            if source_of is None:
                raise
            await self.run(timeline_job, await source_of(), timeline.viewer, self.token)
            return await self.run(func, key, *args)

    async def animation(self, timeline: Timeline, first: int | None, last: int | None, lang: str,
                        speed: str) -> Animation:
        selection = select(timeline, first, last)
        key = (timeline.game_id, timeline.version, timeline.viewer, selection.first, selection.last, lang, speed)
        found = self.animations.get_fresh(key)
        if found is None:
            data = await self._drawn(timeline, animation_job, selection.numbers, lang, speed, FORMAT)
            found = Animation(data, f"replay-{timeline.game_id}-{selection.first}-{selection.last}.{FORMAT}",
                              selection, len(selection.numbers))
            self.animations.keep(key, found)
        return found

    async def still(self, timeline: Timeline, number: int, lang: str) -> bytes:
        return await self._drawn(timeline, still_job, number, lang)
