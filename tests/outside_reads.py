"""A pytest plugin that fails the run when code, a test or a tool reads a path outside the repository.

The repository must stand alone: a fresh clone with nothing beside it passes its tests. An audit hook
(`sys.addaudithook`) sees every `open`, `os.listdir` and `os.scandir` made in the test process; a path that
lies outside the repository, the temporary folder, the Python installation and the system's own files (devices,
/etc, time zones) is recorded with the test that read it, and the session fails at its end with the list.
Loaded from tests/conftest.py; `python -m pytest -p tests.outside_reads` loads it for any other test file.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parent.parent)

#: Audit events that name a path read from (the first argument).
WATCHED = frozenset({"open", "os.listdir", "os.scandir"})

#: The system's own places any program may read: devices, process info, configuration, and the installed system
#: (/usr: time zones, locales, certificates, Debian's PostgreSQL that the database tests start).
SYSTEM = ("/dev/", "/proc/", "/sys/", "/etc/", "/usr/", "/run/", "/var/run/")


#: Temporary folders: tests write there (pytest's tmp_path, tempfile).
TEMP = tuple(sorted({os.path.realpath(tempfile.gettempdir()) + "/", tempfile.gettempdir().rstrip("/") + "/", "/tmp/",
                     "/var/tmp/"}))


def _sibling_root() -> str | None:
    """The folder holding the repository, whose other contents (a `shared/` beside it) are the reads this check is
    for, even inside a temporary folder; None when the repository sits right in a temporary or system folder."""
    parent = os.path.dirname(ROOT).rstrip("/") + "/"
    return None if parent == "/" or parent in TEMP else parent


def _python_roots() -> tuple[str, ...]:
    roots: set[str] = set()
    for value in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix):
        roots.add(value)
        roots.add(os.path.realpath(value))
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        where = sysconfig.get_paths().get(name)
        if where:
            roots.add(os.path.realpath(where))
    for entry in sys.path:
        # (never the repository, nor a folder holding it: that would let everything beside it through)
        holds_root = ROOT.startswith(entry.rstrip("/") + "/")
        if entry and os.path.isabs(entry) and not entry.startswith(ROOT) and not holds_root:
            roots.add(os.path.realpath(entry))
    return tuple(sorted(r.rstrip("/") + "/" for r in roots if r))


class OutsideReads:
    """Records reads of paths outside the allowed roots, with the test that made them."""

    def __init__(self) -> None:
        self.inside = ROOT + "/"
        self.python = _python_roots()  # the interpreter and installed packages (a venv may sit beside the repo)
        self.sibling = _sibling_root()
        self.elsewhere = TEMP + SYSTEM
        self.current = "(collection)"
        self.found: dict[str, str] = {}
        self.active = True

    def outside(self, path: str) -> bool:
        """Whether `path` (absolute, or relative to the working folder) lies outside every allowed root."""
        if not os.path.isabs(path):
            path = os.path.join(os.getcwd(), path)
        path = os.path.normpath(path) + "/"
        if path.startswith(self.inside) or path.startswith(self.python):
            return False
        if self.sibling is not None and path.startswith(self.sibling):
            return True  # beside the repository: what a clone on its own would not have
        return not path.startswith(self.elsewhere)

    def hook(self, event: str, args: tuple) -> None:
        if event not in WATCHED or not self.active or not args:
            return
        target = args[0]
        if target is None or isinstance(target, int):  # a file descriptor, or listdir() of the working folder
            return
        try:
            path = os.fsdecode(target)
        except TypeError:
            return
        if self.outside(path) and path not in self.found:
            self.found[path] = self.current


READS = OutsideReads()
sys.addaudithook(READS.hook)  # an audit hook cannot be removed; `active` turns it off


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    READS.current = item.nodeid
    yield
    READS.current = "(between tests)"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
    READS.active = False
    if not READS.found:
        return
    lines = [f"  {path}  (read by {who})" for path, who in sorted(READS.found.items())]
    report = "Paths outside the repository were read (copy what is needed into the repository):\n" + "\n".join(lines)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "outside the repository", red=True)
        reporter.write_line(report)
    else:
        sys.stderr.write(report + "\n")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
