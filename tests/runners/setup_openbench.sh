#!/usr/bin/env bash
# The PyPI packages OpenBench's server and client need (tests/openbench/):
# those its requirements.txt and Client/requirements.txt name (Django 4.2.1,
# django-htmlmin, scipy, requests, psutil, py-cpuinfo), read from
# ../shared/references/OpenBench-9906bad1.tar.xz and installed once.
# Without the archive it says so and the OpenBench tests skip (fail in CI).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
archive=$here/../../../shared/references/OpenBench-9906bad1.tar.xz
if python3 -c 'import django, htmlmin, scipy, requests, psutil, cpuinfo; assert django.VERSION[:3] == (4, 2, 1)' 2>/dev/null; then
    exit 0   # installed by an earlier run
fi
if [ ! -f "$archive" ]; then
    echo "tests/runners/setup_openbench.sh: $archive not found (OpenBench tests will skip)" >&2
    exit 0
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xJf "$archive" -C "$work" OpenBench-9906bad1/requirements.txt OpenBench-9906bad1/Client/requirements.txt
python3 -m pip install -q -r "$work/OpenBench-9906bad1/requirements.txt" \
    -r "$work/OpenBench-9906bad1/Client/requirements.txt"
