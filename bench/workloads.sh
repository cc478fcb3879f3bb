#!/usr/bin/env bash
# bench/workloads.sh - run the benchmark workloads and capture mechanism
# counters around each one; used in the QEMU guest (bench/guest-bench.sh)
# and on a bare-metal host (make bench HOST=1).
#
# What it does: for each item of MMSCALE_BENCH (comma separated,
# NAME:FIELD:...), the workload that answers to NAME: a folder of
# bench/programs/ whose meta names it and says its fields, and whose run
# defines run_<folder> (docs/workloads.md; bench/lib.sh reads them).  The
# run functions snapshot the counters around the workload with the helpers
# below (run_sampled, counters_begin/stop/end, cgroups_ready, size), and
# print
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

# --- helpers of the workloads' run functions -------------------------------
# run_sampled WORKLOAD CMD...: a C program of bench/programs/ (its lines
# "KEY VALUE" of results, "sample ...", "total_ops N"); its result lines become
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

# --- the workloads: bench/programs/*/run ----------------------------------
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if ! programs_load; then
	echo "mmscale: error all $PROGRAMS_ERROR"
	rm -rf "$work"
	exit 1
fi
for w in "${PROGRAMS[@]}"; do
	# shellcheck source=/dev/null
	source "$BENCH_DIR/programs/$w/run"
done

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
	IFS=: read -r -a f <<< "$item"
	name=${f[0]:-}
	echo "mmscale: info all running $item" >&2
	w=
	[ -z "$name" ] || w=${PROGRAM_OF[$name]:-}
	if [ -z "$w" ]; then
		echo "mmscale: error $item unknown workload"
		continue
	fi
	"run_${w//-/_}" "${f[@]:1}"
done
echo "mmscale: bench done"
