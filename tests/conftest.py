"""Shared fixtures: the database the server tests run on.

``--database sqlite`` (the default) gives each test a fresh SQLite file; ``--database postgres``
(or ``REALPOLITIK_TEST_DATABASE=postgres``) starts one throwaway PostgreSQL server for the session
(``tests/postgres.py``) and gives each test a fresh database on it. The tests that need
PostgreSQL whatever the option (several workers) use the ``postgres_server`` fixture, skipped
with the reason when PostgreSQL is not installed.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from postgres import Postgres, postgres_bin, throwaway_postgres  # noqa: E402

_numbers = itertools.count(1)


def pytest_addoption(parser: Any) -> None:
    parser.addoption(
        "--database", choices=("sqlite", "postgres"),
        default=os.environ.get("REALPOLITIK_TEST_DATABASE", "sqlite"),
        help="the database of the server tests: a fresh SQLite file (default) or a fresh "
        "database on a throwaway PostgreSQL server (REALPOLITIK_TEST_DATABASE)")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    """One throwaway PostgreSQL server for the session (skipped if none is installed)."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (initdb and pg_ctl not found; Debian: "
                    "apt-get install postgresql)")
    pytest.importorskip("psycopg")
    with throwaway_postgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: Postgres) -> str:
    """A fresh, empty PostgreSQL database."""
    return postgres_server.create_database(f"test_{os.getpid()}_{next(_numbers)}")


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database for one test, of the kind ``--database`` chose."""
    if request.config.getoption("--database") == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite:///{tmp_path / 'server.db'}"
