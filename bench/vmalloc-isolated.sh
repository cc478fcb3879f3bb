# bench/vmalloc-isolated.sh - a guest plan (lab/boot.sh -p, sourced by
# lab/guest-init.sh): how many TLB-shootdown interrupts an isolated CPU
# takes per GiB of vmalloc space that a task on another CPU frees, at the
# automatic lazy-purge threshold and at four times it (the 7.3 vmalloc
# topic's vm.vmap_lazy_threshold_kb).
#
# Boot a kernel of the series with "isolcpus=domain,managed_irq,1": the
# load (test_vmalloc's fix_size_alloc_test, one page at a time, in a
# kthread that stays on the housekeeping CPU 0) frees, and every lazy purge
# flushes the kernel range with a function-call IPI to CPU 1 (on_each_cpu(),
# no INVLPGB under QEMU), which /proc/interrupts counts in CPU 1's "CAL"
# column (its "TLB" column counts user address-space shootdowns only).  Rounds alternate
# the two thresholds, and each threshold runs MMSCALE_VI_ROUNDS times in the
# one boot, so that the runs of one threshold give its spread there.
#   MMSCALE_VI_LOOPS   test_vmalloc's test_loop_count (default 200000)
#   MMSCALE_VI_ROUNDS  rounds of each threshold (default 2)
# Prints one "mmscale: vi ..." line a round: the threshold, CPU 1's CAL and
# TLB interrupts, the purges' TLB flushes and pages (the series' debug vm
# events), and CPU 1's IPIs per GiB purged.
# What it needs: test_vmalloc.ko in the modules tree, two CPUs.

# CPU 1's count of an interrupt row of /proc/interrupts (TLB: shootdowns
# of user address spaces; CAL: function calls, which is how x86 without
# INVLPGB flushes a kernel range, on_each_cpu())
vi_cpu1() { awk -v r="$1:" '$1 == r { print $3 }' /proc/interrupts; }
vi_event() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
vi_threshold() { echo "$1" > /proc/sys/vm/vmap_lazy_threshold_kb; }

vi_round() {
	local kb=$1 c0 t0 f0 p0 c1 t1 f1 p1
	# start from nothing lazily freed: a low threshold purges at once
	vi_threshold 1
	sleep 1
	vi_threshold "$kb"
	c0=$(vi_cpu1 CAL) t0=$(vi_cpu1 TLB) f0=$(vi_event vmalloc_tlb_flush) p0=$(vi_event vmalloc_purged_pages)
	# test_vmalloc runs its tests in its init and then refuses to stay loaded
	modprobe test_vmalloc run_test_mask=1 nr_threads=1 \
		test_loop_count="${MMSCALE_VI_LOOPS:-200000}" 2>/dev/null
	c1=$(vi_cpu1 CAL) t1=$(vi_cpu1 TLB) f1=$(vi_event vmalloc_tlb_flush) p1=$(vi_event vmalloc_purged_pages)
	awk -v kb="$kb" -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v f=$((f1 - f0)) -v p=$((p1 - p0)) 'BEGIN {
		gib = p * 4096 / 2^30
		printf "mmscale: vi threshold_kb=%s cpu1_cal=%d cpu1_tlb=%d flushes=%d purged_pages=%d cpu1_ipis_per_gib=%.1f\n",
			kb, c, t, f, p, (gib > 0 ? (c + t) / gib : 0) }'
}

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || [ -z "$(vi_event vmalloc_tlb_flush)" ] ||
	[ -z "$(vi_cpu1 CAL)" ]; then
	echo "mmscale: error: vmalloc-isolated needs two CPUs, a CAL row in /proc/interrupts and the series' vmalloc vm events"
else
	exec 2>&1
	grep -o 'isolcpus=[^ ]*' /proc/cmdline | sed 's/^/mmscale: vi /'
	auto_kb=$(( $(awk -v n="$(getconf _NPROCESSORS_ONLN)" 'BEGIN { b = 0; while (n) { b++; n = int(n / 2) } print b }') * 32 * 1024 ))
	for r in $(seq "${MMSCALE_VI_ROUNDS:-2}"); do
		vi_round 0
		vi_round $((4 * auto_kb))
	done
	vi_threshold 0
fi
