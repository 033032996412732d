"""CLDR plural selection (Babel's rules) for ICU-style `{n, plural, one {# paso} other {# pasos}}` templates."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from babel import Locale

#: The categories CLDR defines; a branch may also be an exact value such as `=0`.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def category(lang: str, count: int | float) -> str:
    """The CLDR plural category of `count` in `lang` ("one", "other", "many"...)."""
    return str(_locale(lang).plural_form(abs(count)))


def _matching(text: str, start: int) -> int:
    """Index of the brace closing the one opened at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced braces in {text!r}")


def parse_block(body: str) -> tuple[str, dict[str, str]] | None:
    """`n, plural, one {...} other {...}` -> ("n", {"one": "...", "other": "..."}); None when not a plural."""
    parts = body.split(",", 2)
    if len(parts) != 3 or parts[1].strip() != "plural":
        return None
    name, rest = parts[0].strip(), parts[2]
    branches: dict[str, str] = {}
    i = 0
    while i < len(rest):
        if rest[i].isspace():
            i += 1
            continue
        open_at = rest.index("{", i)
        selector = rest[i:open_at].strip()
        close_at = _matching(rest, open_at)
        branches[selector] = rest[open_at + 1:close_at]
        i = close_at + 1
    if "other" not in branches:
        raise ValueError(f"plural block without an 'other' branch: {body!r}")
    return name, branches


def blocks(template: str) -> list[tuple[int, int, str, dict[str, str]]]:
    """Every top-level plural block of a template: (start, end, selector name, branches)."""
    found: list[tuple[int, int, str, dict[str, str]]] = []
    i = 0
    while True:
        start = template.find("{", i)
        if start < 0:
            return found
        end = _matching(template, start)
        parsed = parse_block(template[start + 1:end])
        if parsed is not None:
            found.append((start, end, *parsed))
        i = end + 1


def expand(template: str, lang: str, params: Mapping[str, object]) -> str:
    """The template with each plural block replaced by the branch its count selects (`#` is the count)."""
    if ", plural," not in template:
        return template
    out: list[str] = []
    last = 0
    for start, end, name, branches in blocks(template):
        value = params.get(name)
        try:
            count = float(value) if isinstance(value, (int, float, str)) else None
        except ValueError:
            count = None
        if count is None:
            chosen = branches["other"]
        else:
            exact = f"={int(count)}" if count == int(count) else ""
            number = int(count) if count == int(count) else count
            chosen = branches.get(exact) or branches.get(category(lang, number)) or branches["other"]
            chosen = chosen.replace("#", str(value))
        out.append(template[last:start])
        out.append(expand(chosen, lang, params))
        last = end + 1
    out.append(template[last:])
    return "".join(out)


def names(template: str) -> set[str]:
    """Selector names of the plural blocks, for the catalog consistency check."""
    return {name for _, _, name, _ in blocks(template)} if ", plural," in template else set()
