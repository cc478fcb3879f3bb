#!/usr/bin/env bash
# lab/stages/deps.sh - stage "deps": install the Debian packages the lab needs.
#
# Usage: lab/stages/deps.sh        install the Debian packages below (make deps,
#                           and every stage that needs them)
#        lab/stages/deps.sh vng    fetch virtme-ng, make shell's boot tool, unless
#                           it is there (make deps, make run and check)
# What it does: checks with dpkg-query which of the packages below are
# missing and, only if some are, runs apt-get update and apt-get install
# for them.  MMSCALE_DEPS (space separated) adds packages.  With "vng":
# fetches virtme-ng from Debian sid (Debian 12 has none) into
# build/<line>/vng with a private apt state, unpacks it there and drops
# the apt lists: nothing is installed from sid (lab/lib/common.sh
# apt_download, vng_ready).
# What it needs: Debian 12 (or later) and root for apt-get.  Writes
# build/<line>/deps.log (deps-vng.log) and build/<line>/vng/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=deps
if [ "${1:-}" = vng ]; then
	stage deps-vng "$LOGS/deps-vng.log"
	if [ -f "$VNG_DIR/version" ] && [ -x "$VNG_DIR/root/usr/bin/vng" ]; then
		say "virtme-ng $(cat "$VNG_DIR/version") present in $VNG_DIR"
		exit 0
	fi
	command -v "${APT_GET:-apt-get}" >/dev/null 2>&1 || die "apt-get is not available to fetch virtme-ng"
	deb=$(apt_download "$VNG_SUITE" virtme-ng "$VNG_DIR") || exit 1
	dpkg-deb -x "$deb" "$VNG_DIR/root" || die "could not unpack $deb"
	dpkg-deb -f "$deb" Version > "$VNG_DIR/version" || die "could not read the version of $deb"
	rm -rf "$deb" "$VNG_DIR/lists" "$VNG_DIR/archives"
	say "virtme-ng $(cat "$VNG_DIR/version") unpacked in $VNG_DIR (vng: $VNG_DIR/root/usr/bin/vng)"
	exit 0
fi
[ $# = 0 ] || { echo "usage: $0 [vng]" >&2; exit 2; }
for p in ${MMSCALE_DEPS:-}; do
	[[ $p =~ ^[a-z0-9][a-z0-9+.-]+$ ]] || die "MMSCALE_DEPS: '$p' is not a Debian package name"
done
stage deps "$LOGS/deps.log"

pkgs=(
	# kernel build
	gcc make flex bison bc libelf-dev libssl-dev cpio xz-utils kmod git ccache rsync
	# kernel packages (make deb: make bindeb-pkg; 7.3's debian/control
	# build-depends on libdw-dev as well)
	dpkg-dev debhelper libdw-dev
	# kselftests (mm, cgroup) built on the host
	libnuma-dev libcap-dev
	# lab: QEMU guest, power-off, parsing, patch checks
	qemu-system-x86 busybox-static python3 perl util-linux e2fsprogs iproute2 coreutils
	# make layout: struct layouts from DWARF (gdb ptype /o)
	gdb
	# benchmarks
	rt-tests stress-ng gnuplot-nox iperf3
	# make jobs' test: the LKP job files read as YAML (tests/jobs.t)
	python3-yaml
	# virtme-ng's dependencies (virtme-ng itself: from sid, see above)
	python3-requests python3-argcomplete kbd util-linux-extra file
	# make mail: b4 prep and b4 send (Debian 12's b4 0.12)
	b4
)
pkgs+=(${MMSCALE_DEPS:-})

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	say "all ${#pkgs[@]} packages present"
	exit 0
fi
APT_GET=${APT_GET:-apt-get}   # tests point this at a missing command
command -v "$APT_GET" >/dev/null 2>&1 ||
	die "apt-get is not available to install: ${missing[*]}"
[ "$(id -u)" = 0 ] || die "installing ${missing[*]} needs root (run as root or install them by hand)"
say "installing ${missing[*]}"
progress "apt-get update" run_logged "$APT_GET" update || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive progress "apt-get install" run_logged "$APT_GET" install -y --no-install-recommends "${missing[@]}" ||
	die "apt-get install failed for: ${missing[*]}"
say "installed ${#missing[@]} package(s)"
