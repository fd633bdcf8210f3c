#!/usr/bin/env bash
# Install Parlance (a DAIDE server) and Parang (its bots, DumbBot among them) for Python 2.7,
# from their sdists on PyPI, into ~/.local/bin: parlance-server, dumbbot and the others.
# Used by benchmarks/daide_dumbbot.py and the DAIDE interoperation tests; rerunning it is cheap.
#
#   bash scripts/install_parlance.sh        # prints the folder of the programs when done
set -euo pipefail

BIN="${HOME}/.local/bin"
if [[ -x "${BIN}/parlance-server" && -x "${BIN}/dumbbot" ]]; then
    echo "${BIN}"
    exit 0
fi

PYTHON2="${PYTHON2:-}"
if [[ -z "${PYTHON2}" ]] && command -v pyenv >/dev/null 2>&1; then
    candidate="$(pyenv root)/versions/2.7.18/bin/python2.7"
    [[ -x "${candidate}" ]] && PYTHON2="${candidate}"
fi
if [[ -z "${PYTHON2}" ]] && command -v python2.7 >/dev/null 2>&1; then
    PYTHON2="$(command -v python2.7)"
fi
if [[ -z "${PYTHON2}" ]]; then
    echo "install_parlance.sh: Python 2.7 is needed (pyenv install 2.7.18, or set PYTHON2)" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
python3 -m pip download --quiet --no-deps --no-binary :all: -d "${work}" \
    parlance==1.4.1 parang==1.4.1
for package in Parlance-1.4.1 Parang-1.4.1; do
    tar -xzf "${work}/${package}.tar.gz" -C "${work}"
    (cd "${work}/${package}" && "${PYTHON2}" setup.py --quiet install --user >/dev/null 2>&1) || {
        echo "install_parlance.sh: installing ${package} with ${PYTHON2} failed" >&2
        exit 1
    }
done
echo "${BIN}"
