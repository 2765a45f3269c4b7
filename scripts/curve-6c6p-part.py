#!/usr/bin/env python3
"""Cuts the next compressed part of a Beams(6c,6p) curve run (scripts/curve-6c6p.sh).

Reads the live checkpoint (runs/beams-6c6p-NAME*.units) and the parts
results/runs/curves/beams-6c6p/NAME.part-*.units.{gz,xz}, and writes the records not
yet in a part (whole lines only) to the next part, with the run's header line. New
parts are xz-compressed (measured on part 8: 19.1 MB gzip, 12.3 MB xz -9e), by
the xz tool on two threads where it is installed (part 11 took 20 minutes in
Python's single-threaded lzma). Parts are immutable; every record is in exactly
one part. The run's manifest NAME.sha256 (sha256sum format, committed) lists
every part with its SHA-256; the parts may live elsewhere (PARTS_DIR), the
manifest is what ties them to the repository. Usage:

    scripts/curve-6c6p-part.py lex-c-1-2
    scripts/curve-6c6p-part.py lex-c-1-2 --manifest-only   # (re)write the manifest
    scripts/curve-6c6p-part.py lex-c-1-2 --replace 001,006 runs/beams-6c6p-lex-c-1-2-redo.units

--replace rewrites the named parts from a checkpoint in which their units were
evaluated again (curve-6c6p.sh with SKIP_PARTS and LIVE): every unit of a part
must be in the checkpoint, with a valid checksum and the same step function
(points, values, steps) as the part's record; only its timing and session
counters differ. The new part takes the old one's number (as .xz), so the
units' session counters are those of the new evaluation.
"""
import glob
import gzip
import hashlib
import json
import lzma
import os
import shutil
import subprocess
import sys
import zlib
from fractions import Fraction

name = sys.argv[1]
DIR = "results/runs/curves/beams-6c6p"
PARTS = os.environ.get("PARTS_DIR", DIR)


def write_manifest():
    """NAME.sha256 in DIR: one 'sha256  file' line per part, as sha256sum -c reads it in PARTS_DIR."""
    lines = []
    for part in sorted(glob.glob(f"{PARTS}/{name}.part-*.units.[gx]z")):
        h = hashlib.sha256()
        with open(part, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        lines.append(f"{h.hexdigest()}  {os.path.basename(part)}\n")
    path = f"{DIR}/{name}.sha256"
    with open(path + ".tmp", "w") as f:
        f.writelines(lines)
    os.replace(path + ".tmp", path)
    print(f"{path}: {len(lines)} parts")


def compress(text, out):
    """Writes text xz-compressed to out through out.tmp, checked by decompressing it."""
    if shutil.which("xz"):
        with open(out + ".tmp", "wb") as f:
            subprocess.run(["xz", "-9e", "-T2", "-c"], input=text, stdout=f, check=True)
    else:
        with lzma.open(out + ".tmp", "wb", preset=9 | lzma.PRESET_EXTREME) as f:
            f.write(text)
    with lzma.open(out + ".tmp", "rb") as f:
        if f.read() != text:
            sys.exit(f"{out}.tmp: does not decompress to the records written")
    os.replace(out + ".tmp", out)


def part_lines(path):
    """The lines of a part (.gz or .xz): the run's header, then one record each."""
    with (gzip.open if path.endswith(".gz") else lzma.open)(path, "rt") as f:
        return f.read().splitlines()


def run_key(header_line):
    """The key a file's records are sealed with: its header line's CRC (None in
    parts written before records were keyed, whose CRC covers the record alone)."""
    crc, text = header_line.split(" ", 1)
    return crc if json.loads(text).get("keyed") else None


def same_run(a, b):
    """Whether two header lines name one run: equal fields, the α-range by value."""
    def identity(line):
        h = json.loads(line.split(" ", 1)[1])
        h.pop("keyed", None)
        d = h.pop("domain")
        lo, hi = d[1:-1].split(",")
        return h, d[0], Fraction(lo.strip()) if lo.strip() != "inf" else "inf", Fraction(hi.strip()) if hi.strip() != "inf" else "inf", d[-1]
    return identity(a) == identity(b)


def record(line, where, key):
    """The record of a 'crc32 json' line, its checksum (over the run's key and the JSON) checked."""
    crc, text = line.split(" ", 1)
    sealed = text if key is None else f"{key} {text}"
    if int(crc, 16) != zlib.crc32(sealed.encode()):
        sys.exit(f"{where}: a record fails its checksum: {text[:80]}")
    return json.loads(text)


def replace(numbers, live):
    """Rewrites parts NNN from the records of the same units in the checkpoint live."""
    lines = open(live).read().split("\n")[:-1]
    again = {}
    for line in lines[1:]:
        again[record(line, live, run_key(lines[0]))["key"]] = line
    same = ("key", "codes", "points", "values", "steps")
    checked = []  # every part is checked before any is written
    for number in numbers:
        found = glob.glob(f"{PARTS}/{name}.part-{number}.units.[gx]z")
        if len(found) != 1:
            sys.exit(f"{PARTS}: no single part {number} of {name}")
        old = found[0]
        old_lines = part_lines(old)
        if not same_run(old_lines[0], lines[0]):
            sys.exit(f"{live}: another run's header than {old}")
        new, sessions = [], set()
        for line in old_lines[1:]:
            r = record(line, old, run_key(old_lines[0]))
            if r["key"] not in again:
                sys.exit(f"{live}: no record of unit {r['key']} of {old}")
            n = record(again[r["key"]], live, run_key(lines[0]))
            if any(r[k] != n[k] for k in same):
                sys.exit(f"{live}: unit {r['key']} differs from its record in {old}")
            new.append(again[r["key"]])
            sessions.add((n["session_started"], n["session_uncertified"], n["session_float_ties"]))
        checked.append((number, old, new, sessions))
    for number, old, new, sessions in checked:
        out = f"{PARTS}/{name}.part-{number}.units.xz"
        compress((lines[0] + "\n" + "".join(line + "\n" for line in new)).encode(), out)
        if old != out:
            os.remove(old)
        print(f"{out}: {len(new)} records equal to {os.path.basename(old)}'s; their sessions (start, uncertified, float ties) now {sorted(sessions)}")
    write_manifest()


if "--manifest-only" in sys.argv:
    write_manifest()
    sys.exit(0)
if "--replace" in sys.argv:
    i = sys.argv.index("--replace")
    replace(sys.argv[i + 1].split(","), sys.argv[i + 2])
    sys.exit(0)
parts = sorted(glob.glob(f"{PARTS}/{name}.part-*.units.[gx]z"))
known = set()
codes_in_parts = 0
for part in parts:
    for line in part_lines(part)[1:]:
        r = json.loads(line.split(" ", 1)[1])
        known.add(r["key"])
        codes_in_parts += r["codes"]
header, new = None, []
for live in sorted(glob.glob(f"runs/beams-6c6p-{name}*.units")):
    text = open(live).read()
    lines = text.split("\n")[:-1]  # a last line without its newline is not whole
    if not lines:
        continue
    header = header or lines[0]
    if not same_run(lines[0], header):
        sys.exit(f"{live}: another run's header")
    for line in lines[1:]:
        key = json.loads(line.split(" ", 1)[1])["key"]
        if key not in known:
            known.add(key)
            new.append(line)
if not new:
    print("nothing new")
    sys.exit(0)
# Every record must pass its checksum (CRC-32 of its JSON, in hex) before it
# goes into an immutable part; what the part holds is summed up for the docs.
codes = points = 0
seconds = 0.0
sessions = {}  # session start -> (uncertified, float-decided ties) at its last record
for line in new:
    r = record(line, "the live checkpoint", run_key(header))
    codes, points, seconds = codes + r["codes"], points + len(r["points"]), seconds + r["seconds"]
    u, f = sessions.get(r["session_started"], (0, 0))
    sessions[r["session_started"]] = (max(u, r["session_uncertified"]), max(f, r["session_float_ties"]))
uncertified = sum(u for u, _ in sessions.values())
float_ties = sum(f for _, f in sessions.values())
print(
    f"{len(new)} records: {codes} codes, {points} points, {seconds:.0f} unit-seconds; "
    f"{len(sessions)} sessions, {uncertified} uncertified events, {float_ties} float-decided ties"
)
out = f"{PARTS}/{name}.part-{len(parts) + 1:03d}.units.xz"
compress((header + "\n" + "".join(line + "\n" for line in new)).encode(), out)
print(f"{out}: {len(new)} records; all parts: {len(known)} units, {codes_in_parts + codes} codes")
write_manifest()
