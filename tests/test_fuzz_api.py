"""Property-based fuzzing of every HTTP endpoint from the server's own OpenAPI description
(Schemathesis): any answer 500 or above fails. Each generated request is sent three times:
without a token, as the gamesmaster-player of a running game, and as another player; half of the
requests are aimed at that game's id instead of the generated one, so that the game code itself
is reached and not only the 404.

CI runs a few examples per endpoint (``REALPOLITIK_FUZZ_EXAMPLES``, 25 by default, derandomized
so a run is repeatable). A long run, with new random inputs each time::

    REALPOLITIK_FUZZ_EXAMPLES=400 .venv/bin/pytest -q -s tests/test_fuzz_api.py

prints how many requests were sent and how many got a 5xx (``fuzzed N requests: M answers
5xx``). It runs once in CI, in the pure-Python run: the second run, against the mypyc-compiled
engine (``REALPOLITIK_EXPECT_COMPILED=1``), skips it, as the HTTP layer it fuzzes is the same.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")
if os.environ.get("REALPOLITIK_EXPECT_COMPILED") == "1":
    pytest.skip("the API is fuzzed once, in the pure-Python run", allow_module_level=True)

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402

EXAMPLES = int(os.environ.get("REALPOLITIK_FUZZ_EXAMPLES", "25"))
SEEN = {"requests": 0, "5xx": 0}


# The schema is read when the module is collected, so the app exists then; its database is
# made (migrated) when the ``world`` fixture starts it.
_DB = Path(tempfile.mkdtemp(prefix="realpolitik-fuzz-")) / "fuzz.db"
APP = create_app(Settings(database_url=f"sqlite:///{_DB}", background=False))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module")
def world() -> Iterator[dict[str, Any]]:
    """Two users and a running two-player game, and a private game."""
    with TestClient(APP) as client:
        tokens = {}
        for name in ("alice", "bob"):
            r = client.post("/auth/signup", json={"username": name, "password": "correct horse"})
            tokens[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        game = client.post("/games", json={"name": "fuzz", "players": "2", "join_as": "england"},
                           headers=tokens["alice"]).json()["id"]
        client.post(f"/games/{game}/join", json={"power": "germany"}, headers=tokens["bob"])
        client.post("/games", json={"name": "private", "private": True},
                    headers=tokens["alice"])
        yield {"game": game, "tokens": tokens}
    print(f"\nfuzzed {SEEN['requests']} requests: {SEEN['5xx']} answers 5xx")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize="REALPOLITIK_FUZZ_EXAMPLES"
          not in os.environ, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case: Any, world: dict[str, Any]) -> None:
    if "game_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2 == 0:
        case.path_parameters["game_id"] = world["game"]
    for headers in ({}, world["tokens"]["alice"], world["tokens"]["bob"]):
        response = case.call(headers=headers)
        SEEN["requests"] += 1
        if response.status_code >= 500:
            SEEN["5xx"] += 1
        assert response.status_code < 500, (case.method, case.formatted_path, case.body,
                                            case.query, response.status_code, response.text)
