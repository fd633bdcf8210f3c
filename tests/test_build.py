"""Which build of realpolitik the tests run against.

``scripts/test.sh`` runs the suite twice: on the pure-Python sources (``.venv``) and on the
mypyc-compiled install (``.venv-mypyc``, with ``REALPOLITIK_EXPECT_COMPILED=1``). This checks
that the second run really imports the compiled modules, not the checkout's sources.
"""

from __future__ import annotations

import importlib
import os

import pytest

COMPILED = ("realpolitik.adjudication.movement", "realpolitik.adjudication.equations",
            "realpolitik.adjudication.resolver", "realpolitik.legality", "realpolitik.listing",
            "realpolitik.maptables")


@pytest.mark.skipif(os.environ.get("REALPOLITIK_EXPECT_COMPILED") != "1",
                    reason="the pure-Python run")
@pytest.mark.parametrize("name", COMPILED)
def test_the_compiled_run_imports_compiled_modules(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    assert module.__file__.endswith(".so"), module.__file__


def test_the_sources_of_every_compiled_module_ship_with_the_package() -> None:
    # the pure-Python path stays: each compiled module has its .py beside it in the sources
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for name in COMPILED:
        assert (root / (name.replace(".", "/") + ".py")).is_file(), name
