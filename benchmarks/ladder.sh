#!/usr/bin/env bash
# The strength ladder: Vireo against Debian's engines at 10+0.1 from the
# balanced 8-move openings, both colours of each opening, all matches at once.
#
#   bash benchmarks/ladder.sh [SECONDS]
#
# Environment (defaults suit a machine with the Debian packages installed):
#   ENGINE_DIR   where the opponents' binaries are   (/usr/games)
#   OPENINGS     PGN of openings                      (../shared/data/openings/8moves_v3.pgn)
#   OUTDIR       PGN and result files                 (ladder-out)
#   SLOTS        games in flight per opponent, "fairymax phalanx glaurung toga2 ethereal"
#                                                     ("2 2 4 4 4": 16 cores)
#   VIREO        command that starts Vireo            (python3 -m engine)
# Each match runs until SECONDS (default 480) have passed, then is stopped as
# with Ctrl-C: the runner prints the results so far and keeps a valid PGN.
set -u
seconds=${1:-480}
dir=${ENGINE_DIR:-/usr/games}
openings=${OPENINGS:-../shared/data/openings/8moves_v3.pgn}
out=${OUTDIR:-ladder-out}
read -r -a slots <<< "${SLOTS:-2 2 4 4 4}"
vireo=${VIREO:-python3 -m engine}
mkdir -p "$out"

# name, games in flight, engine words (one array each: words may hold spaces)
fairymax=(cmd="$dir/fairymax" proto=xboard)
phalanx=(cmd="$dir/phalanx" proto=xboard)
glaurung=(cmd="$dir/glaurung" option.Threads=1 option.Hash=64)
toga2=(cmd="$dir/toga2" "option.Number of Threads=1" option.Hash=64)
ethereal=(cmd="$dir/ethereal-chess" option.Threads=1 option.Hash=64)

play() {   # play NAME SLOTS WORDS...
  local name=$1 conc=$2
  shift 2
  timeout -s INT "$seconds" python3 -m engine match \
      --engine "cmd=$vireo" name=Vireo option.Hash=64 option.Threads=1 \
      --engine "$@" name="$name" \
      --each tc=10+0.1 --games 1000 --concurrency "$conc" \
      --openings file="$openings" order=random --seed 2026 \
      --pgnout "$out/vireo-vs-$name.pgn" --no-progress > "$out/vireo-vs-$name.txt" 2>&1
}

play fairymax "${slots[0]}" "${fairymax[@]}" &
play phalanx "${slots[1]}" "${phalanx[@]}" &
play glaurung "${slots[2]}" "${glaurung[@]}" &
play toga2 "${slots[3]}" "${toga2[@]}" &
play ethereal "${slots[4]}" "${ethereal[@]}" &
wait
for f in "$out"/vireo-vs-*.txt; do
  echo "== $f"
  grep -E "^(Results|Games|Elo|Pentanomial|Terminations)" "$f"
done
