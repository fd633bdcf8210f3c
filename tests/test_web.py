"""The web page's server side: the page and its files are served, nothing outside the static
folder is, the catalogue of variants and editions, and the page holds no rules of its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402
from realpolitik.server.routes.web import STATIC  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}", background=False))
    with TestClient(app) as c:
        yield c


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    for name in ("app.js", "api.js", "account.js", "game.js", "mapview.js", "press.js",
                 "history.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.headers["content-type"].startswith("text/javascript")
        assert r.headers["cache-control"] == "no-cache"
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")
    assert client.head("/").status_code == 200


def test_every_module_import_resolves(client: TestClient) -> None:
    for path in STATIC.glob("*.js"):
        for target in re.findall(r'from "\./([\w.]+)"', path.read_text()):
            assert (STATIC / target).is_file(), f"{path.name} imports missing {target}"
            assert client.get(f"/static/{target}").status_code == 200


@pytest.mark.parametrize("name", ["../app.py", "..%2Fapp.py", "%2e%2e/settings.py", "nothing.js",
                                  "", "../../../../etc/passwd"])
def test_nothing_outside_the_static_folder(client: TestClient, name: str) -> None:
    assert client.get(f"/static/{name}").status_code == 404


def test_variants_catalogue(client: TestClient) -> None:
    data = client.get("/web/variants").json()
    assert "2023" in data["editions"] and "1971" in data["editions"]
    classical = next(v for v in data["variants"] if v["id"] == "classical")
    assert [p["id"] for p in classical["powers"]] == [
        "austria", "england", "france", "germany", "italy", "russia", "turkey"]
    setups = {s["id"]: s for s in classical["setups"]}
    assert set(setups) >= {"7", "6", "5", "4", "3", "2"}
    assert ["england"] in setups["4"]["teams"]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", p["colour"]) for p in classical["powers"])


def test_the_api_description_is_unchanged_by_the_page(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/web/variants" in paths
    assert "/" not in paths and "/static/{name}" not in paths


def test_the_page_holds_no_rules() -> None:
    """Style guide §8: choices come from /legal-orders, orders go through the server's parser.
    No adjacency, no province table, no order grammar in the scripts."""
    code = "\n".join(p.read_text() for p in STATIC.glob("*.js"))
    assert "/legal-orders" in code and "/orders" in code
    provinces = {"bur", "mun", "ruh", "tyr", "gal", "nth", "nwg", "mao", "stp", "spa"}
    named = {w.lower() for w in re.findall(r'"([A-Za-z]{3})"', code)} & provinces
    assert not named, f"province names in the page's scripts: {sorted(named)}"
    assert "adjacen" not in code.lower()
