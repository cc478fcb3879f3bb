#!/usr/bin/env bash
# tests/equiv.t - make equiv's front end: bad settings are refused with one
# line before any stage runs, good ones pass its --check, and the script
# parses.  (The run itself builds two debug kernels, which CI does not; it
# has not been run yet, see docs/stress.md.)
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
BOOT_TIMEOUT=3000 "$TOP/lab/equiv.sh" --check > "$tmp/o4" 2>&1
check "good settings pass the check" test $? -eq 0
"$TOP/lab/equiv.sh" extra > "$tmp/o5" 2>&1
check "an unknown argument is refused" has "$tmp/o5" "usage:"
check "lab/equiv.sh parses" bash -n "$TOP/lab/equiv.sh"
# boot.sh's userspace deadline (make stress uses it)
"$TOP/lab/boot.sh" -k /nonexistent -l "$tmp/log" -u abc > "$tmp/o6" 2>&1
check "boot.sh -u abc: refused" one_error "$tmp/o6" "-u takes seconds from 0 to 86400, not 'abc'"
UP_TIMEOUT=5 "$TOP/lab/stress.sh" --check > "$tmp/o7" 2>&1
check "make stress UP_TIMEOUT=5: refused" one_error "$tmp/o7" "UP_TIMEOUT must be a whole number from 60 to 86400, not '5'"
done_testing
