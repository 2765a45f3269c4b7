#!/usr/bin/env python3
"""Writes the unit manifest of a curve run: results/runs/curves/beams-6c6p/<name>.units.tsv.

One line per unit, sorted by key: the SHA-256 of the unit's content, its codes,
the part holding it, and its key. The content is what a recomputation of the
unit reproduces — its step function without timings or session counters:
the compact JSON array [key, codes, points, values, steps] exactly as
serde_json writes it (the fields in record order, no spaces, non-ASCII raw).
A rebuilt part therefore cannot match its file hash (NAME.sha256: the
records hold wall seconds), but every rebuilt unit matches its line here.
The first line is the run's key: '# run ' and the header JSON of the parts.
Keys are the program's exact unit keys (docs/runs.md, "Unit keys of curve
runs"); parts of the older format carry the old printed keys, so a manifest
written from them has old keys (the committed runs' manifests were written
with exact keys by tests/curve_rekey.rs instead).

    scripts/curve-unit-manifest.py lex-c-1-2        # parts from PARTS_DIR (default: the run's directory)
"""
import glob
import gzip
import hashlib
import json
import lzma
import os
import sys
import zlib

name = sys.argv[1]
DIR = "results/runs/curves/beams-6c6p"
PARTS = os.environ.get("PARTS_DIR", DIR)


def content_hash(r):
    text = json.dumps([r["key"], r["codes"], r["points"], r["values"], r["steps"]], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def main():
    listed = [line.split()[1] for line in open(f"{DIR}/{name}.sha256")]
    units, header = {}, None
    for part in listed:
        path = f"{PARTS}/{part}"
        opener = gzip.open if part.endswith(".gz") else lzma.open
        with opener(path, "rt", encoding="utf-8") as f:
            first = f.readline().rstrip("\n")
            crc, text = first.split(" ", 1)
            h = json.loads(text)
            key = crc if h.get("keyed") else None
            h.pop("keyed", None)
            if header is not None and h != header:
                sys.exit(f"{path}: another run's header")
            header = h
            for number, line in enumerate(f, start=2):
                crc, text = line.rstrip("\n").split(" ", 1)
                sealed = text if key is None else f"{key} {text}"
                if int(crc, 16) != zlib.crc32(sealed.encode()):
                    sys.exit(f"{path} line {number}: the record fails its checksum")
                r = json.loads(text)
                if r["key"] in units:
                    sys.exit(f"{path} line {number}: unit {r['key']!r} is in two parts")
                units[r["key"]] = (content_hash(r), r["codes"], part)
    out = f"{DIR}/{name}.units.tsv"
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write("# run " + json.dumps(header, separators=(",", ":"), ensure_ascii=False) + "\n")
        for key in sorted(units):
            digest, codes, part = units[key]
            f.write(f"{digest}\t{codes}\t{part}\t{key}\n")
    os.replace(out + ".tmp", out)
    print(f"{out}: {len(units)} of {header['units']} units, {sum(u[1] for u in units.values())} of {header['unit_codes']} codes")


main()
