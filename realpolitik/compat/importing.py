"""``import diplomacy`` served by realpolitik: the import hook behind :func:`install`.

:func:`install` puts a finder first on :data:`sys.meta_path` that answers for ``diplomacy`` and
the submodules research code imports (:data:`COVERED`), each made as a new module holding the
facade's classes and values under the package's names. A submodule it does not cover (the
package's server, client, DAIDE and web modules) is not found, with an error saying so, unless
the package's own files are added to ``diplomacy.__path__`` (the test suite's runner does that
to load the package's tests, :mod:`realpolitik.compat.package_suite`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import runpy
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any


def _attributes(module: str, *names: str) -> Callable[[], dict[str, Any]]:
    def load() -> dict[str, Any]:
        source = importlib.import_module(module)
        return {name: getattr(source, name) for name in names}
    return load


def _table(module: str, table: str) -> Callable[[], dict[str, Any]]:
    def load() -> dict[str, Any]:
        values: dict[str, Any] = getattr(importlib.import_module(module), table)
        return dict(values)
    return load


def _package() -> dict[str, Any]:
    return {}


_FACADE = "realpolitik.compat.diplomacy"
_NAMES = "realpolitik.compat.diplomacy_names"

COVERED: dict[str, Callable[[], dict[str, Any]]] = {
    "diplomacy": _attributes(_FACADE, "Game", "Map", "Message", "Power", "GamePhaseData"),
    "diplomacy.engine": _package,
    "diplomacy.engine.game": _attributes(_FACADE, "Game"),
    "diplomacy.engine.map": _attributes("realpolitik.compat.diplomacy_map", "Map"),
    "diplomacy.engine.message": _attributes(
        "realpolitik.compat.diplomacy_message", "Message", "SYSTEM", "GLOBAL", "OBSERVER",
        "OMNISCIENT"),
    "diplomacy.engine.power": _attributes(_FACADE, "Power"),
    "diplomacy.utils": _package,
    "diplomacy.utils.export": _attributes(
        "realpolitik.compat.diplomacy_export", "to_saved_game_format",
        "from_saved_game_format", "load_saved_games_from_disk", "is_valid_saved_game"),
    "diplomacy.utils.game_phase_data": _attributes(_FACADE, "GamePhaseData"),
    "diplomacy.utils.sorted_dict": _attributes(_FACADE, "SortedDict"),
    "diplomacy.utils.order_results": _table(_NAMES, "ORDER_RESULTS"),
    "diplomacy.utils.strings": _table(_NAMES, "STRINGS"),
    "diplomacy.utils.constants": _table(_NAMES, "CONSTANTS"),
}
"""Module name -> what makes its contents. ``diplomacy``, ``diplomacy.engine`` and
``diplomacy.utils`` are packages (their submodules are found through this table too)."""

_PACKAGES = frozenset({"diplomacy", "diplomacy.engine", "diplomacy.utils"})


class _Loader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # the default: a new, empty module

    def exec_module(self, module: ModuleType) -> None:
        module.__dict__.update(COVERED[module.__name__]())
        module.__doc__ = (f"{module.__name__} as realpolitik.compat serves it "
                          "(docs/compat.md says what is covered).")


class DiplomacyFinder(importlib.abc.MetaPathFinder):
    """Finds ``diplomacy`` and its covered submodules (:data:`COVERED`) in realpolitik."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COVERED:
            if not fullname.startswith("diplomacy."):
                return None
            found = importlib.machinery.PathFinder.find_spec(fullname, path)
            if found is None:
                raise ModuleNotFoundError(
                    f"{fullname} is not covered by realpolitik.compat: it serves "
                    + ", ".join(sorted(COVERED)) + " (docs/compat.md)", name=fullname)
            return found
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(),
                                              is_package=fullname in _PACKAGES)
        if fullname in _PACKAGES:
            spec.submodule_search_locations = []
        return spec


def _drop_imported() -> None:
    """Forget any ``diplomacy`` module imported before (the package's own, or ours)."""
    for name in [n for n in sys.modules if n == "diplomacy" or n.startswith("diplomacy.")]:
        del sys.modules[name]


def install() -> None:
    """Make ``import diplomacy`` (and the submodules of :data:`COVERED`) give realpolitik's
    compatibility layer, in this process, from now on. Idempotent."""
    if any(isinstance(finder, DiplomacyFinder) for finder in sys.meta_path):
        return
    _drop_imported()
    sys.meta_path.insert(0, DiplomacyFinder())


def uninstall() -> None:
    """Undo :func:`install`: ``import diplomacy`` finds the package again (if installed)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, DiplomacyFinder)]
    _drop_imported()


def run(argv: Sequence[str]) -> None:
    """Run ``SCRIPT [ARGS...]`` (or ``-m MODULE [ARGS...]``) with :func:`install` active, as
    ``python`` would run it: ``sys.argv`` is the script and its arguments."""
    if not argv or argv[0] in ("-h", "--help"):
        raise SystemExit("usage: python -m realpolitik.compat SCRIPT [ARGS...]\n"
                         "       python -m realpolitik.compat -m MODULE [ARGS...]\n"
                         "runs code written for the diplomacy package on realpolitik")
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            raise SystemExit("python -m realpolitik.compat -m: name the module to run")
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return
    if not Path(argv[0]).exists():
        raise SystemExit(f"python -m realpolitik.compat: cannot open the script '{argv[0]}': "
                         "no such file")
    sys.argv = list(argv)
    sys.path.insert(0, str(Path(argv[0]).resolve().parent))  # as python does for a script
    runpy.run_path(argv[0], run_name="__main__")
