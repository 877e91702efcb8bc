#!/usr/bin/env bash
# What the GUI tests need: a virtual screen (xvfb), a way to type into it
# (xdotool), screenshots (imagemagick), xboard, and the Cute Chess GUI with
# cutechess-cli built from ../shared/references (Debian ships no Cute Chess
# built with Qt 6). The build takes minutes, so it is cached outside the
# clone, where the next run finds it:
#   VIREO_CUTECHESS_DIR if set, else /var/cache/vireo/cutechess as root,
#   else ~/.cache/vireo/cutechess (the tests look in the same places).
# Prints that folder. Without root the Debian packages cannot be installed:
# it says so and the GUI tests skip (CI runs as root, where they must pass).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builder=$here/../../../shared/references/build-cutechess.sh

packages="xvfb xdotool imagemagick xboard"
missing=$(for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ "$(id -u)" = 0 ]; then
    cache=${VIREO_CUTECHESS_DIR:-/var/cache/vireo/cutechess}
    if [ -n "$missing" ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    fi
else
    cache=${VIREO_CUTECHESS_DIR:-$HOME/.cache/vireo/cutechess}
    [ -z "$missing" ] || echo "tests/gui/setup.sh: missing Debian packages:" $missing "(GUI tests will skip)" >&2
fi

if [ -x "$cache/cutechess" ] && [ -x "$cache/cutechess-cli" ]; then
    :   # cached by an earlier run
elif [ -f "$builder" ]; then
    echo "tests/gui/setup.sh: building Cute Chess into $cache (a few minutes, once)" >&2
    if ! nice bash "$builder" "$cache" >/dev/null; then
        [ "$(id -u)" != 0 ] || exit 1
        echo "tests/gui/setup.sh: the Cute Chess build failed (GUI tests will skip)" >&2
    fi
else
    echo "tests/gui/setup.sh: $builder not found (GUI tests will skip)" >&2
fi
echo "$cache"
