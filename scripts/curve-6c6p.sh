#!/bin/sh
# The exact α-curve of Beams(6c,6p) (thesis Fig. 4.12) as a resumable
# work-unit run (docs/curves-6c6p.md). Finished records are kept as compressed,
# immutable parts under results/runs/curves/beams-6c6p/ (scripts/curve-6c6p-part.py
# cuts the next part from the live checkpoint); this script resumes from all
# parts and the live checkpoint, and merges once every unit is known. The
# merged curve has millions of pieces: its full CSV goes to runs/ (gzip,
# git-ignored; the same command again rebuilds it from the parts), its
# overview (best α, exact values every 1/100, least/greatest mean per 1/1000
# of the range) next to the parts. The live checkpoint in runs/ does not
# survive a session: cut a part from it before the session stops (units
# finished after the last cut are otherwise evaluated again).
#
#   TIE=lex-c FROM=1 TO=2 scripts/curve-6c6p.sh          # one process
#   SHARD=0/2 scripts/curve-6c6p.sh                      # one shard of two
#   SKIP_PARTS="006" LIVE=runs/p6.units scripts/curve-6c6p.sh  # evaluate part 6's units again
#
# With SKIP_PARTS the named parts are not read, so their units are evaluated
# again into LIVE; a later run reading both must find each unit's records
# equal (a unit recorded twice must agree), and takes the session counters of
# the file read first (the live checkpoint).
#
# The merge runs in MERGE_SLICES slices of α (default 10: [1, 2] in tenths),
# each written as it is done, so that it holds one slice of the curve, not
# all of it (docs/curves-6c6p.md); with TO=inf, or MERGE_SLICES=0, in one piece.
#
# MIMALLOC_PURGE_DELAY=-1 keeps freed pages in the process (measured on unit
# 1805 of [1,2]: 68 s → 52 s wall, sys 36 s → 14 s; peak 7.8 → 10 GB).
# The process stops with exit code 2 once it holds more than its memory budget
# (default: three quarters of the machine, at most nine tenths of what is free
# at its start; MAX_MEMORY=GIB sets it); the units finished so far are in the
# checkpoint, so run it again with a larger budget or less beside it.
# Runs a copy of the release binary (BIN, default /tmp/rs-curve-<pid>), so
# rebuilding the tree meanwhile is safe.
set -eu
cd "$(dirname "$0")/.."
TIE=${TIE:-lex-c}
FROM=${FROM:-1}
TO=${TO:-2}
NAME="$TIE-$FROM-$TO"
DIR=results/runs/curves/beams-6c6p
LIVE=${LIVE:-runs/beams-6c6p-$NAME${SHARD:+-$(echo "$SHARD" | tr / of)}.units}
mkdir -p runs "$DIR"
# The run's parts are those its manifest NAME.sha256 lists (committed next to
# the overview); each is checked against its SHA-256 first. The parts may live
# outside the repository (PARTS_DIR; see docs/curves-6c6p.md, "Where records live").
PARTS=${PARTS_DIR:-$DIR}
MANIFEST="$DIR/$NAME.sha256"
# Parts written before records were keyed are read by nothing (docs/curves.md,
# "Parts of the older format"); keyed parts with their manifest
# NAME.keyed.sha256 in PARTS (written by the converter retired on 2026-11-29)
# are read instead.
if [ -e "$PARTS/$NAME.keyed.sha256" ]; then
    MANIFEST=$(cd "$PARTS" && pwd)/$NAME.keyed.sha256
fi
set --
if [ -e "$MANIFEST" ]; then
    (cd "$PARTS" && sha256sum -c --quiet "$(cd "$OLDPWD" && realpath "$MANIFEST")") || {
        echo "$MANIFEST: a part in $PARTS is missing or differs (scripts/fetch-curve-parts.sh $MANIFEST $PARTS brings them back)" >&2
        exit 2
    }
    for part in $(awk '{print $2}' "$MANIFEST"); do
        case " ${SKIP_PARTS:-} " in *" $(echo "$part" | sed 's/.*part-\([0-9]*\).*/\1/') "*) continue ;; esac
        set -- "$@" --with "$PARTS/$part"
    done
elif ls "$PARTS/$NAME".part-* >/dev/null 2>&1; then
    echo "$MANIFEST: missing, but $PARTS holds parts of $NAME (scripts/curve-6c6p-part.py $NAME --manifest-only)" >&2
    exit 2
fi
# Slices need a finite upper end; MERGE_SLICES=0 merges the whole range at once.
SLICES=${MERGE_SLICES:-10}
case "$TO" in inf | infinity | ∞) SLICES=0 ;; esac
if [ "$SLICES" -gt 0 ]; then set -- "$@" --merge-slices "$SLICES"; fi
BIN=${BIN:-/tmp/rs-curve-$$}
cargo build --release --quiet && cp target/release/renyi-search "$BIN"
MIMALLOC_PURGE_DELAY=-1 exec "$BIN" ${MAX_MEMORY:+--max-memory "$MAX_MEMORY"} curve beams 6c6p --tie "$TIE" --from "$FROM" --to "$TO" \
    --levels 2 --checkpoint "$LIVE" ${SHARD:+--shard "$SHARD"} "$@" \
    --overview "$DIR/$NAME.overview.json" --csv "runs/beams-6c6p-$NAME.csv.gz" --progress
