"""The mixed load with the bot in processes of its own, as on a real server: Discord (the stand-in) and the people.

`python -m tools.mixed_load --channels 0 --standin-channels 50 --bot-processes 1` (or 2+ on PostgreSQL: one process
per shard, the channels spread over guilds of every shard). The stand-in server and the load generator share this
process; each bot is `bot.py --standin URL` in its own, so the bot's process does only the bot's work (its event
loop, its database threads, its AI) and pays for real HTTP and gateway traffic, as it would against Discord.
`reply_ms` runs from the interaction's arrival at the stand-in until the words of the answer reach it, over the
sockets; `picture_ms` from those words to the next picture the bot posts or adds in that channel.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rules import registry
from rules.rng import Rng
from storage import Store
from table import Table

ROOT = Path(__file__).resolve().parents[1]
#: The bot's entry point (a path, named so that no message-key check mistakes it for a key).
BOT_SCRIPT = ROOT.joinpath("bot").with_suffix(".py")


def _say(what: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {what}", file=sys.stderr, flush=True)


def _guilds_per_shard(world: Any, first: Any, shards: int) -> list[Any]:
    """One guild owned by each shard (Discord's rule: shard = (guild id >> 22) % shard count)."""
    by_shard = {(first.id >> 22) % shards: first}
    while len(by_shard) < shards:
        guild = world.add_guild(f"server-{len(world.guilds)}")
        by_shard.setdefault((guild.id >> 22) % shards, guild)
    return [by_shard[s] for s in range(shards)]


def _start_bots(url: str, target: str, token: str, processes: int, folder: str) -> list[subprocess.Popen[bytes]]:
    """Each bot writes to a log file of its own: its drawing workers outlive a pipe's reader."""
    env = {**os.environ, "DISCORD_TOKEN": token, "LOG_LEVEL": "WARNING"}
    procs = []
    for shard in range(processes):
        shards = ["--shard-ids", str(shard), "--shard-count", str(processes)] if processes > 1 else []
        with open(Path(folder) / f"bot-{shard}.log", "wb") as log:
            procs.append(subprocess.Popen([sys.executable, str(BOT_SCRIPT), "--standin", url, "--db", target,
                                           *shards], cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT))
    return procs


def _stop_bots(procs: list[subprocess.Popen[bytes]], folder: str) -> list[str]:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return [(Path(folder) / f"bot-{shard}.log").read_text(errors="replace") for shard in range(len(procs))]


async def process_standin_load(target: str, channels: int, seconds: float, think: float, seed: int,
                               processes: int, folder: str) -> dict[str, Any]:
    """The stand-in mix of `mixed_load.mixed_standin_load`, with the bot in `processes` processes of its own."""
    from standin.driver import APP_COMMAND
    from standin.local import SharedStandin
    from standin.world import Output, default_world, is_error_output
    from tools.mixed_load import AI_SEATS, GAMES, LoopLag, load_average, percentile, typed_moves

    world, guild, first = default_world()
    guilds = _guilds_per_shard(world, guild, processes)
    rooms_at = [first if c == 0 else world.add_text_channel(guilds[c % processes], f"mesa-{c}")
                for c in range(channels)]
    games = [registry.get(g) for g in GAMES]
    answers: dict[int, float] = {}
    waiting: dict[int, asyncio.Event] = {}
    pictures: dict[int, list[float]] = {}

    def seen(out: Output) -> None:
        now = time.perf_counter()
        if out.interaction_id in waiting and out.interaction_id not in answers:
            answers[out.interaction_id] = now
            waiting[out.interaction_id].set()
        if out.attachments:
            pictures.setdefault(out.channel_id, []).append(now)

    world.listeners.append(seen)
    reply_ms: dict[str, list[float]] = {g: [] for g in GAMES}
    picture_ms: list[float] = []
    failures: list[str] = []
    standin = SharedStandin(world=world, guild=guild, channel=first, settle_timeout=60, quiet_period=0.1)
    async with standin:
        procs = _start_bots(standin.server.base_url, target, world.token, processes, folder)
        logs: list[str] = []
        store = None
        try:
            await standin.wait_for_bots(processes, timeout=120)
            _say(f"{processes} bot process(es) ready")

            async def ask(name: str, line: str, at: Any) -> None:
                """Send a command and wait for its answer only (other channels' bots keep the wire busy)."""
                user = standin.user(name)
                inter = world.new_interaction(APP_COMMAND, user, at)
                waiting[inter.id] = asyncio.Event()
                data = standin.command_data(user, at, line)
                standin.server.dispatch("INTERACTION_CREATE", standin.interaction_payload(inter, user, at, data))
                await asyncio.wait_for(waiting[inter.id].wait(), 60)

            rooms = []
            for c, at in enumerate(rooms_at):
                game = games[c % len(games)]
                assert game is not None
                names = [f"u{c}x{i}" for i in range(2 if AI_SEATS[game.id] == 0 else 1)]
                for name in names:
                    world.add_member(guilds[c % processes], standin.user(name))
                await ask(names[0], f"/game new game:{game.id} ai:{AI_SEATS[game.id]}", at)
                for name in names[1:]:
                    await ask(name, "/game join", at)
                await ask(names[0], "/game start", at)
                rooms.append((at, game, names))
            _say(f"{channels} games started")
            await asyncio.sleep(2)  # the bots who open a game move before anyone is measured
            # The people's eyes: this process reads each game as a person reads the board (never writes).
            store = await Store(target).open()
            table = Table(store)
            load_before = load_average()
            outputs_before = len(world.outputs)
            deadline = time.perf_counter() + seconds

            async def player(c: int) -> None:
                at, game, names = rooms[c]
                async for name, line in typed_moves(table, at.id, game, names, Rng.from_seed(seed * 7919 + c),
                                                    think, deadline):
                    user = standin.user(name)
                    data = standin.command_data(user, at, line)
                    inter = world.new_interaction(APP_COMMAND, user, at)
                    answered = waiting[inter.id] = asyncio.Event()
                    started = time.perf_counter()
                    standin.server.dispatch("INTERACTION_CREATE", standin.interaction_payload(inter, user, at, data))
                    try:
                        await asyncio.wait_for(answered.wait(), 60)
                    except TimeoutError:
                        failures.append(f"{game.id}: no answer in 60 s")
                        continue
                    words = answers[inter.id]
                    reply_ms[game.id].append((words - started) * 1000)
                    limit = time.perf_counter() + 30
                    while time.perf_counter() < limit:
                        later = [t for t in pictures.get(at.id, []) if t >= words]
                        if later:
                            picture_ms.append((later[0] - words) * 1000)
                            break
                        await asyncio.sleep(0.02)
                    failures.extend(f"{game.id}: {o.content[:80]}" for o in world.outputs[-40:]
                                    if o.interaction_id == inter.id and is_error_output(o))

            began = time.perf_counter()
            with LoopLag() as lag:
                await asyncio.gather(*(player(c) for c in range(channels)))
            elapsed = time.perf_counter() - began
            _say("load done")
            shown = sum(1 for o in world.outputs[outputs_before:] if o.attachments)
        finally:
            if store is not None:
                await store.close()
            logs = await asyncio.to_thread(_stop_bots, procs, folder)  # the bots say goodbye to the stand-in
    _say("bots stopped")
    crashed = [log[-400:] for log in logs if "Traceback" in log]
    every = [x for values in reply_ms.values() for x in values]
    return {"channels": channels, "bot_processes": processes, "think_s": think, "seconds": round(elapsed, 1),
            "commands": len(every), "reply_ms_p50": round(percentile(every, 50), 1),
            "reply_ms_p99": round(percentile(every, 99), 1),
            "reply_ms_p99_by_game": {g: round(percentile(v, 99), 1) for g, v in reply_ms.items()},
            "pictures_shown": shown, "picture_ms_p50": round(percentile(picture_ms, 50), 1),
            "picture_ms_p99": round(percentile(picture_ms, 99), 1),
            "failures": len(failures) + len(crashed), "failure_samples": sorted(set(failures))[:5] + crashed[:2],
            "standin_loop": lag.figures(), "load_average_before": load_before, "load_average_after": load_average()}
