"""Reading a file attached to a command: a download that fails is a localized refusal, never a crash.

The attachment may be gone (deleted before the bot read it), Discord may answer an error or nothing in time,
or it may send more than it announced. Each becomes "could not read that file" (with what to do) for the
person who attached it, and one WARNING line for the operator: no traceback, nothing changed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from rules.base import BadOptions
from rules.safe_text import clean_name
from rules.text import msg

log = logging.getLogger("tabletop.downloads")

#: Bytes a game file may have (maps and quests are a few kilobytes; the rules check their own, smaller limits).
MAX_UPLOAD = 1_000_000
#: Seconds a download may take before it is given up.
DOWNLOAD_SECONDS = 15.0
#: Characters of a file's name kept (it is only ever shown cleaned, see rules/safe_text.py).
MAX_FILENAME = 80


async def read_attachment(file: Any, *, limit: int = MAX_UPLOAD, seconds: float | None = None) -> tuple[bytes, str]:
    """The attachment's bytes and its cleaned file name; BadOptions (localized) when it is too large or cannot be
    downloaded."""
    size = getattr(file, "size", 0)
    if not isinstance(size, int) or size > limit:
        raise BadOptions(msg("bot.error.file_too_big", limit=limit // 1000))
    name = clean_name(str(getattr(file, "filename", "") or ""), MAX_FILENAME) or "file"
    try:
        data = await asyncio.wait_for(file.read(), seconds or DOWNLOAD_SECONDS)
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError, ValueError) as exc:
        log.warning("could not download the attachment %r: %s", name, _why(exc))
        raise BadOptions(msg("core.error.file_unreadable")) from None
    if not isinstance(data, bytes) or len(data) > limit:  # more than Discord announced: never trusted
        log.warning("the attachment %r was larger than announced", name)
        raise BadOptions(msg("bot.error.file_too_big", limit=limit // 1000))
    return data, name


def _why(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return "timed out"
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status}"
    return type(exc).__name__
