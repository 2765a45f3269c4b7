#!/bin/sh
# A curve work-unit run (docs/curves.md) split into N shards run by GNU
# parallel, then merged: the same exact curve as one process.
#
#   scripts/curve-parallel.sh                  # Beams(6c,6p) LEX-c on [1, 2], 2 shards (the default)
#   GAME="beams 6c3p" FROM=0 TO=inf SHARDS=8 OUT=runs/p8 scripts/curve-parallel.sh   # the small test
#
# Parameters (environment):
#   GAME     subcommand and its arguments         [beams 6c6p]  (e.g. "mastermind --distinct")
#   TIE      tie rule                             [lex-c]       (mastermind: lex or mix)
#   FROM TO  α-range                              [1 2]         (numbers, fractions, inf)
#   SHARDS   number of shards N                   [2]
#   LEVELS   queries below the root cut into units [2]
#   OUT      directory for shard files, logs, merged curve.csv/curve.json
#            [runs/curve-parallel/<game>-<tie>-<from>-<to>-L<levels>-N<shards>]
#   JOBS     shards run at once                   [number of cores]
#   THREADS  threads per shard (RAYON_NUM_THREADS) [cores / JOBS, at least 1]
#   MEMFREE  parallel --memfree: start a shard only with this much free memory
#            [4G for beams 6c6p: a shard dealt by codes peaks at 1.2-1.7 GB before its
#            first unit (a shard that lists every unit: ≈ 3.9 GB, 33 CPU-s on [2, 5/2])]
#   WITH     finished run files given to every shard (read only), space separated
#            [beams 6c6p: the committed parts results/runs/curves/beams-6c6p/<tie>-<from>-<to>.part-*.units.{gz,xz}
#            if present; they were written by runs that list every unit, so they set DEAL to none]
#   DEAL     codes: each shard deals itself its units by their codes (--deal codes), none:
#            each shard lists every unit and takes those numbered i mod N [codes, none if WITH is given]
#   NICE     niceness of the shards               [0]
#   PARALLEL_OPTS  more options for parallel, e.g. "--sshloginfile nodes --workdir ."
#                  (other hosts need the same checkout, binary and a shared OUT)
#   BIN      the program                          [target/release/renyi-search, built if absent]
#   DRY_RUN=1  print the shard commands and the merge command, run nothing
#
# Resumable: run it again and every shard resumes from its file. If a shard
# fails, no new shard starts, the running ones finish, and nothing is merged
# (--halt soon,fail=1). The shard files are the run's record; OUT/joblog.tsv
# has each shard's wall time.
# Paths must not contain spaces.
set -eu
cd "$(dirname "$0")/.."
GAME=${GAME:-beams 6c6p}
TIE=${TIE:-lex-c}
FROM=${FROM:-1}
TO=${TO:-2}
SHARDS=${SHARDS:-2}
LEVELS=${LEVELS:-2}
CORES=$(nproc)
JOBS=${JOBS:-$CORES}
THREADS=${THREADS:-$((CORES / JOBS > 0 ? CORES / JOBS : 1))}
NICE=${NICE:-0}
BIN=${BIN:-target/release/renyi-search}
NAME=$(echo "$GAME-$TIE-$FROM-$TO-L$LEVELS-N$SHARDS" | tr ' /' '-_')
OUT=${OUT:-runs/curve-parallel/$NAME}
if [ "$GAME" = "beams 6c6p" ]; then
    MEMFREE=${MEMFREE-4G}
    WITH=${WITH-$(ls results/runs/curves/beams-6c6p/"$TIE-$FROM-$TO".part-*.units.[gx]z 2>/dev/null || true)}
fi
MEMFREE=${MEMFREE:-}
WITH=${WITH:-}
if [ -z "$WITH" ]; then DEAL=${DEAL-codes}; else DEAL=${DEAL-none}; fi
[ "$DEAL" = none ] && DEAL=

command -v parallel >/dev/null || { echo "GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
[ -x "$BIN" ] || [ "${DRY_RUN:-0}" = 1 ] || cargo build --release --quiet
[ "${DRY_RUN:-0}" = 1 ] || mkdir -p "$OUT"

# $GAME is split into words on purpose (a subcommand and its arguments).
# shellcheck disable=SC2086
set -- $GAME --tie "$TIE" --from "$FROM" --to "$TO" --levels "$LEVELS" ${DEAL:+--deal "$DEAL"}
for w in $WITH; do
    set -- "$@" --with "$w"
done
ARGS="$*"

start=$(date +%s)
echo "$(date -u +%FT%TZ) $SHARDS shards of: curve $ARGS  ($JOBS at once, $THREADS threads each) → $OUT"
# shellcheck disable=SC2086
seq 0 $((SHARDS - 1)) | parallel -j "$JOBS" ${MEMFREE:+--memfree "$MEMFREE"} --joblog "$OUT/joblog.tsv" \
    --halt soon,fail=1 ${PARALLEL_OPTS:-} ${DRY_RUN:+--dry-run} \
    "RAYON_NUM_THREADS=$THREADS nice -n $NICE $BIN curve $ARGS --shard {}/$SHARDS --checkpoint $OUT/shard-{}-of-$SHARDS.units >$OUT/shard-{}.log 2>&1"
shards_done=$(date +%s)

# The merge: shard 0's command with every other shard's file (docs/curves.md).
set -- --checkpoint "$OUT/shard-0-of-$SHARDS.units" --shard "0/$SHARDS"
i=1
while [ "$i" -lt "$SHARDS" ]; do
    set -- "$@" --with "$OUT/shard-$i-of-$SHARDS.units"
    i=$((i + 1))
done
if [ "${DRY_RUN:-0}" = 1 ]; then
    echo "merge: $BIN curve $ARGS $* --csv $OUT/curve.csv --json $OUT/curve.json"
    exit 0
fi
rm -f "$OUT/curve.csv" "$OUT/curve.json"
# shellcheck disable=SC2086
RAYON_NUM_THREADS=$CORES nice -n "$NICE" "$BIN" curve $ARGS "$@" --csv "$OUT/curve.csv" --json "$OUT/curve.json" \
    >"$OUT/merge.log" 2>&1 || { cat "$OUT/merge.log" >&2; exit 1; }
end=$(date +%s)
# An incomplete run exits 0 without writing the curve: say so.
[ -s "$OUT/curve.csv" ] || { cat "$OUT/merge.log" >&2; echo "not merged: units missing" >&2; exit 1; }
head -3 "$OUT/merge.log"
echo "shards $((shards_done - start)) s, merge $((end - shards_done)) s, total $((end - start)) s wall; curve in $OUT/curve.csv, $OUT/curve.json"
