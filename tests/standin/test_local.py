"""local.py script mode: labelled transcript, saved images, exit status on success and on failing lines."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from standin.local import LiveDiscord, Printer, Session, readable, run_local_async
from standin.world import FakeClock, Message, default_world
from tests.standin.testbot import make_bot

pytestmark = pytest.mark.timeout(40)
ROOT = Path(__file__).resolve().parents[2]

GOOD = """\
# a short session
alice> /game new game:catan players:3
bob> click Join
bob> select testbot:seat "Seat 2"
alice> /render
alice> /secret
maria:es> /hola
alice@dm> /game act action:play
!carol> /long
locale dave es
dave> /hola
alice> /feedback
alice> submit "Your thoughts=nice game"
alice> /confirm
alice> click Confirm
users
"""


async def run(tmp_path: Path, script: str) -> tuple[int, str]:
    path = tmp_path / "script.txt"
    path.write_text(script)
    out = io.StringIO()
    status = await run_local_async(make_bot, str(path), str(tmp_path / "images"), out=out)
    return status, out.getvalue()


async def test_script_prints_labelled_outputs_and_saves_images(tmp_path: Path) -> None:
    status, text = await run(tmp_path, GOOD)
    assert status == 0, text
    for expected in (
        "[#mesa] bot: New catan for 3",
        "[Join]",
        "[#mesa] bot: bob joined",
        "[edit #mesa] bob took seat 2",
        "[ephemeral -> alice] only you",
        "[#mesa] bot: hello (es-ES, en-US)",
        "[DM -> alice] alice does play",
        "[ephemeral -> carol] \u26a0\ufe0f too long",
        "[modal -> alice] Feedback: fields ['Your thoughts', 'testbot:text']",
        "[ephemeral -> alice] thanks: nice game",
        "[ephemeral -> alice] confirmed=True",
        "alice (en-US), bob (en-US), maria (es-ES), carol (en-US), dave (es-ES)",
    ):
        assert expected in text, expected
    image = tmp_path / "images" / "001-board.png"
    assert image.read_bytes().startswith(b"\x89PNG")
    assert f"[attachment] {image}" in text
    assert text.rstrip().splitlines()[-1].endswith("- OK")


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("alice> /secret\ncarol> /long\nalice> /secret\n", "line 2: error reply"),
        ("!alice> /secret\n", "line 1: expected an error reply"),
        ("alice> /game nope\n", "line 1: unknown subcommand"),
    ],
)
async def test_script_stops_at_first_failing_line(tmp_path: Path, script: str, reason: str) -> None:
    status, text = await run(tmp_path, script)
    assert status == 1
    assert reason in text
    assert text.count("> alice> /secret") <= 1
    assert "FAILED" in text.rstrip().splitlines()[-1]


def test_command_line_exit_status(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("alice> /secret\ncarol> /long\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "standin.local", "tests.standin.testbot:make_bot", "--script", str(script)]
    proc = subprocess.run(
        [*cmd, "--images", str(tmp_path / "img")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "[ephemeral -> alice] only you" in proc.stdout
    assert "FAILED (line 2: error reply" in proc.stdout


async def play(tmp_path: Path, typed: str, images: Path | None = None) -> tuple[int, str]:
    """Interactive mode (no script) with `typed` as the keyboard."""
    out = io.StringIO()
    folder = images or tmp_path / "images"
    status = await run_local_async(make_bot, None, str(folder), out=out, stdin=io.StringIO(typed))
    return status, out.getvalue()


async def test_images_folder_is_printed_and_a_new_run_keeps_old_images(tmp_path: Path) -> None:
    folder = tmp_path / "images"
    _, first = await run(tmp_path, "alice> /render\nalice> /render\n")
    assert first.splitlines()[0] == f"standin: images are saved in {folder.resolve()}"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == ["001-board.png", "002-board.png"]
    (folder / "notes.txt").write_text("mine")
    status, second = await run(tmp_path, "alice> /render\n")
    assert status == 0, second
    assert sorted(p.name for p in folder.iterdir()) == ["001-board.png", "002-board.png", "003-board.png", "notes.txt"]
    assert all((folder / name).read_bytes() == data for name, data in before.items())
    assert f"[attachment] {folder / '003-board.png'}" in second


async def test_prompt_shows_who_types_and_help_explains_the_local_commands(tmp_path: Path) -> None:
    status, text = await play(tmp_path, "help\n/secret\nbob>\n/secret\ncarol:es> /hola\n/secret\nquit\n")
    assert status == 0, text
    assert "alice> help\n" in text
    for topic in ("/game new", "click Play all", "pick 2", "pick Play Gold", "bob>", "bob:es>", "locale es"):
        assert topic in text, topic
    assert "alice> /secret\n[ephemeral -> alice] only you" in text
    assert "alice> bob>\nbob> /secret\n[ephemeral -> bob] only you" in text
    assert "carol:es> /hola\n[#mesa] bot: hello (es-ES, en-US)" in text
    assert "carol:es> /secret\n[ephemeral -> carol] only you" in text
    assert text.rstrip().splitlines()[-1].endswith("- OK")


async def test_prompt_follows_the_player_the_bot_pings(tmp_path: Path) -> None:
    _, text = await play(tmp_path, "bob>\nalice> /ping who:bob\n/secret\n")
    assert "alice> /ping who:bob\n[#mesa] bot: 👉 @bob — your turn!" in text
    assert "bob> /secret\n[ephemeral -> bob] only you" in text


async def test_menu_options_are_printed_numbered_and_picked_by_number_or_label(tmp_path: Path) -> None:
    script = "alice> /game new game:catan\nbob> pick 2\ncarol> pick seat 3\ndave> click Seat 1\n"
    status, text = await run(tmp_path, script)
    assert status == 0, text
    assert "[Join]\n    [Pick a seat v]  (choose: pick <number> or pick <label>)\n      1. Seat 1\n" in text
    assert "      2. Seat 2\n      3. Seat 3\n" in text
    for line in ("[edit #mesa] bob took seat 2", "[edit #mesa] carol took seat 3", "[edit #mesa] dave took seat 1"):
        assert line in text, line


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("erin> pick 4", "has options 1-3, not 4"),
        ("erin> pick seat", "matches several options: 1. Seat 1; 2. Seat 2; 3. Seat 3"),
        ("erin> pick Table", "has no option 'Table'; options: 1. Seat 1; 2. Seat 2; 3. Seat 3"),
    ],
)
async def test_a_menu_option_that_does_not_exist_says_which_do(tmp_path: Path, line: str, reason: str) -> None:
    status, text = await run(tmp_path, f"alice> /game new game:catan\n{line}\n")
    assert status == 1
    assert reason in text


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("alice> /game act action:'plan ahead'", "alice does plan ahead"),
        ('alice> /game act action:"plan ahead"', "alice does plan ahead"),
        ("alice> /game act action: 'pass: twice'", "alice does pass: twice"),
        ("alice> /game act action:'Ada's Cultist'", "alice does Ada's Cultist"),
        ("alice> /game act action:attack Goblin 2", "alice does attack Goblin 2"),
        ("alice> /game act action:'say \\'hi\\' twice'", "alice does say 'hi' twice"),
    ],
)
async def test_quoted_values_with_spaces(tmp_path: Path, line: str, said: str) -> None:
    status, text = await run(tmp_path, line + "\n")
    assert status == 0, text
    assert f"[#mesa] bot: {said}\n" in text


@pytest.mark.parametrize("line", ["alice> /game act action:'plan ahead", 'alice> /game act action:"plan ahead'])
async def test_an_unterminated_quote_is_explained(tmp_path: Path, line: str) -> None:
    status, text = await run(tmp_path, line + "\n")
    assert status == 1
    assert "line 1: unterminated quote" in text
    assert "never closed" in text


async def test_typos_get_clear_messages_and_leave_no_false_warning(tmp_path: Path) -> None:
    world, guild, channel = default_world(clock=FakeClock())
    out = io.StringIO()
    async with LiveDiscord(make_bot, world=world, guild=guild, channel=channel) as live:
        session = Session(live, out, stop_on_error=False)
        world.listeners.append(Printer(world, str(tmp_path), out))
        await session.run_line(1, "alice> /game new game:catan")
        for typo in ("alice> /gmae new game:catan", "alice> /game nwe", "alice> /game new gmae:catan",
                     "alice> /game new", "alice> click Jion", "alice> pick 9", "alice> clack Join"):
            assert await session.run_line(2, typo)
        world.clock.advance(60)  # type: ignore[attr-defined]
        assert await session.run_line(3, "alice> /secret")
        assert world.problems == []
    text = out.getvalue()
    for message in (
        "!! unknown command /gmae (did you mean /game?); commands: /announce, ",
        "!! unknown subcommand 'nwe' of /game (did you mean new?); subcommands: new, act",
        "!! unknown option 'gmae' for /game new (did you mean game?); options: game, players (optional)",
        "!! missing required option 'game' for /game new; write it as /game new game:...",
        "!! no visible message has a component 'Jion' (did you mean 'Join'?); the newest buttons alice can see: [Join]",
        "!! the newest menu alice can see has options 1-3, not 9",
        "!! cannot read 'clack Join': expected /command, click, pick, select or submit; type help",
        "[ephemeral -> alice] only you",
    ):
        assert message in text, message
    assert "no response" not in text


async def test_mentions_are_printed_as_names(tmp_path: Path) -> None:
    status, text = await run(tmp_path, "alice> /ping who:bob\nalice@dm> /ping who:alice\n")
    assert status == 0, text
    assert "[#mesa] bot: 👉 @bob — your turn! (in #mesa)" in text
    assert "[DM -> alice] 👉 @alice — your turn! (in #DM)" in text
    assert "<@" not in text and "<#" not in text


def test_readable_names_users_roles_and_channels() -> None:
    world, guild, channel = default_world()
    alice = world.add_user("alice")
    role = world.add_member(guild, world.add_user("mod"), permissions=["manage_threads"]).role_ids[0]
    text = f"<@{alice.id}> <@!{alice.id}> <@&{role}> <#{channel.id}> <@999> <#999>"
    assert readable(world, text) == f"@alice @alice @{guild.roles[role].name} #mesa <@999> <#999>"


def test_a_message_arriving_while_the_prompt_waits_is_printed_below_it_and_the_prompt_comes_back(
    tmp_path: Path,
) -> None:
    world, _, channel = default_world()
    out = io.StringIO()
    printer = Printer(world, str(tmp_path), out)
    world.listeners.append(printer)
    printer.waiting = lambda: "bob> "
    out.write("bob> ")
    text = "Ada (IA) ends her turn."
    msg = world.add_message(Message(world.snowflake(), channel.id, world.bot_user.id, content=text))
    world.record_output(msg)
    assert out.getvalue() == "bob> \n[#mesa] bot: Ada (IA) ends her turn.\nbob> "
