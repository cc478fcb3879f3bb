#!/usr/bin/env bash
# tests/deb.t - make deb's front end: every bad setting is refused with one
# line before any stage runs, and --package / --verify refuse what is not a
# built kernel or a kernel package.  (The packaging and the boot of the
# package run for real in make check's "package" stage.)
# Needs: bash, coreutils, dpkg-deb (lab/stages/deps.sh).
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one_error() { [ "$(grep -c '^ERROR:' "$1")" = 1 ] && has "$1" "$2"; }

KCONFIG=$tmp/none "$TOP/lab/stages/deb.sh" --check > "$tmp/o1" 2>&1
check "KCONFIG missing: exit 1" test $? -eq 1
check "... one line naming it" one_error "$tmp/o1" "KCONFIG=$tmp/none is not a readable file"
echo "hello" > "$tmp/notconfig"
KCONFIG=$tmp/notconfig "$TOP/lab/stages/deb.sh" --check > "$tmp/o2" 2>&1
check "KCONFIG not a config: refused" one_error "$tmp/o2" "is not a kernel config \(no CONFIG_ line\)"
printf 'CONFIG_ARM64=y\nCONFIG_64BIT=y\n' > "$tmp/arm64.config"
KCONFIG=$tmp/arm64.config "$TOP/lab/stages/deb.sh" --check > "$tmp/o3" 2>&1
check "KCONFIG of another architecture: refused" one_error "$tmp/o3" "is not an x86_64 config"
printf 'CONFIG_X86_64=y\nCONFIG_64BIT=y\n' > "$tmp/x86.config"
KCONFIG=$tmp/x86.config "$TOP/lab/stages/deb.sh" --check > "$tmp/o4" 2>&1
check "an x86_64 KCONFIG passes the check" test $? -eq 0
DEB_BOOT=yes "$TOP/lab/stages/deb.sh" --check > "$tmp/o5" 2>&1
check "DEB_BOOT=yes: refused" one_error "$tmp/o5" "DEB_BOOT must be '0' or '1', not 'yes'"
"$TOP/lab/stages/deb.sh" --package "$TOP" "$tmp" "$tmp/out" > "$tmp/o6" 2>&1
check "--package of a folder that is not a kernel tree: refused" one_error "$tmp/o6" "is not a Linux source tree"
echo "not a package" > "$tmp/x.deb"
"$TOP/lab/stages/deb.sh" --verify "$tmp/x.deb" "$tmp/v" > "$tmp/o7" 2>&1
check "--verify of a file that is not a package: exit 1" test $? -eq 1
check "... says so" one_error "$tmp/o7" "is not a linux-image package"
"$TOP/lab/stages/deb.sh" --bogus > "$tmp/o8" 2>&1
check "an unknown option: usage" one_error "$tmp/o8" "usage:"
check "nothing was made under build/deb" test ! -e "$tmp/out"
done_testing
