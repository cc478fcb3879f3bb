#!/usr/bin/env bash
# lab/clean.sh - "make clean": delete build/ (BUILD), everything the lab
# generated.
#
# What it does: refuses, with one line and nothing deleted, while
# build/linux holds work that is not in patches/ (uncommitted edits, or
# commits that make export would write differently or that are not in
# patches/: the check make tree runs before it resets the tree,
# lab/common.sh's unexported_work).  FORCE=1 deletes build/ with that work.
# Saved benchmark results (build/results/) go too.
# What it needs: git.  Deletes BUILD.
set -euo pipefail
source "$(dirname "$0")/common.sh"
STAGE=clean
[ $# = 0 ] || { echo "usage: $0   (no arguments; FORCE=1 deletes unexported work too)" >&2; exit 2; }
want_bool FORCE
build=$(realpath -m "$BUILD")
case $build in
/ | "$(realpath -m "$TOP")" | "$(realpath -m "${HOME:-/}")")
	die "BUILD=$BUILD is not a build folder; refusing to delete it" ;;
esac
[ -e "$build" ] || { say "nothing to delete: $BUILD does not exist"; exit 0; }
unexported_work
if [ -n "$UNEXPORTED" ]; then
	[ "${FORCE:-0}" = 1 ] ||
		die "$UNEXPORTED; run 'make export' first, or FORCE=1 make clean to delete that work with $BUILD"
	say "FORCE=1: deleting the work in $TREE that is not in patches/ ($UNEXPORTED)"
fi
rm -rf "$build"
say "deleted $BUILD"
