"""Files attached to `/game new` are checked in a separate process with a time cap, never on the event loop."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from multiprocessing.connection import Connection
from typing import Any

from rules.base import BadOptions, Game, RuleError
from rules.text import Msg, msg

log = logging.getLogger("tabletop.uploads")

#: Seconds a file may take to be checked before it is refused.
UPLOAD_SECONDS = 10.0
_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["rules.registry", "rules.base"])


def _check(conn: Connection, game: Game, data: bytes, filename: str) -> None:
    try:
        conn.send(("ok", game.setup_from_upload(data, filename)))
    except RuleError as exc:
        conn.send(("refused", exc.reason.to_json()))
    except Exception as exc:  # a broken file must never take the bot down; the parent logs it
        conn.send(("crashed", repr(exc)[:500]))
    finally:
        conn.close()


async def setup_from_upload(game: Game, data: bytes, filename: str, *, seconds: float = UPLOAD_SECONDS
                            ) -> dict[str, Any]:
    """`game.setup_from_upload` in a child process; refused with a localized reason when slow or broken."""
    receiver, sender = _context.Pipe(duplex=False)
    child = _context.Process(target=_check, args=(sender, game, data, filename), daemon=True)
    child.start()
    sender.close()
    result: tuple[str, Any] | None
    try:
        ready = await asyncio.to_thread(receiver.poll, seconds)
        result = receiver.recv() if ready else None
    except EOFError:  # the child died without answering (out of memory, killed)
        result = ("crashed", "no answer")
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        await asyncio.to_thread(child.join, 5)
    if result is None:
        raise BadOptions(msg("core.error.upload_slow", seconds=int(seconds)))
    status, payload = result
    if status == "ok" and isinstance(payload, dict):
        return payload
    if status == "refused" and isinstance(payload, dict):
        raise BadOptions(Msg.from_json(payload))
    log.warning("upload check crashed on %r: %s", filename, payload)
    raise BadOptions(msg("core.error.upload_broken"))
