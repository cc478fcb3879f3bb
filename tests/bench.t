#!/usr/bin/env bash
# tests/bench.t - make bench's front end and bench/workloads.sh on this host:
# bad settings are refused before anything is built, and a short workload
# run prints the metric, ops and counter lines lab/compare.py reads.
# Needs: gcc, root (workloads.sh reads /proc/vmstat; cgroup items need v2).
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

BENCH=nonsense "$TOP/lab/bench.sh" > "$tmp/o1" 2>&1
check "BENCH=unknown: exit 1" test $? -eq 1
check "BENCH=unknown: names the known workloads" has "$tmp/o1" "unknown workload 'nonsense' \(known: page_fault1"
RUNS=0 "$TOP/lab/bench.sh" > "$tmp/o2" 2>&1
check "RUNS=0 is refused" has "$tmp/o2" "RUNS must be a whole number from 1 to 100, not '0'"
CONFIG=nope "$TOP/lab/bench.sh" > "$tmp/o3" 2>&1
check "CONFIG=unknown is refused" has "$tmp/o3" 'CONFIG=nope: no configs/nope.config'

gcc -O2 -Wall -pthread -o "$tmp/page_fault" "$TOP/bench/page_fault.c" &&
	gcc -O2 -Wall -pthread -o "$tmp/shm_pread" "$TOP/bench/shm_pread.c" &&
	gcc -O2 -Wall -o "$tmp/sigqueue" "$TOP/bench/sigqueue.c"
check "bench/*.c build with -Wall" test $? -eq 0
"$tmp/page_fault" -m sideways > "$tmp/o4" 2>&1
check "page_fault: bad mode is a usage error" test $? -eq 2
"$tmp/sigqueue" -n 0 > "$tmp/o5" 2>&1
check "sigqueue: 0 signals is a usage error" test $? -eq 2
check "sigqueue: the error names the range" has "$tmp/o5" "SIGNALS must be 1\.\.1048576, not '0'"
MMSCALE_BENCH=page_fault1:threads:1,shm-pread-seq-mt:1,sigqueue:64:3,bogus:1 MMSCALE_BENCH_BIN=$tmp \
	MMSCALE_BENCH_SECONDS=1 MMSCALE_BENCH_TMP=/dev/shm MMSCALE_KPROBES=no_such_function_xyz \
	timeout 60 "$TOP/bench/workloads.sh" > "$tmp/w" 2> /dev/null
check "workloads.sh: exit 0" test $? -eq 0
check "page_fault1: LKP key" has "$tmp/w" '^mmscale: metric page_fault1-threads@tasks=1 will-it-scale\.1\.threads [0-9]+$'
check "page_fault1: per-thread key" has "$tmp/w" '^mmscale: metric page_fault1-threads@tasks=1 will-it-scale\.per_thread_ops [0-9]+$'
check "page_fault1: operation count" has "$tmp/w" '^mmscale: ops page_fault1-threads@tasks=1 [1-9][0-9]*$'
check "page_fault1: vm event deltas" has "$tmp/w" '^mmscale: counter page_fault1-threads@tasks=1 proc-vmstat\.pgfault [1-9][0-9]*$'
check "shm-pread-seq-mt: KB/s" has "$tmp/w" '^mmscale: metric shm-pread-seq-mt@threads=1 vm-scalability\.throughput [1-9][0-9]*$'
check "sigqueue: one op per signal freed" has "$tmp/w" '^mmscale: ops sigqueue@signals=64 192$'
check "an unknown item is an error line" has "$tmp/w" '^mmscale: error bogus:1 unknown workload$'
check "a kprobe that cannot be counted is said, not hidden" has "$tmp/w" 'kprobe no_such_function_xyz: no such|no tracefs kprobe_events'
check "end marker" has "$tmp/w" '^mmscale: bench done$'
done_testing
