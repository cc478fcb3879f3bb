#!/usr/bin/env bash
# tests/mail.t - lab/mail.sh (make mail): refuses a missing or placeholder
# identity, a bad version or topic with one line, and writes a posting per
# topic whose To/Cc name that topic's maintainers and lists, whose From and
# Signed-off-by are the poster's, and whose mbox and dry run exist.
# Needs: build/src and build/linux ("make tree"); about a minute.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check "build/linux exists (make tree ran)" test -d "$TOP/build/linux/.git"

# No identity: an empty HOME and no system config
mkdir -p "$tmp/home"
HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 MAIL_FROM= MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "no identity is refused" test $? -ne 0
check "... with one ERROR line naming the fix" has "$tmp/o" '^ERROR: stage mail: no poster identity: set git config user.name and user.email, or MAIL_FROM='
check "... and nothing is written" test ! -e "$tmp/out"

MAIL_FROM="mmscale developers <mmscale@localhost>" MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "the placeholder identity is refused" has "$tmp/o" "^ERROR: stage mail: poster identity .* is the repository's placeholder"
MAIL_FROM="nobody" MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "an identity without an address is refused" has "$tmp/o" "^ERROR: stage mail: poster identity 'nobody' is not 'Full Name <address@domain>'"
MAIL_FROM="A Poster <poster@example.org>" V=0 MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "V=0 is refused" has "$tmp/o" '^ERROR: stage mail: V=0: the version must be a number from 1 to 99'
MAIL_FROM="A Poster <poster@example.org>" TOPIC=nope MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "an unknown TOPIC is refused" has "$tmp/o" '^ERROR: stage mail: TOPIC=nope is not a topic; the topics are: '
MAIL_FROM="A Poster <poster@example.org>" TOPIC=slub V=2 MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "V=2 without its changes in the cover metadata is refused" \
	has "$tmp/o" "^ERROR: stage mail: patches/slub/cover has no '## Changes in v2'"
check "... and nothing is written" test ! -e "$tmp/out/slub/v2"

# A real posting of every topic, as a test identity
MAIL_FROM="A Poster <poster@example.org>" MAIL_OUT=$tmp/out "$TOP/lab/mail.sh" > "$tmp/o" 2>&1
check "make mail writes every topic" test $? -eq 0
# expect TOPIC REGEX...: each REGEX is in the topic's cover letter headers
expect() {
	local t=$1 c
	shift
	c=$(ls "$tmp/out/$t/v1/"*0000-cover-letter.patch 2>/dev/null)
	sed '/^$/q' "$c" > "$tmp/h" 2>/dev/null
	for re in "$@"; do
		has "$tmp/h" "$re" || return 1
	done
}
check "ptlock: To the mm maintainer, Cc linux-mm" expect ptlock 'akpm@linux-foundation.org' 'linux-mm@kvack.org'
check "slub: To the slab maintainers" expect slub 'vbabka@suse.cz' 'cl@linux.com' 'linux-mm@kvack.org'
check "vmalloc: To the vmalloc maintainers" expect vmalloc 'urezki@gmail.com' 'akpm@linux-foundation.org'
check "memcg: To the memcg maintainers, Cc cgroups" expect memcg 'hannes@cmpxchg.org' 'mhocko@kernel.org' 'cgroups@vger.kernel.org'
check "slub's posting does not Cc memcg's list" bash -c "! sed '/^\$/q' $tmp/out/slub/v1/*0000-cover-letter.patch | grep -q cgroups@vger"
for t in ptlock slub vmalloc memcg; do
	d=$tmp/out/$t/v1
	check "$t: From is the poster in every mail" test "$(grep -c '^From: A Poster <poster@example.org>' "$d/posting.mbox")" = "$(grep -c '^From [0-9a-f]\{40\} ' "$d/posting.mbox")"
	check "$t: Signed-off-by the poster, never the placeholder" \
		bash -c "grep -q '^Signed-off-by: A Poster <poster@example.org>' $d/posting.mbox && ! grep -q 'mmscale@localhost' $d/posting.mbox"
	check "$t: every patch has its own To:" test "$(grep -c '^To: ' "$d/posting.mbox")" = "$(grep -c '^From [0-9a-f]\{40\} ' "$d/posting.mbox")"
	check "$t: the send-email dry run went through" has "$d/send-email-dry-run.txt" '^Dry-OK'
	check "$t: the cover letter has no format-patch marker left" bash -c "! grep -q '\*\*\* .* HERE \*\*\*' $d/*0000-cover-letter.patch"
	check "$t: the cover letter names the base" has "$d/posting.mbox" '^Based on Linux 6\.12\.[0-9]+'
done
done_testing
