"""A move's log lines packed into its log row: [[seats mask or null, message JSON], ...], zlib-compressed."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

from storage.rows import LogLine


def pack_lines(lines: Sequence[LogLine]) -> bytes | None:
    """A move's log lines as one compressed value of its log row: [[seats mask or null, message JSON], ...]."""
    if not lines:
        return None
    return zlib.compress(json.dumps([[line.mask, line.msg] for line in lines], separators=(",", ":")).encode(), 9)


def unpack_lines(data: bytes | memoryview | str) -> list[tuple[int | None, dict[str, Any]]]:
    """Compressed (written by the bot) or plain JSON (moved there by migration 8)."""
    if isinstance(data, memoryview):
        data = bytes(data)
    if isinstance(data, bytes):
        data = zlib.decompress(data).decode("utf-8") if data[:1] == b"x" else data.decode("utf-8")
    return [(mask, message) for mask, message in json.loads(data)]
