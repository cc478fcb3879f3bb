#!/usr/bin/env bash
# lab/stages/tree.sh - stage "tree": build/linux = baseline commit + one commit per patch.
#
# What it does: clones build/src (tag mmscale/base) into build/linux (git
# clone --shared: the baseline objects stay in build/src), or
# resets an existing build/linux to the baseline, then applies the topics
# named in patches/<line>/series, in that order, each topic's patches as listed
# in patches/<line>/<topic>/series, with git am.  Each commit gets a git note
# "topic: <topic>" (ref refs/notes/mmscale-topic, kept across rebase and
# amend), which lab/stages/export.sh uses to write the topics back.  A build/linux that already
# is the baseline plus exactly patches/ is left untouched (file times kept,
# so incremental builds stay incremental).  A patch that does not apply
# stops the stage with the patch file, the kernel version and the failing
# hunk.  It refuses to reset a build/linux that holds uncommitted edits or
# commits that were never exported (FORCE=1 overrides the latter; the check
# is lab/stages/export.sh --check, which make source and make clean use
# too).
# What it needs: git, build/src from lab/stages/source.sh.  Writes build/linux and
# build/tree.log; never touches patches/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=tree
want_bool FORCE
stage tree "$LOGS/tree.log"

[ -d "$SRC_DIR/.git" ] || die "no kernel source in $SRC_DIR; run 'make source' first"
ver=$(cat "$BUILD/src.version")
ALLOW_NO_TOPIC=1 read_topics
# series: "topic/file" for every patch, in the order they apply
series=()
for t in "${TOPICS[@]}"; do
	mapfile -t tp < <(series_lines "$PATCHES/$t/series")
	[ ${#tp[@]} -gt 0 ] || die "$PDIR/$t/series names no patch"
	for p in "${tp[@]}"; do
		[ -f "$PATCHES/$t/$p" ] || die "$PDIR/$t/series names $p, but $PDIR/$t/$p does not exist"
		series+=("$t/$p")
	done
done

export GIT_COMMITTER_NAME=mmscale GIT_COMMITTER_EMAIL=mmscale@localhost

if [ -d "$TREE/.git" ]; then
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
		die "$TREE has uncommitted changes; commit them and run 'make export' first"
	git -C "$TREE" fetch -q --force "$SRC_DIR" "refs/tags/$BASE_TAG:refs/tags/$BASE_TAG" >> "$STAGE_LOG" 2>&1 ||
		die "could not fetch the baseline from $SRC_DIR"
	if [ "${FORCE:-0}" != 1 ]; then
		check=$("$LAB_DIR/stages/export.sh" --check) || die "could not check $TREE for work that is not in patches/"
		UNEXPORTED=$(sed -n 's/^unexported=//p' <<< "$check")
		TREE_IS_PATCHES=$(sed -n 's/^tree_is_patches=//p' <<< "$check")
		[ -z "$UNEXPORTED" ] ||
			die "$UNEXPORTED; run 'make export' first (or FORCE=1 make tree to drop that work)"
		if [ "$TREE_IS_PATCHES" = 1 ]; then
			# Already the baseline plus exactly these patches: leave the
			# files (and their mtimes, which incremental builds use) alone.
			say "$TREE already is Linux $ver + the ${#series[@]} patch(es) of patches/ (${TOPICS[*]}); nothing to do"
			exit 0
		fi
	fi
	say "resetting $TREE to $BASE_TAG (Linux $ver)"
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f -B mmscale "$BASE_TAG" >> "$STAGE_LOG" 2>&1 ||
		die "could not reset $TREE to $BASE_TAG"
else
	say "cloning $SRC_DIR into $TREE (Linux $ver)"
	rm -rf "$TREE"
	git clone -q --no-checkout --shared "$SRC_DIR" "$TREE" >> "$STAGE_LOG" 2>&1 ||
		die "git clone of $SRC_DIR failed"
	git -C "$TREE" checkout -q -B mmscale "$BASE_TAG" >> "$STAGE_LOG" 2>&1 ||
		die "checkout of $BASE_TAG failed"
fi

git -C "$TREE" config notes.rewriteRef "$NOTES_REF"
git -C "$TREE" config notes.displayRef "$NOTES_REF"
git -C "$TREE" update-ref -d "$NOTES_REF" 2>/dev/null || true
n=0
for p in "${series[@]}"; do
	n=$((n + 1))
	if ! git -C "$TREE" am -q --committer-date-is-author-date "$PATCHES/$p" >> "$STAGE_LOG" 2>&1; then
		{
			echo "--- git apply --check -v $PDIR/$p (Linux $ver) ---"
			git -C "$TREE" apply --check -v "$PATCHES/$p" 2>&1 || true
		} >> "$STAGE_LOG"
		git -C "$TREE" am --abort >/dev/null 2>&1 || true
		where=$(grep -m1 -o 'patch failed: .*' "$STAGE_LOG" | sed 's/patch failed: //' || true)
		grep -A12 -m1 'error: while searching for:' "$STAGE_LOG" >&2 || true
		die "$PDIR/$p (patch $n of ${#series[@]}) does not apply to Linux $ver${where:+ at $where}"
	fi
	git -C "$TREE" notes --ref="$NOTES_REF" add -f -m "topic: ${p%%/*}" HEAD >> "$STAGE_LOG" 2>&1 ||
		die "could not record the topic of $PDIR/$p"
	say "applied $p"
done
say "$TREE: Linux $ver + ${#series[@]} patch(es)"
