"""Engine versions for upgrade safety: a hash of what decides a game's states, and the replay check after an upgrade.

The version is a hash of the game's rules package, the shared rules modules it builds on and its data folder,
rather than a constant to bump by hand: a rules fix that forgets a bump is still seen. A change that does not
alter behaviour (a comment, a refactor) only costs one replay check per game, which then finds nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.base import Action, Game, apply_logged
from storage import ActionRow, Mismatch

log = logging.getLogger("tabletop.upgrade")

_ROOT = Path(__file__).resolve().parent.parent
#: Shared engine modules every game's states depend on.
_SHARED = ("rules/base.py", "rules/rng.py", "rules/text.py", "rules/coords.py")


def engine_version(game: Game) -> str:
    """A short stable id of the code and data that compute this game's states (16 hex digits)."""
    return _version_of(type(game).__module__, game.id)


@lru_cache(maxsize=64)
def _version_of(module_name: str, game_id: str) -> str:
    digest = hashlib.sha256(game_id.encode())
    for path in _sources(module_name):
        digest.update(str(path.relative_to(_ROOT) if path.is_relative_to(_ROOT) else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _sources(module_name: str) -> list[Path]:
    parts = module_name.split(".")
    files = [_ROOT / shared for shared in _SHARED if (_ROOT / shared).exists()]
    if parts[0] == "rules" and len(parts) > 1 and (_ROOT / "rules" / parts[1]).is_dir():
        files += sorted((_ROOT / "rules" / parts[1]).rglob("*.py"))
        data = _ROOT / "data" / parts[1]
        if data.is_dir():
            files += sorted(p for p in data.rglob("*") if p.is_file() and p.suffix != ".md")
    else:  # a game defined in one module (the test games)
        module_file = getattr(sys.modules.get(module_name), "__file__", None)
        if module_file:
            files.append(Path(module_file))
    return files


def check_replay(game: Game, head: dict[str, Any], base: dict[str, Any], actions: list[ActionRow]) -> str | None:
    """Replay `actions` from `base` (a sparse snapshot, full JSON) with today's engine; None when it gives `head`,
    else what differs, in words safe for a log: the failing version and error, or the names of the parts that
    differ, never a value (hidden cards stay hidden)."""
    at = 0
    try:
        state = game.from_json(base)
        for entry in actions:
            at = entry.version
            if entry.action is not None and entry.seat is not None and entry.kind != "undo":
                state = apply_logged(game, state, entry.seat, Action.from_json(entry.action)).state
        replayed = game.to_json(state)
    except Exception as exc:  # a rules fix may make an old move illegal, or fail on old data
        return f"version {at}: replay raised {type(exc).__name__}"
    differing = sorted(k for k in set(replayed) | set(head)
                       if k not in game.static_keys and _canon(replayed.get(k)) != _canon(head.get(k)))
    return f"state differs in {', '.join(differing)}" if differing else None


def _canon(value: Any) -> str:
    """One spelling of a JSON value (tuples as lists, keys as strings, in order) to compare stored and fresh."""
    return json.dumps(json.loads(json.dumps(value, default=str)), sort_keys=True, separators=(",", ":"))


def warn(mismatch: Mismatch) -> None:
    log.warning("game %s (%s) at version %s: replaying its log with engine %s does not give the state saved by "
                "engine %s (%s); the saved state is kept and the game goes on from it",
                mismatch.game_id, mismatch.game_type, mismatch.version, mismatch.engine_now, mismatch.engine_then,
                mismatch.detail)
