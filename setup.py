"""Build hook: the optional compiled path.

By default realpolitik installs as pure Python (``pyproject.toml`` says everything else). With
``REALPOLITIK_MYPYC=1`` the engine's hot modules are also compiled to C extensions with mypyc;
the extensions are imported instead of the ``.py`` files, which stay in the package and are the
same code. ``scripts/build_compiled.sh`` makes such an install in ``.venv-mypyc``;
``docs/compat.md`` ("The compiled path") says what it gives and how it is tested.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED_MODULES = [
    # The adjudicator and the legal-order listing: where a phase spends its time. Modules whose
    # classes other code subclasses, pickles or builds with object.__new__ (orders, outcomes,
    # position) stay interpreted.
    "realpolitik/adjudication/adjustments.py",
    "realpolitik/adjudication/backup.py",
    "realpolitik/adjudication/equations.py",
    "realpolitik/adjudication/explain.py",
    "realpolitik/adjudication/movement.py",
    "realpolitik/adjudication/resolver.py",
    "realpolitik/adjudication/retreats.py",
    "realpolitik/adjudication/setup.py",
    "realpolitik/legality.py",
    "realpolitik/listing.py",
    "realpolitik/maptables.py",
    "realpolitik/phases.py",
]


def _ext_modules() -> list[object]:
    if os.environ.get("REALPOLITIK_MYPYC") != "1":
        return []
    from mypyc.build import mypycify  # needs mypy in the build environment

    return list(mypycify(COMPILED_MODULES, opt_level="3"))


setup(ext_modules=_ext_modules())
