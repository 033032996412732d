"""local.py script mode: labelled transcript, saved images, exit status on success and on failing lines."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from standin.local import run_local_async
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
