#!/usr/bin/env bash
# lab/stages/linecheck.sh - stage "linecheck": the checks of a line that build and
# boot no kernel.  make check (lab/stages/run.sh) runs export, checkpatch and
# topics on its own line (BASE), and all of them on every other line of
# LINES, so that the line it does not boot is still checked.
#
# Usage: lab/stages/linecheck.sh [--result FILE] CHECK...
#        (BASE=6.12 lab/stages/linecheck.sh all)
#   tree        make source and make tree for the line (lab/stages/source.sh,
#               lab/stages/tree.sh)
#   export      make export on the fresh tree leaves patches/<line>/
#               unchanged (the patches re-export byte for byte)
#   checkpatch  scripts/checkpatch.pl --strict on every patch
#   topics      make mail of every topic (a check identity, MAIL_REPORT
#               when set) and lab/stages/topics.sh: each topic applies alone,
#               forward == reverse == build/<line>/linux, the mbox round
#               trip, kernel-doc, MAINTAINERS, placeholders
#   compile     every kernel .c file the series touches, as objects (a .c
#               file that another #includes is built with that one): those
#               of the base with the options off (configs "vm": lab/stages/objdiff.sh,
#               equal to the base but for line numbers) and all of them
#               with the options on ("vm mmscale"); the selftests are
#               user space and take no option, and are not compiled here
#   all         tree export checkpatch topics compile
# Prints one TAP line per item ("ok N - ..."), each check's progress on
# stderr, and last "N passed, N failed"; exit 1 if any failed.  --result
# FILE: the verdicts as a result file too (lab/lib/tap.sh), which is what
# make check reads.  Logs: LOGS/linecheck-<check>.log.
# What it needs: what make tree needs (lab/stages/deps.sh); compile needs gcc and
# about 3 GiB under BUILD.  Writes BUILD/ (the line's, build/<line> by
# default) and nothing in patches/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=linecheck

tap_args "$@"
shift "$TAP_SHIFT"
checks=()
for c in "$@"; do
	case $c in
	all) checks+=(tree export checkpatch topics compile) ;;
	tree | export | checkpatch | topics | compile) checks+=("$c") ;;
	*) die "unknown check '$c' (tree, export, checkpatch, topics, compile, all)" ;;
	esac
done
[ ${#checks[@]} -gt 0 ] || { echo "usage: $0 [--result FILE] tree|export|checkpatch|topics|compile|all..." >&2; exit 2; }

# result RC DESC [WHY]: one TAP line, named for the line
result() {
	tap_result "$1" "$BASE: $2" "${3:-}"
}

# check_tree: the source and the tree of the line, as make tree makes them
check_tree() {
	local log=$1 rc=0
	{ "$LAB_DIR/stages/source.sh" && "$LAB_DIR/stages/tree.sh"; } >> "$log" 2>&1 || rc=$?
	result $rc "make source, make tree ($PDIR applies to $(cat "$BUILD/src.version" 2>/dev/null || echo '?'))"
	return $rc
}

# check_export: make export of the fresh tree writes patches/<line>/ again
# byte for byte: exported into a scratch folder (lab/stages/export.sh DIR), each
# topic's patch files and series compared with the checkout's, so that an
# edit elsewhere in the checkout is not taken for a change
check_export() {
	local log=$1 rc=0 d=$BUILD/linecheck-export t f
	rm -rf "$d"
	mkdir -p "$d"
	"$LAB_DIR/stages/export.sh" "$d" >> "$log" 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		read_topics
		[ ! -f "$d/series" ] || cmp "$d/series" "$PATCHES/series" >> "$log" 2>&1 || rc=1
		[ "$(printf '%s\n' "${TOPICS[@]}" | sort)" = "$(cd "$d" && ls -d -- */ | tr -d / | sort)" ] ||
			{ echo "the tree's topics: $(cd "$d" && ls -d -- */ | tr -d / | xargs); $PDIR/series: ${TOPICS[*]}" >> "$log"; rc=1; }
		for t in "${TOPICS[@]}"; do
			diff <(cd "$PATCHES/$t" && ls | grep -E '^([0-9]{4}-.*\.patch|series)$') \
				<(ls "$d/$t" 2>/dev/null) >> "$log" || rc=1
			for f in "$d/$t"/*; do
				[ ! -f "$f" ] || cmp "$f" "$PATCHES/$t/${f##*/}" >> "$log" 2>&1 || rc=1
			done
		done
	fi
	result $rc "make export on the fresh tree writes $PDIR again byte for byte"
}

# check_checkpatch: checkpatch.pl --strict on each patch.  FILE_PATH_CHANGES
# ("does MAINTAINERS need updating?") is checked for real by the topics
# check (lab/stages/topics.sh maintainers).  UNKNOWN_COMMIT_ID: the tree holds one
# baseline commit and no history, so a Fixes: id cannot be found in it; the
# id is checked against public history instead (docs/series.md).
check_checkpatch() {
	local log=$1 t p rc
	read_topics
	for t in "${TOPICS[@]}"; do
		while read -r p; do
			rc=0
			echo "### $t/$p" >> "$log"
			(cd "$TREE" && scripts/checkpatch.pl --strict --no-tree -q \
				--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$PATCHES/$t/$p") >> "$log" 2>&1 || rc=$?
			result $rc "checkpatch --strict $t/$p"
		done < <(series_lines "$PATCHES/$t/series")
	done
}

# check_topics: make mail of every topic into a scratch folder, then the
# topic checks with that mail folder for the mbox round trip
check_topics() {
	local log=$1 mdir=$BUILD/check-mail rc=0
	rm -f "$LOGS/linecheck-topics.json"
	MAIL_FROM="lab check <check@mmscale.invalid>" MAIL_OUT=$mdir TOPIC= V=1 \
		"$LAB_DIR/stages/mail.sh" >> "$log" 2>&1 || rc=$?
	result $rc "make mail of every topic (mail: $mdir)"
	MAILDIR=$mdir "$LAB_DIR/stages/topics.sh" --result "$LOGS/linecheck-topics.json" \
		apply kerneldoc maintainers "mbox=$mdir" placeholders >> "$log" 2>&1 || true
	tap_replay "$LOGS/linecheck-topics.json" "$BASE: "
}

# kbuild_object FILE.c: a Makefile or Kbuild of FILE's folder or of one above
# it names FILE's object (mm/tests/x.c: "x.o" in mm/tests/ or "tests/x.o"
# in mm/)
kbuild_object() {
	local d rel=${1%.c}.o m
	d=$(dirname "$1")
	rel=${rel##*/}
	while :; do
		for m in "$TREE/$d/Makefile" "$TREE/$d/Kbuild"; do
			grep -qE "(^|[[:space:]])$(sed 's/[.]/\\./g' <<< "$rel")([[:space:]]|$)" "$m" 2>/dev/null && return 0
		done
		[ "$d" != . ] && [ -n "$d" ] || return 1
		rel=$(basename "$d")/$rel
		d=$(dirname "$d")
	done
}

# check_compile: the series' kernel .c files as objects, options off and on
check_compile() {
	local log=$1 files=() f old=() all=() o rc frags
	mapfile -t files < <(git -C "$TREE" diff --name-only --diff-filter=AM "$BASE_TAG" HEAD -- '*.c' |
		grep -vE '^(tools|scripts|samples|Documentation)/')
	for f in "${files[@]}"; do
		# an object of its folder's Makefile; a .c file another one
		# #includes (a KUnit suite of static functions) is built with it
		kbuild_object "$f" ||
			{ echo "$f: built as part of the file that includes it" >> "$log"; continue; }
		all+=("${f%.c}.o")
		if git -C "$TREE" cat-file -e "$BASE_TAG:$f" 2>/dev/null; then old+=("${f%.c}.o"); fi
	done
	if [ ${#all[@]} = 0 ]; then
		result skip "compile: the series touches no kernel .c file" "nothing to compile"
		return
	fi
	say "options off: ${old[*]} (lab/stages/objdiff.sh vm: base and head)"
	rc=0
	[ ${#old[@]} = 0 ] || "$LAB_DIR/stages/objdiff.sh" vm "${old[@]}" >> "$log" 2>&1 || rc=$?
	result $rc "compile, options off (vm): ${old[*]:-none} (the base's but for line numbers: lab/stages/objdiff.sh)"
	frags=(); for f in vm mmscale; do frags+=("$(fragment_path "$f")"); done
	o=$BUILD/linecheck-vm-mmscale
	mkdir -p "$o"
	kmake_init "$TREE" "$o"
	say "options on: ${all[*]} (vm mmscale, $o)"
	rc=0
	{ (cd "$TREE" && scripts/kconfig/merge_config.sh -O "$o" "${frags[@]}") &&
		"${KMAKE[@]}" prepare "${all[@]}"; } >> "$log" 2>&1 || rc=$?
	result $rc "compile, options on (vm mmscale): ${all[*]}"
}

echo "TAP version 13"
for c in "${checks[@]}"; do
	log=$LOGS/linecheck-$c.log
	mkdir -p "$LOGS"
	: > "$log"
	say "$BASE: $c (log: $log)"
	t0=$(date +%s)
	if ! "check_$c" "$log"; then
		# without a tree nothing else can be checked
		[ "$c" != tree ] || break
	fi
	say "$BASE: $c done in $(($(date +%s) - t0)) s"
done
tap_end "$TAP_FILE"
