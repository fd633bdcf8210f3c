"""The examples in the docs and docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
MODULES = ["realpolitik", "realpolitik.notation", "realpolitik.game", "realpolitik.rules",
           "realpolitik.legality"]


@pytest.mark.parametrize("name", ["docs/game.md"])
def test_doc_examples_run(name: str) -> None:
    failures, tried = doctest.testfile(str(ROOT / name), module_relative=False)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0
