"""The docs name only slash commands and options the bot has; every relative link in docs/ and the README resolves."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "data" / "i18n"
SNAPSHOT = ROOT / "tests" / "snapshots" / "commands.json"

#: A slash command as a page writes it: `/game new`, `/hq gm map`, `/hr hand|play`, `/game new game:heroquest`.
#: The slash must start a word (not a path such as data/hero_realms or a URL) and the group must not go on as a path.
SLASH = re.compile(r"(?<![\w/.:=~<>-])/([a-z][a-z_-]*)(?![\w/.-])((?: [a-z_]+(?:\|[a-z_]+)*(?![\w:/.-]))*)"
                   r"((?: [a-z_]+:[^\s`]*)*)")
#: A markdown link or image: [text](target) or ![alt](target "title").
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~)")

Tree = dict[str, "Tree"]


def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def command_tree(lang: str) -> Tree:
    """The slash commands named in one language's catalogs: a `cmd.*` key with a `.desc` beside it is a command or
    group whose name is the key's text (`cmd.hq.gm.map` is `map` under `gm` under `hq`); other `cmd.*` keys are
    option descriptions and option names."""
    en = catalog("en")
    texts = catalog(lang)
    keys = sorted(k for k in en if k.startswith("cmd.") and f"{k}.desc" in en)
    tree: Tree = {}
    for key in keys:
        parts = key.split(".")
        node = tree
        for depth in range(2, len(parts) + 1):
            prefix = ".".join(parts[:depth])
            if prefix in en and f"{prefix}.desc" in en:
                node = node.setdefault(texts[prefix], {})
    return tree


def snapshot_paths() -> dict[tuple[str, ...], set[str]]:
    """Every command path in the reviewed snapshot of the synced commands (English and Spanish names), with the
    option names (both languages) of each leaf."""
    found: dict[tuple[str, ...], set[str]] = {}

    def walk(node: dict, names: tuple[str, ...], es: tuple[str, ...]) -> None:
        here = (*names, node["name"])
        here_es = (*es, node.get("name_localizations", {}).get("es-ES", node["name"]))
        subs = [o for o in node.get("options", []) if o["type"] in (1, 2)]
        options = {n for o in node.get("options", []) if o["type"] not in (1, 2)
                   for n in (o["name"], *o.get("name_localizations", {}).values())}
        found[here] = options
        found[here_es] = options
        for sub in subs:
            walk(sub, here, here_es)

    for command in json.loads(SNAPSHOT.read_text(encoding="utf-8")):
        walk(command, (), ())
    return found


TREES = {"en": command_tree("en"), "es": command_tree("es")}
SNAPSHOT_PATHS = snapshot_paths()


def paths(tree: Tree, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for name, sub in tree.items():
        out.add((*prefix, name))
        out |= paths(sub, (*prefix, name))
    return out


def problems_in(text: str) -> list[str]:
    """What is wrong with each slash command the text names: an unknown group or subcommand (either language;
    `a|b` alternatives each checked), or an option `name:` the command does not have (when the reviewed snapshot
    holds that command)."""
    problems: list[str] = []
    for match in SLASH.finditer(text):
        group, words, options = match.group(1), match.group(2).split(), match.group(3).split()
        known = any(_resolves(TREES[lang], group, words, options, problems, match.group(0)) for lang in TREES)
        if not known and not any(p.startswith(f"`{match.group(0)}`") for p in problems):
            problems.append(f"`{match.group(0)}`: no such command")
    return problems


def _resolves(tree: Tree, group: str, words: list[str], options: list[str], problems: list[str],
              shown: str) -> bool:
    if group not in tree:
        return False
    frontier: list[tuple[tuple[str, ...], Tree]] = [((group,), tree[group])]
    for word in words:
        if all(not node for _, node in frontier):
            break                                     # a leaf: what follows is prose or option names
        nxt: list[tuple[tuple[str, ...], Tree]] = []
        for path, node in frontier:
            for alternative in word.split("|"):
                if alternative not in node:
                    return False
                nxt.append(((*path, alternative), node[alternative]))
        frontier = nxt
    for path, _node in frontier:
        known = SNAPSHOT_PATHS.get(path)
        for option in options:
            name = option.split(":", 1)[0]
            if known is not None and name not in known:
                problems.append(f"`{shown}`: /{' '.join(path)} has no option {name!r} (it has {sorted(known)})")
    return True


def doc_pages() -> list[Path]:
    return sorted([*(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "games").glob("*.md")])


def test_the_catalog_tree_is_the_registered_tree() -> None:
    """The catalog reading above finds every command the bot registered (so the checks below are not vacuous)."""
    found = paths(TREES["en"]) | paths(TREES["es"])
    missing = sorted(p for p in SNAPSHOT_PATHS if p not in found)
    assert not missing, f"commands in tests/snapshots/commands.json the catalogs do not name: {missing}"
    assert ("hq", "gm", "map") in found and ("partida", "nueva") in found


def test_the_player_and_operator_pages_exist() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in doc_pages()}
    wanted = {"docs/playing.md", "docs/operators.md", "docs/tools.md"} | {
        f"docs/games/{g}.md" for g in ("hero-realms", "heroquest", "gorgasali", "guerra-de-indagar", "kings-armory")}
    assert wanted <= names, f"missing pages: {sorted(wanted - names)}"


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_slash_command_a_page_names_exists(page: Path) -> None:
    problems = problems_in(page.read_text(encoding="utf-8"))
    assert not problems, f"{page.relative_to(ROOT)} names commands the bot does not have:\n" + "\n".join(problems)


@pytest.mark.parametrize("text, bad", [
    ("Use `/game new game:hero-realms ai:1` then `/game start`.", False),
    ("`/hq gm map|place|reveal` and `/partida nueva`", False),
    ("`/hr hand|play|ability|buy|attack|discard|decide|end` and data/hero_realms/NOTES.md", False),
    ("Use `/game teleport` to move.", True),
    ("Use `/hr fly`.", True),
    ("`/hq gm map|fly`", True),
    ("`/zz help`", True),
    ("`/game new colour:red`", True),
])
def test_the_checker_catches_a_made_up_command(text: str, bad: bool) -> None:
    assert bool(problems_in(text)) is bad, problems_in(text)


def links_in(page: Path) -> list[str]:
    """Relative link targets of a markdown page, code blocks left out."""
    targets, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue                              # a URL (https:, mailto:) or an anchor on the same page
            targets.append(target.split("#", 1)[0])
    return targets


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file(page: Path) -> None:
    broken = [t for t in links_in(page) if not (page.parent / t).exists()]
    assert not broken, f"{page.relative_to(ROOT)} links to files that do not exist: {broken}"


def test_the_link_reader_sees_links(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("[a](real.md) [b](https://x.org) [c](#top)\n```\n[d](in-code.md)\n```\n![e](img/x.png)\n",
                    encoding="utf-8")
    assert links_in(page) == ["real.md", "img/x.png"]


def test_every_tool_is_on_the_tools_page() -> None:
    page = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    tools = sorted(p.stem for p in (ROOT / "tools").glob("*.py") if p.stem != "__init__")
    missing = [t for t in tools if f"tools.{t}" not in page and f"tools/{t}.py" not in page]
    assert not missing, f"docs/tools.md does not describe: {missing}"
