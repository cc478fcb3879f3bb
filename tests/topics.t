#!/usr/bin/env bash
# tests/topics.t - lab/stages/topics.sh, the topic checks of make check, fails on
# broken inputs: a topic that needs another topic's context, two topics
# whose order changes the tree, an mbox that is not the topic, a new
# kernel-doc warning, and placeholder text in a changelog or cover letter.
# Each runs on a small synthetic baseline (a scratch BUILD), so no kernel
# tree is needed except scripts/kernel-doc from build/src ("make source");
# without it those cases are skipped, saying so.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

# The synthetic baseline: F.txt has the same six-line block at lines
# 50 and 100, so a hunk in the second block can land in the first one
# when a topic before it shifts the file; foo.c has good kernel-doc.
B=$tmp/build
mkdir -p "$B/src/scripts"
python3 - "$B/src/F.txt" <<'PY'
import sys
lines = ['line %d' % i for i in range(1, 201)]
for p in (50, 100):
    lines[p - 1:p + 5] = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6']
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
PY
cat > "$B/src/foo.c" <<'C'
/**
 * foo() - add one
 * @x: a number
 *
 * Return: @x plus one.
 */
int foo(int x)
{
	return x + 1;
}
C
# the kernel's own tools: 7.3's kernel-doc is a link to tools/docs/kernel-doc
# and loads its Python modules from tools/lib/python, which come along
if [ -f "$LB/src/scripts/kernel-doc" ]; then
	(cd "$LB/src" && cp -a --parents scripts/kernel-doc scripts/get_maintainer.pl \
		$([ -L scripts/kernel-doc ] && echo tools/docs tools/lib/python) "$B/src/") 2>/dev/null
fi
printf '%s\n' 'FOO' 'L:	foo@lists.example.org' 'S:	Maintained' 'F:	foo/' '' \
	'THE REST' 'L:	rest@lists.example.org' 'S:	Maintained' 'F:	*' 'F:	*/' > "$B/src/MAINTAINERS"
(cd "$B/src" && git init -q -b base . && git add -A && git commit -q -m base && git tag mmscale/base)
echo 6.12.117 > "$B/src.version"

# mk_topic NAME EDIT...: a patches/NAME folder with one patch per python
# EDIT (run in a scratch clone of the baseline, on top of the previous)
mk_topic() {
	local name=$1 w=$tmp/w-$1 i=0
	shift
	rm -rf "$w"
	git clone -q "$B/src" "$w"
	for e in "$@"; do
		i=$((i + 1))
		(cd "$w" && python3 -c "$e" && git add -A && git commit -q -m "$name: change $i" -m "Changelog of $name change $i.")
	done
	mkdir -p "$P/$name"
	git -C "$w" format-patch -q -o "$P/$name" mmscale/base..HEAD
	(cd "$P/$name" && ls *.patch > series)
}
ins() { # python: insert TEXT after line N of F.txt
	echo "L=open('F.txt').read().split('\n'); L[$1:$1]=['$2']; open('F.txt','w').write('\n'.join(L))"
}

run_topics() { BUILD=$B PATCHES=$P TREE=${TREE_T:-$tmp/none} "$TOP/lab/stages/topics.sh" "$@" > "$tmp/out" 2>&1; }

# 1. good topics: all checks pass
P=$tmp/p-good
mk_topic a "$(ins 3 A-NEW)"
mk_topic b "$(ins 102 B-NEW)"
printf 'a\nb\n' > "$P/series"
run_topics apply
check "good topics: apply passes" test $? -eq 0
check "good topics: each applies alone" has "$tmp/out" '^ok [0-9]+ - topic b applies alone'

# 2. a topic whose context is another topic's line does not apply alone
P=$tmp/p-dep
mk_topic a "$(ins 3 A-NEW)"
mk_topic c "$(ins 3 A-NEW)" "$(ins 4 C-AFTER-A)"
rm "$P/c/0001-"*; sed -i '1d' "$P/c/series"
printf 'a\nc\n' > "$P/series"
run_topics apply
check "a topic needing another's context fails" test $? -ne 0
check "... naming the topic and its patch" has "$tmp/out" '^not ok [0-9]+ - topic c applies alone .*# c/0002-c-change-2.patch does not apply'

# 3. two topics that apply in both orders but give different trees: a
# shifts F.txt by 50 lines, so b's hunk (block at line 100) finds the
# block at line 50 at its stated place
P=$tmp/p-order
mk_topic a "L=open('F.txt').read().split('\n'); L[3:3]=['pad %d' % i for i in range(50)]; open('F.txt','w').write('\n'.join(L))"
mk_topic b "$(ins 102 B-NEW)"
printf 'a\nb\n' > "$P/series"
run_topics apply
check "order-dependent topics fail" test $? -ne 0
check "... on forward vs reverse" has "$tmp/out" '^not ok [0-9]+ - forward and reverse order give the same tree'

# 4. mbox round trip: a posting that lacks a patch is not the topic
P=$tmp/p-mbox
mk_topic a "$(ins 3 A-NEW)" "$(ins 5 A-TWO)"
printf 'a\n' > "$P/series"
mkdir -p "$tmp/mail/a/v1"
# a posting starts with its cover letter, which has no diff
printf '%s\n' 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001' \
	'From: t <t@example.org>' 'Date: Thu, 1 Jan 2026 00:00:00 +0000' 'Subject: [PATCH 0/2] a: two lines' \
	'' 'Why the two lines.' '' 't (2):' '  a: change 1' '  a: change 2' '' '-- ' '2.39.5' '' > "$tmp/cover"
cat "$tmp/cover" "$P/a/0001-"*.patch "$P/a/0002-"*.patch > "$tmp/mail/a/v1/posting.mbox"
run_topics "mbox=$tmp/mail"
check "an mbox of the cover letter and the topic's patches passes" test $? -eq 0
# b4's cover letter carries a diffstat after "---": git am says "No valid
# patches in input" on it, not "Patch is empty"
printf '%s\n' 'From b4 Thu Jan  1 00:00:00 2026' \
	'From: t <t@example.org>' 'Subject: [PATCH RFC 0/2] a: two lines' \
	'' 'Why the two lines.' '' '---' 't (2):' '      a: change 1' '      a: change 2' '' \
	' a | 2 ++' ' 1 file changed, 2 insertions(+)' '---' 'change-id: 20260101-a-0123456789ab' '' \
	'Best regards,' '-- ' 't <t@example.org>' '' > "$tmp/cover-b4"
cat "$tmp/cover-b4" "$P/a/0001-"*.patch "$P/a/0002-"*.patch > "$tmp/mail/a/v1/posting.mbox"
run_topics "mbox=$tmp/mail"
check "... and with b4's cover letter first" test $? -eq 0
cat "$tmp/cover" "$P/a/0001-"*.patch > "$tmp/mail/a/v1/posting.mbox"
run_topics "mbox=$tmp/mail"
check "an mbox missing a patch fails" test $? -ne 0
check "... naming the topic" has "$tmp/out" '^not ok [0-9]+ - topic a: a/v1/posting.mbox gives the topic.s tree'
rm -rf "$tmp/mail/a"
run_topics "mbox=$tmp/mail"
check "no mbox for a topic fails" has "$tmp/out" '^not ok [0-9]+ - topic a: posting.mbox .*# no '

# 5 and 6 need the kernel's scripts/kernel-doc and get_maintainer.pl
# (build/src, from make source; make check has it)
if [ ! -f "$B/src/scripts/kernel-doc" ]; then
	for d in "a new kernel-doc warning fails" "... and is shown" "no new kernel-doc warning passes" \
		"a new file under a MAINTAINERS section passes" "a new file only THE REST covers fails"; do
		skip "$d" "no build/src/scripts/kernel-doc (make source)"
	done
else
	# 5. kernel-doc: a patch that breaks foo()'s comment adds a warning
	P=$tmp/p-kdoc
	mk_topic k "open('foo.c','a').write('\n/**\n * bar() - add two\n * @y: a number\n */\nint bar(int x)\n{\n\treturn x + 2;\n}\n')"
	printf 'k\n' > "$P/series"
	rm -rf "$tmp/head"; git clone -q "$B/src" "$tmp/head"
	git -C "$tmp/head" am -q "$P/k/"*.patch
	TREE_T=$tmp/head run_topics kerneldoc
	check "a new kernel-doc warning fails" test $? -ne 0
	check "... and is shown" has "$tmp/out" "^# (foo\.c: warning: |Warning: foo\.c: ).*'bar'"
	git -C "$tmp/head" reset -q --hard mmscale/base
	TREE_T=$tmp/head run_topics kerneldoc
	check "no new kernel-doc warning passes" test $? -eq 0

	# 6. a new file that no MAINTAINERS section but THE REST covers
	P=$tmp/p-maint
	mk_topic m "import os; os.makedirs('foo', exist_ok=True); open('foo/new.c', 'w').write('int x;\\n')"
	printf 'm\n' > "$P/series"
	rm -rf "$tmp/head"; git clone -q "$B/src" "$tmp/head"
	git -C "$tmp/head" am -q "$P/m/"*.patch
	TREE_T=$tmp/head run_topics maintainers
	check "a new file under a MAINTAINERS section passes" test $? -eq 0
	mk_topic m "import os; os.makedirs('bar', exist_ok=True); open('bar/new.c', 'w').write('int x;\\n')"
	git -C "$tmp/head" reset -q --hard mmscale/base; git -C "$tmp/head" am -q "$P/m/"*.patch
	TREE_T=$tmp/head run_topics maintainers
	check "a new file only THE REST covers fails" has "$tmp/out" '^not ok [0-9]+ - MAINTAINERS covers each file .*# no section but THE REST for: bar/new.c'

fi

# 7. placeholders in a changelog and in a cover letter fail; in code they don't
P=$tmp/p-ph
mk_topic a "$(ins 3 'XXX in the code is fine')"
printf 'a\n' > "$P/series"
run_topics placeholders
check "XXX in a diff is not a placeholder" test $? -eq 0
sed -i 's/^Changelog of a change 1\./Numbers: (filled in later)/' "$P/a/0001-"*.patch
run_topics placeholders
check "'(filled in' in a changelog fails" has "$tmp/out" '^not ok [0-9]+ - no placeholder text .*a/0001-'
sed -i 's/^Numbers: (filled in later)/Changelog./' "$P/a/0001-"*.patch
printf '## Motivation\nTODO: say why\n' > "$P/a/cover"
run_topics placeholders
check "TODO in a cover letter fails" has "$tmp/out" '^not ok [0-9]+ - no placeholder text .*cover: TODO'

rm "$P/a/cover"
# the mailed cover letter (make mail's b4/0000-*.eml) is read too
mkdir -p "$tmp/md/a/v1/b4"
printf 'Subject: [PATCH 0/1] a\n\nFIXME: the numbers\n' > "$tmp/md/a/v1/b4/0000-a.eml"
MAILDIR=$tmp/md run_topics placeholders
check "FIXME in the mailed cover letter fails" has "$tmp/out" '^not ok [0-9]+ - no placeholder text .*0000-a\.eml: FIXME'

run_topics nonsense
check "an unknown check is refused" has "$tmp/out" "^ERROR: stage topics: unknown check 'nonsense'"
done_testing
