#!/usr/bin/env bash
# lab/stages/docs.sh - stage "docs": the kernel's "make htmldocs" on the
# Documentation the patch series touches, on the baseline and on the
# patched tree; the patched tree must add no warning.
#
# Usage: lab/stages/docs.sh [--check]   ("make docs" runs "make tree" first)
#   DOCS_JOBS=N   make -jN and Sphinx -jN (default: nproc), 1..256
#   --check       only check DOCS_JOBS and exit (make docs runs it before
#                 make tree)
# What it does: takes the "+++ b/Documentation/..." paths of the patches of
# every topic in patches/series and maps each to its top-level
# Documentation directory (Documentation/ABI/* to admin-guide, where the ABI
# pages are rendered); installs Sphinx with lab/stages/deps.sh; runs
#   make -C TREE O=build/docs-{base,head} htmldocs SPHINXDIRS="DIR..."
# on build/src (baseline) and on build/linux (head), each from an empty
# output directory, so that every warning is printed again.  Then it
# collects the Sphinx "WARNING:"/"ERROR:" and kernel-doc "warning:" lines
# of both logs, drops the tree paths and the line numbers, prints both
# counts and every head warning that the baseline does not have.  Exits 1
# if there is one (or if a build fails), 0 otherwise.  A progress line when
# each side starts, a heartbeat every minute while Sphinx runs, and the
# time of each side and the total.
# The netlink spec pages (Documentation/networking/netlink_spec/*.rst) are
# not generated (YNL_INDEX= on the make command line): htmldocs would
# write them into the source tree, and the lab's trees stay untouched.
# What it needs: build/src and build/linux ("make tree"), python3-sphinx
# and python3-yaml (installed through lab/stages/deps.sh; graphviz is optional and
# left out: without it Sphinx warns once on both sides alike).  Writes
# build/docs-base/, build/docs-head/, their logs build/docs-base.log and
# build/docs-head.log, and build/docs.log.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

STAGE=docs
checking=0
[ "${1:-}" != --check ] || { checking=1; shift; }
if [ $# -gt 0 ]; then
	echo "usage: $0 [--check]   (DOCS_JOBS=N sets the parallelism)" >&2
	exit 2
fi
want_number DOCS_JOBS 1 256
[ "$checking" = 0 ] || exit 0
stage docs "$LOGS/docs.log"

[ -f "$SRC_DIR/Makefile" ] || die "no baseline kernel tree at $SRC_DIR; run 'make tree' first"
[ -f "$TREE/Makefile" ] || die "no patched kernel tree at $TREE; run 'make tree' first"
jobs=${DOCS_JOBS:-$(nproc)}

# The Documentation directories the series touches, in series order.
read_topics
dirs=()
declare -A seen=()
for t in "${TOPICS[@]}"; do
	while read -r p; do
		f=$PATCHES/$t/$p
		[ -f "$f" ] || die "$PDIR/$t/series names $p, which does not exist"
		while read -r path; do
			rest=${path#Documentation/}
			case $rest in
			ABI/*) d=admin-guide ;;
			*/*) d=${rest%%/*} ;;
			*) say "note: $path is not inside a Sphinx directory; not built"; continue ;;
			esac
			if [ ! -f "$TREE/Documentation/$d/index.rst" ]; then
				say "note: $path: Documentation/$d has no index.rst; not built"
				continue
			fi
			[ -n "${seen[$d]+x}" ] && continue
			seen[$d]=1
			dirs+=("$d")
		done < <(sed -n 's|^+++ b/\(Documentation/.*\)|\1|p' "$f" | sed 's/[[:space:]]*$//')
	done < <(series_lines "$PATCHES/$t/series")
done
if [ ${#dirs[@]} -eq 0 ]; then
	say "the series touches no Documentation; nothing to build"
	exit 0
fi
say "SPHINXDIRS=\"${dirs[*]}\" (from the Documentation files of: ${TOPICS[*]})"

MMSCALE_DEPS="python3-sphinx python3-yaml ${MMSCALE_DEPS:-}" "$LAB_DIR/stages/deps.sh" ||
	die "installing the documentation tools failed (see $LOGS/deps.log)"
command -v sphinx-build >/dev/null 2>&1 || die "sphinx-build is not in PATH after lab/stages/deps.sh"
say "$(sphinx-build --version 2>&1 | head -n1), -j$jobs"

WARN_RE='\<(WARNING|ERROR|CRITICAL|SEVERE):|\<(warning|error):'

# warnings LOG TREE ODIR: the warning lines of LOG, normalised (no colour,
# no tree or output path, no line numbers), sorted.
warnings() {
	grep -aE "$WARN_RE" "$1" |
		sed -E -e 's/\x1b\[[0-9;]*m//g' \
			-e "s|$2/||g" -e "s|$3/||g" -e 's#(^|[[:space:]])\./#\1#g' \
			-e 's/:[0-9]+:/:/g' -e 's/:[0-9]+:/:/g' -e 's/\<line [0-9]+/line N/g' |
		LC_ALL=C sort || true
}

# heartbeat SIDE ODIR LOG: one line a minute while Sphinx runs
heartbeat() {
	local t0
	t0=$(date +%s)
	while sleep 60 >/dev/null 2>&1; do
		say "  ... $1: $(( $(date +%s) - t0 ))s, $(find "$2/Documentation/output" -name '*.html' 2>/dev/null | wc -l) html page(s) written, $(grep -acE "$WARN_RE" "$3" || true) warning line(s) so far"
	done
}

declare -A secs=()
# build SIDE TREE DIR...: htmldocs of TREE into build/docs-SIDE
build() {
	local side=$1 tree=$2 odir=$BUILD/docs-$1 log=$BUILD/docs-$1.log hb t0 rc=0
	shift 2
	say "$side: make htmldocs SPHINXDIRS=\"$*\" on $tree (Linux $(kernel_version "$tree")), log $log"
	rm -rf "$odir"
	mkdir -p "$odir"
	echo "### make -C $tree O=$odir -j$jobs htmldocs SPHINXDIRS=\"$*\" YNL_INDEX=" > "$log"
	t0=$(date +%s)
	heartbeat "$side" "$odir" "$log" &
	hb=$!
	# Without a make jobserver (-j1), Documentation/sphinx/parallel-wrapper.sh
	# falls back to "sphinx-build -jauto"; PARALLELISM keeps it at -j$jobs.
	PARALLELISM=$jobs make -C "$tree" O="$odir" -j"$jobs" htmldocs \
		SPHINXDIRS="$*" YNL_INDEX= >> "$log" 2>&1 || rc=$?
	kill "$hb" 2>/dev/null; wait "$hb" 2>/dev/null || true
	secs[$side]=$(( $(date +%s) - t0 ))
	echo "### exit $rc after ${secs[$side]}s" >> "$log"
	cat "$log" >> "$STAGE_LOG"
	if [ "$rc" != 0 ]; then
		grep -aE 'Error|error|Exception|No module named|not found' "$log" | tail -n 8 >&2 || true
		die "$side: make htmldocs failed (exit $rc; log: $log)"
	fi
	say "$side: done in ${secs[$side]}s, output in $odir/Documentation/output"
}

t_all=$(date +%s)
base_dirs=()
for d in "${dirs[@]}"; do
	if [ -f "$SRC_DIR/Documentation/$d/index.rst" ]; then
		base_dirs+=("$d")
	else
		say "note: the baseline has no Documentation/$d; every head warning there is new"
	fi
done
if [ ${#base_dirs[@]} -gt 0 ]; then
	build base "$SRC_DIR" "${base_dirs[@]}"
else
	: > "$BUILD/docs-base.log"
	secs[base]=0
fi
build head "$TREE" "${dirs[@]}"
total=$(( $(date +%s) - t_all ))

warnings "$BUILD/docs-base.log" "$SRC_DIR" "$BUILD/docs-base" > "$BUILD/docs-base.warnings"
warnings "$BUILD/docs-head.log" "$TREE" "$BUILD/docs-head" > "$BUILD/docs-head.warnings"
bw=$(wc -l < "$BUILD/docs-base.warnings")
hw=$(wc -l < "$BUILD/docs-head.warnings")
# comm on sorted lists with repeats: a warning that head prints more often
# than the baseline counts as new too.
new=$(LC_ALL=C comm -13 "$BUILD/docs-base.warnings" "$BUILD/docs-head.warnings")
say "time: base ${secs[base]}s, head ${secs[head]}s, total ${total}s"
say "warnings: base $bw, head $hw (lists: $BUILD/docs-base.warnings, $BUILD/docs-head.warnings)"
if [ -n "$new" ]; then
	n=$(printf '%s\n' "$new" | wc -l)
	printf '%s\n' "$new" | sed 's/^/  new: /' >&2
	die "head adds $n documentation warning(s) in SPHINXDIRS=\"${dirs[*]}\" (base $bw, head $hw)"
fi
say "ok: head adds no documentation warning in SPHINXDIRS=\"${dirs[*]}\""
