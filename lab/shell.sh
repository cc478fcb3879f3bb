#!/usr/bin/env bash
# lab/shell.sh - "make shell": a shell inside a kernel the lab built, under
# QEMU, on this terminal.
#
# Usage: lab/shell.sh [CONFIG...]       (make shell [CONFIGS="..."])
#   CONFIG...: the config fragments of a kernel that "make build" built
#   (build/<fragments joined by ->); default: the one default kernel,
#   lab/common.sh's DEFAULT_CONFIGS (make check's, and make build's
#   default), the patched kernel with the series' options on.
# Environment: APPEND (more kernel command line, e.g. the series' boot
# switches: APPEND="slab_free_lock_first=off memcg_stock_evict=random"),
# ACCEL, ACCEL_PROBE (see lab/boot.sh), BOOT_TIMEOUT (seconds; QEMU is
# killed after it; default 86400).  All are checked, and the kernel must
# exist, before anything is written.
# What it does: boots that kernel with lab/boot.sh -i: the guest of the
# tests (lab/guest-init.sh: the host's / read only over 9p, tmpfs on /tmp,
# cgroup v2, debugfs, tracefs, the kernel's own modules, the ext4 scratch
# disk on /mnt; 2 vCPUs on 2 NUMA nodes, 3 GiB), whose plan is
# lab/guest-shell.sh: a banner that says where the series' knobs are, then
# an interactive bash with job control on the console.  The console is this
# terminal: "exit" powers the guest off, Ctrl-a x quits QEMU.  The whole
# session is also written to build/shell-<name>/console.log.
# What it needs: the kernel (make build CONFIGS=...), qemu-system-x86.
set -euo pipefail
source "$(dirname "$0")/common.sh"

STAGE=shell
configs=${*:-$DEFAULT_CONFIGS}
want_fragments "CONFIGS=$configs" "$configs"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-86400}
want_boot_settings
[[ ${APPEND:-} =~ ^[[:print:]]*$ ]] || die "APPEND must be one line of kernel command line"
name=$(echo ${configs//,/ } | tr ' ' -)
O=$BUILD/$name
[ -f "$O/arch/x86/boot/bzImage" ] && [ -d "$O/modroot/lib/modules" ] ||
	die "no kernel in $O; run make build CONFIGS=\"${configs//,/ }\" first"

# the host terminal's size and type, for the guest's tty and bash
vars=()
if [ -t 0 ] && size=$(stty size 2>/dev/null) && [[ $size =~ ^([1-9][0-9]*)\ ([1-9][0-9]*)$ ]]; then
	vars+=("MMSCALE_TTY_SIZE=${BASH_REMATCH[1]}x${BASH_REMATCH[2]}")
fi
[[ ${TERM:-} =~ ^[A-Za-z0-9._+-]+$ ]] && vars+=("TERM=$TERM")
# the line's options, for the banner (patches/<line>/line.env LINE_OPTIONS)
vars+=("MMSCALE_OPTIONS=$(echo $LINE_OPTIONS | tr ' ' ,)")
exec "$LAB_DIR/boot.sh" -i -k "$O/arch/x86/boot/bzImage" -M "$O/modroot" \
	-l "$BUILD/shell-$name/console.log" -p "$LAB_DIR/guest-shell.sh" -t "$BOOT_TIMEOUT" \
	${APPEND:+-a "$APPEND"} -- "${vars[@]}"
