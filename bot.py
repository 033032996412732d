"""Start-up: the bot on Discord (DISCORD_TOKEN), or `--local` against the offline Discord stand-in."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.delivery import LATE, reply
from cogs.games import EXTENSIONS
from cogs.guard import commands_running, option_name, tell_failure
from cogs.translator import CatalogTranslator, locale_of
from cogs.ui import GameButton, GameSelect
from rules.text import Lit, Msg, msg
from storage import StorageError, Store, db_path_from_env
from table import Table

log = logging.getLogger("tabletop")

NO_TOKEN = (
    "No DISCORD_TOKEN found. Put DISCORD_TOKEN=<your bot token> in the environment or in a .env file\n"
    "next to bot.py (see README.md, 'Add the bot to a server'), or try it offline with:\n"
    "    python bot.py --local"
)


class TabletopBot(commands.AutoShardedBot):
    """Opens the store, loads every cog, registers persistent buttons and syncs slash commands."""

    @property
    def busy(self) -> int:
        """Commands and clicks still being handled (the bots' moves after a person's included), and pictures still
        to be added to their messages: a script played with `--local --script` goes on once everything it set off
        is shown, so on a loaded machine no picture is skipped for the next line's."""
        return commands_running() + LATE.busy()

    def __init__(self, *, db_path: str, dev_guild_id: int | None = None, sync: bool = True,
                 shard_ids: list[int] | None = None, shard_count: int | None = None) -> None:
        intents = discord.Intents.default()  # slash commands need no privileged intents
        # Nothing the bot sends pings anyone unless that message names them (cogs/delivery.py `_only`): a name
        # from a file or an option that reads "<@1234>" or "@everyone" never pings, in any send, edit or reply.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         shard_ids=shard_ids, shard_count=shard_count,  # type: ignore[arg-type]  # None: all shards
                         allowed_mentions=discord.AllowedMentions.none())
        self.db_path = db_path
        #: This process's share of the games when several processes share one PostgreSQL database.
        self.game_shards = (tuple(shard_ids), shard_count) if shard_ids is not None and shard_count else None
        self.dev_guild_id = dev_guild_id
        self.sync_commands = sync
        self.store: Store | None = None
        self.table: Table | None = None

    async def setup_hook(self) -> None:
        self.store = await Store(self.db_path).open()
        self.table = Table(self.store, seed_source=_seed_source(), shards=self.game_shards,
                           previews=os.environ.get("TABLETOP_PREVIEW_GAMES", "").strip() == "1", defer_auto=True)
        await self.tree.set_translator(CatalogTranslator())
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]  # discord.py's documented hook
        self.add_dynamic_items(GameButton, GameSelect)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.sync_commands:
            if self.dev_guild_id:
                guild = discord.Object(id=self.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """What discord.py refused before a command ran (a payload that does not match the synced command,
        a value it cannot convert) gets a localized refusal; anything else is logged and politely reported."""
        if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
            log.warning("stale or crafted command: %s", error)
            refusal = msg("bot.error.stale_command")
        elif isinstance(error, app_commands.TransformerError):
            log.warning("unreadable option value: %s", error)
            refusal = msg("bot.error.bad_value", option=_failed_option(interaction, error.value))
        else:
            log.error("unhandled command error", exc_info=error)
            await tell_failure(interaction)
            return
        try:
            await reply(interaction, i18n.t(refusal, locale_of(interaction)), error=True)
        except discord.HTTPException:
            log.warning("could not tell the user about the refusal")

    async def close(self) -> None:
        await LATE.finish(timeout=5.0)
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def _failed_option(interaction: discord.Interaction, value: object) -> Msg | Lit:
    """The option whose raw value discord.py could not convert, by its localized name where known."""
    command = interaction.command
    params = {p.name: p for p in getattr(command, "parameters", None) or []}
    data: Any = interaction.data or {}
    pending: list[Any] = list(data.get("options") or [])
    while pending:
        opt = pending.pop()
        pending.extend(opt.get("options") or [])
        if "value" in opt and str(opt["value"]) == str(value):
            param = next((p for p in params.values() if opt["name"] in (p.name, p.display_name)), None)
            return option_name(param) if param is not None else Lit(str(opt["name"]), str(opt["name"]))
    return Lit("?", "?")


def _seed_source() -> Callable[[], int] | None:
    """TABLETOP_SEED makes game seeds predictable (scripted transcripts, reproducible bug reports)."""
    raw = os.environ.get("TABLETOP_SEED", "").strip()
    if not raw.isdigit():
        return None
    seeds = itertools.count(int(raw))
    return lambda: next(seeds)


def make_bot(db_path: str | None = None, dev_guild_id: int | None = None, *, shard_ids: list[int] | None = None,
             shard_count: int | None = None) -> TabletopBot:
    return TabletopBot(db_path=db_path or db_path_from_env(), dev_guild_id=dev_guild_id, shard_ids=shard_ids,
                       shard_count=shard_count)


def check_storage(target: str) -> str | None:
    """Open the database once before anything starts: a problem is one line saying what to do, or None."""

    async def probe() -> None:
        store = await Store(target).open()
        await store.close()

    try:
        asyncio.run(probe())
    except StorageError as exc:
        return exc.reason
    return None


def _shards(raw_ids: str | None, raw_count: str | None) -> tuple[list[int] | None, int | None]:
    """`--shard-ids 0,1 --shard-count 4` (or TABLETOP_SHARD_IDS / TABLETOP_SHARD_COUNT); both or neither."""
    ids_text = raw_ids if raw_ids is not None else os.environ.get("TABLETOP_SHARD_IDS", "")
    count_text = raw_count if raw_count is not None else os.environ.get("TABLETOP_SHARD_COUNT", "")
    if not ids_text.strip() and not count_text.strip():
        return None, None
    try:
        ids = [int(x) for x in ids_text.replace(" ", "").split(",") if x]
        count = int(count_text)
    except ValueError as exc:
        raise SystemExit("shard ids are numbers separated by commas, and the shard count a number") from exc
    if not ids or count < 1 or any(not 0 <= i < count for i in ids):
        raise SystemExit(f"shard ids must be between 0 and {max(count, 1) - 1}, and both options are needed")
    return ids, count


def _load_dotenv() -> None:
    try:
        from dotenv import load_dotenv
    except ImportError:  # the .env file is a convenience; the environment works without it
        return
    load_dotenv(Path(__file__).resolve().parent / ".env")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The tabletop game master bot.")
    parser.add_argument("--local", action="store_true", help="run against the offline Discord stand-in")
    parser.add_argument("--script", metavar="FILE", help="with --local: replay a transcript and exit")
    parser.add_argument("--images", metavar="DIR", default="local-images", help="with --local: where images go")
    parser.add_argument("--db", metavar="PATH",
                        help="SQLite file or postgresql:// URL (default: $TABLETOP_DB or data/runtime/)")
    parser.add_argument("--shard-ids", metavar="IDS", help="this process's shards, e.g. 0,1 (with --shard-count)")
    parser.add_argument("--standin", metavar="URL",
                        help="connect to an offline stand-in already running at URL instead of Discord (tests)")
    parser.add_argument("--shard-count", metavar="N", help="the total number of shards across processes")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    _load_dotenv()

    if args.local or args.script:
        from standin.local import run_local

        db = args.db or os.environ.get("TABLETOP_DB")
        if db is None:
            import tempfile

            db = str(Path(tempfile.mkdtemp(prefix="tabletop-local-")) / "local.sqlite3")
        problem = check_storage(db)
        if problem:
            print(f"Cannot start: {problem}", file=sys.stderr)
            return 2
        return run_local(lambda: make_bot(db), args.script, args.images)

    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    if args.standin:
        from standin.patch import point_discord_at

        point_discord_at(args.standin)
    shard_ids, shard_count = _shards(args.shard_ids, args.shard_count)
    db = args.db or db_path_from_env()
    problem = check_storage(db)
    if problem:
        print(f"Cannot start: {problem}", file=sys.stderr)
        return 2
    dev_guild = os.environ.get("DEV_GUILD_ID", "").strip()
    bot = make_bot(db, int(dev_guild) if dev_guild.isdigit() else None, shard_ids=shard_ids,
                   shard_count=shard_count)
    bot.run(token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
