#!/usr/bin/env bash
# lab/stages/stress.sh - "make stress": the whole series at once under a debug
# kernel, with vCPUs that really run in parallel, CPU hotplug, cgroup churn
# and kmemleak; passes with no kernel report and every charge back.
#
# Usage: lab/stages/stress.sh [--check]     (make stress [STRESS_SECONDS=N] [CONFIG=rt])
#   STRESS_SECONDS=N  how long the stressors run together (default 300;
#               30..3600; make stress SECONDS=N, its old name, still works
#               with a warning)
#   CONFIG=rt   PREEMPT_RT as well (configs/rt.config)
#   VCPUS=N     vCPUs, even, 4..16 (default 4, on 2 NUMA nodes)
#   INJECT=leak|warn|drain|hang|none  faults the run must catch, comma
#               separated (default none): leak leaves a task holding memory
#               in a cgroup the checks expect empty; warn writes a kernel
#               WARNING line to the log; drain boots with isolcpus=1 and
#               leaves a removed memcg in the charge stock of CPU 1, which
#               the offline drain skips; hang adds a stressor that waits in
#               the kernel for ever (the report must show its stack)
#   BOOT_TIMEOUT (seconds; default STRESS_SECONDS + 1800)
#   UP_TIMEOUT  seconds the boot may take to reach userspace before QEMU
#               is killed (default 300; a boot takes 80-110 s here), so that
#               a boot that hangs fails in minutes
# What it does: deps, source and tree as make run; builds
# build/vm-debug-mmscale-stress[-rt] (make check's debug kernel plus
# configs/stress.config: KASAN_VMALLOC and VMAP_STACK, kmemleak, LOCK_STAT,
# CPU hotplug); boots it under multi-threaded TCG (ACCEL=mttcg: one host
# thread per vCPU) with slab_debug=FZPU on the hot caches, and runs
# lab/guest/stress.sh: page-fault storms (threads and processes, some in
# child memcgs), hackbench groups each in its own memcg, cgroup churn (a
# kmem-heavy task in a new child, killed, rmdir), CPU offline/online of
# every CPU but 0, test_vmalloc while the lazy-purge threshold changes and
# drop_caches runs (the vmap pool shrinker), slab validation of the hot
# caches, and stress-ng fork, mmap, vm, sock, udp and userfaultfd, all at
# the same time for STRESS_SECONDS; then the checks of section "stress" (see
# lab/guest/stress.sh).  lab/py/report.py then fails the run on any kernel
# report in the console (BUG, WARNING, KASAN, KFENCE via BUG:, lockdep, RCU
# stall, soft lockup, Call Trace).
# Multi-threaded TCG in QEMU 7.2 oopsed 4 of 99 plain 6.12 boots with int3
# in sched_clock_cpu during static-key patching, before userspace: a boot
# that stops with exactly that signature before "mmscale: guest up" is
# retried once, and the retry is reported; anything else fails.
# What it needs: what make run needs (stress-ng, rt-tests: lab/stages/deps.sh).
# Writes build/vm-debug-mmscale-stress*/ and build/stress/<time>/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

stage stress
[ -z "${STRESS_SECONDS:-}" ] || in_range "$STRESS_SECONDS" 30 3600 ||
	die "STRESS_SECONDS must be a whole number from 30 to 3600, not '$STRESS_SECONDS'"
want_choice CONFIG rt
no_empty_items INJECT "${INJECT:-}"
for i in $(echo "${INJECT:-none}" | tr , " "); do
	[[ $i =~ ^(leak|warn|drain|hang|none)$ ]] || die "INJECT must be 'leak', 'warn', 'drain', 'hang', 'none' or a comma list of them, not '$INJECT'"
done
VCPUS=${VCPUS:-4}
in_range "$VCPUS" 4 16 && [ $((VCPUS % 2)) = 0 ] || die "VCPUS must be an even number from 4 to 16, not '$VCPUS'"
secs=${STRESS_SECONDS:-300}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((secs + 1800))}
want_number BOOT_TIMEOUT 1 86400
UP_TIMEOUT=${UP_TIMEOUT:-300}
want_number UP_TIMEOUT 60 86400
want_linux_src
[ "${1:-}" != --check ] || exit 0
[ $# = 0 ] || die "usage: $0 [--check]"

"$LAB_DIR/stages/deps.sh"
"$LAB_DIR/stages/source.sh"
"$LAB_DIR/stages/tree.sh"
frags=(vm debug mmscale stress)
[ "${CONFIG:-}" = rt ] && frags+=(rt)
name=$(kernel_name "${frags[@]}")
t0=$(date +%s)
"$LAB_DIR/stages/build.sh" "${frags[@]}"
t_build=$(($(date +%s) - t0))
stage stress
O=$BUILD/$name
out=$(new_dir "$BUILD/stress/$(date +%Y%m%d-%H%M%S)") || die "could not make a folder under $BUILD/stress"
build_workloads "$out/bin" || die "building bench/programs/*/*.c failed"
gcc -O2 -o "$out/bin/slabinfo" "$TREE/tools/mm/slabinfo.c" 2> "$out/slabinfo-build.log" ||
	say "tools/mm/slabinfo did not build ($out/slabinfo-build.log): the run goes on without slabinfo -r"

# hot caches validated while frees happen (validate needs debug flags)
# (not all of them: caches with debug flags never take __slab_free's path,
# whose SLUB_STATS the run reports for the other caches)
caches="page->ptl,kmalloc-256,kmalloc-cg-64,vmap_area"
args="slab_debug=FZPU,$caches"
# pci=noacpi comes with every boot of the line (LINE_BOOT_APPEND in
# patches/<line>/line.env, which lab/stages/boot.sh appends): without it
# QEMU's ACPI _PRT loop times out under TCG on busy cores, and the virtio
# devices get no interrupt line
# INJECT=drain: CPU 1 isolated, so that drain_all_stock() skips it
case ,${INJECT:-none}, in *,drain,*) args+=" isolcpus=1" ;; esac
# boot_try N: one boot; 0 done, 2 the known MTTCG pre-userspace oops, 1 else
# (a boot with no userspace after UP_TIMEOUT s is killed: 2 when its log
# has that oops, else 1)
boot_try() {
	local log=$out/console-$1.log rc=0
	ACCEL=mttcg "$LAB_DIR/stages/boot.sh" -k "$O/arch/x86/boot/bzImage" -M "$O/modroot" -l "$log" \
		-p "$LAB_DIR/guest/stress.sh" -t "$BOOT_TIMEOUT" -u "$UP_TIMEOUT" -c "$VCPUS" -n 2 -m 4096 -a "$args" \
		-- MMSCALE_STRESS_SECONDS="$secs" MMSCALE_BIN="$out/bin" MMSCALE_CACHES="$caches" \
		MMSCALE_INJECT="${INJECT:-none}" 2>&1 | tee "$out/boot-$1.out" || rc=$?
	[ "$rc" = 0 ] && return 0
	if mttcg_known_oops "$log"; then
		return 2
	fi
	return 1
}
retries=0
t1=$(date +%s)
rc=0
boot_try 1 || rc=$?
if [ "$rc" = 2 ]; then
	retries=1
	say "RETRY: boot 1 stopped before userspace with the known multi-threaded TCG oops (int3 in sched_clock_cpu; $out/console-1.log); booting once more"
	rc=0
	boot_try 2 || rc=$?
fi
t_boot=$(($(date +%s) - t1))
if [ "$rc" != 0 ]; then
	log=$(ls "$out"/console-*.log | tail -n 1)
	grep -q '^# boot.sh: no userspace' "$log" && grep -q 'AE_AML_LOOP_TIMEOUT' "$log" &&
		die "the stress boot hung before userspace: an ACPI AML loop timed out (AE_AML_LOOP_TIMEOUT), so PCI devices have no interrupt line ($(grep -c 'no GSI' "$log") 'no GSI' line(s)); retries $retries ($log)"
	grep -q '^# boot.sh: no userspace' "$log" &&
		die "the stress boot hung before userspace (no 'mmscale: guest up' in ${UP_TIMEOUT} s; last kernel line: $(grep '^\[ *[0-9]' "$log" | tail -n 1 | cut -c1-100)); retries $retries ($log)"
	die "the stress boot failed; retries $retries ($log)"
fi
log=$(ls "$out"/console-*.log | tail -n 1)
"$LAB_DIR/py/report.py" --console "$log" --ksrc "$TREE" --line "$BASE" --out "$out" --expect stress > "$out/report.txt" || rc=$?
cat "$out/report.txt"
{
	echo "make stress STRESS_SECONDS=$secs${CONFIG:+ CONFIG=$CONFIG} VCPUS=$VCPUS INJECT=${INJECT:-none}"
	echo "kernel: $name ($(git -C "$TREE" rev-parse --short=12 HEAD)); accel: multi-threaded TCG, $VCPUS vCPUs, 2 NUMA nodes, 4096 MiB"
	echo "build ${t_build} s, boot and run ${t_boot} s, retries $retries"
	grep -E '^mmscale: fact ' "$log" | sed 's/^mmscale: //' || true
} > "$out/summary.txt"
cat "$out/summary.txt"
say "results in $out"
exit "$rc"
