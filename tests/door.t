#!/usr/bin/env bash
# tests/door.t - the front door's defects of issue 42: make clean never
# deletes a tree with work in it, whatever BUILD names; no output folder
# outside the lab's folders; a knob of another target (or in lower case) is
# refused; what the line or a version decides is refused before any
# download or build; a long step says it is still running.
# Needs: bash, git, make.  Writes only a scratch folder and one scratch
# folder in the checkout's build/ (removed at the end); about 10 seconds.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
mkdir -p "$TOP/build"
lt=$(mktemp -d "$TOP/build/door.t-XXXXXX")
trap 'rm -rf "$tmp" "$lt"' EXIT
# no stage can install or extract a kernel source, should a check be missed
export APT_GET=/nonexistent/apt-get DEB_TARBALL=$tmp/no-such.tar.xz
mk() { make -s -C "$TOP" "$@" > "$tmp/out" 2>&1; }
status0=$(git -C "$TOP" status --porcelain | md5sum)

# --- make clean and a tree with an uncommitted edit -------------------------
# a kernel tree in the checkout's build/ (every folder there passes make
# clean's folder checks), with an edit that is committed nowhere
t=$lt/linux
mkdir -p "$t/mm"
git -C "$t" init -q
echo "int a;" > "$t/mm/memory.c"
git -C "$t" add mm/memory.c
git -C "$t" -c user.name=t -c user.email=t@t commit -q -m base
echo "int b;" > "$t/mm/memory.c"
mk clean BUILD="$t"
check "make clean BUILD=<a tree with an edit>: refused" test $? -ne 0
check "... one line: the tree has uncommitted changes" refused "$tmp/out" \
	"^ERROR: stage clean: $t has uncommitted changes; run 'make export' first, or FORCE=1 make clean to delete that work with $t$"
check "... and the edit is still there" grep -qx "int b;" "$t/mm/memory.c"
mk clean BUILD="$lt"
check "make clean BUILD=<a folder above that tree>: refused" refused "$tmp/out" \
	"^ERROR: stage clean: $t has uncommitted changes; "
mk clean BUILD="$t/mm"
check "make clean BUILD=<a folder inside that tree>: refused" refused "$tmp/out" \
	"^ERROR: stage clean: BUILD=$t/mm is inside the kernel tree $t; refusing to delete part of a tree "
check "... and the edit is still there" grep -qx "int b;" "$t/mm/memory.c"
# long steps say they still run: make clean's deletion among them
MMSCALE_PROGRESS_EVERY=1 bash -c 'source "$1/lab/lib/common.sh"; STAGE=x; progress "waiting" sleep 3.5' _ "$TOP" > "$tmp/out" 2>&1
# (how many times depends on the load: at least once, never a count)
check "progress: a 3.5 s step says 'still running' at 1 s" grep -q '^\[x +[0-9]*s\] waiting: still running$' "$tmp/out"
MMSCALE_PROGRESS_EVERY=1 bash -c 'source "$1/lab/lib/common.sh"; STAGE=x; progress "waiting" true' _ "$TOP" > "$tmp/out" 2>&1
check "progress: a step that ends at once says nothing" test ! -s "$tmp/out"
bash -c 'source "$1/lab/lib/common.sh"; progress "failing" false' _ "$TOP" > "$tmp/out" 2>&1
check "progress: the step's exit status is kept" test $? = 1
check "the silent steps of make source, make deps and make clean go through it" \
	bash -c 'grep -q "progress \"extracting\" tar" "$1/lab/stages/source.sh" && grep -q "progress \"git add" "$1/lab/stages/source.sh" &&
		grep -q "progress \"apt-get install\"" "$1/lab/stages/deps.sh" && grep -q "progress \"deleting" "$1/lab/stages/clean.sh"' _ "$TOP"
git -C "$t" checkout -q mm/memory.c
mk clean BUILD="$lt"
check "with the edit gone, make clean deletes it" test $? -eq 0 -a ! -e "$lt"

# --- output folders ---------------------------------------------------------
export BUILD=$tmp/build
mk bench OUT=/etc
check "make bench OUT=/etc: refused" test $? -ne 0
check "... one line: outside the lab's folders" refused "$tmp/out" "^ERROR: stage bench: OUT=/etc is outside the lab's folders; "
mk bench OUT="$TOP/lab"
check "make bench OUT=<the checkout's lab/>: refused" refused "$tmp/out" "^ERROR: stage bench: OUT=$TOP/lab is outside the lab's folders; "
MAIL_OUT=/etc "$TOP/lab/stages/mail.sh" --check > "$tmp/out" 2>&1
check "lab/stages/mail.sh MAIL_OUT=/etc: refused" refused "$tmp/out" "^ERROR: stage [a-z]*: MAIL_OUT=/etc is outside the lab's folders; "
mk build BUILD=/etc
check "make build BUILD=/etc: refused" refused "$tmp/out" "^ERROR: stage build: BUILD=/etc is not a folder the lab made "
check "nothing was made" test ! -e "$BUILD"

# --- knobs of another target, and of another case ---------------------------
mk run INJECT=leak
check "make run INJECT=leak: exit 2" test $? -eq 2
check "... one line: a knob of make stress, not of make run" refused "$tmp/out" "^ERROR: stage run: INJECT is a knob of make stress, not of make run "
# one name per knob: CONFIGS for every target that builds a kernel, and the
# old names warn (issue 42 item 5)
mk run CONFIGS=nosuch
check "make run CONFIGS=nosuch: the fragments are checked before any stage" refused "$tmp/out" "^ERROR: stage run: CONFIGS=nosuch: no configs/nosuch.config"
mk run RUN_CONFIGS=nosuch
check "make run RUN_CONFIGS=...: the old name warns and names the new one" has "$tmp/out" "^WARNING: stage run: RUN_CONFIGS is the old name of CONFIGS; it still works, until the next release$"
check "... and is read as CONFIGS" has "$tmp/out" "^ERROR: stage run: CONFIGS=nosuch: no configs/nosuch.config"
mk stress SECONDS=60 STRESS_SECONDS=90
check "make stress SECONDS=60 STRESS_SECONDS=90: refused, give the new name only" refused "$tmp/out" "^ERROR: stage stress: SECONDS is the old name of STRESS_SECONDS; give STRESS_SECONDS only "
mk run CONFIG=rt
check "make run CONFIG=rt: refused, did you mean CONFIGS" refused "$tmp/out" "^ERROR: stage run: CONFIG is not a knob of make run; did you mean CONFIGS\? "
mk stress stress_seconds=60
check "make stress stress_seconds=60: did you mean STRESS_SECONDS" refused "$tmp/out" "^ERROR: stage stress: stress_seconds is not a knob of make stress; did you mean STRESS_SECONDS\? "
mk run BOOT_TIME=60
check "make run BOOT_TIME=60: did you mean BOOT_TIMEOUT" refused "$tmp/out" "^ERROR: stage run: BOOT_TIME is not a knob of make run; did you mean BOOT_TIMEOUT\? "
mk run NOSUCHKNOB=1
check "make run NOSUCHKNOB=1 (on the command line): refused" refused "$tmp/out" "^ERROR: stage run: NOSUCHKNOB is not a knob of make run "
INJECT=leak mk run
check "INJECT=leak make run (in the environment): refused" refused "$tmp/out" "^ERROR: stage run: INJECT is a knob of make stress, not of make run "
PREFIX=/usr/local mk help
check "PREFIX=/usr/local in the environment (autotools'): make help runs, with a warning" \
	bash -c '[ "$2" = 0 ] && grep -q "^WARNING: stage help: PREFIX in the environment is a knob of make mail; make help does not read it$" "$1"' _ "$tmp/out" "$?"
check "nothing was made" test ! -e "$BUILD"

# --- what the line or a version decides, before any stage -------------------
mk layout
check "make layout on 7.3: refused before any compile" refused "$tmp/out" "^ERROR: stage layout: make layout measures the 6\.12 line's per-CPU memcg stock"
mk bench MATRIX=stock
check "make bench MATRIX=stock on 7.3: refused before any stage" refused "$tmp/out" "^ERROR: stage bench: MATRIX=stock is not a matrix of the 7\.3 \(mainline\) line \(its matrices: memcg slub\)$"
mk run VMTESTS=nosuch
check "make run VMTESTS=nosuch: refused before any stage" refused "$tmp/out" "^ERROR: stage run: VMTESTS: 'nosuch' is not a category of the 7\.3 \(mainline\) line's run_vmtests\.sh "
mk source BASE_VERSION=1.0
check "make source BASE_VERSION=1.0: refused before any download" refused "$tmp/out" "^ERROR: BASE_VERSION=1\.0 is not a version of linux-source-7\.3: the 7\.3 line is for Linux 7\.3\.\* \(tested on "
mk test BASE=9
check "make test BASE=9: refused in one line, no test run" refused "$tmp/out" "^ERROR: BASE=9 is not a line of the series "
check "nothing was made" test ! -e "$BUILD"
# the list VMTESTS is checked against is the tree's own, where there is one
if [ -f "$LB/linux/tools/testing/selftests/mm/run_vmtests.sh" ]; then
	check "patches/$_line/vmtests lists the categories of the tree's run_vmtests.sh" \
		test "$(grep -v '^#' "$LP/vmtests")" = "$(grep -o 'CATEGORY="[a-z0-9_]*"' "$LB/linux/tools/testing/selftests/mm/run_vmtests.sh" | sed 's/CATEGORY="//; s/"//' | sort -u)"
else
	skip "patches/$_line/vmtests against the tree's run_vmtests.sh" "no tree ($LB/linux: make tree)"
fi

# every line has the list, and its own default categories are in it
for l in $LINES; do
	miss=$(bash -c 'source "$1/patches/$2/line.env"; for c in $LINE_VMTESTS $LINE_SLAB_DEBUG_VMTESTS; do
		grep -qx -- "$c" "$1/patches/$2/vmtests" 2>/dev/null || echo "$c"; done' _ "$TOP" "$l")
	check "patches/$l/vmtests holds the line's own VMTESTS${miss:+ (missing: $(echo $miss))}" test -z "$miss"
done

check "the checkout is unchanged" test "$(git -C "$TOP" status --porcelain | md5sum)" = "$status0"
done_testing
