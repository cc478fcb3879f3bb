#!/usr/bin/env bash
# lab/stages/kunit.sh - "make kunit": the series' KUnit suites through the kernel's
# own front door, tools/testing/kunit/kunit.py, with the .kunitconfig each
# suite's patch adds next to its test file.
#
# Usage: lab/stages/kunit.sh [--check]    the line's suites in one x86_64 kernel
#        SUITE=NAME lab/stages/kunit.sh  one suite in a kernel of its own
#   --check: only check the settings (make kunit does that before make tree)
#   SUITE: one of the line's LINE_KUNIT suites (7.3: vmalloc | memcg_stock;
#   6.12 also ptlock | slub_test)
# What it does: runs, in build/linux (make tree), "kunit.py run
# --arch=x86_64 --kunitconfig=FILE..." with the build in
# build/<line>/kunit-<suite|all> (reused: a second run only rebuilds what
# changed), -j$(nproc) and ccache when installed, and QEMU under TCG
# (kunit.py's own x86_64 QEMU setup, two vCPUs).  kunit.py prints its
# stages and its own summary ("Testing complete. Ran N tests: ..."); its
# exit status is this script's.  Each suite runs here as it would under
# "make check", except the lock-debugging and KASAN of the lab's debug
# kernel (6.12's ptlock .kunitconfig turns on DEBUG_SPINLOCK, which is what
# makes its locks out of line).
# ACCEL=tcg|kvm (default tcg): kunit.py's QEMU asks for KVM first and
#   falls back to TCG only when KVM cannot start; a /dev/kvm that opens but
#   does not run guests (this lab's machines: kunit.py printed no KTAP in
#   300 s) hangs it.  With tcg, kunit.py runs in a mount namespace of its
#   own (unshare, as root) where /dev/kvm is /dev/null, so QEMU's KVM fails
#   at once and TCG runs; ACCEL=kvm leaves /dev/kvm as it is.
# What it needs: make tree, python3, qemu-system-x86 (lab/stages/deps.sh),
#   util-linux's unshare and root for ACCEL=tcg where /dev/kvm exists.
# Writes build/<line>/kunit-<suite|all>/ and build/<line>/kunit-<suite|all>.log.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

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
want_choice ACCEL tcg kvm
ACCEL=${ACCEL:-tcg}
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
# two vCPUs: the memcg_stock suite runs one CPU's drain work on another
# (its cases skip with one); on two NUMA nodes of 256 MiB, one vCPU each:
# slub_test's remote-free case frees one node's objects from the other
# node's CPU (it skips without a second node; kernels without NUMA see
# one node of 512 MiB); the other suites run the same either way
qemu_args="-smp 2 -m 512 -object memory-backend-ram,id=m0,size=256M"
qemu_args+=" -object memory-backend-ram,id=m1,size=256M"
qemu_args+=" -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1"
opts=(--arch=x86_64 --build_dir="$BUILD/$name" --jobs="$(nproc)" --qemu_args="$qemu_args")
if command -v ccache >/dev/null 2>&1; then
	opts+=(--make_options "CC=ccache gcc")
	export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
fi
say "kunit.py run: ${suites[*]} (build in build/$name; a cold build takes minutes)"
t0=$(date +%s)
rc=0
run=(python3 tools/testing/kunit/kunit.py run "${opts[@]}" "${args[@]}")
if [ "$ACCEL" = tcg ] && [ -e /dev/kvm ]; then
	# QEMU's "-accel kvm" then fails at once and its "-accel tcg" runs
	say "ACCEL=tcg: kunit.py's QEMU gets /dev/null for /dev/kvm (a mount namespace of its own)"
	[ "$(id -u)" = 0 ] && command -v unshare > /dev/null ||
		die "ACCEL=tcg needs root and unshare (util-linux) to hide /dev/kvm from kunit.py; or ACCEL=kvm where KVM runs guests"
	run=(unshare --mount --propagation private bash -c 'mount --bind /dev/null /dev/kvm && exec "$@"' _ "${run[@]}")
fi
(cd "$TREE" && "${run[@]}") 2>&1 | tee "$STAGE_LOG" || rc=$?
say "kunit.py exited $rc after $(( $(date +%s) - t0 ))s"
[ "$rc" = 0 ] || die "kunit.py failed for ${suites[*]}"
