#!/usr/bin/env bash
# lab/stages/build.sh - stage "build": configure and build one kernel, its modules
# and the mm + cgroup kselftests, out of tree.
#
# Usage: lab/stages/build.sh [FRAGMENT...] (names from configs/, e.g. "vm debug";
#   none: the default kernel, lab/lib/common.sh's DEFAULT_CONFIGS)
#   KSRC=DIR   kernel tree to build (default build/linux, the patched tree)
#   NAME=NAME  output directory name under build/ (default: fragments joined
#              with '-', e.g. build/vm-debug)
#   START_CONFIG=FILE  start from this config (a distribution's, or
#              /boot/config-*) instead of alldefconfig: it is brought to
#              this tree with olddefconfig, the fragments are merged onto it
#              (merge_config.sh -m) and olddefconfig runs again; only the
#              fragments' values are then checked (make deb KCONFIG=...)
#   LOCALVERSION=-NAME (env)  appended to the kernel release, as kbuild
#              does; it must be the same on every make of a tree
# What it does: merges configs/<fragment>.config onto alldefconfig with the
# kernel's scripts/kconfig/merge_config.sh and fails if any requested value
# did not make it into .config; builds bzImage and modules with
# -j$(nproc) (through ccache when it is installed), installs the modules
# into build/NAME/modroot, and builds and installs the mm and cgroup
# kselftests into build/NAME/kselftest_install.  Builds are reused: running
# it again only rebuilds what changed.  Prints one progress line per step
# and a heartbeat every minute while compiling.  The fragments, KSRC, NAME
# and SKIP_SELFTESTS are checked before anything is written.
# What it needs: gcc, make, flex, bison, bc, libelf-dev, libssl-dev (see
# lab/stages/deps.sh).  Writes build/NAME/ and build/NAME/build.log.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

# no fragment: the one default kernel (lab/lib/common.sh DEFAULT_CONFIGS)
[ $# -ge 1 ] || set -- $DEFAULT_CONFIGS
KSRC=${KSRC:-$TREE}
NAME=${NAME:-$(kernel_name "$@")}
STAGE="build $NAME"
want_fragments "CONFIGS=$*" "$*"
[[ $NAME =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$ ]] ||
	die "NAME=$NAME: a build folder name under build/ is letters, digits, '_', '.', '-' (and '/')"
want_bool SKIP_SELFTESTS
if [ -n "${START_CONFIG:-}" ]; then
	[ -f "$START_CONFIG" ] && [ -r "$START_CONFIG" ] || die "START_CONFIG=$START_CONFIG is not a readable file"
	grep -qE '^CONFIG_[A-Za-z0-9_]+=' "$START_CONFIG" || die "START_CONFIG=$START_CONFIG is not a kernel config (no CONFIG_ line)"
fi
[ -z "${LOCALVERSION:-}" ] || [[ $LOCALVERSION =~ ^[-+.][A-Za-z0-9.+-]*$ ]] ||
	die "LOCALVERSION=$LOCALVERSION: a local version starts with '-', '+' or '.' and holds letters, digits, '.', '+', '-'"
[ -e "$KSRC" ] || die "no kernel tree at $KSRC; run 'make tree' first"
want_kernel_tree KSRC "$KSRC"
frags=()
for f in "$@"; do frags+=("$(fragment_path "$f")"); done
O=$BUILD/$NAME
build_mark
mkdir -p "$O"
stage "build $NAME" "$O/build.log"

jobs=$(nproc)
kmake_init "$KSRC" "$O"
mk=("${KMAKE[@]}")
[ -z "${LOCALVERSION:-}" ] || mk+=(LOCALVERSION="$LOCALVERSION")

# heartbeat: one line a minute while a long step runs
heartbeat() {
	while sleep 60 >/dev/null 2>&1; do
		say "  ... $(grep -c '^  CC ' "$STAGE_LOG" || true) files compiled so far, last: $(grep '^  [A-Z]' "$STAGE_LOG" | tail -n1 | sed 's/^ *//')"
	done
}
step() {
	local what=$1
	shift
	say "$what"
	echo "### $what: $*" >> "$STAGE_LOG"
	heartbeat &
	local hb=$!
	if ! "$@" >> "$STAGE_LOG" 2>&1; then
		kill "$hb" 2>/dev/null; wait "$hb" 2>/dev/null || true
		grep -E 'error:|Error [0-9]|\*\*\*' "$STAGE_LOG" | head -n 8 >&2 || true
		die "$what failed"
	fi
	kill "$hb" 2>/dev/null; wait "$hb" 2>/dev/null || true
}

if [ -z "${START_CONFIG:-}" ]; then
	step "config: merge_config.sh ${*/%/.config}" \
		env -C "$KSRC" scripts/kconfig/merge_config.sh -O "$O" "${frags[@]}"
else
	cp "$START_CONFIG" "$O/.config"
	step "config: $START_CONFIG, olddefconfig" "${mk[@]}" olddefconfig
	step "config: merge_config.sh -m .config ${*/%/.config}" \
		env -C "$KSRC" scripts/kconfig/merge_config.sh -m -O "$O" "$O/.config" "${frags[@]}"
	step "config: olddefconfig" "${mk[@]}" olddefconfig
fi
# Every requested value must be in the final .config: the fragments' values
# (the last one of a symbol wins, as in merge_config.sh) against it, as
# kunit.py's is_subset_of does; a symbol asked off whose dependencies are
# unmet is absent, and that is off too.  One check for every line: it does
# not read merge_config.sh's messages (7.3 rewrote them).
[ -f "$O/.config" ] || die "config: no $O/.config after merge_config.sh"
lost=$(awk 'FNR == NR {
			if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) have[substr($0, 1, RLENGTH - 1)] = substr($0, RLENGTH + 1)
			else if (match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) have[$2] = "n"
			next
		}
		/^CONFIG_[A-Za-z0-9_]+=/ { i = index($0, "="); want[substr($0, 1, i - 1)] = substr($0, i + 1) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "n" }
		END {
			for (s in want) {
				got = (s in have) ? have[s] : "n"
				# an empty string asked of a symbol the config lacks
				if (want[s] == "\"\"" && got == "n") continue
				if (want[s] != got) print s ": wanted \"" want[s] "\", got \"" got "\""
			}
		}' "$O/.config" "${frags[@]}")
if [ -n "$lost" ]; then
	echo "$lost" >&2
	die "some requested config values are not in the final .config (a dependency is missing from configs/)"
fi

step "kernel: bzImage + modules, -j$jobs" "${mk[@]}" bzImage modules
rm -rf "$O/modroot"
step "modules_install into $NAME/modroot" \
	"${mk[@]}" INSTALL_MOD_PATH="$O/modroot" INSTALL_MOD_STRIP=1 modules_install

if [ "${SKIP_SELFTESTS:-0}" != 1 ]; then
	# Linux 6.12.117's selftests/mm/khugepaged.c uses KSFT_SKIP without
	# including kselftest.h (a stable backport), and kselftest-install
	# then silently skips the whole mm directory.  Force-including the
	# (include-guarded) header fixes that build and changes nothing else.
	rm -rf "$O/kselftest_install"
	step "selftests: mm cgroup (kselftest-install)" \
		"${mk[@]}" TARGETS="mm cgroup" INSTALL_PATH="$O/kselftest_install" \
		EXTRA_CFLAGS="-include $KSRC/tools/testing/selftests/kselftest.h" kselftest-install
	for t in mm/run_vmtests.sh cgroup/test_memcontrol; do
		[ -x "$O/kselftest_install/$t" ] || {
			grep -E 'error|Error [0-9]' "$STAGE_LOG" | tail -n 5 >&2
			die "selftests: $t was not built"
		}
	done
fi
say "done: $O/arch/x86/boot/bzImage ($(du -h "$O/arch/x86/boot/bzImage" | cut -f1))"
