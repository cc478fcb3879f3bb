#!/usr/bin/env bash
# tests/facts.t - the facts that several tools read are each in one file
# (issue 42, step 4): lab/lib/kernel-reports, and each line's
# patches/<line>/expected-failures and flaky, through lab/py/mmlab/facts.py.
# Needs: python3, grep.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$TOP/lab/lib
py=$TOP/lab/py
pats=$tmp/patterns
grep -v -e '^#' -e '^[[:space:]]*$' "$lib/kernel-reports" > "$pats"

check "kernel-reports: every pattern is an extended regex grep takes" \
	bash -c 'grep -qE -f "$1" /dev/null; [ $? -le 1 ]' _ "$pats"
# the same lines match for grep -E and for Python's re, on every recorded
# console log and on one line per pattern
{
	cat "$TOP"/tests/data/*.log
	printf '%s\n' '[ 1.0] BUG: KASAN: slab-use-after-free in f+0x1/0x2' '[ 2.0] WARNING: CPU: 0 PID: 1 at mm/x.c:1 f' \
		'Oops: general protection fault, probably for non-canonical address' 'int3: 0000 [#1] SMP' \
		'Kernel panic - not syncing: x' 'WARNING: possible circular locking dependency detected' \
		'watchdog: BUG: soft lockup - CPU#0 stuck for 22s!' 'rcu: INFO: rcu_preempt self-detected stall on CPU' \
		'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' 'INFO: task x:1 blocked for more than 120 seconds.' \
		'Call Trace:' 'an ordinary line' 'mmscale: kmem: ok 7 test_kmem_ptlock'
} > "$tmp/lines"
grep -anE -f "$pats" "$tmp/lines" | cut -d: -f1 > "$tmp/grep"
PYTHONPATH=$py python3 -c '
import sys
from mmlab import facts as labfacts
r = labfacts.kernel_report_re()
for n, l in enumerate(open(sys.argv[1], errors="replace"), 1):
    if r.search(l):
        print(n)' "$tmp/lines" > "$tmp/py"
check "kernel-reports: grep -E and Python match the same lines ($(wc -l < "$tmp/grep") of $(wc -l < "$tmp/lines"))" \
	cmp -s "$tmp/grep" "$tmp/py"
check "... and not an ordinary line" bash -c '! grep -qE -f "$1" <<< "mmscale: kmem: ok 7 test_kmem_ptlock"' _ "$pats"
# no script keeps a list of its own: no "BUG:" in an alternation outside
# lab/lib/kernel-reports
bad=$(grep -lE 'BUG:\||\|BUG:' "$TOP"/lab/*/*.sh "$TOP"/lab/*/*.py "$TOP"/lab/py/mmlab/*.py || true)
check "no lab script keeps its own kernel-report list${bad:+: $bad}" test -z "$bad"

# every line's case lists parse
for l in $LINES; do
	out=$(PYTHONPATH=$py python3 -c '
import sys
from mmlab import facts as labfacts
print(len(labfacts.expected_failures(sys.argv[1])), len(labfacts.flaky(sys.argv[1])))' "$l" 2>&1)
	check "patches/$l/expected-failures and flaky parse ($out)" grep -qE '^[0-9]+ [0-9]+$' <<< "$out"
done
# a line that does not parse is an error naming the file and the line
# fact_error KIND: the FactError of labfacts.KIND("9.9") under $tmp/top
fact_error() {
	PYTHONPATH=$py python3 -c '
import sys
from mmlab import facts as labfacts
labfacts.TOP = sys.argv[1]
try:
    getattr(labfacts, sys.argv[2])("9.9")
except labfacts.FactError as e:
    print(e)' "$tmp/top" "$1" 2>&1
}
mkdir -p "$tmp/top/patches/9.9"
printf '# a comment\nmemcontrol/test_x # fine\nmemcontrol test_y no slash\n' > "$tmp/top/patches/9.9/flaky"
check "a bad line of a case list names its file and line" \
	grep -qF 'patches/9.9/flaky:3: not "SECTION/CASE [values=REGEX] # reason": memcontrol test_y no slash' <<< "$(fact_error flaky)"
printf 'kmem/test_z values=( # a bad regex\n' > "$tmp/top/patches/9.9/expected-failures"
check "a values= that is not a regex is an error too" \
	grep -qF 'patches/9.9/expected-failures:1: values= is not a regex' <<< "$(fact_error expected_failures)"
# report.py refuses a line whose list does not parse, in one line
if [ -x "$LB/linux/tools/testing/kunit/kunit.py" ]; then
	cp -r "$TOP/lab" "$tmp/top/lab"
	rm -f "$tmp/top/patches/9.9/expected-failures"
	printf 'bad line\n' > "$tmp/top/patches/9.9/flaky"
	"$tmp/top/lab/py/report.py" --console "$TOP/tests/data/pass.log" --ksrc "$LB/linux" --out "$tmp/o" \
		--line 9.9 > "$tmp/r.out" 2>&1
	check "report.py with a bad case list: exit 2" test $? -eq 2
	check "... one ERROR line naming the file" has "$tmp/r.out" '^ERROR: .*patches/9.9/flaky:1: not "SECTION/CASE'
else
	skip "report.py with a bad case list" "no build/$_line/linux (make tree)"
fi

# a fragment that sets one line's options only is in configs/<line>/, and
# another line does not take it
frag() { BASE=$1 bash -c 'source "$1/lab/lib/common.sh"; want_fragments CONFIGS "$2"' _ "$TOP" "$2" > "$tmp/frag" 2>&1; }
for c in "$TOP"/configs/*/*.config; do
	l=$(basename "$(dirname "$c")") n=$(basename "$c" .config)
	frag "$l" "vm $n"
	check "configs/$l/$n.config: a fragment of the $l line" test $? -eq 0
	for o in $LINES; do
		[ "$o" != "$l" ] && [ ! -f "$TOP/configs/$n.config" ] && [ ! -f "$TOP/configs/$o/$n.config" ] || continue
		frag "$o" "vm $n"
		check "... and not of the $o line, in one line" refused "$tmp/frag" "no configs/$n.config or configs/$o/$n.config"
	done
done

done_testing
