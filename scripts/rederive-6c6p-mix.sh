#!/bin/sh
# Re-derives the four Beams(6c,6p) MIX cells of Table 4.10 from scratch
# (docs/runs.md, "penalty splits re-derived"), one after another.
#
# The work directory is rederive/ beside the runs ($RUNS/rederive, committed
# while a re-derivation is under way; removed once all four were in place), because
# a session's runs/ does not survive it: commit that directory before a
# session stops, and the next session resumes where this one was. A cell is
# skipped when the committed run beside it already records the penalty split
# (it has been re-derived and put in place), or when its re-derived .json is
# in the work directory (finished, waiting to be compared unit by unit and put
# in place); an unfinished cell resumes from its checkpoint. Runs a copy of the
# release binary (BIN, default /tmp/rs-rederive), so rebuilding the tree
# meanwhile is safe. Each session of a cell leaves its GNU time output in
# <work>/<cell>.time.<YYYYmmdd-HHMM>.txt; progress goes to runs/rederive/.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-/tmp/rs-rederive}
RUNS=results/runs/beams-6c6p
WORK=$RUNS/rederive
mkdir -p "$WORK" runs/rederive
[ -x "$BIN" ] || { cargo build --release --quiet && cp target/release/renyi-search "$BIN"; }
for cell in "1 mix-reduced" "2 mix-reduced" "2 mix" "1 mix"; do
    set -- $cell
    name=beams-6c6p-h$1-$2
    if head -n 1 "$RUNS/$name.jsonl" 2>/dev/null | grep -q '"penalty_split"'; then continue; fi
    [ -e "$WORK/$name.json" ] && continue
    /usr/bin/time -v -o "$WORK/$name.time.$(date -u +%Y%m%d-%H%M).txt" "$BIN" analyze beams 6c6p --alpha "$1" --tie "$2" \
        --checkpoint "$WORK/$name.jsonl" --out "$WORK/$name.json" --progress \
        2>> "runs/rederive/$name.progress.log"
done
