#!/usr/bin/env bash
# lab/clean.sh - "make clean": delete build/ (BUILD), everything the lab
# generated.
#
# What it does: deletes BUILD (default build/<line>, the line's folder) only
# when it is the lab's own: in the checkout's build/ (or the folder the
# link build/ points to), or a folder that
# carries the marker lab/common.sh's build_mark writes when the lab makes
# it (.mmscale-build).  Whatever BUILD says, it never deletes a folder that
# is or holds the checkout, or that holds a file git tracks: those, and a
# folder without the marker, are refused with one line and nothing deleted.
# It also refuses while build/linux holds work that is not in patches/
# (uncommitted edits, or commits that make export would write differently
# or that are not in patches/: the check make tree runs before it resets the
# tree, lab/common.sh's unexported_work).  FORCE=1 deletes BUILD with that
# work (FORCE never overrides the folder checks).  Saved benchmark results
# (build/results/) go too.
# What it needs: git.  Deletes BUILD.
set -euo pipefail
source "$(dirname "$0")/common.sh"
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
unexported_work
if [ -n "$UNEXPORTED" ]; then
	[ "${FORCE:-0}" = 1 ] ||
		die "$UNEXPORTED; run 'make export' first, or FORCE=1 make clean to delete that work with $BUILD"
	say "FORCE=1: deleting the work in $TREE that is not in patches/ ($UNEXPORTED)"
fi
rm -rf -- "$build"
say "deleted $BUILD"
