#!/usr/bin/env bash
# bench/workloads.sh - run the benchmark workloads and capture mechanism
# counters around each one; used in the QEMU guest (bench/guest-bench.sh)
# and on a bare-metal host (make bench HOST=1).
#
# What it does: for each item of MMSCALE_BENCH (comma separated):
#   page_fault1|page_fault2|page_fault3:MODE:TASKS   MODE threads|processes
#   shm-pread-seq-mt:TASKS
#   memcg-parallel-fault:K          K cgroups, one 64 MiB anon fault loop each
#   memcg-nested-fault:DEPTH        page_fault2, a thread per CPU, in one
#                                   cgroup DEPTH (2..8) levels below the root
#   memcg-madvise-fault:K[:THP]     K cgroups, one 16 MiB anon mapping each,
#                                   written and madvise(DONTNEED)ed in a loop
#                                   (upstream's page_counter stock workload);
#                                   THP thp (always) or nothp (never) sets
#                                   transparent_hugepage/enabled for the run
#                                   (default: the kernel's setting)
#   iperf3-cgroup:K[:MIB[:PLACE]]   K iperf3 server/client pairs on loopback,
#                                   pair i in memory cgroup i: sendfile (-Z),
#                                   10 KiB writes, MIB MiB a pair (default
#                                   64); upstream's multi-memcg stock
#                                   benchmark (netperf TCP_SENDFILE there).
#                                   PLACE: mixed (default: unpinned), pair
#                                   (pair i's server and client on CPU i mod
#                                   CPUs) or split (server on CPU 2i, client
#                                   on CPU 2i+1, mod CPUs), with taskset
#   sigqueue:SIGNALS:ROUNDS         bench/sigqueue.c: a fixed alloc/free
#                                   pattern on the sigqueue slab cache,
#                                   started from an empty cache (shrunk);
#                                   deterministic on one vCPU (VCPUS=1 with
#                                   slab_nomerge), for comparing SLUB_STATS
#   xnode-free:SIGNALS:ROUNDS       sigqueue with its objects allocated on
#                                   node 0 and freed on node 1 (queued on
#                                   the first CPU of node 0, taken back on
#                                   the first CPU of node 1): remote frees,
#                                   which the per cpu sheaves do not take
#   stress-ng:udp|rawudp:OPS        stress-ng --udp or --rawudp, one worker
#                                   per CPU, OPS bogo operations in all
#                                   (LKP's list_lock reports on sheaves)
#   hackbench:MODE:IPC:GROUPS[:SIZE]        rt-tests hackbench, MODE
#                                   process|thread, IPC pipe|socket
#   hackbench-cgroup:MODE:IPC:K[:SIZE]      K hackbench groups, each in its
#                                   own memory cgroup, run at the same time
#   shmem-cgroup:K[:MIB]            K cgroups, each writing a MIB MiB tmpfs
#                                   file and deleting it, 20 times (page
#                                   cache charged and uncharged by folio)
#   slab-empty-partial              after the items before it: the empty
#                                   slabs left on the node partial lists
#                                   of every cache (run_empty_partial)
#   vmalloc:TESTS:THRESHOLD         test_vmalloc, TESTS '+'-joined from
#                                   fix_size full_fit long_busy_list
#                                   random_size align (make stress's
#                                   old vmalloc round, docs/results.md:
#                                   fix_size+full_fit+long_busy_list,
#                                   MMSCALE_VMALLOC_LOOPS=50),
#                                   THRESHOLD "auto", "4xauto" (N times auto)
#                                   or KiB for the lazy-purge threshold knob
#                                   (MMSCALE_VMALLOC_KNOB; a kernel without
#                                   it runs only "auto", the rest is "skip")
# it snapshots the counters, runs the workload, and prints
#   mmscale: metric WORKLOAD KEY VALUE     (LKP-style keys)
#   mmscale: ops WORKLOAD N                (operations, for "per 1k ops")
#   mmscale: counter WORKLOAD KEY DELTA    (proc-vmstat.*, kprobe.*, slab.*)
#   mmscale: info WORKLOAD TEXT            (lock_stat excerpt, notes)
#   mmscale: error WORKLOAD TEXT [item I]  (the workload failed; I: the item)
#   mmscale: skip WORKLOAD TEXT            (not applicable to this kernel)
#   mmscale: size WORKLOAD TEXT            (tasks, CPUs, loops it ran with)
#   mmscale: warn WORKLOAD TEXT            (its numbers are weak: a run too
#                                           short to measure, or fewer tasks
#                                           than CPUs)
# and "mmscale: bench done" at the end.  WORKLOAD names carry their
# parameter after '@' (e.g. page_fault3-threads@tasks=2), which lab/py/compare.py
# uses for sweep plots.
# Counters: /proc/vmstat deltas; kprobe hit counts (tracefs kprobe_profile)
# on MMSCALE_KPROBES, counted from a tracefs instance whose buffer is off,
# so base and head are counted the same way; those of
# MMSCALE_KPROBES_BY_CALLER (default: page_counter_try_charge and
# page_counter_uncharge) also per caller, as kprobe.FN.by.CALLER: the
# symbol of the return address (a hist trigger on the probe's $stack0;
# needs CONFIG_HIST_TRIGGERS, configs/bench.config); SLUB_STATS files of
# MMSCALE_SLABS (cache names, or "all") when the kernel has them, the
# items named by MMSCALE_SLAB_STATS (default: the free path ones; "all":
# every 6.12 item and the series' new ones; "free7": 7.3's free path items
# and the slub topic's counters), each cache's own or, with
# MMSCALE_SLAB_TOTAL=1, only their sums over the caches as slab.total.ITEM;
# /proc/lock_stat when present: its first lines as info, and the
# contentions and acquisitions of SLUB's node list_lock as the counters
# lockstat.n_list_lock.contentions and .acquisitions.
# Environment: MMSCALE_BENCH_BIN (built workloads), MMSCALE_BENCH_SECONDS
# (samples after 1 s warm-up, default 5), MMSCALE_BENCH_TMP (a tmpfs,
# default /tmp), MMSCALE_HACKBENCH_LOOPS (default 200), MMSCALE_VMALLOC_LOOPS
# (default 20000); either loop count may be "auto": a probe run with a few
# loops is timed first, and the loops are then set for a run of
# MMSCALE_BENCH_SECONDS (make bench HOST=1 does this).  A timed run shorter
# than MMSCALE_MIN_SECONDS (default 1) gets a warn line.
# What it needs: root; bash, coreutils, util-linux, kmod, rt-tests
# (hackbench); the memory controller on cgroup v2 (/sys/fs/cgroup, or the
# cgroup2 mount of a hybrid layout); tracefs for kprobe counts.
set -uo pipefail

bin=${MMSCALE_BENCH_BIN:?MMSCALE_BENCH_BIN must name the directory of the built workloads}
secs=${MMSCALE_BENCH_SECONDS:-5}
tmp=${MMSCALE_BENCH_TMP:-/tmp}
kprobes=${MMSCALE_KPROBES:-page_counter_try_charge page_counter_uncharge flush_tlb_kernel_range __purge_vmap_area_lazy}
# probes inside functions, NAME@SYMBOL+OFF, for this kernel only (lab/stages/ab.sh
# PROBE_LINE finds them with bench/probe-sites.sh); the sites of one NAME
# are counted together as kprobe.NAME
kprobes+=" ${MMSCALE_KPROBE_SITES:-}"
probe_names=" $(for p in $kprobes; do echo "${p%%@*}"; done | sort -u | tr '\n' ' ')"
# of those, the ones also counted per caller (empty: none)
by_caller=${MMSCALE_KPROBES_BY_CALLER-page_counter_try_charge page_counter_uncharge}
slabs=${MMSCALE_SLABS:-kmalloc-64 kmalloc-256 kmalloc-1k kmalloc-4k kmalloc-cg-64 kmalloc-cg-1k kmalloc-cg-4k skbuff_head_cache vmap_area}
# the threshold's sysctl: vmap_lazy_threshold_kbytes (7.3), _kb (6.12)
knob=${MMSCALE_VMALLOC_KNOB:-/proc/sys/vm/vmap_lazy_threshold_kbytes}
[ -n "${MMSCALE_VMALLOC_KNOB:-}" ] || [ -e "$knob" ] || [ ! -e /proc/sys/vm/vmap_lazy_threshold_kb ] ||
	knob=/proc/sys/vm/vmap_lazy_threshold_kb
# cgroup_root: the cgroup v2 mount that has the memory controller, or
# nothing; cgroup_why: why there is none (the skip reason)
cgroup_root= cgroup_why=
find_cgroup_root() {
	local fs dir opts v1= v2=
	while read -r _ dir fs opts _; do
		case $fs in
		cgroup2) [ -n "$v2" ] || v2=$dir
			grep -qw memory "$dir/cgroup.controllers" 2> /dev/null && { cgroup_root=$dir; return; } ;;
		cgroup) [[ ,$opts, != *,memory,* ]] || v1=$dir ;;
		esac
	done < /proc/mounts
	if [ -n "$v1" ]; then
		cgroup_why="the memory controller is on cgroup v1 ($v1)${v2:+, not on cgroup v2 ($v2)}: boot with systemd.unified_cgroup_hierarchy=1, or cgroup_no_v1=memory"
	elif [ -n "$v2" ]; then
		cgroup_why="cgroup v2 ($v2) has no memory controller: this kernel was built without CONFIG_MEMCG, or booted with cgroup_disable=memory"
	else
		cgroup_why="no cgroup v2 is mounted (mount -t cgroup2 none /sys/fs/cgroup)"
	fi
}
find_cgroup_root
cg=${cgroup_root:-/sys/fs/cgroup}/mmscale-bench
work=$(mktemp -d "${TMPDIR:-/tmp}/mmscale-bench.XXXXXX")
tracing=/sys/kernel/tracing
[ -d $tracing/instances ] || tracing=/sys/kernel/debug/tracing
inst=$tracing/instances/mmscale-bench
nr_cpus=$(nproc)
min_secs=${MMSCALE_MIN_SECONDS:-1}

# error WORKLOAD TEXT: the workload failed; the line names the item of
# MMSCALE_BENCH that ran it, so that make bench can say which one failed.
item=
error() { echo "mmscale: error $*${item:+ [item $item]}"; }

# size WORKLOAD TASKS [MORE]: say what it ran with; warn when fewer tasks
# than CPUs ran (the machine was not loaded).
size() {
	local pct=$(($2 * 100 / nr_cpus))
	echo "mmscale: size $1 tasks=$2 cpus=$nr_cpus ($pct%)${3:+ $3}"
	[ "$2" -ge "$nr_cpus" ] ||
		echo "mmscale: warn $1 $2 tasks on $nr_cpus CPUs: fewer tasks than CPUs, the machine was not loaded"
}

# too_short WORKLOAD SECONDS HOW: warn when a timed run lasted less than
# min_secs (HOW: what makes it longer).
too_short() {
	awk -v t="$2" -v m="$min_secs" 'BEGIN { exit !(t < m) }' &&
		echo "mmscale: warn $1 the run lasted $2 s, too short to measure (want >= $min_secs s; $3)"
	return 0
}

# long_enough SECONDS MIN: true when SECONDS >= MIN.
long_enough() { awk -v t="$1" -v m="$2" 'BEGIN { exit !(t >= m) }'; }

# scaled_loops PROBE_LOOPS PROBE_SECONDS: loops for a run of $secs seconds.
scaled_loops() {
	awk -v l="$1" -v t="$2" -v s="$secs" -v max="$3" 'BEGIN {
		n = (t > 0) ? int(l * s / t + 0.999) : max
		if (n < l) n = l; if (n > max) n = max; print n }'
}

# --- counters -------------------------------------------------------------
kprobes_setup() {
	local fn ev at site=0 probed=()
	[ -w $tracing/kprobe_events ] || { echo "mmscale: info all no tracefs kprobe_events: no kprobe counts"; return; }
	mkdir -p $inst 2>/dev/null
	echo 0 > $inst/tracing_on 2>/dev/null
	# probes inside functions stay plain int3 probes, not jumps: one of 15
	# boots under multi-threaded TCG oopsed on a stale int3 at such a
	# site as the probes were removed (build/7.3/results/20261205-224935)
	if [ -n "${MMSCALE_KPROBE_SITES:-}" ] && [ -w /proc/sys/debug/kprobes-optimization ]; then
		echo 0 > /proc/sys/debug/kprobes-optimization &&
			echo "mmscale: info all kprobes: jump optimization off for the probes inside functions"
	fi
	for fn in $kprobes; do
		# NAME@SYMBOL+OFF: event NAME__N at that instruction
		ev=$fn at=$fn
		[[ $fn != *@* ]] || { site=$((site + 1)); ev=${fn%%@*}__$site at=${fn#*@}; }
		if ! grep -q " [tT] ${at%%+*}\$" /proc/kallsyms; then
			echo "mmscale: info all kprobe $fn: no such text symbol on this kernel (inlined?)"
			continue
		fi
		# a function counted per caller fetches its return address:
		# at the function's first instruction it is the top of the stack
		def="p:mmscale_bench/$ev $at"
		[[ " $by_caller " != *" $fn "* ]] || def+=' caller=$stack0:x64'
		if echo "$def" >> $tracing/kprobe_events 2>/dev/null; then
			probed+=("$ev")
		else
			echo "mmscale: info all kprobe $fn: could not be placed"
		fi
	done
	[ ${#probed[@]} = 0 ] && return
	echo 1 > $inst/events/mmscale_bench/enable ||
		echo "mmscale: info all kprobe events could not be enabled"
	# per caller: a hist trigger keyed on the caller's symbol.  It counts
	# with the instance's buffer off (the record goes to a scratch buffer
	# for the trigger alone).
	for fn in $by_caller; do
		[[ " ${probed[*]} " == *" $fn "* ]] || continue
		if [ ! -e $inst/events/mmscale_bench/$fn/hist ]; then
			echo "mmscale: info all kprobe $fn: not counted per caller (no hist triggers: CONFIG_HIST_TRIGGERS)"
		elif ! echo "$hist_trigger" > $inst/events/mmscale_bench/$fn/trigger 2>/dev/null; then
			echo "mmscale: info all kprobe $fn: the per-caller hist trigger could not be set"
		fi
	done
}

hist_trigger='hist:keys=caller.sym:vals=hitcount:size=1024'

# by_caller_lines: "kprobe.FN.by.CALLER HITS" for each function counted per
# caller, CALLER the symbol of its return address (the function the call
# site was inlined into); "unknown" when it has none
by_caller_lines() {
	local fn
	for fn in $by_caller; do
		[ -r $inst/events/mmscale_bench/$fn/hist ] || continue
		awk -v fn="$fn" '$1 == "{" && $2 == "caller:" {
				sub(/^.*\] */, ""); s = ($1 == "}") ? "unknown" : $1; c[s] += $NF }
			END { for (s in c) print "kprobe." fn ".by." s, c[s] }' $inst/events/mmscale_bench/$fn/hist
	done
}

kprobes_cleanup() {
	local fn
	for fn in $by_caller; do
		[ -e $inst/events/mmscale_bench/$fn/trigger ] &&
			echo "!$hist_trigger" > $inst/events/mmscale_bench/$fn/trigger 2>/dev/null
	done
	[ -d $inst/events/mmscale_bench ] && echo 0 > $inst/events/mmscale_bench/enable
	rmdir $inst 2>/dev/null
	grep -o '^p:mmscale_bench/[^ ]*' $tracing/kprobe_events 2>/dev/null |
		sed 's/^p:/-:/' | while read -r e; do echo "$e" >> $tracing/kprobe_events; done
}

SLAB_STATS="alloc_fastpath alloc_slowpath free_fastpath free_slowpath free_frozen
	free_add_partial free_remove_partial cmpxchg_double_fail cmpxchg_double_cpu_fail
	cpu_partial_free cpu_partial_drain free_list_lock free_list_lock_nop free_locked_redo"
if [ "${MMSCALE_SLAB_STATS:-}" = all ]; then
	SLAB_STATS="$SLAB_STATS alloc_from_partial alloc_slab alloc_refill alloc_node_mismatch
	free_slab cpuslab_flush deactivate_full deactivate_empty deactivate_to_head
	deactivate_to_tail deactivate_remote_frees deactivate_bypass order_fallback
	cpu_partial_alloc cpu_partial_node"
elif [ "${MMSCALE_SLAB_STATS:-}" = free7 ]; then
	# 7.3 (sheaves): its free path items and the slub topic's counters
	SLAB_STATS="free_fastpath free_slowpath sheaf_flush sheaf_refill free_add_partial
	free_remove_partial free_slab cmpxchg_double_fail free_list_lock free_locked_redo
	free_lock_nop_transit free_lock_nop_min_partial free_lock_nop_discard
	free_call_remote free_call_flush free_call_refill free_call_other"
elif [ -n "${MMSCALE_SLAB_STATS:-}" ]; then
	SLAB_STATS=$MMSCALE_SLAB_STATS
fi

# slab_snapshot: "slab.CACHE.STAT VALUE" for the SLUB_STATS files of
# MMSCALE_SLABS ("all": every cache that is not an alias), read by one awk:
# a process per file is minutes under TCG.
slab_snapshot() {
	local c f d files=()
	[ -r /sys/kernel/slab/kmalloc-64/alloc_fastpath ] || return 0
	if [ "$slabs" = all ]; then
		for d in /sys/kernel/slab/*; do
			[ -L "$d" ] || for f in $SLAB_STATS; do [ -r "$d/$f" ] && files+=("$d/$f"); done
		done
	else
		for c in $slabs; do
			for f in $SLAB_STATS; do
				[ -r "/sys/kernel/slab/$c/$f" ] && files+=("/sys/kernel/slab/$c/$f")
			done
		done
	fi
	[ ${#files[@]} -gt 0 ] || return 0
	awk -v total="${MMSCALE_SLAB_TOTAL:-0}" 'FNR == 1 { n = split(FILENAME, p, "/")
			if (total == 1) sum[p[n]] += $1; else print "slab." p[n - 1] "." p[n], $1 }
		END { for (k in sum) print "slab.total." k, sum[k] }' "${files[@]}"
}

# lockstat_lines: SLUB's node list_lock in /proc/lock_stat (its class is
# named after the field, "&n->list_lock"): contentions (3rd column) and
# acquisitions (9th), summed over the classes of that name
lockstat_lines() {
	[ -r /proc/lock_stat ] || return 0
	awk '$1 == "&n->list_lock:" { c += $3; a += $9; seen = 1 }
		END { if (seen) { print "lockstat.n_list_lock.contentions", c
			print "lockstat.n_list_lock.acquisitions", a } }' /proc/lock_stat
}

# vmstat_read VAR: /proc/vmstat into VAR, as it is, in one read builtin:
# no process, and no seek back (the read builtin seeks back after each
# line, and a seq_file regenerated at a byte offset while the counters
# change gave a torn line under multi-threaded TCG, 2026-12-01).
vmstat_read() { IFS= read -r -d '' "$1" < /proc/vmstat || :; }
# vmstat_lines TEXT: that text as "proc-vmstat.KEY VALUE" lines
vmstat_lines() {
	local line IFS=$'\n'
	for line in $1; do echo "proc-vmstat.${line% *} ${line##* }"; done
}
vm_before= vm_after=

# snapshot FILE before|after: one "KEY VALUE" per line for every counter.
# /proc/vmstat is read last before the workload and first after it, into
# a variable, and formatted only in counters_end: nothing of the sampler's
# own runs between the two reads but the workload.  (The snapshot's awk
# and grep processes used to sit inside the window, and head's SLUB_STATS
# files, which base lacked, gave head's sampler more of them; so did
# formatting head's longer /proc/vmstat: docs/results.md.)  counters_stop
# takes the after snapshot as soon as the workload ends.
snapshot() {
	[ "$2" = before ] || vmstat_read vm_after
	{
		[ -r $tracing/kprobe_profile ] &&
			awk -v names="$probe_names" '{ n = $1; sub(/__[0-9]+$/, "", n) }
				index(names, " " n " ") { c[n] += $2 }
				END { for (n in c) print "kprobe." n, c[n] }' $tracing/kprobe_profile
		by_caller_lines
		slab_snapshot
		# lock_stat is cleared by counters_begin: before, it reads 0
		[ "$2" = after ] && lockstat_lines
	} > "$1" 2>/dev/null
	[ "$2" = after ] || vmstat_read vm_before
}

counters_begin() {
	[ -w /proc/lock_stat ] && echo 0 > /proc/lock_stat
	rm -f "$work/after"
	snapshot "$work/before" before
}

# counters_stop: the after snapshot, right when the workload ends
counters_stop() {
	snapshot "$work/after" after
}

# counters_end WORKLOAD OPS (takes the after snapshot unless counters_stop did)
counters_end() {
	[ -e "$work/after" ] || snapshot "$work/after" after
	vmstat_lines "$vm_before" >> "$work/before"
	vmstat_lines "$vm_after" >> "$work/after"
	echo "mmscale: ops $1 $2"
	awk -v w="$1" 'NR == FNR { b[$1] = $2; next }
		($1 in b) && $2 != b[$1] { print "mmscale: counter " w " " $1 " " $2 - b[$1] }
		!($1 in b) && $2 != 0 { print "mmscale: counter " w " " $1 " " $2 }' "$work/before" "$work/after"
	if [ -r /proc/lock_stat ]; then
		grep -E '^ +[^ ].*:' /proc/lock_stat | head -n 8 |
			sed "s/^ */mmscale: info $1 lock_stat: /"
	fi
}

# --- workloads ------------------------------------------------------------
# run_sampled WORKLOAD CMD...: a bench/*.c program; its result lines become
# metrics, its total_ops the operation count.
run_sampled() {
	local w=$1 out=$work/out
	shift
	counters_begin
	if ! "$@" > "$out" 2> "$work/err"; then
		error "$w $(basename "$1") failed: $(tail -n 1 "$work/err")"
		return
	fi
	counters_stop
	awk -v w="$w" '$1 != "sample" && $1 != "total_ops" && NF == 3 { print "mmscale: metric " w " " $2 " " $3 }' "$out"
	counters_end "$w" "$(awk '$1 == "total_ops" { print $2 }' "$out")"
}

cgroups_make() {
	local k=$1 i
	# 2: no memory controller on cgroup v2 here (the caller says skip), 1: it failed
	[ -n "$cgroup_root" ] || return 2
	cgroups_remove
	mkdir -p $cg && echo +memory > "$cgroup_root/cgroup.subtree_control" &&
		echo +memory > $cg/cgroup.subtree_control || return 1
	for ((i = 0; i < k; i++)); do mkdir $cg/g$i || return 1; done
}

# cgroups_ready WORKLOAD K: K cgroups for WORKLOAD, or a skip line (no
# memory controller on cgroup v2 here, and why) or an error line, and non-zero.
cgroups_ready() {
	local rc=0
	cgroups_make "$2" || rc=$?
	case $rc in
	0) return 0 ;;
	2) echo "mmscale: skip $1 memory cgroups needed: $cgroup_why" ;;
	*) error "$1 could not create $2 cgroups under $cg"; cgroups_remove ;;
	esac
	return 1
}

cgroups_remove() {
	local d
	[ -d $cg ] && [ "$(stat -f -c %T $cg)" = cgroup2fs ] || return 0
	for d in $cg/g*; do
		[ -d "$d" ] && { rmdir "$d" 2>/dev/null || { sleep 1; rmdir "$d"; }; }
	done
	rmdir $cg
}

# hackbench_msgs GROUPS: messages one hackbench run passes (fds 10).
hackbench_msgs() { echo $(($1 * 10 * 10 * loops)); }

hb_loops_setting=${MMSCALE_HACKBENCH_LOOPS:-200}
loops=$hb_loops_setting
hb_probe_loops=50

# hb_size WORKLOAD CMD...: with MMSCALE_HACKBENCH_LOOPS=auto, time CMD (a
# function that prints the run's seconds) at $hb_probe_loops loops, and set
# loops for a run of $secs seconds.
hb_size() {
	local w=$1 t
	shift
	local probe=$hb_probe_loops
	[ "$hb_loops_setting" = auto ] || { loops=$hb_loops_setting; return 0; }
	# ten times more loops until the probe lasts 0.2 s: a shorter one is
	# mostly start-up and timer granularity
	while :; do
		loops=$probe
		t=$("$@")
		[ -n "$t" ] || return 1
		long_enough "$t" 0.2 || [ "$probe" -ge 100000 ] && break
		probe=$((probe * 10))
	done
	loops=$(scaled_loops "$probe" "$t" 1000000)
	echo "mmscale: info $w loops=auto: $probe loops took $t s, so $loops loops for about $secs s"
}

hackbench_args() {
	local mode=$1 ipc=$2 size=$3 a=(-f 10 -l "$loops" -s "$size")
	[ "$mode" = thread ] && a+=(-T) || a+=(-P)
	[ "$ipc" = pipe ] && a+=(-p)
	echo "${a[@]}"
}

# hb_once GROUPS MODE IPC SIZE: one hackbench run; prints its seconds.
hb_once() {
	hackbench -g "$1" $(hackbench_args "$2" "$3" "$4") 2> "$work/err" | awk '/^Time:/ { print $2 }'
}

run_hackbench() {
	local mode=$1 ipc=$2 groups=$3 size=${4:-100} w t
	w=hackbench-$mode-$ipc@groups=$groups
	hb_size "$w" hb_once "$groups" "$mode" "$ipc" "$size" ||
		{ error "$w hackbench failed: $(tail -n 1 "$work/err")"; return; }
	size "$w" $((groups * 20)) "groups=$groups loops=$loops"
	counters_begin
	t=$(hb_once "$groups" "$mode" "$ipc" "$size")
	counters_stop
	[ -n "$t" ] || { error "$w hackbench failed: $(tail -n 1 "$work/err")"; return; }
	too_short "$w" "$t" "MMSCALE_HACKBENCH_LOOPS=auto sizes the loops"
	echo "mmscale: metric $w hackbench.throughput $(awk -v m="$(hackbench_msgs "$groups")" -v t="$t" 'BEGIN { printf "%.0f", m / t }')"
	echo "mmscale: metric $w hackbench.time.elapsed_s $t"
	counters_end "$w" "$(hackbench_msgs "$groups")"
}

# hb_cgroups K MODE IPC SIZE: K hackbench groups (one hackbench -g 1 each),
# each in its own cgroup of $cg, started together; prints the slowest one's
# seconds (nothing when one failed).
hb_cgroups() {
	local k=$1 i args t
	args=$(hackbench_args "$2" "$3" "$4")
	for ((i = 0; i < k; i++)); do
		sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec hackbench "$@"' sh "$cg/g$i" -g 1 $args \
			> "$work/hb$i" 2>&1 &
	done
	wait
	t=$(cat "$work"/hb* | awk -v k="$k" '/^Time:/ { n++; if ($2 > m) m = $2 } END { if (n == k) print m }')
	rm -f "$work"/hb*
	echo "$t"
}

# K hackbench groups, each in its own cgroup, started together; throughput =
# all messages / the slowest one's time.
run_hackbench_cgroup() {
	local mode=$1 ipc=$2 k=$3 size=${4:-4096} w t
	w=hackbench-cgroup-$mode-$ipc@cgroups=$k
	cgroups_ready "$w" "$k" || return
	hb_size "$w" hb_cgroups "$k" "$mode" "$ipc" "$size" ||
		{ error "$w not every hackbench finished"; cgroups_remove; return; }
	size "$w" $((k * 20)) "cgroups=$k loops=$loops"
	counters_begin
	t=$(hb_cgroups "$k" "$mode" "$ipc" "$size")
	counters_stop
	cgroups_remove
	[ -n "$t" ] || { error "$w not every hackbench finished"; return; }
	too_short "$w" "$t" "MMSCALE_HACKBENCH_LOOPS=auto sizes the loops"
	echo "mmscale: metric $w hackbench.throughput $(awk -v m="$(($(hackbench_msgs 1) * k))" -v t="$t" 'BEGIN { printf "%.0f", m / t }')"
	counters_end "$w" "$(($(hackbench_msgs 1) * k))"
}

# run_madvise_fault K [THP]: K processes, each in its own cgroup, write every page
# of a 16 MiB anonymous mapping and madvise(DONTNEED) it, in a loop: one
# charge and one uncharge per page and round (per 2 MiB folio with THP).
# THP thp or nothp: transparent_hugepage/enabled always or never for the
# run, restored after it; the workload's name then ends in -thp or -nothp.
run_madvise_fault() {
	local k=$1 thp=${2:-} w=memcg-madvise-fault${2:+-$2}@cgroups=$1 f=/sys/kernel/mm/transparent_hugepage/enabled old=
	if [ -n "$thp" ]; then
		[ -w $f ] || { echo "mmscale: skip $w $f is not writable (no THP in this kernel)"; return; }
		old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $f)
		echo "$([ "$thp" = thp ] && echo always || echo never)" > $f ||
			{ error "$w could not set $f"; return; }
	fi
	cgroups_ready "$w" "$k" || { [ -z "$old" ] || echo "$old" > $f; return; }
	size "$w" "$k" "cgroups=$k, 16 MiB each, $secs s of samples${thp:+, THP $(sed -n 's/.*\[\(.*\)\].*/\1/p' $f)}"
	run_sampled "$w" "$bin/page_fault" -k 1 -a -m processes -t "$k" -b 16 -s "$secs" -w 1 -d "$tmp" -c "$cg/g"
	sleep 1
	cgroups_remove
	[ -z "$old" ] || echo "$old" > $f
}

# run_iperf3_cgroup K MIB [PLACE]: K iperf3 pairs on loopback, the server and the
# client of pair i in cgroup g<i>; each client sends MIB MiB with sendfile
# in 10 KiB writes.  Operations are the 10 KiB messages; the metric is all
# bytes over the slowest client's time.  PLACE (mixed, pair, split; the
# workload's name then ends in -PLACE) pins the pairs with taskset: mixed
# leaves them to the scheduler, pair puts both ends of pair i on CPU i mod
# CPUs (its charges and uncharges on one CPU's stock), split puts the
# server on CPU 2i and the client on CPU 2i+1, mod CPUs (socket memory
# charged on one CPU and uncharged on another).
run_iperf3_cgroup() {
	local k=$1 mib=${2:-64} place=${3:-mixed} w=iperf3-cgroup${3:+-$3}@pairs=$1 i n t0 t bad=0 clients per_pair
	local -a srv_cpu=() cli_cpu=()
	command -v iperf3 > /dev/null || { echo "mmscale: skip $w iperf3 is not installed"; return; }
	[ "$place" = mixed ] || command -v taskset > /dev/null ||
		{ echo "mmscale: skip $w taskset is not installed (PLACE=$place pins the pairs)"; return; }
	cgroups_ready "$w" "$k" || return
	size "$w" $((2 * k)) "pairs=$k, $mib MiB each, sendfile, 10 KiB writes, placement $place"
	for ((i = 0; i < k; i++)); do
		case $place in
		mixed) srv_cpu[i]=; cli_cpu[i]= ;;
		pair) srv_cpu[i]=$((i % nr_cpus)); cli_cpu[i]=${srv_cpu[i]} ;;
		split) srv_cpu[i]=$((2 * i % nr_cpus)); cli_cpu[i]=$(((2 * i + 1) % nr_cpus)) ;;
		esac
	done
	for ((i = 0; i < k; i++)); do
		sh -c 'echo $$ > "$1/cgroup.procs" && c=$2 && shift 2 && exec ${c:+taskset -c $c} iperf3 "$@"' sh "$cg/g$i" "${srv_cpu[i]}" \
			-s -1 -B 127.0.0.1 -p $((5201 + i)) > "$work/srv$i" 2>&1 &
	done
	for n in $(seq 100); do
		[ "$(ss -Hltn "sport >= :5201 and sport < :$((5201 + k))" | wc -l)" -ge "$k" ] && break
		sleep 0.1
	done
	[ "$n" -lt 100 ] || echo "mmscale: warn $w not every iperf3 server listened within 10 s"
	clients=()
	counters_begin
	t0=$(date +%s.%N)
	for ((i = 0; i < k; i++)); do
		sh -c 'echo $$ > "$1/cgroup.procs" && c=$2 && shift 2 && exec ${c:+taskset -c $c} iperf3 "$@"' sh "$cg/g$i" "${cli_cpu[i]}" \
			-c 127.0.0.1 -p $((5201 + i)) -Z -l 10K -n "${mib}M" -f g > "$work/cli$i" 2>&1 &
		clients+=($!)
	done
	wait "${clients[@]}"
	t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
	counters_stop
	# a server whose client never connected would wait for ever
	pkill -f "^iperf3 -s -1 -B 127.0.0.1" 2> /dev/null
	wait
	for ((i = 0; i < k; i++)); do
		grep -q 'iperf Done' "$work/cli$i" || { bad=1; error "$w pair $i failed: $(tail -n 1 "$work/cli$i")"; }
	done
	# each client's own rate (its sender line, -f g: Gbit/s), as a mean
	per_pair=$(cat "$work"/cli* | awk '$NF == "sender" && $(NF - 2) == "Gbits/sec" { s += $(NF - 3); n++ }
		END { if (n) printf "%.3f", s / n }')
	rm -f "$work"/srv* "$work"/cli*
	cgroups_remove
	[ "$bad" = 0 ] || return
	too_short "$w" "$t" "a larger MIB (iperf3-cgroup:K:MIB) lengthens it"
	echo "mmscale: metric $w iperf3.MiB_per_s $(awk -v m=$((mib * k)) -v t="$t" 'BEGIN { printf "%.1f", m / t }')"
	# all pairs' bytes over the wall time, in Gbit/s (10^9 bits)
	echo "mmscale: metric $w iperf3.total.Gbit_per_s $(awk -v m=$((mib * k)) -v t="$t" 'BEGIN { printf "%.3f", m * 8388608 / t / 1e9 }')"
	[ -z "$per_pair" ] || echo "mmscale: metric $w iperf3.pair.Gbit_per_s $per_pair"
	counters_end "$w" $((k * mib * 1024 / 10))
}

# run_shmem_cgroup K MIB: K processes, each in its own cgroup, write a MIB
# MiB tmpfs file in 64 KiB writes and delete it, 20 times: one charge and
# one uncharge per page written (small folios, tmpfs's default), the
# uncharges from truncation's folio batches.  Operations are the pages.
run_shmem_cgroup() {
	local k=$1 mib=${2:-16} w=shmem-cgroup@cgroups=$1 i t0 t rounds=20 pid bad=0 shm
	local -a pids=()
	# the tmpfs of the run (MMSCALE_BENCH_TMP), else the scratch folder
	for shm in "$tmp" "$work"; do [ "$(stat -f -c %T "$shm")" = tmpfs ] && break; done
	[ "$(stat -f -c %T "$shm")" = tmpfs ] ||
		{ echo "mmscale: skip $w neither $tmp nor $work is on tmpfs"; return; }
	shm=$shm/mmscale-shm.$$
	cgroups_ready "$w" "$k" || return
	size "$w" "$k" "cgroups=$k, $mib MiB each, $rounds rounds"
	counters_begin
	t0=$(date +%s.%N)
	for ((i = 0; i < k; i++)); do
		sh -c 'echo $$ > "$1/cgroup.procs" || exit 1
			for r in $(seq $4); do
				dd if=/dev/zero of="$2" bs=64K count=$(($3 * 16)) status=none || exit 1
				rm -f "$2"
			done' sh "$cg/g$i" "$shm$i" "$mib" "$rounds" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do wait "$pid" || bad=1; done
	t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
	counters_stop
	rm -f "$shm"*
	cgroups_remove
	[ "$bad" = 0 ] || { error "$w a writer failed (is $shm full?)"; return; }
	too_short "$w" "$t" "a larger MIB (shmem-cgroup:K:MIB) lengthens it"
	echo "mmscale: metric $w shmem.MiB_per_s $(awk -v m=$((mib * k * rounds)) -v t="$t" 'BEGIN { printf "%.1f", m / t }')"
	counters_end "$w" $((k * mib * rounds * 256))
}

run_memcg_fault() {
	local k=$1 w=memcg-parallel-fault@cgroups=$1
	cgroups_ready "$w" "$k" || return
	size "$w" "$k" "cgroups=$k, 64 MiB each, $secs s of samples"
	run_sampled "$w" "$bin/page_fault" -k 1 -m processes -t "$k" -b 64 -s "$secs" -w 1 -d "$tmp" -c "$cg/g"
	sleep 1
	cgroups_remove
}

# run_memcg_nested_fault DEPTH: page_fault2 (private file mappings written:
# page cache and anon charged), one thread per CPU, all in one memory
# cgroup DEPTH levels below the root (mmscale-bench/g0[/g0...]), so that a
# page counter charge or uncharge walks DEPTH + 1 counters, the root's
# among them, and a statistics update DEPTH + 1 memcgs' per-CPU counts.
# The 2009 parallel page-fault test, nested (issue 43 item 5).
run_memcg_nested_fault() {
	local depth=$1 w=memcg-nested-fault@depth=$1 leaf i
	cgroups_ready "$w" 1 || return
	leaf=$cg/g0
	for ((i = 2; i < depth; i++)); do
		if ! echo +memory > "$leaf/cgroup.subtree_control" || ! mkdir "$leaf/g0"; then
			error "$w could not nest a memory cgroup under $leaf"
			nested_remove
			return
		fi
		leaf=$leaf/g0
	done
	size "$w" "$nr_cpus" "threads=$nr_cpus in one cgroup at depth $depth, 32 MiB each, $secs s of samples"
	run_sampled "$w" sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$leaf" \
		"$bin/page_fault" -k 2 -m threads -t "$nr_cpus" -b 32 -s "$secs" -w 1 -d "$tmp"
	sleep 1
	nested_remove
}

# nested_remove: the cgroups under mmscale-bench/g0, deepest first, then the rest
nested_remove() {
	local d
	for d in $(find $cg/g0 -mindepth 1 -type d 2>/dev/null | sort -r); do
		rmdir "$d" 2>/dev/null || { sleep 1; rmdir "$d"; }
	done
	cgroups_remove
}

vmalloc_mask() {
	local t m=0
	for t in ${1//+/ }; do
		case $t in
		fix_size) m=$((m | 1)) ;;
		full_fit) m=$((m | 2)) ;;
		long_busy_list) m=$((m | 4)) ;;
		random_size) m=$((m | 8)) ;;
		align) m=$((m | 16)) ;;
		*) return 1 ;;
		esac
	done
	echo $m
}

# threshold_kb POINT: the knob value for a sweep point: auto is 0, NxAUTO is
# N times the automatic threshold (fls(CPUs) x 32 MiB), else KiB as given.
threshold_kb() {
	local n=$nr_cpus fls=0
	case $1 in
	auto) echo 0 ;;
	*xauto)
		while [ "$n" -gt 0 ]; do fls=$((fls + 1)); n=$((n >> 1)); done
		echo $((${1%xauto} * fls * 32768)) ;;
	*) echo "$1" ;;
	esac
}

run_vmalloc() {
	local tests=$1 thr=$2 w mask old="" n mark t0 t vloops=${MMSCALE_VMALLOC_LOOPS:-20000}
	w=vmalloc-$tests@threshold_kb=$thr
	mask=$(vmalloc_mask "$tests") || { error "$w unknown test in '$tests'"; return; }
	modinfo test_vmalloc > /dev/null 2>&1 || {
		echo "mmscale: skip $w this kernel has no test_vmalloc module (CONFIG_TEST_VMALLOC=m; make deb's packages have it)"
		return
	}
	if [ -e "$knob" ]; then
		old=$(cat "$knob")
		echo "$(threshold_kb "$thr")" > "$knob" ||
			{ error "$w could not set $knob to $thr"; return; }
	elif [ "$thr" != auto ]; then
		echo "mmscale: skip $w this kernel has no lazy-purge threshold knob ($knob)"
		return
	fi
	if [ "$vloops" = auto ]; then
		local probe=1000
		while :; do
			t0=$(date +%s.%N)
			modprobe test_vmalloc run_test_mask="$mask" nr_threads="$nr_cpus" \
				test_loop_count=$probe sequential_test_order=1 2> /dev/null
			t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
			long_enough "$t" 0.2 || [ "$probe" -ge 1000000 ] && break
			probe=$((probe * 10))
		done
		vloops=$(scaled_loops "$probe" "$t" 10000000)
		echo "mmscale: info $w loops=auto: $probe loops took $t s, so $vloops loops for about $secs s"
	fi
	size "$w" "$nr_cpus" "threads=$nr_cpus loops=$vloops"
	# a boot's first modprobe reads modprobe and test_vmalloc.ko from disk
	# (10 major faults and about 940 pages more here), and the first window
	# that times itself reads date(1) and runs it twice, which activates its
	# pages (33-61 pgactivate and one major fault, on either kernel): two
	# rounds of both outside the window, so that every measured run finds
	# them cached and active.  Base, with no knob, skipped the sweep points
	# before auto and paid all of it inside auto's window, head in its
	# first point (make bench, 2026-12-01)
	for n in 1 2; do
		modprobe test_vmalloc run_test_mask="$mask" nr_threads=1 test_loop_count=1 \
			sequential_test_order=1 2> /dev/null
		date +%s.%N > /dev/null
	done
	# the run's kernel messages start after this line; counting dmesg
	# lines instead lost the summary once the log buffer was full
	mark="mmscale-bench $w $$ $RANDOM"
	echo "$mark" > /dev/kmsg
	counters_begin
	t0=$(date +%s.%N)
	modprobe test_vmalloc run_test_mask="$mask" nr_threads="$nr_cpus" \
		test_loop_count="$vloops" sequential_test_order=1 2> /dev/null
	t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
	counters_stop
	[ -n "$old" ] && echo "$old" > "$knob"
	too_short "$w" "$t" "MMSCALE_VMALLOC_LOOPS=auto sizes the loops"
	dmesg | awk -v m="$mark" 'index($0, m) { n = NR; delete l } { l[NR] = $0 } END { for (i = n + 1; i <= NR; i++) if (n) print l[i] }' > "$work/vm"
	if ! grep -q 'Summary:' "$work/vm"; then
		error "$w test_vmalloc printed no summary (module missing?)"
		return
	fi
	# " failed: 0 " with its blank: 7.3's summary also has "xfailed: N"
	if grep 'Summary:' "$work/vm" | grep -qv ' failed: 0 '; then
		error "$w test_vmalloc reported failures: $(grep 'Summary:' "$work/vm" | grep -v ' failed: 0 ' | head -n 1)"
	fi
	# one line per worker and test: "Summary: NAME passed: P failed: F ... avg: N usec"
	grep -o 'Summary: [a-z_]* .* avg: [0-9]* usec' "$work/vm" |
		awk -v w="$w" '{ sub(/_test$/, "", $2); s[$2] += $(NF - 1); n[$2]++ }
			END { for (t in s) printf "mmscale: metric %s test_vmalloc.%s.usec %.0f\n", w, t, s[t] / n[t] }'
	# operations: test loops (each frees at least one area), all workers and tests
	counters_end "$w" "$(($(grep -c 'Summary:' "$work/vm") * vloops))"
}

# run_sigqueue SIGNALS ROUNDS: empty the cache first (shrink frees its
# empty slabs and flushes the cpu slabs), so every run starts alike.
run_sigqueue() {
	local n=${1:-4096} r=${2:-8} d=/sys/kernel/slab/sigqueue
	[ -L $d ] && echo "mmscale: info all sigqueue is merged into $(readlink $d): boot with slab_nomerge"
	echo 1 > $d/shrink 2>/dev/null || echo "mmscale: info all could not shrink $d"
	run_sampled "sigqueue@signals=$n" "$bin/sigqueue" -n "$n" -r "$r"
}

# run_empty_partial: the empty slabs that the items before it left on the
# node partial lists, summed over every cache that is not an alias.  Per
# cache: writing cpu_partial back unchanged flushes the cpu slabs and cpu
# partial lists (flush_all(); the empty slabs it discards are not counted);
# then a shrink (kmem_cache_shrink()) discards every empty slab on the node
# partial lists whatever min_partial says, and the drop of each node's slab
# count (SLUB_DEBUG's "slabs"), less the free_slab events of SLUB_STATS
# meanwhile, is the number of empty slabs that were on that node's list.
# The flush can add empty slabs of its own only to a node list that holds
# fewer than min_partial slabs (6.12's rule), so "empty" is an upper bound,
# while "over_min", the empty slabs beyond those that fill each node's list
# up to min_partial, the ones that rule would have discarded, is not raised
# by the flush.  The caches are shrunk afterwards: put this item last.
# Needs CONFIG_SLUB_DEBUG and CONFIG_SLUB_STATS (else a skip line).
run_empty_partial() {
	local w=slab-empty-partial d cp s1 s2 f1 f2 p1 m e n en pn keep over
	local caches=0 with=0 empty=0 overmin=0 partial=0 nn=0
	[ -r /sys/kernel/slab/kmalloc-64/slabs ] && [ -r /sys/kernel/slab/kmalloc-64/free_slab ] ||
		{ echo "mmscale: skip $w needs CONFIG_SLUB_DEBUG and CONFIG_SLUB_STATS"; return; }
	for d in /sys/devices/system/node/node[0-9]*; do [ -d "$d" ] && nn=$((nn + 1)); done
	[ "$nn" -gt 0 ] || nn=1
	for d in /sys/kernel/slab/*; do
		[ -L "$d" ] && continue
		read -r cp < "$d/cpu_partial" && read -r m < "$d/min_partial" || continue
		echo "$cp" > "$d/cpu_partial" 2>/dev/null || continue
		read -r s1 < "$d/slabs" && read -r f1 _ < "$d/free_slab" && read -r p1 < "$d/partial" || continue
		echo 1 > "$d/shrink" 2>/dev/null || continue
		read -r s2 < "$d/slabs" && read -r f2 _ < "$d/free_slab" || continue
		caches=$((caches + 1))
		partial=$((partial + ${p1%% *}))
		e=$(( (${s1%% *} - ${s2%% *}) - (f2 - f1) ))
		[ "$e" -gt 0 ] || continue
		over=0
		for ((n = 0; n < nn; n++)); do
			en=$(( $(node_count "$s1" $n) - $(node_count "$s2" $n) ))
			pn=$(node_count "$p1" $n)
			keep=$((m - (pn - en))); [ "$keep" -gt 0 ] || keep=0
			[ "$en" -gt "$keep" ] && over=$((over + en - keep))
		done
		with=$((with + 1)) empty=$((empty + e)) overmin=$((overmin + over))
		echo "mmscale: info $w ${d##*/}: $e empty of ${p1%% *} on the node partial lists after the flush (${p1#* }), min_partial $m, $over over"
	done
	echo "mmscale: info $w $caches caches shrunk, $nn nodes"
	echo "mmscale: metric $w slab.partial $partial"
	echo "mmscale: metric $w slab.partial_empty $empty"
	echo "mmscale: metric $w slab.partial_empty_over_min $overmin"
	echo "mmscale: metric $w slab.caches_with_empty $with"
}

# node_count LINE N: the "N<N>=" value of a SLUB sysfs line (0 if absent)
node_count() {
	local re=" N$2=([0-9]+)( |\$)"
	[[ " $1" =~ $re ]] && echo "${BASH_REMATCH[1]}" || echo 0
}

# node_first_cpu N: the first CPU of NUMA node N, or nothing
node_first_cpu() {
	local l
	[ -r "/sys/devices/system/node/node$1/cpulist" ] || return 0
	read -r l < "/sys/devices/system/node/node$1/cpulist" || return 0
	l=${l%%,*}
	echo "${l%%-*}"
}

# run_xnode_free SIGNALS ROUNDS: bench/sigqueue.c queueing on node 0's
# first CPU and taking back on node 1's, after a shrink of the cache
run_xnode_free() {
	local n=$1 r=$2 a b w=xnode-free@signals=$1
	a=$(node_first_cpu 0) b=$(node_first_cpu 1)
	[ -n "$a" ] && [ -n "$b" ] ||
		{ echo "mmscale: skip $w needs two NUMA nodes with CPUs"; return; }
	echo 1 > /sys/kernel/slab/sigqueue/shrink 2>/dev/null
	size "$w" 1 "queued on cpu $a (node 0), taken back on cpu $b (node 1), $r rounds"
	run_sampled "$w" "$bin/sigqueue" -n "$n" -r "$r" -a "$a" -b "$b"
}

# run_stress_ng STRESSOR OPS: one worker per CPU, OPS bogo operations in
# all; the operations are the bogo ops stress-ng reports
run_stress_ng() {
	local st=$1 ops=$2 w=stress-ng-$1@ops=$2 done_ops
	command -v stress-ng > /dev/null ||
		{ echo "mmscale: skip $w stress-ng is not installed"; return; }
	size "$w" "$nr_cpus" "$ops bogo ops in all"
	counters_begin
	if ! stress-ng --temp-path "$tmp" --"$st" "$nr_cpus" --"$st"-ops "$ops" --metrics-brief \
		> "$work/out" 2>&1; then
		error "$w stress-ng failed: $(grep -v '^stress-ng: info' "$work/out" | tail -n 1)"
		return
	fi
	counters_stop
	done_ops=$(awk -v s="$st" '$0 ~ "stress-ng: (info|metrc): +\\[[0-9]+\\] +" s " " { print $(NF - 5); exit }' "$work/out")
	[[ $done_ops =~ ^[0-9]+$ ]] || done_ops=$ops
	echo "mmscale: metric $w stress-ng.bogo_ops $done_ops"
	counters_end "$w" "$done_ops"
}

# --- main -----------------------------------------------------------------
[ "$(stat -f -c %T "$tmp" 2>/dev/null)" = tmpfs ] ||
	echo "mmscale: info all $tmp is not tmpfs: page_fault2/3 and shm-pread-seq-mt measure $(stat -f -c %T "$tmp" 2>/dev/null)"
echo "mmscale: uname $(uname -r) $(uname -v | tr ' ' _) cpus=$nr_cpus"
kprobes_setup
# the two snapshot variables get their memory here, not in a window
vmstat_read vm_before
vmstat_read vm_after
trap 'kprobes_cleanup; cgroups_remove 2>/dev/null; rm -rf "$work"' EXIT
for item in ${MMSCALE_BENCH//,/ }; do
	IFS=: read -r name a b c d <<< "$item"
	echo "mmscale: info all running $item" >&2
	case $name in
	page_fault[123])
		size "$name-$a@tasks=$b" "$b" "$secs s of samples"
		run_sampled "$name-$a@tasks=$b" "$bin/page_fault" -k "${name#page_fault}" -m "$a" -t "$b" \
			-s "$secs" -w 1 -d "$tmp" ;;
	shm-pread-seq-mt)
		size "$name@threads=$a" "$a" "$secs s of samples"
		run_sampled "$name@threads=$a" "$bin/shm_pread" -t "$a" -s "$secs" -w 1 -d "$tmp" ;;
	memcg-parallel-fault) run_memcg_fault "$a" ;;
	memcg-nested-fault) run_memcg_nested_fault "$a" ;;
	memcg-madvise-fault) run_madvise_fault "$a" "$b" ;;
	iperf3-cgroup) run_iperf3_cgroup "$a" "$b" "$c" ;;
	shmem-cgroup) run_shmem_cgroup "$a" "$b" ;;
	sigqueue) run_sigqueue "$a" "$b" ;;
	xnode-free) run_xnode_free "$a" "$b" ;;
	stress-ng) run_stress_ng "$a" "$b" ;;
	hackbench) run_hackbench "$a" "$b" "$c" "$d" ;;
	hackbench-cgroup) run_hackbench_cgroup "$a" "$b" "$c" "$d" ;;
	vmalloc) run_vmalloc "$a" "$b" ;;
	slab-empty-partial) run_empty_partial ;;
	*) echo "mmscale: error $item unknown workload" ;;
	esac
done
echo "mmscale: bench done"
