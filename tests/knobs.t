#!/usr/bin/env bash
# tests/knobs.t - the front door's second round (issue 26): make clean
# deletes only a folder the lab made; make build and make shell agree on
# one default kernel; a misspelt knob, an empty list item, a patch number
# past the series, a version without its changes and a path with blanks
# are each refused up front (or taken whole) with one ERROR line, and no
# file changes.  Each case is a new input of the kind the issue reported.
# Needs: bash, git, make.  Runs in a scratch BUILD; a few seconds.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD=$tmp/build
# a guard: no stage can install or extract a kernel source
export APT_GET=/nonexistent/apt-get DEB_TARBALL=$tmp/no-such.tar.xz
mk() { make -s -C "$TOP" "$@" > "$tmp/out" 2>&1; }
status0=$(git -C "$TOP" status --porcelain | md5sum)
top_snap=$(cd "$TOP" && git ls-files -s | md5sum)

# --- 1: make clean deletes only what the lab made -------------------------
# a folder of the checkout that git tracks (like BUILD=patches)
before=$(snap "$TOP/configs")
mk clean BUILD=configs
check "clean BUILD=configs: exit 2" test $? -eq 2
check "... one line: tracked files" refused "$tmp/out" "^ERROR: stage clean: BUILD=configs holds files tracked by git \(configs\); refusing to delete it$"
check "... and configs/ is as it was" test "$(snap "$TOP/configs")" = "$before"
# a folder above the checkout (like BUILD=..)
mk clean BUILD=../..
check "clean BUILD=../..: exit 2" test $? -eq 2
check "... one line: it holds the checkout" refused "$tmp/out" "^ERROR: stage clean: BUILD=\.\./\.\. holds this checkout \($TOP\); refusing to delete it$"
check "... and the checkout is still there" test -f "$TOP/Makefile"
# an unrelated folder, with files, that the lab did not make
mkdir -p "$tmp/mine" && echo keep > "$tmp/mine/notes.txt"
before=$(snap "$tmp/mine")
mk clean BUILD="$tmp/mine"
check "clean BUILD=<a folder of mine>: exit 2" test $? -eq 2
check "... one line: no marker" refused "$tmp/out" "^ERROR: stage clean: BUILD=$tmp/mine was not made by the lab \(no \.mmscale-build in it\); refusing to delete it$"
check "... and it is as it was" test "$(snap "$tmp/mine")" = "$before"
FORCE=1 mk clean BUILD="$tmp/mine"
check "... FORCE=1 does not override it" test $? -eq 2 -a "$(snap "$tmp/mine")" = "$before"
# a folder the lab made (a stage's log made it, with the marker) goes
BUILD=$tmp/made LOGS=$tmp/made MMSCALE_DEPS=bash "$TOP/lab/stages/deps.sh" > /dev/null 2>&1
check "a stage that makes BUILD writes the marker" test -f "$tmp/made/.mmscale-build"
mk clean BUILD="$tmp/made"
check "... and make clean deletes that folder" test $? -eq 0 -a ! -e "$tmp/made"

# --- 3: one default kernel ---------------------------------------------------
source "$TOP/lab/lib/common.sh"
name=${DEFAULT_CONFIGS// /-}
KSRC=$tmp/nokernel "$TOP/lab/stages/build.sh" > "$tmp/out" 2>&1
check "make build's default kernel is DEFAULT_CONFIGS ($name)" refused "$tmp/out" "^ERROR: stage build $name: no kernel tree at "
"$TOP/lab/stages/shell.sh" > "$tmp/out" 2>&1
check "make shell's default is the same kernel" refused "$tmp/out" "^ERROR: stage shell: no kernel in $BUILD/$name; run make build first$|^ERROR: stage shell: no kernel in $BUILD/$name; run make build CONFIGS=\"$DEFAULT_CONFIGS\" first$"
check "make run's and make bisect's defaults are it too" \
	test "$(script_default CONFIGS "$TOP/lab/stages/run.sh")" = "$DEFAULT_CONFIGS" -a "$(script_default CONFIGS "$TOP/lab/stages/bisect.sh")" = "$DEFAULT_CONFIGS"
check "the Makefile sets no default of its own" bash -c "! grep -qE '^CONFIGS *[?:]?=' '$TOP/Makefile'"

# --- 4: misspelt knobs and empty items are refused ---------------------------
mk bench SECONDS_PR=5
check "make bench SECONDS_PR=5: exit 2" test $? -eq 2
check "... did you mean SECONDS_PER" refused "$tmp/out" "^ERROR: stage bench: SECONDS_PR is not a knob of make bench; did you mean SECONDS_PER\? \(make bench takes: .*\)$"
RUN=2 mk bench
check "RUN=2 make bench: refused, did you mean RUNS" refused "$tmp/out" "^ERROR: stage bench: RUN is not a knob of make bench; did you mean RUNS\? "
mk build CONFIG=rt
check "make build CONFIG=rt: did you mean CONFIGS" refused "$tmp/out" "^ERROR: stage build: CONFIG is not a knob of make build; did you mean CONFIGS\? "
mk mail MAIL_FORM="A <a@b.org>"
check "make mail MAIL_FORM=...: did you mean MAIL_FROM (two letters swapped)" refused "$tmp/out" "^ERROR: stage mail: MAIL_FORM is not a knob of make mail; did you mean MAIL_FROM\? "
mk check BOOT_TIMEOUTS=60
check "make check BOOT_TIMEOUTS=60: did you mean BOOT_TIMEOUT" refused "$tmp/out" "^ERROR: stage check: BOOT_TIMEOUTS is not a knob of make check; did you mean BOOT_TIMEOUT\? "
mk stress STRESS_SECONDS=60 INJECT=,leak
check "make stress INJECT=,leak: exit 2" test $? -eq 2
check "... one line: an empty item" refused "$tmp/out" "^ERROR: stage stress: INJECT: an empty item in ',leak' \(two commas, or a comma at an end\)$"
BENCH=page_fault1:threads:2,, "$TOP/lab/stages/bench.sh" --plan > "$tmp/out" 2>&1
check "BENCH=<item>,, is refused" refused "$tmp/out" "^ERROR: stage bench: BENCH: an empty item in 'page_fault1:threads:2,,' "
mk bisect LAST=30
check "make bisect LAST=30: refused before any stage" refused "$tmp/out" "^ERROR: stage bisect: usage: lab/stages/bisect.sh \[FIRST \[LAST\]\] with 1 <= FIRST <= LAST <= [0-9]+ \(patches/ holds [0-9]+ patches\), not '1 30'$"
mk mail V=4 TOPIC=$LT MAIL_FROM="A Poster <poster@example.org>"
check "make mail V=4 without its changes: refused before any stage" refused "$tmp/out" "^ERROR: stage mail: V=4: patches/$_line/$LT/cover has no '## Changes in v4'; write what changed in v4 first$"
check "nothing was made (no BUILD)" test ! -e "$BUILD"
# a plain variable of the environment that only looks alike is not a knob
HOSTNAME=x HOME=$HOME LANG=C.UTF-8 "$TOP/lab/lib/knobs.sh" bench > "$tmp/out" 2>&1
check "HOSTNAME, HOME and LANG are not taken for HOST or LAST" test $? -eq 0 -a ! -s "$tmp/out"

# --- 4: a path with blanks is one argument; a workload by its name -----------
mkdir -p "$tmp/with space/a" "$tmp/with space/b"
"$TOP/lab/py/compare.py" collect --out "$tmp/with space/a/results.json" --accel host \
	host:1:$TOP/tests/data/bench/base-1.log: host:2:$TOP/tests/data/bench/base-2.log: > /dev/null
"$TOP/lab/py/compare.py" collect --out "$tmp/with space/b/results.json" --accel host \
	host:1:$TOP/tests/data/bench/head-1.log: host:2:$TOP/tests/data/bench/head-2.log: > /dev/null
mk compare A="$tmp/with space/a" B="$tmp/with space/b"
check "make compare A= B= '<paths with a blank>': exit 0" test $? -eq 0
check "... and writes its table" test -n "$(ls "$BUILD"/compare/*/compare.txt 2>/dev/null)"
rm -rf "$BUILD"
BENCH=memcg-madvise-fault "$TOP/lab/stages/bench.sh" --plan > "$tmp/out" 2>&1
check "BENCH=memcg-madvise-fault (not in the default set) takes the full matrix's items" \
	test "$(cat "$tmp/out")" = "memcg-madvise-fault:1,memcg-madvise-fault:4,memcg-madvise-fault:32"
BENCH=sigqueue "$TOP/lab/stages/bench.sh" --plan > "$tmp/out" 2>&1
check "BENCH=sigqueue (in no matrix) says to give its parameters" refused "$tmp/out" "^ERROR: stage bench: workload 'sigqueue' is in no matrix: give it with its parameters \(want sigqueue:SIGNALS:ROUNDS\)$"

check "the checkout is unchanged" test "$(git -C "$TOP" status --porcelain | md5sum)" = "$status0" -a \
	"$(cd "$TOP" && git ls-files -s | md5sum)" = "$top_snap"
done_testing
