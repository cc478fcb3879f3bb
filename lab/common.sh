# lab/common.sh - helpers sourced by every lab script.
#
# What it does: stage-aware logging (one progress line per step with the
# elapsed time), a die() that names the stage and the log file, and the
# paths every stage agrees on.
# What it needs: bash 4, coreutils.  It writes nothing by itself.

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$LAB_DIR/.." && pwd)
BUILD=${BUILD:-$TOP/build}
PATCHES=${PATCHES:-$TOP/patches}
SRC_DIR=$BUILD/src            # pristine kernel source, git repo, tag mmscale/base
TREE=${TREE:-$BUILD/linux}    # work tree: baseline + one commit per patch
BASE_TAG=mmscale/base
STAGE=${STAGE:-lab}
STAGE_LOG=${STAGE_LOG:-}
_stage_t0=$(date +%s)

# say MSG: one progress line, prefixed with the stage and elapsed seconds.
say() {
	printf '[%s +%ss] %s\n' "$STAGE" "$(( $(date +%s) - _stage_t0 ))" "$*" >&2
}

# die MSG: one clear error line naming the stage and its log, then exit 1.
die() {
	if [ -n "$STAGE_LOG" ]; then
		printf 'ERROR: stage %s: %s (log: %s)\n' "$STAGE" "$*" "$STAGE_LOG" >&2
	else
		printf 'ERROR: stage %s: %s\n' "$STAGE" "$*" >&2
	fi
	exit 1
}

# stage NAME LOGFILE: start a stage; later say/die lines carry its name.
stage() {
	STAGE=$1
	STAGE_LOG=${2:-}
	_stage_t0=$(date +%s)
	if [ -n "$STAGE_LOG" ]; then
		mkdir -p "$(dirname "$STAGE_LOG")"
		: > "$STAGE_LOG"
	fi
}

# run_logged CMD...: run a command with all output appended to $STAGE_LOG.
run_logged() {
	"$@" >> "$STAGE_LOG" 2>&1
}

# kernel_version DIR: print VERSION.PATCHLEVEL.SUBLEVEL from a tree's Makefile.
kernel_version() {
	awk -F' *= *' '
		$1 == "VERSION" { v = $2 }
		$1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 }
		END { if (v != "" && p != "") printf "%s.%s.%s\n", v, p, s }
	' "$1/Makefile" 2>/dev/null
}

# kmake_init SRC OBJ: set the array KMAKE to the make command that builds
# the kernel tree SRC into OBJ: -j$(nproc), a fixed build user and host,
# and ccache when it is installed, with CCACHE_BASEDIR=$TOP so that trees
# at the same depth under $TOP share cached objects.
kmake_init() {
	KMAKE=(make -C "$1" O="$2" -j"$(nproc)" KBUILD_BUILD_USER=mmscale KBUILD_BUILD_HOST=lab)
	if command -v ccache >/dev/null 2>&1; then
		KMAKE+=(CC="ccache gcc")
		export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
	fi
}

# build_workloads DIR: compile bench/*.c into DIR (the guest runs them over
# the 9p root; HOST=1 runs them here).
build_workloads() {
	local w
	mkdir -p "$1"
	for w in page_fault shm_pread sigqueue; do
		gcc -O2 -Wall -pthread -o "$1/$w" "$TOP/bench/$w.c" || return 1
	done
}

# Topics.  patches/series lists the topic folders in the lab's order (one
# name a line); patches/<topic>/series lists that topic's patch files.  Each
# topic applies alone to the baseline; the lab's tree is all of them, in
# that order.  build/linux keeps each commit's topic in a git note
# ("topic: NAME"; git notes show --ref=mmscale-topic).
NOTES_REF=refs/notes/mmscale-topic

# series_lines FILE: the non-empty, non-comment lines of a series file.
series_lines() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# valid_topic NAME: a topic name is lower case letters, digits and dashes.
valid_topic() {
	[[ $1 =~ ^[a-z][a-z0-9-]*$ ]]
}

# read_topics [PATCHES]: set the array TOPICS from PATCHES/series; die on a
# bad name or a topic without its folder and series.
read_topics() {
	local p=${1:-$PATCHES} t
	[ -f "$p/series" ] || die "$p/series is missing"
	mapfile -t TOPICS < <(series_lines "$p/series")
	[ ${#TOPICS[@]} -gt 0 ] || die "$p/series names no topic"
	for t in "${TOPICS[@]}"; do
		valid_topic "$t" || die "$p/series: '$t' is not a topic name (lower case, digits, dashes)"
		[ -f "$p/$t/series" ] || die "$p/series names topic $t, but $p/$t/series does not exist"
	done
}

# topic_of_commits TREE: print "SHA TOPIC" for each commit after the baseline,
# oldest first.  A commit without a topic note belongs to the topic of the
# commit before it (so a new commit or a fixup lands in the topic it follows).
topic_of_commits() {
	local c t cur=
	for c in $(git -C "$1" rev-list --reverse "$BASE_TAG..HEAD"); do
		t=$(git -C "$1" notes --ref="$NOTES_REF" show "$c" 2>/dev/null |
			sed -n 's/^topic: *//p' | head -n1)
		[ -n "$t" ] || t=$cur
		[ -n "$t" ] || die "commit $(git -C "$1" log -1 --format='%h (%s)' "$c") has no topic; git notes --ref=$NOTES_REF add -m 'topic: NAME' ${c:0:12}"
		cur=$t
		echo "$c $t"
	done
}
