# bench/vmalloc-isolated.sh - a guest plan (lab/stages/boot.sh -p, sourced by
# lab/guest/init.sh): kernel TLB flushes, lazy purges and the IPIs an
# isolated CPU takes while test_vmalloc frees vmalloc space, at several
# lazy-purge thresholds (the 7.3 vmalloc topic's vm.vmap_lazy_threshold_kbytes).
#
# Boot a kernel of the series with "isolcpus=domain,managed_irq,1": the
# load (test_vmalloc in kthreads that stay on the housekeeping CPU 0)
# frees, and every lazy purge flushes the kernel range with a function-call
# IPI to CPU 1 (on_each_cpu(), no INVLPGB under QEMU), which
# /proc/interrupts counts in CPU 1's "CAL" column (its "TLB" column counts
# user address-space shootdowns only).  Without isolcpus the same plan is a
# threshold sweep.  The flushes and purges are counted through tracefs, as
# a reader of a changelog would with perf: a kprobe on
# flush_tlb_kernel_range() and 7.3.4's vmalloc:purge_vmap_area_lazy
# tracepoint (whose num_purged counts areas), so the kernel needs nothing
# but the sysctl.  Each round runs the thresholds in turn, and a control
# run of one loop (the module's own load and unload) ends it.
#   MMSCALE_VI_THRESHOLDS  KiB values, comma separated, 0 = auto, 4xauto
#                          (default 0,4xauto)
#   MMSCALE_VI_MASK        test_vmalloc's run_test_mask (default 1, fix_size)
#   MMSCALE_VI_THREADS     test_vmalloc's nr_threads (default 1)
#   MMSCALE_VI_LOOPS       test_vmalloc's test_loop_count (default 200000)
#   MMSCALE_VI_ROUNDS      rounds (default 2)
# Prints one "mmscale: vi ..." line a run: the threshold, CPU 1's CAL and
# TLB interrupts, kernel TLB flushes, purges (the empty ones apart: the
# tracepoint also fires for vm_unmap_aliases() from set_memory_*(), as at
# module load and unload), areas purged and areas per non-empty purge.
# What it needs: test_vmalloc.ko in the modules tree, two CPUs, kprobe
# events and the sysctl.

VI_T=/sys/kernel/tracing

# CPU 1's count of an interrupt row of /proc/interrupts
vi_cpu1() { awk -v r="$1:" '$1 == r { print $3 }' /proc/interrupts; }
vi_threshold() { echo "$1" > /proc/sys/vm/vmap_lazy_threshold_kbytes; }

vi_run() {
	local kb=$1 loops=$2 c0 t0 c1 t1 f p n e lost
	# start from nothing lazily freed: a low threshold purges at once
	vi_threshold 1
	sleep 1
	vi_threshold "$kb"
	echo > "$VI_T/trace"
	c0=$(vi_cpu1 CAL) t0=$(vi_cpu1 TLB)
	# test_vmalloc runs its tests in its init and then refuses to stay loaded
	modprobe test_vmalloc run_test_mask="${MMSCALE_VI_MASK:-1}" \
		nr_threads="${MMSCALE_VI_THREADS:-1}" test_loop_count="$loops" 2>/dev/null
	c1=$(vi_cpu1 CAL) t1=$(vi_cpu1 TLB)
	f=$(grep -c ' mmscale_vi_flush:' "$VI_T/trace")
	n=$(grep -c ' purge_vmap_area_lazy:' "$VI_T/trace")
	p=$(grep -o ' num_purged=[0-9]*' "$VI_T/trace" | awk -F= '{ s += $2 } END { print s + 0 }')
	# purges that took at least one area (vm_unmap_aliases() from
	# set_memory_*() traces empty ones too)
	e=$(grep -c ' num_purged=0$' "$VI_T/trace")
	lost=$(awk '/entries-in-buffer/ { split($3, a, "/"); print (a[1] == a[2] ? 0 : a[2] - a[1]); exit }' "$VI_T/trace")
	awk -v kb="$kb" -v l="$loops" -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v f="$f" -v n="$n" -v e="$e" -v p="$p" -v lost="${lost:-0}" 'BEGIN {
		printf "mmscale: vi threshold_kb=%s loops=%d cpu1_cal=%d cpu1_tlb=%d flushes=%d purges=%d empty_purges=%d purged_areas=%d areas_per_purge=%.0f lost_events=%d\n",
			kb, l, c, t, f, n, e, p, (n > e ? p / (n - e) : 0), lost }'
}

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || [ -z "$(vi_cpu1 CAL)" ] ||
	[ ! -w /proc/sys/vm/vmap_lazy_threshold_kbytes ] || [ ! -w "$VI_T/kprobe_events" ] ||
	! echo 'p:mmscale_vi_flush flush_tlb_kernel_range' >> "$VI_T/kprobe_events"; then
	echo "mmscale: error: vmalloc-isolated needs two CPUs, a CAL row in /proc/interrupts, vm.vmap_lazy_threshold_kbytes and kprobe events"
else
	exec 2>&1
	grep -o 'isolcpus=[^ ]*' /proc/cmdline | sed 's/^/mmscale: vi /'
	echo 8192 > "$VI_T/buffer_size_kb"
	echo 1 > "$VI_T/events/kprobes/mmscale_vi_flush/enable"
	echo 1 > "$VI_T/events/vmalloc/purge_vmap_area_lazy/enable"
	auto_kb=$(( $(awk -v n="$(getconf _NPROCESSORS_ONLN)" 'BEGIN { b = 0; while (n) { b++; n = int(n / 2) } print b }') * 32 * 1024 ))
	: "${MMSCALE_VI_THRESHOLDS:=0,4xauto}"
	for r in $(seq "${MMSCALE_VI_ROUNDS:-2}"); do
		for kb in ${MMSCALE_VI_THRESHOLDS//,/ }; do
			[ "$kb" != 4xauto ] || kb=$((4 * auto_kb))
			vi_run "$kb" "${MMSCALE_VI_LOOPS:-200000}"
		done
		vi_run 0 1
	done
	vi_threshold 0
	echo 0 > "$VI_T/events/enable"
	echo '-:mmscale_vi_flush' >> "$VI_T/kprobe_events"
fi
