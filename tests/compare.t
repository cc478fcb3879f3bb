#!/usr/bin/env bash
# tests/compare.t - lab/py/compare.py on fixed benchmark logs (tests/data/bench/)
# with known answers: means, %stddev, %change, the significance rule, counters
# per 1000 operations, failed runs kept in the report, the saved JSON and
# "make compare" reproducing the table from it, and bad input.
# Needs: python3 (gnuplot for the plot check).
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=$TOP/tests/data/bench
cmp=$TOP/lab/py/compare.py

"$cmp" collect --out "$tmp/results.json" --accel tcg --command "make bench" \
	--meta '{"base.kernel": "6.12.117", "head.series": "3 patches"}' \
	base:1:$d/base-1.log: base:2:$d/base-2.log: base:3:$d/base-3.log: \
	head:1:$d/head-1.log: head:2:$d/head-2.log: head:3:$d/head-3.log: \
	"base:4:$tmp/missing.log:boot failed or timed out (lab/stages/boot.sh)" > "$tmp/collect.out" 2>&1
check "collect: exit 0" test $? -eq 0
check "collect: every run is saved, failed ones too" \
	test "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"]))' "$tmp/results.json")" = 7

"$cmp" report "$tmp" --plots "$tmp" > "$tmp/report.out" 2>&1
check "report: exit 0" test $? -eq 0
out=$tmp/report.out
check "report: TCG label" has "$out" '^# TCG — emulated; times are not performance$'
check "report: run counts with failures" has "$out" '4 base runs \(1 failed\), 3 head runs \(1 failed\)'
# base 1000 1100 900: mean 1000, sd 10%; head 2000 2100 (run 3 died): mean 2050, sd 3.4%
check "report: LKP row, mean, stddev, change, significant" \
	has "$out" '^ +1000 ± 10% +\+105\.0%\* +2050 ±  3%  will-it-scale\.2\.threads$'
# base 5000 5000 5200 vs head 5050 4950: medians inside each other's range
check "report: overlapping runs are not significant" \
	has "$out" '^ +5067 ±  2% +-1\.3%  +5000        hackbench\.throughput$'
# base 4000 4100 3900 vs head 5000 5100
check "report: stddev under 2% is not printed" has "$out" '^ +4000 ±  2% +\+26\.2%\* +5050        hackbench\.throughput$'
check "report: a point only head has shows head's numbers" \
	has "$out" '^ +- +  +310\.0 ±  5%  test_vmalloc\.fix_size\.usec \(head only\)$'
check "report: counters per 1000 ops" has "$out" '^ +15\.3 ±  4% +-2\.2% +15\.0        kprobe\.page_counter_try_charge$'
check "report: unlisted vm events are hidden" bash -c "! grep -q nr_free_pages '$out'"
check "report: failed boot listed" has "$out" 'base run 4 \(missing.log\): boot failed or timed out'
check "report: incomplete run listed" has "$out" 'head run 3 \(head-3.log\): incomplete: no "mmscale: bench done"'
check "report: kernel report in a run listed" has "$out" 'head run 3 .*BUG: kernel NULL pointer'
check "report: workload error listed" has "$out" 'head run 2 .*vmalloc-fix_size@threshold_kb=256: test_vmalloc printed no summary'
check "report: not-applicable points listed apart, not as failures" \
	bash -c "grep -qE '^  this kernel has no lazy-purge threshold knob' '$out' && grep -qE '^    base runs 1: .*vmalloc-fix_size@threshold_kb=256' '$out'"
if command -v gnuplot > /dev/null; then
	check "report: sweep plot written" test -s "$tmp/hackbench-cgroup-process-pipe.hackbench.throughput.png"
fi

"$cmp" report "$tmp/results.json" "$tmp/results.json" > "$tmp/again.out" 2>&1
check "report A B from saved results: same tables" \
	diff <(sed -n '/^page_fault3/,$p' "$out" | grep -v '^# plot') <(sed -n '/^page_fault3/,$p' "$tmp/again.out")
(cd "$TOP" && BUILD=$tmp/build make -s compare A="$tmp" B="$tmp") > "$tmp/make.out" 2>&1
check "make compare A=dir B=dir prints the table" has "$tmp/make.out" 'will-it-scale\.2\.threads$'
check "... and writes it to its own folder, not into the results" \
	test -s "$(ls -d "$tmp"/build/compare/*/ | head -n1)compare.txt" -a ! -e "$tmp/compare.txt"
"$cmp" sweep "$tmp" --side base --keys 'hackbench.throughput' > "$tmp/sweep.out" 2>&1
check "sweep: one row per key, one column per point (means)" \
	has "$tmp/sweep.out" '^hackbench\.throughput 5067 4000$'
# a host-only pair: base from A's host runs, head from B's host runs
"$cmp" collect --out "$tmp/a.json" --accel host host:1:$d/base-1.log: host:2:$d/base-2.log: > /dev/null
"$cmp" collect --out "$tmp/b.json" --accel host host:1:$d/head-1.log: host:2:$d/head-2.log: > /dev/null
"$cmp" report "$tmp/a.json" "$tmp/b.json" > "$tmp/host.out" 2>&1
check "two HOST=1 results compare" has "$tmp/host.out" '^ +1050 ±  7% +\+95\.2%\* +2050 ±  3%  will-it-scale\.2\.threads$'
check "host results carry no TCG label" bash -c "! grep -q TCG '$tmp/host.out'"
# skips: each reason once, then the workloads it skipped, by the runs
for i in 1 2; do
	printf 'mmscale: uname 7.3.4 #1 cpus=2\nmmscale: skip cg-a@k=1 memory cgroups needed: why\nmmscale: skip cg-b@k=2 memory cgroups needed: why\nmmscale: bench done\n' > "$tmp/skip-$i.log"
done
"$cmp" collect --out "$tmp/sa.json" --accel host host:1:$tmp/skip-1.log: host:2:$tmp/skip-2.log: > /dev/null
"$cmp" collect --out "$tmp/sb.json" --accel host host:1:$tmp/skip-2.log: > /dev/null
"$cmp" report "$tmp/sa.json" "$tmp/sb.json" > "$tmp/skip.out" 2>&1
check "skips: grouped under their reason, with the runs" bash -c "grep -qx '  memory cgroups needed: why' '$tmp/skip.out' && grep -qx '    base runs 1,2, head runs 1: cg-a@k=1, cg-b@k=2' '$tmp/skip.out' && [ \$(grep -c 'needed: why' '$tmp/skip.out') = 1 ]"
check "nothing measured: said in one line, exit 1" bash -c "grep -q '^# nothing to compare: no workload gave a metric on both sides' '$tmp/skip.out' && ! '$cmp' report '$tmp/sa.json' '$tmp/sb.json' > /dev/null 2>&1"
# an A/A floor (AA=): base's kernel again; a change inside the floor is not marked
"$cmp" collect --out "$tmp/aa.json" --accel host host:1:$d/base-3.log: host:2:$d/base-2.log: > /dev/null
"$cmp" report "$tmp/a.json" "$tmp/b.json" --aa "$tmp/aa.json" > "$tmp/aa.out" 2>&1
check "AA: the floor column, and a change past it still marked" has "$tmp/aa.out" '^ +1050 ±  7% +\+95\.2%\* +2050 ±  3% +[0-9]+%  will-it-scale\.2\.threads$'
sed 's/will-it-scale.2.threads 1000$/will-it-scale.2.threads 3000/' "$d/base-1.log" > "$tmp/wide.log"
"$cmp" collect --out "$tmp/aawide.json" --accel host host:1:$tmp/wide.log: host:2:$d/base-2.log: > /dev/null
"$cmp" report "$tmp/a.json" "$tmp/b.json" --aa "$tmp/aawide.json" > "$tmp/aawide.out" 2>&1
check "AA: a change inside the floor is not marked" has "$tmp/aawide.out" '^ +1050 ±  7% +\+95\.2% +2050 ±  3% +[0-9]+%  will-it-scale\.2\.threads$'
"$cmp" report "$tmp/a.json" "$tmp/b.json" --aa "$tmp/b.json" > "$tmp/aab.out" 2>&1
check "AA: B itself is refused" has "$tmp/aab.out" "^ERROR: AA is A or B itself"
"$cmp" collect --out "$tmp/aak.json" --accel host host:1:$d/head-3.log: host:2:$d/head-2.log: > /dev/null
"$cmp" report "$tmp/a.json" "$tmp/b.json" --aa "$tmp/aak.json" > "$tmp/aak.out" 2>&1
check "AA: another kernel than A's is refused" has "$tmp/aak.out" "^ERROR: AA=.* ran 6\.12\.117-head .* A ran 6\.12\.117-base .*: an A/A floor comes from the same kernel as A"
"$cmp" report "$tmp/a.json" "$tmp/aa.json" > "$tmp/same.out" 2>&1
check "the same kernel on both sides: said to be an A/A, nothing marked" \
	bash -c "grep -q '^# A/A: base and head ran the same kernel' '$tmp/same.out' && ! grep -q '%\*' '$tmp/same.out'"

# slab counters: per 1M frees to that cache; caches under 1% of the frees hidden
for side in base head; do
	for i in 1 2; do
		lock=$([ $side = base ] && echo 3000 || echo 1000)
		cat > "$tmp/slab-$side-$i.log" <<EOT
mmscale: metric hb x 1
mmscale: ops hb 100
mmscale: counter hb slab.kmalloc-64.free_fastpath 600000
mmscale: counter hb slab.kmalloc-64.free_slowpath 400000
mmscale: counter hb slab.kmalloc-64.free_list_lock $lock
mmscale: counter hb slab.tiny.free_slowpath 10
mmscale: counter hb slab.tiny.free_list_lock 5
mmscale: bench done
EOT
	done
done
"$cmp" collect --out "$tmp/slab.json" base:1:$tmp/slab-base-1.log: base:2:$tmp/slab-base-2.log: \
	head:1:$tmp/slab-head-1.log: head:2:$tmp/slab-head-2.log: > /dev/null
"$cmp" report "$tmp/slab.json" > "$tmp/slab.out" 2>&1
check "slab counters per 1M frees of the cache" \
	has "$tmp/slab.out" '^ +3000 +-66\.7%\* +1000        slab\.kmalloc-64\.free_list_lock$'
check "caches with under 1% of the frees are hidden" bash -c "! grep -q 'slab\.tiny' '$tmp/slab.out'"

"$cmp" collect --out "$tmp/x.json" Side-ways:1:$d/base-1.log: > "$tmp/bad.out" 2>&1
check "collect: bad run spec is refused" test $? -eq 2
check "collect: says why" has "$tmp/bad.out" 'bad run "Side-ways:1'
"$cmp" report "$tmp/nonexistent" > "$tmp/bad2.out" 2>&1
check "report: missing results is an error" test $? -ne 0
# counters: a significant change is marked only from a 1% move and 5 events
# a run: the same 3 events a run over more operations is not a change, and
# neither is a 0.5% move; 300 more events a run are
mkdir -p "$tmp/floor"
for side in base head; do for i in 1 2 3; do
	ops=$((1000 + i)) free=1000 flt=1000
	[ $side = head ] && ops=$((1200 + i)) free=$(( (1005 + i) * (1200 + i) / 1000 )) flt=$((1300 + i))
	printf '%s\n' "mmscale: uname 6.12.117-$side #1 cpus=2" "mmscale: ops w@k=1 $ops" \
		"mmscale: counter w@k=1 proc-vmstat.pgactivate 3" "mmscale: counter w@k=1 proc-vmstat.pgfree $free" \
		"mmscale: counter w@k=1 proc-vmstat.pgfault $flt" "mmscale: bench done" > "$tmp/floor/$side-$i.log"
done; done
"$cmp" collect --out "$tmp/floor/results.json" $(for s in base head; do for i in 1 2 3; do echo "$s:$i:$tmp/floor/$s-$i.log:"; done; done) > /dev/null 2>&1
"$cmp" report "$tmp/floor" > "$tmp/floor.out" 2>&1
check "counters: the same few events a run over more operations are not marked" \
	has "$tmp/floor.out" '^ +2\.99 +-16\.6%  +2\.5 .* proc-vmstat\.pgactivate$'
check "counters: a move under 1% is not marked" has "$tmp/floor.out" '% +[0-9.]+ .* proc-vmstat\.pgfree$'
check "counters: ... but 300 more events a run are" has "$tmp/floor.out" '\+[0-9.]+%\* .* proc-vmstat\.pgfault$'

# compare.py matrix: several sides of one run (make bench MATRIX=stock)
mkdir -p "$tmp/m"
"$cmp" collect --out "$tmp/m/results.json" --accel tcg --command "make bench MATRIX=stock" \
	rr7:1:$d/base-1.log: clock7:1:$d/head-1.log: rr7:2:$d/base-2.log: clock7:2:$d/head-2.log: \
	rr7:3:$d/base-3.log: clock7:3:$d/head-3.log: base:1:$d/base-1.log: > "$tmp/m.out" 2>&1
check "collect: side names other than base and head" test $? -eq 0
"$cmp" matrix "$tmp/m" --pairs rr7:clock7 > "$tmp/mx" 2>&1
check "matrix: exit 0" test $? -eq 0
check "matrix: sides in boot order" has "$tmp/mx" '^# matrix of 3 sides, 7 runs \(1 failed\), boots interleaved round robin: rr7 clock7 base$'
check "matrix: a column per side, then the pair" has "$tmp/mx" '^workload +rr7 +clock7 +base +rr7>clock7 $'
# the same numbers as report's base/head rows: 15.3 +-4% to 15.0, not significant
check "matrix: counters per 1000 ops, change of the pair" \
	has "$tmp/mx" '^page_fault3-threads@tasks=2 +15\.3 ±  4% +15\.0 +15\.0 +-2\.2% $'
check "matrix: a significant change is marked" \
	has "$tmp/mx" '^page_fault3-threads@tasks=2 +1000 ± 10% +2050 ±  3% +1000 +\+105\.0%\*$'
check "matrix: failed runs are listed by side" has "$tmp/mx" '^  clock7 run 3 \(head-3\.log\): incomplete'
"$cmp" matrix "$tmp/m" --pairs rr7:nope > "$tmp/mx2" 2>&1
check "matrix: an unknown side in --pairs is refused" test $? -eq 2
check "matrix: says which sides there are" has "$tmp/mx2" 'not A:B of two sides of .* \(rr7, clock7, base\)'

# compare.py matrix sums both page_counter kprobes (make bench MATRIX=memcg):
# 10 + 20 and 3 + 5 per 1000 messages; a count not printed was 0 (no zero
# delta is printed), so the split workload's sum is its charges alone
mkdir -p "$tmp/pc"
for side in base:40:20:10 ceiling128:10:6:4; do
	IFS=: read -r name unch ch other <<< "$side"
	{
		echo "mmscale: uname 7.3.4-$name #1_SMP cpus=2"
		echo "mmscale: ops iperf3-cgroup-mixed@pairs=1 2000"
		echo "mmscale: counter iperf3-cgroup-mixed@pairs=1 kprobe.page_counter_try_charge $ch"
		echo "mmscale: counter iperf3-cgroup-mixed@pairs=1 kprobe.page_counter_uncharge $unch"
		echo "mmscale: counter iperf3-cgroup-mixed@pairs=1 kprobe.page_counter_uncharge.by.refill_stock $other"
		echo "mmscale: ops iperf3-cgroup-split@pairs=1 1000"
		echo "mmscale: counter iperf3-cgroup-split@pairs=1 kprobe.page_counter_try_charge $other"
		echo "mmscale: bench done"
	} > "$tmp/pc/$name.log"
done
"$cmp" collect --out "$tmp/pc/results.json" --accel tcg --command "make bench MATRIX=memcg" \
	base:1:$tmp/pc/base.log: ceiling128:1:$tmp/pc/ceiling128.log: > "$tmp/pc.out" 2>&1
"$cmp" matrix "$tmp/pc" > "$tmp/pcx" 2>&1
check "matrix: exit 0 on the memcg matrix" test $? -eq 0
check "matrix: the sum of both page_counter kprobes gets a table" has "$tmp/pcx" '^kprobe\.page_counter_try_charge\+uncharge \(per 1000 operations\)$'
check "matrix: ... with both counts summed per 1000 operations" has "$tmp/pcx" '^iperf3-cgroup-mixed@pairs=1 +30\.0 +8 +-73\.3% $'
check "matrix: ... a missing count taken as 0" bash -c "sed -n '/^kprobe.page_counter_try_charge+uncharge/,/^\$/p' '$tmp/pcx' | grep -Eq '^iperf3-cgroup-split@pairs=1 +10\.0 +4 +-60\.0% $'"
check "matrix: a page_counter kprobe per caller gets a table of its own" bash -c "sed -n '/^kprobe.page_counter_uncharge.by.refill_stock (per 1000 operations)\$/,/^\$/p' '$tmp/pcx' | grep -Eq '^iperf3-cgroup-mixed@pairs=1 +5 +2 +-60\.0% $'"

# compare.py matrix --aa (make bench MATRIX=memcg): base and again boot the
# same kernel; their runs span the cell's noise floor, and a change is
# marked only with 5 runs a side and beyond that floor.  Per 1000 messages:
# base 100 104 98 102 100 and again 96 100 102 104 98 (floor 8/100.4 = 8%);
# far at 50 a run (marked), near at 94 a run (outside both ranges, -6%,
# inside the floor: not marked)
mkdir -p "$tmp/aa"
runs=()
for side in base:100,104,98,102,100 again:96,100,102,104,98 far:50,50,51,49,50 near:94,94,94,94,94; do
	IFS=: read -r name vals <<< "$side"
	i=0
	for v in ${vals//,/ }; do
		i=$((i + 1))
		printf '%s\n' "mmscale: uname 7.3.4-$name #1_SMP cpus=2" "mmscale: ops iperf3-cgroup-mixed@pairs=1 1000" \
			"mmscale: counter iperf3-cgroup-mixed@pairs=1 kprobe.page_counter_try_charge $v" \
			"mmscale: bench done" > "$tmp/aa/$name-$i.log"
		runs+=("$name:$i:$tmp/aa/$name-$i.log:")
	done
done
"$cmp" collect --out "$tmp/aa/results.json" --accel tcg --command "make bench MATRIX=memcg" "${runs[@]}" > "$tmp/aa.out" 2>&1
"$cmp" matrix "$tmp/aa" --pairs base:again,base:far,base:near --aa base:again > "$tmp/aax" 2>&1
check "matrix --aa: exit 0" test $? -eq 0
check "matrix --aa: an A/A column" has "$tmp/aax" '^workload +base +again +far +near +A/A +base>again +base>far +base>near $'
check "matrix --aa: the floor is the A/A runs' range over their mean; a change past it is marked, one inside it not" \
	has "$tmp/aax" '^iperf3-cgroup-mixed@pairs=1 +100\.8 ±  2% +100\.0 ±  3% +50\.0 +94\.0 +8% +-0\.8% +-50\.4%\* +-6\.7% $'
check "matrix --aa: the footer says the rule" has "$tmp/aax" '^# A/A: base and again boot the same kernel'
"$cmp" matrix "$tmp/aa" --aa base:nope > "$tmp/aax2" 2>&1
check "matrix --aa: an unknown side is refused" test $? -eq 2
# 4 runs a side: far's -50% is no longer marked
mkdir -p "$tmp/aa4"
"$cmp" collect --out "$tmp/aa4/results.json" --accel tcg --command "make bench MATRIX=memcg" \
	$(printf '%s\n' "${runs[@]}" | grep -v -- '-5\.log:$') > "$tmp/aa4.out" 2>&1
"$cmp" matrix "$tmp/aa4" --pairs base:far --aa base:again > "$tmp/aax4" 2>&1
check "matrix --aa: no mark with fewer than 5 runs a side" \
	has "$tmp/aax4" '^iperf3-cgroup-mixed@pairs=1 .* -50\.[0-9]% $'

# compare.py slubfree: the slub topic's table (make bench MATRIX=slub):
# per 1M frees, from the slab.total.* counters of one side
mkdir -p "$tmp/sf"
for i in 1 2; do
	printf '%s\n' "mmscale: uname 7.3.4 #1 cpus=2" "mmscale: ops hb@groups=2 1000" \
		"mmscale: counter hb@groups=2 slab.total.free_fastpath $((900000 + i * 0))" \
		"mmscale: counter hb@groups=2 slab.total.free_slowpath 100000" \
		"mmscale: counter hb@groups=2 slab.total.free_call_remote 1000" \
		"mmscale: counter hb@groups=2 slab.total.free_call_flush $((3000 + i * 1000))" \
		"mmscale: counter hb@groups=2 slab.total.free_list_lock 2000" \
		"mmscale: counter hb@groups=2 slab.total.free_add_partial 1000" \
		"mmscale: counter hb@groups=2 slab.total.free_lock_nop_transit 500" \
		"mmscale: counter hb@groups=2 slab.total.free_locked_redo 500" \
		"mmscale: counter hb@groups=2 lockstat.n_list_lock.contentions 30" \
		"mmscale: counter hb@groups=2 lockstat.n_list_lock.acquisitions 6000" \
		"mmscale: ops old 10" "mmscale: counter old proc-vmstat.pgfree 5" \
		"mmscale: bench done" > "$tmp/sf/counters-$i.log"
done
"$cmp" collect --out "$tmp/sf/results.json" --accel tcg --command "make bench MATRIX=slub" \
	counters:1:$tmp/sf/counters-1.log: counters:2:$tmp/sf/counters-2.log: > /dev/null 2>&1
"$cmp" slubfree "$tmp/sf" > "$tmp/sfx" 2>&1
check "slubfree: exit 0" test $? -eq 0
check "slubfree: a column per counter" has "$tmp/sfx" '^workload +frees +calls +remote +flush +refill +other +lock +add +remove +transit +minpart +discard +redo +nop% +redo% +lscont +lsacq$'
# 1M frees a run: calls 5000 and 6000 (mean 5500), lock 2000, 25% no-op and redo
check "slubfree: per 1M frees, the mean of the runs" \
	has "$tmp/sfx" '^hb@groups=2 +1000000 +5500 +1000 +4500 +0 +0 +2000 +1000 .* 25\.0 +25\.0 +30\.0 +6000$'
check "slubfree: %stddev when there are runs to compare" has "$tmp/sfx" '^  %stddev \(2 runs\) +13% +0% +16% '
check "slubfree: a workload without the counters is left out" bash -c "! grep -q '^old ' '$tmp/sfx'"
done_testing
