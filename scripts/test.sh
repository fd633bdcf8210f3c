#!/usr/bin/env bash
# Install realpolitik with its test tools into .venv, then run the linters and the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev,server,png]'
.venv/bin/ruff check .
.venv/bin/mypy --strict realpolitik
.venv/bin/pytest -q "$@"
