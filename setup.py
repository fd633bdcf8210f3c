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
    # The adjudicator and the legal-order listing: where a phase spends its time.
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
    # What the hot modules read on every call: cache slots (a native CacheSlot call costs a
    # third of an interpreted one), the map, the integer numbering, the variant and the rules
    # it declares (native attribute reads from compiled callers).
    "realpolitik/caches.py",
    "realpolitik/geography.py",
    "realpolitik/places.py",
    "realpolitik/ownership.py",
    "realpolitik/variant.py",
    "realpolitik/variant_rules.py",
    # The values every phase makes and reads (orders, units, positions, phases, results) and
    # the game around the adjudicator: native field reads from the compiled modules above.
    "realpolitik/adjudication/outcomes.py",
    "realpolitik/calendar.py",
    "realpolitik/game.py",
    "realpolitik/orders.py",
    "realpolitik/position.py",
]
"""The modules mypyc compiles. Left out, and why (docs/compat.md, "The compiled path"):
rules, because a native frozen dataclass cannot be copied or pickled the default way (``Rules``
is, with every game, and has no ``__reduce__``); hooks and kinds hold the classes variants
subclass; ``realpolitik/compiling.py`` must stay interpreted (its run-time branch is the one
mypyc would drop)."""


def _ext_modules() -> list[object]:
    if os.environ.get("REALPOLITIK_MYPYC") != "1":
        return []
    from mypyc.build import mypycify  # needs mypy in the build environment

    return list(mypycify(COMPILED_MODULES, opt_level="3"))


setup(ext_modules=_ext_modules())
