"""Replays the two HeroQuest transcripts through `bot.py --local --script` with their recorded seed.

They were written by `tools/hq_transcript.py`, which played each game through the table with the
seed named in the file's "# Run: TABLETOP_SEED=<n>" line; a replay that went differently would hit an
illegal move and fail. When the engine changes, re-record them with the command in each header.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import i18n
from rules.text import msg

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "transcripts"
TIMEOUT = 400
#: Transcript -> the ending that must be printed (the quest ends by the rules), in the table's language: the trial
#: is played on a Spanish server (then its ways out: a rematch, a refused resignation, an abandoned game).
SCRIPTS = {
    "heroquest_trial.txt": (msg("hq.ev.over.lose", reason=msg("hq.reason.all_dead")), "es"),
    "heroquest_own.txt": (msg("hq.ev.over.win", reason=msg("hq.reason.gm")), "en"),
}


def seed_of(path: Path) -> str:
    found = re.search(r"TABLETOP_SEED=(\d+)", path.read_text(encoding="utf-8"))
    assert found, f"{path.name} names no seed"
    return found.group(1)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[subprocess.CompletedProcess[str], Path, float]]:
    """Both transcripts at once, each in its own process with its own seed and database."""
    started = {}
    for name in SCRIPTS:
        path = TRANSCRIPTS / name
        env = {**os.environ, "TABLETOP_SEED": seed_of(path), "LOG_LEVEL": "WARNING"}
        env.pop("TABLETOP_DB", None)
        folder = tmp_path_factory.mktemp(name.replace(".", "_"))
        images = folder / "images"
        # Output goes to files, not pipes: a full pipe nobody reads yet would stall the other bot.
        out_file, err_file = (folder / "stdout.txt").open("w"), (folder / "stderr.txt").open("w")
        proc = subprocess.Popen(
            [sys.executable, "bot.py", "--local", "--script", str(path), "--images", str(images)],
            cwd=ROOT, env=env, stdout=out_file, stderr=err_file, text=True,
        )
        started[name] = (proc, folder, time.monotonic(), out_file, err_file)
    done = {}
    for name, (proc, folder, t0, out_file, err_file) in started.items():
        try:
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        out_file.close()
        err_file.close()
        out = (folder / "stdout.txt").read_text(encoding="utf-8")
        err = (folder / "stderr.txt").read_text(encoding="utf-8")
        done[name] = (subprocess.CompletedProcess(proc.args, proc.returncode, out, err), folder / "images",
                      time.monotonic() - t0)
    return done


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_heroquest_transcript_plays_to_the_end(
        name: str, runs: dict[str, tuple[subprocess.CompletedProcess[str], Path, float]]) -> None:
    result, images, seconds = runs[name]
    tail = result.stdout[-3000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    assert " - OK" in result.stdout, tail
    said, lang = SCRIPTS[name]
    line = i18n.t(said, lang)
    assert line in result.stdout, "the quest ended by the rules"
    ending = result.stdout[result.stdout.index(line):]
    reason = line.split("(")[1]
    # An "[edit ...]" output is the same message again, once its board is drawn (the words go out first).
    posted = "".join(block for block in re.split(r"(?m)^(?=\[)", ending) if not block.startswith("[edit"))
    assert posted.count(reason) == 1, "the end is said once (the summary names the winners, not the reason again)"
    winners = i18n.t(msg("core.end.over", summary=msg("hq.outcome.lose" if ".lose" in said.key else "hq.outcome.win")),
                     lang)
    assert winners in ending, ending[:600]
    assert "[DM -> alice]" in result.stdout, "the game master got the map by DM"
    channel_images = sorted(images.glob("*heroquest-*.png"))
    assert len(channel_images) >= 50
    print(f"{name}: {seconds:.1f}s, {len(channel_images)} board images")
