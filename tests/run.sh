#!/usr/bin/env bash
# The whole test suite from a fresh machine with only Python and apt:
# installs the Debian reference engines the end-to-end tests play against and
# Chromium for the HTML report test and qemu-user for the wheel's older-CPU
# test (when run as root and they are missing),
# sets up what the GUI tests need (tests/gui/setup.sh), builds and installs
# Vireo with its test and train extras (the train extra is the CPU build of
# PyTorch the NNUE trainer tests use), then runs pytest. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

packages="stockfish fairymax phalanx polyglot chromium fonts-liberation qemu-user"
missing=""
for p in $packages; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
    else
        echo "tests/run.sh: reference engines missing:$missing (apt-get install them; tests that need them will skip)" >&2
    fi
fi

# The GUI tests' virtual screen, xboard and a cached Cute Chess build.
VIREO_CUTECHESS_DIR=$(bash tests/gui/setup.sh)
export VIREO_CUTECHESS_DIR
# fastchess, for its UCI compliance check and match tests (cached build).
VIREO_FASTCHESS_DIR=$(bash tests/runners/setup_fastchess.sh)
export VIREO_FASTCHESS_DIR
# OpenBench's server and client packages, for the local OpenBench tests.
bash tests/runners/setup_openbench.sh

python3 -m pip install -q -e '.[test,train]'
python3 -m pytest "$@"
