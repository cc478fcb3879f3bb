#!/usr/bin/env bash
# lab/stages/source.sh - stage "source": get the line's kernel source (the
# Linux version patches/<line>/line.env names).
#
# What it does: by default takes Debian's package of the line's source
# (LINE_DEB_PKG: from the machine's apt sources, or, with LINE_DEB_SUITE,
# from that suite with a private apt state, installing nothing), extracts
# it into build/<line>/src and records the exact version in src.version.
# With LINUX_SRC=/path it takes that tree instead (a git tree contributes
# its committed HEAD, a plain tree its files); it must be a tree of the
# line's version (LINE_KERNEL_GLOB: VERSION and PATCHLEVEL in its
# Makefile, Kconfig, mm/), checked before anything is written.  src becomes
# a git repository with one commit tagged mmscale/base, so later stages can
# clone it cheaply; it is reused while the origin is unchanged.  When the
# source changed, build/<line>/linux (made from the old one) is deleted,
# but only when it holds no work that is not in patches/ (make export
# --check); FORCE=1 deletes it with that work, and says so.
# What it needs: root for apt-get, tar, xz, git.  Writes build/<line>/src,
# src.version and source.log there.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
STAGE=source
want_bool FORCE
want_linux_src

APT_GET=${APT_GET:-apt-get}   # tests point these two at missing files
DEB_PKG=$LINE_DEB_PKG
# BASE_VERSION: build against another version of the line's package than
# the one the series was tested on (Debian serves only a suite's newest)
[ -z "${BASE_VERSION:-}" ] || [[ $BASE_VERSION =~ ^[0-9][A-Za-z0-9.+~:-]*$ ]] ||
	die "BASE_VERSION=$BASE_VERSION is not a Debian package version (e.g. $LINE_DEB_VERSION)"
want_ver=${BASE_VERSION:-$LINE_DEB_VERSION}
if [ -n "$LINE_DEB_SUITE" ]; then
	# another suite's package: fetched with a private apt state, never
	# installed (nothing of the machine's packages changes)
	APT_DIR=$BUILD/apt
	DEB_TARBALL=${DEB_TARBALL:-$APT_DIR/root/usr/src/$DEB_PKG.tar.xz}
else
	DEB_TARBALL=${DEB_TARBALL:-/usr/src/$DEB_PKG.tar.xz}
fi
no_apt="apt-get is not available to install $DEB_PKG; install it by hand or set LINUX_SRC=/path/to/linux-${LINE_KERNEL_GLOB%.\*}.y"

# fetch_private: download DEB_PKG from LINE_DEB_SUITE into APT_DIR
# (apt_download: a private apt state, nothing installed) and unpack it
# into APT_DIR/root; prints nothing, sets pkgver
fetch_private() {
	local deb
	deb=$(apt_download "$LINE_DEB_SUITE" "$DEB_PKG" "$APT_DIR" "$want_ver") || exit 1
	if [ "${deb#served:}" != "$deb" ]; then
		pkgver=${deb#served:}   # refused below; nothing was downloaded
		return 0
	fi
	pkgver=$(dpkg-deb -f "$deb" Version)
	if [ "$pkgver" != "$want_ver" ]; then
		rm -f "$deb"   # refused below, before anything is unpacked
		return 0
	fi
	dpkg-deb -x "$deb" "$APT_DIR/root" || die "could not unpack $deb"
	rm -f "$deb"
	echo "$pkgver" > "$APT_DIR/version"
}

if [ -n "${LINUX_SRC:-}" ]; then
	LINUX_SRC=$(cd "$LINUX_SRC" && pwd)
	if git -C "$LINUX_SRC" rev-parse --verify -q HEAD >/dev/null 2>&1 &&
	   [ "$(git -C "$LINUX_SRC" rev-parse --show-toplevel)" = "$LINUX_SRC" ]; then
		origin="git:$LINUX_SRC@$(git -C "$LINUX_SRC" rev-parse HEAD)"
	else
		origin="dir:$LINUX_SRC@$(stat -c %Y "$LINUX_SRC/Makefile")"
	fi
	ver=$(kernel_version "$LINUX_SRC")
else
	pkgver=
	if [ ! -f "$DEB_TARBALL" ]; then
		stage source "$LOGS/source.log"
		command -v "$APT_GET" >/dev/null 2>&1 || die "$no_apt"
		if [ -n "$LINE_DEB_SUITE" ]; then
			fetch_private
		else
			# the tested version, by name: the archive's newest may be
			# a later point release (bookworm-security keeps the
			# earlier ones), which the series was not checked on
			say "installing $DEB_PKG=$want_ver with apt-get"
			progress "apt-get update" run_logged "$APT_GET" update ||
				die "apt-get update failed"
			DEBIAN_FRONTEND=noninteractive progress "apt-get install $DEB_PKG" run_logged "$APT_GET" install -y --no-install-recommends "$DEB_PKG=$want_ver" ||
				die "apt-get install $DEB_PKG=$want_ver failed (is it still served? apt-cache policy $DEB_PKG lists what is); BASE_VERSION=<a served version> builds against another one (then re-check the series: make topics, make check)"
		fi
	fi
	if [ -z "$pkgver" ]; then
		if [ -n "$LINE_DEB_SUITE" ]; then
			pkgver=$(cat "$APT_DIR/version" 2>/dev/null || echo unknown)
		else
			pkgver=$(dpkg-query -W -f='${Version}' "$DEB_PKG" 2>/dev/null || echo unknown)
		fi
	fi
	# never a base nobody tested, without saying so
	if [ "$pkgver" != "$want_ver" ] && [ -n "${BASE_VERSION:-}" ]; then
		die "BASE_VERSION=$BASE_VERSION is not what Debian serves: $DEB_PKG is $pkgver (the $LINE_TITLE line was tested on $LINE_DEB_VERSION); BASE_VERSION=$pkgver builds against that one"
	fi
	[ "$pkgver" = "$want_ver" ] ||
		die "$DEB_PKG is $pkgver, but the $LINE_TITLE line was tested on $want_ver; to build against $pkgver, BASE_VERSION=$pkgver (then re-check the series: make topics, make check)"
	[ -f "$DEB_TARBALL" ] || die "$DEB_PKG is installed but $DEB_TARBALL is missing"
	origin="deb:$DEB_PKG=$pkgver (baseline format 2)"
	ver=""   # read from the extracted Makefile below
fi

if [ -d "$SRC_DIR/.git" ] && [ "$(cat "$BUILD/src.origin" 2>/dev/null)" = "$origin" ]; then
	say "reusing $SRC_DIR ($(cat "$BUILD/src.version"))"
	exit 0
fi

# build/linux was made from the old source: it goes, but not with work
# that is not in patches/ (unless FORCE=1, which says what it deletes)
if [ -d "$TREE" ]; then
	UNEXPORTED=$("$LAB_DIR/stages/export.sh" --check | sed -n 's/^unexported=//p') ||
		die "could not check $TREE for work that is not in patches/"
	if [ -n "$UNEXPORTED" ] && [ "${FORCE:-0}" != 1 ]; then
		die "the source changed ($origin), and $TREE, made from the old one, holds work that is not in patches/: $UNEXPORTED. Run 'make export' first; 'FORCE=1 make source' deletes that work with $TREE"
	fi
fi
[ "$STAGE_LOG" = "$LOGS/source.log" ] || stage source "$LOGS/source.log"
if [ -d "$TREE" ]; then
	if [ -n "$UNEXPORTED" ]; then
		say "FORCE=1: deleting $TREE and the work in it that is not in patches/ ($UNEXPORTED)"
	else
		say "removing $TREE (made from the old source; all its commits are in patches/)"
	fi
	progress "deleting $TREE" rm -rf "$TREE"
fi

tmp=$BUILD/src.new
rm -rf "$tmp" "$SRC_DIR" "$BUILD/src.origin" "$BUILD/src.version"
mkdir -p "$tmp"
if [ -n "${LINUX_SRC:-}" ]; then
	say "copying $LINUX_SRC"
	case "$origin" in
	git:*) git -C "$LINUX_SRC" archive --format=tar HEAD | tar -x -C "$tmp" ;;
	*) tar -C "$LINUX_SRC" --exclude=.git -cf - . | tar -x -C "$tmp" ;;
	esac
else
	say "extracting $DEB_TARBALL ($origin)"
	progress "extracting" tar -xJf "$DEB_TARBALL" -C "$tmp" --strip-components=1 ||
		die "could not extract $DEB_TARBALL"
	ver=$(kernel_version "$tmp")
	# shellcheck disable=SC2254
	case "$ver" in
	$LINE_KERNEL_GLOB) ;;
	*) die "$DEB_PKG $pkgver contains Linux $ver; the series is for Linux ${LINE_KERNEL_GLOB%.\*}.y" ;;
	esac
fi

# Debian's linux-source ends .gitignore with a packaging rule ("/*" then
# "!/debian/") that ignores every top-level path, so new files in the work
# tree would not show in git status.  Drop that block from the baseline:
# no patch touches .gitignore, so the series applies to pristine trees too.
if grep -q '^# Debian packaging: ignore everything at the top level' "$tmp/.gitignore" 2>/dev/null; then
	sed -i '/^# Debian packaging: ignore everything at the top level/,$d' "$tmp/.gitignore"
	sed -i '${/^#$/d}' "$tmp/.gitignore"
	say "dropped Debian's top-level ignore rule from .gitignore"
fi

say "recording Linux $ver as the baseline commit (tag $BASE_TAG)"
baseline_commit() (
	cd "$tmp"
	export GIT_AUTHOR_NAME=mmscale GIT_AUTHOR_EMAIL=mmscale@localhost
	export GIT_COMMITTER_NAME=mmscale GIT_COMMITTER_EMAIL=mmscale@localhost
	export GIT_AUTHOR_DATE="2024-11-17T00:00:00Z" GIT_COMMITTER_DATE="2024-11-17T00:00:00Z"
	git init -q -b base .
	# no automatic gc, ever: the commit below leaves some 90000 loose
	# objects, and the gc --auto it would start runs on in the background,
	# repacking them while lab/stages/objdiff.sh and make bench MATRIX=slub
	# hard-link this tree (cp -al failed on a vanished objects/NN folder)
	# and while the trees cloned --shared from it read them
	git config gc.auto 0
	git add -A -f .
	git commit -q -m "Linux $ver (mmscale baseline, $origin)"
	git tag "$BASE_TAG"
) >> "$STAGE_LOG" 2>&1
progress "git add and commit of the tree" baseline_commit ||
	die "could not create the baseline git repository"

mv "$tmp" "$SRC_DIR"
echo "$origin" > "$BUILD/src.origin"
echo "$ver" > "$BUILD/src.version"
say "Linux $ver ready in $SRC_DIR"
