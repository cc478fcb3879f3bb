#!/usr/bin/env bash
# tests/report.t - lab/py/report.py on recorded console logs (tests/data/):
# counts, skip reasons, failures, the kernel-log scan and the final line.
# Needs: python3 and a kernel tree for kunit.py (build/linux, from make tree);
# skipped without it.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ksrc=$LB/linux
[ -x "$ksrc/tools/testing/kunit/kunit.py" ] || skip_all "no build/linux with kunit.py (make tree; make check has it)"

# report LOG: run the parser on tests/data/LOG.log, output in $tmp/LOG.out
report() {
	timeout 300 "$TOP/lab/py/report.py" --console "$TOP/tests/data/$1.log" --ksrc "$ksrc" \
		--out "$tmp/$1" --expect kunit,mm,memcontrol > "$tmp/$1.out" 2>&1
}

# The cases below run with each line's tree that is there: each line's
# report goes through that line's own kunit.py parser (6.12's loops forever
# on a trailing plan; report.py moves the plan up for it, lead_plan).
for l in $LINES; do
	ksrc=$TOP/build/$l/linux
	if [ ! -x "$ksrc/tools/testing/kunit/kunit.py" ]; then
		skip "$l: the recorded logs through the $l line's kunit.py" "no build/$l/linux (make tree BASE=$l; make check makes both lines' trees)"
		continue
	fi
	report pass
	check "$l: pass: exit 0" test $? -eq 0
	check "$l: pass: final line" test "$(tail -n1 "$tmp/pass.out")" = "6 passed, 0 failed, 3 skipped"
	check "$l: pass: KUnit suite row" has "$tmp/pass.out" '^kunit:slub_test +1 +0 +1$'
	check "$l: pass: selftest rows" has "$tmp/pass.out" '^mm +1 +0 +1$'
	check "$l: pass: KUnit skip reason" has "$tmp/pass.out" "skipped kunit:slub_test: test_kfree_rcu: can't do kfree_rcu\(\) when test is built-in"
	check "$l: pass: run_vmtests skip reason" has "$tmp/pass.out" 'skipped mm: test_vmalloc.sh smoke: CONFIG_TEST_VMALLOC=m'

	report warning
	check "$l: warning: exit 1" test $? -eq 1
	check "$l: warning: the WARNING is shown" has "$tmp/warning.out" 'WARNING: CPU: 1 PID: 77 at mm/slub.c:123'
	check "$l: warning: counted as a failure" test "$(tail -n1 "$tmp/warning.out")" = "6 passed, 1 failed, 3 skipped"

	report timeout
	check "$l: timeout: exit 1" test $? -eq 1
	check "$l: timeout: the section is named as timed out" has "$tmp/timeout.out" 'FAILED  memcontrol: \(section timed out after 600 s; what it printed is kept\)'
	check "$l: timeout: what it printed before counts" has "$tmp/timeout.out" '^memcontrol +2 +[12] +0$'

	report kunit-fail
	check "$l: kunit-fail: exit 1" test $? -eq 1
	check "$l: kunit-fail: names the case" has "$tmp/kunit-fail.out" 'FAILED  kunit:list-kunit-test: list_test_list_add'

done
ksrc=$LB/linux
report missing-binary
check "missing-binary: exit 1" test $? -eq 1
check "missing-binary: names the binary" has "$tmp/missing-binary.out" 'FAILED  guest: selftest binary cgroup/test_memcontrol is missing'

report died
check "died: exit 1" test $? -eq 1
check "died: unfinished sections fail" has "$tmp/died.out" 'FAILED  memcontrol: \(section did not run or did not finish\)'
check "died: the panic is shown" has "$tmp/died.out" 'Kernel panic - not syncing'
# an upstream failure (a case 6.12 fails here too) is listed with the values
# the test printed and not counted; any other failure of the section is
report_kmem() {
	timeout 300 "$TOP/lab/py/report.py" --console "$TOP/tests/data/$1.log" --ksrc "$ksrc" \
		--out "$tmp/$1" --expect kunit,mm,memcontrol,kmem --line 6.12 > "$tmp/$1.out" 2>&1
}
report_kmem kmem-upstream
check "kmem-upstream: exit 0" test $? -eq 0
check "kmem-upstream: listed with its numbers" has "$tmp/kmem-upstream.out" \
	'^  upstream failure kmem: test_percpu_basic: fails on 6.12.117 here too: .*; the test printed: memory.current 16269312, percpu 7680000$'
check "kmem-upstream: not counted as failed" test "$(tail -n1 "$tmp/kmem-upstream.out")" = "8 passed, 0 failed, 3 skipped"
# the known failure is the 6.12 line's: on another line it counts
timeout 300 "$TOP/lab/py/report.py" --console "$TOP/tests/data/kmem-upstream.log" --ksrc "$ksrc" \
	--out "$tmp/kmem-73" --expect kunit,mm,memcontrol,kmem --line 7.3 > "$tmp/kmem-73.out" 2>&1
check "kmem-upstream on the 7.3 line: counted as failed (known failures are per line)" \
	test "$(tail -n1 "$tmp/kmem-73.out")" = "8 passed, 1 failed, 3 skipped"
report_kmem kmem-fail
check "kmem-fail: another failure of the section still fails" test "$(tail -n1 "$tmp/kmem-fail.out")" = "7 passed, 1 failed, 3 skipped"
check "kmem-fail: names it, with what it printed before its result" has "$tmp/kmem-fail.out" \
	'^  FAILED  kmem: test_kmem_dead_cgroups; the test printed: memory.current = 2699264 | anon + file + kernel + sock = 1921024$'

# a case known to fail now and then on the line's base (FLAKY) counts as
# passed only when it passes in the section's rerun, and is listed
report_flaky() {
	timeout 300 "$TOP/lab/py/report.py" --console "$TOP/tests/data/$1.log" --ksrc "$ksrc" \
		--out "$tmp/$1" --expect kunit,mm,memcontrol --line 7.3 > "$tmp/$1.out" 2>&1
}
report_flaky memcg-flaky
check "memcg-flaky: failed, passed on the rerun: exit 0" test $? -eq 0
check "memcg-flaky: counted once, as passed" test "$(tail -n1 "$tmp/memcg-flaky.out")" = "6 passed, 0 failed, 3 skipped"
check "memcg-flaky: listed as flaky, the rerun named" has "$tmp/memcg-flaky.out" \
	'^  flaky memcontrol: test_memcg_min: failed, then passed on the rerun \(section memcontrol-rerun\): '
report_flaky memcg-flaky-twice
check "memcg-flaky-twice: failed on the rerun too: exit 1" test $? -eq 1
check "memcg-flaky-twice: named as failed, twice" has "$tmp/memcg-flaky-twice.out" \
	'^  FAILED  memcontrol: test_memcg_min \(it fails now and then on the base; it failed on the rerun too\)'
report_flaky memcg-flaky-norerun
check "memcg-flaky-norerun: no rerun: a failure" test "$(tail -n1 "$tmp/memcg-flaky-norerun.out")" = "5 passed, 1 failed, 3 skipped"
timeout 300 "$TOP/lab/py/report.py" --console "$TOP/tests/data/memcg-flaky.log" --ksrc "$ksrc" \
	--out "$tmp/flaky-612" --expect kunit,mm,memcontrol --line 6.12 > "$tmp/flaky-612.out" 2>&1
check "memcg-flaky on the 6.12 line: counted as failed (the list is per line)" \
	test "$(tail -n1 "$tmp/flaky-612.out")" = "5 passed, 1 failed, 3 skipped"
check "--rerun-cases 7.3: the guest's MMSCALE_RERUN, section:case pairs" \
	test "$("$TOP/lab/py/report.py" --rerun-cases 7.3)" = "memcontrol:test_memcg_high_sync,memcontrol:test_memcg_max,memcontrol:test_memcg_min"
check "--rerun-cases 6.12: none" test -z "$("$TOP/lab/py/report.py" --rerun-cases 6.12)"
"$TOP/lab/py/report.py" --rerun-cases 7.x > "$tmp/rerun-bad.out" 2>&1
check "--rerun-cases of a bad line is refused: exit 2" test $? -eq 2
check "... with one ERROR line" has "$tmp/rerun-bad.out" '^ERROR: --rerun-cases: "7.x" is not a line'


done_testing
