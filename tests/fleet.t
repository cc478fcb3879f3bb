#!/usr/bin/env bash
# tests/fleet.t - lab/py/compare.py report on the results of other harnesses
# (lab/py/mmlab/fleet.py): an LKP result folder and an mmtests log folder of two
# kernels (tests/data/lkp/, tests/data/mmtests/, hand-written in their
# formats), with known answers: workload names, means, %stddev, %change,
# the kernel releases, failed iterations; and bad input refused.
# Needs: python3, make.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmp=$TOP/lab/py/compare.py
lkp=$TOP/tests/data/lkp
mm=$TOP/tests/data/mmtests
detect() { PYTHONPATH=$TOP/lab/py python3 -c 'import sys; from mmlab import fleet; print(fleet.detect(sys.argv[1]))' "$1"; }

check "detect: an LKP result folder" test "$(detect "$lkp/base")" = lkp
check "detect: one LKP result root" test "$(detect "$(find "$lkp/base/hackbench" -name 0)")" = lkp
check "detect: an mmtests log folder" test "$(detect "$mm/base")" = mmtests
check "detect: a folder of neither" test "$(detect "$TOP/tests/data/bench")" = None

# LKP: will-it-scale per_thread_ops 990000 1000000 1010000 (mean 1000000,
# 1%) vs 1188000 1200000 1212000; hackbench throughput 200000 210000 (3.4%)
# vs 180000 189000; iperf sender 39e9 41e9 (3.5%) vs 43e9 45e9
"$cmp" report "$lkp/base" "$lkp/head" > "$tmp/lkp.out" 2>&1
check "LKP: exit 0" test $? -eq 0
out=$tmp/lkp.out
check "LKP: a run per result root" has "$out" '^# LKP-style A/B: 7 base runs \(0 failed\), 7 head runs \(0 failed\)$'
check "LKP: the kernel releases of job.yaml's kernel" \
	bash -c "grep -q '^# base: .*kernel 7\.3\.4-mmscale-base; LKP (lkp-tests) on mmscale-box: 8 CPUs, Intel' '$out' &&
		grep -q '^# head: .*kernel 7\.3\.4-mmscale; ' '$out'"
check "LKP: workload names" bash -c "grep -qx 'will-it-scale-thread-page_fault2@nr_task=100%' '$out' &&
	grep -qx 'hackbench-pipe-process@nr_threads=100%' '$out' && grep -qx 'iperf-tcp' '$out'"
check "LKP: will-it-scale row" has "$out" '^ +1000000 +\+20\.0%\* +1200000 +will-it-scale\.per_thread_ops$'
check "LKP: hackbench row" has "$out" '^ +205000 ±  3% +-10\.0%\* +184500 ±  3%  hackbench\.throughput$'
check "LKP: iperf row" has "$out" '^ +40000000000 ±  4% +\+10\.0%\* +44000000000 ±  3%  iperf\.tcp\.sender\.bps$'
check "LKP: only the testcase's stats are metrics, no counters per operation" \
	bash -c "! grep -qE 'time\.elapsed_time|proc-vmstat|stats_source' '$out'"
# one job's runs: the folder of a commit, its runs 0 1 2 below
"$cmp" report "$(dirname "$(find "$lkp/base/will-it-scale" -name 0)")" \
	"$(dirname "$(find "$lkp/head/will-it-scale" -name 0)")" > "$tmp/job.out" 2>&1
check "LKP: one job's folder of runs" bash -c "grep -q '^# LKP-style A/B: 3 base runs' '$tmp/job.out' &&
	grep -qE '^ +1000000 +\+20\.0%\* +1200000 +will-it-scale\.per_thread_ops$' '$tmp/job.out'"
# an A/A floor from a second folder of base's kernel: 2% (990000-1010000)
cp -r "$lkp/base" "$tmp/aa"
"$cmp" report "$lkp/base" "$lkp/head" --aa "$tmp/aa" > "$tmp/aa.out" 2>&1
check "LKP: AA= another LKP folder of A's kernel gives the floor" \
	has "$tmp/aa.out" '^ +1000000 +\+20\.0%\* +1200000 +2%  will-it-scale\.per_thread_ops$'
(cd "$TOP" && BUILD=$tmp/build make -s compare A="$lkp/base" B="$lkp/head") > "$tmp/make.out" 2>&1
check "make compare A=<LKP folder> B=<LKP folder>" has "$tmp/make.out" 'will-it-scale\.per_thread_ops$'

# mmtests, two iterations a kernel, a run each (the mean of its samples):
# hackbench 0.41 0.40 vs 0.37 0.36 s; will-it-scale 1000000 1020000 vs
# 1101000 1121000 ops; iperf3 sender 40 42 vs 45 47 Gbit/s
"$cmp" report "$mm/base" "$mm/head" > "$tmp/mm.out" 2>&1
check "mmtests: exit 0" test $? -eq 0
out=$tmp/mm.out
check "mmtests: a run per iteration" has "$out" '^# LKP-style A/B: 2 base runs \(0 failed\), 2 head runs \(0 failed\)$'
check "mmtests: the kernel releases of kernel.version" \
	bash -c "grep -q '^# base: .*kernel 7\.3\.4-mmscale-base; mmtests on mmscale-box: 8 CPUs, Intel' '$out' &&
		grep -q '^# head: .*kernel 7\.3\.4-mmscale; ' '$out'"
check "mmtests: workload names" bash -c "grep -qx 'hackbench-process-pipes@groups=4' '$out' &&
	grep -qx 'wis-pf-page_fault2-threads@tasks=4' '$out' && grep -qx 'iperf3-ipv4-tcp-l8920-b0@streams=1' '$out'"
check "mmtests: hackbench row" has "$out" '^ +0\.405 +-9\.9%\* +0\.365 +hackbench\.time_s$'
check "mmtests: will-it-scale row" has "$out" '^ +1010000 +\+10\.0%\* +1111000 +will-it-scale\.ops$'
check "mmtests: iperf3 row (the client's summary, not the server's)" \
	has "$out" '^ +41\.0 ±  3% +\+12\.2%\* +46\.0 ±  3%  iperf3\.sender\.Gbit_per_s$'
# one iteration: a run per sample (hackbench 0.40 0.41 0.42 vs 0.36 0.37 0.38)
mkdir "$tmp/one"
cp -r "$mm/base" "$mm/head" "$tmp/one/"
rm -r "$tmp/one/base/iter-1" "$tmp/one/head/iter-1"
"$cmp" report "$tmp/one/base" "$tmp/one/head" > "$tmp/one.out" 2>&1
check "mmtests, one iteration: a run per sample" has "$tmp/one.out" '^# LKP-style A/B: 3 base runs \(0 failed\), 3 head runs'
check "mmtests, one iteration: the samples' mean and spread" \
	has "$tmp/one.out" '^ +0\.41 ±  2% +-9\.8%\* +0\.37 ±  3%  hackbench\.time_s$'
# an iteration cut short, and a test that ended with an error
cp -r "$mm/base" "$tmp/cut"
sed -i '/Iteration 2 end/d' "$tmp/cut/iter-1/tests-activity"
sed -i 's/\(test end :: wis-pf [0-9]*\) 0$/\1 1/' "$tmp/cut/iter-0/tests-activity"
"$cmp" report "$tmp/cut" "$mm/head" > "$tmp/cut.out" 2>&1
check "mmtests: an iteration without its end is a failed run" \
	has "$tmp/cut.out" '^  host run 2 \(cut/iter-1\): incomplete: no "run-mmtests: Iteration N end" in iter-1/tests-activity$'
check "mmtests: a test's exit code is its workloads' error" \
	has "$tmp/cut.out" '^  host run 1 \(cut/iter-0\): wis-pf-page_fault2-threads@tasks=4: mmtests test wis-pf ended with exit code 1'
"$cmp" check "$tmp/cut" > "$tmp/check.out" 2>&1
check "compare.py check finds the iteration's folder" has "$tmp/check.out" "host run 2 failed: incomplete: .*\(log: $tmp/cut/iter-1\)$"

# bad input: one ERROR line, exit 2
"$cmp" report "$TOP/tests/data/bench" "$lkp/head" > "$tmp/bad.out" 2>&1
check "a folder of neither format: exit 2" test $? -eq 2
check "... one line that says what is read" refused "$tmp/bad.out" \
	'^ERROR: .*tests/data/bench is not a results folder .*nor an LKP result folder .* or an mmtests log folder'
cp -r "$lkp/base" "$tmp/nostats"
rm "$(find "$tmp/nostats/hackbench" -name stats.json | sort | head -n1)"
"$cmp" report "$tmp/nostats" "$lkp/head" > "$tmp/nostats.out" 2>&1
check "LKP: a run without stats.json: exit 2" test $? -eq 2
check "... naming the file" refused "$tmp/nostats.out" "^ERROR: $tmp/nostats/hackbench/.*/0/stats\.json: cannot read it: No such file"
cp -r "$lkp/base" "$tmp/garbled"
f=$(find "$tmp/garbled/iperf" -name stats.json | sort | tail -n1)
head -c 40 "$f" > "$tmp/cut.json" && mv "$tmp/cut.json" "$f"
"$cmp" report "$tmp/garbled" "$lkp/head" > "$tmp/garbled.out" 2>&1
check "LKP: a garbled stats.json is refused, naming it" refused "$tmp/garbled.out" "^ERROR: $f is not valid JSON"
cp -r "$lkp/base" "$tmp/word"
f=$(find "$tmp/word/hackbench" -name stats.json | sort | head -n1)
sed -i 's/"hackbench.throughput": [0-9]*/"hackbench.throughput": "fast"/' "$f"
"$cmp" report "$tmp/word" "$lkp/head" > "$tmp/word.out" 2>&1
check "LKP: a metric that is no number is refused" refused "$tmp/word.out" "^ERROR: $f: \"hackbench\.throughput\" is not a number"
cp -r "$mm/base" "$tmp/mmword"
sed -i '0,/Total time: 0.400/s//Total time: 0.4OO/' "$tmp/mmword/iter-0/hackbench-process-pipes/logs/hackbench-4"
"$cmp" report "$tmp/mmword" "$mm/head" > "$tmp/mmword.out" 2>&1
check "mmtests: a sample that is no number is refused, naming file and line" \
	refused "$tmp/mmword.out" "^ERROR: $tmp/mmword/iter-0/hackbench-process-pipes/logs/hackbench-4: line 5 is not a number: '0\.4OO'"
done_testing
