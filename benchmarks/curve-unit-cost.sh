#!/bin/sh
# The per-unit cost of a curve work-unit run (issue 53 item 4): a fixed sample
# of Beams(6c,6p) LEX-c units on [2, 2.5] (levels 2), each run alone as a shard
# of the run's unit list (`--units LIST --shard i/N`, N = the number of units),
# one thread. Prints per unit its codes, the unit's seconds (from its record),
# the process's CPU seconds, and the content hash of its step function (the
# hash of results/runs/curves/beams-6c6p/lex-c-FROM-TO.units.tsv: key, codes,
# points, values, steps), then the unit-seconds per million unit codes.
#
#   benchmarks/curve-unit-cost.sh                      # the default sample
#   BIN=/path/to/other/renyi-search benchmarks/curve-unit-cost.sh
#   FROM=0.5 TO=1 SAMPLE=1898 benchmarks/curve-unit-cost.sh   # a unit of [0.5, 1]
#
# Parameters (environment):
#   BIN     the program                           [target/release/renyi-search]
#   FROM TO the run's range, one with committed records
#           (results/runs/curves/beams-6c6p/lex-c-FROM-TO.units.tsv)  [2 2.5]
#   UNITS   the run's unit list, written once by
#           `curve beams 6c6p --tie lex-c --from FROM --to TO --levels 2 --list-units --units FILE`
#           (about 40 CPU-s, 3.8 GB)              [runs/unit-cost/lex-c-FROM-TO.list, written if absent]
#   SAMPLE  unit numbers in the list              [17 491 37]  (0.52 M, 1.97 M, 2.45 M codes)
#           (of [0.5, 1]: 1898, 1.64 M codes, `colour 0 diagonal 2>6/colour 1 diagonal 16>14`)
#   CODES   code table directory                  [codes]
#   OUT     directory for the units' files        [runs/unit-cost/<time>]
# A unit's hash equal to the committed one (MATCH) shows the step function is
# unchanged. Needs python3.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/renyi-search}
FROM=${FROM:-2}
TO=${TO:-2.5}
UNITS=${UNITS:-runs/unit-cost/lex-c-$FROM-$TO.list}
SAMPLE=${SAMPLE:-17 491 37}
CODES=${CODES:-codes}
OUT=${OUT:-runs/unit-cost/$(date -u +%Y%m%dT%H%M%S)}
RUN="beams 6c6p --tie lex-c --from $FROM --to $TO --levels 2 --codes $CODES"
mkdir -p "$OUT" "$(dirname "$UNITS")"
# shellcheck disable=SC2086
[ -f "$UNITS" ] || "$BIN" curve $RUN --list-units --units "$UNITS" >/dev/null
N=$(($(wc -l <"$UNITS") - 1))
echo "$(uname -n) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $BIN"
for i in $SAMPLE; do
    rm -f "$OUT/unit-$i.units"
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S" -o "$OUT/unit-$i.time" env RAYON_NUM_THREADS=1 \
        "$BIN" curve $RUN --units "$UNITS" --shard "$i/$N" --checkpoint "$OUT/unit-$i.units" >"$OUT/unit-$i.log" 2>&1
done
python3 - "$OUT" "results/runs/curves/beams-6c6p/lex-c-$FROM-$TO.units.tsv" $SAMPLE <<'EOF'
import hashlib, json, sys
out, tsv, sample = sys.argv[1], sys.argv[2], sys.argv[3:]
committed = {l.rstrip("\n").split("\t")[3]: l.split("\t")[0] for l in open(tsv) if not l.startswith("#")}
codes = seconds = cpu = 0
print("unit\tcodes\tunit s\tprocess CPU s\tcontent hash\tvs committed")
for i in sample:
    r = json.loads(open(f"{out}/unit-{i}.units").read().splitlines()[1].split(" ", 1)[1])
    text = json.dumps([r["key"], r["codes"], r["points"], r["values"], r["steps"]], separators=(",", ":"), ensure_ascii=False)
    h = hashlib.sha256(text.encode()).hexdigest()
    c = sum(map(float, open(f"{out}/unit-{i}.time").read().split()[-2:]))
    codes, seconds, cpu = codes + r["codes"], seconds + r["seconds"], cpu + c
    print(f"{i}\t{r['codes']}\t{r['seconds']:.2f}\t{c:.2f}\t{h[:16]}\t{'MATCH' if committed.get(r['key']) == h else 'DIFFERS'}")
print(f"sample: {codes} codes, {seconds:.2f} unit-s ({seconds / codes * 1e6:.2f} s per million codes), {cpu:.2f} process CPU-s")
EOF
