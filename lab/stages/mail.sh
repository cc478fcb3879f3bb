#!/usr/bin/env bash
# lab/stages/mail.sh - stage "mail": prepare a linux-mm posting per topic.  Sends
# nothing.
#
# Usage: lab/stages/mail.sh [--check]   (make mail [TOPIC=name] [V=n])
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
#                and MAINTAINERS give To/Cc (default build/linux, i.e. the
#                line's MAINTAINERS; a current mm-new or linux-next tree
#                names today's maintainers)
#   BASE_COMMIT=sha  the upstream commit of the baseline for the
#                "base-commit:" line (default: the commit of a LINUX_SRC git
#                tree; none for Debian's linux-source, which carries
#                Debian's own patches on top of the release)
# What it does, for each topic, with b4 0.12 (docs/posting.md) in a
# scratch clone of the baseline: b4 prep -n <topic> (a branch b4/<topic>
# from the baseline); git am's patches/<line>/<topic>/ onto it, the poster
# the author, the placeholder Signed-off-by replaced with the poster's;
# b4 prep --edit-cover with the cover letter's text, from
# patches/<line>/<topic>/cover (subject, motivation, one paragraph per
# patch, changes per version), the make check report (test matrix) and the
# newest saved "make bench" results that hold the topic's workloads (an
# LKP-format table via lab/py/compare.py, or a plain statement that there are
# none); b4 prep --set-prefixes and --force-revision; b4 prep
# --auto-to-cc with MAINTAINERS_TREE's get_maintainer.pl (To: --nol, Cc:
# --nom); b4 send -o (every mail, none sent).  Writes b4/ (those mails),
# posting.mbox (the same, cover letter first: git am stops at it, "git am
# --skip" goes on) and send.sh (b4 send on that branch).
# Output: MAIL_OUT/<topic>/v<N>/ (replaced if it exists).
# What it needs: git, b4 (lab/stages/deps.sh), perl, python3, build/src and
# build/linux ("make tree"); a make check report of the same tree.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
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
MAIL_OUT=${MAIL_OUT:-$BUILD/mail}
want_lab_path MAIL_OUT
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
B4=${B4:-b4}   # tests point this at a missing command
command -v "$B4" > /dev/null || die "b4 is missing; run 'make deps' (Debian package b4)"

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

# The make check run to quote: MAIL_REPORT, or the newest build/<line>/run-*/
# with a summary.  It must be of build/linux's tree (run.sh writes
# tree.txt), so a v2 never quotes v1's results.
if [ -n "${MAIL_REPORT:-}" ]; then
	rdir=${MAIL_REPORT%/}
else
	rdir=$({ ls -td "$BUILD"/run-*/ 2>/dev/null || true; } | while read -r x; do
		[ -f "$x/result.json" ] && { echo "${x%/}"; break; }; done || true)
fi
no_report=
if [ -z "$rdir" ] || [ ! -f "$rdir/result.json" ]; then
	no_report="no make check report${MAIL_REPORT:+ in MAIL_REPORT=$MAIL_REPORT}"
elif [ "$(cat "$rdir/tree.txt" 2>/dev/null)" != "$(git -C "$TREE" rev-parse 'HEAD^{tree}')" ]; then
	no_report="the make check report in $rdir is not of build/linux's tree"
fi
if [ -z "$no_report" ]; then
	r_fail=$(json_fields "$rdir/result.json" failed || true)
	[ "${r_fail:-1}" = 0 ] || say "WARNING: the make check report in $rdir has ${r_fail:-?} failure(s); the cover letter shows them"
	r_boot=$(json_fields "$rdir/console.boot.json" accel vcpus nodes mem_mib |
		awk '{ printf "%s, %s vCPUs, %s NUMA nodes, %s MiB", $1, $2, $3, $4 }' || true)
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
	echo "From 'make bench', results ${found#"$BUILD"/} (lab/py/compare.py report):"
	echo
	"$LAB_DIR/py/compare.py" report "$found" > "$BUILD/mail-compare.txt" 2>&1 || {
		cat "$BUILD/mail-compare.txt" >> "$STAGE_LOG"
		return 1
	}
	sed 's/^/  /' "$BUILD/mail-compare.txt"
}

# post NAME SUBJECT MOTIVATION PREFIX FORK DEPS KIND: write the posting NAME
# (MAIL_OUT/NAME/vV) of topic t's patches in files[] and their paragraphs
# in paras, onto FORK; DEPS: the topic's patch files that come first, on
# the branch the posting forks from (a fix posted on its own), or "";
# KIND: fix (a fix posted alone) or topic.
post() {
	local name=$1 subject=$2 motivation=$3 prefix=$4 fork=$5 deps=$6 kind=$7 out body tm bt extra head
	local mails f
	out=$MAIL_OUT/$name/v$V
	if [ -d "$out" ]; then
		say "$name: replacing $out"
		rm -rf "$out"
	fi
	mkdir -p "$out"

	say "$name: b4 prep, ${#files[@]} patch(es) onto Linux $ver${deps:+ and the fix} as $ident"
	# The cover letter's text: b4 adds the shortlog, the diffstat and
	# change-id (the template below), and To/Cc
	body=$motivation$'\n\n'$paras$'\n\n'
	# a fix's letter is its motivation, with the reproducer in it: no
	# lab report, no benchmark table, no history of the topic
	if [ "$kind" != fix ]; then
		tm=$(test_matrix "$rdir" "$t") || die "could not read the make check report in $rdir"
		bt=$(bench_table "$bench_re") || die "lab/py/compare.py report failed on the bench results (log: $STAGE_LOG)"
		body+="Testing"$'\n'"-------"$'\n'"$tm"$'\n\n'
		body+="Results"$'\n'"-------"$'\n'"$bt"$'\n\n'
		body+=$changes
	fi
	body+=$(fold -s -w 72 <<< "$base_text" | sed 's/ *$//')$'\n'
	[ -z "$base_commit" ] || body+=$'\n'"base-commit: $base_commit"$'\n'
	printf '%s\n\n%s' "$subject" "$body" > "$wt/.git/mmscale-cover.txt"

	# b4 prep: a branch b4/<topic> from the baseline, the cover letter
	# (b4 --edit-cover, the editor a copy), the prefixes and the
	# revision, then --auto-to-cc: get_maintainer.pl of MAINTAINERS_TREE
	# per patch, To: --nol (maintainers, reviewers), Cc: --nom (the
	# lists), all collected on the cover letter
	gm="perl $MAINTAINERS_TREE/scripts/get_maintainer.pl --mpath $MAINTAINERS_TREE/MAINTAINERS --nogit --nogit-fallback --nogit-chief-penguins --norolestats"
	git -C "$wt" config b4.send-auto-to-cmd "$gm --nol"
	git -C "$wt" config b4.send-auto-cc-cmd "$gm --nom"
	printf '%s\n' '${cover}' '' '---' '${shortlog}' '' '${diffstat}' '---' 'change-id: ${change_id}' '' \
		'Best regards,' '-- ' '${signature}' > "$wt/.git/mmscale-cover.tmpl"
	git -C "$wt" config b4.prep-cover-template "$wt/.git/mmscale-cover.tmpl"
	# what a user's own b4 settings would change: the cover letter in its
	# own commit, no standing To/Cc, the editor a copy of the text
	git -C "$wt" config b4.prep-cover-strategy commit
	git -C "$wt" config b4.send-series-to ""
	git -C "$wt" config b4.send-series-cc ""
	git -C "$wt" config core.editor "cp $wt/.git/mmscale-cover.txt"
	git -C "$wt" config user.name "$pname"
	git -C "$wt" config user.email "$paddr"
	git -C "$wt" am --abort > /dev/null 2>&1 || true
	run_logged git -C "$wt" checkout -q -f -B mmscale-base "$BASE_TAG" || die "checkout of $BASE_TAG failed"
	git -C "$wt" branch -q -D "b4/$name" > /dev/null 2>&1 || true
	extra=$(tr ' ' '\n' <<< "$prefix" | grep -vx PATCH | paste -sd' ' || true)
	# each step that fails says so last in the log: "failed: STEP"
	if ! (
		fail() { echo "failed: $*"; exit 1; }
		cd "$wt" || fail "cd $wt"
		if [ -n "$deps" ]; then
			# the fix, as the poster's commits, is the fork point
			git checkout -q -f -B "mmscale-deps-$name" "$BASE_TAG" || fail "checkout of $BASE_TAG"
			for f in $deps; do
				git -c am.threeWay=false am -q "$PATCHES/$t/$f" || fail "$PDIR/$t/$f does not apply to Linux $ver"
				git log -1 --format=%B | sed '/^Signed-off-by: mmscale developers <mmscale@localhost>$/d' |
					git commit -q --amend --reset-author -s -F - || fail "setting the poster on $PDIR/$t/$f"
			done
			fork=$(git rev-parse HEAD)
		fi
		"$B4" prep -n "$name" -f "$fork" || fail "b4 prep -n $name"
		for f in "${files[@]}"; do
			git -c am.threeWay=false am -q "$PATCHES/$t/$f" || fail "$PDIR/$t/$f does not apply to Linux $ver"
			git log -1 --format=%B | sed '/^Signed-off-by: mmscale developers <mmscale@localhost>$/d' |
				git commit -q --amend --reset-author -s -F - || fail "setting the poster on $PDIR/$t/$f"
		done
		"$B4" prep --edit-cover || fail "b4 prep --edit-cover"
		[ -z "$extra" ] || "$B4" prep --set-prefixes $extra || fail "b4 prep --set-prefixes $extra"
		[ "$V" = 1 ] || "$B4" prep --force-revision "$V" || fail "b4 prep --force-revision $V"
		"$B4" prep --auto-to-cc || fail "b4 prep --auto-to-cc"
	) >> "$STAGE_LOG" 2>&1; then
		die "$(tail -n1 "$STAGE_LOG" | sed -n 's/^failed: //p' | grep . || echo "b4 prep of $name")"
	fi

	# b4 send -o: every mail, as b4 would send it, and nothing sent (the
	# dummy SMTP server stops b4 from choosing its web endpoint, which
	# would want a signing key); --not-me-too: not to the poster
	say "$name: b4 send -o (a dry run: every mail written, none sent)"
	(cd "$wt" && GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpServer GIT_CONFIG_VALUE_0=/bin/false \
		"$B4" send -o "$out/b4" --no-sign --not-me-too) >> "$STAGE_LOG" 2>&1 ||
		die "b4 send -o failed for $name"
	mapfile -t mails < <(ls "$out"/b4/*.eml)
	[ "${#mails[@]}" = "$((${#files[@]} + 1))" ] ||
		die "b4 send -o wrote ${#mails[@]} mails for $name; expected ${#files[@]} patches and a cover letter"
	# the whole posting as one mbox (Python's mailbox: a body's "From "
	# lines are quoted ">From "), cover letter first: git am stops at it,
	# "git am --skip" goes on
	python3 -c 'import mailbox, sys
mb = mailbox.mbox(sys.argv[1])
for f in sys.argv[2:]:
    mb.add(mailbox.mboxMessage(open(f, "rb").read()))
mb.flush()' "$out/posting.mbox" "${mails[@]}" || die "could not write $out/posting.mbox"
	grep -q '^To: .*@' "${mails[0]}" || die "get_maintainer.pl found nobody for $name: its cover letter has no To"
	# send.sh sends b4 prep's branch as it is now: it must still be the
	# commit these mails were written from (make check's topic checks and
	# a later make mail rebuild it, with another identity or version)
	head=$(git -C "$wt" rev-parse "b4/$name")
	{
		echo "#!/bin/bash"
		echo "# Sends the $name posting v$V as b4 wrote it in b4/: b4 send on b4 prep's"
		echo "# branch b4/$name of the mail tree, still at the commit the mails came from."
		echo "# Needs your mail server in git config sendemail.*, and a patatt key"
		echo "# unless you pass --no-sign (docs/posting.md); b4 asks before it sends."
		echo "cd $(printf '%q' "$wt") || exit 1"
		echo "[ \"\$(git rev-parse b4/$name 2>/dev/null)\" = $head ] ||"
		echo "	{ echo \"b4/$name is no longer the commit of this posting (make mail or make check rebuilt it); run make mail again\" >&2; exit 1; }"
		echo "git checkout -q b4/$name || exit 1"
		printf 'export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=%q GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=%q\n' "$pname" "$paddr"
		echo 'exec b4 send --not-me-too "$@"'
	} > "$out/send.sh"
	chmod +x "$out/send.sh"
	[ -z "$no_report" ] || say "WARNING: $name: $no_report; the cover letter says the posting is untested (run 'make check', then 'make mail' again)"
	say "$name: wrote $out (${#mails[@]} mails; To/Cc: the head of b4/0000-*.eml)"
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

	# A fix at the head of the topic ("## Fix": how many patches) goes out
	# first as its own posting, <topic>-fix, under a plain PATCH prefix
	# (for the stable trees), with its own subject and motivation; the
	# rest follows as the topic's posting, on top of it.
	nfix=$(section "$meta" Fix | head -n1)
	if [ -n "$nfix" ]; then
		[[ $nfix =~ ^[1-9][0-9]*$ ]] && [ "$nfix" -lt "${#files[@]}" ] ||
			die "$PDIR/$t/cover: '## Fix' must be the number of leading patches that fix (1 to $((${#files[@]} - 1))), not '$nfix'"
		fix_subject=$(section "$meta" "Fix subject" | head -n1)
		fix_motivation=$(section "$meta" "Fix motivation")
		[ -n "$fix_subject" ] && [ -n "$fix_motivation" ] ||
			die "$PDIR/$t/cover has '## Fix' but no '## Fix subject' or '## Fix motivation'"
		all_files=("${files[@]}") all_paras=$paras
		files=("${all_files[@]:0:nfix}")
		paras=$(awk -v n="$nfix" 'BEGIN { RS = ""; ORS = "\n\n" } NR <= n' <<< "$all_paras")
		post "$t-fix" "$fix_subject" "$fix_motivation" PATCH "$BASE_TAG" "" fix
		files=("${all_files[@]:nfix}")
		paras=$(awk -v n="$nfix" 'BEGIN { RS = ""; ORS = "\n\n" } NR > n' <<< "$all_paras")
		motivation+=$'\n\n'"This series applies on top of the fix posted on its own as \"[PATCH] $fix_subject\" ($nfix patch(es))."
		post "$t" "$subject" "$(fold -s -w 72 <<< "$motivation" | sed 's/ *$//')" "$PREFIX" "$BASE_TAG" "${all_files[*]:0:nfix}" topic
	else
		post "$t" "$subject" "$motivation" "$PREFIX" "$BASE_TAG" "" topic
	fi
done

say "nothing was sent; read the mails in each b4/, then run its send.sh (docs/posting.md)"
