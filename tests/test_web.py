"""The web page's server side: the page and its files are served, nothing outside the static
folder is, the catalogue of variants and editions, and the page holds no rules of its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from colour_vision import VISIONS, difference  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402
from realpolitik.server.colours import CHART_BACKGROUND, contrast  # noqa: E402
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


def test_every_powers_chart_colour_shows_on_the_charts_white(client: TestClient) -> None:
    """The centre chart draws each power's line in its chart colour on white: classical
    Russia's map colour is white (and Turkey's yellow), invisible there, so those are darkened
    to WCAG's 3:1 for graphics; colours that show already are kept, and the powers stay apart
    as people see them (CIEDE2000, normal and red-green colour-blind vision)."""
    for variant in client.get("/web/variants").json()["variants"]:
        powers = variant["powers"]
        for power in powers:
            chart = power["chart_colour"]
            assert re.fullmatch(r"#[0-9a-f]{6}", chart)
            assert contrast(chart, CHART_BACKGROUND) >= 3.0, (variant["id"], power["id"])
            if contrast(power["colour"], CHART_BACKGROUND) >= 3.0:
                assert chart == power["colour"].lower()
        # apart for everyone; for red-green colour-blind players too on the classical map (17
        # powers cannot all be told apart by colour alone there: the chart labels every line)
        for vision in VISIONS if variant["id"] == "classical" else ("normal",):
            closest = min(difference(a["chart_colour"], b["chart_colour"], vision)
                          for a, b in combinations(powers, 2))
            assert closest >= (10.0 if vision == "normal" else 5.0), (variant["id"], vision)
    classical = next(v for v in client.get("/web/variants").json()["variants"]
                     if v["id"] == "classical")
    russia = next(p for p in classical["powers"] if p["id"] == "russia")
    assert contrast(russia["colour"], "#ffffff") < 1.1 < 3.0 <= contrast(russia["chart_colour"],
                                                                         "#ffffff")
    history = (STATIC / "history.js").read_text()
    assert "p.chart_colour" in history  # the chart draws with them
    assert re.search(r"svg\.chart \{[^}]*background: #fff;", (STATIC / "style.css").read_text())


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
