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
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parent.parent)

#: Audit events that name a path read from (the first argument).
WATCHED = frozenset({"open", "os.listdir", "os.scandir"})

#: System places any Python program may read: devices, process info, configuration, time zones, locales.
SYSTEM = ("/dev/", "/proc/", "/sys/", "/etc/", "/usr/share/zoneinfo/", "/usr/lib/locale/", "/usr/share/locale/",
          "/usr/lib/ssl/", "/usr/share/ca-certificates/", "/run/", "/var/run/")


def _allowed_roots() -> tuple[str, ...]:
    roots = {ROOT, os.path.realpath(tempfile.gettempdir()), tempfile.gettempdir(), "/tmp", "/var/tmp"}
    for value in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix):
        roots.add(value)
        roots.add(os.path.realpath(value))
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        where = sysconfig.get_paths().get(name)
        if where:
            roots.add(os.path.realpath(where))
    for entry in sys.path:
        if entry and os.path.isabs(entry) and not entry.startswith(ROOT):
            roots.add(os.path.realpath(entry))
    return tuple(sorted(r.rstrip("/") + "/" for r in roots if r)) + SYSTEM


class OutsideReads:
    """Records reads of paths outside the allowed roots, with the test that made them."""

    def __init__(self, roots: tuple[str, ...] | None = None) -> None:
        self.roots = roots or _allowed_roots()
        self.current = "(collection)"
        self.found: dict[str, str] = {}
        self.active = True

    def outside(self, path: str) -> bool:
        """Whether `path` (absolute, or relative to the working folder) lies outside every allowed root."""
        if not os.path.isabs(path):
            path = os.path.join(os.getcwd(), path)
        path = os.path.normpath(path)
        return not (path + "/").startswith(self.roots)

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
def pytest_runtest_protocol(item):  # type: ignore[no-untyped-def]
    READS.current = item.nodeid
    yield
    READS.current = "(between tests)"


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
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
