#!/bin/bash
# lab/guest/bootparams.sh - in the guest: the series' boot parameters and
# its sysctl and sysfs files given bad values, as KTAP (section
# "boot-params" of lab/guest/tests.sh, on make check's slab_debug boot,
# whose command line lab/stages/run.sh fills with bad values: BAD_BOOT_PARAMS).
#
# What it does: for every slab_free_lock_first=, memcg_stock_evict=,
# vmap_lazy_threshold_kb= (6.12) and sysctl.vm.vmap_lazy_threshold_kbytes=
# (7.3) on /proc/cmdline (all of them bad: not a bool,
# not clock|random, not a decimal, empty, negative, too large, out of the
# range), the kernel must have logged exactly one warning naming that value
# and kept the default: slab_free_lock_first on, memcg_stock_evict clock,
# vm.vmap_lazy_threshold_kb(ytes) 0 (automatic).  Then bad writes to
# vm.vmap_lazy_threshold_kb(ytes) and to a SLUB_STATS file of the series must
# fail with EINVAL and leave the value as it was.  A parameter this kernel
# does not have (its option off) is a SKIP.
# What it needs: bash, coreutils, grep, gzip, dmesg on the host root;
# /proc/config.gz (CONFIG_IKCONFIG_PROC).

n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
# expect DESC COND...: ok when the command succeeds
expect() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

log=$(dmesg)
config=$(zcat /proc/config.gz 2>/dev/null)
args=$(tr ' ' '\n' < /proc/cmdline)
# count_lines TEXT: lines of the kernel log that hold TEXT (fixed string)
count_lines() { grep -cF -- "$1" <<< "$log"; }
# values NAME: the values given to NAME= on the command line, one a line
values() { sed -n "s/^$1=//p" <<< "$args"; }
given() { grep -q "^$1=" <<< "$args"; }

echo "TAP version 13"

# switch_param NAME OPTION_REGEX DEFAULT OTHER...: NAME= takes DEFAULT or
# an OTHER; every bad value given must be warned once ("invalid value 'V',
# staying DEFAULT"), and it must never have switched to an OTHER.
switch_param() {
	local name=$1 v c o
	if ! given "$name"; then
		skip "$name: bad values warned" "not on the command line"
		return
	fi
	if ! grep -qE "$2" <<< "$config"; then
		skip "$name: bad values warned" "this kernel has no ${2//[\^$]/}"
		return
	fi
	while IFS= read -r v; do
		c=$(count_lines "$name: invalid value '$v', staying $3")
		expect "$name='$v': one warning, stays $3 (warnings: $c)" test "$c" = 1
	done < <(values "$name")
	for o in "${@:4}"; do
		expect "$name: never switched to $o" test "$(count_lines "$name: $o")" = 0
	done
}
switch_param slab_free_lock_first '^CONFIG_SLUB_FREE_LOCK_FIRST=y$' on off
switch_param memcg_stock_evict '^CONFIG_MEMCG_NR_STOCK=([2-9]|1[0-9])$' clock random roundrobin

# vmap_lazy_threshold_kb=: a value that is not a decimal is warned while the
# command line is parsed; the last decimal one is range-checked at init
# the threshold's sysctl: vmap_lazy_threshold_kb on 6.12, _kbytes on 7.3
sysctl=/proc/sys/vm/vmap_lazy_threshold_kb
[ -e $sysctl ] || sysctl=/proc/sys/vm/vmap_lazy_threshold_kbytes
if ! given vmap_lazy_threshold_kb; then
	skip "vmap_lazy_threshold_kb: bad values warned" "not on the command line"
elif [ ! -e $sysctl ]; then
	skip "vmap_lazy_threshold_kb: bad values warned" "this kernel has no CONFIG_VMALLOC_LAZY_TUNING"
else
	last=
	while IFS= read -r v; do
		if [[ $v =~ ^[0-9]+$ ]] && [ ${#v} -le 18 ]; then
			last=$v
			continue
		fi
		last=
		c=$(count_lines "vmalloc: ignoring vmap_lazy_threshold_kb=$v: not a decimal number of KiB")
		expect "vmap_lazy_threshold_kb='$v': one warning (warnings: $c)" test "$c" = 1
	done < <(values vmap_lazy_threshold_kb)
	if [ -n "$last" ]; then
		# "not 0 and not within [...]" (6.12), "above the maximum" (7.3)
		c=$(count_lines "vmalloc: ignoring vmap_lazy_threshold_kb=$last: ")
		expect "vmap_lazy_threshold_kb=$last (out of range): one warning (warnings: $c)" test "$c" = 1
	fi
	expect "vm.vmap_lazy_threshold_kb is the default, 0 (reads $(cat $sysctl))" test "$(cat $sysctl)" = 0
fi

# sysctl.vm.vmap_lazy_threshold_kbytes= (7.3, which has no parameter of
# its own: the kernel's sysctl.* boot arguments): every bad value is
# refused by the sysctl's handler, which the kernel logs once
sp=sysctl.vm.vmap_lazy_threshold_kbytes
if given $sp; then
	if [ ! -e $sysctl ]; then
		skip "$sp: bad values refused" "this kernel has no CONFIG_VMALLOC_LAZY_TUNING"
	else
		while IFS= read -r v; do
			c=$(count_lines "Failed to set sysctl parameter '${sp#sysctl.}=$v': invalid value")
			expect "$sp='$v': refused once (messages: $c)" test "$c" = 1
		done < <(values $sp)
		expect "vm.${sysctl##*/} is the default, 0 (reads $(cat $sysctl))" test "$(cat $sysctl)" = 0
	fi
fi

# bad_write FILE VALUE: the write fails with EINVAL, the value is unchanged
# (SLUB_STATS counters move on their own: "unchanged" there means not
# cleared, and not set to the value written)
bad_write() {
	local f=$1 v=$2 before after err
	before=$(cat "$f")
	err=$( { printf '%s' "$v" > "$f"; } 2>&1)
	after=$(cat "$f")
	case $f in
	/proc/sys/*) [[ $err == *"Invalid argument"* ]] && [ "$before" = "$after" ] ;;
	*) [[ $err == *"Invalid argument"* ]] && [ "${after%% *}" != "$v" ] &&
		[ "${after%% *}" -ge "${before%% *}" ] ;;
	esac
}
if [ -e $sysctl ]; then
	# (an empty write never reaches the kernel: no write(2) for 0 bytes;
	# 99999999999 KiB is past the cap of both lines)
	for v in abc -5 99999999999999999999999 99999999999; do
		expect "vm.${sysctl##*/}='$v': EINVAL, unchanged" bad_write $sysctl "$v"
	done
else
	skip "vm.vmap_lazy_threshold_kb bad writes" "this kernel has no CONFIG_VMALLOC_LAZY_TUNING"
fi
stat=/sys/kernel/slab/kmalloc-64/free_list_lock
if [ -e $stat ]; then
	for v in 5 x; do
		expect "$stat='$v': EINVAL, not cleared" bad_write $stat "$v"
	done
else
	skip "SLUB_STATS free_list_lock bad writes" "this kernel has no CONFIG_SLUB_STATS or not the slub patches"
fi

echo "1..$n"
[ "$fails" = 0 ]
