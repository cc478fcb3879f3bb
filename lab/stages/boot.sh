#!/usr/bin/env bash
# lab/stages/boot.sh - stage "boot": boot one kernel under QEMU and capture its console.
#
# Usage: lab/stages/boot.sh -k BZIMAGE -l CONSOLE_LOG [options] [-- VAR=VALUE...]
#   -k FILE   kernel image (bzImage)
#   -l FILE   where the console log goes
#   -M DIR    modules tree (modules_install's lib/modules), shared as 9p tag
#             "modules" and mounted on /lib/modules in the guest
#   -p FILE   plan script the guest sources (see lab/guest/init.sh)
#   -t SECS   hard timeout; QEMU is killed when it expires (default 1800)
#   -u SECS   userspace deadline: QEMU is killed when the console has no
#             "mmscale: guest up" line SECS after the start (default 0:
#             none); the log then ends with a "# boot.sh: no userspace"
#             line, and boot.sh exits 3
#   -c N      vCPUs (default 2)         -m MIB  memory (default 3072)
#   -n N      NUMA nodes (default 2), one socket each; vCPUs (a multiple of
#             N) and memory are split evenly
#   -s MIB    ext4 scratch disk (virtio-blk, /dev/vda; default 2048, 0: none)
#   -w MIB    swap disk (virtio-blk, /dev/vdb; default 0: none)
#   -a ARGS   extra kernel command line arguments
#   VAR=VALUE after -- are put on the command line; the kernel hands them
#   to the guest's init as environment variables.
#   ACCEL=auto|kvm|tcg (env): auto probes KVM with a short boot and uses it
#   only if that boot reaches userspace, otherwise single-threaded TCG
#   (multi-threaded TCG oopsed 4 of 99 boots of plain 6.12 here).  The
#   probe's verdict is kept per host and kernel image, in
#   build/accel/<host name>-<start of the image's sha256>, and later boots
#   of that image on that host use it without probing (a hanging KVM costs
#   the 30 s of the probe once, not on every boot).  ACCEL_PROBE=1 (env)
#   probes again and keeps the new verdict; so does deleting the file.
#   ACCEL=mttcg: multi-threaded TCG, every vCPU a host thread, so vCPUs
#   really run at the same time (make stress; never probed, never chosen
#   by auto).
#   KVM_DEV (env, default /dev/kvm) is the device whose write access means
#   "KVM may work" (the lab's tests fake it).
# What it does: the guest's root is the host's / over virtio-9p, read only,
# and its init is lab/guest/init.sh.  Lines starting "mmscale:" are shown as
# progress; the whole console goes to the log.  Exits non-zero, naming the
# log, when QEMU fails, the timeout expires or the guest never powers off.
# (make shell's interactive guest boots with virtme-ng: lab/stages/shell.sh.)
# Every option and ACCEL is checked before any file is touched: a bad one
# ends it with one line and leaves an existing CONSOLE_LOG as it was.
# What it needs: qemu-system-x86 (Debian), coreutils.  Writes CONSOLE_LOG,
# and build/accel/ (the KVM probe's verdicts).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

kernel= log= modroot= plan= timeout_s=1800 up_s=0 cpus=2 mem=3072 nodes=2 extra= scratch=2048 swap=0
while getopts "k:l:M:p:t:u:c:m:n:a:s:w:" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	l) log=$OPTARG ;;
	M) modroot=$OPTARG ;;
	p) plan=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	u) up_s=$OPTARG ;;
	c) cpus=$OPTARG ;;
	m) mem=$OPTARG ;;
	n) nodes=$OPTARG ;;
	a) extra=$OPTARG ;;
	s) scratch=$OPTARG ;;
	w) swap=$OPTARG ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$kernel" ] && [ -n "$log" ] || { echo "usage: $0 -k BZIMAGE -l LOG [options]" >&2; exit 2; }
# the checks, before the log (which may hold an earlier run) is touched
STAGE=boot
# want_opt FLAG VALUE MIN MAX WHAT
want_opt() {
	in_range "$2" "$3" "$4" || die "$1 takes $5 from $3 to $4, not '$2'"
}
want_opt -t "$timeout_s" 1 86400 "seconds"
want_opt -u "$up_s" 0 86400 "seconds"
want_opt -c "$cpus" 1 64 "a vCPU count"
want_opt -n "$nodes" 1 8 "a NUMA node count"
want_opt -m "$mem" 256 1048576 "MiB"
want_opt -s "$scratch" 0 1048576 "MiB"
want_opt -w "$swap" 0 1048576 "MiB"
want_choice ACCEL auto kvm tcg mttcg
want_bool ACCEL_PROBE
[ $((cpus % nodes)) = 0 ] || die "vCPUs must be a multiple of the NUMA nodes ($cpus vCPUs, $nodes nodes)"
[ "$swap" = 0 ] || [ "$scratch" -gt 0 ] || die "-w (swap) needs the scratch disk (-s > 0)"
[ -f "$kernel" ] || die "kernel image $kernel does not exist"
[ ! -d "$log" ] || die "-l $log is a folder; it takes the console log's file name"
[ -z "$modroot" ] || [ -d "$modroot/lib/modules" ] || die "-M $modroot has no lib/modules"
[ -z "$plan" ] || [ -f "$plan" ] || die "-p $plan does not exist"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing (lab/stages/deps.sh installs it)"
stage boot "$log"

# qemu_args ACCEL: QEMU arguments shared by the probe and the real boot
qemu_args() {
	local accel=$1 i per_mem first last
	printf '%s\n' -nodefaults -no-reboot -display none -monitor none -serial stdio
	case $accel in
	kvm) printf '%s\n' -accel kvm ;;
	mttcg) printf '%s\n' -accel tcg,thread=multi ;;
	*) printf '%s\n' -accel tcg,thread=single ;;
	esac
	# one socket per NUMA node, so that no LLC spans two nodes (the
	# scheduler WARNs in topology_sane() otherwise)
	printf '%s\n' -smp "$cpus,sockets=$nodes,cores=$((cpus / nodes)),threads=1" -m "${mem}M" -kernel "$kernel"
	per_mem=$((mem / nodes))
	for ((i = 0; i < nodes; i++)); do
		first=$((i * cpus / nodes))
		last=$(((i + 1) * cpus / nodes - 1))
		printf '%s\n' -object "memory-backend-ram,id=m$i,size=$((i == nodes - 1 ? mem - per_mem * i : per_mem))M" \
			-numa "node,nodeid=$i,cpus=$first-$last,memdev=m$i"
	done
	printf '%s\n' -fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
		-device "virtio-9p-pci,fsdev=hostroot,mount_tag=/dev/root"
	if [ "$scratch" -gt 0 ]; then
		printf '%s\n' -drive "file=$log.scratch.img,format=raw,if=virtio,cache=unsafe"
		[ "$swap" -gt 0 ] && printf '%s\n' -drive "file=$log.swap.img,format=raw,if=virtio,cache=unsafe"
	fi
	if [ -n "$modroot" ]; then
		printf '%s\n' -fsdev "local,id=modules,path=$modroot/lib/modules,security_model=none,readonly=on" \
			-device "virtio-9p-pci,fsdev=modules,mount_tag=modules"
	fi
}

cmdline="console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=262144 ro"
cmdline+=" init=$LAB_DIR/guest/init.sh panic=-1 log_buf_len=8M"

# boot_once ACCEL TIMEOUT CMDLINE LOG [UP]: one QEMU run, console to LOG;
# with UP > 0, QEMU is killed (and 3 returned) when LOG has no "mmscale:
# guest up" line UP seconds after the start
boot_once() {
	local accel=$1 t=$2 cl=$3 out=$4 up=${5:-0} args wd= rc
	mapfile -t args < <(qemu_args "$accel")
	echo "# qemu-system-x86_64 ${args[*]} -append \"$cl\"" > "$out"
	rm -f "$out.pid" "$out.no-userspace"
	if [ "$up" -gt 0 ]; then
		# the watchdog: it ends by itself when the guest is up, when
		# QEMU has exited ($out.running gone) or when boot.sh ends (the
		# EXIT trap removes $out.running), and is waited for, never
		# killed; it kills QEMU only through QEMU's own pid file
		: > "$out.running"
		(
			end=$((SECONDS + up))
			while [ $SECONDS -lt "$end" ]; do
				sleep 1
				[ -e "$out.running" ] || exit 0
				! grep -q '^mmscale: guest up' "$out" || exit 0
			done
			[ -e "$out.running" ] || exit 0
			: > "$out.no-userspace"
			kill "$(cat "$out.pid" 2> /dev/null)" 2> /dev/null
		) > /dev/null 2>&1 &
		wd=$!
	fi
	timeout -k 10 "$t" qemu-system-x86_64 "${args[@]}" -pidfile "$out.pid" -append "$cl" < /dev/null 2>&1 |
		sed -u 's/\r$//' | tee -a "$out" |
		{ grep --line-buffered '^mmscale:' || true; } |
		while IFS= read -r line; do say "$line"; done
	rc=${PIPESTATUS[0]}
	rm -f "$out.running"
	[ -z "$wd" ] || wait "$wd" || true
	rm -f "$out.pid"
	if [ -e "$out.no-userspace" ]; then
		rm -f "$out.no-userspace"
		echo "# boot.sh: no userspace: no 'mmscale: guest up' within ${up}s, QEMU killed" >> "$out"
		return 3
	fi
	return "$rc"
}

# fresh sparse disks for every boot (the swap disk needs the scratch disk)
rm -f "$log.scratch.img" "$log.swap.img"
if [ "$scratch" -gt 0 ]; then
	truncate -s "${scratch}M" "$log.scratch.img"
	mkfs.ext4 -q -F "$log.scratch.img" >> "$log" 2>&1 || die "mkfs.ext4 of the scratch disk failed"
	if [ "$swap" -gt 0 ]; then
		truncate -s "${swap}M" "$log.swap.img"
		mkswap "$log.swap.img" >> "$log" 2>&1 || die "mkswap of the swap disk failed"
	fi
fi
trap 'rm -f "$log.scratch.img" "$log.swap.img" "$log.running"' EXIT

# probe_kvm: "kvm" when a short KVM boot of the kernel reaches userspace
# (its init powers off at once: no plan), else "tcg"
probe_kvm() {
	local probe_log=$log.kvm-probe
	if STAGE="boot kvm-probe" boot_once kvm 30 "$cmdline" "$probe_log" >/dev/null 2>&1 &&
	   grep -q '^mmscale: poweroff' "$probe_log"; then
		say "KVM probe: reached userspace, using KVM"
		echo kvm
	else
		say "KVM probe: did not reach userspace within 30 s ($probe_log), using TCG"
		echo tcg
	fi
}

accel=${ACCEL:-auto}
if [ "$accel" = auto ]; then
	accel=tcg
	if [ -w "${KVM_DEV:-/dev/kvm}" ]; then
		# the verdict of this host and kernel image, when it was probed
		verdict=$BUILD/accel/$(uname -n | tr -c 'A-Za-z0-9._\n-' _)-$(sha256sum < "$kernel" | cut -c1-16)
		kept=
		[ "${ACCEL_PROBE:-0}" = 1 ] || read -r kept _ 2>/dev/null < "$verdict" || true
		if [[ $kept =~ ^(kvm|tcg)$ ]]; then
			accel=$kept
			say "KVM probe: skipped, $accel as probed before on this host for this kernel ($verdict; ACCEL_PROBE=1 probes again)"
		else
			accel=$(probe_kvm)
			mkdir -p "$(dirname "$verdict")"
			echo "$accel probed $(date -u +%Y-%m-%dT%H:%M:%SZ) for $kernel, log $log.kvm-probe" > "$verdict"
		fi
	fi
fi

# the line's own boot arguments (patches/<line>/line.env LINE_BOOT_APPEND:
# 7.3 under QEMU's ACPI hangs before userspace without pci=noacpi)
full="$cmdline${LINE_BOOT_APPEND:+ $LINE_BOOT_APPEND}${extra:+ $extra}"
[ -n "$plan" ] && full+=" MMSCALE_PLAN=$plan"
for kv in "$@"; do full+=" $kv"; done

say "booting $(basename "$kernel") ($accel, $cpus vCPUs, $nodes NUMA nodes, ${mem} MiB, timeout ${timeout_s}s)"
# how it booted, for the stages that quote or judge it (lab/stages/mail.sh,
# ab.sh, equiv.sh): LOG's .boot.json, next to the log.  status: running,
# ok, no-userspace, timeout, qemu-failed or no-poweroff; reason: one line.
boot_json() {
	python3 -c 'import json, sys
k, a, c, n, m, t, st, why, out = sys.argv[1:]
with open(out + ".tmp", "w") as f:
    json.dump({"kernel": k, "accel": a, "vcpus": int(c), "nodes": int(n), "mem_mib": int(m),
               "timeout_s": int(t), "status": st, "reason": why}, f)
    f.write("\n")' "$kernel" "$accel" "$cpus" "$nodes" "$mem" "$timeout_s" "$1" "${2:-}" "${log%.log}.boot.json" &&
		mv "${log%.log}.boot.json.tmp" "${log%.log}.boot.json"
}
boot_json running
rc=0
boot_once "$accel" "$timeout_s" "$full" "$log" "$up_s" || rc=$?
if [ "$rc" = 3 ]; then
	tail -n 5 "$log" >&2
	boot_json no-userspace "guest did not reach userspace within ${up_s}s (-u); QEMU was killed"
	say "guest did not reach userspace within ${up_s}s (-u); QEMU was killed"
	exit 3
fi
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	tail -n 5 "$log" >&2
	boot_json timeout "guest did not finish within ${timeout_s}s (hang?); QEMU was killed"
	die "guest did not finish within ${timeout_s}s (hang?); QEMU was killed"
fi
[ "$rc" = 0 ] || { boot_json qemu-failed "qemu-system-x86_64 exited with status $rc"; die "qemu-system-x86_64 exited with status $rc"; }
if ! grep -q '^mmscale: poweroff' "$log"; then
	grep -m1 -B2 -A8 -aE -f <(kernel_report_patterns) "$log" >&2 || tail -n 8 "$log" >&2
	boot_json no-poweroff "guest stopped before powering off (panic or reboot?)"
	die "guest stopped before powering off (panic or reboot?)"
fi
boot_json ok
say "guest powered off"
