"""A throwaway PostgreSQL server on 127.0.0.1 for tests and benchmarks: `with PgServer() as pg: pg.dsn`."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "tabletop"


def pg_bin() -> Path:
    """Where initdb and pg_ctl live: on PATH, or in Debian's versioned folder (newest first)."""
    found = shutil.which("initdb")
    if found:
        # Symlinks on PATH may cover only some tools: use the folder the real initdb lives in.
        folder = Path(found).resolve().parent
        if (folder / "pg_ctl").exists() and (folder / "pg_isready").exists():
            return folder
    candidates = _debian_initdbs()
    if not candidates:
        _install()
        candidates = _debian_initdbs()
    if not candidates:
        raise RuntimeError("PostgreSQL is not installed: `apt-get install postgresql` (or put initdb on PATH)")
    return Path(candidates[0]).parent


def _debian_initdbs() -> list[str]:
    return sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]), reverse=True)


def _install() -> None:
    """On a machine with nothing but Python (Debian-like), the tests install the server package themselves."""
    if not shutil.which("apt-get"):
        return
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-qq"], capture_output=True, timeout=600, env=env, check=False)
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "postgresql"], capture_output=True, timeout=1200,
                   env=env, check=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """initdb + pg_ctl in a temporary folder; as root, the server runs as the `postgres` user."""

    def __init__(self, *, durable: bool = False) -> None:
        #: durable=False turns fsync off: fine for tests, not for benchmarks that compare with SQLite.
        self.durable = durable
        self.bin = pg_bin()
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
        self.data = self.root / "data"
        self._databases = 0

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)

    def start(self) -> PgServer:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        done = self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip()}")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        done = self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w",
                         "start")
        if done.returncode != 0:
            log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {done.stderr.strip()} {log[-2000:]}")
        deadline = time.monotonic() + 30
        while self._run("pg_isready", "-h", "127.0.0.1", "-p", str(self.port)).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not become ready")
            time.sleep(0.1)
        return self

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self, name: str | None = None) -> str:
        """A fresh empty database; returns its URL."""
        self._databases += 1
        name = name or f"t{self._databases}"
        done = self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        if done.returncode != 0:
            raise RuntimeError(f"createdb failed: {done.stderr.strip()}")
        return self.dsn_for(name)

    def dsn_for(self, name: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def __enter__(self) -> PgServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
