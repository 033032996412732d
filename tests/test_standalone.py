"""The repository stands alone: nothing reads a folder beside it, and the check that says so can fail."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.outside_reads import OutsideReads
from tests.reference import HQ_QUESTS, HR_CARDS_CSV, HR_RULEBOOK_CARD_LIST, REFERENCE, TRIAL

ROOT = Path(__file__).resolve().parents[1]
#: A path into a sibling folder, written the ways the old tests and tools wrote it.
SIBLING = re.compile(r"\.\./shared|/work/shared|parents\[\d\]\s*/\s*\"shared\"|\.parent\s*/\s*\"shared\"")


def _sources() -> list[Path]:
    skip = {".git", ".venv", "local-images", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
    found = []
    for path in ROOT.rglob("*"):
        if any(part in skip for part in path.relative_to(ROOT).parts):
            continue
        wanted = path.suffix in {".py", ".txt", ".toml", ".cfg", ".ini"} or path.name in {"run", "README.md"}
        if (wanted or path.parent == ROOT / "docs") and path.is_file() and REFERENCE not in path.parents:
            found.append(path)
    return found


def test_no_source_script_or_readme_names_a_sibling_folder() -> None:
    offenders = []
    for path in _sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        if path == Path(__file__):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if SIBLING.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert offenders == []


def test_the_vendored_reference_files_are_in_the_repository_with_their_notice() -> None:
    assert len(sorted(HQ_QUESTS.glob("*.xml"))) == 15
    assert TRIAL.is_file() and HR_CARDS_CSV.is_file() and HR_RULEBOOK_CARD_LIST.is_file()
    notice = (REFERENCE / "README.md").read_text(encoding="utf-8")
    for name in ("HeroScribe", "base-set-cards.csv", "board-walls.json", "rulebook-card-list.es.txt", "Licen"):
        assert name in notice, name


def test_the_recorder_tells_outside_from_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    reads = OutsideReads()
    if reads.sibling is not None:  # else the repository sits right in /tmp, where its siblings are temporary files
        assert reads.outside(str(ROOT.parent / "elsewhere" / "x.xml"))
        assert reads.outside("../elsewhere/x.xml")
    assert not reads.outside("tests/reference.py")
    assert reads.outside("/home/someone/notes.txt")
    assert not reads.outside(str(ROOT / "tests" / "fixtures" / "reference" / "README.md"))
    assert not reads.outside(os.path.join(sys.prefix, "lib", "x.py"))
    assert not reads.outside("/tmp/pytest-of-x/t.sqlite3")
    assert reads.outside("/srv/elsewhere/shared/a.txt")
    reads.hook("open", ("/srv/elsewhere/shared/a.txt", "r", 0))
    reads.hook("os.scandir", ("/srv/elsewhere/shared",))
    reads.hook("open", (3, "r", 0))  # a file descriptor
    reads.hook("exec", ("/srv/elsewhere/shared",))  # not a read of a path
    assert sorted(reads.found) == ["/srv/elsewhere/shared", "/srv/elsewhere/shared/a.txt"]


def _run_pytest_on(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_probe.py"
    test.write_text(body, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.outside_reads", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "-c", os.devnull, str(test)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize("where", ["beside", "elsewhere"])
def test_a_test_that_reads_outside_the_repository_fails_the_run(tmp_path: Path, where: str) -> None:
    if where == "beside" and OutsideReads().sibling is None:
        where = "elsewhere"  # the repository sits right in /tmp: nothing beside it can be told from a temporary file
    base = ROOT.parent if where == "beside" else Path("/srv/elsewhere")
    outside = base / "shared-probe-does-not-exist" / "quest.xml"
    body = (
        "from pathlib import Path\n\n"
        "def test_reads_beside() -> None:\n"
        f"    p = Path({str(outside)!r})\n"
        "    try:\n"
        "        p.read_text()\n"
        "    except OSError:\n"
        "        pass\n"
    )
    result = _run_pytest_on(tmp_path, body)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed" in result.stdout
    assert str(outside) in result.stdout and "test_reads_beside" in result.stdout
    assert "Paths outside the repository were read" in result.stdout


def test_a_test_that_reads_inside_the_repository_passes(tmp_path: Path) -> None:
    body = (
        "from pathlib import Path\n\n"
        "def test_reads_inside() -> None:\n"
        f"    assert Path({str(TRIAL)!r}).read_text(encoding='utf-8')\n"
    )
    result = _run_pytest_on(tmp_path, body)
    assert result.returncode == 0, result.stdout + result.stderr
