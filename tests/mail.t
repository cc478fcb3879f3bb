#!/usr/bin/env bash
# tests/mail.t - lab/stages/mail.sh (make mail): refuses a missing or placeholder
# identity, a bad version or topic with one line, and writes a posting per
# topic through b4 (prep, --auto-to-cc, send -o) whose To/Cc name that
# topic's maintainers and lists, whose From and Signed-off-by are the
# poster's, and whose mbox and send.sh exist.
# Needs: build/src and build/linux ("make tree"); skipped without them;
# about a minute.  Writes only into a scratch folder.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the refusals below come before any stage and need no tree; a scratch
# BUILD all the same, so that nothing is written into build/
export BUILD=$tmp/build LOGS=$tmp/logs

# A make check report of build/linux's tree, as lab/stages/run.sh leaves it
rep=$tmp/run
mkdir -p "$rep"
git -C "$LB/linux" rev-parse 'HEAD^{tree}' > "$rep/tree.txt" 2>/dev/null
printf '%s\n' 'suite                             passed  failed skipped' \
	'memcg_stock                           11       0       0' '1 passed, 0 failed, 0 skipped' > "$rep/summary.txt"
echo '{"passed": 1, "failed": 0, "skipped": 0}' > "$rep/result.json"
echo '{"accel": "tcg", "vcpus": 2, "nodes": 2, "mem_mib": 3072, "timeout_s": 2400}' > "$rep/console.boot.json"
export MAIL_REPORT=$rep

# No identity: an empty HOME and no system config (the repository's own
# config can still name one: then this case is skipped, saying so)
mkdir -p "$tmp/home"
if git -C "$TOP" config --local user.name > /dev/null || git -C "$TOP" config --local user.email > /dev/null; then
	_n=$((_n + 1)); echo "ok $_n - no identity is refused # SKIP this repository's .git/config sets user.name or user.email"
else
	HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 MAIL_FROM= MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
	check "no identity is refused" test $? -ne 0
	check "... with one ERROR line naming the fix" has "$tmp/o" '^ERROR: stage mail: no poster identity: set git config user.name and user.email, or MAIL_FROM='
	check "... and nothing is written" test ! -e "$BUILD/out"
fi

MAIL_FROM="mmscale developers <mmscale@localhost>" MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "the placeholder identity is refused" has "$tmp/o" "^ERROR: stage mail: poster identity .* is the repository's placeholder"
MAIL_FROM="nobody" MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "an identity without an address is refused" has "$tmp/o" "^ERROR: stage mail: poster identity 'nobody' is not 'Full Name <address@domain>'"
MAIL_FROM="A Poster <poster@example.org>" V=0 MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "V=0 is refused" has "$tmp/o" '^ERROR: stage mail: V=0: the version must be a number from 1 to 99'
MAIL_FROM="A Poster <poster@example.org>" TOPIC=nope MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "an unknown TOPIC is refused" has "$tmp/o" '^ERROR: stage mail: TOPIC=nope is not a topic; the topics are: '
MAIL_FROM="A Poster <poster@example.org>" TOPIC=$LT_LAST V=3 MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "V=3 without its changes in the cover metadata is refused" \
	has "$tmp/o" "^ERROR: stage mail: V=3: patches/$_line/$LT_LAST/cover has no '## Changes in v3'"
check "... and nothing is written" test ! -e "$BUILD/out/$LT_LAST/v3"
MAIL_FROM="A Poster <poster@example.org>" PREFIX='PATCH]' MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "a bad PREFIX is refused" has "$tmp/o" "^ERROR: stage mail: PREFIX='PATCH\]': a subject prefix is"

# from here on, postings: they need the checkout's source and tree
if [ ! -d "$LB/linux/.git" ] || [ ! -d "$LB/src/.git" ]; then
	skip "the postings" "no build/linux (make tree; make check has it)"
	done_testing
	exit
fi
# the posting's worktree goes to the scratch BUILD, which reads the
# checkout's source and tree
export TREE=$LB/linux
mkdir -p "$BUILD"
ln -s "$LB/src" "$BUILD/src"
cp "$LB/src.version" "$LB/src.origin" "$BUILD/"
B4=/nonexistent/b4 TOPIC=$LT MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/nob4 "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "no b4: refused with one line that says to run make deps, nothing written" \
	bash -c '[ "$(grep -c . "$1")" = 1 ] && grep -q "^ERROR: stage mail: b4 is missing; run .make deps. (Debian package b4)" "$1" && [ ! -e "$2" ]' _ "$tmp/o" "$BUILD/nob4"
MAIL_REPORT=$tmp/nowhere TOPIC=ptlock MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/nr "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "no make check report: make mail still writes the posting" test -f "$BUILD/nr/ptlock/v1/posting.mbox"
check "... warns" has "$tmp/o" "WARNING: ptlock: no make check report in MAIL_REPORT=$tmp/nowhere; the cover letter says the posting is untested"
check "... and the letter says so plainly" has "$BUILD/nr/ptlock/v1/posting.mbox" '^Not tested by the mmscale lab: this posting was prepared without a'
# without MAIL_REPORT it takes the newest run folder with a result.json; a
# folder without one (an older run's) is no report, and no reason to stop
mkdir -p "$BUILD/run-vm-debug-mmscale"
(unset MAIL_REPORT; TOPIC=ptlock MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/nr2 "$TOP/lab/stages/mail.sh") > "$tmp/o" 2>&1
check "a run folder without result.json: make mail still writes the posting" test -f "$BUILD/nr2/ptlock/v1/posting.mbox"
check "... and warns that there is no report" has "$tmp/o" "WARNING: ptlock: no make check report; the cover letter says the posting is untested"
rmdir "$BUILD/run-vm-debug-mmscale"
cp -a "$rep" "$tmp/old"; echo 0000000000000000000000000000000000000000 > "$tmp/old/tree.txt"
MAIL_REPORT=$tmp/old TOPIC=ptlock MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/nr "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "a report of another tree is not quoted" bash -c "grep -q 'is not of build/linux.s tree' $tmp/o && ! grep -q 'memcg_stock  *11' $BUILD/nr/ptlock/v1/posting.mbox"

# A real posting of every topic, as a test identity
MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/out "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "make mail writes every topic" test $? -eq 0
# expect TOPIC REGEX...: each REGEX is in the topic's cover letter headers
expect() {
	local t=$1 c
	shift
	c=$(ls "$BUILD/out/$t/v1/b4/"0000-*.eml 2>/dev/null)
	sed '/^$/q' "$c" > "$tmp/h" 2>/dev/null
	for re in "$@"; do
		has "$tmp/h" "$re" || return 1
	done
}
# the report's result files, quoted in the cover letter: its counts
# (result.json) and how it booted (console.boot.json)
lt_mbox=$BUILD/out/$LT/v1/posting.mbox
check "the cover letter quotes the report's boot (console.boot.json)" \
	bash -c 'tr "\n" " " < "$1" | grep -qE "booted under QEMU \(tcg, 2 vCPUs, 2 NUMA +nodes, 3072 MiB\)"' _ "$lt_mbox"
# each topic's maintainers and lists, as the line's MAINTAINERS names them
# (7.3's SLAB section: Vlastimil Babka at kernel.org, Harry Yoo; 6.12's:
# at suse.cz, Christoph Lameter at linux.com); a topic the line does not
# have yet is not checked
topics=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LP/series")
has_topic() { grep -qx "$1" <<< "$topics"; }
has_topic ptlock && check "ptlock: To the mm maintainer, Cc linux-mm" expect ptlock 'akpm@linux-foundation.org' 'linux-mm@kvack.org'
case $_line in
6.12) slab_to=('vbabka@suse.cz' 'cl@linux.com') ;;
*) slab_to=('vbabka@kernel.org' 'harry@kernel.org') ;;
esac
has_topic slub && check "slub: To the slab maintainers" expect slub "${slab_to[@]}" 'linux-mm@kvack.org'
has_topic vmalloc && check "vmalloc: To the vmalloc maintainers" expect vmalloc 'urezki@gmail.com' 'akpm@linux-foundation.org'
has_topic memcg && check "memcg: To the memcg maintainers, Cc cgroups" expect memcg 'hannes@cmpxchg.org' 'mhocko@kernel.org' 'cgroups@vger.kernel.org'
has_topic slub && check "slub's posting does not Cc memcg's list" bash -c "! sed '/^\$/q' $BUILD/out/slub/v1/b4/0000-*.eml | grep -q cgroups@vger"
# the postings: a topic whose cover has "## Fix N" goes out as two, its
# first N patches as <topic>-fix under a plain PATCH prefix
postings=()
for t in $topics; do
	np=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LP/$t/series" | wc -l)
	nfix=$(awk '/^## / { on = ($0 == "## Fix"); next } on && NF { print; exit }' "$LP/$t/cover")
	if [ -n "$nfix" ]; then
		postings+=("$t-fix:$nfix:PATCH" "$t:$((np - nfix)):RFC")
	else
		postings+=("$t:$np:RFC")
	fi
done
for p in "${postings[@]}"; do
	IFS=: read -r t want kind <<< "$p"
	d=$BUILD/out/$t/v1
	n=$(grep -c '^From ' "$d/posting.mbox")
	check "$t: the mbox holds every patch and the cover letter" test "$n" = "$((want + 1))"
	check "$t: b4 send -o wrote the same mails" test "$(ls "$d"/b4/*.eml | wc -l)" = "$n"
	check "$t: From is the poster in every mail" test "$(grep -c '^From: A Poster <poster@example.org>' "$d/posting.mbox")" = "$n"
	check "$t: Signed-off-by the poster, never the placeholder" \
		bash -c "grep -q '^Signed-off-by: A Poster <poster@example.org>' $d/posting.mbox && ! grep -q 'mmscale@localhost' $d/posting.mbox"
	check "$t: every mail has a To:" test "$(grep -c '^To: ' "$d/posting.mbox")" = "$n"
	check "$t: ... and the poster is in no To: or Cc: (b4 send --not-me-too)" python3 -c '
import mailbox, sys
from email.utils import getaddresses
for m in mailbox.mbox(sys.argv[1]):
    if any(a == "poster@example.org" for _, a in getaddresses(m.get_all("To", []) + m.get_all("Cc", []))):
        sys.exit(1)' "$d/posting.mbox"
	check "$t: the cover letter has nothing of b4's template left to edit" bash -c "! grep -q EDITME $d/posting.mbox"
	check "$t: the cover letter names the base" has "$d/posting.mbox" '^Based on Linux '"$LV"'\.[0-9]+'
	if [ "$kind" = RFC ]; then
		check "$t: the cover letter quotes the make check report" has "$d/posting.mbox" '^  memcg_stock +11 +0 +0'
	else
		check "$t: a fix's letter quotes no lab report or benchmark" bash -c '! grep -qE "^(Testing|Results)$|mmscale lab" "$1"' _ "$d/posting.mbox"
	fi
	check "$t: every mail is Cc'd to linux-mm" test "$(awk '
		/^From / { n++; inh = 1 } inh && /^$/ { inh = 0 }
		inh && /linux-mm@kvack\.org/ { has[n] = 1 }
		END { c = 0; for (i = 1; i <= n; i++) c += has[i]; print (n > 0 && c == n) ? "all" : c "/" n }' "$d/posting.mbox")" = all
	if [ "$kind" = RFC ]; then
		check "$t: subjects say PATCH RFC (b4's order)" has "$d/posting.mbox" '^Subject: \[PATCH RFC( 6\.12)? 0+/[0-9]+\]'
	else
		check "$t: a fix: subjects say PATCH, not RFC" bash -c 'grep -qE "^Subject: \[PATCH 0+/$2\]" "$1" && ! grep -q "^Subject: \[PATCH RFC" "$1"' _ "$d/posting.mbox" "$want"
		check "$t: ... with Fixes: and Cc: stable" bash -c 'grep -q "^Fixes: [0-9a-f]\{12\} (\"" "$1" && grep -q "^Cc: stable@vger.kernel.org" "$1"' _ "$d/posting.mbox"
	fi
	check "$t: send.sh runs b4 send on b4 prep's branch" bash -c "grep -q '^git checkout -q b4/$t ' $d/send.sh && grep -q '^exec b4 send' $d/send.sh && test -x $d/send.sh"
done
# send.sh, with a stand-in b4 that sends nothing: it runs b4 send
# --not-me-too on b4 prep's branch as the poster, and refuses once that
# branch is no longer the commit the mails came from
mkdir -p "$tmp/fakeb4"
printf '%s\n' '#!/bin/sh' 'echo "fake b4 $* as $(git config user.name) <$(git config user.email)> on $(git rev-parse --abbrev-ref HEAD)"' > "$tmp/fakeb4/b4"
chmod +x "$tmp/fakeb4/b4"
PATH=$tmp/fakeb4:$PATH "$BUILD/out/$LT/v1/send.sh" --reflect > "$tmp/o" 2>&1
check "send.sh runs b4 send --not-me-too with its arguments, as the poster, on b4/$LT" \
	has "$tmp/o" "^fake b4 send --not-me-too --reflect as A Poster <poster@example.org> on b4/$LT\$"
git -C "$BUILD/mail-tree" commit -q --allow-empty -m "a later change" > /dev/null 2>&1
PATH=$tmp/fakeb4:$PATH "$BUILD/out/$LT/v1/send.sh" > "$tmp/o" 2>&1
rc=$?
check "... and refuses when b4/$LT has moved since (make mail or make check rebuilt it)" \
	bash -c '[ "$3" != 0 ] && grep -q "^b4/$2 is no longer the commit of this posting" "$1" && ! grep -q "fake b4" "$1"' _ "$tmp/o" "$LT" "$rc"

# V=2 and PREFIX=PATCH: b4 prep --force-revision, and no --set-prefixes
cp -a "$LP" "$tmp/pv2"
printf '\n## Changes in v2\n- a test of make mail V=2\n' >> "$tmp/pv2/$LT/cover"
PATCHES=$tmp/pv2 TOPIC=$LT V=2 PREFIX=PATCH MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/v2 "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "V=2 PREFIX=PATCH: the posting is written" test -f "$BUILD/v2/$LT/v2/posting.mbox"
check "... its subjects say PATCH v2" has "$BUILD/v2/$LT/v2/posting.mbox" '^Subject: \[PATCH v2 0+/[0-9]+\]'
check "... with v2's and v1's changes in the cover letter" \
	bash -c 'grep -q "^Changes in v2:" "$1" && grep -q "^Changes in v1:" "$1"' _ "$BUILD/v2/$LT/v2/posting.mbox"

# a patch paragraph of the cover must name the patch's option or say that
# it takes none ("no option", a bug fix): one that does neither is refused
t=$LT
cp -a "$LP" "$tmp/pc"
# the first paragraph under "## Patches", its options and "no option" taken out
python3 -c '
import re, sys
s = open(sys.argv[1]).read()
i = s.index("## Patches\n") + len("## Patches\n")
j = s.find("\n\n", i)
p = re.sub(r"[Nn]o option", "nothing", re.sub(r"CONFIG_[A-Z0-9_]+", "its option", s[i:j]))
sys.stdout.write(s[:i] + p + s[j:])' "$LP/$t/cover" > "$tmp/pc/$t/cover"
PATCHES=$tmp/pc TOPIC=$t MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$BUILD/pco "$TOP/lab/stages/mail.sh" > "$tmp/o" 2>&1
check "a cover paragraph naming no option and not saying 'no option' is refused" \
	has "$tmp/o" "^ERROR: stage mail: .*/$t/cover: patch paragraph 1 names no Kconfig option \(CONFIG_...\) and does not say 'no option'"
done_testing
