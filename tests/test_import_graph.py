"""The rules packages import one way: every import at the top of its module and no cycle between modules."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "rules"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / PACKAGE).rglob("*.py"))}


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_package: bool, known: set[str]) -> list[str]:
    """The project modules an import statement loads (a name imported from a package may be a submodule)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    base = node.module or ""
    if node.level:
        anchor = here.split(".")[: len(here.split(".")) - node.level + (1 if is_package else 0)]
        base = ".".join([*anchor, base] if base else anchor)
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in known:
            out.append(sub)
        elif base in known:
            out.append(base)
    return out


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """Module -> project modules it imports, and every import not at module level (file:line)."""
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    nested: list[str] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            targets = _targets(node, name, path.name == "__init__.py", set(known))
            if targets and id(node) not in top:
                nested.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            # a package's own __init__ runs before any of its modules: importing the package is not a cycle
            edges[name].update(t for t in targets if not name.startswith(t + ".") and t != name)
    return edges, nested


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), shortest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(groups, key=len)


def test_every_rules_import_is_at_the_top_of_its_module() -> None:
    _, nested = graph()
    assert nested == [], f"imports inside functions (a hidden cycle?): {nested}"


def test_the_rules_modules_import_each_other_without_cycles() -> None:
    edges, _ = graph()
    assert cycles(edges) == []


def test_the_checker_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
