#!/usr/bin/env bash
# lab/stages/export.sh - stage "export": write build/linux's commits back to patches/,
# one folder per topic.
#
# What it does: splits mmscale/base..HEAD of build/linux into topics by the
# commits' topic notes (lab/lib/common.sh, topic_of_commits).  Each topic's
# commits must be one contiguous run.  For each topic it re-applies the
# commits, in order, to the pristine baseline alone (git apply --cached
# into a scratch index: no work tree, no 3-way merge, no fuzz) and
# writes them with git format-patch with stable output (zero commit ids,
# no signature, fixed abbreviation), so an unchanged tree re-exports byte
# for byte.  A topic that needs another topic's lines as context stops
# the stage, naming the commit and the file.  Writes patches/<topic>/
# NNNN-*.patch and patches/<topic>/series, patches/series (the topics in
# the tree's order) and patches/BASE.  Other files in a topic folder (the
# cover letter metadata) are left alone.
# With an argument DIR it writes the patch files and series files to DIR
# and leaves patches/ alone.
# With --check it writes nothing and answers whether build/linux holds work
# that patches/ does not (make tree, make source and make clean ask before
# they delete a tree), on two lines:
#   unexported=TEXT       what the tree holds that patches/ does not, or empty
#   tree_is_patches=0|1   1: the tree is exactly the baseline plus patches/
# What it needs: git, build/linux from lab/stages/tree.sh.  Writes patches/ or DIR.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

# export_check: sets UNEXPORTED to what $TREE holds that patches/ does not
# (uncommitted edits, a commit that make export would write differently or
# that is not in patches/, commits without topic notes), or to "" when it
# holds nothing more; and TREE_IS_PATCHES to 1 when it is exactly the
# baseline plus patches/.  It writes nothing to the tree: git's optional
# locks are off and the export's objects go to a scratch folder.
export_check() {
	local chk f rel t rc=0
	UNEXPORTED='' TREE_IS_PATCHES=0
	[ -d "$TREE/.git" ] || return 0
	if [ -n "$(GIT_OPTIONAL_LOCKS=0 git -C "$TREE" status --porcelain --untracked-files=no 2>&1)" ]; then
		UNEXPORTED="$TREE has uncommitted changes"
		return 0
	fi
	git -C "$TREE" merge-base --is-ancestor "$BASE_TAG" HEAD 2>/dev/null || return 0
	[ "$(git -C "$TREE" rev-parse HEAD)" != "$(git -C "$TREE" rev-parse "$BASE_TAG^{commit}")" ] || return 0
	if [ -z "$(git -C "$TREE" notes --ref="$NOTES_REF" list 2>/dev/null)" ]; then
		UNEXPORTED="$TREE has commits without topic notes (made before patches/ had topics; export them by hand)"
		return 0
	fi
	chk=$(mktemp -d)
	mkdir "$chk/objects"
	GIT_OPTIONAL_LOCKS=0 GIT_OBJECT_DIRECTORY=$chk/objects \
		GIT_ALTERNATE_OBJECT_DIRECTORIES=$(cd "$TREE" && git rev-parse --absolute-git-dir)/objects \
		"$0" "$chk/out" > "$chk/log" 2>&1 || rc=$?
	if [ "$rc" != 0 ]; then
		UNEXPORTED="$TREE has commits that make export cannot write: $(grep -m1 '^ERROR' "$chk/log" | sed 's/^ERROR: stage export: //')"
		rm -rf "$chk"
		return 0
	fi
	for f in "$chk/out"/*/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] || continue
		rel=${f#"$chk/out/"}
		if [ ! -f "$PATCHES/$rel" ]; then
			UNEXPORTED="$TREE has commits that are not in patches/ (make export would add $PDIR/$rel)"
		elif ! cmp -s "$f" "$PATCHES/$rel"; then
			UNEXPORTED="$TREE has commits that are not in patches/ as they are (make export would change $PDIR/$rel)"
		else
			continue
		fi
		rm -rf "$chk"
		return 0
	done
	TREE_IS_PATCHES=1
	for t in $(series_lines "$PATCHES/series" 2>/dev/null); do
		cmp -s <(series_lines "$chk/out/$t/series" 2>/dev/null) <(series_lines "$PATCHES/$t/series") ||
			TREE_IS_PATCHES=0
	done
	cmp -s <(series_lines "$chk/out/series") <(series_lines "$PATCHES/series") || TREE_IS_PATCHES=0
	rm -rf "$chk"
}

if [ "${1:-}" = --check ]; then
	export_check
	printf 'unexported=%s\ntree_is_patches=%s\n' "$UNEXPORTED" "$TREE_IS_PATCHES"
	exit 0
fi
stage export

out=${1:-$PATCHES}
[ -d "$TREE/.git" ] || die "$TREE does not exist; run 'make tree' first"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes; commit them first (git commit / --fixup)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topic_of_commits "$TREE" > "$tmp/map" || exit 1

# Topics in the order of their first commit; each must be contiguous.
order=()
prev=
while read -r c t; do
	[ "$t" = "$prev" ] && continue
	valid_topic "$t" || die "commit ${c:0:12} has topic '$t', not a topic name (lower case, digits, dashes)"
	for o in "${order[@]}"; do
		[ "$o" = "$t" ] && die "the commits of topic $t are not one run (commit ${c:0:12} comes after topic $prev); reorder them with git rebase -i"
	done
	order+=("$t")
	prev=$t
done < "$tmp/map"

export GIT_INDEX_FILE=$tmp/index
for t in "${order[@]}"; do
	git -C "$TREE" read-tree "$BASE_TAG" || die "git read-tree $BASE_TAG failed"
	parent=$(git -C "$TREE" rev-parse "$BASE_TAG^{commit}")
	while read -r c ct; do
		[ "$ct" = "$t" ] || continue
		if ! git -C "$TREE" diff-tree -p --binary --full-index "$c^" "$c" > "$tmp/one.diff" ||
		   ! git -C "$TREE" apply --cached "$tmp/one.diff" 2> "$tmp/apply.err"; then
			sed 's/^/  /' "$tmp/apply.err" >&2
			die "topic $t: commit ${c:0:12} ($(git -C "$TREE" log -1 --format=%s "$c")) does not apply to Linux $(cat "$BUILD/src.version") without the topics before it: $(grep -m1 -o 'patch failed: .*' "$tmp/apply.err" || head -n1 "$tmp/apply.err")"
		fi
		tree=$(git -C "$TREE" write-tree)
		an=$(git -C "$TREE" log -1 --format=%an "$c")
		ae=$(git -C "$TREE" log -1 --format=%ae "$c")
		ad=$(git -C "$TREE" log -1 --format=%ad --date=raw "$c")
		parent=$(git -C "$TREE" log -1 --format=%B "$c" |
			GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad \
			GIT_COMMITTER_NAME=$an GIT_COMMITTER_EMAIL=$ae GIT_COMMITTER_DATE=$ad \
			git -C "$TREE" commit-tree -p "$parent" "$tree") ||
			die "git commit-tree failed for ${c:0:12}"
	done < "$tmp/map"
	mkdir -p "$tmp/out/$t"
	git -C "$TREE" -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
		--no-base -o "$tmp/out/$t" "$BASE_TAG..$parent" || die "git format-patch failed for topic $t"
done
unset GIT_INDEX_FILE

mkdir -p "$out"
{
	echo "# Topics, in the order the lab applies them (lab/stages/tree.sh).  Each folder"
	echo "# holds one topic's patches and its own series; every topic applies"
	echo "# alone to the baseline in BASE.  Written by 'make export'."
	printf '%s\n' "${order[@]}"
} > "$out/series"
# Drop the folders of topics that are gone, and old patch files
for d in "$out"/*/; do
	[ -f "$d/series" ] || continue
	d=${d%/}
	t=${d##*/}
	printf '%s\n' "${order[@]}" | grep -qx -- "$t" && continue
	rm -f "$d"/[0-9][0-9][0-9][0-9]-*.patch "$d/series"
	rmdir "$d" 2>/dev/null || true
done
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
for t in "${order[@]}"; do
	mkdir -p "$out/$t"
	rm -f "$out/$t"/[0-9][0-9][0-9][0-9]-*.patch
	: > "$out/$t/series"
	for f in "$tmp/out/$t"/*.patch; do
		[ -e "$f" ] || continue
		cp "$f" "$out/$t/"
		basename "$f" >> "$out/$t/series"
	done
done
if [ "$out" = "$PATCHES" ]; then
	{
		echo "Linux $(cat "$BUILD/src.version")"
		echo "source: $(sed -e 's/@.*//' -e 's/ (baseline format [0-9]*)//' "$BUILD/src.origin")"
	} > "$PATCHES/BASE"
	say "exported $(wc -l < "$tmp/map") patch(es) in ${#order[@]} topic(s) to $out: ${order[*]}"
fi
