"""The layers the README describes, checked over every module: bot -> cogs -> table -> rules and storage;
renderers read views; the stand-in serves only local play, tools and tests; only tools lean on test helpers."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Each top-level part of the project and the project parts it may import.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "storage": set(),
    "plurals": set(),
    "i18n": {"rules", "plurals"},
    "table": {"rules", "storage"},
    "renderers": {"rules", "i18n", "plurals"},
    "cogs": {"table", "rules", "renderers", "i18n", "plurals"},
    "standin": set(),
    "bot": {"cogs", "table", "rules", "storage", "renderers", "i18n", "plurals", "standin"},
    # the talk measurer reuses the tests' plural reader
    "tools": {"bot", "cogs", "table", "rules", "storage", "renderers", "i18n", "plurals", "standin", "tests"},
}

#: Outside libraries a part must never import (the engines stay pure; Discord stays in the glue).
FORBIDDEN: dict[str, set[str]] = {
    "rules": {"discord", "PIL", "sqlite3", "aiosqlite", "asyncpg", "asyncio", "random", "time", "datetime"},
    "table": {"discord", "PIL"},
    "storage": {"discord", "PIL"},
    "renderers": {"discord", "sqlite3", "aiosqlite", "asyncpg"},
    "i18n": {"discord"},
    "plurals": {"discord"},
}


def part_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def sources() -> list[Path]:
    return [p for p in sorted(ROOT.rglob("*.py"))
            if not p.relative_to(ROOT).parts[0].startswith(".") and p.relative_to(ROOT).parts[0] != "tests"]


def imported_roots(tree: ast.AST) -> set[tuple[str, int]]:
    """(first name of each absolute import, line); relative imports stay inside their own part."""
    out: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update((a.name.split(".")[0], node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add((node.module.split(".")[0], node.lineno))
    return out


def violations(files: dict[str, str], parts: set[str]) -> list[str]:
    """Every import that crosses a layer the wrong way, as "file:line imports X"."""
    found = []
    for name, text in sorted(files.items()):
        here = name.split("/")[0] if "/" in name else name.removesuffix(".py")
        allowed = ALLOWED.get(here)
        for root, line in sorted(imported_roots(ast.parse(text)), key=lambda found: (found[1], found[0])):
            wrong_way = root in parts and root != here and (allowed is None or root not in allowed)
            if wrong_way or root in FORBIDDEN.get(here, set()):
                found.append(f"{name}:{line} imports {root}")
    return found


def test_every_part_is_described() -> None:
    parts = {part_of(p) for p in sources()}
    assert parts <= set(ALLOWED), f"parts with no layer rule: {parts - set(ALLOWED)}"


def test_no_import_crosses_a_layer_the_wrong_way() -> None:
    files = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sources()}
    assert violations(files, set(ALLOWED) | {"tests"}) == []


def test_the_checker_sees_a_wrong_way_import() -> None:
    files = {
        "table/x.py": "import discord\nfrom cogs import ui\nfrom rules.base import Game\n",
        "rules/y.py": "import random\nfrom storage import Store\n",
        "renderers/z.py": "from table.service import Table\nfrom rules.text import Msg\n",
        "cogs/w.py": "from standin import local\nfrom table import Table\n",
        "storage/v.py": "from tests import helpers\nfrom rules.base import Game\n",
    }
    assert violations(files, set(ALLOWED) | {"tests"}) == [
        "cogs/w.py:1 imports standin",
        "renderers/z.py:1 imports table",
        "rules/y.py:1 imports random",
        "rules/y.py:2 imports storage",
        "storage/v.py:1 imports tests",
        "storage/v.py:2 imports rules",
        "table/x.py:1 imports discord",
        "table/x.py:2 imports cogs",
    ]
