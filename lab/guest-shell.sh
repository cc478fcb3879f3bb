# lab/guest-shell.sh - the plan of "make shell" (lab/shell.sh), sourced by
# lab/guest-init.sh in the guest.
#
# What it does: quiets the console (kernel messages stay in dmesg), prints
# a banner that says where the series' knobs are in this kernel, then runs
# an interactive bash on the console's tty (ttyS0: /dev/console itself
# cannot be a controlling terminal) as the leader of a session of its own,
# with that tty as its controlling terminal, so that job control, Ctrl-C
# and Ctrl-Z work.  "mmscale: shell ready" is the banner's last line.
# When that bash exits, guest-init.sh powers the guest off, without its
# dmesg dump.  MMSCALE_TTY_SIZE=ROWSxCOLS (kernel command line, from
# lab/shell.sh) gives the tty the size of the host's terminal.
# What it needs: the helpers of lab/guest-init.sh; bash, util-linux
# (setsid), coreutils, grep and gzip (zcat) on the host root.

dump_dmesg=0
dmesg -n 1
tty=$(awk '{ print $NF }' /sys/class/tty/console/active 2>/dev/null)
[ -c "/dev/$tty" ] || tty=console
if [[ ${MMSCALE_TTY_SIZE:-} =~ ^([0-9]+)x([0-9]+)$ ]]; then
	stty -F "/dev/$tty" rows "${BASH_REMATCH[1]}" cols "${BASH_REMATCH[2]}" 2>/dev/null
fi

# shell_banner: what this guest is, how to leave it, and the series' knobs
# as this kernel has them (a kernel without an option shows what it lacks)
shell_banner() {
	local opts on=
	# the line's options (MMSCALE_OPTIONS from lab/shell.sh) and SLUB_STATS
	opts=$(zcat /proc/config.gz 2>/dev/null |
		grep -oE "^CONFIG_($(echo "${MMSCALE_OPTIONS:+$MMSCALE_OPTIONS,}SLUB_STATS" | tr , '|'))=.*" |
		sed 's/^CONFIG_//' | tr '\n' ' ')
	echo "mmscale: shell on Linux $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB"
	echo "  leave: exit or Ctrl-d (powers off); Ctrl-a x quits QEMU at once"
	echo "  the host's / is the root, read only; /tmp is tmpfs, /mnt an ext4 scratch disk"
	echo "  kernel messages: dmesg (the console is quiet; dmesg -n 7 shows them here)"
	echo "The series' knobs in this kernel (options: ${opts:-none of them})"
	if [ -e /proc/sys/vm/vmap_lazy_threshold_kb ]; then
		echo "  sysctl vm.vmap_lazy_threshold_kb = $(cat /proc/sys/vm/vmap_lazy_threshold_kb) (KiB, 0: auto)"
	else
		echo "  sysctl vm.vmap_lazy_threshold_kb: not in this kernel (CONFIG_VMALLOC_LAZY_TUNING)"
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

shell_banner > "/dev/$tty" 2>&1
printf '%s\n' '[ -r /etc/bash.bashrc ] && . /etc/bash.bashrc' \
	"PS1='mmscale-guest:\\w\\\$ '" > /tmp/.mmscale-bashrc
setsid --ctty --wait bash --rcfile /tmp/.mmscale-bashrc -i <> "/dev/$tty" >&0 2>&0
