#!/usr/bin/env bash
# The compiled path: install realpolitik into .venv-mypyc with its hot modules compiled by
# mypyc (setup.py lists them). The pure-Python install in .venv is not touched.
#   bash scripts/build_compiled.sh            # then: .venv-mypyc/bin/python benchmarks/bench.py
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv-mypyc
.venv-mypyc/bin/pip install --quiet --upgrade pip
# A module taken off setup.py's list must not come back from an earlier build's leftovers.
rm -rf build
# mypy (with mypyc) and setuptools must be in the build environment, hence no build isolation.
.venv-mypyc/bin/pip install --quiet "setuptools>=77" wheel "mypy>=1.10"
REALPOLITIK_MYPYC=1 .venv-mypyc/bin/pip install --quiet --no-build-isolation \
  '.[dev,server,png,bench]'
# (from another directory, so that the checkout's own sources are not what gets imported)
(cd / && "$OLDPWD/.venv-mypyc/bin/python" - <<'PY'
import importlib
for name in ("realpolitik.adjudication.movement", "realpolitik.legality", "realpolitik.listing",
             "realpolitik.caches", "realpolitik.orders", "realpolitik.game"):
    module = importlib.import_module(name)
    assert module.__file__ and module.__file__.endswith(".so"), (name, module.__file__)
print("realpolitik compiled with mypyc in .venv-mypyc")
PY
)
