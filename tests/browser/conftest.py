"""Browser tests of the web page: Playwright for Python driving Debian's chromium.

They skip (with the reason) when Playwright or chromium is missing. Install both with::

    apt-get install -y chromium          # Debian's browser, at /usr/bin/chromium
    .venv/bin/pip install playwright     # never `playwright install`: the system browser is used

``REALPOLITIK_CHROMIUM`` names another browser binary.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real browser (Playwright + chromium)")
    config.addinivalue_line("markers", "test_variants: the module's server offers the test "
                            "variants (tests/variants) through REALPOLITIK_VARIANTS_PATH")


TEST_VARIANTS = Path(__file__).parent.parent / "variants"


def chromium_path() -> str | None:
    wanted = os.environ.get("REALPOLITIK_CHROMIUM")
    for candidate in (wanted, "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, url: str, db: Path, daide_port: int | None = None) -> None:
        self.url = url
        self.db = db
        self.daide_port = daide_port
        """The server's DAIDE port (``serve --daide-port``)."""

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        import json

        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
        return json.loads(text) if text else None


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``realpolitik serve`` on a free loopback port over a temporary SQLite file, with a
    DAIDE port; offering the test variants too in a module marked ``test_variants``."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    port, daide_port = _free_port(), _free_port()
    folder = tmp_path_factory.mktemp("web")
    db = folder / "web.db"
    env = {**os.environ, "REALPOLITIK_TICK_SECONDS": "0.5"}
    if request.node.get_closest_marker("test_variants") is not None:
        env["REALPOLITIK_VARIANTS_PATH"] = str(TEST_VARIANTS)
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "realpolitik", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{db}", "--daide-port", str(daide_port)],
        stdout=log, stderr=subprocess.STDOUT, env=env)
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
        else:
            raise RuntimeError("the server did not start")
        yield Server(url, db, daide_port)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (.venv/bin/pip install playwright)")
    path = chromium_path()
    if path is None:
        pytest.skip("no chromium browser "
                    "(apt-get install -y chromium, or set REALPOLITIK_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
