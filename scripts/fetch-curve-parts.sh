#!/usr/bin/env bash
# Brings the unit parts of one committed curve run back into a directory and
# checks every part against the run's committed manifest (NAME.sha256, one
# SHA-256 per part, sha256sum format). Parts are not kept in the tree any more
# (README, "Run records"); the manifest, the overview and the figures are.
#
#   scripts/fetch-curve-parts.sh MANIFEST [DEST]
#
# MANIFEST  e.g. results/runs/curves/beams-6c6p/lex-c-2-2.5.sha256
# DEST      where the parts go (default: the manifest's directory)
#
# Each part is taken from the first source that has it:
#   1. DEST itself, if the part is already there (it is checked all the same);
#   2. the directory $RENYI_DATA_DIR, if set (a copy of the deposit);
#   3. the data deposit $RENYI_DATA_URL, if set: $RENYI_DATA_URL/<part file name>
#      (any URL curl reads, file:// included; nothing is hosted yet);
#   4. this repository's history: the last commit that held the part at its
#      path (needs a clone with history: `git fetch --unshallow` after a
#      `git clone --depth 1`).
# Committed manifests list parts of the older, unkeyed record format, which the
# program no longer reads (docs/curves.md, "Parts of the older format"): they
# serve tests/curve_rekey.rs, which wrote each run's NAME.units.tsv from them.
# A unit is rebuilt by computing it again and checked against NAME.units.tsv
# (docs/runs.md). A manifest of keyed parts (NAME.keyed.sha256, written by the
# retired converter; never in git) is taken as well.
# Every part is checked with its SHA-256 before it is put in place (written to
# a temporary name first, renamed after the check); a part that is missing
# everywhere or differs from its manifest stops the script with one line and
# exit code 2, and nothing that failed its check is left behind.
set -euo pipefail

die() { echo "fetch-curve-parts: $*" >&2; exit 2; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: scripts/fetch-curve-parts.sh MANIFEST [DEST]"
manifest=$1
[ -f "$manifest" ] || die "no manifest $manifest"
mdir=$(cd "$(dirname "$manifest")" && pwd)
dest=${2:-$mdir}
mkdir -p "$dest" || die "cannot create $dest"
repo=$(git -C "$mdir" rev-parse --show-toplevel 2>/dev/null || true)

tmp=""
cleanup() { if [ -n "$tmp" ]; then rm -f "$tmp"; fi; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# Writes the part NAME from the first source that has it to $tmp; 1 if none has it.
fetch_one() {
    local name=$1
    if [ -n "${RENYI_DATA_DIR:-}" ] && [ -f "$RENYI_DATA_DIR/$name" ]; then
        cp "$RENYI_DATA_DIR/$name" "$tmp" && echo "dir $RENYI_DATA_DIR" && return 0
    fi
    if [ -n "${RENYI_DATA_URL:-}" ]; then
        curl -fsSL "${RENYI_DATA_URL%/}/$name" -o "$tmp" 2>/dev/null && echo "deposit $RENYI_DATA_URL" && return 0
    fi
    if [ -n "$repo" ]; then
        local rel=${mdir#"$repo"/}/$name commit
        # The commit that removed the part (or the last that changed it); its
        # parent, or itself, holds the bytes.
        commit=$(git -C "$repo" log -1 --format=%H -- "$rel" 2>/dev/null || true)
        if [ -n "$commit" ]; then
            for c in "$commit" "$commit^"; do
                if git -C "$repo" cat-file -e "$c:$rel" 2>/dev/null; then
                    git -C "$repo" show "$c:$rel" >"$tmp" && echo "git $(git -C "$repo" rev-parse --short=12 "$c")" && return 0
                fi
            done
        fi
    fi
    return 1
}

fetched=0
present=0
while read -r hash name; do
    [ -n "${hash:-}" ] || continue
    [[ $hash =~ ^[0-9a-f]{64}$ ]] || die "$manifest: not a sha256sum line: $hash $name"
    [[ $name != */* ]] || die "$manifest: part name with a directory: $name"
    target=$dest/$name
    if [ -f "$target" ]; then
        [ "$(sha256sum "$target" | cut -d' ' -f1)" = "$hash" ] \
            || die "$target differs from its manifest $manifest (sha256); remove it to fetch it again"
        present=$((present + 1))
        continue
    fi
    tmp=$(mktemp "$dest/.$name.XXXXXX")
    from=$(fetch_one "$name") || die "part $name found nowhere (set RENYI_DATA_DIR or RENYI_DATA_URL, or use a clone with history)"
    got=$(sha256sum "$tmp" | cut -d' ' -f1)
    [ "$got" = "$hash" ] || die "part $name from $from differs from its manifest (sha256 $got, expected $hash); not written"
    chmod 644 "$tmp"
    mv "$tmp" "$target"
    tmp=""
    fetched=$((fetched + 1))
    echo "$name: from $from, sha256 checked"
done <"$manifest"
echo "$(basename "$manifest"): $fetched parts fetched, $present already present and checked, into $dest"
