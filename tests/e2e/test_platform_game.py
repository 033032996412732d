"""The platform end to end: ten seats (AI and a player with two), moves built in steps on a 30×30 grid,
the game's own automated phase, an out-of-turn decision settled by its deadline, a restart in the middle
of the automated phase, and a co-operative ending; all through the stand-in."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot import make_bot
from rules.base import SYSTEM
from standin.driver import menu_options
from standin.inprocess import InProcessDiscord
from standin.world import default_world, is_error_output
from storage import StorageUnavailable
from tests.standin_reads import home_channel, named_user

pytestmark = [pytest.mark.timeout(240), pytest.mark.filterwarnings("ignore::DeprecationWarning")]


async def _loaded(d: InProcessDiscord):
    table = d.bot.table
    rows = await table.store.games_in_guild(home_channel(d).guild_id, include_closed=True)
    return await table.inspect(max(rows, key=lambda r: r.id).id)


def _errors(outputs) -> list[str]:
    return [o.text() for o in outputs if is_error_output(o)]


async def _build_move(d: InProcessDiscord, name: str) -> str:
    """Pick a move step by step through `/game act` autocomplete, heading north; returns the whole move."""
    current = ""
    for _ in range(12):
        options = await d.autocomplete(name, "/game act", "action", current)
        assert 0 < len(options) <= 25, options
        values = [o["value"] for o in options]
        if len(values) == 1 and "=" in values[0]:
            return values[0]
        pick = next((v for v in values if v.rstrip().endswith(("move", " N", " NE", " NW"))), None)
        pick = pick or next((v for v in values if "=" in v), values[0])
        if "=" in pick:
            return pick
        current = pick
    raise AssertionError("the move never completed")


async def _move_by_menus(d: InProcessDiscord, name: str) -> list:
    """The same kind of move through the private panel: one menu per step, heading north."""
    out = await d.command(name, "/game view")
    user = named_user(d.world, name)
    for _ in range(12):
        message = max((m for m in d.world.messages.values() if d.world.visible_to(m, user.id)
                       and any(menu.get("custom_id", "").startswith("tgs:b:") for menu, _ in menu_options(m))),
                      key=lambda m: m.id)
        options = menu_options(message)
        assert 0 < len(options) <= 25
        values = [option["value"] for _, option in options]
        pick = next((v for v in values if v.endswith(("/N", "/NE", "/NW", "move"))), None) or next(
            (v for v in values if v.endswith("/go")), values[0])
        out = await d.select(name, message.id, options[0][0]["custom_id"], [pick])
        assert not _errors(out), _errors(out)
        if any(o.kind == "channel" for o in out):
            return out
    raise AssertionError("the move never completed through the menus")


async def _wait_for(d: InProcessDiscord, pattern: str, start: int, seconds: float = 15.0) -> str:
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        for out in d.world.outputs[start:]:
            if out.kind == "channel" and re.search(pattern, out.content):
                return out.content
        await asyncio.sleep(0.1)
    raise AssertionError(f"nothing like {pattern!r} was posted: {[o.content[:80] for o in d.world.outputs[start:]]}")


async def test_the_whole_platform_through_the_stand_in(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TABLETOP_SEED", "5")
    monkeypatch.setenv("TABLETOP_TIMER_SECONDS", "0.2")
    monkeypatch.setenv("TABLETOP_REMINDER_SECONDS", "0.2")
    db = str(tmp_path / "gauntlet.sqlite3")
    world, guild, channel = default_world()
    names = {}
    async with InProcessDiscord(lambda: make_bot(db), world=world, guild=guild, channel=channel) as d:
        out = await d.command("alice", "/game new game:gauntlet ai:6 options:reach=8 window=5 rounds=8 ogre_col=22")
        out += await d.command("bob", "/game join")
        out += await d.command("carol", "/game join")
        out += await d.command("alice", "/game join")  # alice runs a second hero
        out += await d.command("alice", "/game start")
        assert not _errors(out), _errors(out)
        loaded = await _loaded(d)
        assert len(loaded.seats) == 10 and loaded.seats_of(named_user(d.world, "alice").id) == [0, 9]
        # Everyone readies up at once, in any order; the AI seats already have; alice readies both her heroes.
        assert loaded.game.to_act(loaded.state) == frozenset({0, 7, 8, 9})
        for name in ("carol", "alice", "bob", "alice"):
            out = await d.command(name, "/game act action:ready")
            assert not _errors(out), _errors(out)
        assert (await _loaded(d)).state["ready"] == [1, 2, 3, 4, 5, 6, 8, 0, 7, 9]
        names = {s.seat: d.world.users[s.user_id].name for s in loaded.seats if s.user_id}

        # Humans move (built in steps) until the ogre's first automated phase, which crashes half-way.
        crash = {"armed": False}
        real_apply = d.bot.table._apply

        async def flaky_apply(loaded, report, seat, action, user_id, **kw):
            if seat == SYSTEM and crash["armed"] and loaded.state["ogre_steps"] >= 1:
                raise StorageUnavailable("the process died")
            return await real_apply(loaded, report, seat, action, user_id, **kw)

        d.bot.table._apply = flaky_apply
        for _ in range(40):
            loaded = await _loaded(d)
            state = loaded.state
            seat = min(loaded.game.to_act(state))
            crash["armed"] = True
            move = await _build_move(d, names[seat])
            out = await d.command(names[seat], f'/game act action:"{move}"')
            assert not _errors(out), _errors(out)
            if (await _loaded(d)).state["turn"] == SYSTEM:
                break
        loaded = await _loaded(d)
        assert loaded.state["turn"] == SYSTEM and loaded.state["ogre_steps"] == 1, "stopped mid-phase"
    # Restart: the new process finds the half-played automated phase and finishes it by itself.
    async with InProcessDiscord(lambda: make_bot(db), world=world, guild=guild, channel=channel) as d:
        start = len(world.outputs)
        await _wait_for(d, r"ogre moves to", start)
        for _ in range(50):
            loaded = await _loaded(d)
            if loaded.state["turn"] != SYSTEM or loaded.state["pending"]:
                break
            await asyncio.sleep(0.1)
        assert loaded.state["round"] == 2 or loaded.state["pending"]
        timed_out = used_menus = False
        for _ in range(120):
            loaded = await _loaded(d)
            state = loaded.state
            if loaded.game.outcome(state) is not None:
                break
            seat = min(loaded.game.to_act(state))
            if state["pending"]:
                if not timed_out:  # the first decision is left to its deadline: the default applies
                    mark = len(world.outputs)
                    await _wait_for(d, "Time ran out", mark, seconds=20)
                    timed_out = True
                else:
                    out = await d.command(names[seat], "/game act action:dodge")
                    assert not _errors(out), _errors(out)
                continue
            if not used_menus and names[seat] == "bob":
                await _move_by_menus(d, names[seat])
                used_menus = True
                continue
            out = await d.command(names[seat], f'/game act action:"{await _build_move(d, names[seat])}"')
            assert not _errors(out), _errors(out)
        loaded = await _loaded(d)
        outcome = loaded.game.outcome(loaded.state)
        assert outcome is not None, "the game ends"
        assert outcome.winners in (frozenset(), frozenset(range(10))), "co-operative: all win or all lose"
        assert timed_out, "a decision was put to a player out of turn and settled by its deadline"
        assert used_menus, "a move was built through the menus of the private panel"
        assert any(re.search(r"time runs out <t:\d+:R>", o.content) for o in world.outputs if o.kind == "channel"), \
            "the ping says when the decider's time runs out"
        assert loaded.row.status == "finished"
        assert world.problems == [], world.problems
