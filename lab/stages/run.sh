#!/usr/bin/env bash
# lab/stages/run.sh - the two front-door jobs: "make run" and "make check".
#
# Usage: lab/stages/run.sh run|check
#   The line is BASE's (default 7.3); what its boots run is the line's data
#   in patches/<line>/line.env (LINE_VMTESTS, LINE_CGROUP_TESTS,
#   LINE_SLAB_DEBUG_VMTESTS, LINE_BAD_BOOT_PARAMS).
#   run:   deps -> source -> tree (apply the series) -> build (configs in
#          CONFIGS, default lab/lib/common.sh's DEFAULT_CONFIGS) -> boot under
#          QEMU (KUnit at boot, then the line's mm selftest categories and
#          cgroup sections: test_memcontrol, test_memcg_stock,
#          test_kmem) -> a second boot with slab_debug=FZPU -> report.
#   check: the same, plus: "make export" on the fresh tree must write
#          patches/<line>/ again byte for byte, every patch through
#          scripts/checkpatch.pl --strict, the series' objects with the
#          options off equal to the base's and built with them on
#          (lab/stages/linecheck.sh export checkpatch compile), make deb's packaging of the kernel just built with a
#          boot of the package (lab/stages/deb.sh --package, --verify), the topic
#          checks (lab/stages/linecheck.sh topics: each topic applies alone,
#          forward == reverse, make mail's mbox round trip, kernel-doc,
#          MAINTAINERS, placeholders), every other line of LINES without a
#          boot (lab/stages/linecheck.sh all: its tree, export, checkpatch, topics
#          and a compile of the series' objects with the options off and
#          on; in the background while the kernel boots), and last the
#          lab's own tests (tests/*.t through lab/lib/prove.pl).
#   Each part's verdicts come from its result file (lab/lib/tap.sh).
# Environment: CONFIGS, KUNIT_FILTER (kunit.filter_glob), VMTESTS (mm
# selftest categories), BOOT_TIMEOUT (seconds), ACCEL (auto|kvm|tcg),
# ACCEL_PROBE (1: run the accelerator probe again, see lab/stages/boot.sh),
# LINUX_SRC (use your own tree of the line's kernel), SLAB_DEBUG_BOOT (1: a
# second boot with slab_debug=FZPU runs LINE_SLAB_DEBUG_VMTESTS; 0: skip it).  All of them are
# checked before the first stage (VMTESTS against the tree's run_vmtests.sh
# once the tree stage made it, before the build); a value it does not know
# ends it with one line.
# What it does at the end: prints stage times, the per-suite table, the
# kernel tests' skip count and last "N passed, N failed".
# What it needs: everything lab/stages/deps.sh installs.  Writes build/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

mode=${1:-run}
case $mode in run|check) ;; *) echo "usage: $0 run|check" >&2; exit 2 ;; esac
STAGE=$mode
# RUN_CONFIGS: the old name of CONFIGS (lab/lib/knobs.sh warns)
[ -z "${RUN_CONFIGS:-}" ] || [ -n "${CONFIGS+x}" ] || CONFIGS=$RUN_CONFIGS
CONFIGS=${CONFIGS:-$DEFAULT_CONFIGS}
# the line's boots (patches/<line>/line.env): mm categories, cgroup sections
VMTESTS=${VMTESTS:-$LINE_VMTESTS}
cgroup_csv=$(echo $LINE_CGROUP_TESTS | tr ' ' ,)
BOOT_TIMEOUT=${BOOT_TIMEOUT:-2400}
want_fragments "CONFIGS=$CONFIGS" "$CONFIGS"
want_vmtests
[ -z "${KUNIT_FILTER:-}" ] || [[ $KUNIT_FILTER =~ ^[][A-Za-z0-9_.*?-]+$ ]] ||
	die "KUNIT_FILTER must be a glob of suite (and .case) names, e.g. 'slub_test*', not '$KUNIT_FILTER'"
want_boot_settings
want_bool SLAB_DEBUG_BOOT FORCE
want_linux_src
name=$(kernel_name $CONFIGS)
O=$BUILD/$name
RUN_DIR=$BUILD/run-$name
mkdir -p "$BUILD"

timed deps "$LAB_DIR/stages/deps.sh"
# virtme-ng, for make shell and tests/shell.t: without it (sid out of
# reach) that test skips its boot, saying why, and nothing else changes
timed deps-vng bash -c '"$1" vng || echo "WARNING: no virtme-ng; tests/shell.t will skip make shell'"'"'s boot" >&2' _ "$LAB_DIR/stages/deps.sh"
timed source "$LAB_DIR/stages/source.sh"

timed tree "$LAB_DIR/stages/tree.sh"
# VMTESTS: categories the tree's run_vmtests.sh has (else it runs nothing
# for them, and says nothing)
STAGE=$mode
for c in $VMTESTS; do
	grep -q "CATEGORY=\"$c\"" "$TREE/tools/testing/selftests/mm/run_vmtests.sh" 2>/dev/null ||
		die "VMTESTS: run_vmtests.sh of $TREE has no category '$c'"
done

cp_pass=0 cp_fail=0 tp_pass=0 tp_fail=0 ol_pass=0 ol_fail=0
# linecheck WHAT LOG CMD...: run CMD (lab/stages/linecheck.sh and its checks,
# under env for another line) with its output in LOG and its result file
# next to it (LOG's .json), its verdicts shown indented; sets lc_pass and
# lc_fail from the result file.  A run that wrote none is a failure.
linecheck() {
	local what=$1 log=$2 res=${2%.log}.json
	shift 2
	echo "== $what =="
	rm -f "$res"
	# its progress lines ("[linecheck +Ns] ...") as it goes, the rest in LOG
	{ "$@" 2>&1 || true; } | tee "$log" | grep --line-buffered -E '^\[' | sed 's/^/  /' >&2 || true
	read -r lc_pass lc_fail < <(json_fields "$res" passed failed || echo 0 1)
	result_lines "$res"
	return 0
}
# Every other line, without a boot: its source and tree, export,
# checkpatch, topics and a compile of the series' objects with the options
# off (equal to its base) and on (lab/stages/linecheck.sh all).  Its folder:
# build/<line> next to this line's, or BUILD/line-<line> when BUILD was
# given.  They need no boot, so make check runs them in the background
# while this line's kernel boots (QEMU's TCG keeps one core busy): their
# output is shown, and their result files summed, when they are done.
other_lines() {
	local l b
	for l in $LINES; do
		[ "$l" != "$BASE" ] || continue
		b=$TOP/build/$l
		[ "$BUILD" = "$TOP/build/$BASE" ] || b=$BUILD/line-$l
		linecheck "line $l (no boot): tree, export, checkpatch, topics, compile" \
			"$BUILD/linecheck-$l.log" env -u TREE -u PATCHES -u LOGS -u MAIL_REPORT \
			BASE="$l" BUILD="$b" "$LAB_DIR/stages/linecheck.sh" --result "$BUILD/linecheck-$l.json" all
	done
}
ol_pid=
other_lines_start() {
	local l
	for l in $LINES; do rm -f "$BUILD/linecheck-$l.json"; done
	# a process group of its own (set -m), so that one kill stops it all
	set -m
	other_lines > "$BUILD/other-lines.out" 2>&1 &
	ol_pid=$!
	set +m
	say "the other lines' checks run in the background (output: $BUILD/other-lines.out)"
}
other_lines_wait() {
	local l p f rc=0
	wait "$ol_pid" || rc=$?
	ol_pid=
	cat "$BUILD/other-lines.out"
	[ "$rc" = 0 ] || ol_fail=$((ol_fail + 1))
	for l in $LINES; do
		[ "$l" != "$BASE" ] || continue
		read -r p f < <(json_fields "$BUILD/linecheck-$l.json" passed failed || echo 0 1)
		ol_pass=$((ol_pass + p)) ol_fail=$((ol_fail + f))
	done
	return 0
}
# a make check that stops early stops them too
trap '[ -z "$ol_pid" ] || kill -- -"$ol_pid" 2> /dev/null || true' EXIT

if [ "$mode" = check ]; then
	# make export on the fresh tree must leave patches/<line> unchanged;
	# every patch through checkpatch.pl --strict; the series' objects
	# with the options off equal to the base's (lab/stages/objdiff.sh vm), and
	# with them on
	own_static() {
		linecheck "$BASE: export, checkpatch --strict, compile" "$BUILD/linecheck.log" \
			"$LAB_DIR/stages/linecheck.sh" --result "$BUILD/linecheck.json" export checkpatch compile
		cp_pass=$lc_pass cp_fail=$lc_fail
	}
	timed "export, checkpatch, compile" own_static
fi

timed "build $name" "$LAB_DIR/stages/build.sh" $CONFIGS
[ "$mode" != check ] || other_lines_start
lab_pass=0 lab_fail=0

# the cases the guest runs their section again for when they fail (known
# to fail now and then on the line's base: lab/py/report.py's FLAKY)
rerun=$("$LAB_DIR/py/report.py" --rerun-cases "$BASE") || die "lab/py/report.py --rerun-cases $BASE failed"
boot() {
	rm -rf "$RUN_DIR"
	mkdir -p "$RUN_DIR"
	# what make mail checks before it quotes this run's report: the tree
	# that was built, and how the guest booted (boot.out)
	git -C "$TREE" rev-parse 'HEAD^{tree}' > "$RUN_DIR/tree.txt"
	"$LAB_DIR/stages/boot.sh" -k "$O/arch/x86/boot/bzImage" -l "$RUN_DIR/console.log" \
		-M "$O/modroot" -p "$LAB_DIR/guest/tests.sh" -t "$BOOT_TIMEOUT" \
		-a "kunit.enable=1${KUNIT_FILTER:+ kunit.filter_glob=$KUNIT_FILTER}" \
		-- MMSCALE_KST="$O/kselftest_install" MMSCALE_VMTESTS="$(echo $VMTESTS | tr ' ' ,)" \
		MMSCALE_CGROUP="${cgroup_csv:-none}" MMSCALE_RERUN="$rerun" 2>&1 |
		tee "$RUN_DIR/boot.out"
}
timed boot boot
# A second, short boot with every slab cache in debug mode (slab_debug=FZPU:
# consistency checks, red zones, poisoning, owner tracking) runs the line's
# LINE_SLAB_DEBUG_VMTESTS again (6.12: the slub selftest, whose lockless
# counters must then stay still; 7.3: none, the boot-params section only):
# SLUB checks every free and every cache it validates.  Where the line has boot parameters, the same boot
# gives each of them bad values (LINE_BAD_BOOT_PARAMS: not a bool, not a
# policy, not a number, empty, negative, too large, out of range): each
# must be warned once and leave the default, which is also what the
# selftest then runs with (section boot-params, lab/guest/bootparams.sh,
# which also writes bad values to the sysctl and a SLUB_STATS file).
slab_debug_expect=${LINE_SLAB_DEBUG_VMTESTS:+mm-slab-debug}
[ -z "$LINE_BAD_BOOT_PARAMS" ] || slab_debug_expect+=${slab_debug_expect:+,}boot-params
boot_slab_debug() {
	mkdir -p "$RUN_DIR/slab-debug"
	"$LAB_DIR/stages/boot.sh" -k "$O/arch/x86/boot/bzImage" -l "$RUN_DIR/slab-debug/console.log" \
		-M "$O/modroot" -p "$LAB_DIR/guest/tests.sh" -t "$BOOT_TIMEOUT" \
		-a "slab_debug=FZPU${LINE_BAD_BOOT_PARAMS:+ $LINE_BAD_BOOT_PARAMS}" \
		-- MMSCALE_KST="$O/kselftest_install" MMSCALE_VMTESTS="$(echo $LINE_SLAB_DEBUG_VMTESTS | tr ' ' ,)" \
		MMSCALE_MM_SECTION=mm-slab-debug MMSCALE_CGROUP=none SLUB_FREE_STATS_LOOPS=10 \
		MMSCALE_BOOTPARAMS=$([ -n "$LINE_BAD_BOOT_PARAMS" ] && echo 1 || echo 0) MMSCALE_LAB="$LAB_DIR"
}
if [ "${SLAB_DEBUG_BOOT:-1}" = 1 ] && [ -n "$slab_debug_expect" ]; then
	timed boot-slab-debug boot_slab_debug
fi

report_rc=0
# report: the per-suite tables.  A failed suite is counted (report_rc),
# not fatal: the topics still run, so report() returns 0.
report() {
	STAGE=report
	echo "== results: $RUN_DIR =="
	rm -f "$RUN_DIR/result.json" "$RUN_DIR/slab-debug/result.json"
	"$LAB_DIR/py/report.py" --console "$RUN_DIR/console.log" --ksrc "$TREE" --line "$BASE" --out "$RUN_DIR" \
		--expect "kunit,mm${cgroup_csv:+,$cgroup_csv}" > "$RUN_DIR/report.txt" || report_rc=$?
	sed '$d' "$RUN_DIR/report.txt"
	read -r k_pass k_fail k_skip < <(json_fields "$RUN_DIR/result.json" passed failed skipped ||
		echo 0 1 0)
	if [ "${SLAB_DEBUG_BOOT:-1}" = 1 ] && [ -n "$slab_debug_expect" ]; then
		echo "== results, slab_debug=FZPU boot: $RUN_DIR/slab-debug =="
		"$LAB_DIR/py/report.py" --console "$RUN_DIR/slab-debug/console.log" --ksrc "$TREE" --line "$BASE" \
			--out "$RUN_DIR/slab-debug" --expect "$slab_debug_expect" > "$RUN_DIR/slab-debug/report.txt" || report_rc=$?
		sed '$d' "$RUN_DIR/slab-debug/report.txt"
		read -r p2 f2 s2 < <(json_fields "$RUN_DIR/slab-debug/result.json" passed failed skipped ||
			echo 0 1 0)
		k_pass=$((k_pass + p2)) k_fail=$((k_fail + f2)) k_skip=$((k_skip + s2))
	fi
	return 0
}
timed report report
dp_pass=0 dp_fail=0
if [ "$mode" = check ]; then
	# make deb's packaging on the kernel just built (make bindeb-pkg only
	# packages it), then a boot of the package's own vmlinuz and modules:
	# its release, /proc/config.gz has the series' options, a module
	# loads, and kunit.py parse of the KUnit run at boot
	deb_check() {
		local log=$RUN_DIR/deb/deb.log res=$RUN_DIR/deb/boot/result.json img=
		echo "== package (lab/stages/deb.sh --package, --verify) =="
		rm -rf "$RUN_DIR/deb"
		mkdir -p "$RUN_DIR/deb"
		if "$LAB_DIR/stages/deb.sh" --package "$TREE" "$O" "$RUN_DIR/deb/pkg" > "$log" 2>&1; then
			img=$(find "$RUN_DIR/deb/pkg" -maxdepth 1 -name 'linux-image-*.deb' ! -name '*-dbg_*' | head -n1)
		fi
		if [ -n "$img" ]; then
			dp_pass=1
			echo "  ok - make bindeb-pkg: $(cd "$RUN_DIR/deb/pkg" && ls ./*.deb | sed 's|^\./||' | tr '\n' ' ')"
			BOOT_TIMEOUT=$BOOT_TIMEOUT "$LAB_DIR/stages/deb.sh" --verify "$img" "$RUN_DIR/deb/boot" >> "$log" 2>&1 || true
			read -r p f < <(json_fields "$res" passed failed || echo 0 1)
			dp_pass=$((dp_pass + p)) dp_fail=$f
			result_lines "$res"
		else
			dp_fail=1
			echo "  not ok - make bindeb-pkg (log: $log)"
		fi
		return 0
	}
	timed deb deb_check
	# The topics as postings: each applies alone, forward == reverse ==
	# build/linux, no new kernel-doc warning, MAINTAINERS covers the new
	# files, a make mail posting of each topic (a check identity, its own
	# folder, quoting the report just made) git am's back to the same
	# tree, and no placeholder text (lab/stages/linecheck.sh topics: lab/stages/mail.sh,
	# lab/stages/topics.sh).
	topics_checks() {
		linecheck "$BASE: topics (lab/stages/topics.sh, lab/stages/mail.sh)" "$BUILD/topics-check.log" \
			env MAIL_REPORT="$RUN_DIR" "$LAB_DIR/stages/linecheck.sh" --result "$BUILD/topics-check.json" topics
		tp_pass=$lc_pass tp_fail=$lc_fail
	}
	timed topics topics_checks
	# every other line's checks, started beside the boots (above)
	timed "other lines (wait)" other_lines_wait
	# the lab's own tests, last: a broken patch stops the tree stage, bad
	# inputs give clear errors (the hang case and make shell boot the
	# kernel just built), the report code on recorded console logs through
	# each line's kunit.py (both lines' trees are there by now)
	lab_tests() {
		local out=$BUILD/lab-tests.log res=$BUILD/lab-tests.json
		echo "== lab self-tests (prove tests/) =="
		rm -f "$res"
		"$LAB_DIR/lib/prove.pl" "$out" "$res" "$TOP"/tests/*.t || true
		read -r lab_pass lab_fail < <(json_fields "$res" passed failed || echo 0 1)
		return 0
	}
	timed lab-tests lab_tests
fi
print_times

echo "== logs =="
echo "  console:  $RUN_DIR/console.log"
echo "  build:    $O/build.log"
echo "  results:  $RUN_DIR/summary.txt"
if [ "$mode" = check ]; then
	echo "== summary =="
	printf '  %-34s %d passed, %d failed\n' "lab self-tests (tests/)" "$lab_pass" "$lab_fail"
	printf '  %-34s %d passed, %d failed\n' "export, checkpatch, compile" "$cp_pass" "$cp_fail"
	printf '  %-34s %d passed, %d failed\n' "topics: apply, mbox, kernel-doc" "$tp_pass" "$tp_fail"
	printf '  %-34s %d passed, %d failed\n' "other lines: $(echo " $LINES " | sed "s/ $BASE / /" | xargs)" "$ol_pass" "$ol_fail"
	printf '  %-34s %d passed, %d failed\n' "package: bindeb-pkg, boot it" "$dp_pass" "$dp_fail"
	printf '  %-34s %d passed, %d failed, %d skipped\n' "kernel: KUnit + selftests" "$k_pass" "$k_fail" "$k_skip"
fi
total_pass=$((k_pass + lab_pass + cp_pass + tp_pass + dp_pass + ol_pass))
total_fail=$((k_fail + lab_fail + cp_fail + tp_fail + dp_fail + ol_fail))
echo "$k_skip skipped (kernel tests, with their reasons above)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ] && [ "$report_rc" = 0 ]
