#!/usr/bin/env bash
# tests/shell.t - make shell (lab/shell.sh).  Without a kernel: an unknown
# fragment and a kernel that was not built end it with one line, before
# anything is written, and make shell boots make check's kernel unless
# CONFIGS says otherwise.  With make check's kernel built (build/<RUN_CONFIGS
# joined by ->): a here-document typed into the console once the banner is
# up runs in the guest (the kernel's release, the series' sysctl, job
# control on the console's tty, cgroup v2, tracefs and the kernel's
# modules), APPEND reaches the kernel command line, and "exit" powers the
# guest off.
# Needs: bash, make; for the boot, that kernel (and qemu-system-x86, which
# the build's make deps installed): without it those cases are skipped (CI
# may run the lab's tests before its build).
# Time: 60 to 100 s with the kernel (measured 2026-12-01 under TCG on a
# 2-core machine busy with a kernel build), plus 30 s the first time a
# kernel is booted on a host whose KVM hangs (the KVM probe, whose verdict
# lab/boot.sh keeps, so make check's own boots then skip it); a second
# without the kernel.  The session also goes to
# build/shell-<name>/console.log, as make shell's does.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap '' PIPE

# the fragments of make check's kernel: lab/run.sh's default, and lab/shell.sh's
check_configs=$(script_default RUN_CONFIGS "$TOP/lab/run.sh")
check "lab/shell.sh's default kernel is make check's ($check_configs)" \
	test "$(script_default '\*' "$TOP/lab/shell.sh")" = "$check_configs"
check "make shell passes CONFIGS when given" test "$(make -s -n -C "$TOP" shell CONFIGS="vm bench" | tail -n1)" = "lab/shell.sh vm bench"
check "... and none otherwise (make check's kernel)" test "$(make -s -n -C "$TOP" shell | tail -n1)" = "lab/shell.sh "

BUILD=$tmp/b "$TOP/lab/shell.sh" vm nosuch > "$tmp/out" 2>&1
check "an unknown fragment is refused" test $? -ne 0
check "... with one line naming it" has "$tmp/out" '^ERROR: stage shell: CONFIGS=vm nosuch: no configs/nosuch.config \(the fragments are: .*\)$'
BUILD=$tmp/b "$TOP/lab/shell.sh" >> "$tmp/out" 2>&1
check "a kernel that was not built is refused" test $? -ne 0
check "... with one line that says what to run" has "$tmp/out" "^ERROR: stage shell: no kernel in $tmp/b/${check_configs// /-}; run make build CONFIGS=\"$check_configs\" first$"
check "... both errors are one line each, and nothing was written" \
	bash -c '[ "$(wc -l < "$1/out")" = 2 ] && [ ! -e "$1/b" ]' _ "$tmp"

configs=${RUN_CONFIGS:-$check_configs}
name=${configs// /-}
kdir=$LB/$name
if [ ! -f "$kdir/arch/x86/boot/bzImage" ] || [ ! -d "$kdir/modroot/lib/modules" ]; then
	skip "a shell in make check's kernel" "no kernel in build/$name (make build CONFIGS=\"$configs\")"
	done_testing
	exit
fi

# Type only once the shell is up: what the serial port gets while the
# kernel boots can be lost.  The FIFO stays open until the lines are typed.
# a scratch BUILD that holds only a link to that kernel: the session's
# console log (and the accelerator probe's verdict) go there, not to build/
mkdir -p "$tmp/b"
ln -s "$kdir" "$tmp/b/$name"
mkfifo "$tmp/in"
BUILD=$tmp/b BOOT_TIMEOUT=600 APPEND=slab_free_lock_first=off "$TOP/lab/shell.sh" $configs < "$tmp/in" > "$tmp/out" 2>&1 &
pid=$!
exec 3> "$tmp/in"
until grep -q '^mmscale: shell ready' "$tmp/out" || ! kill -0 "$pid" 2>/dev/null; do
	sleep 1
done
cat >&3 <<'EOF'
echo "uname=$(uname -r)"
echo "threshold=$(cat /proc/sys/vm/vmap_lazy_threshold_kb)"
echo "monitor=$(set -o | awk '$1 == "monitor" { print $2 }') tty=$(tty)"
echo "fs=$(stat -fc %T /sys/fs/cgroup) $(stat -fc %T /sys/kernel/tracing) $(test -e /lib/modules/$(uname -r)/modules.dep && echo modules)"
sleep 60 &
jobs
kill %1
exit
EOF
exec 3>&-
wait "$pid"
check "make shell: exit 0 after the guest's shell exits" test $? = 0
check "the banner says where the sysctl is" has "$tmp/out" '^  sysctl vm\.vmap_lazy_threshold_kb'
check "... and the boot switches, with APPEND's" has "$tmp/out" 'slab_free_lock_first=on\|off, vmap_lazy_threshold_kb=KiB; this boot: slab_free_lock_first=off'
check "the typed lines ran in the kernel that was built" has "$tmp/out" "uname=$(cat "$kdir/include/config/kernel.release")"
if grep -q '^CONFIG_VMALLOC_LAZY_TUNING=y' "$kdir/.config"; then
	check "... with the series' sysctl" has "$tmp/out" 'threshold=[0-9]+'
fi
check "job control on the console's tty" has "$tmp/out" 'monitor=on tty=/dev/ttyS0'
check "... a background job is listed" has "$tmp/out" '\[1\]\+ +Running +sleep 60 &'
check "... and bash did not complain about the terminal" bash -c '! grep -qE "no job control|cannot set terminal process group" "$1"' _ "$tmp/out"
check "the tests' guest: cgroup v2, tracefs, the kernel's modules" has "$tmp/out" 'fs=cgroup2fs tracefs modules'
check "exit powered the guest off" has "$tmp/out" 'QEMU exited: guest powered off'
check "the session is in BUILD/shell-$name/console.log" has "$tmp/b/shell-$name/console.log" 'uname=[0-9]'
done_testing
