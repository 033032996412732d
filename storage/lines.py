"""A move's log lines packed into its log row: [[seats mask or null, message JSON], ...], zlib-compressed."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

from storage.fastjson import to_json_bytes
from storage.rows import LogLine

#: A preset dictionary for log lines: the JSON around every message, which a hundred-byte value cannot
#: back-reference by itself. NEVER change it: rows written with it need it to be read (zlib checks it by its
#: checksum); a better one would be a second dictionary chosen by that checksum.
LINES_DICT = (b'"square":"tile":"monster":"ally":"hero":"cards":"card":"n":"total":"target":"round":1,"dice":'
              b'{"es":"","en":""}{"msg":{"key":"gg.card.","params":{}}}'
              + b"".join(b'[[null,{"key":"%s.ev.' % prefix for prefix in (b"hq", b"gi", b"ka", b"gg", b"hr"))
              + b'[[null,{"key":"core.log.start","params":{}}]],[null,{"key":"hr.ev.","params":{"seat":{"seat":0},'
              b'"who":{"seat":1}}}]]')


def pack_lines(lines: Sequence[LogLine]) -> bytes | None:
    """A move's log lines as one compressed value of its log row: [[seats mask or null, message JSON], ...]."""
    if not lines:
        return None
    packer = zlib.compressobj(9, zdict=LINES_DICT)
    data = to_json_bytes([[line.mask, line.msg] for line in lines])
    return packer.compress(data) + packer.flush()


def unpack_lines(data: bytes | memoryview | str) -> list[tuple[int | None, dict[str, Any]]]:
    """Compressed (written by the bot) or plain JSON (moved there by migration 8)."""
    if isinstance(data, memoryview):
        data = bytes(data)
    if isinstance(data, bytes):
        if data[:1] == b"x":  # a zlib header; plain JSON starts with "["
            unpacker = zlib.decompressobj(zdict=LINES_DICT)
            data = unpacker.decompress(data) + unpacker.flush()
        data = data.decode("utf-8")
    return [(mask, message) for mask, message in json.loads(data)]
