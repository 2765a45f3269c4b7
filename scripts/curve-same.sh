#!/bin/sh
# Are two curves the same? Compares the JSON (every field but provenance:
# command, start, seconds, threads) and the CSV rows (a `#` comment line, which
# CSVs written before issue 49 item 8 begin with, is skipped) of two `curve` outputs, e.g. a
# one-process run and a merged work-unit run. Needs jq.
#
#   scripts/curve-same.sh one.json one.csv merged.json merged.csv
#
# Prints "equal" (exit 0) or the first differences (exit 1).
set -eu
[ $# -eq 4 ] || { echo "usage: $0 A.json A.csv B.json B.csv" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# nodes_evaluated counts the walk of the process that wrote the file (a merge
# walks the top levels only): compared separately, reported, not a difference.
jq -S 'del(.provenance, .nodes_evaluated)' "$1" >"$tmp/a.json"
jq -S 'del(.provenance, .nodes_evaluated)' "$3" >"$tmp/b.json"
grep -v '^#' "$2" >"$tmp/a.csv" || true
grep -v '^#' "$4" >"$tmp/b.csv" || true
same=yes
for f in json csv; do
    if cmp -s "$tmp/a.$f" "$tmp/b.$f"; then
        echo "$f: equal ($(wc -l <"$tmp/a.$f") lines; segments $(jq '.segments | length' "$tmp/a.json"))"
    else
        same=no
        echo "$f: DIFFERENT"
        diff "$tmp/a.$f" "$tmp/b.$f" | head -20
    fi
done
echo "nodes_evaluated: $(jq .nodes_evaluated "$1") vs $(jq .nodes_evaluated "$3")"
[ "$same" = yes ] && echo equal
[ "$same" = yes ]
