"""Images drawn and encoded in a small pool of worker processes, so the bot's one event loop never draws."""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import pkgutil
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger("tabletop.drawing")
_pool: ProcessPoolExecutor | None = None
_broken = False
#: The workers' start (importing the game UIs and Pillow): until it is done, images are drawn in threads.
_warming: list[Future[int]] = []


def pool_size() -> int:
    """Worker processes: `TABLETOP_DRAWING_PROCESSES` (`auto`: one per core, at most four); unset or 0, images
    are drawn in threads of the bot's process. Opt-in for now: on a machine shared by many busy processes the
    pool measured slower than threads, and a bot killed hard leaves its workers holding its output."""
    configured = os.environ.get("TABLETOP_DRAWING_PROCESSES", "").strip().lower()
    if configured == "auto":
        return max(1, min(4, os.cpu_count() or 1))
    return int(configured) if configured.isdigit() else 0


def _quiet_worker() -> None:
    """A worker writes nowhere the bot's own output goes (a pipe read by whoever started the bot stays theirs)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _warm_up() -> int:
    """In a worker: import what drawing needs (every cog's game UI, the renderers), once."""
    import cogs

    for module in pkgutil.iter_modules(cogs.__path__):
        importlib.import_module(f"cogs.{module.name}")
    return os.getpid()


def _get_pool() -> ProcessPoolExecutor | None:
    """The pool once its workers are ready; None while they start (or when there is none)."""
    global _pool
    if _pool is None and not _broken and pool_size() > 0:
        # forkserver: workers start from a clean process, never a fork of the bot's threads and sockets.
        _pool = ProcessPoolExecutor(max_workers=pool_size(), mp_context=multiprocessing.get_context("forkserver"),
                                    initializer=_quiet_worker)
        _warming[:] = [_pool.submit(_warm_up) for _ in range(pool_size())]
    if _pool is not None and not all(f.done() for f in _warming):
        return None
    return _pool


async def draw(func: Callable[..., Any], *args: Any) -> Any:
    """`func(*args)` in a worker process (`func` a picklable, pure drawing function such as a game UI's
    `board_image`, `args` plain data such as a view); in a thread when no pool can serve it."""
    global _pool, _broken
    pool = _get_pool()
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, func, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): draw here, and try a new pool next time
            log.warning("the drawing processes stopped; drawing in the bot's process for now")
            _pool = None
        except (OSError, RuntimeError) as exc:  # no processes on this machine (a sandbox): threads from now on
            log.warning("cannot draw in worker processes (%s); drawing in threads", exc)
            _pool, _broken = None, True
    return await asyncio.to_thread(func, *args)


def shutdown() -> None:
    """Stop the workers (at the bot's exit)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
        _warming.clear()
