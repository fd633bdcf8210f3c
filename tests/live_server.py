"""A real ``realpolitik`` server process on the loopback address, for the tests that need
uvicorn's own behaviour (connections, WebSocket handshakes, access logs, SIGKILL)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``python -c <code>`` serving the app on 127.0.0.1:``port`` over the SQLite file ``db``;
    ``extra`` is Python run on ``app`` before it is served (a route that fails, say). Its log
    (uvicorn's access log included) goes to ``log``."""

    def __init__(self, db: Path, log: Path, *, port: int | None = None, extra: str = "",
                 env: dict[str, str] | None = None, log_level: str = "info") -> None:
        self.db, self.log_path = db, log
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.extra = extra
        self.env = {**os.environ, "REALPOLITIK_TICK_SECONDS": "0.2",
                    "REALPOLITIK_DATABASE_URL": f"sqlite:///{db}", **(env or {})}
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self, timeout: float = 30) -> LiveServer:
        code = "\n".join([
            "import uvicorn",
            "from realpolitik.server.app import create_app",
            "from realpolitik.server.connections import uvicorn_limits",
            "app = create_app()",
            "limits = uvicorn_limits()",
            self.extra,
            f"uvicorn.run(app, host='127.0.0.1', port={self.port}, log_level={self.log_level!r},"
            " **limits)",
        ])
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (closed in stop/kill)
        self.proc = subprocess.Popen([sys.executable, "-c", code], env=self.env,
                                     stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.log_path.read_text()[-2000:]}")
            try:
                httpx.get(f"{self.base}/web/variants", timeout=1)
                return self
            except httpx.TransportError:
                time.sleep(0.05)
        self.kill()
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was committed is all that is left."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")
