#!/usr/bin/env bash
# Install realpolitik with its test tools into .venv, then run the linters and the tests; then
# build the mypyc-compiled engine into .venv-mypyc and run the tests against it too.
set -euo pipefail
cd "$(dirname "$0")/.."

# System libraries some tests need, installed only when missing (Debian; needs root).
need=()
ldconfig -p | grep -q 'libcairo\.so\.2' || need+=(libcairo2)
command -v chromium >/dev/null || need+=(chromium)   # the browser tests of the web page
# PostgreSQL's binaries: the tests start a throwaway server (tests/postgres.py)
command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
  || need+=(postgresql)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi

python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev,server,png,bench]'
# Playwright drives Debian's chromium; never 'playwright install' (it downloads a browser).
.venv/bin/pip install --quiet playwright
.venv/bin/ruff check .
.venv/bin/mypy --strict realpolitik
# Over every core (pytest-xdist), at most four workers: each worker imports the engine and
# starts its own throwaway PostgreSQL server when a test needs one.
parallel=(-n auto --maxprocesses 4)
.venv/bin/pytest "${parallel[@]}" "$@"
# The diplomacy package's own tests (from the installed package) against realpolitik.compat:
# prints "N/521 passed"; fails below 495 or on a failure docs/compat.md does not explain.
.venv/bin/python -m realpolitik.compat.package_suite
# The server tests again, on PostgreSQL (the PostgreSQL-only tests ran above), the API fuzzed
# there too (8 examples per operation: REALPOLITIK_TEST_DATABASE tells the fuzz module).
REALPOLITIK_TEST_DATABASE=postgres .venv/bin/pytest tests/test_server.py \
  tests/test_server_safety.py tests/test_server_reliability.py tests/test_fuzz_api.py "${parallel[@]}" "$@"

# The compiled path (mypyc, setup.py) must pass the same tests as the pure-Python one: build it
# into .venv-mypyc and run the suite against it. mypyc compiles the engine only: the tests of the
# layers around it (server, web page, API fuzzing, agent client, chaos) drive the engine through
# its public API and ran above; running them again would only repeat those layers' own code.
bash scripts/build_compiled.sh
REALPOLITIK_EXPECT_COMPILED=1 .venv-mypyc/bin/pytest -p no:cacheprovider --ignore=tests/browser \
  --ignore-glob='tests/test_server*.py' --ignore=tests/test_web.py \
  --ignore=tests/test_fuzz_api.py --ignore=tests/test_agent_client.py \
  --ignore=tests/test_chaos.py "${parallel[@]}" "$@"
