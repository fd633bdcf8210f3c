"""Property-based fuzzing of every HTTP endpoint from the server's own OpenAPI description
(Schemathesis): any answer 500 or above fails. Each generated request is sent three times:
without a token, as the gamesmaster-player of a running game, and as another player; half of the
requests are aimed at that game's id instead of the generated one, so that the game code itself
is reached and not only the 404. The requests go to a server on the database of ``--database``
(a fresh SQLite file, or PostgreSQL); the schema is read from an application on SQLite.

Besides what Schemathesis draws, every route is sent the inputs that once gave 500s (issue 34):
JSON nested thousands deep, NUL characters in every string, and integers past 32 and 64 bits
in every number of the path, the query and the body.

CI runs a few examples per endpoint (``REALPOLITIK_FUZZ_EXAMPLES``, 25 by default on SQLite and
8 with ``REALPOLITIK_TEST_DATABASE=postgres``, derandomized so a run is repeatable). A long run,
with new random inputs each time::

    REALPOLITIK_FUZZ_EXAMPLES=400 .venv/bin/pytest -q -s tests/test_fuzz_api.py

prints how many requests were sent and how many got a 5xx (``fuzzed N requests: M answers
5xx``). It runs in the pure-Python run only: the second run, against the mypyc-compiled
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

_ON_POSTGRES = os.environ.get("REALPOLITIK_TEST_DATABASE") == "postgres"
EXAMPLES = int(os.environ.get("REALPOLITIK_FUZZ_EXAMPLES", "8" if _ON_POSTGRES else "25"))
SEEN = {"requests": 0, "5xx": 0}


# The schema is read when the module is collected, so the app exists then; its database is
# made (migrated) when the ``world`` fixture starts it.
_DB = Path(tempfile.mkdtemp(prefix="realpolitik-fuzz-")) / "fuzz.db"
APP = create_app(Settings(database_url=f"sqlite:///{_DB}", background=False))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module")
def world_database(request: pytest.FixtureRequest,
                   tmp_path_factory: pytest.TempPathFactory) -> str:
    """The database the fuzzed server runs on (``--database``), for the whole module."""
    if request.config.getoption("--database") == "postgres":
        server = request.getfixturevalue("postgres_server")
        return str(server.create_database(f"fuzz_{os.getpid()}"))
    return f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'world.db'}"


@pytest.fixture(scope="module")
def world(world_database: str) -> Iterator[dict[str, Any]]:
    """Two users and a running two-player game, and a private game, on a server over the
    database of ``--database``."""
    app = create_app(Settings(database_url=world_database, background=False))
    with TestClient(app) as client:
        tokens = {}
        for name in ("alice", "bob"):
            r = client.post("/auth/signup", json={"username": name, "password": "correct horse"})
            tokens[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        game = client.post("/games", json={"name": "fuzz", "players": "2", "join_as": "england"},
                           headers=tokens["alice"]).json()["id"]
        client.post(f"/games/{game}/join", json={"power": "germany"}, headers=tokens["bob"])
        client.post("/games", json={"name": "private", "private": True},
                    headers=tokens["alice"])
        yield {"game": game, "tokens": tokens, "app": app, "client": client}
    print(f"\nfuzzed {SEEN['requests']} requests: {SEEN['5xx']} answers 5xx")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize="REALPOLITIK_FUZZ_EXAMPLES"
          not in os.environ, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case: Any, world: dict[str, Any]) -> None:
    if "game_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2 == 0:
        case.path_parameters["game_id"] = world["game"]
    for headers in ({}, world["tokens"]["alice"], world["tokens"]["bob"]):
        response = case.call(headers=headers, app=world["app"])
        SEEN["requests"] += 1
        if response.status_code >= 500:
            SEEN["5xx"] += 1
        assert response.status_code < 500, (case.method, case.formatted_path, case.body,
                                            case.query, response.status_code, response.text)


# -- the inputs that once gave 500s, on every route ----------------------------------------------

_NESTED = "[" * 5000 + "]" * 5000
_NUL = "a\u0000b"
_HUGE_NUMBERS = [2**31, 2**63, 2**64 + 1, 10**30]


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    spec = APP.openapi()
    return [(method.upper(), path, operation) for path, methods in spec["paths"].items()
            for method, operation in methods.items()]


def _fill_path(path: str, operation: dict[str, Any], value: Any, game: int) -> str:
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "path":
            name = parameter["name"]
            path = path.replace("{" + name + "}", str(game if value is None else value))
    return path


@pytest.mark.parametrize(("method", "path", "operation"), _operations(),
                         ids=[f"{m} {p}" for m, p, _ in _operations()])
def test_the_inputs_that_once_failed_fail_no_route(method: str, path: str,
                                                    operation: dict[str, Any],
                                                    world: dict[str, Any]) -> None:
    client: TestClient = world["client"]
    game = world["game"]
    alice = world["tokens"]["alice"]
    sent: list[tuple[str, dict[str, Any]]] = []
    # path parameters: huge numbers and a NUL
    for value in [*_HUGE_NUMBERS, "%00", None]:
        sent.append((_fill_path(path, operation, value, game), {}))
    # query parameters: huge numbers and NULs in each
    here = _fill_path(path, operation, None, game)
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "query":
            for value in [*_HUGE_NUMBERS, -(2**63) - 1, _NUL]:
                sent.append((here, {"params": {parameter["name"]: value}}))
    # bodies: nested deep, and a NUL or a huge number in each field the body names
    if "requestBody" in operation:
        ref = operation["requestBody"]["content"].get("application/json", {}).get("schema", {})
        fields: list[str] = []
        if "$ref" in ref:
            model = APP.openapi()["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]
            fields = list(model.get("properties", {}))
        sent.append((here, {"content": _NESTED, "headers": {"Content-Type":
                                                             "application/json"}}))
        sent.append((here, {"content": '{"x": ' + _NESTED + "}"}))
        for field in fields:
            for value in (_NUL, 2**64 + 1, [_NUL], {"deep": _NESTED}):
                sent.append((here, {"json": {field: value}}))
    for url, extra in sent:
        for headers in ({}, alice):
            response = client.request(method, url, headers={**headers,
                                                            **extra.get("headers", {})},
                                      **{k: v for k, v in extra.items() if k != "headers"})
            SEEN["requests"] += 1
            assert response.status_code < 500, (method, url, extra, response.status_code,
                                                response.text[:500])
