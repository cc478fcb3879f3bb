#!/usr/bin/env bash
# bench/vng-compare.sh - lab/stages/boot.sh against virtme-ng (vng) on one kernel:
# the measured run behind docs/results.md's side-by-side table
# (issue 30).  Not a test, and not in make check.
#
# Usage: [ROUNDS=2] [MTTCG=1] [EXITS=1] [WAYS="boot.sh vng"]
#   [VNG_ARGS=--verbose] bench/vng-compare.sh [CONFIG...]   (default: the
#   default kernel; ROUNDS=0 and MTTCG=0 leave out the single- and the
#   multi-threaded boots, EXITS=0 the exit and panic boots; WAYS one of them only; VNG_ARGS
#   --verbose puts the console in vng's output, which a host without udev
#   needs: virtme-init then finds no virtio-serial ports and runs the
#   command on the console)
# What it does: boots the kernel ROUNDS times (default 2) each way,
# interleaved (boot.sh, vng, boot.sh, vng), with the same guest: 2 vCPUs
# on 2 NUMA nodes, 3 GiB, an ext4 scratch disk, single-threaded TCG (and
# once more each with multi-threaded TCG, vng's own default).  Each boot
# runs the same commands: the series' KUnit verdicts from dmesg (the
# kernel runs its suites at boot), the ptlock selftest, the cgroup
# selftest test_core (run twice: passes, failures), WARNING/BUG lines in
# dmesg, the CPU and node counts.  Then one boot each whose command exits
# 3, and one each that panics (rootfstype=ext4 on the command line: the
# root cannot be mounted): the exit status, and what the capture holds.
# Prints one line per boot (seconds to the plan's first line, seconds in
# all, exit status, the counts) and writes everything under
# build/<line>/vng-compare/<time>/.
# What it needs: the kernel (make build), virtme-ng (make deps), util-linux.
set -euo pipefail
source "$(dirname "$0")/../lab/lib/common.sh"
STAGE=vng-compare
configs=${*:-$DEFAULT_CONFIGS}
want_fragments "CONFIGS=$configs" "$configs"
ROUNDS=${ROUNDS:-2}
[ "$ROUNDS" = 0 ] || want_number ROUNDS 1 20
MTTCG=${MTTCG:-1}
want_bool MTTCG
EXITS=${EXITS:-1}
want_bool EXITS
WAYS=${WAYS:-boot.sh vng}
[[ $WAYS =~ ^(boot\.sh|vng)( (boot\.sh|vng))?$ ]] || die "WAYS must be boot.sh, vng or both, not '$WAYS'"
VNG_ARGS=${VNG_ARGS:-}
[[ $VNG_ARGS =~ ^(--verbose)?$ ]] || die "VNG_ARGS may be --verbose or empty, not '$VNG_ARGS'"
O=$BUILD/$(kernel_name $configs)
kernel=$O/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel in $O; run make build first"
vng_ready
out=$BUILD/vng-compare/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"

# the guest's commands, the same for both ways
cat > "$out/plan.sh" <<PLAN
echo "cmp: up"
echo "cmp: kunit ok=\$(dmesg | grep -cE '\] +ok [0-9]+ ') not_ok=\$(dmesg | grep -cE '\] +not ok [0-9]+ ')"
echo "cmp: suites \$(dmesg | grep -oE '(not )?ok [0-9]+ (ptlock|vmalloc|memcg_stock)\$' | tr '\n' ';')"
(cd $O/kselftest_install/mm && ./ptlock_fault > /dev/null 2>&1); echo "cmp: ptlock_fault rc=\$?"
echo "cmp: test_core ok=\$(cd $O/kselftest_install/cgroup && ./test_core 2>&1 | grep -cE '^ok ') not_ok=\$(cd $O/kselftest_install/cgroup && ./test_core 2>&1 | grep -cE '^not ok ')"
echo "cmp: dmesg warnings=\$(dmesg | grep -cE 'WARNING:|BUG:') cpus=\$(nproc) nodes=\$(ls -d /sys/devices/system/node/node[0-9]* | wc -l) mnt=\$(stat -fc %T /mnt)"
echo "cmp: done"
PLAN
echo 'echo "cmp: up"' > "$out/panic.sh"
printf '%s\n' 'echo "cmp: up"' 'exit 3' > "$out/exit3.sh"

# watch FILE PID: seconds (from now) until FILE has "cmp: up", or -
watch_up() {
	local t0=$1 f=$2 pid=$3
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q 'cmp: up' "$f" 2>/dev/null; then
			echo $(( $(date +%s) - t0 ))
			return
		fi
		sleep 0.5
	done
	echo -
}

# one WAY ACCEL PLAN NAME: one boot, one line
one() {
	local way=$1 accel=$2 plan=$3 name=$4 t0 pid rc up cap args="kunit.enable=1"
	[[ " $WAYS " == *" $way "* ]] || return 0
	[ "$plan" != panic.sh ] || args+=" rootfstype=ext4"
	rm -f "$out/$name.scratch.img"
	truncate -s 2G "$out/$name.scratch.img"
	mkfs.ext4 -q -F "$out/$name.scratch.img"
	t0=$(date +%s)
	if [ "$way" = boot.sh ]; then
		cap=$out/$name.console.log
		ACCEL=$accel "$LAB_DIR/stages/boot.sh" -k "$kernel" -M "$O/modroot" -l "$cap" -p "$out/$plan" -t 900 -a "$args" \
			> "$out/$name.out" 2>&1 &
	else
		cap=$out/$name.out
		local q="-drive file=$out/$name.scratch.img,format=raw,if=virtio,cache=unsafe"
		case $accel in
		tcg) q+=" -accel tcg,thread=single" ;;
		mttcg) q+=" -accel tcg,thread=multi" ;;
		esac
		timeout 900 script -q -e -f -c "$(printf '%q ' vng --run "$kernel" $VNG_ARGS --disable-kvm --cpus 2 --memory 3G \
			--numa 1536M,cpus=0 --numa 1536M,cpus=1 --append "console=ttyS0 $LINE_BOOT_APPEND $args" \
			--cwd / "--qemu-opts=$q" --exec "mkdir -p /mnt; mount /dev/vda /mnt; bash $out/$plan")" \
			"$cap" < /dev/null > /dev/null 2>&1 &
	fi
	pid=$!
	up=$(watch_up "$t0" "$cap" "$pid")
	rc=0
	wait "$pid" || rc=$?
	rm -f "$out/$name.scratch.img"
	printf '%-8s %-6s %-10s up %4ss  all %4ss  rc %3s  %s\n' "$way" "$accel" "$plan" "$up" $(( $(date +%s) - t0 )) "$rc" \
		"$(grep -aoE 'cmp: (kunit|suites|ptlock_fault|test_core|dmesg).*' "$cap" | sed 's/^cmp: //; s/\r//' | tr '\n' ' ')" |
		tee -a "$out/table.txt"
	[ "$plan" != panic.sh ] || echo "    panic text in the capture: $(grep -ac 'Kernel panic' "$cap")" | tee -a "$out/table.txt"
}

udev=no
[ -x /lib/systemd/systemd-udevd ] && udev=yes
say "kernel $kernel, virtme-ng $(cat "$VNG_DIR/version") ${VNG_ARGS:+$VNG_ARGS }(host udev: $udev), $ROUNDS rounds of $WAYS; writing $out"
echo "# $(date -u +%FT%TZ) $kernel; virtme-ng $(cat "$VNG_DIR/version") $VNG_ARGS; host udev: $udev; $(nproc) CPUs" >> "$out/table.txt"
for ((r = 1; r <= ROUNDS; r++)); do
	one boot.sh tcg plan.sh "boot-$r"
	one vng tcg plan.sh "vng-$r"
done
if [ "$MTTCG" = 1 ]; then
	one boot.sh mttcg plan.sh boot-mttcg
	one vng mttcg plan.sh vng-mttcg
fi
if [ "$EXITS" = 1 ]; then
	one boot.sh tcg exit3.sh boot-exit3
	one vng tcg exit3.sh vng-exit3
	one boot.sh tcg panic.sh boot-panic
	one vng tcg panic.sh vng-panic
fi
say "done: $out/table.txt"
