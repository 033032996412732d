"""Pure renderers: a game's VIEW (never the full state) to PNG bytes, one module per game."""

from __future__ import annotations

import importlib
from typing import Any


def render_for(game_id: str, view: dict[str, Any], lang: str) -> bytes | None:
    """The PNG of `view` drawn by `renderers.<game_id>` (dashes become underscores), or None if
    that game has no renderer."""
    name = f"{__name__}.{game_id.replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only "this game has no renderer" is None; a renderer whose own import fails is a bug.
        if exc.name == name:
            return None
        raise
    render = getattr(module, "render", None)
    if render is None:
        return None
    return render(view, lang)
