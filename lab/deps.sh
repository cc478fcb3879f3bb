#!/usr/bin/env bash
# lab/deps.sh - stage "deps": install the Debian packages the lab needs.
#
# What it does: checks with dpkg-query which of the packages below are
# missing and, only if some are, runs apt-get update and apt-get install
# for them.  MMSCALE_DEPS (space separated) adds packages.
# What it needs: Debian 12 (or later) and root for apt-get.  Writes
# build/deps.log.
set -euo pipefail
source "$(dirname "$0")/common.sh"
STAGE=deps
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
	# lab: make mail (git format-patch, git send-email --dry-run)
	git-email libmailtools-perl
	# benchmarks
	rt-tests stress-ng gnuplot-nox iperf3
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
run_logged "$APT_GET" update || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive run_logged "$APT_GET" install -y --no-install-recommends "${missing[@]}" ||
	die "apt-get install failed for: ${missing[*]}"
say "installed ${#missing[@]} package(s)"
