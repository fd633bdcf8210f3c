"""examples/agent_client.py against a live server (``realpolitik serve`` on a loopback port):
it plays whole short games over HTTP and the WebSocket, alone against bots and two at once."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "examples" / "agent_client.py"


class LiveServer:
    def __init__(self, url: str) -> None:
        self.url = url

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read().decode()
        return json.loads(text) if text else None

    def sign_up(self, name: str) -> str:
        token: str = self.api("POST", "/auth/signup", {"username": name,
                                                      "password": "correct horse"})["token"]
        return token


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    folder = tmp_path_factory.mktemp("agent")
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "realpolitik", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{folder / 'agent.db'}"],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "REALPOLITIK_TICK_SECONDS": "0.5"})
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/web/variants", timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError((folder / "server.log").read_text()) from None
                time.sleep(0.1)
        yield LiveServer(url)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def agent(server: LiveServer, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(CLIENT), "--server", server.url, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "AGENT_PASSWORD": "correct horse"})


def finish(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, out + err
    return out


def test_the_agent_plays_a_whole_game_against_bots(server: LiveServer) -> None:
    out = finish(agent(server, "--username", "solo", "--signup", "--new", "--power", "france",
                       "--end-year", "1902", "--seed", "3"))
    assert "created game" in out and "game over" in out and "short game ended after 1902" in out
    game = int(out.split("created game ")[1].split(":")[0])
    token = server.api("POST", "/auth/login", {"username": "solo",
                                               "password": "correct horse"})["token"]
    history = server.api("GET", f"/games/{game}/history", token=token)
    france = [h for h in history if "FRANCE" in h["orders"]]
    assert [h["phase"] for h in france][:2] == ["S1901M", "F1901M"]
    for entry in france:  # every order the agent gave was read and legal
        assert all(o.get("error") is None for o in entry["orders"]["FRANCE"]), entry
    assert server.api("GET", f"/games/{game}", token=token)["status"] == "finished"
    press = server.api("GET", f"/games/{game}/press", token=token)
    assert any(m["sender"] == "france" for m in press)


def test_two_agents_wait_for_each_other_over_the_websocket(server: LiveServer) -> None:
    """Two agents in one game with five bots: each gives its orders and waits on the WebSocket
    until the other has given its own and the phase moves on."""
    gm = server.sign_up("gm")
    game = server.api("POST", "/games", {"name": "agents", "end_year": 1901}, gm)["id"]
    for power in ("austria", "england", "italy", "russia", "turkey"):
        server.api("POST", f"/games/{game}/gm/bot", {"power": power}, gm)
    first = agent(server, "--username", "ada", "--signup", "--game", str(game),
                  "--power", "france", "--seed", "1")
    time.sleep(1.0)  # Ada joins, gives nothing yet (the game forms), and waits
    second = agent(server, "--username", "bob", "--signup", "--game", str(game),
                   "--power", "germany", "--seed", "2")
    out_first, out_second = finish(first), finish(second)
    for out in (out_first, out_second):
        assert "joined game" in out and "game over" in out
    assert "S1901M France" in out_first and "S1901M Germany" in out_second
    state = server.api("GET", f"/games/{game}")
    assert state["status"] == "finished" and state["end"]["kind"] == "short_game"
