# lab/guest/stress.sh - the plan of "make stress" (lab/stages/stress.sh), sourced by
# lab/guest/init.sh in the guest.
#
# What it does: section "stress" runs these stressors together for
# MMSCALE_STRESS_SECONDS, each a loop that counts its rounds and errors:
#   pf        page_fault1/2/3 (bench/programs/page_fault/), threads, and processes
#             in the child memcgs persist0 and persist1;
#   hackbench one hackbench group in each of persist2 and persist3, pipes
#             and sockets;
#   churn     a new child memcg, a kmem-heavy task in it (300 tmpfs files,
#             then hackbench with pipes), killed after 1 s, rmdir;
#   hotplug   every CPU but 0 offline and online again;
#   vmalloc   test_vmalloc (fix_size, and full_fit at thresholds of 1 MiB
#             and below; all CPUs) while the lazy-purge threshold changes,
#             and "echo 2 > drop_caches" (the vmap pool shrinker);
#   validate  /sys/kernel/slab/<cache>/validate of MMSCALE_CACHES (the boot
#             gives them slab_debug=FZPU);
#   stress-ng fork, mmap, vm, sock, udp and userfaultfd, one worker each;
#             it starts first, and the others once its start-up scans of
#             the CPUs' sysfs are done (see s_stressng).
# Then, as KTAP: every stressor ran and stopped, with no error; every
# persistent child memcg is back to (almost) nothing after memory.reclaim
# and a memory.high of 0 (which drains the charge stocks): at most
# MMSCALE_CG_BOUND_KB (default 64) KiB; nr_dying_descendants is 0 within 60
# s; the parent's memory.stat kernel is within the same bound times the
# children; the series' counters agree (stated bounds below); the page->ptl
# cache holds no more objects than page tables were added; kmemleak finds
# no leak whose backtrace is in the series' code (the others are listed).
# Facts about contention (lock_stat, SLUB_STATS free_locked_redo) are
# printed as "mmscale: fact" lines after the section.
# MMSCALE_INJECT=leak leaves 32 MiB of tmpfs charged to persist0 (the memcg
# check must fail); =warn writes a WARNING line to the kernel log (the
# report must fail); =drain (with isolcpus=1 on the command line) leaves a
# removed memcg's charge in the stock of an isolated CPU, which the offline
# drain skips (the nr_dying check must fail; see inject_drain); =hang adds
# the stressor hang, which never finishes a round (the stressor checks must
# fail, the stuck one with its kernel stack: lab/guest/stuck.sh).
# A stressor that finished no round is reported with the step it was in and
# for how long; one still running 120 s after the stop, with its tasks and
# their kernel stacks.
# What it needs: the helpers of lab/guest/init.sh; bash, coreutils, kmod,
# util-linux, rt-tests (hackbench), stress-ng on the host root; the
# workloads built on the host (MMSCALE_BIN); cgroup v2; debugfs (kmemleak).

secs=${MMSCALE_STRESS_SECONDS:-300}
sbin=$(hostpath "${MMSCALE_BIN:-/nonexistent}")
# the host's lab/guest/ (this plan's folder): stuck.sh is there
labdir=$(dirname "$(hostpath "$MMSCALE_PLAN")")
cg=/sys/fs/cgroup/mmscale-stress
st=/tmp/stress
cg_bound_kb=${MMSCALE_CG_BOUND_KB:-64}
# kernel messages at ERR and above on the console while it runs (hotplug
# alone prints lines by the thousand); the whole log is dumped at the end
dmesg -n 4
mkdir -p $st

# --- stressors: NAME loop; each round adds to $st/NAME.rounds, each error
# a line to $st/NAME.err; the loop ends when $st/stop exists -------------
round() { echo . >> "$st/$1.rounds"; }
# step NAME WHAT: the step NAME is in now, and since when (the report says
# it for a stressor that finished no round or did not stop)
step() { echo "$(date +%s) $2" > "$st/$1.step"; }
# step_of NAME: "its step: WHAT, for N s" (or that it recorded none)
step_of() {
	local t w
	read -r t w < "$st/$1.step" 2> /dev/null || { echo "it recorded no step"; return; }
	echo "its step: $w, for $(($(date +%s) - t)) s"
}
fail() { echo "$2" >> "$st/$1.err"; }
running() { [ ! -e $st/stop ]; }

s_pf() {
	local k
	while running; do
		for k in 1 2 3; do
			step pf "page_fault -k $k, threads then processes in memcgs"
			"$sbin/page_fault" -k $k -m threads -t 2 -s 1 -w 0 -d /dev/shm > /dev/null 2>> $st/pf.log ||
				fail pf "page_fault -k $k threads"
			"$sbin/page_fault" -k $k -m processes -t 2 -s 1 -w 0 -d /dev/shm -c $cg/persist \
				> /dev/null 2>> $st/pf.log || fail pf "page_fault -k $k processes in memcgs"
		done
		round pf
	done
}

s_hackbench() {
	local i ipc
	while running; do
		for ipc in -p ""; do
			step hackbench "hackbench -g 1 -f 10 -l 100 -s 1024 -P ${ipc:-(sockets)} in persist2 and persist3"
			for i in 2 3; do
				sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec hackbench "$@"' sh "$cg/persist$i" \
					-g 1 -f 10 -l 100 -s 1024 -P $ipc > /dev/null 2>> $st/hackbench.log &
			done
			wait || fail hackbench "hackbench ${ipc:-socket}"
		done
		round hackbench
	done
}

s_churn() {
	local n=0 d pid
	while running; do
		n=$((n + 1))
		d=$cg/churn$n
		step churn "child memcg churn$n: mkdir, 300 tmpfs files and hackbench, cgroup.kill, rmdir"
		mkdir $d || { fail churn "mkdir $d"; sleep 1; continue; }
		rm -f $st/churn.in
		sh -c 'echo $$ > "$1/cgroup.procs" || exit 1
			: > '$st'/churn.in
			mkdir -p /tmp/churn.$2 && i=0
			while [ $i -lt 300 ]; do : > /tmp/churn.$2/f$i; i=$((i + 1)); done
			exec hackbench -g 1 -f 5 -l 5000 -s 512 -P -p' sh "$d" "$n" > /dev/null 2>&1 &
		pid=$!
		# kill it only once it is in the child (a loaded guest may take
		# a while to start it), 1 s into its work
		for _ in $(seq 120); do [ -e $st/churn.in ] && break; kill -0 $pid 2> /dev/null || break; sleep 0.25; done
		sleep 1
		# every task of the child, hackbench's forks too
		echo 1 > $d/cgroup.kill
		for _ in $(seq 40); do kill -0 $pid 2> /dev/null || break; sleep 0.25; done
		kill -0 $pid 2> /dev/null && { fail churn "pid $pid survived cgroup.kill of $d"; kill -KILL $pid; }
		wait $pid 2> /dev/null
		for _ in $(seq 20); do grep -q '^populated 0' $d/cgroup.events && break; sleep 0.25; done
		rm -rf /tmp/churn.$n
		rmdir $d || fail churn "rmdir $d: $(grep populated $d/cgroup.events)"
		round churn
	done
}

# s_hotplug takes a CPU down and up under $st/hotplug.lock, which
# s_stressng holds while stress-ng scans the CPUs' sysfs (see there)
s_hotplug() {
	local c
	while running; do
		for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
			step hotplug "offline and online $c (waits while stress-ng starts: $st/hotplug.lock)"
			{
				flock 9
				echo 0 > "$c" 2> /dev/null || echo "offline $c" >> $st/hotplug.busy
				sleep 0.2
				echo 1 > "$c" || fail hotplug "online $c"
			} 9> $st/hotplug.lock
		done
		round hotplug
	done
}

s_vmalloc() {
	local knob=/proc/sys/vm/vmap_lazy_threshold_kbytes t=none n t0 mask
	# 6.12's name of the same sysctl
	[ -e $knob ] || knob=/proc/sys/vm/vmap_lazy_threshold_kb
	local points=(4 64 1024 0 16384)
	while running; do
		if [ -w $knob ]; then
			t=${points[RANDOM % ${#points[@]}]}
			echo "$t" > $knob || fail vmalloc "threshold $t"
		fi
		# The round's tests, by threshold, so that a round alone takes
		# seconds, not minutes (docs/results.md, "make stress's vmalloc round"; under
		# the other stressors it still took 59-74 s there; 4 workers
		# alone under MTTCG: full_fit, whose junk list is the threshold,
		# took 765 s at auto, 62 s at 16 MiB and 5 s at 1 MiB;
		# long_busy_list, a fixed 15000 areas a worker, 65-142 s at every
		# point): fix_size always, full_fit at 1 MiB and below.
		mask=1
		[[ $t =~ ^[0-9]+$ ]] && [ "$t" != 0 ] && [ "$t" -le 1024 ] && mask=3
		n=$(dmesg | wc -l)
		step vmalloc "modprobe test_vmalloc run_test_mask=$mask nr_threads=$(nproc) test_loop_count=50 (vm.vmap_lazy_threshold_kb $(cat $knob 2> /dev/null || echo 'not in this kernel'))"
		t0=$(date +%s)
		modprobe test_vmalloc run_test_mask=$mask nr_threads="$(nproc)" test_loop_count=50 2> /dev/null
		# each round's threshold (KiB, 0 auto) and seconds, for the facts
		echo "$t:$(($(date +%s) - t0))" >> $st/vmalloc.times
		dmesg | tail -n +$((n + 1)) | grep 'Summary:' > $st/vmalloc.last
		if [ ! -s $st/vmalloc.last ]; then
			fail vmalloc "test_vmalloc printed no summary"
		elif grep -qv ' failed: 0 ' $st/vmalloc.last; then
			# " failed: 0 " with its blank: 7.3's summary also has "xfailed: N"
			fail vmalloc "test_vmalloc: $(grep -v ' failed: 0 ' $st/vmalloc.last | head -n 1)"
		fi
		round vmalloc
	done
	[ -w $knob ] && echo 0 > $knob
}

s_dropcaches() {
	while running; do
		step dropcaches "echo 2 > /proc/sys/vm/drop_caches"
		echo 2 > /proc/sys/vm/drop_caches || fail dropcaches "drop_caches"
		round dropcaches
		sleep 2
	done
}

s_validate() {
	local c
	while running; do
		for c in ${MMSCALE_CACHES//,/ }; do
			[ -e "/sys/kernel/slab/$c/validate" ] || continue
			step validate "echo 1 > /sys/kernel/slab/$c/validate"
			echo 1 > "/sys/kernel/slab/$c/validate" || fail validate "validate $c"
		done
		round validate
		sleep 1
	done
}

# Debian 12's stress-ng (0.15.06) reads every online CPU's cache sysfs
# when it starts (the parent's shared cache buffer) and when its vm
# stressor starts (the cache line size).  A read that fails because the
# CPU went offline under it makes system_read() (core-helper.c) write a NUL at
# buf[-errno], on the stack: here it cleared the top byte of a pointer
# 19 bytes below the buffer (ENODEV), and the parent or stress-ng-vm
# segfaulted (3 of 5 runs, 2026-12-04; fixed upstream in 0.17.07,
# "Remove write potentially outside of buffer").  So CPU hotplug waits
# (hotplug.lock) until both scans are done (stress-ng -v prints the vm
# stressor's "using method" line after its scan); 120 s at most.
# stress_run starts it before the other stressors, which wait for the
# same moment (stressng.held).
s_stressng() {
	local pid t t0
	cd /tmp || fail stressng "cd /tmp"
	step stressng "stress-ng -v --fork 1 --mmap 1 --vm 1 --sock 1 --udp 1 --userfaultfd 1 --timeout ${secs}s"
	{
		flock 9
		t0=$(date +%s)
		stress-ng --temp-path /tmp -v --fork 1 --mmap 1 --vm 1 --vm-bytes 64M --sock 1 --udp 1 --userfaultfd 1 \
			--timeout "${secs}s" --metrics-brief > $st/stress-ng.log 2>&1 9>&- &
		pid=$!
		# -v: the vm stressor prints "vm: using method" right after its
		# scan, and the parent scans before it starts any stressor
		for t in $(seq 240); do
			grep -q 'vm: using method' $st/stress-ng.log && break
			kill -0 $pid 2> /dev/null || break
			sleep 0.5
		done
		# how long CPU hotplug waited (stress_facts prints it)
		echo "$(($(date +%s) - t0)) s$(grep -q 'vm: using method' $st/stress-ng.log || echo ", without stress-ng's 'vm: using method' line: hotplug resumed at the limit or its end")" > $st/stressng.held
		flock -u 9
	} 9> $st/hotplug.lock
	wait $pid ||
		fail stressng "stress-ng exited $?: $(grep -v ' debug: ' $st/stress-ng.log | grep -E -i 'fail|error|terminated|signal' | head -n 3 | tr '\n' ' ') $(tail -n 1 $st/stress-ng.log)"
	round stressng
}

# s_hang (MMSCALE_INJECT=hang): a stressor that never finishes a round: it
# opens a FIFO that nobody writes, and waits in the kernel (fifo_open) past
# the stop; the report must fail and show where it waits
s_hang() {
	mkfifo $st/hang.fifo
	step hang "cat $st/hang.fifo (a FIFO nobody writes: INJECT=hang)"
	cat $st/hang.fifo > /dev/null
	round hang
}

STRESSORS="pf hackbench churn hotplug vmalloc dropcaches validate stressng"
case ,${MMSCALE_INJECT:-none}, in *,hang,*) STRESSORS+=" hang" ;; esac

# --- snapshots -------------------------------------------------------------
vmstat_get() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$2"; }
ptl=/sys/kernel/slab/page-\>ptl
# objects in use; shrink first: it also takes the cache's objects out of
# KASAN's quarantine, where freed ptlocks still count as in use
ptl_objects() {
	[ -r $ptl/objects ] || { echo 0; return; }
	echo 1 > $ptl/shrink 2> /dev/null
	awk '{ print $1 }' $ptl/objects
}

# inject_drain: a missed drain of the charge stock.  drain_all_stock() (6.12
# and the series) skips isolated CPUs, and make stress INJECT=drain boots
# with isolcpus=1: a task in the child memcg drain-victim charges on CPU 1
# (the stock of CPU 1 keeps the rest of the batch and a reference on the
# memcg), exits, and drain-victim is removed.  Its offline drain skips CPU
# 1, and nothing else runs there to evict the slot, so drain-victim stays
# dying: the nr_dying check must fail.  The same command runs once outside
# the memcgs first: otherwise the victim is the first to read `head` and
# its libraries, and that page cache (30 pages, measured) pins the memcg
# as well, which would hide whether the stock is the pin.
inject_drain() {
	local v=$cg/drain-victim cmd
	cmd='head -c 1000000 /dev/zero > /dev/shm/mmscale-drain && rm /dev/shm/mmscale-drain'
	echo "# INJECT=drain: a charge stocked on isolated CPU 1 for a memcg, then the memcg removed"
	grep -qx 1 /sys/devices/system/cpu/isolated ||
		{ echo "# INJECT=drain: CPU 1 is not isolated (/sys/devices/system/cpu/isolated: $(cat /sys/devices/system/cpu/isolated))"; return; }
	taskset -c 0 sh -c "$cmd"
	mkdir -p $v
	taskset -c 1 sh -c 'echo $$ > "$1/cgroup.procs" && '"$cmd" sh $v
	echo "# INJECT=drain: drain-victim charged: $(grep -E '^(file|kernel|shmem) ' $v/memory.stat | tr '\n' ' ')"
	rmdir $v
	echo "# INJECT=drain: drain-victim removed"
}

stress_run() {
	local s pids=() t0 left c cur ok_all kb v a b bound pid_stressng
	echo "TAP version 13"
	if [ ! -x "$sbin/page_fault" ] || ! command -v hackbench > /dev/null || ! command -v stress-ng > /dev/null; then
		echo "not ok 1 stress: page_fault ($sbin), hackbench or stress-ng missing"
		echo "1..1"
		return 1
	fi
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $cg && echo +memory > $cg/cgroup.subtree_control
	for s in 0 1 2 3; do mkdir -p $cg/persist$s; done
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan > /sys/kernel/debug/kmemleak
		echo clear > /sys/kernel/debug/kmemleak
	fi
	cp /proc/vmstat $st/vmstat.before
	ptl_before=$(ptl_objects)
	pt_before=$(vmstat_get nr_page_table_pages $st/vmstat.before)
	[ -r /proc/lock_stat ] && echo 0 > /proc/lock_stat

	echo "# $(nproc) CPUs online, $STRESSORS for $secs s"
	for s in $STRESSORS; do : > $st/$s.rounds; done
	# stress-ng starts first, alone: under the other stressors it took
	# 64-87 s to reach its vm stressor's scan, all of it with CPU hotplug
	# held (s_stressng); in a quiet guest it gets there sooner, and
	# hotplug then runs for the whole time.  The others start when
	# s_stressng lets hotplug go (stressng.held), 125 s at most.
	if [[ " $STRESSORS " == *" stressng "* ]]; then
		t0=$(date +%s)
		s_stressng &
		pid_stressng=$!
		while [ ! -e $st/stressng.held ] && kill -0 $pid_stressng 2> /dev/null &&
			[ $(($(date +%s) - t0)) -lt 125 ]; do
			sleep 0.5
		done
		echo "# stress-ng started alone: the others start $(($(date +%s) - t0)) s after it"
	fi
	for s in $STRESSORS; do
		if [ "$s" = stressng ]; then
			pids+=($pid_stressng)
			continue
		fi
		"s_$s" &
		pids+=($!)
	done
	sleep "$secs"
	touch $st/stop
	t0=$(date +%s)
	# every loop must end within 120 s of the stop (one round of each)
	for s in "${pids[@]}"; do
		while kill -0 "$s" 2> /dev/null && [ $(($(date +%s) - t0)) -lt 120 ]; do sleep 1; done
	done
	left=$(i=0; for s in $STRESSORS; do kill -0 "${pids[i]}" 2> /dev/null && echo "$s:${pids[i]}"; i=$((i + 1)); done)
	n=0
	for s in $STRESSORS; do
		n=$((n + 1))
		r=$(wc -l < $st/$s.rounds)
		e=$(cat $st/$s.err 2> /dev/null | wc -l)
		if [ "$r" -gt 0 ] && [ "$e" = 0 ]; then
			echo "ok $n stressor $s: $r rounds, no error"
		elif [ "$e" -gt 0 ]; then
			echo "not ok $n stressor $s: $r rounds, $e errors: $(head -n 3 $st/$s.err 2> /dev/null | tr '\n' ';')"
		else
			echo "not ok $n stressor $s: 0 rounds in $secs s, no error: no round finished; $(step_of $s)"
		fi
	done
	n=$((n + 1))
	if [ -z "$left" ]; then
		echo "ok $n every stressor stopped within 120 s ($(($(date +%s) - t0)) s)"
	else
		echo "not ok $n stressors still running 120 s after the stop: $(echo $left)"
		# where each one is: its step, its tasks and their kernel stacks
		for c in $left; do
			echo "# stuck stressor ${c%%:*} (pid ${c#*:}): $(step_of ${c%%:*})"
			bash "$labdir/stuck.sh" "${c#*:}"
		done
		for s in $left; do pkill -KILL -P "${s#*:}"; kill -KILL "${s#*:}"; done 2> /dev/null
	fi
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 > "$c" 2> /dev/null; done
	[ -s $st/hotplug.busy ] && echo "# hotplug: $(wc -l < $st/hotplug.busy) offline attempts refused (EBUSY), not counted as errors"

	case ,${MMSCALE_INJECT:-none}, in
	*,leak,*)
		echo "# INJECT=leak: 32 MiB of tmpfs charged to persist0"
		sh -c 'echo $$ > "$1/cgroup.procs" && head -c 33554432 /dev/zero > /dev/shm/mmscale-injected-leak' sh $cg/persist0 ;;
	esac
	case ,${MMSCALE_INJECT:-none}, in
	*,warn,*)
		echo "# INJECT=warn: a WARNING line in the kernel log"
		echo "WARNING: CPU: 0 PID: 1 at mmscale-injected-warning (make stress INJECT=warn)" > /dev/kmsg ;;
	esac

	case ,${MMSCALE_INJECT:-none}, in
	*,drain,*) inject_drain ;;
	esac

	# charges: every persistent child back to (almost) nothing
	for s in 0 1 2 3; do
		echo 1G > $cg/persist$s/memory.reclaim 2> /dev/null
		# a memory.high below the usage drains the CPUs' charge stocks
		# and reclaims (memory.max would also call the OOM killer, whose
		# report is a Call Trace in the log)
		echo 0 > $cg/persist$s/memory.high 2> /dev/null
		cur=$(cat $cg/persist$s/memory.current)
		echo max > $cg/persist$s/memory.high
		n=$((n + 1))
		if [ $((cur / 1024)) -le "$cg_bound_kb" ]; then
			echo "ok $n persist$s: memory.current $cur bytes after reclaim and drain (bound $cg_bound_kb KiB)"
		else
			echo "not ok $n persist$s: memory.current $cur bytes after reclaim and drain (bound $cg_bound_kb KiB)"
		fi
	done
	for s in 0 1 2 3; do rmdir $cg/persist$s; done
	# every removed cgroup of the guest (it makes none outside $cg)
	t0=$(date +%s)
	# page cache charged to a removed memcg keeps it dying until that
	# cache is reclaimed, as it should: drop it (3), so that what is left
	# is held by something reclaim cannot free (a stock slot, a css
	# reference)
	while [ "$(awk '$1 == "nr_dying_descendants" { print $2 }' /sys/fs/cgroup/cgroup.stat)" != 0 ] &&
		[ $(($(date +%s) - t0)) -lt 60 ]; do
		echo 3 > /proc/sys/vm/drop_caches
		sleep 1
	done
	n=$((n + 1))
	v=$(awk '$1 == "nr_dying_descendants" { print $2 }' /sys/fs/cgroup/cgroup.stat)
	[ "$v" = 0 ] && echo "ok $n nr_dying_descendants 0 within 60 s ($(($(date +%s) - t0)) s)" ||
		echo "not ok $n nr_dying_descendants $v after 60 s"
	case ,${MMSCALE_INJECT:-none}, in
	*,drain,*)
		# the control: a charge on CPU 1 by another memcg scans CPU 1's
		# stock, which evicts the dying memcg's slot (the series does
		# that on every scan), and the dying memcg goes away
		# (read before drain-control's own rmdir: its charge is then
		# the one left in CPU 1's stock)
		mkdir -p $cg/drain-control
		taskset -c 1 sh -c 'echo $$ > "$1/cgroup.procs" && head -c 1000000 /dev/zero > /dev/shm/mmscale-control && rm /dev/shm/mmscale-control' \
			sh $cg/drain-control
		echo 3 > /proc/sys/vm/drop_caches
		sleep 5
		echo "# INJECT=drain control: after a charge on CPU 1 by another memcg, nr_dying_descendants $v -> $(awk '$1 == "nr_dying_descendants" { print $2 }' /sys/fs/cgroup/cgroup.stat)"
		rmdir $cg/drain-control ;;
	esac
	# reparented kernel objects of the removed children (dentries of
	# their deleted files, ...) are reclaimable: reclaim before reading
	echo 2 > /proc/sys/vm/drop_caches
	echo 1G > $cg/memory.reclaim 2> /dev/null
	kb=$(awk '$1 == "kernel" { print int($2 / 1024) }' $cg/memory.stat)
	n=$((n + 1))
	[ "${kb:-0}" -le $((cg_bound_kb * 4)) ] &&
		echo "ok $n parent memory.stat kernel $kb KiB (bound 4 x $cg_bound_kb KiB)" ||
		echo "not ok $n parent memory.stat kernel $kb KiB (bound 4 x $cg_bound_kb KiB)"

	# the series' counters, deltas over the run
	cp /proc/vmstat $st/vmstat.after
	d() { echo $(($(vmstat_get "$1" $st/vmstat.after) - $(vmstat_get "$1" $st/vmstat.before))); }
	if grep -q '^vmalloc_tlb_flush ' /proc/vmstat; then
		a=$(d vmalloc_tlb_flush)
		b=$(($(d vmalloc_purge_threshold) + $(d vmalloc_purge_alloc_fail) + $(d vmalloc_purge_explicit)))
		n=$((n + 1))
		# one flush at most per counted purge; +1: a purge counted before
		# the first snapshot may flush after it
		[ "$a" -le $((b + 1)) ] && echo "ok $n vmalloc: $a TLB flushes <= $b purges + 1" ||
			echo "not ok $n vmalloc: $a TLB flushes > $b purges + 1"
		a=$(d vmalloc_purged_areas) b=$(d vmalloc_purged_pages)
		n=$((n + 1))
		[ "$a" -le "$b" ] && echo "ok $n vmalloc: $a purged areas <= $b purged pages" ||
			echo "not ok $n vmalloc: $a purged areas > $b purged pages"
		echo "# vmalloc deltas: $(for k in purge_threshold purge_alloc_fail purge_explicit purged_areas purged_pages tlb_flush pool_hit pool_decay; do printf '%s=%s ' $k "$(d vmalloc_$k)"; done)"
	fi
	if grep -q '^memcg_stock_uncharge ' /proc/vmstat; then
		v=$(zcat /proc/config.gz | sed -n 's/^CONFIG_MEMCG_NR_STOCK=//p')
		a=$(d memcg_stock_uncharge) b=$(d memcg_charge_hierarchical)
		bound=$((b + ${v:-1} * $(nproc --all)))
		n=$((n + 1))
		# each stock uncharge returns a batch one hierarchical charge put
		# there; slots filled before the run (NR_STOCK per CPU) may drain in it
		[ "$a" -le "$bound" ] && echo "ok $n memcg: $a stock uncharges <= $b hierarchical charges + ${v:-1} x $(nproc --all) slots" ||
			echo "not ok $n memcg: $a stock uncharges > $b hierarchical charges + ${v:-1} x $(nproc --all) slots"
		echo "# memcg deltas: $(for k in stock_hit stock_miss stock_evict stock_uncharge charge_hierarchical; do printf '%s=%s ' $k "$(d memcg_$k)"; done)"
	fi
	# the 7.3 line's stock events (CONFIG_MEMCG_STOCK_STATS) have no
	# counter of hierarchical charges to check them against: shown only
	if grep -q '^memcg_stock_overflow ' /proc/vmstat; then
		echo "# memcg stock deltas: $(for k in memcg_stock_hit memcg_stock_miss memcg_stock_evict memcg_stock_overflow memcg_stock_direct obj_stock_hit obj_stock_miss obj_stock_evict; do printf '%s=%s ' $k "$(d $k)"; done)"
	fi
	if [ -r $ptl/objects ]; then
		a=$(ptl_objects)
		b=$(vmstat_get nr_page_table_pages $st/vmstat.after)
		v=$(( $(cat $ptl/objs_per_slab) * $(nproc --all) ))
		n=$((n + 1))
		# one ptlock per PTE or PMD table; "objects" counts the free
		# objects of CPU slabs as used: at most objs_per_slab per CPU
		if [ $((a - ptl_before)) -le $((b - pt_before > 0 ? b - pt_before + v : v)) ]; then
			echo "ok $n page->ptl: $ptl_before -> $a objects, page tables $pt_before -> $b (slack $v)"
		else
			echo "not ok $n page->ptl: $ptl_before -> $a objects, page tables $pt_before -> $b (slack $v)"
		fi
	fi

	# kmemleak: leaks in the series' code fail, the rest are listed
	n=$((n + 1))
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan > /sys/kernel/debug/kmemleak
		sleep 5
		echo scan > /sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak > $st/kmemleak
		a=$(grep -c '^unreferenced object' $st/kmemleak)
		b=$(awk '/^unreferenced object/ { if (hit) n++; hit = 0 }
			/ptlock|memcg_stock|stock_|refill_stock|drain_stock|vmap_area|purge_vmap|vmap_lazy|__slab_free|slab_free_lock/ { hit = 1 }
			END { if (hit) n++; print n + 0 }' $st/kmemleak)
		[ "$b" = 0 ] && echo "ok $n kmemleak: 0 leaks in the series' code paths ($a suspected in all)" ||
			echo "not ok $n kmemleak: $b leaks in the series' code paths ($a suspected in all)"
		grep -A12 '^unreferenced object' $st/kmemleak | head -n 60 | sed 's/^/# /'
	else
		echo "ok $n kmemleak # SKIP no /sys/kernel/debug/kmemleak (CONFIG_DEBUG_KMEMLEAK off)"
	fi
	[ -x "$sbin/slabinfo" ] && "$sbin/slabinfo" -r 'page->ptl' 2>&1 | head -n 30 | sed 's/^/# /'
	echo "1..$n"
}

# facts after the section: contention that only parallel vCPUs give
stress_facts() {
	local f c files
	if [ -r /proc/lock_stat ]; then
		grep -E ':' /proc/lock_stat | grep -E 'list_lock|lazy\.lock|vmap_purge_lock|stock_lock|ptl' |
			awk '{ print "mmscale: fact lock_stat " $0 }' | head -n 12
	fi
	# the caches with slab_debug take the debug free path, not
	# __slab_free's: count the others
	if ls /sys/kernel/slab/*/free_locked_redo > /dev/null 2>&1; then
		# one awk for every file (a process per file took 2 minutes)
		files=()
		for c in /sys/kernel/slab/*; do
			[ -L "$c" ] || [ ! -r "$c/free_locked_redo" ] || [ ! -r "$c/free_list_lock" ] ||
				[ ! -r "$c/free_slowpath" ] && continue
			files+=("$c/free_list_lock" "$c/free_locked_redo" "$c/free_slowpath")
		done
		awk 'FNR == 1 { n = split(FILENAME, p, "/"); v[p[n - 1], p[n]] = $1; c[p[n - 1]] = 1 }
			END { for (k in c) print k, v[k, "free_list_lock"] + 0, v[k, "free_locked_redo"] + 0, v[k, "free_slowpath"] + 0 }' \
			"${files[@]}" > $st/slubstats
		awk '{ l += $2; r += $3; s += $4; n++ } END {
			printf "mmscale: fact SLUB_STATS %d caches: free_slowpath %d, free_list_lock %d, free_locked_redo %d\n", n, s, l, r }' $st/slubstats
		sort -k3,3nr -k2,2nr $st/slubstats | head -n 5 |
			awk '{ printf "mmscale: fact SLUB_STATS %s: free_list_lock %d free_locked_redo %d free_slowpath %d\n", $1, $2, $3, $4 }'
	fi
	echo "mmscale: fact stress-ng start: CPU hotplug held for $(cat $st/stressng.held 2> /dev/null || echo '(not recorded)')"
	echo "mmscale: fact stressors: $(for s in $STRESSORS; do printf '%s=%s ' $s "$(wc -l < $st/$s.rounds)"; done)"
	# every finished vmalloc round: the threshold it ran at and how long
	echo "mmscale: fact vmalloc rounds (threshold KiB:seconds, 0 auto): $(tr '\n' ' ' < $st/vmalloc.times 2> /dev/null)"
}

section stress stress_run
stress_facts
