#!/usr/bin/env bash
# tests/badinput.t - each bad input ends a stage with a non-zero exit and
# one "ERROR: stage NAME: ... (log: FILE)" line: apt missing, a wrong source
# version, a build error, a QEMU that cannot boot, a guest that hangs.
# Needs: a built kernel under build/ for the hang case (make check builds it
# before running these tests; skipped without one); the other cases use
# scratch files only.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# apt unavailable, while a package is missing
MMSCALE_DEPS=mmscale-no-such-package APT_GET=/nonexistent/apt-get BUILD=$tmp/b1 \
	"$TOP/lab/stages/deps.sh" > "$tmp/out" 2>&1
check "deps: fails without apt-get" test $? -ne 0
check "deps: one clear error line" has "$tmp/out" '^ERROR: stage deps: apt-get is not available to install: mmscale-no-such-package \(log: .*/deps.log\)$'

DEB_TARBALL=$tmp/none.tar.xz APT_GET=/nonexistent/apt-get BUILD=$tmp/b2 \
	"$TOP/lab/stages/source.sh" > "$tmp/out" 2>&1
check "source: fails without the package and without apt-get" test $? -ne 0
check "source: error names apt and the package" has "$tmp/out" '^ERROR: stage source: apt-get is not available to install linux-source-'"$LV"'.*\(log: .*/source.log\)$'

# wrong source version
mkdir -p "$tmp/linux-6.6/mm"
printf 'VERSION = 6\nPATCHLEVEL = 6\nSUBLEVEL = 30\n' > "$tmp/linux-6.6/Makefile"
: > "$tmp/linux-6.6/Kconfig"
LINUX_SRC=$tmp/linux-6.6 BUILD=$tmp/b3 "$TOP/lab/stages/source.sh" > "$tmp/out" 2>&1
check "source: a 6.6 tree is refused" test $? -ne 0
check "source: error names the version" has "$tmp/out" '^ERROR: stage source: LINUX_SRC is Linux 6\.6\.30; the series is for Linux '"$LV"'\.y$'
check "source: nothing was created" test ! -e "$tmp/b3/src"

# a tree of the line's version is taken, into a repository that never gcs
# on its own (a background gc --auto once repacked it under lab/stages/objdiff.sh's
# cp -al)
mkdir -p "$tmp/linux-ok/mm"
printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 4\n' "${_line%.*}" "${_line#*.}" > "$tmp/linux-ok/Makefile"
: > "$tmp/linux-ok/Kconfig"
LINUX_SRC=$tmp/linux-ok BUILD=$tmp/b3b "$TOP/lab/stages/source.sh" > "$tmp/out" 2>&1
check "source: a $_line tree is taken" test $? -eq 0
check "source: its repository has gc.auto 0" test "$(git -C "$tmp/b3b/src" config gc.auto)" = 0

# a build error (a fake tree whose build fails like a compiler error)
mkdir -p "$tmp/ksrc/scripts/kconfig" "$tmp/ksrc/mm"
: > "$tmp/ksrc/Kconfig"
# (its merge_config.sh writes the fragments as the .config, which then
# has every requested value)
printf '#!/bin/sh\no=.; [ "$1" = -O ] && { o=$2; shift 2; }; cat "$@" > "$o/.config"\n' > "$tmp/ksrc/scripts/kconfig/merge_config.sh"
chmod +x "$tmp/ksrc/scripts/kconfig/merge_config.sh"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\nbzImage modules:\n\t@echo "mm/memory.c:1:1: error: expected something"; exit 1\n' > "$tmp/ksrc/Makefile"
KSRC=$tmp/ksrc BUILD=$tmp/b4 "$TOP/lab/stages/build.sh" vm > "$tmp/out" 2>&1
check "build: a compile error fails the stage" test $? -ne 0
check "build: error line names the stage and the build log" has "$tmp/out" '^ERROR: stage build vm: kernel: bzImage \+ modules, -j[0-9]+ failed \(log: .*/b4/vm/build.log\)$'
check "build: the compiler's error is shown" has "$tmp/out" 'mm/memory.c:1:1: error'

# QEMU that cannot start the kernel
echo "not a kernel" > "$tmp/bzImage"
ACCEL=tcg "$TOP/lab/stages/boot.sh" -k "$tmp/bzImage" -l "$tmp/console.log" -t 60 > "$tmp/out" 2>&1
check "boot: a bad kernel image fails" test $? -ne 0
check "boot: error names QEMU's exit and the log" has "$tmp/out" '^ERROR: stage boot: qemu-system-x86_64 exited with status [0-9]+ \(log: .*/console.log\)$'

# a guest that hangs: a real kernel given 4 s cannot finish its plan
# (a kernel of lab/stages/build.sh, which writes build.log; not e.g. a kunit.py build)
kernel=$(for d in "$LB"/*/; do [ -f "$d/build.log" ] && ls "$d"arch/x86/boot/bzImage; done 2>/dev/null | xargs -r ls -t | head -n1)
if [ -z "$kernel" ]; then
	for d in "boot: a hang is killed by the timeout" "boot: error says so and names the log" "boot: QEMU is gone"; do
		skip "$d" "no kernel built by lab/stages/build.sh under build/ (make build; make check has one)"
	done
else
	ACCEL=tcg "$TOP/lab/stages/boot.sh" -k "$kernel" -l "$tmp/hang.log" -t 4 > "$tmp/out" 2>&1
	check "boot: a hang is killed by the timeout" test $? -ne 0
	check "boot: error says so and names the log" has "$tmp/out" '^ERROR: stage boot: guest did not finish within 4s \(hang\?\); QEMU was killed \(log: .*/hang.log\)$'
	check "boot: QEMU is gone" bash -c "! pgrep -f -- '$tmp/hang.lo[g]' >/dev/null"
fi

# ab: a vCPU count that does not split over the two NUMA nodes
VCPUS=3 BUILD=$tmp/b10 "$TOP/lab/stages/ab.sh" "$tmp/bzImage" "$tmp/bzImage" > "$tmp/out" 2>&1
check "ab: VCPUS=3 is refused" test $? -ne 0
check "ab: the error names the rule" has "$tmp/out" "^ERROR: stage ab: VCPUS must be 1 or even \(2 NUMA nodes\), not '3'$"
check "ab: no results folder was made" test ! -e "$tmp/b10"

# bisect: a patch range outside the series, a missing config fragment
if [ -d "$LB/linux/.git" ]; then
	BUILD=$tmp/b9 TREE=$LB/linux "$TOP/lab/stages/bisect.sh" 0 > "$tmp/out" 2>&1
	check "bisect: patch 0 is refused" test $? -ne 0
	check "bisect: error gives the usage and the range" has "$tmp/out" '^ERROR: stage bisect: usage: lab/stages/bisect.sh \[FIRST \[LAST\]\] with 1 <= FIRST <= LAST'
	BUILD=$tmp/b9 TREE=$LB/linux "$TOP/lab/stages/bisect.sh" 1 9999 > "$tmp/out" 2>&1
	check "bisect: a patch past the series is refused" has "$tmp/out" '^ERROR: stage bisect: usage: lab/stages/bisect.sh \[FIRST \[LAST\]\] with 1 <= FIRST <= LAST <= [0-9]+ \(patches/ holds [0-9]+ patches\), not .1 9999.$'
	CONFIGS="vm nosuch" BUILD=$tmp/b9 TREE=$LB/linux "$TOP/lab/stages/bisect.sh" 1 1 > "$tmp/out" 2>&1
	check "bisect: an unknown fragment is refused" has "$tmp/out" '^ERROR: stage bisect: CONFIGS=vm nosuch: no configs/nosuch.config '
	check "bisect: nothing was checked out" test ! -e "$tmp/b9/bisect/tree"
fi
# lab/stages/objdiff.sh: a line's fix (LINE_FIXES) that is not in patches/<line>/,
# or that does not apply to the base: one line, no base copy left behind
if [ "$_line" = 7.3 ]; then
	fx=$(sed -n 's/^LINE_FIXES="\(.*\)"$/\1/p' "$TOP/patches/7.3/line.env")
	mkdir -p "$tmp/p73"
	BUILD=$tmp/b12 PATCHES=$tmp/p73 "$TOP/lab/stages/objdiff.sh" vm mm/memcontrol.o > "$tmp/out" 2>&1
	check "objdiff: a missing line fix is refused" has "$tmp/out" \
		"^ERROR: stage objdiff: LINE_FIXES \(patches/7.3/line.env\): no patch $fx in patches/7.3/"
	check "objdiff: ... before the base copy" test ! -e "$tmp/b12/objdiff-base"
	# a base whose mm/memcontrol.c is not 7.3.4's: the fix cannot apply
	mkdir -p "$tmp/b13/src/mm"
	echo "not 7.3.4's memcontrol.c" > "$tmp/b13/src/mm/memcontrol.c"
	git -C "$tmp/b13/src" init -q && git -C "$tmp/b13/src" add -A &&
		git -C "$tmp/b13/src" -c user.name=t -c user.email=t@t commit -qm base
	BUILD=$tmp/b13 "$TOP/lab/stages/objdiff.sh" vm mm/memcontrol.o > "$tmp/out" 2>&1
	check "objdiff: a line fix that does not apply is refused" has "$tmp/out" \
		"^ERROR: stage objdiff: LINE_FIXES: $fx does not apply to the base"
	check "objdiff: ... and its base copy is removed" test ! -e "$tmp/b13/objdiff-base"
	check "objdiff: ... the source is untouched" test "$(cat "$tmp/b13/src/mm/memcontrol.c")" = "not 7.3.4's memcontrol.c"
else
	skip "objdiff: LINE_FIXES refused" "the $_line line has no LINE_FIXES"
fi
# lab/stages/linecheck.sh: a check it does not know is one line, before any work
BUILD=$tmp/b11 "$TOP/lab/stages/linecheck.sh" tree nosuch > "$tmp/out" 2>&1
check "linecheck: an unknown check is refused" has "$tmp/out" "^ERROR: stage linecheck: unknown check 'nosuch' \(tree, export, checkpatch, topics, compile, all\)$"
check "linecheck: ... before the tree check ran" test ! -e "$tmp/b11"
# lab/stages/qemu.sh: a QEMU it does not know, a count that is not one: one line,
# nothing booted or written
BUILD=$tmp/b10 "$TOP/lab/stages/qemu.sh" boots 1 system 7.2 > "$tmp/out" 2>&1
check "qemu: an unknown QEMU is refused" has "$tmp/out" "^ERROR: stage qemu: QEMU must be 'system' or '10', not '7.2'$"
BUILD=$tmp/b10 "$TOP/lab/stages/qemu.sh" time many system > "$tmp/out" 2>&1
check "qemu: N must be a count" has "$tmp/out" "^ERROR: stage qemu: N must be 1..1000, not 'many'$"
check "qemu: nothing was written" test ! -e "$tmp/b10/qemu"
done_testing
