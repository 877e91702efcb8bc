#!/usr/bin/env bash
# Vireo's core under AddressSanitizer + UndefinedBehaviorSanitizer and under
# ThreadSanitizer, as Stockfish's CI does: perft, bench, a scripted UCI
# dialogue and self-play games, with zero reports allowed.
#
#   bash tests/sanitize/run.sh [--quick] [address,undefined|thread ...]
#
# Default: the full pass under both (about 10-15 minutes on 2 cores);
# --quick is CI's form (address,undefined only by default, reduced depths,
# a few minutes with the build). Exit status 1 on any report or failure.
#
# How Python runs under a sanitizer (what this script does, step by step):
#  1. Build the core out of tree, so the normal in-place build is untouched:
#       cp -a setup.py src $DIR/tree   (then delete any *.so copied along)
#       cd $DIR/tree && ENGINE_SANITIZE=address,undefined python setup.py build_ext \
#           --build-lib $DIR/lib --build-temp $DIR/tmp
#       cp $DIR/lib/engine/_core*.so $DIR/tree/src/engine/
#     and put $DIR/tree/src first on PYTHONPATH (the check below makes sure
#     `engine._core.__file__` is the instrumented one).
#  2. CPython itself is not instrumented, so the sanitizer's runtime must be
#     loaded before it: LD_PRELOAD=$(gcc -print-file-name=libasan.so) (or
#     libtsan.so).
#  3. ASAN_OPTIONS=detect_leaks=0: CPython keeps its interned objects and
#     arenas alive until exit on purpose; those are not leaks of ours, and
#     LeakSanitizer would report them all. PYTHONMALLOC=malloc sends Python's
#     small objects through malloc, so ASan sees overflows into them too.
#  4. Every report goes to a log file under $DIR/logs (log_path), also from
#     the engines that the match runner starts; the pass fails if any exists.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

quick=0
kinds=()
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        address,undefined|thread|address|undefined) kinds+=("$arg") ;;
        *) echo "usage: $0 [--quick] [address,undefined|thread ...]" >&2; exit 2 ;;
    esac
done
if [ ${#kinds[@]} = 0 ]; then
    if [ $quick = 1 ]; then kinds=(address,undefined); else kinds=(address,undefined thread); fi
fi
# The interpreter itself, not a launcher: with pyenv, `python3` is a bash
# script, and bash segfaults with libtsan preloaded (CI's machine does).
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
# The out-of-tree build runs setup.py directly: it needs Cython beside setuptools
# (pip's isolated build environment for the normal install does not stay).
"$python" -c "import Cython, setuptools" 2>/dev/null || "$python" -m pip install -q "Cython>=3.0" setuptools
base=${VIREO_SANITIZE_DIR:-${TMPDIR:-/tmp}/vireo-sanitize}
syzygy="$repo/../shared/data/syzygy"
[ -d "$syzygy" ] || syzygy=""

if [ $quick = 1 ]; then
    # Self-play at a fixed depth: an instrumented build is several times
    # slower, and CI's shared cores must not turn that into time losses.
    perft_depth=3; bench_depth=7; games=2; plies=16; dialogue_games=2; limit=depth=7
else
    perft_depth=4; bench_depth=""; games=6; plies=40; dialogue_games=6; limit=tc=8+0.1
fi

run_kind() {
    local kind=$1 name=${1//,/-}
    local dir="$base/$name" status=0
    echo "== sanitizer: $kind (out-of-tree build in $dir)"
    mkdir -p "$dir/tree" "$dir/lib" "$dir/logs"
    rm -f "$dir/logs"/* "$dir/selfplay.pgn"
    # The sources only (cp -a keeps their times, so an unchanged core is not
    # rebuilt next time); never the in-place .so of the normal build.
    # pyproject.toml stays behind: build_ext needs only setup.py's Extension.
    rm -rf "$dir/tree" && mkdir -p "$dir/tree"
    cp -a setup.py src "$dir/tree/"
    find "$dir/tree/src" -name '*.so' -delete
    if ! (cd "$dir/tree" && ENGINE_SANITIZE=$kind nice -n 5 "$python" setup.py -q build_ext \
              --build-lib "$dir/lib" --build-temp "$dir/tmp" >"$dir/build.log" 2>&1); then
        cat "$dir/build.log"; echo "FAILED ($kind): the instrumented build"; return 1
    fi
    cp "$dir"/lib/engine/_core*.so "$dir/tree/src/engine/"

    local runtime
    case "$kind" in
        thread) runtime=$(gcc -print-file-name=libtsan.so) ;;
        *) runtime=$(gcc -print-file-name=libasan.so) ;;
    esac
    export PYTHONPATH="$dir/tree/src"
    export LD_PRELOAD="$runtime"
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$dir/logs/asan"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$dir/logs/ubsan"
    export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:log_path=$dir/logs/tsan:suppressions=$repo/tests/sanitize/tsan.supp"
    if [ "$kind" != thread ]; then export PYTHONMALLOC=malloc; else unset PYTHONMALLOC; fi

    step() {
        echo "-- $kind: $*"
        local start=$SECONDS
        if ! "$@"; then echo "FAILED ($kind): $*"; status=1; fi
        if compgen -G "$dir/logs/*" >/dev/null; then
            echo "SANITIZER REPORT ($kind) after: $*"; cat "$dir/logs"/* | head -80; status=1
        fi
        echo "   ($((SECONDS - start)) s)"
    }
    step "$python" -c "import engine._core as c, sys; f = c.__file__; print(f); sys.exit(not f.startswith('$dir/tree/src'))"
    step "$python" -m engine perft --suite perft/standard.epd --max-depth $perft_depth --no-progress
    step "$python" -m engine perft --suite perft/chess960.epd --max-depth $((perft_depth - 1)) --no-progress
    step "$python" -m engine bench $bench_depth
    if [ "$kind" != thread ]; then
        # The NNUE's exactness tests on the instrumented plain loops (this
        # build has no -march=native, so no SIMD: ENGINE_PORTABLE says so to
        # the test that checks which path a build took), king buckets and the
        # refresh table included.
        step env ENGINE_PORTABLE=1 "$python" -m pytest -q -p no:cacheprovider tests/core/test_nnue_inference.py \
             tests/core/test_nnue_incremental.py tests/core/test_nnue_simd.py tests/core/test_nnue_file.py \
             tests/api/test_evaluate_many.py
    fi
    # engine.api: several core Searches in threads of one process (analyse_many),
    # the C FEN reader on damaged FENs (evaluate_many), Ctrl-C mid-search.
    step "$python" -m pytest -q -p no:cacheprovider tests/api/test_analyse_many.py
    step "$python" tests/uci_stress_dialogue.py --games $dialogue_games --plies $plies --max-threads 4 \
         ${syzygy:+--syzygy "$syzygy"}
    local engine_words=(cmd="$python -m engine" option.Threads=4 option.Hash=32 option.OwnBook=false
                        ${syzygy:+"option.SyzygyPath=$syzygy"})
    step "$python" -m engine match --engine "${engine_words[@]}" name=A --engine "${engine_words[@]}" name=B \
         --each $limit stall=300 --games $games --concurrency 1 --no-progress --pgnout "$dir/selfplay.pgn"
    # The sanitizer runtime stays out of plain tools: preloaded libtsan.so
    # makes bash itself crash (a segmentation fault, seen with gcc 12's TSan).
    unset LD_PRELOAD PYTHONPATH PYTHONMALLOC
    # A self-play game lost by a fault (time, crash, illegal move) fails the pass too.
    step bash -c "! grep -E 'Termination \"(time forfeit|abandoned|rules infraction)\"' '$dir/selfplay.pgn'"
    return $status
}

failed=0
for kind in "${kinds[@]}"; do
    run_kind "$kind" || failed=1
done
if [ $failed = 0 ]; then echo "sanitizers: no reports (${kinds[*]})"; else echo "sanitizers: FAILED"; fi
exit $failed
