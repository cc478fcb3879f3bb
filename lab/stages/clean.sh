#!/usr/bin/env bash
# lab/stages/clean.sh - "make clean": delete build/ (BUILD), everything the lab
# generated.
#
# What it does: deletes BUILD (default build/<line>, the line's folder) only
# when it is the lab's own: in the checkout's build/ (or the folder the
# link build/ points to), or a folder that
# carries the marker lab/lib/common.sh's build_mark writes when the lab makes
# it (.mmscale-build).  Whatever BUILD says, it never deletes a folder that
# is or holds the checkout, or that holds a file git tracks: those, and a
# folder without the marker, are refused with one line and nothing deleted.
# It also refuses while any git tree at or below BUILD holds work: a line's
# build/<line>/linux work that is not in patches/ (uncommitted edits, or
# commits that make export would write differently or that are not in
# patches/: the check make tree runs before it resets the tree,
# lab/stages/export.sh --check), any other tree an uncommitted edit; and
# it never deletes a folder inside a kernel tree (BUILD=build/7.3/linux/mm).
# FORCE=1 deletes BUILD with that work (FORCE never overrides the folder
# checks).  Saved benchmark results
# (build/results/) go too.
# What it needs: git.  Deletes BUILD.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=clean
[ $# = 0 ] || { echo "usage: $0   (no arguments; FORCE=1 deletes unexported work too)" >&2; exit 2; }
want_bool FORCE
build=$(realpath -m -- "$BUILD")
top=$(realpath -m -- "$TOP")
[ -e "$build" ] || { say "nothing to delete: $BUILD does not exist"; exit 0; }
[ -d "$build" ] || die "BUILD=$BUILD is not a folder; refusing to delete it"
case $top/ in
"${build%/}/"*) die "BUILD=$BUILD holds this checkout ($top); refusing to delete it" ;;
esac
case $build in
"$top"/*)
	rel=${build#"$top"/}
	[ -z "$(git -C "$top" ls-files -- "$rel" | head -n1)" ] ||
		die "BUILD=$BUILD holds files tracked by git ($rel); refusing to delete it" ;;
esac
lab_build=$(realpath -m -- "$top/build")
if [ "$build" != "$lab_build" ] && [[ $build != "$lab_build"/* ]] && [ ! -f "$build/$BUILD_MARKER" ]; then
	die "BUILD=$BUILD was not made by the lab (no $BUILD_MARKER in it); refusing to delete it"
fi
# A folder inside a kernel tree (BUILD=build/7.3/linux/mm) is part of that
# tree's work, never a build folder of its own.
kt=$(git -C "$build" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$kt" ] && [ "$kt" != "$top" ] && [ "$kt" != "$build" ]; then
	die "BUILD=$BUILD is inside the kernel tree $kt; refusing to delete part of a tree (make clean deletes a whole build folder, such as ${lab_build#"$top"/}/$BASE)"
fi

# Every git tree at or below BUILD, whatever BUILD names: the line's
# build/<line>/linux gets make tree's whole check (lab/lib/common.sh
# export.sh --check, under its own line); any other tree (the lab's scratch
# clones) must hold no uncommitted edit.
work=()
tree=$(realpath -m -- "$TREE")
while IFS= read -r g; do
	t=$(dirname "$g")
	line=
	for l in $LINES; do
		[ "$t" = "$lab_build/$l/linux" ] && line=$l
	done
	if [ "$t" = "$tree" ] || [ -n "$line" ]; then
		# the tree of this line with this line's settings, another
		# line's with its own
		if [ "$t" = "$tree" ]; then
			w=$(BUILD=$BUILD TREE=$TREE PATCHES=$PATCHES \
				progress "checking $t for work that is not in patches/" "$LAB_DIR/stages/export.sh" --check)
		else
			w=$(BASE=$line BUILD=$(dirname "$t") TREE=$t PATCHES=$top/patches/$line \
				progress "checking $t for work that is not in patches/" "$LAB_DIR/stages/export.sh" --check)
		fi || die "could not check $t for work that is not in patches/"
		w=$(sed -n 's/^unexported=//p' <<< "$w")
	elif [ -n "$(GIT_OPTIONAL_LOCKS=0 git -C "$t" status --porcelain --untracked-files=no 2>&1)" ]; then
		w="$t has uncommitted changes"
	else
		w=
	fi
	[ -z "$w" ] || work+=("$w")
done < <(find "$build" -maxdepth 4 -name .git -prune -print 2>/dev/null)
if [ ${#work[@]} -gt 0 ]; then
	[ "${FORCE:-0}" = 1 ] ||
		die "${work[0]}$([ ${#work[@]} -gt 1 ] && echo " (and ${#work[@]} more trees with work)"); run 'make export' first, or FORCE=1 make clean to delete that work with $BUILD"
	say "FORCE=1: deleting work that is not in patches/: ${work[*]}"
fi
progress "deleting $BUILD" rm -rf -- "$build"
say "deleted $BUILD"
