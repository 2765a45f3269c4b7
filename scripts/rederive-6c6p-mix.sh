#!/bin/sh
# Re-derives the four Beams(6c,6p) MIX cells of Table 4.10 from scratch
# (docs/runs.md, "penalty splits re-derived"), one after another, into
# runs/rederive/. Resumable: run it again; a cell with its .json is skipped,
# an unfinished one resumes from its checkpoint. Runs a copy of the release
# binary (BIN, default /tmp/rs-rederive), so rebuilding the tree meanwhile is
# safe. Each session of a cell leaves GNU time output in
# runs/rederive/<cell>.time.<HHMM>.txt.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-/tmp/rs-rederive}
mkdir -p runs/rederive
[ -x "$BIN" ] || { cargo build --release --quiet && cp target/release/renyi-search "$BIN"; }
for cell in "1 mix-reduced" "2 mix-reduced" "2 mix" "1 mix"; do
    set -- $cell
    name=beams-6c6p-h$1-$2
    [ -e "runs/rederive/$name.json" ] && continue
    /usr/bin/time -v -o "runs/rederive/$name.time.$(date +%H%M).txt" "$BIN" analyze beams 6c6p --alpha "$1" --tie "$2" \
        --checkpoint "runs/rederive/$name.jsonl" --out "runs/rederive/$name.json" --progress \
        2>> "runs/rederive/$name.progress.log"
done
