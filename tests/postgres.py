"""A throwaway PostgreSQL server for the tests and the load test: ``initdb`` into a temporary
directory, started on a free loopback port (no Unix socket), stopped and deleted afterwards.

The binaries are looked up on ``PATH`` and in Debian's ``/usr/lib/postgresql/<version>/bin``
(``apt-get install postgresql``; ``scripts/test.sh`` installs it when missing). PostgreSQL
refuses to run as root, so as root the server runs as the user ``nobody``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def postgres_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, or None if PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parent.parent.name)
                      if Path(p).parent.parent.name.isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Postgres:
    """A running server: its SQLAlchemy URL (database ``postgres``) and the postmaster's PID."""

    port: int
    pid: int

    @property
    def url(self) -> str:
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database; returns its URL."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # a name made by the caller, not input
        return self.url_of(name)


@contextlib.contextmanager
def throwaway_postgres(where: Path | None = None, *, durable: bool = False) -> Iterator[Postgres]:
    """Start a PostgreSQL server in a new directory (under ``where``, else the system's
    temporary folder) and stop it at the end. ``durable=False`` (tests) turns off the disk
    flushes; ``durable=True`` keeps ``fsync`` and the write-ahead log flush at each commit but
    with ``synchronous_commit=off`` (a crash may lose the last fraction of a second of commits,
    never consistency), the setting ``docs/deploy.md`` recommends.

    :raises RuntimeError: PostgreSQL is not installed, or did not start.
    """
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    base = Path(tempfile.mkdtemp(prefix="realpolitik-pg-", dir=where))
    os.chmod(base, 0o755)
    data, log = base / "data", base / "server.log"
    data.mkdir()
    run_as: dict[str, Any] = {}
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        nobody = pwd.getpwnam("nobody")
        os.chown(base, nobody.pw_uid, nobody.pw_gid)
        os.chown(data, nobody.pw_uid, nobody.pw_gid)
        run_as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        # every folder above must be passable by 'nobody'
        for parent in base.parents:
            if parent.stat().st_mode & 0o001 == 0:
                raise RuntimeError(f"{parent} is closed to other users: PostgreSQL (run as "
                                   f"'nobody') cannot reach {base}")
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                    "--auth=trust", "-E", "UTF8", "--no-sync"], check=True,
                   capture_output=True, env=env, cwd=base, **run_as)
    port = _free_port()
    options = [f"-p {port}", "-c listen_addresses=127.0.0.1", "-c unix_socket_directories=''",
               "-c max_connections=200"]
    if durable:
        options += ["-c synchronous_commit=off"]
    else:
        options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
    started = subprocess.run(
        [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
         "-o", " ".join(options), "start"],
        capture_output=True, env=env, cwd=base, **run_as)
    try:
        if started.returncode != 0:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {started.stderr.decode()}\n{tail}")
        pid = int((data / "postmaster.pid").read_text().split()[0])
        _wait_for_connections(port)
        yield Postgres(port, pid)
    finally:
        subprocess.run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                        "stop"], capture_output=True, env=env, cwd=base, **run_as)
        shutil.rmtree(base, ignore_errors=True)


def _wait_for_connections(port: int, timeout: float = 30.0) -> None:
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres",
                                 connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
