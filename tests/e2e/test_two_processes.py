"""Two bot processes share one PostgreSQL database, each owning one shard, behind one stand-in server."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from standin.local import SharedStandin
from standin.world import default_world, is_error_output
from storage import Store

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(240)


def guilds_on_both_shards(world, first):
    """The default guild, plus guilds added until shards 0 and 1 (of 2) each own one."""
    by_shard = {(first.id >> 22) % 2: first}
    while len(by_shard) < 2:
        guild = world.add_guild(f"server-{len(world.guilds)}")
        by_shard.setdefault((guild.id >> 22) % 2, guild)
    return by_shard


async def test_two_processes_each_play_the_games_of_their_shard(pg_server, tmp_path) -> None:
    dsn = pg_server.create_database()
    world, guild, channel = default_world()
    guilds = guilds_on_both_shards(world, guild)
    rooms = {shard: world.add_text_channel(g, f"mesa-{shard}") for shard, g in guilds.items()}
    standin = SharedStandin(world=world, guild=guild, channel=channel)
    async with standin:  # (entering gives the same stand-in back, typed only as its base class)
        procs = []
        for shard in (0, 1):
            # Seeded: an unseeded deck can deal the AI a card that makes the player discard first.
            env = {**os.environ, "DISCORD_TOKEN": world.token, "LOG_LEVEL": "WARNING",
                   "TABLETOP_REMINDER_SECONDS": "1", "TABLETOP_SEED": "7"}
            procs.append(subprocess.Popen(
                [sys.executable, str(ROOT / "bot.py"), "--standin", standin.server.base_url, "--db", dsn,
                 "--shard-ids", str(shard), "--shard-count", "2"],
                cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        try:
            await standin.wait_for_bots(2)
            players = {0: "ana", 1: "bruno"}
            for shard, room in rooms.items():
                who = players[shard]
                world.add_member(guilds[shard], standin.user(who))
                outs = await standin.command(who, "/game new game:hero-realms ai:1", channel=room)
                outs += await standin.command(who, "/game start", channel=room)
                assert not [o.text() for o in outs if is_error_output(o)]
            # Both games move at once, each in the process that owns its guild.
            async def play(shard: int) -> list[str]:
                errors = []
                for _ in range(3):
                    for _attempt in range(40):
                        outs = await standin.command(players[shard], "/hr end", channel=rooms[shard])
                        said = [o.text() for o in outs if is_error_output(o)]
                        # The bot seat plays after the person's answer, in its own process: on a busy machine
                        # it may still be thinking when the next command comes; that refusal changes nothing.
                        if not (len(said) == 1 and "(bot)" in said[0]):
                            break
                        await asyncio.sleep(0.5)
                    errors += said
                return errors
            assert await asyncio.gather(play(0), play(1)) == [[], []]
            posts = {shard: [o for o in world.outputs if o.kind in ("channel", "edit") and o.channel_id == room.id]
                     for shard, room in rooms.items()}
            assert all(len(p) >= 4 for p in posts.values()), {s: len(p) for s, p in posts.items()}
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            logs = []
            for proc in procs:
                try:
                    out, _ = proc.communicate(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    out, _ = proc.communicate()
                logs.append(out)
        assert world.problems == [], world.problems
    assert not any("Traceback" in log for log in logs), logs
    store = await Store(dsn).open()
    try:
        games = [g for gid in (guilds[0].id, guilds[1].id) for g in await store.games_in_guild(gid)]
        assert len(games) == 2 and all(g.status == "active" and g.version > 5 for g in games)
    finally:
        await store.close()
