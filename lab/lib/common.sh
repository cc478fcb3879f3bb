# lab/lib/common.sh - helpers sourced by every lab script.
#
# What it does: stage-aware logging (one progress line per step with the
# elapsed time), a die() that names the stage and the log file, the paths
# every stage agrees on, the checks of the settings (knobs) that every
# target runs before any long work (want_*), unique result folders
# (new_dir).
# What it needs: bash 4, coreutils, git.  It writes nothing by itself.

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOP=$(cd "$LAB_DIR/.." && pwd)
# The line: the base kernel the series is for, and that line's folder of
# patches/ (patches/<line>/: line.env, BASE, series, one folder a topic).
# BASE picks it for every target; each line builds in its own folder.  The
# default is the mainline line, what linux-mm reviews; make check boots it
# and checks the other lines without a boot (lab/stages/run.sh, lab/stages/linecheck.sh).
# The lines are the folders of patches/ that hold a line.env.
LINES=$(for f in "$TOP"/patches/*/line.env; do basename "$(dirname "$f")"; done | sort -V | xargs)
DEFAULT_BASE=7.3
BASE=${BASE:-$DEFAULT_BASE}
if ! [[ " $LINES " == *" $BASE "* ]] || [ ! -f "$TOP/patches/$BASE/line.env" ]; then
	printf "ERROR: BASE=%s is not a line of the series (the lines: %s; default %s)\n" "$BASE" "$LINES" "$DEFAULT_BASE" >&2
	exit 2
fi
# shellcheck source=/dev/null
source "$TOP/patches/$BASE/line.env"
# BASE_VERSION names another Debian version of the line's own kernel: its
# upstream part (no epoch, no Debian revision) must be one the line is for,
# checked here so that no stage downloads anything for a wrong one
if [ -n "${BASE_VERSION:-}" ]; then
	_bv=${BASE_VERSION#*:}
	# shellcheck disable=SC2254
	case ${_bv%%-*} in
	$LINE_KERNEL_GLOB) ;;
	*)
		printf "ERROR: BASE_VERSION=%s is not a version of %s: the %s line is for Linux %s (tested on %s)\n" \
			"$BASE_VERSION" "$LINE_DEB_PKG" "$BASE" "$LINE_KERNEL_GLOB" "$LINE_DEB_VERSION" >&2
		exit 2 ;;
	esac
fi
BUILD=${BUILD:-$TOP/build/$BASE}
PATCHES=${PATCHES:-$TOP/patches/$BASE}
PDIR=${PATCHES#"$TOP"/}       # how messages name it (patches/6.12 by default)
SRC_DIR=$BUILD/src            # pristine kernel source, git repo, tag mmscale/base
TREE=${TREE:-$BUILD/linux}    # work tree: baseline + one commit per patch
LOGS=${LOGS:-$BUILD}          # stage logs (the lab's tests point it at a scratch folder)
# The marker lab/stages/clean.sh looks for: only a folder the lab made is deleted.
BUILD_MARKER=.mmscale-build
# The one default kernel: make check's (lab/stages/run.sh), and the default of make
# build, shell and bisect, so that "make build && make shell" boots the
# kernel just built.  Fragments of configs/, in merge order.  (make kunit
# builds what each suite's .kunitconfig asks, and make deb a packaged
# kernel from vm or a distribution's config: neither boots this one.)
DEFAULT_CONFIGS="vm debug mmscale"
BASE_TAG=mmscale/base
STAGE=${STAGE:-lab}
STAGE_LOG=${STAGE_LOG:-}
_stage_t0=$(date +%s)

# say MSG: one progress line, prefixed with the stage and elapsed seconds.
say() {
	printf '[%s +%ss] %s\n' "$STAGE" "$(( $(date +%s) - _stage_t0 ))" "$*" >&2
}

# kernel_report_patterns: the extended regexes of a kernel report on a
# console, one a line (lab/lib/kernel-reports, which every parser reads):
# for grep -E -f
kernel_report_patterns() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$LAB_DIR/lib/kernel-reports"
}

# a stage's verdicts: TAP lines and its result file (tap_result, tap_end)
# shellcheck source=/dev/null
source "$LAB_DIR/lib/tap.sh"

# json_fields FILE KEY...: the values of top-level KEYs of the JSON object
# in FILE, space separated, in order (a stage's result file: report.py's
# result.json, boot.sh's *.boot.json); nothing and status 1 if FILE cannot
# be read or lacks a KEY
json_fields() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(str(d[k]) for k in sys.argv[2:]))' "$@" 2>/dev/null
}

# timed NAME CMD...: run one stage of a target and remember how long it
# took (print_times); a stage that fails ends the target with its status,
# after the times so far
times=()
t_all=$(date +%s)
timed() {
	local what=$1 t0 rc=0
	shift
	t0=$(date +%s)
	"$@" || rc=$?
	times+=("$(printf '%-28s %5ds' "$what" $(($(date +%s) - t0)))")
	if [ "$rc" != 0 ]; then
		print_times
		exit "$rc"
	fi
}
print_times() {
	[ ${#times[@]} -gt 0 ] || return 0
	echo "== stage times =="
	printf '  %s\n' "${times[@]}"
	printf '  %-28s %5ds\n' total $(($(date +%s) - t_all))
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
		case $STAGE_LOG in "$BUILD"/*) build_mark ;; esac
		mkdir -p "$(dirname "$STAGE_LOG")"
		: > "$STAGE_LOG"
	fi
}

# build_mark: make BUILD if it is missing and, when the lab made it or it is
# empty, write the marker that lets make clean delete it (lab/stages/clean.sh).
build_mark() {
	if [ ! -e "$BUILD" ] || { [ -d "$BUILD" ] && [ -z "$(ls -A "$BUILD")" ]; }; then
		mkdir -p "$BUILD" &&
			echo "made by the mmscale lab ($TOP); make clean may delete this folder" > "$BUILD/$BUILD_MARKER"
	fi
}

# progress MSG CMD...: run CMD (a command or a function, in this shell) and
# say "MSG: still running" every MMSCALE_PROGRESS_EVERY seconds (20) while
# it runs, so that no stage is silent for 30 s; returns CMD's status.  The
# ticker stops with CMD, or with the script should CMD end it.
progress() {
	local msg=$1 tick rc=0 every=${MMSCALE_PROGRESS_EVERY:-20} me=$$
	shift
	(
		trap - EXIT
		while sleep "$every" && kill -0 "$me" 2>/dev/null; do
			say "$msg: still running"
		done
	) &
	tick=$!
	"$@" || rc=$?
	kill "$tick" 2>/dev/null
	wait "$tick" 2>/dev/null || true
	return "$rc"
}

# run_logged CMD...: run a command with all output appended to $STAGE_LOG.
run_logged() {
	"$@" >> "$STAGE_LOG" 2>&1
}

# apt_download SUITE PKG DIR [VERSION]: download the newest PKG of Debian's
# SUITE into DIR/dl with a private apt state (DIR/sources.list, DIR/lists;
# apt-get download: nothing is installed, nothing of the machine's packages
# changes) and print the .deb's path.  With VERSION, when the suite serves
# another one, print "served:<that version>" and download nothing.  DIR is
# emptied first.  Logs to STAGE_LOG; dies with one line when apt fails.  APT_GET may name another
# apt-get (the lab's tests).
apt_download() {
	local suite=$1 pkg=$2 d=$3 want=${4:-} deb served
	local o=(-o "Dir::Etc::SourceList=$d/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o "Dir::State::Lists=$d/lists" -o "Dir::Cache::Archives=$d/archives"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
	rm -rf "$d"
	mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/dl"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" > "$d/sources.list"
	say "fetching $pkg from $suite (private apt state in $d; nothing is installed)"
	progress "apt-get update of $suite" run_logged "${APT_GET:-apt-get}" "${o[@]}" update ||
		die "apt-get update of $suite failed"
	if [ -n "$want" ]; then
		# the version the suite serves, read from the lists before the
		# download: a wrong one costs no package download
		served=$("${APT_CACHE:-apt-cache}" "${o[@]}" show --no-all-versions "$pkg" 2>> "$STAGE_LOG" |
			sed -n 's/^Version: //p' | head -n1)
		[ -n "$served" ] || die "$suite serves no $pkg"
		[ "$served" = "$want" ] || { echo "served:$served"; return 0; }
	fi
	progress "apt-get download $pkg" run_logged bash -c 'cd "$1" && shift && exec "$@"' _ "$d/dl" \
		"${APT_GET:-apt-get}" "${o[@]}" download "$pkg" ||
		die "apt-get download $pkg from $suite failed"
	deb=$(ls "$d"/dl/"$pkg"_*.deb 2>/dev/null | head -n1)
	[ -n "$deb" ] || die "apt-get download left no $pkg .deb in $d/dl"
	echo "$deb"
}

# virtme-ng (vng), the kernel engineers' tool that boots make shell's
# guest: Debian ships it only in sid (arch all, pure Python), so make deps
# fetches it with apt_download and unpacks it under VNG_DIR, never
# installing it; its dependencies are Debian 12's (lab/stages/deps.sh).
VNG_SUITE=sid
VNG_DIR=$BUILD/vng

# vng_ready: put the unpacked virtme-ng on PATH and PYTHONPATH, or die with
# one line that says how to get it
vng_ready() {
	local r=$VNG_DIR/root
	[ -x "$r/usr/bin/vng" ] && [ -d "$r/usr/lib/python3/dist-packages/virtme_ng" ] ||
		die "virtme-ng is missing ($VNG_DIR); run make deps, which fetches it from Debian $VNG_SUITE"
	export PATH="$r/usr/bin:$PATH" PYTHONPATH="$r/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
}

# base_tree_ready: check out the pristine base ($BASE_TAG) at build/base/linux
# and print its path.  Base kernels build into build/base/<name>, so that
# their paths relative to the build directory ("../linux/mm/...") are the
# head's: ccache (CCACHE_BASEDIR) then reuses every object the series does
# not change, and the second kernel costs minutes, not a build.
base_tree_ready() {
	local t=$BUILD/base/linux
	if [ ! -d "$t/.git" ]; then
		say "base tree: git clone --shared $SRC_DIR $t"
		git clone -q --no-checkout --shared "$SRC_DIR" "$t" || die "git clone of $SRC_DIR failed"
	fi
	git -C "$t" fetch -q --force "$SRC_DIR" "refs/tags/$BASE_TAG:refs/tags/$BASE_TAG" &&
		git -C "$t" checkout -q -f "$BASE_TAG" || die "could not check out $BASE_TAG in $t"
	echo "$t"
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

# build_workloads DIR: compile each workload's C files
# (bench/programs/*/*.c, with bench/ for the shared sampler.h) into DIR, a
# program per file named after it (the guest runs them over the 9p root;
# HOST=1 runs them here).  Two files of one name are refused.
build_workloads() {
	local src name
	local -A seen=()
	mkdir -p "$1"
	for src in "$TOP"/bench/programs/*/*.c; do
		[ -f "$src" ] || continue
		name=$(basename "$src" .c)
		if [ -n "${seen[$name]:-}" ]; then
			echo "ERROR: ${src#"$TOP/"} and ${seen[$name]#"$TOP/"} would both build $name" >&2
			return 1
		fi
		seen[$name]=$src
		gcc -O2 -Wall -pthread -I "$TOP/bench" -o "$1/$name" "$src" || return 1
	done
}

# Topics.  patches/<line>/series lists the topic folders in the lab's order
# (one name a line); patches/<line>/<topic>/series lists that topic's patch
# files.  Each topic applies alone to the baseline; the lab's tree is all of
# them, in that order.  build/<line>/linux keeps each commit's topic in a
# git note ("topic: NAME"; git notes show --ref=mmscale-topic).
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
	# a line with no topic yet (make tree gives the pristine base) sets
	# ALLOW_NO_TOPIC=1; every other stage needs a topic
	[ ${#TOPICS[@]} -gt 0 ] || [ "${ALLOW_NO_TOPIC:-0}" = 1 ] || die "$p/series names no topic"
	for t in "${TOPICS[@]}"; do
		valid_topic "$t" || die "$p/series: '$t' is not a topic name (lower case, digits, dashes)"
		[ -f "$p/$t/series" ] || die "$p/series names topic $t, but $p/$t/series does not exist"
	done
}

# patch_count [PATCHES]: print how many patches the series files name.
patch_count() {
	local p=${1:-$PATCHES} t n=0
	read_topics "$p"
	for t in "${TOPICS[@]}"; do
		n=$((n + $(series_lines "$p/$t/series" | wc -l)))
	done
	echo "$n"
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

# --- checking settings ------------------------------------------------------
# Each target checks its settings (environment or make variables) before it
# does anything long or writes anything, with these.  A bad value ends it
# with one line that names the setting, the value and what it takes.

# in_range VALUE MIN MAX: VALUE is a plain decimal whole number in MIN..MAX.
in_range() {
	[[ $1 =~ ^(0|[1-9][0-9]{0,9})$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# want_number NAME MIN MAX: the variable NAME, when set, is in MIN..MAX.
want_number() {
	local v=${!1:-}
	[ -z "$v" ] || in_range "$v" "$2" "$3" || die "$1 must be a whole number from $2 to $3, not '$v'"
}

# want_choice NAME CHOICE...: the variable NAME, when set, is one of CHOICEs.
want_choice() {
	local name=$1 v=${!1:-} c
	shift
	[ -n "$v" ] || return 0
	for c; do [ "$v" = "$c" ] && return 0; done
	local list
	list=$(printf "'%s', " "$@" | sed -e 's/, $//' -e 's/\(.*\), /\1 or /')
	die "$name must be $list, not '$v'"
}

# want_bool NAME...: each variable, when set, is 0 or 1 (nothing else means
# yes: HOST=yes must not start the QEMU benchmark).
want_bool() {
	local n
	for n; do want_choice "$n" 0 1; done
}

# no_empty_items WHAT LIST: a comma separated LIST has no empty item (",,",
# or a comma at either end: a typo that would silently drop an item).
no_empty_items() {
	case $2 in
	,* | *,,* | *,) die "$1: an empty item in '$2' (two commas, or a comma at an end)" ;;
	esac
}

# fragment_path NAME: the config fragment NAME of this line: the line's own
# configs/<line>/NAME.config where it has one (a fragment that sets only
# one line's options lives there: the series' options differ between the
# lines), else configs/NAME.config.
# NAME "off" is every bool option of the line's series off (LINE_OPTIONS of
# patches/<line>/line.env; some are on by default; an int option such as
# 6.12's MEMCG_NR_STOCK keeps its default, the base's behaviour), written to
# build/<line>/options-off.config.
fragment_path() {
	if [ "$1" = off ]; then
		local o
		mkdir -p "$BUILD"
		{
			echo "# every bool option of the $BASE series off (LINE_OPTIONS, patches/$BASE/line.env)"
			for o in $LINE_OPTIONS; do
				grep -rhs --include='Kconfig*' -A1 "^config $o\$" "$TREE/init" "$TREE/mm" "$TREE/lib" |
					grep -q '^[[:space:]]*int' || echo "# CONFIG_$o is not set"
			done
		} > "$BUILD/options-off.config"
		echo "$BUILD/options-off.config"
	elif [ -f "$TOP/configs/$BASE/$1.config" ]; then
		echo "$TOP/configs/$BASE/$1.config"
	else
		echo "$TOP/configs/$1.config"
	fi
}

# want_fragments WHAT LIST: every word of LIST (blanks or commas) names a
# file configs/WORD.config, or is "off" (fragment_path), and there is at
# least one.
want_fragments() {
	local f n=0 known k
	no_empty_items "$1" "$2"
	for f in ${2//,/ }; do
		if [ "$f" != off ] && { ! [[ $f =~ ^[A-Za-z0-9_-]+$ ]] ||
			{ [ ! -f "$TOP/configs/$f.config" ] && [ ! -f "$TOP/configs/$BASE/$f.config" ]; }; }; then
			known=$(for k in "$TOP"/configs/*.config "$TOP/configs/$BASE"/*.config; do
				[ ! -f "$k" ] || basename "$k" .config; done | sort -u | tr '\n' ' ')
			known+="off"
			die "$1: no configs/$f.config or configs/$BASE/$f.config (the fragments are: ${known% })"
		fi
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "$1 names no config fragment"
}

# want_kernel_tree WHAT DIR: DIR is a Linux source tree: a Makefile with
# VERSION and PATCHLEVEL, a top-level Kconfig and mm/.
want_kernel_tree() {
	[ -d "$2" ] || die "$1: $2 is not a directory"
	[[ $(kernel_version "$2") =~ ^[0-9]+\.[0-9]+\. ]] && [ -f "$2/Kconfig" ] && [ -d "$2/mm" ] ||
		die "$1: $2 is not a Linux source tree (no VERSION and PATCHLEVEL in its Makefile, or no Kconfig or mm/)"
}

# want_linux_src: LINUX_SRC, when set, is a source tree of the line's
# kernel (6.12.y for BASE=6.12).
want_linux_src() {
	local ver
	[ -n "${LINUX_SRC:-}" ] || return 0
	want_kernel_tree "LINUX_SRC=$LINUX_SRC" "$LINUX_SRC"
	ver=$(kernel_version "$LINUX_SRC")
	# shellcheck disable=SC2254
	case $ver in
	$LINE_KERNEL_GLOB) ;;
	*) die "LINUX_SRC is Linux $ver; the series is for Linux ${LINE_KERNEL_GLOB%.\*}.y" ;;
	esac
}

# want_vcpus: VCPUS (lab/stages/ab.sh) is 1, or even (split over 2 NUMA nodes).
want_vcpus() {
	local v=${VCPUS:-2}
	in_range "$v" 1 98 || die "VCPUS must be 1 or an even number up to 98, not '$v'"
	[ "$v" = 1 ] || [ $((v % 2)) = 0 ] || die "VCPUS must be 1 or even (2 NUMA nodes), not '$v'"
}

# want_boot_settings [ACCEL...]: BOOT_TIMEOUT (seconds), ACCEL and
# ACCEL_PROBE, for every target that boots a kernel; ACCEL... are the
# accelerators it takes besides auto, kvm and tcg (make bench: mttcg).
want_boot_settings() {
	want_number BOOT_TIMEOUT 1 86400
	want_choice ACCEL auto kvm tcg "$@"
	want_bool ACCEL_PROBE
}

# The benchmark workloads are the folders of bench/programs/, their items
# and bounds in each folder's meta, the matrices the files of bench/jobs/:
# bench/lib.sh reads them (bench_item_error, bench_items, job_items).
# shellcheck source=../../bench/lib.sh
source "$TOP/bench/lib.sh"

# want_programs: every folder of bench/programs/ is a workload (a meta file
# that reads, a run script), or the stage ends in one line naming it.
want_programs() {
	programs_load || die "$PROGRAMS_ERROR"
}

# want_job NAME [NAME=VALUE...]: the items of bench/jobs/NAME (bench/lib.sh
# job_items) into the array JOB_ITEMS, or the stage ends in one line.
want_job() {
	local f=$TOP/bench/jobs/$1
	shift
	[ -f "$f" ] || die "no job file bench/jobs/${f##*/}"
	JOB_ITEMS=()
	job_items "$f" "$@" || die "$PROGRAMS_ERROR"
}

# want_sides NAME: the kernels of bench/jobs/NAME (bench/lib.sh job_sides),
# each side's fragments checked as CONFIGS are, or the stage ends in one line
want_sides() {
	local s
	job_sides "$TOP/bench/jobs/$1" || die "$PROGRAMS_ERROR"
	for s in "${SIDE_NAMES[@]}"; do
		want_fragments "bench/jobs/$1 side $s" "${SIDE_FRAGS[$s]}"
	done
}

# host_matrix CPUS FULL MEM_MIB: make bench HOST=1's items, sized from the
# machine as LKP sizes its jobs (task counts as a share of the CPUs):
#   page_fault1/2/3 and shm-pread-seq-mt: 100% of the CPUs (FULL=1: every
#     mode, and 200% too), fewer when their 128 MiB each would pass half of
#     MEM_MIB;
#   memcg-parallel-fault: one cgroup and task per CPU (100%) and two (200%),
#     fewer when their 64 MiB each would pass half of MEM_MIB (MemAvailable);
#   hackbench and hackbench-cgroup: groups of 20 tasks (10 fds) for 100% and
#     800% of the CPUs (FULL=1: thread mode and sockets too);
#   vmalloc: nr_threads = CPUs (bench/workloads.sh) at the default set's
#     thresholds (FULL=1: the sweep).
# The hackbench and test_vmalloc loop counts are sized at run time
# (bench/workloads.sh, loops=auto).  Prints one item a line, no duplicate.
host_matrix() {
	local n=$1 full=${2:-0} mem=${3:-0} p t g k m i items=()
	local pcts=100
	[ "$full" = 1 ] && pcts="100 200"
	for p in $pcts; do
		t=$((n * p / 100))
		[ "$t" -le 8192 ] || t=8192
		# each page_fault task maps 128 MiB (a tmpfs file for 2 and 3)
		[ "$mem" -le 0 ] || [ $((t * 128)) -le $((mem / 2)) ] || t=$((mem / 2 / 128))
		[ "$t" -ge 1 ] || t=1
		if [ "$full" = 1 ]; then
			for k in 1 2 3; do for m in threads processes; do items+=("page_fault$k:$m:$t"); done; done
			items+=("shm-pread-seq-mt:$t")
		else
			items+=("page_fault1:processes:$t" "page_fault2:threads:$t" "page_fault3:threads:$t"
				"shm-pread-seq-mt:$t")
		fi
	done
	for k in "$n" $((2 * n)); do
		[ "$mem" -le 0 ] || [ $((k * 64)) -le $((mem / 2)) ] || k=$((mem / 2 / 64))
		[ "$k" -ge 1 ] || k=1
		[ "$k" -le 1024 ] || k=1024
		items+=("memcg-parallel-fault:$k")
	done
	# upstream's multi-memcg stock workloads: the madvise fault loop (16
	# MiB a cgroup) and one iperf3 pair per cgroup, at upstream's K values
	# (FULL=1) and at one cgroup per CPU and one pair per two CPUs
	if [ "$full" = 1 ]; then
		for k in 1 4 32; do items+=("memcg-madvise-fault:$k"); done
		for k in 1 2 4 6 8 12 16; do items+=("iperf3-cgroup:$k"); done
	fi
	k=$n
	[ "$mem" -le 0 ] || [ $((k * 16)) -le $((mem / 2)) ] || k=$((mem / 2 / 16))
	[ "$k" -ge 1 ] || k=1
	[ "$k" -le 1024 ] || k=1024
	items+=("memcg-madvise-fault:$k")
	k=$((n / 2))
	[ "$k" -ge 1 ] || k=1
	[ "$k" -le 1024 ] || k=1024
	items+=("iperf3-cgroup:$k")
	for m in process thread; do for i in pipe socket; do
		[ "$full" = 1 ] || [ "$m:$i" = process:pipe ] || continue
		for p in 100 800; do
			g=$(((n * p / 100 + 19) / 20))
			[ "$g" -le 1024 ] || g=1024
			items+=("hackbench:$m:$i:$g" "hackbench-cgroup:$m:$i:$g")
		done
	done; done
	if [ "$full" = 1 ]; then
		for p in ${SWEEP_POINTS:-4 256 1024 4096 16384 32768 auto 4xauto}; do
			items+=("vmalloc:fix_size+long_busy_list+random_size+align:$p")
		done
	else
		items+=(vmalloc:fix_size:4 vmalloc:fix_size:256 vmalloc:fix_size:4096 vmalloc:fix_size:auto)
	fi
	printf '%s\n' "${items[@]}" | awk '!seen[$0]++'
}

# want_bench_items WHAT LIST: every comma separated item of LIST is a
# benchmark item within its bounds, and there is at least one.
want_bench_items() {
	local item why n=0
	no_empty_items "$1" "$2"
	want_programs
	for item in ${2//,/ }; do
		why=$(bench_item_error "$item" | head -n1)
		[ -z "$why" ] || die "$1 item '$item': $why"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "$1 names no benchmark item"
}

# mttcg_known_oops LOG: true when a console log stopped before userspace
# with QEMU 7.2's known multi-threaded TCG oops (int3 in sched_clock_cpu
# during static-key patching); make stress and make bench PARALLEL=1 retry
# such a boot once and report it.
mttcg_known_oops() {
	! grep -q '^mmscale: guest up' "$1" && grep -q 'int3' "$1" && grep -q 'sched_clock_cpu' "$1"
}

# want_ab_settings: what lab/stages/ab.sh takes (make bench checks them before it
# builds anything): RUNS, VCPUS, BOOT_TIMEOUT, ACCEL (also mttcg:
# multi-threaded TCG), SECONDS_PER and the workload loop counts.
want_ab_settings() {
	want_number RUNS 1 100
	want_vcpus
	want_boot_settings mttcg
	want_number SECONDS_PER 1 3600
	[ "${MMSCALE_HACKBENCH_LOOPS:-}" = auto ] || want_number MMSCALE_HACKBENCH_LOOPS 1 1000000
	[ "${MMSCALE_VMALLOC_LOOPS:-}" = auto ] || want_number MMSCALE_VMALLOC_LOOPS 1 10000000
}

# want_vmtests: every category in VMTESTS is one of the line's run_vmtests.sh
# (patches/<line>/vmtests), checked before any stage: a category the
# script lacks would run nothing, and say nothing
want_vmtests() {
	local c
	for c in $VMTESTS; do
		[[ $c =~ ^[a-z0-9_]+$ ]] || die "VMTESTS: '$c' is not a run_vmtests.sh category name"
		grep -qx -- "$c" "$PATCHES/vmtests" ||
			die "VMTESTS: '$c' is not a category of the $LINE_TITLE line's run_vmtests.sh (its categories: $PDIR/vmtests)"
	done
}

# want_lab_path VAR: the folder VAR names (an output knob: OUT, MAIL_OUT)
# lies in the lab's folders, BUILD or the checkout's build/, so that no
# target writes into /etc or the checkout's own files.
want_lab_path() {
	local v=${!1:-} p b l
	[ -n "$v" ] || return 0
	p=$(realpath -m -- "$v")
	b=$(realpath -m -- "$BUILD")
	l=$(realpath -m -- "$TOP/build")
	case $p in
	"$b"/?* | "$l"/?*) return 0 ;;
	esac
	die "$1=$v is outside the lab's folders; give a folder under $BUILD (or leave $1 out: a new one is made there)"
}

# want_new_out: OUT, when set, is not a folder that already holds results
# (results are never overwritten).
want_new_out() {
	local f
	[ -n "${OUT:-}" ] || return 0
	[ ! -e "$OUT" ] || [ -d "$OUT" ] || die "OUT=$OUT exists and is not a folder"
	for f in results.json ab.log base-1.log host-1.log; do
		[ ! -e "$OUT/$f" ] || die "OUT=$OUT already holds results ($f); results are never overwritten: choose another OUT"
	done
	want_lab_path OUT
}

# die_on_failed_runs RESULTS: a failed boot or workload fails the target:
# die naming the first (its item and log) and how many more there are; the
# results stay as they are.
die_on_failed_runs() {
	local bad n
	bad=$("$LAB_DIR/py/compare.py" check "$1") && return 0
	[ -n "$bad" ] || die "lab/py/compare.py check $1 failed"
	n=$(wc -l <<< "$bad")
	die "$(head -n1 <<< "$bad")$([ "$n" -gt 1 ] && echo "; $((n - 1)) more failure(s)"); every run is kept in $1"
}

# kernel_name FRAGMENT...: the name of the kernel built from those config
# fragments, which is its folder under BUILD (lab/stages/build.sh): the
# names joined by '-' ("vm debug mmscale" -> vm-debug-mmscale)
kernel_name() {
	local IFS=-
	echo "$*"
}

# new_dir BASE: make a new, empty folder BASE (or BASE-2, BASE-3, ... when
# BASE exists: two runs in the same second never share one) and print it.
new_dir() {
	local d=$1 i=1
	case $1 in "$BUILD"/*) build_mark ;; esac
	mkdir -p "$(dirname "$1")" || return 1
	until mkdir "$d" 2>/dev/null; do
		[ -e "$d" ] && [ "$i" -lt 999 ] || return 1
		i=$((i + 1))
		d=$1-$i
	done
	echo "$d"
}

