#!/usr/bin/env python3
"""Compare two runs of the same game tree unit by unit (e.g. Beams(6c,6p) H_2 under
MIX and under the reduced-list MIX, whose first two levels have the same units and
weights). The second run may be unfinished: the script reports the exact shift over
its finished units and the mean of the first run with that shift added, plus two
projections: the shift per finished code carried over to all codes, and the same per
unit size class (units of 10^k codes), since small and large units shift differently.

usage: scripts/compare_runs.py FINISHED OTHER   (each a checkpoint .jsonl or a finished shard file)
"""
import json
import sys
from fractions import Fraction


def records(path):
    """The unit records of a checkpoint or a finished shard file, and the run's
    codes if the file names them. Both are sealed lines (docs/runs.md, "File
    formats"): each line "CRC JSON"; line 1 the identity (a shard file's has
    "codes_total"), then one unit per line; a shard file ends with its
    {"finished": ...} line. The CRCs are not checked here (the program does)."""
    lines = [l for l in open(path).read().splitlines() if l.strip()]
    try:
        identity = json.loads(lines[0].split(" ", 1)[1])
    except (json.JSONDecodeError, IndexError):
        sys.exit(f"{path}: line 1 is not the identity line of a sealed run file")
    out = []
    for line in lines[1:]:
        try:
            record = json.loads(line.split(" ", 1)[1])
        except (json.JSONDecodeError, IndexError):  # a line cut off by a kill
            continue
        if "index" in record:
            out.append(record)
    return out, identity.get("codes_total")


def total(unit):
    return Fraction(unit["penalty"]) + sum(d * Fraction(c) for d, c in enumerate(unit["depth_counts"]))


def main(first_path, other_path):
    first, codes_total = records(first_path)
    other, _ = records(other_path)
    codes_total = codes_total or sum(Fraction(u.get("weight", "1")) * u["codes"] for u in first)
    by_index = {u["index"]: u for u in first}
    base = sum(Fraction(u.get("weight", "1")) * total(u) for u in first)
    shift, codes = Fraction(0), Fraction(0)
    for u in other:
        v = by_index[u["index"]]
        if (v["path"], v.get("queries"), v.get("weight")) != (u["path"], u.get("queries"), u.get("weight")):
            sys.exit(f"unit {u['index']}: the runs cut the tree differently; no unit-by-unit comparison")
        w = Fraction(u.get("weight", "1"))
        shift += w * (total(u) - total(v))
        codes += w * u["codes"]
    n = Fraction(codes_total)
    print(f"first run mean {float(base / n):.7f}")
    print(f"other run: {len(other)} units, {float(codes / n):.4f} of the codes; exact shift over them {float(shift / n):+.7f} per code of all")
    print(f"first run + that shift: {float((base + shift) / n):.7f}")
    if codes:
        print(f"shift per finished code {float(shift / codes):+.7f}; carried over to all codes: {float(base / n + shift / codes):.7f}")
        stratified = stratified_shift(first, other, by_index, shift / codes)
        print(f"by unit size (shift per code of each size class 10^k carried over to that class): {float(base / n + stratified / n):.7f}")


def size_class(unit):
    return len(str(unit["codes"]))


def stratified_shift(first, other, by_index, overall):
    """The finished shift plus, for each unfinished unit, its codes times the
    shift per code of the finished units of its size class (10^k codes; the
    overall rate where a class has no finished unit)."""
    done = {u["index"] for u in other}
    per_class = {}
    for u in other:
        w = Fraction(u.get("weight", "1"))
        s, c = per_class.get(size_class(u), (Fraction(0), Fraction(0)))
        per_class[size_class(u)] = (s + w * (total(u) - total(by_index[u["index"]])), c + w * u["codes"])
    shift = sum(s for s, _ in per_class.values())
    for u in first:
        if u["index"] not in done:
            s, c = per_class.get(size_class(u), (Fraction(0), Fraction(0)))
            rate = s / c if c else overall
            shift += Fraction(u.get("weight", "1")) * u["codes"] * rate
    return shift


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
