#!/usr/bin/env bash
# lab/stages/ab.sh - stage "ab": boot a base and a head kernel interleaved, run the
# benchmark workloads in each boot, save the results and print the tables.
#
# Usage: lab/stages/ab.sh BASE HEAD
#        SIDES="NAME=KERNEL[@APPEND] ..." lab/stages/ab.sh
#   BASE, HEAD     a kernel build directory (build/<name>: its bzImage and
#                  modroot are used) or a bzImage file (no modules: the
#                  vmalloc workload then reports an error)
#   SIDES=...      instead of BASE and HEAD: two or more sides, each a name
#                  (lower case letters and digits), a kernel as above and
#                  optional kernel command line after '@' (commas stand for
#                  spaces), booted round robin in that order, RUNS rounds;
#                  the report is then one table of every side (lab/py/compare.py
#                  matrix) instead of the A/B tables (make bench MATRIX=stock)
#   MATRIX_PAIRS=A:B,...  with SIDES: the pairs the table compares
#   MATRIX_AA=A:B  with SIDES: two sides that boot the same kernel, whose
#                  spread is each cell's noise floor (compare.py matrix --aa)
#   REPORT=slubfree  with SIDES (one side or more): the slub topic's table
#                  of __slab_free() counters (lab/py/compare.py slubfree)
#                  instead (make bench MATRIX=slub)
#   RUNS=N         boots per side (default 3), interleaved A B A B ...
#   BENCH=LIST     workload list for bench/workloads.sh (default: page_fault3
#                  threads and processes at 1 and 2 tasks)
#   SECONDS_PER=N  samples per sampled workload after 1 s warm-up (default 5)
#   OUT=DIR        result directory (default: a new build/results/<time>,
#                  or <time>-2 ... when it exists); one that already holds
#                  results is refused
#   BOOT_TIMEOUT=S per boot (default 1500)
#   VCPUS=N        guest vCPUs (default 2, on 2 NUMA nodes; 1: one node)
#   ACCEL=mttcg    multi-threaded TCG: the vCPUs really run at the same time
#                  (make bench PARALLEL=1).  The guests then boot with
#                  pci=noacpi (QEMU's _PRT AML loop can time out when the
#                  host is loaded: make stress found it), and a boot that
#                  stops before userspace with the known MTTCG oops (int3 in
#                  sched_clock_cpu) is retried once, and the retry reported.
#   META=JSON      extra facts for results.json (lab/stages/bench.sh passes the
#                  kernel versions and configs)
#   PROBE_LINE=FILE:NAME:TEXT  also count, as kprobe.NAME, the locked
#                  instructions that the line of FILE containing TEXT became
#                  in each side's kernel, inlined or not (bench/probe-sites.sh;
#                  each side a build directory, probed at its own offsets),
#                  e.g. memcg_rstat_updated()'s add to the shared count:
#                  PROBE_LINE='mm/memcontrol.c:rstat_add:atomic_long_add(stats_updates'
#   BASE_APPEND=.. HEAD_APPEND=..  extra kernel command line for one side,
#                  e.g. one image compared with a boot parameter off and on:
#                  BASE_APPEND=slab_free_lock_first=off lab/stages/ab.sh K K
# What it does: builds bench/programs/*/*.c on the host into OUT/bin (the
# guest runs them over the 9p root), writes the settings to OUT/bench.env, boots each
# kernel RUNS times with bench/guest-bench.sh as the plan, then has
# lab/py/compare.py collect every console log into OUT/results.json (failed or
# incomplete boots are recorded, never dropped) and print the LKP tables
# into OUT/compare.txt.  Under TCG the tables say the times are emulated.
# Every setting and BENCH item is checked before anything is written
# (lab/lib/common.sh); a failed boot or workload makes it exit 1, naming the
# item and its console log, after the tables (every run stays in
# results.json).
# What it needs: gcc, qemu (lab/stages/deps.sh).  Writes OUT/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
[ $# = 2 ] || { [ $# = 0 ] && [ -n "${SIDES:-}" ]; } ||
	{ echo "usage: $0 BASE HEAD, or SIDES=\"NAME=KERNEL[@APPEND] ...\" $0 (kernels: build directories or bzImages)" >&2; exit 2; }
STAGE=ab
RUNS=${RUNS:-3}
BENCH=${BENCH:-page_fault3:threads:1,page_fault3:threads:2,page_fault3:processes:1,page_fault3:processes:2}
want_ab_settings
want_bench_items BENCH "$BENCH"
[ -z "${REPORT:-}" ] || [ "$REPORT" = slubfree ] || die "REPORT=$REPORT: the only other report is slubfree"
[ -z "${REPORT:-}" ] || [ $# = 0 ] || die "REPORT=slubfree goes with SIDES, not with BASE and HEAD"
want_new_out
VCPUS=${VCPUS:-2}
nodes=2 where="$VCPUS vCPUs on 2 nodes"
[ "$VCPUS" = 1 ] && nodes=1 where="1 vCPU"

# kernel_args DIR|BZIMAGE: the boot.sh options for that kernel
kernel_args() {
	if [ -d "$1" ]; then
		[ -f "$1/arch/x86/boot/bzImage" ] || die "$1 has no arch/x86/boot/bzImage"
		echo "-k $(realpath "$1/arch/x86/boot/bzImage")"
		[ -d "$1/modroot/lib/modules" ] && echo "-M $(realpath "$1/modroot")"
	elif [ -f "$1" ]; then
		echo "-k $(realpath "$1")"
	else
		die "no kernel at $1"
	fi
	return 0
}
# the sides: names, boot.sh options and extra command line, in boot order
names=() kargs=() appends=()
if [ $# = 2 ]; then
	names=(base head)
	kargs=("$(kernel_args "$1")" "$(kernel_args "$2")")
	appends=("${BASE_APPEND:-}" "${HEAD_APPEND:-}")
else
	for spec in $SIDES; do
		name=${spec%%=*} rest=${spec#*=} append=
		[[ $spec == *=* && $name =~ ^[a-z][a-z0-9]*$ ]] ||
			die "SIDES: '$spec' is not NAME=KERNEL[@APPEND] (NAME: lower case letters and digits)"
		[[ " ${names[*]} " != *" $name "* ]] || die "SIDES: side '$name' is named twice"
		[[ $rest == *@* ]] && append=${rest#*@} rest=${rest%%@*}
		names+=("$name") kargs+=("$(kernel_args "$rest")") appends+=("${append//,/ }")
	done
	[ ${#names[@]} -ge 2 ] || [ "${REPORT:-}" = slubfree ] ||
		die "SIDES: name two sides or more, not '$SIDES'"
fi
# PROBE_LINE: each side's own probe sites, found before anything is written
sites=()
declare -A sites_of=()
if [ -n "${PROBE_LINE:-}" ]; then
	IFS=: read -r pl_file pl_name pl_text <<< "$PROBE_LINE"
	[ -n "$pl_text" ] || die "PROBE_LINE must be FILE:NAME:TEXT, not '$PROBE_LINE'"
	for s in "${!names[@]}"; do
		k=${kargs[$s]#-k } k=${k%%$'\n'*}
		dir=$(dirname "$(dirname "$(dirname "$(dirname "$k")")")")
		[ -f "$dir/System.map" ] ||
			die "PROBE_LINE: side ${names[$s]}'s kernel is not a build directory (no System.map by $k)"
		if [ -n "${sites_of[$dir]:-}" ]; then
			sites[s]=${sites_of[$dir]}
		else
			pl_log=$(mktemp)
			sites[s]=$("$TOP/bench/probe-sites.sh" "$dir" "$pl_file" "$pl_text" "$pl_name" 2>"$pl_log" | tr '\n' ' ') ||
				die "PROBE_LINE on side ${names[$s]}: $(tail -n 1 "$pl_log"; rm -f "$pl_log")"
			rm -f "$pl_log"
			sites_of[$dir]=${sites[s]}
		fi
		say "PROBE_LINE: side ${names[$s]}: ${sites[s]}"
	done
fi
mttcg=
if [ "${ACCEL:-}" = mttcg ]; then
	mttcg=1
	where="$where under multi-threaded TCG (vCPUs run at once on $(nproc) host CPUs)"
fi

if [ -n "${OUT:-}" ]; then
	OUT=$(realpath -m "$OUT")
	mkdir -p "$OUT" || die "could not make OUT=$OUT"
else
	OUT=$(new_dir "$BUILD/results/$(date +%Y%m%d-%H%M%S)") || die "could not make a results folder under $BUILD/results"
fi
mkdir -p "$OUT/bin"
stage ab "$OUT/ab.log"

build_workloads "$OUT/bin" >> "$STAGE_LOG" 2>&1 || die "building bench/programs/*/*.c failed"
cat > "$OUT/bench.env" <<EOF
MMSCALE_BENCH=$BENCH
MMSCALE_BENCH_BIN=$OUT/bin
MMSCALE_BENCH_SECONDS=${SECONDS_PER:-5}
EOF
# the optional settings, quoted for the guest's shell (lists have spaces)
optional=(MMSCALE_SLABS MMSCALE_SLAB_STATS MMSCALE_SLAB_TOTAL MMSCALE_KPROBES MMSCALE_HACKBENCH_LOOPS MMSCALE_VMALLOC_LOOPS)
for v in "${optional[@]}"; do
	[ -z "${!v:-}" ] || printf '%s=%q\n' "$v" "${!v}"
done >> "$OUT/bench.env"
# a side with probe sites gets its own copy, with them
envs_of=()
for s in "${!names[@]}"; do
	envs_of[s]=$OUT/bench.env
	[ -n "${sites[s]:-}" ] || continue
	envs_of[s]=$OUT/bench-${names[$s]}.env
	{ cat "$OUT/bench.env"; printf 'MMSCALE_KPROBE_SITES=%q\n' "${sites[s]% }"; } > "${envs_of[s]}"
done

# boot_side ARGS APPEND LOG ENV: one boot; 0 done, 2 stopped before
# userspace with the known multi-threaded TCG oops, 1 else
boot_side() {
	local append=$2
	# shellcheck disable=SC2086 # args are "-k FILE [-M DIR]", no spaces
	"$LAB_DIR/stages/boot.sh" $1 -l "$3" -p "$TOP/bench/guest-bench.sh" \
		-t "${BOOT_TIMEOUT:-1500}" -s 0 -c "$VCPUS" -n $nodes ${mttcg:+-u 600} ${append:+-a "$append"} \
		-- MMSCALE_BENCH_ENV="$4" \
		2> >(tee -a "$STAGE_LOG" | grep --line-buffered -E 'mmscale: (info all running|error)' |
			sed -u 's/^/    /' >&2) && return 0
	[ -n "$mttcg" ] && mttcg_known_oops "$3" && return 2
	return 1
}
runs=() retries=0
for ((i = 1; i <= RUNS; i++)); do
	for s in "${!names[@]}"; do
		side=${names[$s]}
		say "run $i/$RUNS: $side ($BENCH)"
		log=$OUT/$side-$i.log
		rc=0
		boot_side "${kargs[$s]}" "${appends[$s]}" "$log" "${envs_of[s]}" || rc=$?
		if [ $rc = 2 ]; then
			retries=$((retries + 1))
			mv "$log" "$OUT/$side-$i.oops.log"
			say "RETRY: run $i/$RUNS: $side stopped before userspace with the known multi-threaded TCG oops (int3 in sched_clock_cpu; $OUT/$side-$i.oops.log); booting once more"
			rc=0
			boot_side "${kargs[$s]}" "${appends[$s]}" "$log" "${envs_of[s]}" || rc=$?
		fi
		if [ $rc = 0 ]; then
			runs+=("$side:$i:$log:")
		else
			say "run $i/$RUNS: $side FAILED (kept in the report; log: $log)"
			runs+=("$side:$i:$log:boot failed or timed out (lab/stages/boot.sh)")
		fi
		# probe KVM once, then keep what the first boot used
		[ -n "${ACCEL:-}" ] || export ACCEL=$(json_fields "${log%.log}.boot.json" accel || echo tcg)
	done
done
[ -z "$mttcg" ] || say "multi-threaded TCG: $retries boot(s) retried after the known pre-userspace oops"
# the settings that made this run, for the report's command line
envs=
[ "$VCPUS" = 2 ] || envs+="VCPUS=$VCPUS "
for v in "${optional[@]}"; do
	[ -n "${!v:-}" ] && envs+="$v=\"${!v}\" "
done
[ -n "${PROBE_LINE:-}" ] && envs+="PROBE_LINE='$PROBE_LINE' "
[ "${ACCEL:-}" = mttcg ] && envs+="ACCEL=mttcg "
accel=$(json_fields "$OUT/${names[0]}-1.boot.json" accel || echo tcg)
[ -n "$mttcg" ] && accel=mttcg
if [ $# = 2 ]; then
	how="${BASE_APPEND:+BASE_APPEND=\"$BASE_APPEND\" }${HEAD_APPEND:+HEAD_APPEND=\"$HEAD_APPEND\" }RUNS=$RUNS BENCH=$BENCH lab/stages/ab.sh $1 $2"
else
	how="SIDES=\"$SIDES\" RUNS=$RUNS BENCH=$BENCH lab/stages/ab.sh"
fi
meta=${META:-{\}}
[ -z "$mttcg" ] || meta=$(python3 -c 'import json, sys; m = json.loads(sys.argv[1]); m["all.retries"] = sys.argv[2]; print(json.dumps(m))' \
	"$meta" "$retries boot(s) retried after the known multi-threaded TCG pre-userspace oops")
"$LAB_DIR/py/compare.py" collect --out "$OUT/results.json" --accel "$accel" \
	--command "${BENCH_COMMAND:-$envs$how}" \
	--meta "$meta" --where "QEMU ($accel), $where, 3 GiB" "${runs[@]}" ||
	die "collecting the results failed"
# (a report with no table goes on too: the failed runs are named below)
if [ $# = 2 ]; then
	"$LAB_DIR/py/compare.py" report "$OUT" --plots "$OUT" | tee "$OUT/compare.txt" || true
elif [ -n "${REPORT:-}" ]; then
	"$LAB_DIR/py/compare.py" slubfree "$OUT" | tee "$OUT/compare.txt" || true
else
	"$LAB_DIR/py/compare.py" matrix "$OUT" ${MATRIX_PAIRS:+--pairs "$MATRIX_PAIRS"} ${MATRIX_AA:+--aa "$MATRIX_AA"} | tee "$OUT/compare.txt" || true
fi
say "results: $OUT/results.json, table: $OUT/compare.txt"
die_on_failed_runs "$OUT/results.json"
