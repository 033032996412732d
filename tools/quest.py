"""HeroQuest quest files: `python -m tools.quest check FILE...`, `convert FILE`, `render FILE --out PNG`.

`check` prints one JSON line per file: {"file", "quest", "doors", "secret_doors", "monsters",
"furniture", "traps", "blocked", "heroes", "errors", "warnings", "info"} (every problem found, not only the
first; warnings and info are what the game master is told about a playable quest, info being rulings that need
nothing of them; heroes: the largest team of the four heroes a game of it starts with, 0 when none) and exits 1
when any file fails (2 on bad usage).
`convert` prints a quest (HeroScribe or ours) in our JSON format. `render` draws its starting
position as the GM ("gm") or the players ("hero") see it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import i18n
from rules.base import BadOptions
from rules.heroquest import GAME, catalog
from rules.heroquest.quest import MAX_BYTES, Imported, Quest, QuestError
from rules.heroquest.upload import import_quest
from rules.text import msg

#: The game master's lines that tell a ruling and ask nothing of them (listed apart from the warnings).
INFO = "hq.imp.info."


def _read(path: str) -> Imported:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise QuestError(msg("hq.q.error.too_big", size=size, limit=MAX_BYTES))
        data = p.read_bytes()
    except OSError as exc:
        raise QuestError(msg("hq.q.error.unreadable", file=path, detail=exc.strerror or "?")) from None
    return import_quest(data, p.name)


def check_file(path: str, lang: str = "en") -> dict[str, Any]:
    """The checker's report for one file (never raises for a bad quest)."""
    report: dict[str, Any] = {
        "file": path,
        "quest": None,
        "doors": 0,
        "secret_doors": 0,
        "monsters": {},
        "furniture": 0,
        "traps": 0,
        "blocked": 0,
        "heroes": 0,
        "errors": [],
        "warnings": [],
        "info": [],
    }
    try:
        imported = _read(path)
    except QuestError as exc:
        report["errors"] = [i18n.t(problem, lang) for problem in exc.problems]
        return report
    quest = imported.quest
    report["quest"] = quest.name.es if lang == "es" else quest.name.en
    report.update(quest.summary())
    report["warnings"] = [i18n.t(w, lang) for w in imported.warnings if not w.key.startswith(INFO)]
    report["info"] = [i18n.t(w, lang) for w in imported.warnings if w.key.startswith(INFO)]
    report["heroes"] = _heroes_that_start(quest)
    return report


def _heroes_that_start(quest: Quest) -> int:
    """The largest team of the base heroes (one player each) that a game of `quest` starts with."""
    for n in range(len(catalog.HERO_IDS), 0, -1):
        options = GAME.resolve_options({"heroes": ",".join(catalog.HERO_IDS[:n])})
        try:
            GAME.new_with_quest(quest, options, n + 1, 1)
        except BadOptions:
            continue
        return n
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.quest", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="parse quest files and print one JSON line each")
    check.add_argument("files", nargs="+")
    check.add_argument("--lang", choices=i18n.LANGS, default="en", help="language of error messages")
    convert = sub.add_parser("convert", help="print a quest in our JSON format")
    convert.add_argument("file")
    render = sub.add_parser("render", help="draw a quest's starting position to a PNG")
    render.add_argument("file")
    render.add_argument("--out", required=True)
    render.add_argument("--viewer", choices=("gm", "hero"), default="gm")
    render.add_argument("--lang", choices=i18n.LANGS, default="en")
    args = parser.parse_args(argv)

    if args.command == "check":
        failed = False
        for path in args.files:
            report = check_file(path, args.lang)
            failed = failed or bool(report["errors"])
            print(json.dumps(report, ensure_ascii=False), flush=True)
        return 1 if failed else 0
    try:
        quest = _read(args.file).quest
    except QuestError as exc:
        print(i18n.t(exc.reason, getattr(args, "lang", "en")), file=sys.stderr)
        return 1
    if args.command == "convert":
        print(json.dumps(quest.to_json(), ensure_ascii=False, indent=1))
        return 0
    from renderers.heroquest import quest_view
    from renderers.heroquest import render as draw

    Path(args.out).write_bytes(draw(quest_view(quest, args.viewer), args.lang))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
