#!/usr/bin/env bash
# lab/stages/shell.sh - "make shell": a shell inside a kernel the lab built, booted
# with virtme-ng (vng) under QEMU, on this terminal.
#
# Usage: lab/stages/shell.sh [CONFIG...]       (make shell [CONFIGS="..."])
#   CONFIG...: the config fragments of a kernel that "make build" built
#   (build/<fragments joined by ->); default: the one default kernel,
#   lab/lib/common.sh's DEFAULT_CONFIGS (make check's, and make build's
#   default), the patched kernel with the series' options on.
# Environment: APPEND (more kernel command line, e.g. the series' boot
# switches), ACCEL (auto, the default, and tcg: single-threaded TCG, vng
# --disable-kvm; kvm: KVM; make shell does not probe, as /dev/kvm can open
# and hang), BOOT_TIMEOUT (seconds, default 86400).  All are
# checked, and the kernel and vng must exist, before anything is written.
# What it does: vng --run the kernel: the host's / over 9p (vng's
# in-memory overlays make /etc, /usr, /var, /tmp writable), cgroup v2,
# debugfs, tracefs, the kernel's modules (vng links them into the build
# folder's .virtme_mods/), 2 vCPUs on 2 NUMA nodes, 3 GiB, a fresh ext4
# scratch disk (virtio-blk); the console on ttyS0, this terminal, with the
# line's boot arguments (LINE_BOOT_APPEND).  vng's shell is
# lab/guest/shell.sh (banner, then bash with job control); "exit" powers
# off; Ctrl-a x quits QEMU at once (vng's monitor on the console: Ctrl-a a
# sends a Ctrl-a).  The session also goes to build/<line>/shell-<name>/console.log
# (script(1)).  Exits 0 when vng does; 1, with one line naming the log,
# when vng fails or the guest panicked.
# What it needs: the kernel (make build), virtme-ng (make deps unpacks it
# from Debian sid), qemu-system-x86, util-linux (script), e2fsprogs.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

STAGE=shell
configs=${*:-$DEFAULT_CONFIGS}
want_fragments "CONFIGS=$configs" "$configs"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-86400}
want_number BOOT_TIMEOUT 1 86400
want_choice ACCEL auto kvm tcg
[[ ${APPEND:-} =~ ^[[:print:]]*$ ]] && [[ ${APPEND:-} != *[\"\'\`\$\\]* ]] ||
	die "APPEND must be one line of kernel command line, without quotes, \\, \` or \$ (vng splits it as a shell would)"
name=$(kernel_name ${configs//,/ })
O=$BUILD/$name
kernel=$O/arch/x86/boot/bzImage
[ -f "$kernel" ] && [ -f "$O/.config" ] ||
	die "no kernel in $O; run make build CONFIGS=\"${configs//,/ }\" first"
vng_ready
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 is missing; run make deps"
command -v mkfs.ext4 > /dev/null || die "mkfs.ext4 is missing (e2fsprogs; /usr/sbin on PATH)"
# vng passes --shell and --qemu-opts through a shell: plain paths only
[[ $LAB_DIR$BUILD =~ ^[A-Za-z0-9._/+-]+$ ]] ||
	die "the lab's path ($LAB_DIR) or BUILD ($BUILD) has a blank or a shell character, which vng cannot pass on"

accel=${ACCEL:-auto}
[ "$accel" = kvm ] || accel=tcg   # no probe: KVM only when asked for
dir=$BUILD/shell-$name
log=$dir/console.log
mkdir -p "$dir"
trap 'rm -f "$dir/scratch.img"' EXIT
rm -f "$dir/scratch.img"
truncate -s 2G "$dir/scratch.img"
mkfs.ext4 -q -F "$dir/scratch.img" > /dev/null 2>&1 || die "mkfs.ext4 of the scratch disk failed"

# the line's options go to the banner (patches/<line>/line.env)
# panic=-1 and -no-reboot: a panic ends the session, as in lab/stages/boot.sh
# (vng sets them only for --exec)
append="console=ttyS0 panic=-1${LINE_BOOT_APPEND:+ $LINE_BOOT_APPEND}${APPEND:+ $APPEND}"
append+=" MMSCALE_OPTIONS=$(echo $LINE_OPTIONS | tr ' ' ,)"
# one socket per NUMA node, as lab/stages/boot.sh has it: vng's -smp 2 puts both
# CPUs in one socket across the two nodes, and the kernel WARNs in
# topology_sane(); QEMU takes the later -smp
qopts="-no-reboot -smp 2,sockets=2,cores=1,threads=1 -drive file=$dir/scratch.img,format=raw,if=virtio,cache=unsafe"
[ "$accel" = kvm ] || qopts+=" -accel tcg,thread=single"
vng=(vng --run "$kernel" --cpus 2 --memory 3G --numa 1536M,cpus=0 --numa 1536M,cpus=1
	--append "$append" --shell "$LAB_DIR/guest/shell.sh" --cwd / "--qemu-opts=$qopts")
[ "$accel" = kvm ] || vng+=(--disable-kvm)
say "booting $name with virtme-ng $(cat "$VNG_DIR/version") ($accel, 2 vCPUs, 2 NUMA nodes, 3 GiB); exit or Ctrl-d powers off; the session goes to $log"
rc=0
timeout --foreground -k 10 "$BOOT_TIMEOUT" script -q -e -f -c "$(printf '%q ' "${vng[@]}")" "$log" || rc=$?
[ "$rc" != 124 ] && [ "$rc" != 137 ] || die "the guest did not finish within ${BOOT_TIMEOUT}s; QEMU was killed (log: $log)"
! grep -aq '\] Kernel panic - not syncing' "$log" || die "the guest panicked (log: $log)"
[ "$rc" = 0 ] || die "vng exited with status $rc (log: $log)"
say "the guest powered off"
