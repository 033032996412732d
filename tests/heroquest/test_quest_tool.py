"""The quest checker tool: one JSON line per file, non-zero exit when any file fails."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.heroquest.hs_fixture import STAIRWAY, xml
from tests.reference import HQ_QUESTS
from tools import quest as tool

ROOT = Path(__file__).resolve().parents[2]
QUESTS = HQ_QUESTS
OURS = sorted((ROOT / "data" / "heroquest" / "quests").glob("*.json"))


def test_all_base_quests_pass(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in sorted(QUESTS.glob("*.xml"))] + [str(p) for p in OURS]
    assert tool.main(["check", *files]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 18
    for line in lines:
        assert set(line) == {
            "file",
            "quest",
            "doors",
            "secret_doors",
            "monsters",
            "furniture",
            "traps",
            "blocked",
            "heroes",
            "errors",
            "warnings",
            "info",
        }
        assert line["errors"] == [] and line["quest"] and line["heroes"] == 4 and line["info"] == []
    trial = next(line for line in lines if line["quest"] == "The Trial")
    assert trial["monsters"]["chaos_warrior"] == 4 and trial["doors"] == 12 and trial["furniture"] == 15


def test_bad_files_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text('<quest name="x" version="1.0"><board><object id="IcyRiver1x8" left="1" top="15"/></board></quest>')
    good = QUESTS / "HQBase-01-TheTrial_EU.xml"
    assert tool.main(["check", str(good), str(bad), str(tmp_path / "missing.xml")]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [bool(line["errors"]) for line in lines] == [False, True, True]
    assert "IcyRiver1x8" in lines[1]["errors"][0] and "line 1, square A20" in lines[1]["errors"][0]
    assert lines[1]["quest"] is None
    assert tool.main(["check", "--lang", "es", str(bad)]) == 1
    assert "línea 1, casilla A20" in json.loads(capsys.readouterr().out)["errors"][0]


def test_every_problem_and_every_warning_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text(xml([STAIRWAY, ("Orc", 7, 3, "sideways"), ("Goblin", "seven", 3, "downward"),
                           ("Table", 25, 2, "downward"), ("IcyRiver1x8", 12, 15, "downward")]))
    assert tool.main(["check", str(broken)]) == 1
    errors = json.loads(capsys.readouterr().out)["errors"]
    assert len(errors) == 4
    assert "sideways" in errors[0] and "seven" in errors[1] and "square AA2" in errors[2] and "IcyRiver1x8" in errors[3]
    # a playable quest with things the game master should know: listed as warnings, exit code 0
    odd = tmp_path / "odd.xml"
    odd.write_text(xml([STAIRWAY, ("SingleBlockedSquare", 1, 1, "downward"), ("Dragon", 4, 3, "downward")],
                       darks=[(1, 1, 1, 1)]))
    assert tool.main(["check", str(odd)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["errors"] == [] and line["blocked"] == 1
    assert any("Dragon" in w and "line 7, square D3" in w for w in line["warnings"])
    assert any("square A1" in w and "dark" in w for w in line["warnings"])


def test_convert_and_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tool.main(["convert", str(QUESTS / "HQBase-00-TheMaze_EU.xml")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "heroquest-quest" and data["name"]["en"] == "The Maze"
    out = tmp_path / "maze.png"
    assert tool.main(["render", str(QUESTS / "HQBase-00-TheMaze_EU.xml"), "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_module_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.quest", "check", str(QUESTS / "HQBase-01-TheTrial_EU.xml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["quest"] == "The Trial"
