"""The games are an explicit list: every game package is named in it, and nothing else fills it on import."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from rules import registry
from rules.base import Game

ROOT = Path(__file__).resolve().parents[1]


def test_every_game_package_is_listed_and_every_listed_package_is_a_game() -> None:
    packages = sorted(p.parent.name for p in (ROOT / "rules").glob("*/__init__.py"))
    with_game = [p for p in packages if isinstance(getattr(importlib.import_module(f"rules.{p}"), "GAME", None), Game)]
    assert sorted(registry.GAME_PACKAGES) == with_game
    for package in registry.GAME_PACKAGES:
        game = importlib.import_module(f"rules.{package}").GAME
        assert registry.get(game.id) is game  # (tests may register small games of their own beside them)


def test_the_registry_does_not_depend_on_what_was_imported_before() -> None:
    """A fresh process that imported one game package first still lists every game, in the listed order."""
    code = ("import rules.kings_armory\nfrom rules import registry\n"
            "print(','.join(registry.games()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ",".join(importlib.import_module(f"rules.{p}").GAME.id
                                          for p in registry.GAME_PACKAGES)


def test_the_registry_lists_rather_than_scans() -> None:
    text = (ROOT / "rules" / "registry.py").read_text(encoding="utf-8")
    assert "pkgutil" not in text and "iter_modules" not in text
