#!/usr/bin/env python3
"""Cuts the next compressed part of a Beams(6c,6p) curve run (scripts/curve-6c6p.sh).

Reads the live checkpoint (runs/beams-6c6p-NAME*.units) and the parts
results/runs/curves/beams-6c6p/NAME.part-*.units.{gz,xz}, and writes the records not
yet in a part (whole lines only) to the next part, with the run's header line. New
parts are xz-compressed (measured on part 8: 19.1 MB gzip, 12.3 MB xz -9e).
Parts are immutable; every record is in exactly one part. Usage:

    scripts/curve-6c6p-part.py lex-c-1-2
"""
import glob
import gzip
import json
import lzma
import os
import sys

name = sys.argv[1]
parts = sorted(glob.glob(f"results/runs/curves/beams-6c6p/{name}.part-*.units.[gx]z"))
known = set()
for part in parts:
    with (gzip.open if part.endswith(".gz") else lzma.open)(part, "rt") as f:
        for line in f.read().splitlines()[1:]:
            known.add(json.loads(line.split(" ", 1)[1])["key"])
header, new = None, []
for live in sorted(glob.glob(f"runs/beams-6c6p-{name}*.units")):
    text = open(live).read()
    lines = text.split("\n")[:-1]  # a last line without its newline is not whole
    if not lines:
        continue
    header = header or lines[0]
    if lines[0] != header:
        sys.exit(f"{live}: another run's header")
    for line in lines[1:]:
        key = json.loads(line.split(" ", 1)[1])["key"]
        if key not in known:
            known.add(key)
            new.append(line)
if not new:
    print("nothing new")
    sys.exit(0)
out = f"results/runs/curves/beams-6c6p/{name}.part-{len(parts) + 1:03d}.units.xz"
with lzma.open(out + ".tmp", "wt", preset=9 | lzma.PRESET_EXTREME) as f:
    f.write(header + "\n" + "".join(line + "\n" for line in new))
os.replace(out + ".tmp", out)
print(f"{out}: {len(new)} records, {len(known)} in all parts")
