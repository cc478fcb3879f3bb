#!/usr/bin/env bash
# tests/shell.t - make shell (lab/stages/shell.sh), which boots through
# virtme-ng.  Without a kernel: an unknown fragment, a kernel that was not
# built, and a missing virtme-ng end it with one line, before anything is
# written, and make shell boots make check's kernel unless CONFIGS says
# otherwise.  With make check's kernel built (build/<CONFIGS joined by
# ->) and virtme-ng fetched (make deps): a here-document typed into the
# console once the banner is up runs in the guest (the kernel's release,
# the series' sysctl, 2 NUMA nodes, job control on the console's tty,
# cgroup v2, tracefs, the kernel's modules and the scratch disk on /mnt),
# APPEND reaches the kernel command line, and "exit" powers the guest off.
# Needs: bash, make; for the boot, that kernel, virtme-ng and
# qemu-system-x86 (make deps): without them those cases are skipped (CI
# may run the lab's tests before its build).
# Time: 80 to 120 s with the kernel (measured 2026-12-03 under TCG on a
# 2-core machine, idle: 75 s to the shell), a second without it.  The
# session also goes to BUILD/shell-<name>/console.log, as make shell's
# does.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap '' PIPE

# the fragments of make check's kernel: lab/stages/run.sh's default, and lab/stages/shell.sh's
check_configs=$(script_default CONFIGS "$TOP/lab/stages/run.sh")
check "lab/stages/shell.sh's default kernel is make check's ($check_configs)" \
	test "$(script_default '\*' "$TOP/lab/stages/shell.sh")" = "$check_configs"
check "make shell passes CONFIGS when given" test "$(make -s -n -C "$TOP" shell CONFIGS="vm bench" | tail -n1)" = "lab/stages/shell.sh vm bench"
check "... and none otherwise (make check's kernel)" test "$(make -s -n -C "$TOP" shell | tail -n1)" = "lab/stages/shell.sh "

BUILD=$tmp/b "$TOP/lab/stages/shell.sh" vm nosuch > "$tmp/out" 2>&1
check "an unknown fragment is refused" test $? -ne 0
check "... with one line naming it" has "$tmp/out" '^ERROR: stage shell: CONFIGS=vm nosuch: no configs/nosuch.config or configs/[0-9.]+/nosuch.config \(the fragments are: .*\)$'
BUILD=$tmp/b "$TOP/lab/stages/shell.sh" >> "$tmp/out" 2>&1
check "a kernel that was not built is refused" test $? -ne 0
check "... with one line that says what to run" has "$tmp/out" "^ERROR: stage shell: no kernel in $tmp/b/${check_configs// /-}; run make build CONFIGS=\"$check_configs\" first$"
check "... both errors are one line each, and nothing was written" \
	bash -c '[ "$(wc -l < "$1/out")" = 2 ] && [ ! -e "$1/b" ]' _ "$tmp"
# a kernel (its two files are all lab/stages/shell.sh looks at) but no virtme-ng
mkdir -p "$tmp/c/${check_configs// /-}/arch/x86/boot"
touch "$tmp/c/${check_configs// /-}/arch/x86/boot/bzImage" "$tmp/c/${check_configs// /-}/.config"
find "$tmp/c" | sort > "$tmp/before"
BUILD=$tmp/c "$TOP/lab/stages/shell.sh" > "$tmp/out2" 2>&1
check "no virtme-ng: refused" test $? -ne 0
check "... with one line that says to run make deps" \
	bash -c '[ "$(wc -l < "$1/out2")" = 1 ] && grep -q "^ERROR: stage shell: virtme-ng is missing ($1/c/vng); run make deps, which fetches it from Debian sid$" "$1/out2"' _ "$tmp"
check "... and nothing was written" bash -c 'find "$1/c" | sort | cmp -s - "$1/before"' _ "$tmp"
BUILD=$tmp/c APPEND='slab_free_lock_first="off"' "$TOP/lab/stages/shell.sh" > "$tmp/out3" 2>&1
check "APPEND with a quote is refused with one line (vng splits it as a shell would)" \
	bash -c '[ "$(wc -l < "$1")" = 1 ] && grep -q "^ERROR: stage shell: APPEND must be one line of kernel command line, without quotes" "$1"' _ "$tmp/out3"

configs=${CONFIGS:-$check_configs}
name=${configs// /-}
kdir=$LB/$name
if [ ! -f "$kdir/arch/x86/boot/bzImage" ] || [ ! -f "$kdir/.config" ]; then
	skip "a shell in make check's kernel" "no kernel in build/$name (make build CONFIGS=\"$configs\")"
	done_testing
	exit
fi
if [ ! -x "$LB/vng/root/usr/bin/vng" ]; then
	skip "a shell in make check's kernel" "no virtme-ng in build/$_line/vng (make deps)"
	done_testing
	exit
fi

# Type only once the shell is up: what the serial port gets while the
# kernel boots can be lost.  The FIFO stays open until the lines are typed.
# a scratch BUILD that holds only links to that kernel and to virtme-ng:
# the session's console log and scratch disk go there, not to build/
mkdir -p "$tmp/b"
ln -s "$kdir" "$tmp/b/$name"
ln -s "$LB/vng" "$tmp/b/vng"
mkfifo "$tmp/in"
BUILD=$tmp/b BOOT_TIMEOUT=600 APPEND=slab_free_lock_first=off "$TOP/lab/stages/shell.sh" $configs < "$tmp/in" > "$tmp/out" 2>&1 &
pid=$!
exec 3> "$tmp/in"
until grep -q '^mmscale: shell ready' "$tmp/out" || ! kill -0 "$pid" 2>/dev/null; do
	sleep 1
done
cat >&3 <<'EOF'
echo "uname=$(uname -r)"
echo "threshold=$(cat /proc/sys/vm/vmap_lazy_threshold_kb* | head -n 1)"
echo "monitor=$(set -o | awk '$1 == "monitor" { print $2 }') tty=$(tty)"
echo "fs=$(stat -fc %T /sys/fs/cgroup) $(stat -fc %T /sys/kernel/tracing) $(test -e /lib/modules/$(uname -r)/modules.dep && echo modules) mnt=$(stat -fc %T /mnt)"
echo "nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l) sockets=$(grep '^physical id' /proc/cpuinfo | sort -u | wc -l) warnings=$(dmesg | grep -c -E 'WARNING:|BUG:')"
dmesg | grep -m1 -A30 -E 'WARNING:|BUG:' | sed 's/^/report: /'
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
check "the tests' guest: cgroup v2, tracefs, the kernel's modules, the scratch disk" has "$tmp/out" 'fs=cgroup2fs tracefs modules mnt=ext2/ext3'
check "... on 2 NUMA nodes, one socket each" has "$tmp/out" 'nodes=2 sockets=2'
# no report: on failure, the first one as dmesg has it (typed above)
no_report() {
	has "$tmp/out" 'sockets=2 warnings=0' 2> /dev/null && return 0
	echo "# the guest's dmesg has a WARNING or BUG; the first one:" >&2
	grep -a '^report: ' "$tmp/out" | tr -d '\r' | head -n 31 | sed 's/^report: /#   /' >&2
	return 1
}
check "... and the kernel warned of nothing (no topology_sane WARN)" no_report
check "exit powered the guest off" has "$tmp/b/shell-$name/console.log" 'reboot: Power down'
check "... and make shell said so" has "$tmp/out" '\[shell \+[0-9]+s\] the guest powered off'
check "... and the scratch disk is gone" test ! -e "$tmp/b/shell-$name/scratch.img"
check "the session is in BUILD/shell-$name/console.log" has "$tmp/b/shell-$name/console.log" 'uname=[0-9]'
done_testing
