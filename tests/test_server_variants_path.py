"""Variants of ``REALPOLITIK_VARIANTS_PATH`` on the server: one that cannot be loaded is said
when ``realpolitik serve`` starts, naming its folder, file and line (it made the lobby's list
of variants, ``GET /web/variants``, fail for every variant with a 500), and the list leaves
out, and logs, one that stops loading while the server runs."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402

GOOD = '[variant]\nid = "good"\nname = "Good"\nextends = "classical"\n'
BAD = '[variant]\nid = "bad"\nname = "Bad"\nextends = "clasical"\n'


def _folders(tmp_path: Path) -> Path:
    variants = tmp_path / "variants"
    for name, text in (("good", GOOD), ("bad", BAD)):
        (variants / name).mkdir(parents=True)
        (variants / name / "variant.toml").write_text(text)
    return variants


def test_serve_refuses_to_start_with_a_variant_that_does_not_load(tmp_path: Path) -> None:
    variants = _folders(tmp_path)
    env = {**os.environ, "REALPOLITIK_VARIANTS_PATH": str(variants)}
    done = subprocess.run(
        [sys.executable, "-m", "realpolitik", "serve", "--port", "0", "--database",
         f"sqlite:///{tmp_path / 'x.db'}"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert (f"REALPOLITIK_VARIANTS_PATH: the variant in {variants / 'bad'} cannot be loaded: "
            "variant.toml, line 4: [variant] extends: no variant called 'clasical'") \
        in done.stderr
    assert "take its folder out of REALPOLITIK_VARIANTS_PATH" in done.stderr


def test_serve_warns_of_two_variants_of_one_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    from realpolitik.cli import main

    variants = tmp_path / "variants"
    for name in ("one", "two"):
        (variants / name).mkdir(parents=True)
        (variants / name / "variant.toml").write_text(GOOD)
    monkeypatch.setenv("REALPOLITIK_VARIANTS_PATH", str(variants))
    started: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(app))
    assert main(["serve", "--port", "0", "--database", f"sqlite:///{tmp_path / 'x.db'}"]) == 0
    assert len(started) == 1  # a warning, not a refusal to start
    assert (f"realpolitik serve: warning: 2 variants have the id 'good': {variants / 'one'}, "
            f"{variants / 'two'}; a new game of 'good' uses {variants / 'one'}") \
        in capsys.readouterr().err


def test_the_lobby_lists_the_variants_that_load_and_logs_the_others(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    variants = _folders(tmp_path)
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'y.db'}",
                        variants_path=str(variants))
    with TestClient(create_app(settings)) as client, caplog.at_level(logging.WARNING):
        answer = client.get("/web/variants")
    assert answer.status_code == 200
    ids = [v["id"] for v in answer.json()["variants"]]
    assert "good" in ids and "classical" in ids and "bad" not in ids
    assert any("'bad'" in r.getMessage() and "clasical" in r.getMessage()
               for r in caplog.records)
