#!/bin/bash
# lab/guest/init.sh - PID 1 inside the QEMU guest (runs in the guest only).
#
# What it does: the guest's root is the host's root over virtio-9p, read
# only; it stays visible, unshadowed, under /run/host, and host paths given
# on the command line are read through hostpath().  This script mounts the
# pseudo filesystems, tmpfs on /tmp, cgroup v2,
# debugfs, tracefs and the kernel's own modules (9p tag "modules") on
# /lib/modules, prints "mmscale: guest up", then sources the plan script
# named by MMSCALE_PLAN (a kernel command line variable) and powers off.
# Plans call section NAME CMD... : the command's output is kept in a file
# and printed between "mmscale: output NAME" and "mmscale: end NAME rc=N"
# with the console quiet, so kernel messages do not break its TAP; while it
# runs, its "ok"/"not ok" lines are echoed as progress.  At the end the whole
# kernel log is printed between "mmscale: dmesg begin/end", unless the plan
# set dump_dmesg=0 (lab/guest/deb.sh).
# What it needs: bash, coreutils, util-linux (mount, dmesg), busybox-static
# (poweroff -f) on the host root.  Writes only to tmpfs and the console.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
mount -t devpts devpts /dev/pts
# what udev would add: bash process substitution needs /dev/fd
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t tmpfs tmpfs /dev/shm
# The host's / stays reachable under /run/host: the tmpfs mounts below
# would hide a checkout that lives in the host's /tmp or /run.
mount -t tmpfs tmpfs /run
mkdir -p /run/host
mount --bind / /run/host
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
exec < /dev/null > /dev/console 2>&1
# The host's /lib/modules may not exist, and the root is read only: put a
# tmpfs-backed overlay on /usr/lib so the kernel's own modules can be
# mounted at /usr/lib/modules, where modprobe and modinfo look.
if grep -q modules /sys/bus/virtio/drivers/9pnet_virtio/*/mount_tag 2>/dev/null; then
	mkdir -p /tmp/.usrlib/upper /tmp/.usrlib/work
	mount -t overlay overlay -o lowerdir=/usr/lib,upperdir=/tmp/.usrlib/upper,workdir=/tmp/.usrlib/work /usr/lib &&
		mkdir -p /usr/lib/modules &&
		mount -t 9p -o trans=virtio,version=9p2000.L,ro modules /usr/lib/modules ||
		echo "mmscale: error: could not mount the kernel's modules on /usr/lib/modules"
fi
# the ext4 scratch disk and the swap disk from lab/stages/boot.sh
[ -b /dev/vda ] && { mount -t ext4 /dev/vda /mnt || echo "mmscale: error: could not mount the scratch disk"; }
[ -b /dev/vdb ] && { swapon /dev/vdb || echo "mmscale: error: swapon failed"; }
ip link set lo up 2>/dev/null

nodes=$(cd /sys/devices/system/node && echo node[0-9]*)
echo "mmscale: guest up: Linux $(uname -r), $(nproc) CPUs, ${nodes}, $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB, swap $(awk '/SwapTotal/ {print int($2/1024)}' /proc/meminfo) MiB"

default_loglevel=$(awk '{print $1}' /proc/sys/kernel/printk)

# hostpath PATH: where the host's PATH is in the guest (see /run/host above)
hostpath() {
	printf '/run/host%s' "$1"
}

# section NAME CMD...: run CMD as one test section (see the header).
# SECTION_TIMEOUT=S section ...: a limit of S seconds (0 or unset: none), as
# kselftest's runner gives each test its timeout; a section still running
# then is stopped (its whole process tree) and ends with
# "mmscale: end NAME rc=124 timeout=S", which lab/py/report.py reports as
# timed out, with the section's output so far.
section() {
	local name=$1 rc limit=${SECTION_TIMEOUT:-0} pid wd=
	shift
	echo "mmscale: begin $name"
	rm -f "/tmp/section-$name.rc"
	{
		"$@" 2>&1 < /dev/null | tee "/tmp/section-$name.out" |
			sed -u -n -e "s/^\(ok\|not ok\) /mmscale: $name: &/p"
		echo "${PIPESTATUS[0]}" > "/tmp/section-$name.rc"
	} &
	pid=$!
	if [ "$limit" -gt 0 ]; then
		{
			sleep "$limit"
			echo "mmscale: $name: still running after ${limit}s; stopping it"
			kill_tree "$pid"
		} &
		wd=$!
	fi
	wait "$pid" 2>/dev/null
	[ -z "$wd" ] || { kill_tree "$wd"; wait "$wd" 2>/dev/null; }
	rc=$(cat "/tmp/section-$name.rc" 2>/dev/null || true)
	dmesg -n 1
	echo "mmscale: output $name"
	cat "/tmp/section-$name.out"
	if [ -n "$rc" ]; then
		echo "mmscale: end $name rc=$rc"
	else
		echo "mmscale: end $name rc=124 timeout=$limit"
	fi
	dmesg -n "$default_loglevel"
}

# tree_of PID: PID and every process under it, parents first
# (/proc/PID/task/*/children: CONFIG_PROC_CHILDREN, which vm.config's
# CHECKPOINT_RESTORE selects)
tree_of() {
	local c
	echo "$1"
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree_of "$c"; done
}

# kill_tree PID: SIGTERM to PID and every process under it at once, parents
# first (a shell stopped before its children cannot go on to its next
# command), then SIGKILL to those left after a second
kill_tree() {
	local pids i
	pids=$(tree_of "$1")
	# shellcheck disable=SC2086
	kill -TERM $pids 2>/dev/null || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		# shellcheck disable=SC2086
		kill -0 $pids 2>/dev/null || return 0
		sleep 0.1
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
}

if [ -n "${MMSCALE_PLAN:-}" ]; then
	if [ -r "$(hostpath "$MMSCALE_PLAN")" ]; then
		source "$(hostpath "$MMSCALE_PLAN")"
	else
		echo "mmscale: error: plan $MMSCALE_PLAN not readable"
	fi
fi

if [ "${dump_dmesg:-1}" = 1 ]; then
	dmesg -n 1
	echo "mmscale: dmesg begin"
	dmesg --color=never
	echo "mmscale: dmesg end"
fi
echo "mmscale: poweroff"
# poweroff -f does not wait for the serial port: what the tty still holds
# (the UART sends 16 bytes an interrupt) is lost.  stty applies its
# settings with TCSADRAIN, so setting the console's own settings again
# returns once the tty has sent everything.
timeout 10 stty -F /dev/console "$(stty -F /dev/console -g 2>/dev/null)" 2>/dev/null ||
	echo "mmscale: warning: the console was not drained (stty) before poweroff"
sync
/bin/busybox poweroff -f
