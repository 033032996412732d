"""Images drawn and encoded in a small pool of worker processes, so the bot's one event loop never draws."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import importlib
import logging
import multiprocessing
import os
import pickle
import pkgutil
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger("tabletop.drawing")
_pool: ProcessPoolExecutor | None = None
_broken = False
#: The workers' start (importing the game UIs and Pillow): until it is done, images are drawn in threads.
_warming: list[Future[int]] = []


#: How much less CPU priority a drawing worker has than the bot (`nice`): when the machine is short of CPU the
#: event loop, which answers people, goes first and images come a little later.
WORKER_NICENESS = 5
_PR_SET_PDEATHSIG = 1


def pool_size() -> int:
    """Worker processes: `TABLETOP_DRAWING_PROCESSES` (a number; `auto` or unset: one per core, at most four);
    0 draws in threads of the bot's process instead (where a sandbox forbids processes). Default on: drawing in
    threads holds the interpreter's lock for most of a board's ~200 ms, and the bot's answers wait behind it
    (`tools.bench --load --mixed`: command p50 4x longer in threads on this 2-core machine)."""
    configured = os.environ.get("TABLETOP_DRAWING_PROCESSES", "").strip().lower()
    if configured in ("", "auto"):
        return max(1, min(4, os.cpu_count() or 1))
    return int(configured) if configured.isdigit() else 0


def _quiet_worker() -> None:
    """A worker writes nowhere the bot's own output goes (a pipe read by whoever started the bot stays theirs),
    yields the CPU to the bot, and ends when the process that started it ends, even one killed hard."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    if sys.platform.startswith("linux"):  # the forkserver ends with the bot; its workers end with it
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


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
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            # `func` cannot travel to a worker (a class re-imported since, a closure): this one is drawn here
            log.debug("drawing %r in a thread: %s", func, exc)
    return await asyncio.to_thread(func, *args)


async def ready(timeout: float = 120.0) -> bool:
    """Wait until the drawing processes have started (True), or `timeout` seconds; at once when there are none
    (images drawn in threads). A benchmark waits for it: the processes start once per bot, not per command."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while pool_size() > 0 and not _broken and _get_pool() is None:
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def mode() -> str:
    """Where images are drawn now: "processes N" or "threads"."""
    return f"processes {pool_size()}" if _get_pool() is not None else "threads"


def shutdown() -> None:
    """Stop the workers (at the bot's exit)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
        _warming.clear()
