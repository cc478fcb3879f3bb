#!/usr/bin/env bash
# tests/bench.t - make bench's front end and bench/workloads.sh on this host:
# bad settings are refused before anything is built, and a short workload
# run prints the metric, ops and counter lines lab/py/compare.py reads.
# Needs: gcc, root (workloads.sh reads /proc/vmstat; cgroup items need v2).
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

BENCH=nonsense "$TOP/lab/stages/bench.sh" > "$tmp/o1" 2>&1
check "BENCH=unknown: exit 1" test $? -eq 1
check "BENCH=unknown: names the known workloads" has "$tmp/o1" "unknown workload 'nonsense' \(known: .*page_fault1 page_fault2 page_fault3 "
RUNS=0 "$TOP/lab/stages/bench.sh" > "$tmp/o2" 2>&1
check "RUNS=0 is refused" has "$tmp/o2" "RUNS must be a whole number from 1 to 100, not '0'"
CONFIG=nope "$TOP/lab/stages/bench.sh" > "$tmp/o3" 2>&1
check "CONFIG=unknown is refused" has "$tmp/o3" 'CONFIG=nope: no configs/nope.config'
MATRIX=memcgs "$TOP/lab/stages/bench.sh" > "$tmp/o6" 2>&1
check "MATRIX=unknown is refused" has "$tmp/o6" "MATRIX must be 'stock', 'slub' or 'memcg', not 'memcgs'"
# make bench MATRIX=memcg: issue 28's items, iperf3 in three placements
MATRIX=memcg "$TOP/lab/stages/bench.sh" --plan > "$tmp/o17" 2>&1
check "MATRIX=memcg: iperf3 K = 1..16 mixed, pair, split; madvise with and without THP; hackbench-cgroup; shmem-cgroup" \
	has "$tmp/o17" '^iperf3-cgroup:1:64:mixed,.*iperf3-cgroup:16:64:mixed,iperf3-cgroup:1:64:pair,.*iperf3-cgroup:16:64:split,memcg-madvise-fault:1:thp,memcg-madvise-fault:4:thp,memcg-madvise-fault:32:thp,memcg-madvise-fault:1:nothp,.*hackbench-cgroup:process:socket:4,shmem-cgroup:4$'
check "bench items: iperf3-cgroup's placement, madvise's THP and shmem-cgroup's MIB are checked" bash -c "source '$TOP/lab/lib/common.sh'; [ \"\$(bench_item_error iperf3-cgroup:4:64:ring)\" = \"PLACE must be mixed, pair or split, not 'ring'\" ] && [ \"\$(bench_item_error memcg-madvise-fault:4:huge)\" = \"THP must be thp or nothp, not 'huge'\" ] && [ \"\$(bench_item_error iperf3-cgroup:4:64:pair:x)\" = 'want iperf3-cgroup:K[:MIB[:mixed|pair|split]]' ] && [ -z \"\$(bench_item_error iperf3-cgroup:4:64:split)\" ] && [ -z \"\$(bench_item_error memcg-madvise-fault:32:nothp)\" ] && [ \"\$(bench_item_error shmem-cgroup:4:0)\" = \"MIB must be 1..65536, not '0'\" ] && [ -z \"\$(bench_item_error shmem-cgroup:4:16)\" ]"
BASE=6.12 MATRIX=stock HOST=1 "$TOP/lab/stages/bench.sh" > "$tmp/o7" 2>&1
check "MATRIX=stock with HOST=1 is refused" has "$tmp/o7" 'MATRIX=stock compares 6.12 kernels of several slot counts under QEMU; it cannot run with HOST=1'
MATRIX=memcg HOST=1 "$TOP/lab/stages/bench.sh" --plan > "$tmp/o22" 2>&1
check "MATRIX=memcg HOST=1: the matrix's items on the running kernel" has "$tmp/o22" '^iperf3-cgroup:1:64:mixed,.*,shmem-cgroup:4$'
# sized from the machine (nproc honours OMP_NUM_THREADS: a 64-CPU machine)
OMP_NUM_THREADS=64 MATRIX=slub HOST=1 "$TOP/lab/stages/bench.sh" --plan > "$tmp/o23" 2>&1
check "MATRIX=slub HOST=1 on 64 CPUs: hackbench at 100% and 800% of the CPUs, stress-ng ops a CPU" \
	has "$tmp/o23" '^hackbench:process:pipe:4,hackbench:process:pipe:26,.*,stress-ng:udp:640000,'
OMP_NUM_THREADS=64 MATRIX=memcg HOST=1 "$TOP/lab/stages/bench.sh" --plan > "$tmp/o24" 2>&1
check "MATRIX=memcg HOST=1 on 64 CPUs: a cgroup a CPU, iperf3 pairs up to the CPUs" \
	has "$tmp/o24" 'memcg-madvise-fault:64:nothp,.*shmem-cgroup:64,iperf3-cgroup:32:64:mixed,iperf3-cgroup:64:64:mixed$'
PARALLEL=1 ACCEL=tcg "$TOP/lab/stages/bench.sh" > "$tmp/o8" 2>&1
check "PARALLEL=1 with another accelerator is refused" has "$tmp/o8" 'PARALLEL=1 is ACCEL=mttcg; it cannot run with ACCEL=tcg'
PARALLEL=2 "$TOP/lab/stages/bench.sh" > "$tmp/o9" 2>&1
check "PARALLEL=2 is refused" test $? -eq 1
ACCEL=fast "$TOP/lab/stages/ab.sh" k k > "$tmp/o10" 2>&1
check "ab.sh: ACCEL takes mttcg too" has "$tmp/o10" "ACCEL must be 'auto', 'kvm', 'tcg' or 'mttcg', not 'fast'"
SIDES="base=/bin/true Head=/x" "$TOP/lab/stages/ab.sh" > "$tmp/o11" 2>&1
check "ab.sh: a side name with capitals is refused" has "$tmp/o11" "SIDES: 'Head=/x' is not NAME=KERNEL\[@APPEND\]"
SIDES="one=/bin/true" "$TOP/lab/stages/ab.sh" > "$tmp/o12" 2>&1
check "ab.sh: SIDES needs two sides" has "$tmp/o12" 'SIDES: name two sides or more'
SIDES="one=/bin/true" REPORT=matrix "$TOP/lab/stages/ab.sh" > "$tmp/o13" 2>&1
check "ab.sh: an unknown REPORT is refused" has "$tmp/o13" 'REPORT=matrix: the only other report is slubfree'
check "bench items: memcg-nested-fault's DEPTH is 2..8" bash -c "source '$TOP/lab/lib/common.sh'; [ \"\$(bench_item_error memcg-nested-fault:1)\" = \"DEPTH (levels below the root) must be 2..8, not '1'\" ] && [ -z \"\$(bench_item_error memcg-nested-fault:3)\" ]"
# PROBE_LINE (issue 43 item 5): refused in one line before anything is built
PROBE_LINE=mm/memcontrol.c:x "$TOP/lab/stages/ab.sh" /bin/true /bin/true > "$tmp/o18" 2>&1
check "ab.sh: PROBE_LINE without TEXT is refused" has "$tmp/o18" "PROBE_LINE must be FILE:NAME:TEXT, not 'mm/memcontrol.c:x'"
PROBE_LINE=mm/memcontrol.c:x:y "$TOP/lab/stages/ab.sh" /bin/true /bin/true > "$tmp/o19" 2>&1
check "ab.sh: PROBE_LINE on a side that is no build directory is refused" has "$tmp/o19" "PROBE_LINE: side base's kernel is not a build directory"
"$TOP/bench/probe-sites.sh" "$tmp" mm/memcontrol.c x Bad > "$tmp/o20" 2>&1
check "probe-sites.sh: a NAME that is no identifier is refused" has "$tmp/o20" "NAME must be a C identifier in lower case, not 'Bad'"
"$TOP/bench/probe-sites.sh" "$tmp" mm/memcontrol.c x ok > "$tmp/o21" 2>&1
check "probe-sites.sh: a folder that is no built kernel is refused" has "$tmp/o21" "is $tmp a built kernel tree, and mm/memcontrol.c built into it"
# make bench MATRIX=slub: its items, and only on a line with the counters
BASE=7.3 MATRIX=slub "$TOP/lab/stages/bench.sh" --plan > "$tmp/o14" 2>&1
check "MATRIX=slub: hackbench, cross-node frees, stress-ng udp and rawudp, test_vmalloc" \
	has "$tmp/o14" '^hackbench:process:pipe:2,.*hackbench-cgroup:process:socket:2,xnode-free:4096:8,stress-ng:udp:20000,stress-ng:rawudp:20000,vmalloc:fix_size:auto$'
check "bench items: stress-ng takes udp or rawudp" bash -c "source '$TOP/lab/lib/common.sh'; [ \"\$(bench_item_error stress-ng:tcp:5)\" = \"the stress-ng stressor must be udp or rawudp, not 'tcp'\" ] && [ -z \"\$(bench_item_error stress-ng:rawudp:5)\" ] && [ -z \"\$(bench_item_error xnode-free:64:2)\" ]"

# the workloads are the folders of bench/programs/ and the matrices the
# files of bench/jobs/ (docs/workloads.md): a copy of the lab with a new
# folder, then with faults, each refused in one line before anything
mkdir "$tmp/copy" && cp -r "$TOP/lab" "$TOP/bench" "$TOP/patches" "$TOP/configs" "$tmp/copy/"
c=$tmp/copy
mkdir "$c/bench/programs/tiny"
printf 'summary=a test workload\nparam=choice a|b the way\noptional=count N 1 9 loops\nnofleet=a test\n' > "$c/bench/programs/tiny/meta"
printf 'run_tiny() {\n\techo "mmscale: ops tiny@n=${2:-1} ${2:-1}"\n}\n' > "$c/bench/programs/tiny/run"
BENCH=tiny:b:3 "$c/lab/stages/bench.sh" --plan > "$tmp/d1" 2>&1
check "a new folder of bench/programs/ is a workload: its items are accepted" has "$tmp/d1" '^tiny:b:3$'
BENCH=tiny:c "$c/lab/stages/bench.sh" --plan > "$tmp/d2" 2>&1
check "a new workload's fields are checked from its meta" has "$tmp/d2" "^ERROR: .*BENCH item 'tiny:c': the way must be a or b, not 'c'$"
BENCH=tiny:a:1:2 "$c/lab/stages/bench.sh" --plan > "$tmp/d3" 2>&1
check "a new workload's form comes from its meta" has "$tmp/d3" "BENCH item 'tiny:a:1:2': want tiny:a\|b\[:N\]$"
MMSCALE_BENCH=tiny:a:4 MMSCALE_BENCH_BIN=$tmp MMSCALE_KPROBES=none timeout 60 "$c/bench/workloads.sh" > "$tmp/d4" 2> /dev/null
check "workloads.sh runs a new folder's run_<folder>" has "$tmp/d4" '^mmscale: ops tiny@n=4 4$'
cp "$c/bench/programs/tiny/meta" "$tmp/meta"
echo 'oops' >> "$c/bench/programs/tiny/meta"
BENCH=tiny:a "$c/lab/stages/bench.sh" --plan > "$tmp/d5" 2>&1
check "a meta line that is not KEY=VALUE is refused in one line" \
	bash -c "[ \$(wc -l < '$tmp/d5') = 1 ] && grep -qx \"ERROR: stage bench: bench/programs/tiny/meta line 5: not KEY=VALUE: 'oops'\" '$tmp/d5'"
sed '$d' "$tmp/meta" > "$c/bench/programs/tiny/meta"
echo 'optional=count N 9 1' >> "$c/bench/programs/tiny/meta"
"$c/lab/stages/bench.sh" --plan > "$tmp/d6" 2>&1
check "a field with bounds the wrong way round is refused" has "$tmp/d6" "^ERROR: .*bench/programs/tiny/meta line 4: want count NAME LO HI \[WHAT\], not 'count N 9 1'$"
cp "$tmp/meta" "$c/bench/programs/tiny/meta"
echo 'flavour=x' >> "$c/bench/programs/tiny/meta"
"$c/lab/stages/bench.sh" --plan > "$tmp/d7" 2>&1
check "an unknown meta key is refused" has "$tmp/d7" "^ERROR: .*bench/programs/tiny/meta line 5: unknown key 'flavour'"
cp "$tmp/meta" "$c/bench/programs/tiny/meta"
rm "$c/bench/programs/tiny/run"
"$c/lab/stages/bench.sh" --plan > "$tmp/d8" 2>&1
check "a folder without a run script is refused" has "$tmp/d8" '^ERROR: stage bench: bench/programs/tiny: no run script'
echo 'run_other() { :; }' > "$c/bench/programs/tiny/run"
"$c/lab/stages/bench.sh" --plan > "$tmp/d9" 2>&1
check "a run script without run_<folder> is refused" has "$tmp/d9" '^ERROR: stage bench: bench/programs/tiny/run: no function run_tiny'
MMSCALE_BENCH=page_fault1:threads:1 MMSCALE_BENCH_BIN=$tmp MMSCALE_KPROBES=none timeout 60 "$c/bench/workloads.sh" > "$tmp/d10" 2> /dev/null
check "workloads.sh: a bad folder is one error line, nothing run" \
	bash -c "grep -qx 'mmscale: error all bench/programs/tiny/run: no function run_tiny() {' '$tmp/d10' && ! grep -q '^mmscale: ops' '$tmp/d10'"
rm -r "$c/bench/programs/tiny"
cp "$c/bench/jobs/memcg" "$tmp/memcg.job"
echo 'shmem-cgroup:{4,x y}' >> "$c/bench/jobs/memcg"
BASE=7.3 MATRIX=memcg "$c/lab/stages/bench.sh" --plan > "$tmp/d11" 2>&1
check "a job file line that is no item with lists is refused" has "$tmp/d11" "^ERROR: stage bench: bench/jobs/memcg line $(wc -l < "$c/bench/jobs/memcg"): not an item with \{a,b\} lists"

# the kernels a matrix boots are its job file's side lines
BASE=7.3 MATRIX=memcg "$TOP/lab/stages/bench.sh" --sides > "$tmp/s1" 2>&1
check "--sides: MATRIX=memcg boots five sides, the A/A pair on one build folder" \
	bash -c 'grep -c "^side " "$1" | grep -qx 5 && grep -q "^side ceiling64 build/7.3/bench-head-noabsorb head vm mmscale bench noabsorb$" "$1" && grep -q "^side again build/7.3/bench-head-noabsorb " "$1" && grep -qx "aa ceiling64:again" "$1"' _ "$tmp/s1"
BASE=6.12 MATRIX=stock CONFIG=stats "$TOP/lab/stages/bench.sh" --sides > "$tmp/s2" 2>&1
check "--sides: MATRIX=stock's boot arguments, and CONFIG= added to every side's kernel" \
	has "$tmp/s2" '^side rr7 build/6.12/bench-head-stock7-stats head vm mmscale bench stock7 stats @memcg_stock_evict=roundrobin$'
"$TOP/lab/stages/bench.sh" --sides > "$tmp/s3" 2>&1
check "--sides: a job file without side lines compares base and head" \
	bash -c 'grep -q "^side head build/7.3/bench-head head vm mmscale bench$" "$1" && grep -qx "pairs base:head" "$1"' _ "$tmp/s3"
for bad in 'side x1 bench-x head' 'side Bad bench-x head vm' 'side y bench-y sideways vm' 'pairs base:nosuch' 'aa base:ceiling64 folio:base' 'side base bench-z head vm'; do
	cp "$tmp/memcg.job" "$c/bench/jobs/memcg"
	echo "$bad" >> "$c/bench/jobs/memcg"
	BASE=7.3 MATRIX=memcg "$c/lab/stages/bench.sh" --sides > "$tmp/s4" 2>&1
	check "a bad side line is refused in one line: '$bad'" refused "$tmp/s4" "^ERROR: stage bench: bench/jobs/memcg line [0-9]+: "
done
cp "$tmp/memcg.job" "$c/bench/jobs/memcg"
echo 'side extra bench-extra head vm nosuchfragment' >> "$c/bench/jobs/memcg"
BASE=7.3 MATRIX=memcg "$c/lab/stages/bench.sh" --sides > "$tmp/s5" 2>&1
check "a side's fragments are checked before anything is built" refused "$tmp/s5" "^ERROR: stage bench: bench/jobs/memcg side extra: no configs/nosuchfragment.config"
cp "$tmp/memcg.job" "$c/bench/jobs/memcg"

(source "$TOP/lab/lib/common.sh"; build_workloads "$tmp") > "$tmp/cc" 2>&1
check "bench/programs/*/*.c build with -Wall" test $? -eq 0
"$tmp/page_fault" -m sideways > "$tmp/o4" 2>&1
check "page_fault: bad mode is a usage error" test $? -eq 2
"$tmp/sigqueue" -n 0 > "$tmp/o5" 2>&1
check "sigqueue: 0 signals is a usage error" test $? -eq 2
check "sigqueue: the error names the range" has "$tmp/o5" "SIGNALS must be 1\.\.1048576, not '0'"
"$tmp/sigqueue" -a 0 > "$tmp/o15" 2>&1
check "sigqueue: -a without -b is a usage error" has "$tmp/o15" '^sigqueue: -a and -b go together$'
"$tmp/sigqueue" -n 16 -r 2 -a 0 -b "$(($(nproc) - 1))" > "$tmp/o16" 2>&1
check "sigqueue: queued on one CPU, taken back on another" has "$tmp/o16" '^total_ops 32$'
MMSCALE_BENCH=page_fault1:threads:1,shm-pread-seq-mt:1,sigqueue:64:3,bogus:1,xnode-free:64:2,stress-ng:udp:200,memcg-nested-fault:2,slab-empty-partial MMSCALE_BENCH_BIN=$tmp \
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
check "xnode-free: remote frees, or a skip with one node" has "$tmp/w" '^mmscale: (ops xnode-free@signals=64 128|skip xnode-free@signals=64 needs two NUMA nodes with CPUs)$'
check "stress-ng udp: its bogo ops are the operations" has "$tmp/w" '^mmscale: (ops stress-ng-udp@ops=200 200|skip stress-ng-udp@ops=200 stress-ng is not installed)$'
# (a machine whose cgroups this user may not change gets an error line)
check "memcg-nested-fault: faults counted, or a skip or an error that says why" has "$tmp/w" '^mmscale: (ops memcg-nested-fault@depth=2 [1-9][0-9]*|skip memcg-nested-fault@depth=2 memory cgroups needed: .+|error memcg-nested-fault@depth=2 .+)$'
check "a kprobe that cannot be counted is said, not hidden" has "$tmp/w" 'kprobe no_such_function_xyz: no such|no tracefs kprobe_events'
check "slab-empty-partial: a count, or a skip that names the options" has "$tmp/w" '^mmscale: (metric slab-empty-partial slab\.partial_empty [0-9]+|skip slab-empty-partial needs CONFIG_SLUB_DEBUG and CONFIG_SLUB_STATS)$'
check "end marker" has "$tmp/w" '^mmscale: bench done$'
check "slab-empty-partial takes no parameter" bash -c "source '$TOP/lab/lib/common.sh'; [ \"\$(bench_item_error slab-empty-partial:3)\" = 'slab-empty-partial takes no parameter' ] && [ -z \"\$(bench_item_error slab-empty-partial)\" ]"

# make bench HOST=1 sizes its items from the machine (host_matrix): LKP's
# shares of the CPUs, capped by memory
(
	source "$TOP/lab/lib/common.sh"
	host_matrix 64 0 262144 > "$tmp/m64"
	host_matrix 64 0 4096 > "$tmp/m64small"
	host_matrix 2 1 20000 > "$tmp/m2full"
)
check "HOST=1 on 64 CPUs: page_fault at 100% of the CPUs" has "$tmp/m64" '^page_fault3:threads:64$'
check "HOST=1 on 64 CPUs: hackbench groups of 20 for 100% and 800%" \
	bash -c "grep -qx 'hackbench:process:pipe:4' '$tmp/m64' && grep -qx 'hackbench:process:pipe:26' '$tmp/m64'"
check "HOST=1 on 64 CPUs: one and two memcgs per CPU" \
	bash -c "grep -qx 'memcg-parallel-fault:64' '$tmp/m64' && grep -qx 'memcg-parallel-fault:128' '$tmp/m64'"
check "HOST=1 with 4 GiB free: page_fault tasks capped by memory (16 x 128 MiB)" has "$tmp/m64small" '^page_fault1:processes:16$'
check "HOST=1 FULL=1: 200% too, no item twice" \
	bash -c "grep -qx 'page_fault2:processes:4' '$tmp/m2full' && [ -z \"\$(sort '$tmp/m2full' | uniq -d)\" ]"
check "HOST=1: every sized item is within the items' bounds" \
	bash -c "source '$TOP/lab/lib/common.sh'; for i in \$(cat '$tmp/m64' '$tmp/m2full'); do [ -z \"\$(bench_item_error \$i)\" ] || exit 1; done"

# loops=auto sizes hackbench from a timed probe, and a run too short to
# measure says so: a stand-in hackbench whose time is loops / 10000 s
mkdir -p "$tmp/fake"
cat > "$tmp/fake/hackbench" <<'FAKE'
#!/bin/sh
l=0
while [ $# -gt 0 ]; do [ "$1" = -l ] && l=$2; shift; done
awk -v l="$l" 'BEGIN { printf "Time: %.3f\n", l / 10000 }'
FAKE
chmod +x "$tmp/fake/hackbench"
PATH=$tmp/fake:$PATH MMSCALE_BENCH=hackbench:process:pipe:1 MMSCALE_BENCH_BIN=$tmp MMSCALE_BENCH_SECONDS=3 \
	MMSCALE_HACKBENCH_LOOPS=auto MMSCALE_KPROBES=none timeout 60 "$TOP/bench/workloads.sh" > "$tmp/auto" 2> /dev/null
check "loops=auto: probes until 0.2 s, then sizes for MMSCALE_BENCH_SECONDS" \
	has "$tmp/auto" '^mmscale: info hackbench-process-pipe@groups=1 loops=auto: 5000 loops took 0.500 s, so 30000 loops for about 3 s$'
check "loops=auto: the size line names tasks, CPUs and loops" \
	has "$tmp/auto" '^mmscale: size hackbench-process-pipe@groups=1 tasks=20 cpus=[0-9]+ \([0-9]+%\) groups=1 loops=30000$'
check "loops=auto: a sized run gives no warning" bash -c "! grep -q '^mmscale: warn' '$tmp/auto'"
PATH=$tmp/fake:$PATH MMSCALE_BENCH=hackbench:process:pipe:1 MMSCALE_BENCH_BIN=$tmp MMSCALE_BENCH_SECONDS=3 \
	MMSCALE_HACKBENCH_LOOPS=200 MMSCALE_KPROBES=none timeout 60 "$TOP/bench/workloads.sh" > "$tmp/short" 2> /dev/null
check "200 loops of 0.02 s: the run says it is too short to measure" \
	has "$tmp/short" '^mmscale: warn hackbench-process-pipe@groups=1 the run lasted 0.020 s, too short to measure'
if [ "$(nproc)" -ge 2 ]; then
	check "1 task on $(nproc) CPUs: says fewer tasks than CPUs" \
		has "$tmp/w" "^mmscale: warn page_fault1-threads@tasks=1 1 tasks on $(nproc) CPUs: fewer tasks than CPUs"
else
	skip "1 task on N CPUs: says fewer tasks than CPUs" "this machine has one CPU"
fi
"$TOP/lab/py/compare.py" collect --out "$tmp/r.json" --accel host --command test "host:1:$tmp/short:" > /dev/null &&
	"$TOP/lab/py/compare.py" collect --out "$tmp/r2.json" --accel host --command test "host:1:$tmp/auto:" > /dev/null &&
	"$TOP/lab/py/compare.py" report "$tmp/r.json" "$tmp/r2.json" > "$tmp/rep" 2>&1
check "the report lists the sizes" has "$tmp/rep" '^  head runs 1: hackbench-process-pipe@groups=1: tasks=20 .* loops=30000$'
check "the report lists the warnings" has "$tmp/rep" '^  base runs 1: hackbench-process-pipe@groups=1: the run lasted 0.020 s, too short'
# HOST=1 runs of two machines are refused, never one %change (issue 45)
# (r4.json as if collected on another machine)
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["machine"] = {"hostname": "big", "cpus": 224, "cpu": "CPU two"}; json.dump(d, open(sys.argv[1], "w"))' "$tmp/r2.json"
"$TOP/lab/py/compare.py" report "$tmp/r.json" "$tmp/r2.json" > "$tmp/rep2" 2>&1
check "compare: HOST=1 runs of two machines are refused" \
	has "$tmp/rep2" '^ERROR: A ran on .*, B on big \(224 CPUs, CPU two\): runs of two machines are never compared in one %change'
done_testing
