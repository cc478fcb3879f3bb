#!/usr/bin/env bash
# lab/export.sh - stage "export": write build/linux's commits back to patches/.
#
# What it does: runs git format-patch over mmscale/base..HEAD of build/linux
# with stable output (zero commit ids, no signature, fixed abbreviation), so
# an unchanged tree re-exports byte for byte, replaces patches/NNNN-*.patch,
# rewrites patches/series and records the base version in patches/BASE.
# With an argument DIR it writes the patch files and series to DIR instead
# and leaves patches/ alone (lab/tree.sh uses that to spot unexported work).
# What it needs: git, build/linux from lab/tree.sh.  Writes patches/ or DIR.
set -euo pipefail
source "$(dirname "$0")/common.sh"
stage export

out=${1:-$PATCHES}
[ -d "$TREE/.git" ] || die "$TREE does not exist; run 'make tree' first"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes; commit them first (git commit / --fixup)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$TREE" -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
	--no-base -o "$tmp" "$BASE_TAG..HEAD" || die "git format-patch failed"

mkdir -p "$out"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
: > "$out/series"
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	cp "$f" "$out/"
	basename "$f" >> "$out/series"
done
if [ "$out" = "$PATCHES" ]; then
	{
		echo "Linux $(cat "$BUILD/src.version")"
		echo "source: $(sed -e 's/@.*//' -e 's/ (baseline format [0-9]*)//' "$BUILD/src.origin")"
	} > "$PATCHES/BASE"
	say "exported $(wc -l < "$out/series") patch(es) to $out"
fi
