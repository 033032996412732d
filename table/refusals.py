"""Storage trouble as a localized refusal: a full disk or a database that refuses writes changes nothing."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from rules.text import msg
from storage import StorageError, StorageFull
from table.results import TableError

log = logging.getLogger("tabletop.table")
P = ParamSpec("P")
R = TypeVar("R")


def storage_refusals(func: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A full disk or a database that refuses writes becomes a localized refusal: nothing was changed."""

    @functools.wraps(func)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await func(*args, **kwargs)
        except StorageFull as exc:
            log.error("storage full: %s", exc)
            raise TableError(msg("core.error.storage_full")) from exc
        except StorageError as exc:
            log.error("storage unavailable: %s", exc)
            raise TableError(msg("core.error.storage_down")) from exc

    return wrapper


_storage_refusals = storage_refusals
