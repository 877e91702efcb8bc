#!/usr/bin/env bash
# The whole test suite from a fresh machine with only Python and apt:
# installs the Debian reference engines the end-to-end tests play against
# (when run as root and they are missing), builds and installs Vireo with its
# test and train extras, then runs pytest. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

packages="stockfish fairymax phalanx polyglot"
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

python3 -m pip install -q -e '.[test,train]'
python3 -m pytest "$@"
