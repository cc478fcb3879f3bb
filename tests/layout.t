#!/usr/bin/env bash
# tests/layout.t - make layout's front end: bad settings are refused with
# one line before anything is built; good ones pass its --check.  (The
# layouts it measured are in docs/results.md.)
# make layout is the 6.12 line's (the stock it measures), so BASE=6.12.
# Needs: bash, make, gdb.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one_error() { [ "$(grep -c '^ERROR:' "$1")" = 1 ] && has "$1" "$2"; }

BASE=6.12 LAYOUT_N="4 17" make -s -C "$TOP" layout > "$tmp/o1" 2>&1
check "LAYOUT_N with 17: refused" one_error "$tmp/o1" "LAYOUT_N: '17' is not a slot count from 1 to 16"
BASE=6.12 LAYOUT_CONFIGS="vm-nosuch" make -s -C "$TOP" layout > "$tmp/o2" 2>&1
check "LAYOUT_CONFIGS naming no fragment: refused" one_error "$tmp/o2" "no configs/nosuch.config"
BASE=6.12 LAYOUT_N="1 7" "$TOP/lab/stages/layout.sh" --check > "$tmp/o3" 2>&1
check "good settings pass the check" test $? -eq 0
check "lab/stages/layout.sh parses" bash -n "$TOP/lab/stages/layout.sh"
done_testing
