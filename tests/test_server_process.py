"""The real server process: killed mid-game (SIGKILL) and restarted, nothing is lost and the phase
whose deadline passed while it was down is processed at start-up."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(url: str, port: int) -> subprocess.Popen[bytes]:
    code = ("from realpolitik.server import serve; "
            f"serve('127.0.0.1', {port}, {url!r}, log_level='warning')")
    env = {**os.environ, "REALPOLITIK_TICK_SECONDS": "0.2"}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


@pytest.mark.slow
@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_kill_and_restart_loses_nothing(database: str, tmp_path: Path,
                                        request: pytest.FixtureRequest) -> None:
    db = f"sqlite:///{tmp_path / 'killed.db'}" if database == "sqlite" \
        else str(request.getfixturevalue("postgres_url"))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(db, port)
    try:
        def user(name: str) -> dict[str, str]:
            r = httpx.post(f"{base}/auth/signup", json={"username": name,
                                                        "password": "correct horse"})
            return {"Authorization": f"Bearer {r.json()['token']}"}

        alice, bob = user("alice"), user("bob")
        r = httpx.post(f"{base}/games", headers=alice, json={
            "name": "kill", "players": "2", "join_as": "england",
            "deadlines": {"first_movement": "10s", "movement": "1h"}})
        game = r.json()["id"]
        httpx.post(f"{base}/games/{game}/join", json={"power": "germany"}, headers=bob)
        started = time.monotonic()
        httpx.post(f"{base}/games/{game}/press", json={"to": ["germany"], "body": "kept"},
                   headers=alice)
        r = httpx.put(f"{base}/games/{game}/orders", headers=alice,
                      json={"power": "france", "text": "A Par-Bur"})
        assert r.status_code == 200
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    time.sleep(max(0.0, 10.5 - (time.monotonic() - started)))
    proc = _start(db, port)
    try:
        state = httpx.get(f"{base}/games/{game}", headers=alice).json()
        assert state["phase"] == "F1914M"
        assert "A BUR" in state["position"]["units"]["FRANCE"]
        assert state["seconds_left"] > 3000
        press = httpx.get(f"{base}/games/{game}/press", headers=bob).json()
        assert [m["body"] for m in press] == ["kept"]
        history = httpx.get(f"{base}/games/{game}/history").json()
        assert "GERMANY" in history[0]["civil_disorder"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
