#!/usr/bin/env bash
# lab/stages/topics.sh - stage "topics": checks that the topic series can be posted
# one by one.  No kernel build; about a minute.
#
# Usage: lab/stages/topics.sh [--result FILE] [CHECK...]
#   default CHECKs: apply kerneldoc maintainers placeholders; --result FILE
#   writes the verdicts as a result file too (lab/lib/tap.sh)
#   apply         each topic of patches/ applies alone to the pristine
#                 baseline with plain git am (no 3-way, no fuzz); all
#                 topics in the order of patches/series and in the reverse
#                 order give the same tree, and that tree is build/linux's
#   mbox=DIR      DIR/<topic>/v<N>/posting.mbox (from lab/stages/mail.sh), for
#                 every topic, git am's onto the baseline and gives the
#                 same tree as the topic's patches (after DIR/<topic>-fix's,
#                 when the topic's fix is posted on its own)
#   kerneldoc     scripts/kernel-doc -none -Wall on every .c/.h file the
#                 series touches: the patched files warn no more than the
#                 same files of the baseline (upstream's own warnings are
#                 counted and shown, not failed)
#   maintainers   every file the series adds is covered by a MAINTAINERS
#                 section other than THE REST (get_maintainer.pl --sections
#                 -f in TREE); with that, checkpatch's "does MAINTAINERS
#                 need updating?" (FILE_PATH_CHANGES) is noise, and the
#                 checkpatch stage of make check ignores it
#   placeholders  no changelog (the text before the first "---") and no
#                 cover letter text (patches/<topic>/cover, and the
#                 mailed cover letter v*/b4/0000-*.eml of a mail DIR)
#                 contains "(filled in",
#                 "TODO", "XXX" or "FIXME"
# Environment: PATCHES (default patches/), TREE (default build/linux),
# MAILDIR (the mail DIR for placeholders, optional).
# Prints one TAP line per check item and "N passed, N failed"; exits 1 if
# any failed.
# What it needs: git, perl, build/src ("make source"); kerneldoc also
# needs TREE.  Writes build/topics/ (a scratch clone of the baseline).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=topics

tap_args "$@"
shift "$TAP_SHIFT"
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(apply kerneldoc maintainers placeholders)
for c in "${checks[@]}"; do
	case $c in
	apply | kerneldoc | maintainers | placeholders) ;;
	mbox=?*) [ -d "${c#mbox=}" ] || die "mbox=${c#mbox=}: no such directory" ;;
	*) die "unknown check '$c' (apply, mbox=DIR, kerneldoc, maintainers, placeholders)" ;;
	esac
done
stage topics "$LOGS/topics.log"
read_topics
PATCHES=$(cd "$PATCHES" && pwd)
ver=$(cat "$BUILD/src.version" 2>/dev/null || echo "?")

echo "TAP version 13"
# A scratch clone of the baseline to git am into.
wt=$BUILD/topics/linux
scratch() {
	[ -d "$SRC_DIR/.git" ] || die "no kernel source in $SRC_DIR; run 'make source' first"
	if [ ! -d "$wt/.git" ]; then
		say "cloning the baseline into $wt"
		rm -rf "$wt"
		mkdir -p "$(dirname "$wt")"
		run_logged git clone -q --no-checkout --shared "$SRC_DIR" "$wt" ||
			die "git clone of $SRC_DIR failed"
	fi
	run_logged git -C "$wt" fetch -q --force "$SRC_DIR" "refs/tags/$BASE_TAG:refs/tags/$BASE_TAG" ||
		die "could not fetch the baseline"
}
export GIT_COMMITTER_NAME=mmscale GIT_COMMITTER_EMAIL=mmscale@localhost

# am_tree FILE...: reset the scratch clone to the baseline, git am FILEs in
# order; print the resulting tree id, or fail naming the file that did not
# apply.
am_tree() {
	local f
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	run_logged git -C "$wt" checkout -q -f --detach "$BASE_TAG" || die "checkout of $BASE_TAG failed"
	run_logged git -C "$wt" clean -q -fdx
	for f in "$@"; do
		local am=(am -q) args=("$f") rc=0 empty=0 start
		start=$(git -C "$wt" rev-parse HEAD)
		# A posting's mbox starts with the cover letter, which has no
		# diff: git am stops on it ("Patch is empty", or for b4's cover
		# letter "No valid patches in input"), and a reader skips it.
		# Only a file's first message without a diff is skipped.
		while :; do
			rc=0
			git -C "$wt" -c am.threeWay=false "${am[@]}" "${args[@]}" > "$BUILD/topics/am.out" 2>&1 || rc=$?
			cat "$BUILD/topics/am.out" >> "$STAGE_LOG"
			if [ "$rc" != 0 ] && [ "$empty" = 0 ] && grep -qE '^Patch is empty|^error: No valid patches in input' "$BUILD/topics/am.out" &&
			   [ "$(git -C "$wt" rev-parse HEAD)" = "$start" ]; then
				echo "skipping the cover letter of ${f#"$PATCHES"/}" >> "$STAGE_LOG"
				am=(am -q --skip) args=() empty=1
				continue
			fi
			break
		done
		if [ "$rc" != 0 ]; then
			echo "$f does not apply ($(grep -m1 -E 'patch failed: |^error: |^fatal: |Patch is empty' "$BUILD/topics/am.out" || true))" | sed "s|$PATCHES/||"
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			return 1
		fi
	done
	git -C "$wt" rev-parse 'HEAD^{tree}'
}

# topic_files T: the patch files of topic T, in series order
topic_files() {
	series_lines "$PATCHES/$1/series" | sed "s|^|$PATCHES/$1/|"
}

declare -A topic_tree
check_apply() {
	local t fwd=() rev=() i ft rt lt
	scratch
	for t in "${TOPICS[@]}"; do
		mapfile -t fs < <(topic_files "$t")
		say "git am: topic $t alone (${#fs[@]} patches)"
		if out=$(am_tree "${fs[@]}"); then
			topic_tree[$t]=$out
			tap_result 0 "topic $t applies alone to Linux $ver (${#fs[@]} patches, git am)"
		else
			topic_tree[$t]=
			tap_result 1 "topic $t applies alone to Linux $ver" "$out"
		fi
		fwd+=("${fs[@]}")
	done
	for ((i = ${#TOPICS[@]} - 1; i >= 0; i--)); do
		mapfile -t fs < <(topic_files "${TOPICS[i]}")
		rev+=("${fs[@]}")
	done
	say "git am: all topics, forward (${TOPICS[*]})"
	ft=$(am_tree "${fwd[@]}") || ft="failed: $ft"
	say "git am: all topics, reverse"
	rt=$(am_tree "${rev[@]}") || rt="failed: $rt"
	if [[ $ft == failed* || $rt == failed* ]]; then
		tap_result 1 "all topics apply in forward and in reverse order" "forward: $ft; reverse: $rt"
	elif [ "$ft" = "$rt" ]; then
		tap_result 0 "forward and reverse order give the same tree (${ft:0:12})"
	else
		tap_result 1 "forward and reverse order give the same tree" "forward $ft, reverse $rt; git diff $ft $rt in $wt"
	fi
	if [ -d "$TREE/.git" ]; then
		lt=$(git -C "$TREE" rev-parse 'HEAD^{tree}')
		if [ "$lt" = "$ft" ]; then
			tap_result 0 "build/linux is all topics in order (tree ${lt:0:12})"
		else
			tap_result 1 "build/linux is all topics in order" "build/linux tree $lt, patches/ give $ft: run 'make tree' or 'make export'"
		fi
	fi
}

check_mbox() {
	local dir t mb fx got
	dir=$(cd "$1" && pwd)
	scratch
	for t in "${TOPICS[@]}"; do
		if [ -z "${topic_tree[$t]+x}" ]; then
			mapfile -t fs < <(topic_files "$t")
			out=$(am_tree "${fs[@]}") || out=
			topic_tree[$t]=$out
		fi
		mb=$(ls -d "$dir/$t"/v*/posting.mbox 2>/dev/null | sort -V | tail -n1 || true)
		if [ -z "$mb" ]; then
			tap_result 1 "topic $t: posting.mbox git am's to the topic's tree" "no $dir/$t/v*/posting.mbox"
			continue
		fi
		# a fix at the topic's head is posted first, on its own
		# (lab/stages/mail.sh: <topic>-fix); the topic's posting applies on it
		fx=$(ls -d "$dir/$t-fix"/v*/posting.mbox 2>/dev/null | sort -V | tail -n1 || true)
		say "git am: ${fx:+$fx and }$mb"
		if ! got=$(am_tree ${fx:+"$fx"} "$mb"); then
			tap_result 1 "topic $t: ${mb#"$dir"/} git am's onto Linux $ver" "$got"
		elif [ -n "${topic_tree[$t]}" ] && [ "$got" = "${topic_tree[$t]}" ]; then
			tap_result 0 "topic $t: ${mb#"$dir"/} git am's onto Linux $ver, same tree as $PDIR/$t (${got:0:12})"
		else
			tap_result 1 "topic $t: ${mb#"$dir"/} gives the topic's tree" "mbox tree $got, $PDIR/$t tree ${topic_tree[$t]:-none}"
		fi
	done
}

# kdoc_lines: kernel-doc's warnings without line numbers, each once
kdoc_lines() {
	sed -E -e 's/^([^: ]+):[0-9]+:/\1:/' -e 's/^Warning: ([^: ]+):[0-9]+ /Warning: \1: /' | sort -u
}

check_kerneldoc() {
	local files=() f hw bw new
	[ -x "$TREE/scripts/kernel-doc" ] || die "no $TREE/scripts/kernel-doc; run 'make tree' first"
	mapfile -t files < <(for t in "${TOPICS[@]}"; do topic_files "$t"; done | xargs sed -n 's|^+++ b/||p' |
		grep -E '\.[ch]$' | sort -u)
	if [ ${#files[@]} -eq 0 ]; then
		tap_result 0 "kernel-doc: the series touches no .c or .h file"
		return
	fi
	say "kernel-doc -none -Wall on ${#files[@]} file(s)"
	# Line numbers dropped: a warning that only moved is not new.  Both
	# formats: 6.12's "FILE:LINE: warning: ..." and 7.3's Python
	# kernel-doc "Warning: FILE:LINE ...", which also prints each warning
	# twice (sort -u).
	(cd "$TREE" && scripts/kernel-doc -none -Wall "${files[@]}" 2>&1) |
		kdoc_lines > "$BUILD/topics/kdoc.head" || true
	(cd "$SRC_DIR" && for f in "${files[@]}"; do [ -f "$f" ] && echo "$f"; done |
		xargs -r scripts/kernel-doc -none -Wall 2>&1) |
		kdoc_lines > "$BUILD/topics/kdoc.base" || true
	hw=$(wc -l < "$BUILD/topics/kdoc.head")
	bw=$(wc -l < "$BUILD/topics/kdoc.base")
	new=$(comm -13 "$BUILD/topics/kdoc.base" "$BUILD/topics/kdoc.head")
	if [ -z "$new" ]; then
		tap_result 0 "kernel-doc -Wall: no new warning in the ${#files[@]} files the series touches ($hw upstream warning(s) in those files on both base and head)"
	else
		printf '%s\n' "$new" | sed 's/^/# /'
		tap_result 1 "kernel-doc -Wall: no new warning in the files the series touches" \
			"$(printf '%s\n' "$new" | wc -l) new (base $bw, head $hw)"
	fi
}

check_maintainers() {
	local f secs bad=() nf=0
	[ -f "$TREE/scripts/get_maintainer.pl" ] || die "no $TREE/scripts/get_maintainer.pl; run 'make tree' first"
	while read -r f; do
		nf=$((nf + 1))
		secs=$(cd "$TREE" && perl scripts/get_maintainer.pl --notree --nogit --nogit-fallback \
			--nogit-chief-penguins --sections -f "$f" 2>/dev/null |
			grep -E '^[A-Z][^a-z]*$' | grep -vE '^[A-Z]:[[:space:]]' | grep -vx 'THE REST' | paste -sd';' || true)
		[ -n "$secs" ] || bad+=("$f")
		[ -z "$secs" ] || say "MAINTAINERS: $f: $secs"
	done < <(for t in "${TOPICS[@]}"; do topic_files "$t"; done | xargs awk '
		/^diff --git / { f = $4; sub(/^b\//, "", f) }
		/^new file mode / { print f }' | sort -u)
	if [ ${#bad[@]} -eq 0 ]; then
		tap_result 0 "MAINTAINERS covers each of the $nf file(s) the series adds"
	else
		tap_result 1 "MAINTAINERS covers each file the series adds" "no section but THE REST for: ${bad[*]}"
	fi
}

# placeholder patterns: a changelog or cover letter must not contain these
PLACEHOLDER_RE='\(filled in|TODO|XXX|FIXME'
check_placeholders() {
	local t f hits=0 where=() text
	for t in "${TOPICS[@]}"; do
		while read -r f; do
			# the changelog: headers and message, up to the first "---"
			text=$(sed '/^---$/q' "$f")
			if grep -qE "$PLACEHOLDER_RE" <<< "$text"; then
				hits=$((hits + 1))
				where+=("${f#"$PATCHES"/}: $(grep -m1 -E "$PLACEHOLDER_RE" <<< "$text")")
			fi
		done < <(topic_files "$t")
		for f in "$PATCHES/$t/cover" ${MAILDIR:+"$MAILDIR/$t"/v*/b4/0000-*.eml}; do
			[ -f "$f" ] || continue
			if grep -qE "$PLACEHOLDER_RE" "$f"; then
				hits=$((hits + 1))
				where+=("$f: $(grep -m1 -E "$PLACEHOLDER_RE" "$f")")
			fi
		done
	done
	if [ "$hits" = 0 ]; then
		tap_result 0 "no placeholder text in changelogs or cover letters"
	else
		printf '# %s\n' "${where[@]}"
		tap_result 1 "no placeholder text in changelogs or cover letters" "$hits file(s): ${where[0]}"
	fi
}

for c in "${checks[@]}"; do
	case $c in
	apply) check_apply ;;
	mbox=*) check_mbox "${c#mbox=}" ;;
	kerneldoc) check_kerneldoc ;;
	maintainers) check_maintainers ;;
	placeholders) check_placeholders ;;
	esac
done
echo "1..$_tap_n"
tap_end "$TAP_FILE"
