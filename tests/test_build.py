"""Which build of realpolitik the tests run against.

``scripts/test.sh`` runs the suite twice: on the pure-Python sources (``.venv``) and on the
mypyc-compiled install (``.venv-mypyc``, with ``REALPOLITIK_EXPECT_COMPILED=1``). This checks
that the second run really imports every module ``setup.py`` compiles, not the checkout's
sources, and that the one module that must stay interpreted does.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _compiled_modules() -> list[str]:
    """``setup.py``'s ``COMPILED_MODULES``, as module names (read, not imported: importing
    ``setup.py`` would run the build)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMPILED_MODULES" for t in node.targets):
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py has no COMPILED_MODULES list")


COMPILED = _compiled_modules()
EXPECT_COMPILED = os.environ.get("REALPOLITIK_EXPECT_COMPILED") == "1"


def test_setup_compiles_the_hot_modules() -> None:
    for name in ("realpolitik.adjudication.movement", "realpolitik.listing",
                 "realpolitik.caches"):
        assert name in COMPILED


@pytest.mark.skipif(not EXPECT_COMPILED, reason="the pure-Python run")
@pytest.mark.parametrize("name", COMPILED)
def test_the_compiled_run_imports_compiled_modules(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    assert module.__file__.endswith(".so"), module.__file__


def test_the_build_hints_module_stays_interpreted() -> None:
    # realpolitik.compiling's run-time branch is the one mypyc drops: compiled, mypyc_attr
    # would not exist at run time (tests/test_build.py runs in both builds).
    assert "realpolitik.compiling" not in COMPILED
    module = importlib.import_module("realpolitik.compiling")
    assert module.__file__ is not None and module.__file__.endswith(".py")

    class Plain:
        pass

    assert module.mypyc_attr(native_class=False)(Plain) is Plain


def test_the_sources_of_every_compiled_module_ship_with_the_package() -> None:
    # the pure-Python path stays: each compiled module has its .py beside it in the sources
    for name in COMPILED:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


def test_the_mapping_subclasses_stay_interpreted() -> None:
    # mypyc cannot make a class deriving from Mapping (not even marked native_class=False: a
    # metaclass conflict at import), so the engine keeps them in modules it does not compile.
    for name in ("realpolitik.recorded", "realpolitik.lazy_mapping"):
        assert name not in COMPILED
        module = importlib.import_module(name)
        assert module.__file__ is not None and module.__file__.endswith(".py")


def test_the_modules_take_their_builds_idioms() -> None:
    """The listing's typed loops and the order makers' native writes are taken in the compiled
    run, and only there (each module asks :func:`realpolitik.compiling.is_compiled` of one of
    its own functions)."""
    from realpolitik import listing, orders
    from realpolitik.adjudication import movement
    from realpolitik.compiling import is_compiled

    assert not is_compiled(test_the_modules_take_their_builds_idioms)
    assert is_compiled(len)
    assert listing._TYPED_LOOPS is EXPECT_COMPILED  # noqa: SLF001
    assert orders._FIELDS_WRITTEN_NATIVELY is EXPECT_COMPILED  # noqa: SLF001
    assert movement._TYPED_LOOPS is EXPECT_COMPILED  # noqa: SLF001
