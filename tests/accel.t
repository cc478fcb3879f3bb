#!/usr/bin/env bash
# tests/accel.t - ACCEL=auto keeps the KVM probe's verdict per host and
# kernel image (lab/stages/boot.sh): a second boot of the same image does not
# probe, ACCEL_PROBE=1 probes again and keeps the new verdict, another
# image is probed on its own, no verdict is kept without KVM, and a bad
# ACCEL_PROBE is refused before anything runs.
# Needs: bash, coreutils.  No KVM and no kernel: a fake qemu-system-x86_64
# records its -accel and "boots" at once (KVM reaches userspace only while
# $tmp/kvm-works exists), and KVM_DEV names a plain writable file.  Under
# a second.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
# fake QEMU: log the accelerator; KVM "hangs" (exits early) unless kvm-works
dir=$(dirname "$0")/..
while [ $# -gt 0 ]; do
	[ "$1" = -accel ] && accel=${2%%,*}
	shift
done
echo "$accel" >> "$dir/calls"
[ "$accel" = kvm ] && [ ! -e "$dir/kvm-works" ] && exit 1
echo "mmscale: guest up"
echo "mmscale: poweroff"
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"
echo "kernel one" > "$tmp/k1"
echo "kernel two" > "$tmp/k2"
: > "$tmp/kvm"

# boot KERNEL: one lab/stages/boot.sh run with the fake QEMU and KVM device;
# the accelerators it started go to $tmp/used, one line
boot() {
	rm -f "$tmp/calls"
	PATH=$tmp/bin:$PATH BUILD=$tmp/build KVM_DEV=${KVM_DEV:-$tmp/kvm} \
		"$TOP/lab/stages/boot.sh" -k "$1" -l "$tmp/console.log" -s 0 -t 60 > "$tmp/out" 2>&1
	local rc=$?
	cat "$tmp/calls" 2>/dev/null | tr "\n" " " | sed 's/ $//' > "$tmp/used"
	return $rc
}
used() {
	[ "$(cat "$tmp/used")" = "$1" ] && return 0
	echo "# QEMU ran with -accel: '$(cat "$tmp/used")', expected '$1'" >&2
	return 1
}
verdicts() {
	cat "$tmp"/build/accel/* 2>/dev/null | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//'
}

boot "$tmp/k1"
check "first boot of a kernel: probes KVM, which hangs, then boots on TCG" used "kvm tcg"
check "... says so" has "$tmp/out" 'KVM probe: did not reach userspace within 30 s'
check "... and keeps the verdict for this host and kernel" test "$(verdicts)" = tcg
check "... in a file named after the host" bash -c 'ls "$1"/build/accel/ | grep -qF -- "$(uname -n | tr -c "A-Za-z0-9._\n-" _)-"' _ "$tmp"

touch "$tmp/kvm-works"
boot "$tmp/k1"
check "second boot: no probe, the kept verdict (TCG)" used "tcg"
check "... says where the verdict is and how to probe again" has "$tmp/out" 'KVM probe: skipped, tcg as probed before on this host for this kernel \(.*/build/accel/.*; ACCEL_PROBE=1 probes again\)'

ACCEL_PROBE=1 boot "$tmp/k1"
check "ACCEL_PROBE=1: probes again (KVM works now) and boots on KVM" used "kvm kvm"
check "... and keeps the new verdict" test "$(verdicts)" = kvm

boot "$tmp/k1"
check "the next boot uses the new verdict without probing" used "kvm"

rm "$tmp/kvm-works"
boot "$tmp/k2"
check "another kernel image is probed on its own" used "kvm tcg"
check "... and has its own verdict" test "$(verdicts | tr ' ' '\n' | sort | tr '\n' ' ')" = "kvm tcg "

rm -rf "$tmp/build"
ACCEL=tcg boot "$tmp/k1"
check "ACCEL=tcg: no probe" used "tcg"
check "... and no verdict kept" test ! -e "$tmp/build/accel"
KVM_DEV=$tmp/no-kvm boot "$tmp/k1"
check "no writable KVM device: TCG, no probe" used "tcg"
check "... and no verdict kept" test ! -e "$tmp/build/accel"

rm -f "$tmp/console.log"
ACCEL_PROBE=yes boot "$tmp/k1"
check "ACCEL_PROBE=yes is refused" test $? -ne 0
check "... with one line" has "$tmp/out" "^ERROR: stage boot: ACCEL_PROBE must be '0' or '1', not 'yes'$"
check "... and only that line" test "$(wc -l < "$tmp/out")" = 1
check "... before QEMU ran or the log was made" bash -c '[ ! -s "$1/used" ] && [ ! -e "$1/console.log" ]' _ "$tmp"
done_testing
