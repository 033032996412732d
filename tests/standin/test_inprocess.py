"""In-process stand-in: the test bot's interactions produce the expected outputs through real discord.py code."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from discord.http import Route

from standin import rest
from standin.driver import DriverError
from standin.inprocess import InProcessDiscord, StandinProblems
from standin.world import FakeClock, default_world, is_error_output
from tests.standin.testbot import DemoBot, make_bot, make_plain_bot
from tests.standin_reads import home_channel, home_guild, named_user

pytestmark = pytest.mark.timeout(20)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def d() -> AsyncIterator[InProcessDiscord]:
    async with InProcessDiscord(make_bot) as session:
        yield session


def bot_of(d: InProcessDiscord) -> DemoBot:
    return d.bot


async def test_startup_syncs_commands_and_is_ready(d: InProcessDiscord) -> None:
    names = {c["name"] for c in d.world.global_commands}
    assert {"game", "render", "dm", "secret", "hello"} <= names
    assert d.bot.is_ready()
    assert d.bot.get_guild(home_guild(d).id) is not None


async def test_subcommand_posts_message_with_persistent_view(d: InProcessDiscord) -> None:
    [out] = await d.command("alice", "/game new game:catan players:3")
    assert (out.kind, out.content) == ("channel", "New catan for 3")
    assert ("testbot:join", "Join") in out.components
    assert out.channel_id == home_channel(d).id


async def test_button_click_reaches_persistent_view_callback(d: InProcessDiscord) -> None:
    [post] = await d.command("alice", "/game new game:azul")
    [out] = await d.click("bob", post, "testbot:join")
    bob = named_user(d.world, "bob")
    assert out.content == "bob joined"
    assert ("join", bob.id) in bot_of(d).events
    # a click by label on the most recent visible message works too
    [again] = await d.click("carol", None, "Join")
    assert again.content == "carol joined"


async def test_select_edits_the_message(d: InProcessDiscord) -> None:
    [post] = await d.command("alice", "/game new game:azul")
    [out] = await d.select("bob", post, "testbot:seat", ["Seat 2"])
    assert out.kind == "edit"
    assert out.message_id == post.message_id
    assert out.content == "bob took seat 2"


async def test_autocomplete_returns_choices(d: InProcessDiscord) -> None:
    choices = await d.autocomplete("alice", "/game act", focused_option="action", value="pla")
    assert [c["value"] for c in choices] == ["play", "plan"]
    games = await d.autocomplete("alice", "/game new players:2", focused_option="game", value="hero")
    assert [c["name"] for c in games] == ["hero-realms", "heroquest"]


async def test_defer_then_followup_with_png(d: InProcessDiscord) -> None:
    [out] = await d.command("alice", "/render")
    assert (out.kind, out.content) == ("channel", "Board")
    [(name, data)] = out.attachments
    assert name == "board.png" and data.startswith(PNG_MAGIC)


async def test_dm_and_closed_dms(d: InProcessDiscord) -> None:
    outs = await d.command("alice", "/dm")
    alice = named_user(d.world, "alice")
    assert [(o.kind, o.recipient_id) for o in outs] == [("dm", alice.id), ("ephemeral", alice.id)]
    bob = d.user("bob")
    d.world.close_dms(bob)
    [out] = await d.command(bob, "/dm")
    assert ("forbidden", 50007) in bot_of(d).events
    assert out.kind == "ephemeral" and is_error_output(out)


async def test_ephemeral_reply(d: InProcessDiscord) -> None:
    [out] = await d.command("alice", "/secret")
    assert (out.kind, out.recipient_id, out.content) == ("ephemeral", named_user(d.world, "alice").id, "only you")
    with pytest.raises(DriverError):
        await d.click("bob", out, "anything")


async def test_localized_command_name(d: InProcessDiscord) -> None:
    hello = next(c for c in d.world.global_commands if c["name"] == "hello")
    assert hello["name_localizations"] == {"es-ES": "hola"}
    [out] = await d.command(d.user("maria", locale="es-ES"), "/hola")
    assert out.content == "hello (es-ES, en-US)"
    [out] = await d.command("alice", "/hello")
    assert out.content.startswith("hello (en-US")


async def test_response_after_deadline_gets_unknown_interaction(d: InProcessDiscord) -> None:
    d.world.interaction_deadline = 0.05
    bot_of(d).slow_delay = 0.15
    assert await d.command("alice", "/slow") == []
    assert ("notfound", 10062) in bot_of(d).events
    assert any("no response" in p for p in d.world.problems)
    d.world.problems.clear()


async def test_rate_limited_route_is_retried_by_discord_py(d: InProcessDiscord) -> None:
    d.world.rate_limit("POST /channels/{channel_id}/messages", times=1, retry_after=0.05)
    outs = await d.command("alice", "/announce text:hi")
    assert [(o.kind, o.content) for o in outs] == [("channel", "hi"), ("ephemeral", "posted")]
    statuses = [s for m, p, s in d.world.request_log if m == "POST" and p.endswith("/messages")]
    assert statuses == [429, 200]


async def test_answers_carry_rate_limit_headers_with_room_as_discords_do(d: InProcessDiscord) -> None:
    """Without them discord.py takes each route for a one-request bucket and sleeps after every request, a pause
    (and a turn of the event loop) that Discord never causes."""
    await d.command("alice", "/announce text:hi")
    channel = home_channel(d)
    answer = rest.handle(d.world, "GET", f"/api/v10/channels/{channel.id}",
                         headers={"Authorization": f"Bot {d.world.token}"})
    assert answer.status == 200
    assert int(answer.headers["X-RateLimit-Remaining"]) > 0 and answer.headers["X-RateLimit-Bucket"]
    buckets = list(bot_of(d).http._buckets.values())  # discord.py read them: its buckets are Discord-sized
    assert buckets and all(b.limit > 1 and b.remaining > 0 for b in buckets)


async def test_invalid_body_gets_50035(d: InProcessDiscord) -> None:
    [out] = await d.command("alice", "/long")
    event = next(e for e in bot_of(d).events if e[0] == "http")
    assert event[1:3] == (400, 50035)
    assert "content" in event[3] and "2000" in event[3]
    assert is_error_output(out)


async def test_attachment_option_uploads_local_file(d: InProcessDiscord, tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(b"hello")
    [out] = await d.command("alice", f'/upload file:"{path}"')
    assert out.content == "got deck.txt (5 bytes)"


async def test_command_in_dm_channel(d: InProcessDiscord) -> None:
    [out] = await d.command("alice", "/secret", channel="dm")
    assert out.kind == "ephemeral"
    [out] = await d.command("alice", "/game act action:play", channel="dm")
    assert (out.kind, out.recipient_id) == ("dm", named_user(d.world, "alice").id)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("/nope", "unknown command"),
        ("/game", "needs a subcommand"),
        ("/game fly", "unknown subcommand"),
        ("/game new", "missing required option 'game'"),
        ("/game new game:x colour:red", "unknown option 'colour'"),
        ("/game new game:x players:9", "outside 1..6"),
        ("/game new game:x players:two", "expects an integer"),
        ("/game new game x", "unexpected argument"),
    ],
)
async def test_driver_rejects_bad_command_lines(d: InProcessDiscord, line: str, fragment: str) -> None:
    with pytest.raises(DriverError, match=fragment):
        await d.command("alice", line)


async def test_unknown_route_and_logged_errors_fail_the_session() -> None:
    with pytest.raises(StandinProblems, match="unknown route GET /nowhere"):
        async with InProcessDiscord(make_bot) as d:
            await d.bot.http.request(Route("GET", "/nowhere"))


async def test_member_permissions_reach_the_bot(d: InProcessDiscord) -> None:
    [out] = await d.command("alice", "/perms")
    assert out.content == "channels=False threads=False roles=False"
    d.user("mod", permissions=["manage_channels", "manage_threads"])
    [out] = await d.command("mod", "/perms")
    assert out.content == "channels=True threads=True roles=True"


async def test_defer_edit_original_and_ephemeral_followup(d: InProcessDiscord) -> None:
    outs = await d.command("alice", "/think")
    assert [(o.kind, o.content) for o in outs] == [
        ("ephemeral", "thought"),
        ("ephemeral", "also this"),
        ("edit", ""),
    ]
    assert outs[0].message_id == outs[2].message_id
    assert outs[2].recipient_id == named_user(d.world, "alice").id
    assert is_error_output(outs[2]) and not is_error_output(outs[0])
    assert "Oops" in outs[2].text()


async def test_modal_is_shown_and_submitted(d: InProcessDiscord) -> None:
    assert await d.command("alice", "/feedback") == []
    shown = d.last_interaction
    assert shown is not None and shown.modal is not None and shown.modal["title"] == "Feedback"
    with pytest.raises(DriverError, match="required"):
        await d.submit_modal("alice", {})
    [out] = await d.submit_modal("alice", {"Your thoughts": "great"})
    assert (out.kind, out.content) == ("ephemeral", "thanks: great")


async def test_bot_exception_is_reported_as_problem(d: InProcessDiscord) -> None:
    await d.command("alice", "/boom")
    assert any("kaboom" in p for p in d.world.problems), d.world.problems
    assert any("no response" in p for p in d.world.problems)
    d.world.problems.clear()


async def test_threads_and_channel_files_from_the_bot(d: InProcessDiscord) -> None:
    channel = d.bot.get_channel(home_channel(d).id)
    thread = await channel.create_thread(name="table-1", type=discord.ChannelType.public_thread)
    await d.settle()
    assert d.bot.get_channel(thread.id) is not None
    await thread.send("in thread", file=discord.File(io.BytesIO(b"abc"), "notes.txt"))
    out = d.world.outputs[-1]
    assert (out.kind, out.channel_id, out.attachments) == ("channel", thread.id, [("notes.txt", b"abc")])
    [reply] = await d.command("alice", "/game act action:pass", channel=d.world.channels[thread.id])
    assert reply.channel_id == thread.id


async def test_deadline_with_fake_clock_at_rest_level() -> None:
    clock = FakeClock()
    world, _guild, channel = default_world(clock=clock)
    user = world.add_user("alice")
    late = world.new_interaction(2, user, channel)
    on_time = world.new_interaction(2, user, channel)
    clock.advance(3.5)
    body = json.dumps({"type": 4, "data": {"content": "hi"}}).encode()
    resp = rest.handle(
        world, "POST", f"/interactions/{late.id}/{late.token}/callback", body=body, content_type="application/json"
    )
    assert (resp.status, resp.body["code"]) == (404, 10062)
    on_time.created_at = clock()
    resp = rest.handle(
        world,
        "POST",
        f"/interactions/{on_time.id}/{on_time.token}/callback",
        body=body,
        content_type="application/json",
    )
    assert resp.status == 204
    again = rest.handle(
        world,
        "POST",
        f"/interactions/{on_time.id}/{on_time.token}/callback",
        body=body,
        content_type="application/json",
    )
    assert (again.status, again.body["code"]) == (400, 40060)
    assert [i.id for i in world.check_deadlines()] == [late.id]


async def test_plain_unsharded_bot_works_too() -> None:
    async with InProcessDiscord(make_plain_bot) as d:
        [post] = await d.command("alice", "/game new game:azul")
        [out] = await d.click("bob", post, "Join")
        assert out.content == "bob joined"
        await d.bot.change_presence(activity=discord.Game("azul"))
        presence = d.world.presence
        assert presence is not None and presence["activities"][0]["name"] == "azul"


async def test_command_waiting_for_a_click_settles_and_resumes(d: InProcessDiscord) -> None:
    # the command's task sits in view.wait(): that counts as waiting for the user, not as busy
    [ask] = await d.command("alice", "/confirm")
    assert (ask.kind, ask.content) == ("ephemeral", "Sure?")
    [done] = await d.click("alice", ask, "Confirm")
    assert (done.kind, done.content) == ("ephemeral", "confirmed=True")
