#!/usr/bin/env bash
# The strength ladder: Vireo against other engines at 10+0.1 from the
# balanced 8-move openings, both colours of each opening, all matches at once.
#
#   bash benchmarks/ladder.sh [SECONDS]
#
# Environment (defaults suit a machine with the Debian packages installed):
#   ENGINE_DIR   where Debian's opponents are         (/usr/games)
#   ETHEREAL     Ethereal 12's binary                  ($ENGINE_DIR/ethereal-chess; the native
#                build of ../shared/references/build.sh is the fair one: Debian's is generic SSE2)
#   ETHEREAL_NAME its name in the PGN                  (Ethereal-12)
#   OPPONENTS    which to play                         ("fairymax phalanx glaurung toga2 ethereal")
#   SLOTS        games in flight for each, in that order ("2 2 4 4 4": 16 cores)
#   ADJUDICATE   extra match words, e.g. fishtest's    (none)
#                "--resign movecount=3 score=600 --draw movenumber=34 movecount=8 score=20"
#   SEED         order of the random openings          (2026; another seed to add games to a match)
#   OPENINGS     PGN of openings                       (../shared/data/openings/8moves_v3.pgn)
#   OUTDIR       PGN and result files                  (ladder-out)
#   VIREO        command that starts Vireo             (python3 -m engine)
#   EVAL         nnue or classical: sets `Use NNUE`    (as shipped); names Vireo-NNUE
#                or Vireo-classical in the PGN, plain Vireo as shipped
# Each match runs until SECONDS (default 480) have passed, then is stopped as
# with Ctrl-C: the runner prints the results so far and keeps a valid PGN
# (only the games in flight are lost).
set -u
seconds=${1:-480}
dir=${ENGINE_DIR:-/usr/games}
openings=${OPENINGS:-../shared/data/openings/8moves_v3.pgn}
out=${OUTDIR:-ladder-out}
read -r -a opponents <<< "${OPPONENTS:-fairymax phalanx glaurung toga2 ethereal}"
read -r -a slots <<< "${SLOTS:-2 2 4 4 4}"
read -r -a adjudicate <<< "${ADJUDICATE:-}"
vireo=${VIREO:-python3 -m engine}
case "${EVAL:-}" in
  nnue) vireo_words=(name=Vireo-NNUE "option.Use NNUE=true") ;;
  classical) vireo_words=(name=Vireo-classical "option.Use NNUE=false") ;;
  "") vireo_words=(name=Vireo) ;;
  *) echo "EVAL is nnue or classical, not ${EVAL}" >&2; exit 2 ;;
esac
mkdir -p "$out"
[ "${#slots[@]}" -eq "${#opponents[@]}" ] || { echo "SLOTS needs one number for each of: ${opponents[*]}" >&2; exit 2; }

# engine words of each opponent (one array each: words may hold spaces)
fairymax=(cmd="$dir/fairymax" proto=xboard name=Fairy-Max)
phalanx=(cmd="$dir/phalanx" proto=xboard name=Phalanx)
glaurung=(cmd="$dir/glaurung" option.Threads=1 option.Hash=64 name=Glaurung)
toga2=(cmd="$dir/toga2" "option.Number of Threads=1" option.Hash=64 name=Toga-II)
ethereal=(cmd="${ETHEREAL:-$dir/ethereal-chess}" option.Threads=1 option.Hash=64 name="${ETHEREAL_NAME:-Ethereal-12}")

play() {   # play NAME SLOTS WORDS...
  local name=$1 conc=$2
  shift 2
  # --foreground: the INT goes to the runner alone. Without it timeout also
  # signals its whole process group, the runner takes that as a second Ctrl-C
  # and aborts without its summary (it happened to a 25-minute run).
  timeout --foreground -s INT "$seconds" python3 -m engine match \
      --engine "cmd=$vireo" "${vireo_words[@]}" option.Hash=64 option.Threads=1 \
      --engine "$@" \
      --each tc=10+0.1 --games 1000 --concurrency "$conc" "${adjudicate[@]}" \
      --openings file="$openings" order=random --seed "${SEED:-2026}" \
      --pgnout "$out/vireo-vs-$name.pgn" --no-progress > "$out/vireo-vs-$name.txt" 2>&1
}

for i in "${!opponents[@]}"; do
  name=${opponents[$i]}
  declare -n words="$name"
  play "$name" "${slots[$i]}" "${words[@]}" &
  unset -n words
done
wait
for f in "$out"/vireo-vs-*.txt; do
  echo "== $f"
  grep -E "^(Results|Games|Elo|Pentanomial|Terminations)" "$f"
done
