#!/usr/bin/env bash
# tests/equiv.t - make equiv's front end: bad settings are refused with one
# line before any stage runs, good ones pass its --check, and the script
# parses; and its comparison (lab/stages/equiv.sh --compare) on made-up kunit.py
# JSON: equal verdicts pass, a changed verdict or an unexpected one-sided
# section fails.  (The run itself builds two debug kernels, which CI does
# not; its result is in docs/results.md.)
# Needs: bash, make.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one_error() { [ "$(grep -c '^ERROR:' "$1")" = 1 ] && has "$1" "$2"; }

VMTESTS="mmap ../x" make -s -C "$TOP" equiv > "$tmp/o1" 2>&1
check "VMTESTS with a path: refused" one_error "$tmp/o1" "VMTESTS: '../x' is not a run_vmtests.sh category name"
BOOT_TIMEOUT=0 make -s -C "$TOP" equiv > "$tmp/o2" 2>&1
check "BOOT_TIMEOUT=0: refused" one_error "$tmp/o2" "BOOT_TIMEOUT must be a whole number from 1 to 86400, not '0'"
ACCEL=mttcg make -s -C "$TOP" equiv > "$tmp/o3" 2>&1
check "ACCEL=mttcg: refused (make equiv compares single-threaded boots)" one_error "$tmp/o3" "ACCEL must be"
BOOT_TIMEOUT=3000 "$TOP/lab/stages/equiv.sh" --check > "$tmp/o4" 2>&1
check "good settings pass the check" test $? -eq 0
"$TOP/lab/stages/equiv.sh" extra > "$tmp/o5" 2>&1
check "an unknown argument is refused" has "$tmp/o5" "usage:"
check "lab/stages/equiv.sh parses" bash -n "$TOP/lab/stages/equiv.sh"
# boot.sh's userspace deadline (make stress uses it)
"$TOP/lab/stages/boot.sh" -k /nonexistent -l "$tmp/log" -u abc > "$tmp/o6" 2>&1
check "boot.sh -u abc: refused" one_error "$tmp/o6" "-u takes seconds from 0 to 86400, not 'abc'"
UP_TIMEOUT=5 "$TOP/lab/stages/stress.sh" --check > "$tmp/o7" 2>&1
check "make stress UP_TIMEOUT=5: refused" one_error "$tmp/o7" "UP_TIMEOUT must be a whole number from 60 to 86400, not '5'"
# --compare DIR on made-up reports
# json NAME CASE:STATUS...: a kunit.py JSON with those cases
json() {
	local f=$1 c sep=
	shift
	{
		printf '{"name": "", "test_cases": [], "sub_groups": [{"name": "s", "sub_groups": [], "test_cases": ['
		for c in "$@"; do
			printf '%s{"name": "%s", "status": "%s"}' "$sep" "${c%%:*}" "${c#*:}"
			sep=', '
		done
		printf ']}]}\n'
	} > "$f"
}
mk() { rm -rf "$tmp/$1"; mkdir -p "$tmp/$1/base" "$tmp/$1/head"; }
mk same
json "$tmp/same/base/mm.json" a:SUCCESS b:FAILURE
json "$tmp/same/head/mm.json" a:SUCCESS b:FAILURE
json "$tmp/same/head/memcg-stock.json" x:SUCCESS
"$TOP/lab/stages/equiv.sh" --compare "$tmp/same" > "$tmp/c1" 2>&1
check "--compare: equal verdicts pass" test $? -eq 0
check "... and say so" has "$tmp/c1" '^1 passed, 0 failed$'
check "... memcg-stock on head only is listed, not a failure" has "$tmp/c1" '^sections on one side only \(not compared\): memcg-stock$'
check "... the verdicts are counted" has "$tmp/c1" '^base: 1 FAILURE, 1 SUCCESS$'
mk changed
json "$tmp/changed/base/mm.json" a:SUCCESS b:SUCCESS
json "$tmp/changed/head/mm.json" a:SUCCESS b:FAILURE
"$TOP/lab/stages/equiv.sh" --compare "$tmp/changed" > "$tmp/c2" 2>&1
check "--compare: a changed verdict fails" test $? -eq 1
check "... and the diff shows it" has "$tmp/c2" '^\+mm: s\.b: FAILURE$'
mk onesided
json "$tmp/onesided/base/mm.json" a:SUCCESS
json "$tmp/onesided/head/mm.json" a:SUCCESS
json "$tmp/onesided/base/kmem.json" k:SUCCESS
"$TOP/lab/stages/equiv.sh" --compare "$tmp/onesided" > "$tmp/c3" 2>&1
check "--compare: a section on one side only, not memcg-stock, fails" test $? -eq 1
check "... named" has "$tmp/c3" 'unexpected, a failure: kmem$'
"$TOP/lab/stages/equiv.sh" --compare "$tmp/nowhere" > "$tmp/c4" 2>&1
check "--compare with no run folder: refused" one_error "$tmp/c4" "--compare DIR: DIR must hold base/ and head/"
done_testing
