#!/bin/bash
# A curve work-unit run (docs/curves.md) as a Slurm job array: task i runs
# shard i of N, which deals itself its units by their codes (`--deal codes`:
# no process lists the whole run, so a task starts its first unit in seconds
# and about 1 GB above the game), and a job that depends on the whole array
# (afterok) merges, checking that the shards' units together are the run's.
# With UNITS=FILE (the older mode) a first job lists the run's units once into
# FILE (skipped when it exists) and the tasks read it (units i mod N).
#
# Run it outside Slurm (from the repository, on the login node) and it submits
# both jobs itself:
#
#   scripts/curve-slurm.sh                                   # Beams(6c,6p) LEX-c on [1, 2], 16 shards
#   GAME="beams 6c3p" FROM=0 TO=inf SHARDS=8 OUT=runs/slurm8 WAIT=1 scripts/curve-slurm.sh
#
# or submit the two steps by hand (sbatch passes the environment on):
#
#   export GAME="beams 6c3p" FROM=0 TO=inf SHARDS=8 OUT=runs/slurm8
#   jid=$(sbatch --parsable --array=0-7 --cpus-per-task=1 --mem=1G -o "$OUT/slurm-%A_%a.out" scripts/curve-slurm.sh)
#   sbatch --dependency=afterok:$jid --kill-on-invalid-dep=yes -o "$OUT/merge-%j.out" scripts/curve-slurm.sh
#
# A job with STEP=list writes the unit list (UNITS mode only); a task with
# SLURM_ARRAY_TASK_ID runs its shard; any other job merges.
#
# Parameters (environment; the same as scripts/curve-parallel.sh):
#   GAME TIE FROM TO LEVELS SHARDS   [beams 6c6p, lex-c, 1, 2, 2, 16]
#   OUT      shard files, job logs, merged curve.csv/curve.json (shared by all nodes)
#            [runs/curve-slurm/<game>-<tie>-<from>-<to>-L<levels>-N<shards>]
#   UNITS    the run's unit list: set it to list the units once and deal them i mod N
#            [unset: each shard deals itself its units by codes]
#   WITH     finished run files of the same run given to every shard, read only, space separated
#            [none; with UNITS and beams 6c6p: the committed parts of this range]
#   CPUS MEM TIME  per task: --cpus-per-task, --mem, --time  [6c6p: 2, 4G, none; else 1, 1G, none]
#            (a 6c6p shard dealt by codes peaks at 0.77-0.85 GB before its first unit, docs/curves-6c6p.md;
#            the units of [2, 5/2] hold up to 304 M codes: give MEM room above that)
#   SBATCH_OPTS    more sbatch options for both jobs (e.g. "--partition=long --account=x")
#   WAIT=1   the driver waits for the merge job and reports its outcome
#   PROGRESS=1  shards log their phases (--progress), e.g. when the first unit starts
#   BIN      the program, on a path all nodes see   [target/release/renyi-search, built if absent]
#
# Resumable: a task killed (time limit, preemption) resumes from its shard
# file when the array is submitted again; finished shards exit at once.
#SBATCH --job-name=curve
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
set -euo pipefail
if [ -z "${SLURM_JOB_ID:-}" ]; then
    SELF=$(realpath "$0")
    cd "$(dirname "$SELF")/.."
else
    # Slurm runs a copy of this script: work from the submit directory.
    cd "${SLURM_SUBMIT_DIR:-.}"
fi

GAME=${GAME:-beams 6c6p}
TIE=${TIE:-lex-c}
FROM=${FROM:-1}
TO=${TO:-2}
LEVELS=${LEVELS:-2}
SHARDS=${SHARDS:-16}
BIN=${BIN:-target/release/renyi-search}
NAME=$(echo "$GAME-$TIE-$FROM-$TO-L$LEVELS-N$SHARDS" | tr ' /' '-_')
OUT=${OUT:-runs/curve-slurm/$NAME}
if [ "$GAME" = "beams 6c6p" ]; then
    if [ -n "${UNITS:-}" ]; then
        WITH=${WITH-$(ls results/runs/curves/beams-6c6p/"$TIE-$FROM-$TO".part-*.units.[gx]z 2>/dev/null || true)}
    fi
    CPUS=${CPUS:-2}
    MEM=${MEM:-4G}
fi
WITH=${WITH:-}
UNITS=${UNITS:-}
CPUS=${CPUS:-1}
MEM=${MEM:-1G}

if [ -z "${SLURM_JOB_ID:-}" ]; then
    # The driver: submit the array and the merge that waits for all of it.
    command -v sbatch >/dev/null || { echo "sbatch not found: not on a Slurm cluster" >&2; exit 2; }
    [ -x "$BIN" ] || cargo build --release --quiet
    mkdir -p "$OUT"
    export GAME TIE FROM TO LEVELS SHARDS BIN OUT WITH UNITS CPUS MEM PROGRESS
    # shellcheck disable=SC2206
    common=(--chdir="$PWD" --cpus-per-task="$CPUS" --mem="$MEM" ${TIME:+--time="$TIME"} ${SBATCH_OPTS:-})
    after=()
    if [ -n "$UNITS" ] && [ ! -s "$UNITS" ]; then
        list=$(STEP=list sbatch --parsable "${common[@]}" --job-name="list-$NAME" --output="$OUT/list-%j.out" "$SELF")
        list=${list%%;*}
        echo "submitted unit-list job $list → $UNITS"
        after=(--dependency="afterok:$list" --kill-on-invalid-dep=yes)
    fi
    array=$(sbatch --parsable "${common[@]}" "${after[@]}" --job-name="curve-$NAME" --array="0-$((SHARDS - 1))" \
        --output="$OUT/slurm-%A_%a.out" "$SELF")
    array=${array%%;*}
    echo "$(date -u +%FT%TZ) submitted job array $array: $SHARDS shards of curve $GAME ($TIE, [$FROM, $TO], levels $LEVELS) → $OUT"
    merge_opts=("${common[@]}" --job-name="merge-$NAME" --dependency="afterok:$array" --kill-on-invalid-dep=yes
        --output="$OUT/merge-%j.out")
    merge=$(sbatch --parsable "${merge_opts[@]}" "$SELF")
    merge=${merge%%;*}
    echo "submitted merge job $merge (afterok:$array); watch with: squeue -j $array,$merge"
    if [ "${WAIT:-0}" = 1 ]; then
        # Poll (sbatch --wait polls with growing pauses of up to 30 s).
        while squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; do
            sleep 2
        done
        state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || echo JobState=UNKNOWN)
        echo "$(date -u +%FT%TZ) merge job $merge: ${state#JobState=}"
        tail -3 "$OUT/merge-$merge.out" 2>/dev/null || true
        [ "$state" = JobState=COMPLETED ]
    fi
    exit 0
fi

# Inside a job.
export RAYON_NUM_THREADS=${SLURM_CPUS_PER_TASK:-$CPUS}
# shellcheck disable=SC2206
args=($GAME --tie "$TIE" --from "$FROM" --to "$TO" --levels "$LEVELS")
for w in $WITH; do
    args+=(--with "$w")
done
echo "$(date -u +%FT%TZ) job $SLURM_JOB_ID on $(hostname), $RAYON_NUM_THREADS threads"
start=$(date +%s)
if [ "${STEP:-}" = list ]; then
    "$BIN" curve "${args[@]}" --list-units --units "$UNITS" >"$UNITS.txt"
    head -1 "$UNITS.txt"
    echo "$(date -u +%FT%TZ) unit list written in $(($(date +%s) - start)) s: $UNITS"
    exit 0
fi
if [ -n "$UNITS" ]; then
    args+=(--units "$UNITS")
else
    args+=(--deal codes)
fi
if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    i=$SLURM_ARRAY_TASK_ID
    if [ "${SLURM_ARRAY_TASK_COUNT:-$SHARDS}" != "$SHARDS" ]; then
        echo "the array has $SLURM_ARRAY_TASK_COUNT tasks but SHARDS=$SHARDS: submit --array=0-$((SHARDS - 1))" >&2
        exit 2
    fi
    "$BIN" curve "${args[@]}" --shard "$i/$SHARDS" --checkpoint "$OUT/shard-$i-of-$SHARDS.units" ${PROGRESS:+--progress}
    echo "$(date -u +%FT%TZ) shard $i/$SHARDS done in $(($(date +%s) - start)) s"
else
    others=()
    for ((i = 1; i < SHARDS; i++)); do
        others+=(--with "$OUT/shard-$i-of-$SHARDS.units")
    done
    rm -f "$OUT/curve.csv" "$OUT/curve.json"
    "$BIN" curve "${args[@]}" --shard "0/$SHARDS" --checkpoint "$OUT/shard-0-of-$SHARDS.units" "${others[@]}" \
        --csv "$OUT/curve.csv" --json "$OUT/curve.json"
    # An incomplete run exits 0 without writing the curve: fail the job then.
    [ -s "$OUT/curve.csv" ] || { echo "not merged: units missing" >&2; exit 1; }
    echo "$(date -u +%FT%TZ) merged in $(($(date +%s) - start)) s: $OUT/curve.csv, $OUT/curve.json"
fi
