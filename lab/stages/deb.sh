#!/usr/bin/env bash
# lab/stages/deb.sh - "make deb": Debian kernel packages of base (pristine Linux
# 6.12.y) and head (the series applied, its options on), which install side
# by side on a server, and a boot of the head package's kernel in the lab.
#
# Usage: lab/stages/deb.sh [--check]             (make deb [KCONFIG=FILE] [DEB_BOOT=0])
#        lab/stages/deb.sh --package KSRC O OUTDIR
#                 package a kernel already built from KSRC into O (make
#                 check packages its own kernel this way)
#        lab/stages/deb.sh --verify DEB OUTDIR
#                 boot the kernel of a linux-image package in the lab
#   --check: only check the settings (make deb does that before any stage)
# Settings:
#   KCONFIG=FILE  start both kernels from this config (a distribution's, or
#                 /boot/config-$(uname -r) of the server) with olddefconfig,
#                 plus configs/server.config (kprobe events, /proc/config.gz,
#                 KUnit built in but off, test_vmalloc, no debug info),
#                 mmscale.config on head, and bench.config (no debug
#                 options, SLUB_STATS off on both); an x86_64 config only.
#                 Default: the lab's "vm" config with the same fragments,
#                 which builds here in about 25 minutes for both (2 CPUs,
#                 cold ccache)
#   DEB_BOOT=0|1  boot the head package's kernel at the end (default 1)
# What it does: deps, source, tree; builds build/base/deb-base[-K] from the
# pristine base tree with LOCALVERSION=-mmscale-base and build/deb-head[-K]
# from build/linux with LOCALVERSION=-mmscale (K: "kconfig-" and the start
# of KCONFIG's sha256), both with configs/deb.config (no git commit in the
# release, so the releases are 6.12.117-mmscale-base and 6.12.117-mmscale);
# runs the kernel's own "make bindeb-pkg" on each built tree (it only
# packages what is built) and copies the linux-image and linux-headers
# packages into a new build/deb/<time>/, not linux-libc-dev: installed, it
# would replace the distribution's userspace headers.  Then checks that the
# two image packages have different names and no file in common, that
# "dpkg --dry-run -i" takes both together (as root), and boots the head
# one (--verify).
# --verify: unpacks the package with dpkg -x, boots its vmlinuz with its
# own modules (lab/stages/boot.sh -M, plan lab/guest/deb.sh) with kunit.enable=1,
# and checks that the guest runs that package's release, that
# /proc/config.gz has the series' options (head), that a module of the
# package loads (test_vmalloc), and parses the KUnit results with the
# kernel's kunit.py parse: every suite built in must pass (skips are
# listed with their reasons).  Console log, kunit.txt and the verdicts as a
# result file (result.json, lab/lib/tap.sh) in OUTDIR.
# What it needs: what make run needs, and debhelper and dpkg-dev (lab/stages/deps.sh).
# Writes build/base/deb-base*, build/deb-head*, build/deb/<time>/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

stage deb
# the series' options as head's /proc/config.gz must show them (line.env)
SERIES_OPTS=$LINE_OPTIONS
export DEBFULLNAME=${DEBFULLNAME:-mmscale developers} DEBEMAIL=${DEBEMAIL:-mmscale@localhost}

# package KSRC O OUTDIR: make bindeb-pkg on a built tree, the packages into
# OUTDIR; prints the image package's path.
package() {
	local ksrc o out=$3 f name n=0 log image=
	ksrc=$(readlink -f "$1") o=$(readlink -f "$2")
	[ -f "$o/.config" ] && [ -f "$o/arch/x86/boot/bzImage" ] || die "no built kernel in $2"
	mkdir -p "$out"
	log=$out/bindeb-pkg-$(basename "$o").log
	kmake_init "$ksrc" "$o"
	say "make bindeb-pkg in $o (log: $log)"
	rm -f "$o/debian/files"
	# bindeb-pkg writes the packages into the build folder's parent
	if ! "${KMAKE[@]}" ${LOCALVERSION:+LOCALVERSION="$LOCALVERSION"} KBUILD_VERBOSE=0 \
		KDEB_COMPRESS=xz bindeb-pkg > "$log" 2>&1; then
		grep -E 'error|Error [0-9]' "$log" | tail -n 8 >&2 || true
		die "make bindeb-pkg failed in $o (log: $log)"
	fi
	[ -s "$o/debian/files" ] || die "make bindeb-pkg listed no package in $o/debian/files"
	while read -r f _; do
		[[ $f == *.deb ]] || continue
		name=${f%%_*}
		if [ "$name" = linux-libc-dev ]; then
			rm -f "$(dirname "$o")/$f"
			continue
		fi
		mv "$(dirname "$o")/$f" "$out/" || die "make bindeb-pkg did not write $(dirname "$o")/$f"
		[[ $name == linux-image-* && $name != *-dbg ]] && image=$out/$f
		say "  $out/$f ($(du -h "$out/$f" | cut -f1))"
		n=$((n + 1))
	done < "$o/debian/files"
	rm -f "$(dirname "$o")"/linux-upstream_*.{buildinfo,changes}
	[ -n "$image" ] || die "no linux-image package from $o"
	echo "$image"
}

# verify DEB OUTDIR [head]: boot the package's kernel in the lab.
verify() {
	local deb=$1 out=$2 want_series=${3:-} root rel img rc=0 o
	[ -f "$deb" ] || die "no package $deb"
	dpkg-deb --field "$deb" Package | grep -q '^linux-image-' || die "$deb is not a linux-image package"
	root=$out/root
	rm -rf "$root"
	mkdir -p "$root"
	dpkg -x "$deb" "$root" || die "dpkg -x $deb failed"
	img=$(ls "$root"/boot/vmlinuz-* 2>/dev/null | head -n1)
	[ -n "$img" ] || die "$deb has no /boot/vmlinuz-*"
	rel=${img##*/vmlinuz-}
	[ -d "$root/lib/modules/$rel" ] || die "$deb has no /lib/modules/$rel"
	say "booting $rel from $(basename "$deb") (its vmlinuz and modules; KUnit at boot)"
	"$LAB_DIR/stages/boot.sh" -k "$img" -M "$root" -l "$out/console.log" -p "$LAB_DIR/guest/deb.sh" \
		-t "${BOOT_TIMEOUT:-1800}" -s 0 -a "kunit.enable=1" -- MMSCALE_OPTIONS="$(echo $SERIES_OPTS | tr ' ' ,)" || die "the boot of $rel failed (log: $out/console.log)"
	tr -d '\r' < "$out/console.log" > "$out/console.txt"
	# check_line DESC REGEX [FILE]: a line of FILE (the console) matches
	check_line() {
		if grep -qE "$2" "${3:-$out/console.txt}"; then
			tap_result 0 "$1"
		else
			tap_result 1 "$1"
			rc=1
		fi
	}
	check_line "the guest runs the package's release $rel" "^mmscale: deb uname $rel\$"
	check_line "a module of the package loads (test_vmalloc)" '^mmscale: deb module test_vmalloc ok$'
	if [ -n "$want_series" ]; then
		for o in $SERIES_OPTS; do
			check_line "/proc/config.gz: CONFIG_$o" "^mmscale: deb config CONFIG_$o=(y|[0-9]+)\$"
		done
	fi
	# the kernel's own KTAP parser; it exits non-zero on a failed test
	if python3 "$TREE/tools/testing/kunit/kunit.py" parse "$out/console.txt" 2>&1 |
		sed 's/\x1b\[[0-9;]*m//g' > "$out/kunit.txt" && [ "${PIPESTATUS[0]}" = 0 ]; then
		tap_result 0 "KUnit at boot, kunit.py parse: $(grep -E 'Testing complete' "$out/kunit.txt" | sed 's/^\[[0-9:]*\] //')"
	else
		tap_result 1 "KUnit at boot (kunit.py parse: $out/kunit.txt)"
		rc=1
	fi
	if [ -n "$want_series" ]; then
		# the line's KUnit suites (LINE_KUNIT: suite=.kunitconfig ...)
		for o in $(for kv in $LINE_KUNIT; do echo "${kv%%=*}"; done); do
			check_line "KUnit suite $o ran" "=+ $o \([0-9]+ subtests\) =+" "$out/kunit.txt"
		done
	fi
	grep -E 'SKIP' "$out/kunit.txt" | sed 's/^\[[0-9:]*\] /  # /' | head -n 20 || true
	tap_write "$out/result.json"
	return "$rc"
}

case ${1:-} in
--package)
	[ $# = 4 ] || die "usage: $0 --package KSRC O OUTDIR"
	want_kernel_tree KSRC "$2"
	package "$2" "$3" "$4" > /dev/null
	exit 0 ;;
--verify)
	[ $# = 3 ] || die "usage: $0 --verify DEB OUTDIR"
	want_boot_settings
	mkdir -p "$3"
	verify "$2" "$3" head
	exit ;;
--check | "") ;;
*) die "usage: $0 [--check] | --package KSRC O OUTDIR | --verify DEB OUTDIR" ;;
esac

want_bool DEB_BOOT
want_boot_settings
want_linux_src
suffix=
if [ -n "${KCONFIG:-}" ]; then
	[ -f "$KCONFIG" ] && [ -r "$KCONFIG" ] || die "KCONFIG=$KCONFIG is not a readable file"
	grep -qE '^CONFIG_[A-Za-z0-9_]+=' "$KCONFIG" || die "KCONFIG=$KCONFIG is not a kernel config (no CONFIG_ line)"
	grep -qx 'CONFIG_X86_64=y' "$KCONFIG" ||
		die "KCONFIG=$KCONFIG is not an x86_64 config (no CONFIG_X86_64=y); the lab builds and boots x86_64"
	KCONFIG=$(readlink -f "$KCONFIG")
	suffix=-kconfig-$(sha256sum "$KCONFIG" | cut -c1-8)
fi
[ "${1:-}" != --check ] || exit 0

"$LAB_DIR/stages/deps.sh"
"$LAB_DIR/stages/source.sh"
"$LAB_DIR/stages/tree.sh"
stage deb
base_tree=$(base_tree_ready) || exit 1
if [ -n "${KCONFIG:-}" ]; then
	frags_base=(server bench deb)
	frags_head=(server mmscale bench deb)
	export START_CONFIG=$KCONFIG
else
	frags_base=(vm bench deb)
	frags_head=(vm mmscale bench deb)
fi
t0=$(date +%s)
KSRC=$base_tree NAME=base/deb-base$suffix SKIP_SELFTESTS=1 LOCALVERSION=-mmscale-base \
	"$LAB_DIR/stages/build.sh" "${frags_base[@]}"
NAME=deb-head$suffix SKIP_SELFTESTS=1 LOCALVERSION=-mmscale "$LAB_DIR/stages/build.sh" "${frags_head[@]}"
stage deb
out=$(new_dir "$BUILD/deb/$(date +%Y%m%d-%H%M%S)") || die "could not make a folder under $BUILD/deb"
base_deb=$(LOCALVERSION=-mmscale-base package "$base_tree" "$BUILD/base/deb-base$suffix" "$out")
head_deb=$(LOCALVERSION=-mmscale package "$TREE" "$BUILD/deb-head$suffix" "$out")
say "built and packaged in $(($(date +%s) - t0)) s"

# side by side: two package names, no file in common
pb=$(dpkg-deb --field "$base_deb" Package) ph=$(dpkg-deb --field "$head_deb" Package)
[ "$pb" != "$ph" ] || die "base and head packages are both called $pb"
common=$(comm -12 <(dpkg-deb --fsys-tarfile "$base_deb" | tar -t | grep -v '/$' | sort) \
	<(dpkg-deb --fsys-tarfile "$head_deb" | tar -t | grep -v '/$' | sort))
[ -z "$common" ] || die "base and head packages share files, so they cannot be installed side by side: $(echo "$common" | head -n 3 | tr '\n' ' ')"
say "side by side: $pb and $ph share no file"
# what dpkg itself says of installing both here (no maintainer script runs)
if [ "$(id -u)" = 0 ]; then
	dpkg --dry-run -i "$base_deb" "$head_deb" > "$out/dpkg-dry-run.log" 2>&1 ||
		die "dpkg --dry-run -i of both image packages failed ($out/dpkg-dry-run.log)"
	say "dpkg --dry-run -i: both image packages install together on this machine"
else
	say "dpkg --dry-run -i skipped: it needs root"
fi
{
	echo "# make deb${KCONFIG:+ KCONFIG=$KCONFIG}, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# base: $pb (Linux $(kernel_version "$base_tree"), series not applied; configs ${frags_base[*]})"
	echo "# head: $ph (the series, tree $(git -C "$TREE" rev-parse --short=12 HEAD); configs ${frags_head[*]})"
	(cd "$out" && ls -1 ./*.deb | sed 's|^\./||')
} > "$out/README"
if [ "${DEB_BOOT:-1}" = 1 ]; then
	verify "$head_deb" "$out/boot-head" head | tee "$out/boot-head.txt" ||
		die "the head package's kernel failed a check ($out/boot-head.txt)"
fi
cat "$out/README"
say "packages in $out; on a server: docs/real-hardware.md"
