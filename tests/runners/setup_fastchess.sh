#!/usr/bin/env bash
# fastchess (the match runner and UCI compliance checker most engine authors
# use, and the one OpenBench's client drives), built from ../shared/references
# and cached outside the clone, where the next run finds it:
#   VIREO_FASTCHESS_DIR if set, else /var/cache/vireo/fastchess as root,
#   else ~/.cache/vireo/fastchess (tests/fastchess_build.py looks in the same places).
# Prints that folder. A failed build exits non-zero as root (CI must not hide
# it); elsewhere it says so and the tests that need fastchess skip.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builder=$here/../../../shared/references/build-fastchess.sh
if [ "$(id -u)" = 0 ]; then
    cache=${VIREO_FASTCHESS_DIR:-/var/cache/vireo/fastchess}
else
    cache=${VIREO_FASTCHESS_DIR:-$HOME/.cache/vireo/fastchess}
fi
if [ -x "$cache/fastchess" ]; then
    :   # cached by an earlier run
elif [ -f "$builder" ]; then
    echo "tests/runners/setup_fastchess.sh: building fastchess into $cache (a few minutes, once)" >&2
    if ! nice bash "$builder" "$cache" >/dev/null; then
        [ "$(id -u)" != 0 ] || exit 1
        echo "tests/runners/setup_fastchess.sh: the fastchess build failed (its tests will skip)" >&2
    fi
else
    echo "tests/runners/setup_fastchess.sh: $builder not found (fastchess tests will skip)" >&2
fi
echo "$cache"
