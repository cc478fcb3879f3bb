#!/usr/bin/env bash
# lab/stages/qemu.sh - stage "qemu": Debian 12's QEMU 7.2 against QEMU 10 from
# bookworm-backports, measured on the lab's own boots.  Installs nothing.
#
# Usage: lab/stages/qemu.sh fetch
#          QEMU 10 (qemu-system-x86, -common, -data and the seabios it
#          needs) from bookworm-backports with a private apt state
#          (apt-get download, dpkg-deb -x) into QEMU10_DIR (default
#          build/qemu10), and QEMU10_DIR/bin/qemu-system-x86_64, a wrapper
#          that runs it with its own firmware (-L).  The machine's packages
#          do not change; its shared libraries are Debian 12's.
#        lab/stages/qemu.sh boots N QEMU...
#          N boots of the default kernel (build/<line>/vm-debug-mmscale,
#          make build) with each QEMU, interleaved (7.2, 10, 7.2, ...),
#          under multi-threaded TCG, 4 vCPUs on 2 NUMA nodes: to userspace
#          and back (no test plan: lab/guest/init.sh dumps dmesg and powers
#          off).  A boot passes when the guest powered off and its console
#          holds no kernel report; else it fails with a signature: the
#          first report line (BUG, WARNING, Oops, int3, general
#          protection, panic, stall, hung task), "no userspace in 600 s",
#          "timeout" or "QEMU exit N".
#        lab/stages/qemu.sh time N QEMU...
#          N boots each of the same kernel under single-threaded TCG, 2
#          vCPUs (make check's way): seconds to "guest up" and to power-off.
#   QEMU is "system" (qemu-system-x86_64 on PATH, Debian 12's 7.2) or "10"
#   (QEMU10_DIR/bin, after fetch).
# Prints one line per boot and a table at the end; everything goes to a
# new build/<line>/qemu/<time>/ (console logs, results.txt).
# What it needs: lab/stages/deps.sh's packages; make build for boots and time.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=qemu
QEMU10_DIR=${QEMU10_DIR:-$TOP/build/qemu10}
SUITE=bookworm-backports
PKGS="qemu-system-x86 qemu-system-common qemu-system-data seabios"

usage() { echo "usage: $0 fetch | boots N QEMU... | time N QEMU...   (QEMU: system or 10)" >&2; exit 2; }

fetch() {
	local d=$QEMU10_DIR p f
	local o=(-o "Dir::Etc::SourceList=$d/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o "Dir::State::Lists=$d/apt/lists" -o "Dir::Cache::Archives=$d/apt/archives"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
	stage qemu "$d/fetch.log"
	rm -rf "$d/apt" "$d/root" "$d/bin"
	mkdir -p "$d/apt/lists/partial" "$d/apt/archives/partial" "$d/apt/dl" "$d/root" "$d/bin"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main" \
		> "$d/apt/sources.list"
	say "fetching $PKGS from $SUITE (private apt state in $d/apt; nothing is installed)"
	run_logged apt-get "${o[@]}" update || die "apt-get update of $SUITE failed"
	for p in $PKGS; do
		(cd "$d/apt/dl" && apt-get "${o[@]}" download "$p") >> "$STAGE_LOG" 2>&1 ||
			die "apt-get download $p from $SUITE failed"
	done
	for f in "$d"/apt/dl/*.deb; do
		run_logged dpkg-deb -x "$f" "$d/root" || die "could not unpack $f"
	done
	# its firmware first: qemu-system-data's links point into /usr/share/seabios
	printf '%s\n' '#!/bin/sh' "# QEMU 10 from $SUITE, unpacked by lab/stages/qemu.sh fetch" \
		"exec \"$d/root/usr/bin/qemu-system-x86_64\" -L \"$d/root/usr/share/seabios\" -L \"$d/root/usr/share/qemu\" \"\$@\"" \
		> "$d/bin/qemu-system-x86_64"
	chmod +x "$d/bin/qemu-system-x86_64"
	if ldd "$d/root/usr/bin/qemu-system-x86_64" | grep -q 'not found'; then
		ldd "$d/root/usr/bin/qemu-system-x86_64" | grep 'not found' >&2
		die "QEMU 10 needs a library Debian 12 does not have here"
	fi
	say "ready: $("$d/bin/qemu-system-x86_64" --version | head -n1) ($d/bin)"
}

# qemu_path Q: the PATH that makes Q's qemu-system-x86_64 the one boot.sh runs
qemu_path() {
	case $1 in
	system) echo "$PATH" ;;
	10) [ -x "$QEMU10_DIR/bin/qemu-system-x86_64" ] || die "no QEMU 10 in $QEMU10_DIR; run 'lab/stages/qemu.sh fetch' first"
		echo "$QEMU10_DIR/bin:$PATH" ;;
	*) die "QEMU must be 'system' or '10', not '$1'" ;;
	esac
}

# signature LOG RC: why a boot failed (nothing when it passed)
signature() {
	local l
	l=$(grep -m1 -aE -f <(kernel_report_patterns) "$1" | sed 's/^\[ *[0-9.]*\] //')
	if [ -n "$l" ]; then echo "$l"
	elif grep -q '^# boot.sh: no userspace' "$1"; then echo "no userspace in 600 s"
	elif [ "$2" = 124 ] || [ "$2" = 137 ]; then echo "timeout"
	elif ! grep -q '^mmscale: poweroff' "$1"; then echo "QEMU exit $2 before the guest powered off"
	elif [ "$2" != 0 ]; then echo "QEMU exit $2"
	fi
}

# run_boots MODE N QEMU...: the interleaved boots, one line each
run_boots() {
	local mode=$1 n=$2 i q rc p log t0 t up sig
	shift 2
	local O=$BUILD/$(kernel_name $DEFAULT_CONFIGS)
	in_range "$n" 1 1000 || die "N must be 1..1000, not '$n'"
	[ $# -gt 0 ] || usage
	for q; do qemu_path "$q" > /dev/null; done
	[ -f "$O/arch/x86/boot/bzImage" ] || die "no default kernel in $O; run 'make build' first"
	local out
	out=$(new_dir "$BUILD/qemu/$(date +%Y%m%d-%H%M%S)") || die "could not make a folder under $BUILD/qemu"
	stage qemu "$out/results.txt"
	say "$mode: $n boots each of $O with: $*; logs in $out"
	for i in $(seq 1 "$n"); do
		for q; do
			p=$(qemu_path "$q")
			log=$out/$q-$mode-$i.log
			t0=$(date +%s)
			rc=0
			if [ "$mode" = boots ]; then
				PATH=$p ACCEL=mttcg "$LAB_DIR/stages/boot.sh" -k "$O/arch/x86/boot/bzImage" -M "$O/modroot" \
					-l "$log" -c 4 -n 2 -s 0 -t 900 -u 600 > "$log.out" 2>&1 || rc=$?
			else
				PATH=$p ACCEL=tcg "$LAB_DIR/stages/boot.sh" -k "$O/arch/x86/boot/bzImage" -M "$O/modroot" \
					-l "$log" -s 0 -t 900 -u 600 > "$log.out" 2>&1 || rc=$?
			fi
			t=$(($(date +%s) - t0))
			up=$(sed -n 's/^\[boot +\([0-9]*\)s\] mmscale: guest up.*/\1/p' "$log.out" | head -n1)
			sig=$(signature "$log" "$rc")
			printf '%s\t%s\t%d\t%s\t%s\t%s\n' "$q" "$i" "$t" "${up:--}" "$([ -z "$sig" ] && echo ok || echo FAIL)" "$sig" |
				tee -a "$out/results.txt"
		done
	done
	echo "== $mode: QEMU, boots, passed, failed, mean s to guest up, mean s in all (results: $out/results.txt) =="
	awk -F'\t' '{ n[$1]++; if ($5 == "ok") ok[$1]++; tt[$1] += $3; if ($4 != "-") { u[$1] += $4; nu[$1]++ } }
		END { for (q in n) printf "  %-8s %3d boots %3d passed %3d failed  up %6.1f s  all %6.1f s\n",
			q, n[q], ok[q], n[q] - ok[q], nu[q] ? u[q] / nu[q] : 0, tt[q] / n[q] }' "$out/results.txt"
	awk -F'\t' '$5 == "FAIL" { print "  failed: " $1 " boot " $2 ": " $6 }' "$out/results.txt"
}

case ${1:-} in
fetch) [ $# = 1 ] || usage; fetch ;;
boots | time) [ $# -ge 3 ] || usage; run_boots "$@" ;;
*) usage ;;
esac
