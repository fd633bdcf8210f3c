"""Run the ``diplomacy`` package's own tests against realpolitik's compatibility layer.

    python -m realpolitik.compat.package_suite [--goal N] [-v]

The tests are taken from the installed ``diplomacy`` package (``pip install realpolitik[bench]``
installs it; they are never copied here): its DATC suites (with and without the ``NO_CHECK``
rule and order expansion), ``test_game.py`` and ``test_map.py``, 521 tests. They run in this
process with :func:`realpolitik.compat.install` active, so their ``from diplomacy.engine.game
import Game`` gets realpolitik's facade. Prints ``N/521 passed``, then each failure and whether
``docs/compat.md`` lists it; exits 1 if fewer than ``--goal`` pass or a failure is not listed
there (every difference must be explained), 2 if the package is not installed.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

from realpolitik.compat.importing import install

SUITE = ("test_datc.py", "test_datc_no_check.py", "test_datc_no_expand.py", "test_game.py",
         "test_map.py")
"""The package's test modules run here (its network tests need its server: left out)."""
GOAL = 495
"""How many of the 521 must pass (95%)."""
DOCS = Path(__file__).resolve().parents[2] / "docs" / "compat.md"


def package_tests() -> Path | None:
    """The folder of the installed package's tests, found without importing the package."""
    spec = importlib.util.find_spec("diplomacy")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "tests"


def documented_failures(docs: Path = DOCS) -> set[str]:
    """The tests ``docs/compat.md`` explains, written there in backquotes as pytest ids
    (``test_datc.py::TestDATC::test_6_b_9``)."""
    if not docs.is_file():
        return set()
    return set(re.findall(r"`(test_\w+\.py::[\w:]+)`", docs.read_text(encoding="utf-8")))


class _Outcomes:
    """A pytest plugin that keeps each test's outcome."""

    def __init__(self) -> None:
        self.passed: list[str] = []
        self.failed: dict[str, str] = {}

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            name = report.nodeid.split("tests/")[-1]
            if report.outcome == "passed":
                self.passed.append(name)
            else:
                crash = getattr(report.longrepr, "reprcrash", None)
                message = crash.message if crash is not None else str(report.longrepr)
                self.failed[name] = " ".join(message.split()) or report.outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--goal", type=int, default=GOAL, help=f"passes needed ({GOAL})")
    parser.add_argument("-v", "--verbose", action="store_true", help="pytest's own report too")
    args = parser.parse_args(argv)
    import pytest

    tests = package_tests()
    if tests is None or not (tests / SUITE[0]).is_file():
        print("the diplomacy package (with its tests) is not installed: "
              "pip install -e '.[bench]'", file=sys.stderr)
        return 2
    install()
    facade = importlib.import_module("diplomacy")  # realpolitik's, through install()
    # The package's tests are its own files: diplomacy.tests is found in its folder.
    facade.__path__.append(str(tests.parent))
    outcomes = _Outcomes()
    # (-c: no configuration file, so that a project's own pytest settings do not apply)
    options = ["-c", os.devnull, "-p", "no:cacheprovider", "--rootdir", str(tests),
               "-W", "ignore::DeprecationWarning"]
    if not args.verbose:
        options += ["-p", "no:terminal"]
    pytest.main([*options, *(str(tests / name) for name in SUITE)], plugins=[outcomes])
    total = len(outcomes.passed) + len(outcomes.failed)
    print(f"{len(outcomes.passed)}/{total} passed: the diplomacy package's own tests "
          "against realpolitik.compat")
    explained = documented_failures()
    unexplained = [name for name in outcomes.failed if name not in explained]
    for name, why in outcomes.failed.items():
        mark = "  " if name in explained else "! "
        print(f"{mark}{name}: {why[:110]}")
    if unexplained:
        print(f"{len(unexplained)} failure(s) not explained in docs/compat.md (marked !)")
    if len(outcomes.passed) < args.goal:
        print(f"fewer than {args.goal} passed")
    return 1 if unexplained or len(outcomes.passed) < args.goal else 0


if __name__ == "__main__":
    raise SystemExit(main())
