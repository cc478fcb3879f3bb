#!/usr/bin/env bash
# lab/mail.sh - stage "mail": prepare a linux-mm posting per topic.  Sends
# nothing.
#
# Usage: lab/mail.sh [--check]   (make mail [TOPIC=name] [V=n])
#   --check      only check the settings below and exit (make mail runs it
#                before make deps and make tree)
#   TOPIC=name   one topic of the line's series (default: every topic)
#   V=n          the posting's version, 1..99 (default 1)
#   PREFIX=text  the subject prefix (default: the line's LINE_MAIL_PREFIX,
#                patches/<line>/line.env: "RFC PATCH 6.12" for the stable
#                line, "RFC PATCH" for mainline; PREFIX=PATCH for a
#                posting based on mm-new)
#   MAIL_FROM='Name <addr>'   the poster (default: git config user.name and
#                user.email of this repository); the placeholder
#                "mmscale developers <mmscale@localhost>" is refused
#   MAIL_OUT=DIR  where to write (default build/mail)
#   MAIL_REPORT=DIR  the make check run whose report the cover letter
#                quotes (default: the newest build/<line>/run-*/ with a summary);
#                only a report of build/linux's tree is quoted: without
#                one the letter says plainly that the lab did not test it,
#                and make mail warns
#   MAINTAINERS_TREE=DIR  the kernel tree whose scripts/get_maintainer.pl
#                and MAINTAINERS give To/Cc (default build/linux, i.e.
#                6.12's MAINTAINERS; a current mm-new or linux-next tree
#                names today's maintainers)
#   BASE_COMMIT=sha  the upstream commit of the baseline for the
#                "base-commit:" line (default: the commit of a LINUX_SRC git
#                tree; none for Debian's linux-source, which carries
#                Debian's own patches on top of the release)
# What it does, for each topic: git am's patches/<line>/<topic>/ onto the
# baseline in a scratch clone, makes the poster the author and replaces
# the placeholder Signed-off-by with the poster's; runs git format-patch
# --cover-letter --thread (and -v N from v2 on); fills the cover letter
# from patches/<line>/<topic>/cover (subject, motivation, one paragraph per patch,
# changes per version), the make check report (test matrix) and the
# newest saved "make bench" results that hold the topic's workloads (an
# LKP-format table via lab/compare.py, or a plain statement that there are
# none); adds To/Cc from get_maintainer.pl as b4 prep --auto-to-cc splits
# them (To: maintainers, reviewers and supporters, --nol; Cc: the lists,
# --nom), per patch, every patch Cc'd to all of the topic's lists, and the
# union on the cover letter; writes posting.mbox (the whole posting, cover
# letter first: git am stops at it, "git am --skip" goes on),
# send-email-dry-run.txt (git send-email --dry-run: every header) and
# send.sh (the same git send-email command, without --dry-run).
# Output: MAIL_OUT/<topic>/v<N>/ (replaced if it exists).
# What it needs: git, git-email (lab/deps.sh), perl, build/src and
# build/linux ("make tree"); a make check report of the same tree.
set -euo pipefail
source "$(dirname "$0")/common.sh"
STAGE=mail
checking=0
[ "${1:-}" != --check ] || { checking=1; shift; }
[ $# = 0 ] || { echo "usage: $0 [--check]   (settings: see the header)" >&2; exit 2; }

# section FILE NAME: the text of "## NAME" in a cover metadata file
section() {
	awk -v want="## $2" '
		/^## / { on = ($0 == want); next }
		/^#/ { next }
		on { print }
	' "$1" | sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
}

V=${V:-1}
[[ $V =~ ^[1-9][0-9]?$ ]] || die "V=$V: the version must be a number from 1 to 99"
PREFIX=${PREFIX-$LINE_MAIL_PREFIX}
[[ $PREFIX =~ ^[A-Za-z0-9][A-Za-z0-9\ ._-]*$ ]] || die "PREFIX='$PREFIX': a subject prefix is letters, digits, blanks, '.', '_' or '-'"
[ -z "${MAINTAINERS_TREE:-}" ] || [ -f "$MAINTAINERS_TREE/scripts/get_maintainer.pl" ] ||
	die "MAINTAINERS_TREE=$MAINTAINERS_TREE has no scripts/get_maintainer.pl (a kernel tree)"
MAINTAINERS_TREE=${MAINTAINERS_TREE:-$TREE}
[ -z "${BASE_COMMIT:-}" ] || [[ $BASE_COMMIT =~ ^[0-9a-f]{40}$ ]] ||
	die "BASE_COMMIT=$BASE_COMMIT is not a 40-digit commit id"
read_topics
if [ -n "${TOPIC:-}" ]; then
	printf '%s\n' "${TOPICS[@]}" | grep -qx -- "$TOPIC" ||
		die "TOPIC=$TOPIC is not a topic; the topics are: ${TOPICS[*]}"
	topics=("$TOPIC")
else
	topics=("${TOPICS[@]}")
fi
# a version needs its changes written down, in every topic it posts
for t in "${topics[@]}"; do
	[ -f "$PATCHES/$t/cover" ] || die "$PDIR/$t/cover is missing (the cover letter's subject, motivation and changes)"
	[ -n "$(section "$PATCHES/$t/cover" "Changes in v$V")" ] ||
		die "V=$V: $PDIR/$t/cover has no '## Changes in v$V'; write what changed in v$V first"
done

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
[ "$checking" = 0 ] || exit 0
stage mail "$LOGS/mail.log"

[ -d "$TREE/.git" ] || die "no $TREE; run 'make tree' first"
for f in "$MAINTAINERS_TREE/scripts/get_maintainer.pl" "$MAINTAINERS_TREE/MAINTAINERS"; do
	[ -f "$f" ] || die "no $f (MAINTAINERS_TREE=$MAINTAINERS_TREE); run 'make tree' first"
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
if [ -n "$base_commit" ]; then
	base_text="Based on Linux $ver, commit $base_commit."
elif [[ $origin == deb:* ]]; then
	pkg=${origin#deb:}
	pkg=${pkg%% (*}
	base_text="Based on Linux $ver as Debian packages it ($pkg), which carries Debian's own patches on top of the release; not yet checked against the v$ver tag itself."
else
	base_text="Based on Linux $ver (${origin%% (*})."
fi
base_text+=" $LINE_MAIL_NOTE"
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

# get_maintainer FILE: "to ADDR" / "cc ADDR" lines for one patch file, as
# b4 prep --auto-to-cc splits them: To is everyone but the lists (--nol:
# maintainers, reviewers, supporters), Cc is the lists (--nom), both
# without git history (--nogit --nogit-fallback) and without the poster.
get_maintainer() {
	local gm=(perl scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins --norolestats)
	(cd "$MAINTAINERS_TREE" && "${gm[@]}" --nol "$1" 2>> "$STAGE_LOG") | sed 's/^/to /' || return 1
	(cd "$MAINTAINERS_TREE" && "${gm[@]}" --nom "$1" 2>> "$STAGE_LOG") | sed 's/^/cc /' || return 1
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

# The make check run to quote: MAIL_REPORT, or the newest build/<line>/run-*/
# with a summary.  It must be of build/linux's tree (run.sh writes
# tree.txt), so a v2 never quotes v1's results.
if [ -n "${MAIL_REPORT:-}" ]; then
	rdir=${MAIL_REPORT%/}
else
	rdir=$({ ls -td "$BUILD"/run-*/ 2>/dev/null || true; } | while read -r x; do
		[ -f "$x/summary.txt" ] && { echo "${x%/}"; break; }; done)
fi
no_report=
if [ -z "$rdir" ] || [ ! -f "$rdir/summary.txt" ]; then
	no_report="no make check report${MAIL_REPORT:+ in MAIL_REPORT=$MAIL_REPORT}"
elif [ "$(cat "$rdir/tree.txt" 2>/dev/null)" != "$(git -C "$TREE" rev-parse 'HEAD^{tree}')" ]; then
	no_report="the make check report in $rdir is not of build/linux's tree"
fi
if [ -z "$no_report" ]; then
	read -r _ _ r_fail _ < <(tail -n1 "$rdir/summary.txt" | tr -d ,)
	[ "${r_fail:-1}" = 0 ] || say "WARNING: the make check report in $rdir has ${r_fail:-?} failure(s); the cover letter shows them"
	r_boot=$(grep -m1 -o 'booting bzImage ([^)]*)' "$rdir/boot.out" 2>/dev/null |
		sed 's/^booting bzImage (//; s/)$//; s/, timeout [0-9]*s$//' || true)
fi

test_matrix() {
	local d=$1 t=$2 s others
	if [ -n "$no_report" ]; then
		echo "Not tested by the mmscale lab: this posting was prepared without a"
		echo "'make check' run of these patches."
		return
	fi
	others=$(printf '%s\n' "${TOPICS[@]}" | grep -vx -- "$t" | paste -sd' ' | sed 's/ /, /g')
	fold -s -w 72 <<- EOF | sed 's/ *$//'
	From 'make check' of the mmscale lab ($(date -u -r "$d/summary.txt" '+%Y-%m-%d')): one kernel with this series and, tested together with it, the ${others:-no} series, all options on (config fragments ${d##*/run-}), booted under QEMU (${r_boot:-accelerator not recorded}); KUnit at boot, then the mm and cgroup selftests:
	EOF
	echo
	grep -vE '^results: |^  fact: ' "$d/summary.txt" | sed 's/^/  /'
	for s in "$d"/*/summary.txt; do
		[ -f "$s" ] || continue
		echo
		echo "Second boot ($(basename "$(dirname "$s")")):"
		grep -vE '^results: |^  fact: ' "$s" | sed 's/^/  /'
	done
}

# bench_table RE: the LKP table of the newest results dir of a base/head
# A/B (a matrix of other sides, SIDES=..., has no A/B table) with a
# workload matching RE
bench_table() {
	local re=$1 d found=
	if [ -n "$re" ]; then
		for d in $(ls -td "$BUILD"/results/*/ 2>/dev/null); do
			d=${d%/}
			[ -f "$d/results.json" ] || continue
			if python3 - "$d/results.json" "$re" <<'PY' 2>/dev/null; then
import json, re, sys
doc = json.load(open(sys.argv[1]))
runs = doc.get('runs', [])
ws = {w for r in runs for w in r.get('workloads', {})}
ab = {r.get('side') for r in runs} == {'base', 'head'}
sys.exit(0 if ab and any(re.search(sys.argv[2], w) for w in ws) else 1)
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
	"$LAB_DIR/compare.py" report "$found" > "$BUILD/mail-compare.txt" 2>&1 || {
		cat "$BUILD/mail-compare.txt" >> "$STAGE_LOG"
		return 1
	}
	sed 's/^/  /' "$BUILD/mail-compare.txt"
}

for t in "${topics[@]}"; do
	meta=$PATCHES/$t/cover
	[ -f "$meta" ] || die "$PDIR/$t/cover is missing (the cover letter's subject, motivation and changes)"
	subject=$(section "$meta" Subject | head -n1)
	[ -n "$subject" ] || die "$PDIR/$t/cover has no '## Subject'"
	motivation=$(section "$meta" Motivation)
	[ -n "$motivation" ] || die "$PDIR/$t/cover has no '## Motivation'"
	paras=$(section "$meta" Patches)
	mapfile -t files < <(series_lines "$PATCHES/$t/series")
	np=$(awk 'BEGIN { RS = "" } END { print NR }' <<< "$paras")
	[ "$np" = "${#files[@]}" ] ||
		die "$PDIR/$t/cover has $np patch paragraph(s) under '## Patches'; the topic has ${#files[@]} patches"
	# each paragraph names the patch's Kconfig option, or says that it
	# takes none (a bug fix, which sits behind no option)
	nocfg=$(awk 'BEGIN { RS = "" } !/CONFIG_[A-Z0-9_]+/ && !/[Nn]o option/ { print NR }' <<< "$paras" | head -n1)
	[ -z "$nocfg" ] ||
		die "$PDIR/$t/cover: patch paragraph $nocfg names no Kconfig option (CONFIG_...) and does not say 'no option'"
	changes=
	for ((k = V; k >= 1; k--)); do
		c=$(section "$meta" "Changes in v$k")
		if [ -z "$c" ]; then
			[ "$k" = "$V" ] && die "$PDIR/$t/cover has no '## Changes in v$V'; write what changed in v$V first"
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
			die "$PDIR/$t/$f does not apply to Linux $ver"
		git -C "$wt" log -1 --format=%B |
			sed '/^Signed-off-by: mmscale developers <mmscale@localhost>$/d' |
			run_logged git -C "$wt" commit -q --amend --reset-author -s -F - ||
			die "could not set the poster on $PDIR/$t/$f"
	done

	vopt=()
	[ "$V" -gt 1 ] && vopt=(-v "$V")
	run_logged git -C "$wt" -c core.abbrev=12 format-patch -q --cover-letter --thread=shallow \
		--subject-prefix="$PREFIX" "${vopt[@]}" --no-base -o "$out" "$BASE_TAG..HEAD" ||
		die "git format-patch failed for $t"
	cover=$(ls "$out"/*0000-cover-letter.patch)

	# To/Cc: per patch, every patch Cc'd to all the topic's lists, and the
	# union on the cover letter
	mapfile -t pfiles < <(ls "$out"/*.patch | grep -v '/[v0-9-]*0000-cover-letter\.patch$')
	gmdir=$(mktemp -d)
	for p in "${pfiles[@]}"; do
		get_maintainer "$p" | grep -vF "<$paddr>" | awk '!seen[substr($0, 4)]++' > "$gmdir/${p##*/}" ||
			die "get_maintainer.pl failed on ${p##*/}"
		[ -s "$gmdir/${p##*/}" ] || die "get_maintainer.pl found nobody for ${p##*/}"
	done
	uto=$(cat "$gmdir"/* | sed -n 's/^to //p' | awk '!seen[$0]++')
	lists=$(cat "$gmdir"/* | sed -n 's/^cc //p' | awk '!seen[$0]++')
	ucc=$(grep -vxF -f <(printf '%s\n' "$uto") <<< "$lists" || true)
	: > "$out/to-cc.txt"
	for p in "${pfiles[@]}"; do
		pto=$(sed -n 's/^to //p' "$gmdir/${p##*/}")
		pcc=$(printf '%s\n' "$(sed -n 's/^cc //p' "$gmdir/${p##*/}")" "$ucc" | awk 'NF && !seen[$0]++' |
			grep -vxF -f <(printf '%s\n' "$pto") || true)
		add_headers "$p" "$pto" "$pcc"
		{ echo "${p##*/}:"; sed 's/^/  to /' <<< "$pto"; sed 's/^/  cc /' <<< "$pcc"; } >> "$out/to-cc.txt"
	done
	rm -rf "$gmdir"
	add_headers "$cover" "$uto" "$ucc"
	{ echo "cover letter (union):"; sed 's/^/  to /' <<< "$uto"; sed 's/^/  cc /' <<< "$ucc"; } >> "$out/to-cc.txt"

	# The cover letter's text
	body=$motivation$'\n\n'$paras$'\n\n'
	tm=$(test_matrix "$rdir" "$t") || die "could not read the make check report in $rdir"
	bt=$(bench_table "$bench_re") || die "lab/compare.py report failed on the bench results (log: $STAGE_LOG)"
	body+="Testing"$'\n'"-------"$'\n'"$tm"$'\n\n'
	body+="Results"$'\n'"-------"$'\n'"$bt"$'\n\n'
	body+=$changes
	body+=$(fold -s -w 72 <<< "$base_text" | sed 's/ *$//')$'\n'
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

	# The whole posting as one mbox, the send-email dry run, and send.sh:
	# the same command without --dry-run
	cat "$cover" "${pfiles[@]}" > "$out/posting.mbox"
	send=(git send-email --confirm=always --no-thread --no-annotate --no-format-patch
		--suppress-cc=self --from="$ident" --8bit-encoding=UTF-8)
	say "$t: git send-email --dry-run"
	if ! (cd "$wt" && "${send[@]}" --dry-run --confirm=never "$cover" "${pfiles[@]}") \
		> "$out/send-email-dry-run.txt" 2>&1 < /dev/null; then
		tail -n 5 "$out/send-email-dry-run.txt" >&2
		die "git send-email --dry-run failed for $t (see $out/send-email-dry-run.txt)"
	fi
	{
		echo "#!/bin/bash"
		echo "# Sends the $t posting v$V as it was dry-run (send-email-dry-run.txt)."
		echo "# Needs git config sendemail.smtpServer (and smtpUser etc.) for your mail server."
		echo "cd \"\$(dirname \"\$0\")\" || exit 1"
		printf '%q ' "${send[@]}"
		printf '%q ' "${cover##*/}" "${pfiles[@]##*/}"
		echo
	} > "$out/send.sh"
	chmod +x "$out/send.sh"
	[ -z "$no_report" ] || say "WARNING: $t: $no_report; the cover letter says the posting is untested (run 'make check', then 'make mail' again)"
	say "$t: wrote $out ($((${#pfiles[@]} + 1)) mails, To: $(wc -l <<< "$uto") maintainer(s), Cc: $(grep -c . <<< "$ucc" || true))"
done
say "nothing was sent; read each send-email-dry-run.txt, then run its send.sh (docs/posting.md)"
