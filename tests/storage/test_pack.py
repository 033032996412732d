"""Stored JSON is written fast (orjson) and reads back exactly as the standard library's would."""

from __future__ import annotations

import json
import zlib
from typing import Any

from storage.fastjson import to_json_bytes
from storage.lines import pack_lines, unpack_lines
from storage.rows import LogLine
from storage.store import pack, unpack


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


def test_log_lines_read_back_whatever_wrote_them() -> None:
    lines = [LogLine({"key": "hr.ev.buy", "params": {"card": "Espada de Ébano"}}),
             LogLine({"key": "x"}, frozenset({0, 1}))]
    assert unpack_lines(pack_lines(lines) or b"") == [(None, lines[0].msg), (3, {"key": "x"})]
