#!/usr/bin/env bash
# lab/ab.sh - A/B benchmark: boot a base and a head kernel interleaved and compare.
#
# Usage: lab/ab.sh BASE_BZIMAGE HEAD_BZIMAGE
#   RUNS=N         boots per side (default 3), interleaved A B A B ...
#   BENCH=LIST     workloads for bench/guest-bench.sh (default: page_fault3
#                  threads and processes at 1 and 2 tasks)
#   SECONDS_PER=N  samples per workload after 1 s warm-up (default 5)
#   OUT=DIR        where the console logs go (default build/ab/<time>)
# What it does: builds bench/*.c on the host into OUT/bin (the guest runs
# them over the 9p root), boots each kernel RUNS times with lab/boot.sh and
# the bench/guest-bench.sh plan, then prints lab/compare.py's table.  Under
# TCG the numbers are emulation timings and are labelled so.
# What it needs: gcc, qemu (lab/deps.sh).  Writes OUT/.
set -euo pipefail
source "$(dirname "$0")/common.sh"
[ $# = 2 ] || { echo "usage: $0 BASE_BZIMAGE HEAD_BZIMAGE" >&2; exit 2; }
base=$(realpath "$1") head=$(realpath "$2")
RUNS=${RUNS:-3}
BENCH=${BENCH:-page_fault:3:threads:1,page_fault:3:threads:2,page_fault:3:processes:1,page_fault:3:processes:2}
OUT=$(realpath -m "${OUT:-$BUILD/ab/$(date +%Y%m%d-%H%M%S)}")
mkdir -p "$OUT/bin"
stage ab "$OUT/ab.log"
gcc -O2 -Wall -pthread -o "$OUT/bin/page_fault" "$TOP/bench/page_fault.c" >> "$STAGE_LOG" 2>&1 ||
	die "building bench/page_fault.c failed"
base_logs=() head_logs=()
for ((i = 1; i <= RUNS; i++)); do
	for side in base head; do
		k=$base
		[ $side = head ] && k=$head
		say "run $i/$RUNS: $side"
		"$LAB_DIR/boot.sh" -k "$k" -l "$OUT/$side-$i.log" -p "$TOP/bench/guest-bench.sh" -t 1200 -s 0 \
			-- MMSCALE_BENCH="$BENCH" MMSCALE_BENCH_BIN="$OUT/bin" MMSCALE_BENCH_SECONDS="${SECONDS_PER:-5}" ||
			die "boot of $side run $i failed"
		# probe KVM once, then keep what the first boot used
		[ -n "${ACCEL:-}" ] || export ACCEL=$(grep -q -- '-accel kvm' "$OUT/$side-$i.log" && echo kvm || echo tcg)
		if [ $side = base ]; then base_logs+=("$OUT/$side-$i.log"); else head_logs+=("$OUT/$side-$i.log"); fi
	done
done
accel=$(grep -q -- '-accel kvm' "$OUT/base-1.log" && echo "KVM" || echo "QEMU TCG (emulated: not a performance figure)")
"$LAB_DIR/compare.py" --base "${base_logs[@]}" --head "${head_logs[@]}" \
	--where "$accel, 2 vCPUs on 2 nodes; command: RUNS=$RUNS BENCH=$BENCH lab/ab.sh $1 $2" | tee "$OUT/compare.txt"
