"""Stored JSON is written fast (orjson) and reads back exactly as the standard library's would."""

from __future__ import annotations

import json
import zlib
from typing import Any

from storage.store import pack, to_json_bytes, unpack


def test_packed_json_reads_back_as_the_standard_librarys() -> None:
    data = {"name": "Aragón ⚔", "seats": [1, 2, (3, 4)], "nested": {"rng": (1 << 64) - 1, "f": 0.1, "n": None},
            "flags": [True, False], "empty": {}}
    assert json.loads(to_json_bytes(data)) == json.loads(json.dumps(data))
    assert unpack(pack(data)) == json.loads(json.dumps(data))


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    big: dict[str, Any] = {"rng": 1 << 70, "by_seat": {3: "three"}}  # over 64 bits; a number key (JSON: a string)
    assert json.loads(to_json_bytes(big)) == {"rng": 1 << 70, "by_seat": {"3": "three"}}
    assert unpack(pack(big)) == {"rng": 1 << 70, "by_seat": {"3": "three"}}
    assert json.loads(to_json_bytes({"by_seat": {3: "three"}})) == {"by_seat": {"3": "three"}}


def test_packs_written_before_orjson_still_read() -> None:
    old = zlib.compress(json.dumps({"é": [1, 2]}, separators=(",", ":")).encode("utf-8"), 6)
    assert unpack(old) == {"é": [1, 2]}
