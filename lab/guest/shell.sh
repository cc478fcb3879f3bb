#!/usr/bin/env bash
# lab/guest/shell.sh - the shell of "make shell" (lab/stages/shell.sh): virtme-ng
# runs it in the guest as the user's shell (vng --shell), on the console.
#
# What it does: mounts the scratch disk (/dev/vda) on /mnt, quiets the
# console (kernel messages stay in dmesg), prints a banner that says where
# the series' knobs are in this kernel, then runs an interactive bash as
# the leader of a session of its own with the console as its controlling
# terminal (setsid --ctty), so that job control, Ctrl-C and Ctrl-Z work.
# "mmscale: shell ready" is the banner's last line.  When that bash exits,
# virtme-ng powers the guest off.  MMSCALE_OPTIONS (kernel command line,
# from lab/stages/shell.sh) names the line's options.
# What it needs: bash, util-linux (setsid, mount, dmesg), coreutils, grep,
# gawk and gzip (zcat) on the host root.

mkdir -p /mnt
[ -b /dev/vda ] && { mount -t ext4 /dev/vda /mnt || echo "mmscale: error: could not mount the scratch disk"; }
dmesg -n 1

# shell_banner: what this guest is, how to leave it, and the series' knobs
# as this kernel has them (a kernel without an option shows what it lacks)
shell_banner() {
	local opts on=
	# the line's options (MMSCALE_OPTIONS from lab/stages/shell.sh) and SLUB_STATS
	opts=$(zcat /proc/config.gz 2>/dev/null |
		grep -oE "^CONFIG_($(echo "${MMSCALE_OPTIONS:+$MMSCALE_OPTIONS,}SLUB_STATS" | tr , '|'))=.*" |
		sed 's/^CONFIG_//' | tr '\n' ' ')
	echo "mmscale: shell on Linux $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB"
	echo "  leave: exit or Ctrl-d (powers off); Ctrl-a x quits QEMU at once (Ctrl-a a sends Ctrl-a)"
	echo "  the host's / is the root, read only but for /etc /lib /home /opt /srv /usr /var /tmp,"
	echo "  whose writes stay in memory; /mnt is an ext4 scratch disk"
	echo "  kernel messages: dmesg (the console is quiet; dmesg -n 7 shows them here)"
	echo "The series' knobs in this kernel (options: ${opts:-none of them})"
	# the threshold's sysctl: vmap_lazy_threshold_kbytes on 7.3, _kb on 6.12
	vk=/proc/sys/vm/vmap_lazy_threshold_kbytes
	[ -e $vk ] || [ ! -e /proc/sys/vm/vmap_lazy_threshold_kb ] || vk=/proc/sys/vm/vmap_lazy_threshold_kb
	if [ -e $vk ]; then
		echo "  sysctl vm.${vk##*/} = $(cat $vk) (KiB, 0: auto)"
	else
		echo "  sysctl vm.${vk##*/}: not in this kernel (CONFIG_VMALLOC_LAZY_TUNING)"
	fi
	echo "  /proc/vmstat: $(grep -oE '^(memcg_stock|vmalloc)_[a-z_]+' /proc/vmstat | tr '\n' ' ')"
	if [ -e /sys/kernel/slab/kmalloc-64/free_list_lock ]; then
		echo "  /sys/kernel/slab/<cache>/free_list_lock, free_list_lock_nop, free_locked_redo (SLUB_STATS; echo 0 > FILE clears)"
	else
		echo "  /sys/kernel/slab/<cache>/free_list_lock*: not in this kernel (SLUB_STATS and the slub patches)"
	fi
	grep -q '^page->ptl ' /proc/slabinfo 2>/dev/null &&
		echo "  ptlock cache: page->ptl in /proc/slabinfo and /sys/kernel/slab/page->ptl"
	on=$(tr ' ' '\n' < /proc/cmdline | grep -E '^(memcg_stock_evict|slab_free_lock_first|vmap_lazy_threshold_kb)=' | tr '\n' ' ')
	echo "  boot switches (make shell APPEND=\"...\"): memcg_stock_evict=clock|random|roundrobin,"
	echo "    slab_free_lock_first=on|off, vmap_lazy_threshold_kb=KiB; this boot: ${on:-none (defaults)}"
	echo "mmscale: shell ready"
}

shell_banner
printf '%s\n' '[ -r /etc/bash.bashrc ] && . /etc/bash.bashrc' \
	"PS1='mmscale-guest:\\w\\\$ '" > /tmp/.mmscale-bashrc
exec setsid --ctty --wait bash --rcfile /tmp/.mmscale-bashrc -i
