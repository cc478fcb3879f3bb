#!/usr/bin/env bash
# lab/stages/equiv.sh - "make equiv": with every option of the series off, the
# patched kernel gives the upstream tests the same results as Linux 6.12.
#
# Usage: lab/stages/equiv.sh [--check]      (make equiv)
#        lab/stages/equiv.sh --compare DIR  the comparison again, from the
#                                    reports (*.json) a run left in
#                                    DIR/base and DIR/head; builds and
#                                    boots nothing
#   BOOT_TIMEOUT (seconds per boot; default 2400), ACCEL (as make run),
#   LINUX_SRC (your own 6.12.y tree), VMTESTS (mm selftest categories;
#   default make check's upstream ones: those the base kernel has)
# What it does: deps, source and tree as make run; then two kernels with
# the same debug configuration (configs vm + debug: KASAN, lockdep,
# DEBUG_VM, KFENCE; no mmscale.config, and head turns every option of the
# series off; on 6.12 MEMCG_NR_STOCK is 1):
#   base  build/base/vm-debug: the pristine base (patches/BASE), no series;
#   head  build/vm-debug-off: build/linux, the whole series applied, with
#         configs "off" (every option of LINE_OPTIONS off; some default y).
# The head's .config is checked to have every option of the series off.
# Both boot at the same time (two guests, on the accelerator make run would
# use: single-threaded TCG where KVM hangs, as here), each with
# its own tree's kselftests, and run what make check runs: KUnit at boot
# (the upstream suites: the series' own are off with their options), the
# mm selftests (VMTESTS), test_memcontrol and test_kmem.  lab/py/report.py
# turns each console into kunit.py JSON; every case becomes a line
# "section: suite.case: VERDICT", and diff -u of base's lines against
# head's must be empty.  Sections only one side has (test_memcg_stock, the
# series' own selftest, is head only, and fails on base for want of the
# binary) are listed, not compared; any other one-sided section (a report
# that could not be parsed on one side) fails the run.  Prints each
# stage's time.
# Not part of make check: it is two more debug kernels and two long boots.
# The second build gets almost no ccache hits from the first: the
# series' options change include/generated/autoconf.h (for one,
# CONFIG_MEMCG_NR_STOCK 1 is defined), which every object includes
# (measured 2026-12-01: 1060 s and 1183 s, -j2).
# What it needs: what make run needs.  Writes build/base/vm-debug,
# build/vm-debug-off and build/equiv/<time>/ (console logs, reports, the case
# lists, diff.txt, summary.txt).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

stage equiv
BOOT_TIMEOUT=${BOOT_TIMEOUT:-2400}
VMTESTS=${VMTESTS:-mmap mremap mlock madv_populate mkdirty mdwe soft_dirty pagemap process_mrelease gup_test vmalloc}
want_vmtests
# case_lines DIR: one line per case of the kunit.py JSON files in DIR,
# "section: group.case: VERDICT"
case_lines() {
	python3 - "$1" <<'EOF'
import glob, json, os, sys
def walk(sec, g, path):
    name = path + [g['name']] if g.get('name') else path
    for c in g.get('test_cases', []):
        print('%s: %s: %s' % (sec, '.'.join(name + [c['name']]), c['status']))
    for sub in g.get('sub_groups', []):
        walk(sec, sub, name)
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    try:
        walk(os.path.basename(f)[:-5], json.load(open(f)), [])
    except (OSError, ValueError) as e:
        print('%s: unreadable: %s' % (os.path.basename(f)[:-5], e))
EOF
}

# compare OUT TITLE: base's cases against head's (OUT/base/*.json,
# OUT/head/*.json); writes OUT/summary.txt, prints it and the verdict
# line, and exits 1 unless the diff is empty, base had cases, and no
# section but memcg-stock is on one side only
compare() {
	local out=$1 title=$2 common only unexpected x rc=0
	case_lines "$out/base" > "$out/base.cases"
	case_lines "$out/head" > "$out/head.cases"
	cut -d: -f1 "$out/base.cases" | sort -u > "$out/base.sections"
	cut -d: -f1 "$out/head.cases" | sort -u > "$out/head.sections"
	common=$(comm -12 "$out/base.sections" "$out/head.sections")
	only=$(comm -3 "$out/base.sections" "$out/head.sections" | tr -d '\t' | tr '\n' ' ')
	only=${only% }
	# the series' own selftest is the only section one side may lack
	unexpected=
	for x in $only; do
		[ "$x" = memcg-stock ] || unexpected+="${unexpected:+ }$x"
	done
	pick() { grep -E "^($(echo $common | tr ' ' '|')): " "$1" | LC_ALL=C sort || true; }
	pick "$out/base.cases" > "$out/base.compared"
	pick "$out/head.cases" > "$out/head.compared"
	diff -u --label base --label head "$out/base.compared" "$out/head.compared" > "$out/diff.txt" || rc=$?
	{
		echo "make equiv: $title"
		echo "compared: $(wc -l < "$out/base.compared") cases of base, $(wc -l < "$out/head.compared") of head, in sections: $(echo $common)"
		for s in base head; do
			echo "$s: $(sed 's/.*: //' "$out/$s.compared" | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')"
		done
		echo "sections on one side only (not compared): ${only:-none}${unexpected:+; unexpected, a failure: $unexpected}"
		echo "== diff -u base head ($(wc -l < "$out/diff.txt") lines; empty is the pass) =="
		cat "$out/diff.txt"
		print_times
	} > "$out/summary.txt"
	cat "$out/summary.txt"
	say "results in $out"
	if [ "$rc" = 0 ] && [ -s "$out/base.compared" ] && [ -z "$unexpected" ]; then
		echo "1 passed, 0 failed"
	else
		[ -s "$out/base.compared" ] || say "no case of base was read: see $out/base/report.txt"
		echo "0 passed, 1 failed"
		exit 1
	fi
}

if [ "${1:-}" = --compare ]; then
	[ $# = 2 ] && [ -d "$2/base" ] && [ -d "$2/head" ] ||
		die "--compare DIR: DIR must hold base/ and head/ of a make equiv run (build/equiv/<time>)"
	compare "${2%/}" "the reports in ${2%/} again (lab/stages/equiv.sh --compare)"
	exit 0
fi
want_boot_settings
want_linux_src
[ "${1:-}" != --check ] || exit 0
[ $# = 0 ] || die "usage: $0 [--check | --compare DIR]"

timed deps "$LAB_DIR/stages/deps.sh"
timed source "$LAB_DIR/stages/source.sh"
timed tree "$LAB_DIR/stages/tree.sh"
stage equiv
base_tree=$(base_tree_ready) || exit 1
for c in $VMTESTS; do
	for t in "$TREE" "$base_tree"; do
		grep -q "CATEGORY=\"$c\"" "$t/tools/testing/selftests/mm/run_vmtests.sh" ||
			die "VMTESTS: run_vmtests.sh of $t has no category '$c'"
	done
done
timed "build base" env KSRC="$base_tree" NAME=base/vm-debug "$LAB_DIR/stages/build.sh" vm debug
timed "build head" env NAME=vm-debug-off "$LAB_DIR/stages/build.sh" vm debug off
stage equiv
B=$BUILD/base/vm-debug H=$BUILD/vm-debug-off
# every option of the series off in head: the series' symbols are the
# Kconfig lines its patches add
opts=$(git -C "$TREE" diff "$BASE_TAG" -- '*Kconfig*' | sed -n 's/^+config \([A-Z0-9_]*\).*/\1/p' | sort -u)
[ -n "$opts" ] || die "found no Kconfig option added by the series (git diff $BASE_TAG in $TREE)"
for o in $opts; do
	v=$(sed -n "s/^CONFIG_$o=//p" "$H/.config")
	case $o:$v in
	*:|MEMCG_NR_STOCK:1) ;;
	*) die "head's .config has CONFIG_$o=$v: make equiv needs every option of the series off" ;;
	esac
done
say "head: the series' $(echo $opts | wc -w) options are off ($(echo $opts))"

out=$(new_dir "$BUILD/equiv/$(date +%Y%m%d-%H%M%S)") || die "could not make a folder under $BUILD/equiv"
# boot_side NAME OBJ: the make check boot of one kernel, into $out/NAME
boot_side() {
	mkdir -p "$out/$1"
	STAGE="equiv $1" "$LAB_DIR/stages/boot.sh" -k "$2/arch/x86/boot/bzImage" -l "$out/$1/console.log" \
		-M "$2/modroot" -p "$LAB_DIR/guest/tests.sh" -t "$BOOT_TIMEOUT" -a "kunit.enable=1" \
		-- MMSCALE_KST="$2/kselftest_install" MMSCALE_VMTESTS="$(echo $VMTESTS | tr ' ' ,)" \
		MMSCALE_RERUN="$rerun" > "$out/$1/boot.out" 2>&1
}
# the cases the guest reruns when they fail, on both sides (lab/py/report.py's FLAKY)
rerun=$("$LAB_DIR/py/report.py" --rerun-cases "$BASE") || die "lab/py/report.py --rerun-cases $BASE failed"
both_boots() {
	local pb ph rb=0 rh=0
	say "booting base and head at once (logs: $out/base/console.log, $out/head/console.log)"
	boot_side base "$B" & pb=$!
	boot_side head "$H" & ph=$!
	while kill -0 "$pb" 2> /dev/null || kill -0 "$ph" 2> /dev/null; do
		sleep 60
		say "base: $(grep -c '^mmscale: begin' "$out/base/console.log" 2> /dev/null || true) sections begun; head: $(grep -c '^mmscale: begin' "$out/head/console.log" 2> /dev/null || true)"
	done
	wait "$pb" || rb=$?
	wait "$ph" || rh=$?
	[ "$rb" = 0 ] || say "base boot failed: $(json_fields "$out/base/console.boot.json" reason || echo "no boot record")"
	[ "$rh" = 0 ] || say "head boot failed: $(json_fields "$out/head/console.boot.json" reason || echo "no boot record")"
	[ "$rb" = 0 ] && [ "$rh" = 0 ]
}
timed boots both_boots
stage equiv
for s in base head; do
	t=$([ $s = base ] && echo "$base_tree" || echo "$TREE")
	"$LAB_DIR/py/report.py" --console "$out/$s/console.log" --ksrc "$t" --line "$BASE" --out "$out/$s" \
		--expect kunit,mm,memcontrol,kmem > "$out/$s/report.txt" || true
done
compare "$out" "base $(git -C "$base_tree" describe --tags 2>/dev/null || echo "$BASE_TAG") against head $(git -C "$TREE" rev-parse --short=12 HEAD) (series applied, its options off), configs vm + debug"
