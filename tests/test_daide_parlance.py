"""DAIDE interoperation with Parlance (issue 31): realpolitik's client plays on Parlance's server,
and Parang's DumbBot plays on realpolitik's server. Parlance is a Python 2.7 program:
``scripts/install_parlance.sh`` installs it; without it these tests are skipped, saying so."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from realpolitik.bots import make_bot
from realpolitik.daide.client import play_bots
from realpolitik.daide.server import DaideServer, GameSummary, ServerSettings
from realpolitik.variant import load_variant

BIN = Path(os.environ.get("PARLANCE_BIN", Path.home() / ".local" / "bin"))
pytestmark = pytest.mark.skipif(
    not (BIN / "parlance-server").exists() or not (BIN / "dumbbot").exists(),
    reason=f"Parlance and DumbBot (Python 2.7 programs) are not in {BIN}: run "
           "'bash scripts/install_parlance.sh' (it needs Python 2.7, e.g. pyenv's 2.7.18)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def parlance_server(tmp_path: Path) -> Iterator[int]:
    """A Parlance server for one game, declaring a draw after 1902; yields its port."""
    port = _free_port()
    (tmp_path / "parlance.cfg").write_text(
        f"[server]\ngames = 1\n[judge]\ndraw = 2\n[network]\nport = {port}\n", encoding="utf-8")
    server = subprocess.Popen([str(BIN / "parlance-server"), "-v1"], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            pytest.fail("parlance-server did not start listening")
        yield port
    finally:
        server.kill()
        server.wait()


def test_seven_heuristic_bots_play_on_parlances_server(parlance_server: int) -> None:
    """Parlance seats the seven bots, takes every order they give (no refusal, nothing it
    cannot read) and ends the game with a draw after 1902."""
    bots = [make_bot("heuristic", seed=i) for i in range(7)]
    results = asyncio.run(asyncio.wait_for(play_bots("127.0.0.1", parlance_server, bots), 120))
    powers = [r.power for r in results]
    assert sorted(p or "" for p in powers) == sorted(load_variant("classical").power_ids)
    for result in results:
        assert result.problems == []
        assert result.end == "draw"
        assert result.phases >= 4
        assert sum(result.centres.values()) >= 22


def test_dumbbot_plays_on_our_server(tmp_path: Path) -> None:
    """Two DumbBots and five heuristic bots on realpolitik's DAIDE server: the DumbBots join,
    accept the map, and play to the end of 1902."""
    async def game() -> list[GameSummary]:
        settings = ServerSettings(load_variant("classical"), port=0, end_year=1902,
                                  bots=["heuristic"] * 5)
        server = DaideServer(settings)
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(server.run(ready.set_result))
        port = await ready
        dumbbots = await asyncio.create_subprocess_exec(
            str(BIN / "dumbbot"), f"localhost:{port}", "2", "-v0", cwd=tmp_path,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            return await asyncio.wait_for(task, 120)
        finally:
            if dumbbots.returncode is None:
                dumbbots.kill()
            await dumbbots.wait()

    summary = asyncio.run(game())[0]
    assert summary.phase == "S1903M"
    players = sorted(seat.player for seat in summary.seats)
    assert players.count("DumbBot Parlance v1.4.1") == 2
    assert players.count("realpolitik heuristic bot") == 5
