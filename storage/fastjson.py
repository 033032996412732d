"""Compact UTF-8 JSON written fast, for what is stored with every move."""

from __future__ import annotations

import json
from typing import Any

import orjson


def to_json_bytes(data: Any) -> bytes:
    """`data` as compact UTF-8 JSON. orjson writes it about ten times faster than the standard library (a state
    and its undo chain are stored with every move, on the event loop); the standard library takes what orjson
    refuses (an integer over 64 bits). Either way `json.loads` reads back the same value."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(data, separators=(",", ":")).encode("utf-8")
