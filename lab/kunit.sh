#!/usr/bin/env bash
# lab/kunit.sh - "make kunit": the series' KUnit suites through the kernel's
# own front door, tools/testing/kunit/kunit.py, with the .kunitconfig each
# suite's patch adds next to its test file.
#
# Usage: lab/kunit.sh [--check]    all four suites in one x86_64 kernel
#        SUITE=NAME lab/kunit.sh  one suite in a kernel of its own
#   --check: only check the settings (make kunit does that before make tree)
#   SUITE: ptlock | slub_test | vmalloc | memcg_stock (the KUnit suite names)
# What it does: runs, in build/linux (make tree), "kunit.py run
# --arch=x86_64 --kunitconfig=FILE..." with the build in
# build/<line>/kunit-<suite|all> (reused: a second run only rebuilds what
# changed), -j$(nproc) and ccache when installed, and QEMU under TCG
# (kunit.py's own x86_64 QEMU setup, one vCPU).  kunit.py prints its
# stages and its own summary ("Testing complete. Ran N tests: ..."); its
# exit status is this script's.  Each suite runs here as it would under
# "make check", except the lock-debugging and KASAN of the lab's debug
# kernel: ptlock's .kunitconfig turns on DEBUG_SPINLOCK, which is what
# makes its locks out of line.
# What it needs: make tree, python3, qemu-system-x86 (lab/deps.sh).
# Writes build/<line>/kunit-<suite|all>/ and build/<line>/kunit-<suite|all>.log.
set -euo pipefail
source "$(dirname "$0")/common.sh"

# The line's suites and their .kunitconfig files, in order: LINE_KUNIT in
# patches/<line>/line.env ("suite=path ...")
declare -A CONFIG=()
ORDER=()
for kv in $LINE_KUNIT; do
	CONFIG[${kv%%=*}]=${kv#*=}
	ORDER+=("${kv%%=*}")
done

stage kunit
[ $# = 0 ] || [ "$1" = --check ] || die "usage: $0 [--check]"
want_choice SUITE "${ORDER[@]}"
[ "${1:-}" != --check ] || exit 0
[ -f "$TREE/tools/testing/kunit/kunit.py" ] || die "no kernel tree at $TREE; run 'make tree' first"

suites=("${ORDER[@]}")
[ -z "${SUITE:-}" ] || suites=("$SUITE")
name=kunit-$([ -n "${SUITE:-}" ] && echo "$SUITE" || echo all)
args=()
for s in "${suites[@]}"; do
	f=${CONFIG[$s]}
	[ -f "$TREE/$f" ] || die "suite $s: $TREE has no $f (is the $LINE_TITLE series applied? run 'make tree')"
	args+=(--kunitconfig="$f")
done

stage kunit "$LOGS/$name.log"
opts=(--arch=x86_64 --build_dir="$BUILD/$name" --jobs="$(nproc)")
if command -v ccache >/dev/null 2>&1; then
	opts+=(--make_options "CC=ccache gcc")
	export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
fi
say "kunit.py run: ${suites[*]} (build in build/$name; a cold build takes minutes)"
t0=$(date +%s)
rc=0
(cd "$TREE" && python3 tools/testing/kunit/kunit.py run "${opts[@]}" "${args[@]}") 2>&1 |
	tee "$STAGE_LOG" || rc=$?
say "kunit.py exited $rc after $(( $(date +%s) - t0 ))s"
[ "$rc" = 0 ] || die "kunit.py failed for ${suites[*]}"
