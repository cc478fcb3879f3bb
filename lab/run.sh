#!/usr/bin/env bash
# lab/run.sh - the two front-door jobs: "make run" and "make check".
#
# Usage: lab/run.sh run|check
#   run:   deps -> source -> tree (apply the series) -> build (configs in
#          RUN_CONFIGS, default lab/common.sh's DEFAULT_CONFIGS) -> boot under QEMU (KUnit at boot,
#          then mm selftests, test_memcontrol, test_memcg_stock and
#          test_kmem) -> report.
#   check: the same, plus: the lab's own tests (tests/*.t with prove), every
#          patch through scripts/checkpatch.pl --strict, "make export" on
#          the fresh tree must leave patches/ unchanged, and the topic
#          checks (lab/topics.sh: each topic applies alone, forward ==
#          reverse, make mail's mbox round trip, kernel-doc, placeholders),
#          and make deb's packaging of the kernel just built, with a boot
#          of the package (lab/deb.sh --package, --verify).
# Environment: RUN_CONFIGS, KUNIT_FILTER (kunit.filter_glob), VMTESTS (mm
# selftest categories), BOOT_TIMEOUT (seconds), ACCEL (auto|kvm|tcg),
# ACCEL_PROBE (1: run the accelerator probe again, see lab/boot.sh),
# LINUX_SRC (use your own 6.12.y tree), SLAB_DEBUG_BOOT (1: a second boot
# with slab_debug=FZPU runs the slub selftest; 0: skip it).  All of them are
# checked before the first stage (VMTESTS against the tree's run_vmtests.sh
# once the tree stage made it, before the build); a value it does not know
# ends it with one line.
# What it does at the end: prints stage times, the per-suite table and the
# final "N passed, N failed, N skipped" line.
# What it needs: everything lab/deps.sh installs.  Writes build/.
set -euo pipefail
source "$(dirname "$0")/common.sh"

mode=${1:-run}
case $mode in run|check) ;; *) echo "usage: $0 run|check" >&2; exit 2 ;; esac
STAGE=$mode
RUN_CONFIGS=${RUN_CONFIGS:-$DEFAULT_CONFIGS}
VMTESTS=${VMTESTS:-mmap mremap mlock madv_populate mkdirty mdwe soft_dirty pagemap process_mrelease gup_test vmalloc vmalloc_sysctl ptlock slub}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-2400}
want_fragments "RUN_CONFIGS=$RUN_CONFIGS" "$RUN_CONFIGS"
for c in $VMTESTS; do
	[[ $c =~ ^[a-z0-9_]+$ ]] || die "VMTESTS: '$c' is not a run_vmtests.sh category name"
done
[ -z "${KUNIT_FILTER:-}" ] || [[ $KUNIT_FILTER =~ ^[][A-Za-z0-9_.*?-]+$ ]] ||
	die "KUNIT_FILTER must be a glob of suite (and .case) names, e.g. 'slub_test*', not '$KUNIT_FILTER'"
want_boot_settings
want_bool SLAB_DEBUG_BOOT FORCE
want_linux_src
name=$(echo $RUN_CONFIGS | tr " " -)
O=$BUILD/$name
RUN_DIR=$BUILD/run-$name
mkdir -p "$BUILD"

times=()
t_all=$(date +%s)
# timed NAME CMD...: run one stage and remember how long it took
timed() {
	local what=$1 t0 rc=0
	shift
	t0=$(date +%s)
	"$@" || rc=$?
	times+=("$(printf '%-28s %5ds' "$what" $(($(date +%s) - t0)))")
	if [ "$rc" != 0 ]; then
		print_times
		exit "$rc"
	fi
}
print_times() {
	echo "== stage times =="
	printf '  %s\n' "${times[@]}"
	printf '  %-28s %5ds\n' total $(($(date +%s) - t_all))
}

timed deps "$LAB_DIR/deps.sh"
timed source "$LAB_DIR/source.sh"

timed tree "$LAB_DIR/tree.sh"
# VMTESTS: categories the tree's run_vmtests.sh has (else it runs nothing
# for them, and says nothing)
STAGE=$mode
for c in $VMTESTS; do
	grep -q "CATEGORY=\"$c\"" "$TREE/tools/testing/selftests/mm/run_vmtests.sh" 2>/dev/null ||
		die "VMTESTS: run_vmtests.sh of $TREE has no category '$c'"
done

cp_pass=0 cp_fail=0 tp_pass=0 tp_fail=0
if [ "$mode" = check ]; then
	export_clean() {
		stage export
		"$LAB_DIR/export.sh"
		if [ -n "$(git -C "$TOP" status --porcelain -- patches)" ]; then
			git -C "$TOP" status --short -- patches >&2
			die "make export on a fresh tree changed patches/ (not reproducible)"
		fi
		say "patches/ unchanged by export"
	}
	timed export-check export_clean
	checkpatch() {
		local p log=$BUILD/checkpatch.log
		stage checkpatch
		: > "$log"
		read_topics
		while read -r p; do
			[ -n "$p" ] || continue
			# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is
			# checked for real by lab/topics.sh maintainers below.
			if (cd "$TREE" && scripts/checkpatch.pl --strict --no-tree -q \
				--ignore FILE_PATH_CHANGES "$PATCHES/$p") >> "$log" 2>&1; then
				cp_pass=$((cp_pass + 1))
				say "clean: $p"
			else
				cp_fail=$((cp_fail + 1))
				say "NOT clean: $p (log: $log)"
			fi
		done < <(for t in "${TOPICS[@]}"; do series_lines "$PATCHES/$t/series" | sed "s|^|$t/|"; done)
		say "$cp_pass clean, $cp_fail not clean"
	}
	timed checkpatch checkpatch
fi

timed "build $name" "$LAB_DIR/build.sh" $RUN_CONFIGS
lab_pass=0 lab_fail=0
if [ "$mode" = check ]; then
	# the lab's own tests: a broken patch stops the tree stage, bad inputs
	# give clear errors (the hang case boots the kernel just built), the
	# report code on recorded console logs
	lab_tests() {
		local out=$BUILD/lab-tests.log rc=0
		echo "== lab self-tests (prove tests/) =="
		prove -v "$TOP"/tests/*.t > "$out" 2>&1 || rc=$?
		grep -E '^(not )?ok |^tests/|^Result|^Files' "$out" | sed 's/^/  /'
		lab_pass=$(grep -cE '^ok ' "$out" || true)
		lab_fail=$(grep -cE '^not ok ' "$out" || true)
		[ "$rc" = 0 ] || { [ "$lab_fail" -gt 0 ] || lab_fail=1; }
		return 0
	}
	timed lab-tests lab_tests
fi

boot() {
	rm -rf "$RUN_DIR"
	mkdir -p "$RUN_DIR"
	# what make mail checks before it quotes this run's report: the tree
	# that was built, and how the guest booted (boot.out)
	git -C "$TREE" rev-parse 'HEAD^{tree}' > "$RUN_DIR/tree.txt"
	"$LAB_DIR/boot.sh" -k "$O/arch/x86/boot/bzImage" -l "$RUN_DIR/console.log" \
		-M "$O/modroot" -p "$LAB_DIR/guest-tests.sh" -t "$BOOT_TIMEOUT" \
		-a "kunit.enable=1${KUNIT_FILTER:+ kunit.filter_glob=$KUNIT_FILTER}" \
		-- MMSCALE_KST="$O/kselftest_install" MMSCALE_VMTESTS="$(echo $VMTESTS | tr ' ' ,)" 2>&1 |
		tee "$RUN_DIR/boot.out"
}
timed boot boot
# A second, short boot with every slab cache in debug mode (slab_debug=FZPU:
# consistency checks, red zones, poisoning, owner tracking) runs the slub
# selftest again: SLUB checks every free and every cache it validates.
# The same boot gives every boot parameter of the series bad values (not a
# bool, not a policy, not a number, empty, negative, too large, out of
# range): each must be warned once and leave the default, which is also
# what the slub selftest then runs with (section boot-params,
# lab/guest-bootparams.sh, which also writes bad values to the sysctl and a
# SLUB_STATS file).
BAD_BOOT_PARAMS="slab_free_lock_first=maybe slab_free_lock_first= memcg_stock_evict=lru memcg_stock_evict=\
 vmap_lazy_threshold_kb=abc vmap_lazy_threshold_kb=-5 vmap_lazy_threshold_kb=99999999999999999999\
 vmap_lazy_threshold_kb= vmap_lazy_threshold_kb=99999999999"
boot_slab_debug() {
	mkdir -p "$RUN_DIR/slab-debug"
	"$LAB_DIR/boot.sh" -k "$O/arch/x86/boot/bzImage" -l "$RUN_DIR/slab-debug/console.log" \
		-M "$O/modroot" -p "$LAB_DIR/guest-tests.sh" -t "$BOOT_TIMEOUT" -a "slab_debug=FZPU $BAD_BOOT_PARAMS" \
		-- MMSCALE_KST="$O/kselftest_install" MMSCALE_VMTESTS=slub MMSCALE_MM_SECTION=mm-slab-debug \
		MMSCALE_MEMCONTROL=0 SLUB_FREE_STATS_LOOPS=10 MMSCALE_BOOTPARAMS=1 MMSCALE_LAB="$LAB_DIR"
}
if [ "${SLAB_DEBUG_BOOT:-1}" = 1 ]; then
	timed boot-slab-debug boot_slab_debug
fi

report_rc=0
# report: the per-suite tables.  A failed suite is counted (report_rc),
# not fatal: the topics still run, so report() returns 0.
report() {
	STAGE=report
	echo "== results: $RUN_DIR =="
	"$LAB_DIR/report.py" --console "$RUN_DIR/console.log" --ksrc "$TREE" --out "$RUN_DIR" \
		--expect kunit,mm,memcontrol,memcg-stock,kmem > "$RUN_DIR/report.txt" || report_rc=$?
	sed '$d' "$RUN_DIR/report.txt"
	read -r k_pass _ k_fail _ k_skip _ < <(tail -n1 "$RUN_DIR/report.txt" | tr -d ,)
	if [ "${SLAB_DEBUG_BOOT:-1}" = 1 ]; then
		echo "== results, slab_debug=FZPU boot: $RUN_DIR/slab-debug =="
		"$LAB_DIR/report.py" --console "$RUN_DIR/slab-debug/console.log" --ksrc "$TREE" \
			--out "$RUN_DIR/slab-debug" --expect mm-slab-debug,boot-params > "$RUN_DIR/slab-debug/report.txt" || report_rc=$?
		sed '$d' "$RUN_DIR/slab-debug/report.txt"
		read -r p2 _ f2 _ s2 _ < <(tail -n1 "$RUN_DIR/slab-debug/report.txt" | tr -d ,)
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
		local log=$RUN_DIR/deb/deb.log img
		echo "== package (lab/deb.sh --package, --verify) =="
		mkdir -p "$RUN_DIR/deb"
		if "$LAB_DIR/deb.sh" --package "$TREE" "$O" "$RUN_DIR/deb/pkg" > "$log" 2>&1 &&
			img=$(ls "$RUN_DIR"/deb/pkg/linux-image-*.deb | grep -v -- '-dbg_' | head -n1) &&
			echo "ok - make bindeb-pkg: $(cd "$RUN_DIR/deb/pkg" && ls ./*.deb | sed 's|^\./||' | tr '\n' ' ')" >> "$log"; then
			BOOT_TIMEOUT=$BOOT_TIMEOUT "$LAB_DIR/deb.sh" --verify "$img" "$RUN_DIR/deb/boot" >> "$log" 2>&1 || true
		else
			echo "not ok - make bindeb-pkg (log: $log)" >> "$log"
		fi
		grep -E '^(not )?ok ' "$log" | sed 's/^/  /'
		dp_pass=$(grep -cE '^ok ' "$log" || true)
		dp_fail=$(grep -cE '^not ok ' "$log" || true)
		[ "$dp_pass" -gt 0 ] || dp_fail=$((dp_fail + 1))
		return 0
	}
	timed deb deb_check
	# The topics as postings: each applies alone, forward == reverse ==
	# build/linux, no new kernel-doc warning, MAINTAINERS covers the new
	# files, a make mail posting of each topic (a check identity, its own
	# folder, quoting the report just made) git am's back to the same
	# tree, and no placeholder text (lab/topics.sh, lab/mail.sh).
	topics_checks() {
		local log=$BUILD/topics-check.log mdir=$BUILD/check-mail
		echo "== topics (lab/topics.sh, lab/mail.sh) =="
		: > "$log"
		MAIL_FROM="lab check <check@mmscale.invalid>" MAIL_OUT=$mdir MAIL_REPORT=$RUN_DIR TOPIC= V=1 \
			"$LAB_DIR/mail.sh" >> "$log" 2>&1 || echo "not ok - make mail for every topic (log: $log)" >> "$log"
		MAILDIR=$mdir "$LAB_DIR/topics.sh" apply kerneldoc maintainers "mbox=$mdir" placeholders >> "$log" 2>&1 || true
		grep -E '^(not )?ok ' "$log" | sed 's/^/  /'
		tp_pass=$(grep -cE '^ok ' "$log" || true)
		tp_fail=$(grep -cE '^not ok ' "$log" || true)
		grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$log" || tp_fail=$((tp_fail + 1))
		return 0
	}
	timed topics topics_checks
fi
print_times

echo "== logs =="
echo "  console:  $RUN_DIR/console.log"
echo "  build:    $O/build.log"
echo "  results:  $RUN_DIR/summary.txt"
if [ "$mode" = check ]; then
	echo "== summary =="
	printf '  %-34s %d passed, %d failed\n' "lab self-tests (tests/)" "$lab_pass" "$lab_fail"
	printf '  %-34s %d passed, %d failed\n' "checkpatch --strict (per patch)" "$cp_pass" "$cp_fail"
	printf '  %-34s %d passed, %d failed\n' "topics: apply, mbox, kernel-doc" "$tp_pass" "$tp_fail"
	printf '  %-34s %d passed, %d failed\n' "package: bindeb-pkg, boot it" "$dp_pass" "$dp_fail"
	printf '  %-34s %d passed, %d failed, %d skipped\n' "kernel: KUnit + selftests" "$k_pass" "$k_fail" "$k_skip"
fi
total_pass=$((k_pass + lab_pass + cp_pass + tp_pass + dp_pass))
total_fail=$((k_fail + lab_fail + cp_fail + tp_fail + dp_fail))
echo "$total_pass passed, $total_fail failed, $k_skip skipped"
[ "$total_fail" = 0 ] && [ "$report_rc" = 0 ]
