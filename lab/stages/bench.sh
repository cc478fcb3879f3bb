#!/usr/bin/env bash
# lab/stages/bench.sh - "make bench": LKP-style A/B benchmark of the line's
# base (its pristine kernel, series not applied) against head (series
# applied, its options on).
#
# Usage: lab/stages/bench.sh        (make bench)
#        lab/stages/bench.sh --list (every workload: item form, summary,
#                                    field bounds; from bench/programs/)
#        lab/stages/bench.sh --sides (the kernels the settings boot: the
#                                    job file's side lines)
#   BENCH=NAMES    workloads, comma separated, by name (the folders of
#                  bench/programs/; picked from the matrix of the run,
#                  else the whole one), or explicit items (anything with
#                  a ':'; each workload's meta gives its fields)
#   RUNS=N         boots per side, interleaved A B A B (default 3)
#   FULL=1         the whole matrix instead of the default set (the
#                  items of each are bench/jobs/default and full)
#   CONFIG=NAMES   extra config fragments for both sides (e.g. rt)
#   HOST=1         run the workloads on the running kernel instead (root,
#                  bare metal); compare two such runs with make compare.
#                  The items are then sized from the machine's CPUs and
#                  memory (host_matrix in lab/lib/common.sh: tasks at 100% and
#                  more of the CPUs) and the hackbench and test_vmalloc
#                  loops from a timed probe (loops=auto); the sizes are in
#                  the report, and a run too short to measure, or with
#                  fewer tasks than CPUs, says so there.  With MATRIX=memcg
#                  or slub, the matrix's items on the running kernel,
#                  scaled to its CPUs (memcg: iperf3 pairs also at 32,
#                  64, ... up to the CPU count); the run records whether the kernel has the
#                  series' options (host.side: head, base or another)
#   SECONDS_PER=N  samples per sampled workload (default 5)
#   MATRIX=stock   issue 16's memcg stock matrix instead of base against
#                  head, five sides (bench/jobs/stock's side lines) in one
#                  interleaved run (lab/stages/ab.sh SIDES, round robin):
#                  base (6.12); the series at N = 7
#                  (configs/6.12/stock7.config, upstream's size) with
#                  memcg_stock_evict=random (rand7), roundrobin (rr7,
#                  upstream's 2026 rule) and clock (clock7); at N = 16 with
#                  clock (clock16).  Default items: iperf3-cgroup at K = 1 2
#                  4 6 8 12 16 (64 MiB a pair) and memcg-madvise-fault at 1,
#                  4 and 32 (BENCH picks others).  The report (lab/py/compare.py
#                  matrix) has one table per key, a column per side, and the
#                  changes rr7>clock7, rand7>clock7, rr7>clock16, base>clock7
#   MATRIX=memcg   the 7.3 line's memcg matrix (issues 28, 43), five sides
#                  (bench/jobs/memcg's side lines) in one interleaved run,
#                  one per design in the tree:
#                  base (7.3.4, vm bench), ceiling64 and again (the
#                  series, vm mmscale bench with configs/7.3/noabsorb:
#                  CONFIG_MEMCG_STOCK_ABSORB and CONFIG_MEMCG_STOCK_FOLIOS
#                  off, so 7.3.4's stock, the vm events on; the same kernel
#                  twice, the A/A pair whose spread is each cell's noise
#                  floor), budget (configs/7.3/nofolios: the budget of 7.3
#                  memcg 3/8 alone) and folio (make bench's head: both
#                  options on).  A change is marked with RUNS=5 or more
#                  only (lab/py/compare.py matrix --aa).
#                  Items:
#                  iperf3-cgroup at K = 1 2 4 8 16 (64 MiB a pair), mixed,
#                  pair and split; memcg-madvise-fault at 1, 4 and 32 with
#                  THP always and never; hackbench-cgroup process pipe and
#                  socket at K = 4; shmem-cgroup at K = 4.  The report
#                  (lab/py/compare.py matrix) adds
#                  kprobe.page_counter_try_charge+uncharge, every
#                  hierarchical charge and uncharge, and a table per
#                  caller of each (kprobe.FN.by.CALLER, bench/workloads.sh)
#   MATRIX=slub    the 7.3 slub report's measurement: one kernel, the
#                  line's base with only bench/slub-free-counters.diff
#                  (the __slab_free() counters), vm + bench + stats + lockstat
#                  (configs/lockstat.config: /proc/lock_stat), booted RUNS
#                  times (default 1), with the __slab_free() counters
#                  summed over every cache; the report (lab/py/compare.py
#                  slubfree) gives per 1M frees the calls of __slab_free()
#                  by caller, its list_lock acquisitions by outcome and
#                  lock_stat's &n->list_lock.  Default items: hackbench
#                  process and thread, pipe and socket, 2 groups, and in
#                  2 memory cgroups (process); xnode-free (node 0's
#                  objects freed on node 1); stress-ng udp and rawudp;
#                  test_vmalloc fix_size
#   PARALLEL=1     multi-threaded TCG (ACCEL=mttcg) and 4 vCPUs (VCPUS
#                  changes it) on 2 NUMA nodes: the vCPUs run at the same
#                  time on the host's cores, so lock contention can happen
#                  (single-threaded TCG runs one vCPU at a time).  Times are
#                  still emulated; the counters are the evidence
#   BOOT_TIMEOUT, ACCEL, VCPUS, OUT, BASE_APPEND, HEAD_APPEND: see lab/stages/ab.sh
# lab/stages/bench.sh --plan prints the items the settings select, and nothing more.
# Every setting and every item is checked before anything is built or
# booted (bounds: bench/programs/*/meta, read by bench/lib.sh): a value it does not
# know is refused, HOST and FULL take 0 or 1 only.
# Default set (about 1 minute per boot under TCG here, 6 boots): page_fault1
# processes x2, page_fault2 and page_fault3 threads x2, shm-pread-seq-mt x2,
# memcg-parallel-fault K=1,2, hackbench process/pipe 2 groups,
# hackbench-cgroup process/pipe K=1,2, test_vmalloc fix_size at lazy-purge
# thresholds of 4, 256 and 4096 KiB and auto (a small sweep, with its PNG;
# base has no knob and runs auto only).
# What it does: deps, source and tree stages as make run; builds
# build/base/bench-base[-CONFIG] from build/base/linux (a checkout of the
# pristine source) and build/bench-head[-CONFIG] from build/linux, with
# configs/vm + bench (+ mmscale on head), reusing
# earlier builds; then lab/stages/ab.sh boots them interleaved and prints the
# tables; results go to a new folder build/results/<time>/ (<time>-2 ...
# when it exists; results.json, console logs, compare.txt, the kernels'
# .config, sweep PNGs).  A failed boot or workload fails the target, naming
# the item and its log; every run stays in results.json.
# What it needs: what make run needs.  Writes build/bench-*/, build/results/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
stage bench

want_bool HOST FULL FORCE PARALLEL
want_choice MATRIX stock slub memcg
# the matrices are the line's own (line.env): refused before any stage
[ -z "${MATRIX:-}" ] || [[ " $LINE_MATRICES " == *" $MATRIX "* ]] ||
	die "MATRIX=$MATRIX is not a matrix of the $LINE_TITLE line (its matrices: $LINE_MATRICES)"
if [ "${PARALLEL:-0}" = 1 ]; then
	[ -z "${ACCEL:-}" ] || [ "$ACCEL" = mttcg ] || die "PARALLEL=1 is ACCEL=mttcg; it cannot run with ACCEL=$ACCEL"
	export ACCEL=mttcg VCPUS=${VCPUS:-4}
fi
[ -z "${MATRIX:-}" ] || [ "${HOST:-0}" = 0 ] || [ "$MATRIX" != stock ] ||
	die "MATRIX=stock compares 6.12 kernels of several slot counts under QEMU; it cannot run with HOST=1 (on a real machine: MATRIX=memcg or slub)"
[ -z "${MATRIX:-}" ] || [ "${FULL:-0}" = 0 ] || die "MATRIX=$MATRIX has its own items; give BENCH instead of FULL=1"
want_ab_settings
want_new_out
want_linux_src
extra=()
CONFIG=${CONFIG:-}
[ -z "$CONFIG" ] || want_fragments "CONFIG=$CONFIG" "$CONFIG"
for c in ${CONFIG//,/ }; do extra+=("$c"); done
suffix=${extra[*]:+-$(kernel_name "${extra[@]}")}

# every workload folder of bench/programs/ reads (make bench's items and
# their bounds come from them)
want_programs
[ "${1:-}" != --list ] || { bench_list; exit 0; }
# the lazy-purge threshold sweep (KiB; auto = the kernel's formula; the
# base kernel has no knob and runs auto only)
SWEEP_POINTS=${VMALLOC_SWEEP:-4 256 1024 4096 16384 32768 auto 4xauto}
for p in $SWEEP_POINTS; do
	why=$(vmalloc_point_error "$p")
	[ -z "$why" ] || die "VMALLOC_SWEEP: $why"
done
# the matrices are the job files of bench/jobs/: default, full (FULL=1),
# and one per MATRIX
want_job full sweep="$SWEEP_POINTS"
full=("${JOB_ITEMS[@]}")
job=${MATRIX:-$([ "${FULL:-0}" = 1 ] && echo full || echo default)}
want_job "$job" sweep="$SWEEP_POINTS"
matrix=("${JOB_ITEMS[@]}")
# the kernels it boots: the job file's side lines, else base and head
want_sides "$job"
if [ "${1:-}" = --sides ]; then
	for s in "${SIDE_NAMES[@]}"; do
		echo "side $s ${BUILD#"$TOP/"}/${SIDE_FOLDER[$s]}$suffix ${SIDE_TREE[$s]} ${SIDE_FRAGS[$s]}${extra[*]:+ ${extra[*]}}${SIDE_ARGS[$s]:+ @${SIDE_ARGS[$s]}}"
	done
	[ ${#SIDE_NAMES[@]} -gt 0 ] || echo "side base ${BUILD#"$TOP/"}/base/bench-base$suffix base vm bench${extra[*]:+ ${extra[*]}}
side head ${BUILD#"$TOP/"}/bench-head$suffix head vm mmscale bench${extra[*]:+ ${extra[*]}}"
	echo "pairs ${JOB_PAIRS:-base:head}${JOB_AA:+
aa $JOB_AA}"
	exit 0
fi
if [ "${HOST:-0}" = 1 ]; then
	# on the machine itself: sized from its CPUs and memory (host_matrix in
	# lab/lib/common.sh), the loop counts sized at run time
	host_cpus=$(nproc)
	host_mem=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
	if [ -z "${MATRIX:-}" ]; then
		mapfile -t matrix < <(SWEEP_POINTS=$SWEEP_POINTS host_matrix "$host_cpus" "${FULL:-0}" "${host_mem:-0}")
	else
		# the matrix's items, scaled to the machine as host_matrix sizes
		# them, never below the matrix's own sizes: hackbench groups of 20
		# tasks for 100% and 800% of the CPUs, a cgroup a group; the tmpfs
		# writers and the madvise loop a cgroup a CPU; stress-ng 10000
		# operations a CPU; and iperf3 pairs up to the CPU count
		scaled=()
		g1=$(((host_cpus + 19) / 20)) g8=$(((host_cpus * 8 + 19) / 20))
		for item in "${matrix[@]}"; do
			IFS=: read -r -a f <<< "$item"
			case ${f[0]} in
			hackbench)
				for g in "$g1" "$g8"; do
					scaled+=("${f[0]}:${f[1]}:${f[2]}:$((g > f[3] ? g : f[3]))")
				done ;;
			hackbench-cgroup) scaled+=("${f[0]}:${f[1]}:${f[2]}:$((g1 > f[3] ? g1 : f[3]))") ;;
			shmem-cgroup) scaled+=("${f[0]}:$((host_cpus > f[1] ? host_cpus : f[1]))") ;;
			memcg-madvise-fault)
				scaled+=("$item")
				[ "${f[1]}" != 32 ] || [ "$host_cpus" -le 32 ] || scaled+=("${f[0]}:$host_cpus:${f[2]}") ;;
			stress-ng) scaled+=("${f[0]}:${f[1]}:$((host_cpus * 10000 > f[2] ? host_cpus * 10000 : f[2]))") ;;
			*) scaled+=("$item") ;;
			esac
		done
		mapfile -t matrix < <(printf '%s\n' "${scaled[@]}" | awk '!seen[$0]++')
		if [ "$MATRIX" = memcg ]; then
			for ((k = 32; k <= host_cpus && k <= 1024; k *= 2)); do matrix+=("iperf3-cgroup:$k:64:mixed"); done
		fi
	fi
	: "${MMSCALE_HACKBENCH_LOOPS:=auto}" "${MMSCALE_VMALLOC_LOOPS:=auto}"
	export MMSCALE_HACKBENCH_LOOPS MMSCALE_VMALLOC_LOOPS
fi
if [ -n "${BENCH:-}" ]; then
	no_empty_items BENCH "$BENCH"
	if [[ $BENCH == *:* ]]; then
		IFS=, read -r -a matrix <<< "$BENCH"
	else
		# a workload name: its items in the matrix of this run, else in the
		# whole matrix (FULL=1; HOST=1 FULL=1 on the machine itself), else
		# the name alone when it takes no parameter
		if [ "${HOST:-0}" = 1 ]; then
			mapfile -t whole < <(SWEEP_POINTS=$SWEEP_POINTS host_matrix "$host_cpus" 1 "${host_mem:-0}")
		else
			whole=("${full[@]}")
		fi
		known=${PROGRAM_NAMES[*]}
		pick=()
		for name in ${BENCH//,/ }; do
			n=0
			for item in "${matrix[@]}"; do
				[ "${item%%:*}" = "$name" ] && { pick+=("$item"); n=$((n + 1)); }
			done
			if [ $n = 0 ]; then
				for item in "${whole[@]}"; do
					[ "${item%%:*}" = "$name" ] && { pick+=("$item"); n=$((n + 1)); }
				done
			fi
			if [ $n = 0 ] && [ -z "$(bench_item_error "$name")" ]; then
				pick+=("$name")
				n=1
			fi
			if [ $n = 0 ]; then
				[[ " $known " == *" $name "* ]] &&
					die "workload '$name' is in no matrix: give it with its parameters ($(bench_item_error "$name"))"
				die "unknown workload '$name' (known: $known)"
			fi
		done
		matrix=("${pick[@]}")
	fi
fi
plan=$(IFS=,; echo "${matrix[*]}")
want_bench_items BENCH "$plan"
# --plan: print the items this run would measure, and stop
[ "${1:-}" != --plan ] || { echo "$plan"; exit 0; }
RUNS=${RUNS:-$([ "${MATRIX:-}" = slub ] && echo 1 || echo 3)}
cmd="make bench${MATRIX:+ MATRIX=$MATRIX}${PARALLEL:+ PARALLEL=$PARALLEL}${BENCH:+ BENCH=$BENCH}${FULL:+ FULL=$FULL}${CONFIG:+ CONFIG=$CONFIG}${HOST:+ HOST=$HOST} RUNS=$RUNS"
[ "${VCPUS:-2}" = 2 ] || cmd+=" VCPUS=$VCPUS"
stamp=$(date +%Y%m%d-%H%M%S)
# out_dir [SUFFIX]: the results folder: OUT when it is given (made if
# missing), else a new build/results/<time><SUFFIX>
out_dir() {
	if [ -n "${OUT:-}" ]; then
		mkdir -p "$OUT" || die "could not make OUT=$OUT"
	else
		OUT=$(new_dir "$BUILD/results/$stamp${1:-}") || die "could not make a results folder under $BUILD/results"
	fi
}

# host_side: which kernel is running: make deb's base or head package (its
# release ends -mmscale-base or -mmscale, lab/stages/deb.sh), or another kernel;
# and how many of the series' options (LINE_OPTIONS) its configuration
# (/proc/config.gz, else /boot/config-RELEASE) sets
host_side() {
	local cfg n=0 o have=() r side
	r=$(uname -r)
	case $r in
	*-mmscale-base) side="base (make deb's base package)" ;;
	*-mmscale) side="head (make deb's head package)" ;;
	*) side="another kernel" ;;
	esac
	cfg=$( { zcat /proc/config.gz || cat "/boot/config-$r"; } 2> /dev/null)
	[ -n "$cfg" ] || { echo "$side, $r: no /proc/config.gz or /boot/config-$r"; return; }
	for o in $LINE_OPTIONS; do
		n=$((n + 1))
		grep -q "^CONFIG_$o=y" <<< "$cfg" && have+=("$o")
	done
	echo "$side, $r: ${#have[@]} of the $BASE series' $n options${have[*]:+ (${have[*]})}"
}

if [ "${HOST:-0}" = 1 ]; then
	[ "$(id -u)" = 0 ] || die "HOST=1 runs the workloads on this kernel and needs root (cgroups, tracefs, modprobe)"
	out_dir "-host"
	sizing="$host_cpus CPUs, $host_mem MiB available: tasks at 100% (and 200%, 800%) of the CPUs, capped by memory; hackbench loops ${MMSCALE_HACKBENCH_LOOPS}, test_vmalloc loops ${MMSCALE_VMALLOC_LOOPS} (auto: sized for ${SECONDS_PER:-5} s a run)"
	say "sized for this machine: $sizing"
	say "items: $plan"
	mkdir -p "$OUT/bin"
	build_workloads "$OUT/bin" || die "building bench/programs/*/*.c failed"
	runs=()
	for ((i = 1; i <= RUNS; i++)); do
		say "host run $i/$RUNS on $(uname -r): $plan"
		if MMSCALE_BENCH=$plan MMSCALE_BENCH_BIN=$OUT/bin MMSCALE_BENCH_TMP=${MMSCALE_BENCH_TMP:-/dev/shm} \
			MMSCALE_BENCH_SECONDS=${SECONDS_PER:-5} "$TOP/bench/workloads.sh" > "$OUT/host-$i.log"; then
			runs+=("host:$i:$OUT/host-$i.log:")
		else
			runs+=("host:$i:$OUT/host-$i.log:bench/workloads.sh exited with an error")
		fi
	done
	side=$(host_side)
	say "the running kernel: $side"
	meta=$(printf '{"host.kernel": "%s", "host.side": "%s", "host.cpus": "%s", "host.cpu": "%s", "host.sizing": "%s"}' "$(uname -srv)" "$side" "$(nproc)" \
		"$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" "$sizing")
	"$LAB_DIR/py/compare.py" collect --out "$OUT/results.json" --accel host --command "$cmd" \
		--where "the running kernel, no QEMU: $(nproc) CPUs" --meta "$meta" "${runs[@]}" || die "collecting the results failed"
	say "saved $OUT/results.json; compare two such runs with: make compare A=<base dir> B=<head dir>"
	die_on_failed_runs "$OUT/results.json"
	exit 0
fi

"$LAB_DIR/stages/deps.sh"
"$LAB_DIR/stages/source.sh"
"$LAB_DIR/stages/tree.sh"
if [ "${MATRIX:-}" = slub ]; then
	# the base with the __slab_free() counting probe alone (the 7.3 slub
	# report's, bench/slub-free-counters.diff): a hard-linked copy of the
	# pristine source (as lab/stages/objdiff.sh makes), each file the probe
	# touches copied before it is changed
	p=$TOP/bench/slub-free-counters.diff
	grep -q free_call_remote "$p" 2> /dev/null ||
		die "MATRIX=slub needs bench/slub-free-counters.diff (the __slab_free() counters of the 7.3 slub report)"
	src=$BUILD/slub-counters/$(basename "$TREE")
	rev="$(git -C "$SRC_DIR" rev-parse HEAD) $(sha1sum < "$p" | cut -d' ' -f1)"
	if [ "$(cat "$BUILD/slub-counters/src.rev" 2> /dev/null)" != "$rev" ]; then
		say "source: $SRC_DIR with ${p#"$TOP/"} alone, at $src"
		rm -rf "$BUILD/slub-counters"
		mkdir -p "$BUILD/slub-counters"
		cp -al "$SRC_DIR" "$src" || die "cannot copy $SRC_DIR to $src"
		while read -r t; do
			[ -f "$src/$t" ] || continue
			cp -p "$src/$t" "$src/$t.copy" && mv -f "$src/$t.copy" "$src/$t" || die "cannot copy $t in $src"
		done < <(git apply --numstat "$p" | cut -f3)
		(cd "$src" && git apply "$p") || { rm -rf "$BUILD/slub-counters"; die "${p#"$TOP/"} does not apply to $SRC_DIR"; }
		echo "$rev" > "$BUILD/slub-counters/src.rev"
	fi
	kdir=$BUILD/bench-slub-counters$suffix
	KSRC=$src NAME=bench-slub-counters$suffix SKIP_SELFTESTS=1 "$LAB_DIR/stages/build.sh" vm bench stats lockstat "${extra[@]}"
	out_dir "-slub"
	cp "$kdir/.config" "$OUT/counters.config"
	meta=$(printf '{"counters.kernel": "Linux %s + %s alone, vm bench stats lockstat%s (counters.config)", "all.host": "%s CPUs, %s"}' \
		"$(kernel_version "$SRC_DIR")" "$(basename "$p")" "${extra[*]:+ ${extra[*]}}" \
		"$(nproc)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)")
	SIDES="counters=$kdir" REPORT=slubfree MMSCALE_SLABS=all MMSCALE_SLAB_STATS=free7 MMSCALE_SLAB_TOTAL=1 \
		OUT=$OUT RUNS=$RUNS BENCH=$plan META=$meta BENCH_COMMAND=$cmd "$LAB_DIR/stages/ab.sh"
	exit
fi
if [ "${MATRIX:-}" = memcg ]; then
	grep -q '^config MEMCG_STOCK_ABSORB$' "$TREE/init/Kconfig" ||
		die "MATRIX=memcg measures CONFIG_MEMCG_STOCK_ABSORB (the 7.3 line's memcg topic); $TREE has no such option"
elif [ "${MATRIX:-}" = stock ]; then
	grep -q '^config MEMCG_NR_STOCK$' "$TREE/init/Kconfig" ||
		die "MATRIX=stock measures CONFIG_MEMCG_NR_STOCK (the 6.12 line's memcg topic); $TREE has no such option (on 7.3: MATRIX=memcg)"
fi
base_tree=$(base_tree_ready) || exit 1
if [ ${#SIDE_NAMES[@]} -gt 0 ]; then
	# the matrix's sides (its job file's side lines): each build folder
	# built once, each side's config kept in the results folder, every
	# side booted RUNS times, interleaved (lab/stages/ab.sh SIDES=)
	declare -A built=()
	sides= facts=
	for s in "${SIDE_NAMES[@]}"; do
		f=${SIDE_FOLDER[$s]}$suffix
		if [ -z "${built[$f]:-}" ]; then
			if [ "${SIDE_TREE[$s]}" = base ]; then
				KSRC=$base_tree NAME=$f SKIP_SELFTESTS=1 "$LAB_DIR/stages/build.sh" ${SIDE_FRAGS[$s]} "${extra[@]}"
			else
				NAME=$f SKIP_SELFTESTS=1 "$LAB_DIR/stages/build.sh" ${SIDE_FRAGS[$s]} "${extra[@]}"
			fi
			built[$f]=1
		fi
		sides+="${sides:+ }$s=$BUILD/$f${SIDE_ARGS[$s]:+@${SIDE_ARGS[$s]}}"
		facts+="${facts:+; }$s: ${SIDE_TREE[$s]}, ${SIDE_FRAGS[$s]}${extra[*]:+ ${extra[*]}}${SIDE_ARGS[$s]:+, booted with ${SIDE_ARGS[$s]}} ($s.config)"
	done
	out_dir "-$job"
	for s in "${SIDE_NAMES[@]}"; do
		cp "$BUILD/${SIDE_FOLDER[$s]}$suffix/.config" "$OUT/$s.config"
	done
	meta=$(printf '{"base.kernel": "Linux %s, series not applied", "head.kernel": "Linux %s + %s patches, tree %s", "sides": "%s", "all.host": "%s CPUs, %s"}' \
		"$(kernel_version "$SRC_DIR")" "$(kernel_version "$TREE")" \
		"$(git -C "$TREE" rev-list --count "$BASE_TAG..HEAD")" "$(git -C "$TREE" rev-parse --short=12 HEAD)" \
		"$facts" "$(nproc)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)")
	SIDES=$sides MATRIX_PAIRS=$JOB_PAIRS MATRIX_AA=$JOB_AA \
		OUT=$OUT RUNS=$RUNS BENCH=$plan META=$meta BENCH_COMMAND=$cmd "$LAB_DIR/stages/ab.sh"
	exit
fi
KSRC=$base_tree NAME=base/bench-base$suffix SKIP_SELFTESTS=1 "$LAB_DIR/stages/build.sh" vm bench "${extra[@]}"
# mmscale before bench: bench.config turns SLUB_STATS (which mmscale.config
# wants for its tests) off again, so both sides count the same way
NAME=bench-head$suffix SKIP_SELFTESTS=1 "$LAB_DIR/stages/build.sh" vm mmscale bench "${extra[@]}"

out_dir
cp "$BUILD/base/bench-base$suffix/.config" "$OUT/base.config"
cp "$BUILD/bench-head$suffix/.config" "$OUT/head.config"
series=$(git -C "$TREE" rev-list --count "$BASE_TAG..HEAD")
meta=$(printf '{"base.kernel": "Linux %s (%s), series not applied", "base.config": "%s (base.config)", "head.kernel": "Linux %s + %s patches of patches/ (all topics), tree %s", "head.config": "%s (head.config)", "all.host": "%s CPUs, %s"}' \
	"$(kernel_version "$SRC_DIR")" "$(cat "$BUILD/src.origin" 2>/dev/null || echo "?")" \
	"vm bench${extra[*]:+ ${extra[*]}}" "$(kernel_version "$TREE")" "$series" \
	"$(git -C "$TREE" rev-parse --short=12 HEAD)" "vm mmscale bench${extra[*]:+ ${extra[*]}}" \
	"$(nproc)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)")
OUT=$OUT RUNS=$RUNS BENCH=$plan META=$meta BENCH_COMMAND=$cmd \
	"$LAB_DIR/stages/ab.sh" "$BUILD/base/bench-base$suffix" "$BUILD/bench-head$suffix"
