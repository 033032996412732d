"""The replays today's engines no longer reproduce, as the bot recorded them: `python -m tools.mismatches [--db D]`.

One JSON line per mismatch (game, game type, version, engine versions then and now, what differs, when found);
none printed and exit 0 when every game checked so far replays as its players saw it. Opening the database
upgrades its schema like the bot would, so run it with the new code after an upgrade.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import asdict

from storage import Store, db_path_from_env


async def listed(target: str) -> list[dict[str, object]]:
    store = await Store(target).open()
    try:
        return [asdict(m) for m in await store.mismatches()]
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default=None, help="a SQLite path or postgresql:// URL (default: TABLETOP_DB)")
    args = parser.parse_args(argv)
    for item in asyncio.run(listed(args.db or db_path_from_env())):
        print(json.dumps(item, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
