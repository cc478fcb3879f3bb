#!/usr/bin/env bash
# lab/mail.sh - stage "mail": prepare a linux-mm posting per topic.  Sends
# nothing.
#
# Usage: lab/mail.sh          (make mail [TOPIC=name] [V=n])
#   TOPIC=name   one topic of patches/series (default: every topic)
#   V=n          the posting's version, 1..99 (default 1)
#   MAIL_FROM='Name <addr>'   the poster (default: git config user.name and
#                user.email of this repository); the placeholder
#                "mmscale developers <mmscale@localhost>" is refused
#   MAIL_OUT=DIR  where to write (default build/mail)
#   BASE_COMMIT=sha  the upstream commit of the baseline for the
#                "base-commit:" line (default: the commit of a LINUX_SRC git
#                tree; none for Debian's linux-source)
# What it does, for each topic: git am's patches/<topic>/ onto the pristine
# baseline in a scratch clone, makes the poster the author and replaces
# the placeholder Signed-off-by with the poster's; runs git format-patch
# --cover-letter --thread (and -v N from v2 on); fills the cover letter
# from patches/<topic>/cover (subject, motivation, one paragraph per patch,
# changes per version), the last "make check" report (test matrix) and the
# newest saved "make bench" results that hold the topic's workloads (an
# LKP-format table via lab/compare.py, or a plain statement that there are
# none); adds To/Cc from the patched tree's scripts/get_maintainer.pl, per
# patch, and their union on the cover letter (maintainers To, lists and
# reviewers Cc); writes posting.mbox (the whole posting) and
# send-email-dry-run.txt (git send-email --dry-run: every header).
# Output: MAIL_OUT/<topic>/v<N>/ (replaced if it exists).
# What it needs: git, git-email (lab/deps.sh), perl, build/src and
# build/linux ("make tree").
set -euo pipefail
source "$(dirname "$0")/common.sh"
stage mail "$BUILD/mail.log"

V=${V:-1}
[[ $V =~ ^[1-9][0-9]?$ ]] || die "V=$V: the version must be a number from 1 to 99"
read_topics
if [ -n "${TOPIC:-}" ]; then
	printf '%s\n' "${TOPICS[@]}" | grep -qx -- "$TOPIC" ||
		die "TOPIC=$TOPIC is not a topic; the topics are: ${TOPICS[*]}"
	topics=("$TOPIC")
else
	topics=("${TOPICS[@]}")
fi

# The poster's identity
if [ -n "${MAIL_FROM:-}" ]; then
	ident=$MAIL_FROM
else
	gname=$(git -C "$TOP" config user.name || true)
	gmail=$(git -C "$TOP" config user.email || true)
	[ -n "$gname" ] && [ -n "$gmail" ] ||
		die "no poster identity: set git config user.name and user.email, or MAIL_FROM='Your Name <you@example.org>'"
	ident="$gname <$gmail>"
fi
case "$ident" in
*mmscale@localhost* | "mmscale developers"*)
	die "poster identity '$ident' is the repository's placeholder; set your own (git config user.name/user.email or MAIL_FROM)" ;;
esac
[[ $ident =~ ^([^<>]*[^<> ])\ +\<([^<>@ ]+@[^<>@ ]+\.[^<>@ ]+)\>$ ]] ||
	die "poster identity '$ident' is not 'Full Name <address@domain>'"
pname=${BASH_REMATCH[1]}
paddr=${BASH_REMATCH[2]}

for f in "$TREE/scripts/get_maintainer.pl" "$TREE/MAINTAINERS"; do
	[ -f "$f" ] || die "no $f; run 'make tree' first"
done
[ -x "$(git --exec-path)/git-send-email" ] ||
	die "git send-email is missing; run 'make deps' (Debian package git-email)"

ver=$(cat "$BUILD/src.version")
origin=$(cat "$BUILD/src.origin")
base_commit=${BASE_COMMIT:-}
if [ -z "$base_commit" ] && [[ $origin == git:*@* ]]; then
	base_commit=${origin##*@}
	base_commit=${base_commit%% *}
fi
[ -z "$base_commit" ] || [[ $base_commit =~ ^[0-9a-f]{40}$ ]] ||
	die "BASE_COMMIT=$base_commit is not a 40-digit commit id"
MAIL_OUT=${MAIL_OUT:-$BUILD/mail}
wt=$BUILD/mail-tree
export GIT_AUTHOR_NAME=$pname GIT_AUTHOR_EMAIL=$paddr
export GIT_COMMITTER_NAME=$pname GIT_COMMITTER_EMAIL=$paddr

if [ ! -d "$wt/.git" ]; then
	say "cloning the baseline into $wt"
	rm -rf "$wt"
	run_logged git clone -q --no-checkout --shared "$SRC_DIR" "$wt" || die "git clone of $SRC_DIR failed"
fi
run_logged git -C "$wt" fetch -q --force "$SRC_DIR" "refs/tags/$BASE_TAG:refs/tags/$BASE_TAG" ||
	die "could not fetch the baseline"

# section FILE NAME: the text of "## NAME" in a cover metadata file
section() {
	awk -v want="## $2" '
		/^## / { on = ($0 == want); next }
		/^#/ { next }
		on { print }
	' "$1" | sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
}

# get_maintainer FILE: "to ADDR" / "cc ADDR" lines for one patch file, as
# b4 prep --auto-to-cc splits them: To is everyone but the lists (--nol:
# maintainers, reviewers, supporters), Cc is the lists (--nom), both
# without git history (--nogit --nogit-fallback) and without the poster.
get_maintainer() {
	local gm=(perl scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins --norolestats)
	(cd "$TREE" && "${gm[@]}" --nol "$1" 2>> "$STAGE_LOG") | sed 's/^/to /' || return 1
	(cd "$TREE" && "${gm[@]}" --nom "$1" 2>> "$STAGE_LOG") | sed 's/^/cc /' || return 1
}

# add_headers FILE TO CC: put To:/Cc: headers (comma lists, folded) after Subject
add_headers() {
	python3 - "$@" <<'PY'
import sys
path, to, cc = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
head, sep, body = text.partition('\n\n')
def fold(name, addrs):
    addrs = [a for a in addrs.split('\n') if a]
    if not addrs:
        return ''
    return '%s: %s\n' % (name, ',\n\t'.join(addrs))
head = head + '\n' + fold('To', to) + fold('Cc', cc)
open(path, 'w').write(head.rstrip('\n') + sep + body)
PY
}

report_dir() {
	local d
	d=$(ls -td "$BUILD"/run-*/ 2>/dev/null | while read -r x; do
		[ -f "$x/summary.txt" ] && { echo "${x%/}"; break; }; done)
	echo "$d"
}

test_matrix() {
	local d=$1 s
	if [ -z "$d" ]; then
		echo "No 'make check' report is saved on the machine that prepared this"
		echo "posting; run 'make check' and then 'make mail' again."
		return
	fi
	echo "From 'make check' ($(date -u -r "$d/summary.txt" '+%Y-%m-%d %H:%M UTC')): one kernel with all"
	echo "four mmscale topics applied and their options on, configs ${d##*/run-}"
	echo "(configs/*.config of the mmscale lab), booted under QEMU (TCG, 2"
	echo "vCPUs); KUnit at boot, then the mm and cgroup selftests:"
	echo
	grep -vE '^results: |^  fact: ' "$d/summary.txt" | sed 's/^/  /'
	for s in "$d"/*/summary.txt; do
		[ -f "$s" ] || continue
		echo
		echo "Second boot ($(basename "$(dirname "$s")")):"
		grep -vE '^results: |^  fact: ' "$s" | sed 's/^/  /'
	done
}

# bench_table RE: the LKP table of the newest results dir with a workload
# matching RE
bench_table() {
	local re=$1 d found=
	if [ -n "$re" ]; then
		for d in $(ls -td "$BUILD"/results/*/ 2>/dev/null); do
			d=${d%/}
			[ -f "$d/results.json" ] || continue
			if python3 - "$d/results.json" "$re" <<'PY' 2>/dev/null; then
import json, re, sys
doc = json.load(open(sys.argv[1]))
ws = {w for r in doc.get('runs', []) for w in r.get('workloads', {})}
sys.exit(0 if any(re.search(sys.argv[2], w) for w in ws) else 1)
PY
				found=$d
				break
			fi
		done
	fi
	if [ -z "$found" ]; then
		echo "No 'make bench' results for this topic's workloads are saved on the"
		echo "machine that prepared this posting, so this letter quotes no A/B"
		echo "numbers.  The changelogs give the counts measured so far, each with"
		echo "the command that measured it."
		return
	fi
	echo "From 'make bench', results ${found#"$BUILD"/} (lab/compare.py report):"
	echo
	"$LAB_DIR/compare.py" report "$found" 2>&1 | sed 's/^/  /'
}

rdir=$(report_dir)
for t in "${topics[@]}"; do
	meta=$PATCHES/$t/cover
	[ -f "$meta" ] || die "patches/$t/cover is missing (the cover letter's subject, motivation and changes)"
	subject=$(section "$meta" Subject | head -n1)
	[ -n "$subject" ] || die "patches/$t/cover has no '## Subject'"
	motivation=$(section "$meta" Motivation)
	[ -n "$motivation" ] || die "patches/$t/cover has no '## Motivation'"
	paras=$(section "$meta" Patches)
	mapfile -t files < <(series_lines "$PATCHES/$t/series")
	np=$(awk 'BEGIN { RS = "" } END { print NR }' <<< "$paras")
	[ "$np" = "${#files[@]}" ] ||
		die "patches/$t/cover has $np patch paragraph(s) under '## Patches'; the topic has ${#files[@]} patches"
	nocfg=$(awk 'BEGIN { RS = "" } !/CONFIG_[A-Z0-9_]+/ { print NR }' <<< "$paras" | head -n1)
	[ -z "$nocfg" ] || die "patches/$t/cover: patch paragraph $nocfg names no Kconfig option (CONFIG_...)"
	changes=
	for ((k = V; k >= 1; k--)); do
		c=$(section "$meta" "Changes in v$k")
		if [ -z "$c" ]; then
			[ "$k" = "$V" ] && die "patches/$t/cover has no '## Changes in v$V'; write what changed in v$V first"
			continue
		fi
		changes+="Changes in v$k:"$'\n'"$c"$'\n\n'
	done
	bench_re=$(section "$meta" Bench | head -n1)

	out=$MAIL_OUT/$t/v$V
	if [ -d "$out" ]; then
		say "$t: replacing $out"
		rm -rf "$out"
	fi
	mkdir -p "$out"

	say "$t: git am ${#files[@]} patch(es) onto Linux $ver as $ident"
	git -C "$wt" am --abort > /dev/null 2>&1 || true
	run_logged git -C "$wt" checkout -q -f --detach "$BASE_TAG" || die "checkout of $BASE_TAG failed"
	for f in "${files[@]}"; do
		run_logged git -C "$wt" -c am.threeWay=false am -q "$PATCHES/$t/$f" ||
			die "patches/$t/$f does not apply to Linux $ver"
		git -C "$wt" log -1 --format=%B |
			sed '/^Signed-off-by: mmscale developers <mmscale@localhost>$/d' |
			run_logged git -C "$wt" commit -q --amend --reset-author -s -F - ||
			die "could not set the poster on patches/$t/$f"
	done

	vopt=()
	[ "$V" -gt 1 ] && vopt=(-v "$V")
	run_logged git -C "$wt" -c core.abbrev=12 format-patch -q --cover-letter --thread=shallow \
		"${vopt[@]}" --no-base -o "$out" "$BASE_TAG..HEAD" || die "git format-patch failed for $t"
	cover=$(ls "$out"/*0000-cover-letter.patch)

	# To/Cc: per patch, and the union on the cover letter
	: > "$out/to-cc.txt"
	all=$(mktemp)
	for p in "$out"/*.patch; do
		[ "$p" = "$cover" ] && continue
		get_maintainer "$p" | grep -vF "<$paddr>" | awk '!seen[substr($0, 4)]++' > "$out/.gm" ||
			die "get_maintainer.pl failed on $(basename "$p")"
		[ -s "$out/.gm" ] || die "get_maintainer.pl found nobody for $(basename "$p")"
		cat "$out/.gm" >> "$all"
		add_headers "$p" "$(sed -n 's/^to //p' "$out/.gm")" "$(sed -n 's/^cc //p' "$out/.gm")"
		{ echo "$(basename "$p"):"; sed 's/^/  /' "$out/.gm"; } >> "$out/to-cc.txt"
	done
	rm -f "$out/.gm"
	uto=$(sed -n 's/^to //p' "$all" | awk '!seen[$0]++')
	ucc=$(sed -n 's/^cc //p' "$all" | awk '!seen[$0]++' | grep -vxF -f <(printf '%s\n' "$uto") || true)
	rm -f "$all"
	add_headers "$cover" "$uto" "$ucc"
	{ echo "cover letter (union):"; sed 's/^/  to /' <<< "$uto"; sed 's/^/  cc /' <<< "$ucc"; } >> "$out/to-cc.txt"

	# The cover letter's text
	body=$motivation$'\n\n'$paras$'\n\n'
	body+="Testing"$'\n'"-------"$'\n'"$(test_matrix "$rdir")"$'\n\n'
	body+="Results"$'\n'"-------"$'\n'"$(bench_table "$bench_re")"$'\n\n'
	body+=$changes
	body+="Based on Linux $ver (tag v$ver of the linux-stable tree)."$'\n'
	[ -z "$base_commit" ] || body+=$'\n'"base-commit: $base_commit"$'\n'
	if SUBJECT=$subject BODY=$body python3 - "$cover" <<'PY'
import os, sys
path = sys.argv[1]
text = open(path).read()
for marker, new in (('*** SUBJECT HERE ***', os.environ['SUBJECT']),
                    ('*** BLURB HERE ***', os.environ['BODY'].rstrip('\n'))):
    if marker not in text:
        sys.exit('mail: %s not in %s' % (marker, path))
    text = text.replace(marker, new, 1)
open(path, 'w').write(text)
PY
	then :; else die "could not fill in $cover"; fi

	# The whole posting as one mbox, and the send-email dry run
	cat "$cover" $(ls "$out"/*.patch | grep -v 0000-cover-letter) > "$out/posting.mbox"
	say "$t: git send-email --dry-run"
	if ! git -C "$wt" send-email --dry-run --confirm=never --no-thread --no-annotate \
		--no-format-patch --suppress-cc=self --from="$ident" --8bit-encoding=UTF-8 \
		"$cover" $(ls "$out"/*.patch | grep -v 0000-cover-letter) \
		> "$out/send-email-dry-run.txt" 2>&1 < /dev/null; then
		tail -n 5 "$out/send-email-dry-run.txt" >&2
		die "git send-email --dry-run failed for $t (see $out/send-email-dry-run.txt)"
	fi
	say "$t: wrote $out ($(ls "$out"/*.patch | wc -l) mails, To: $(wc -l <<< "$uto") maintainer(s), Cc: $(grep -c . <<< "$ucc" || true))"
done
say "nothing was sent; read each send-email-dry-run.txt, then send with git send-email (README: Posting to linux-mm)"
