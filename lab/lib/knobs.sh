#!/usr/bin/env bash
# lab/lib/knobs.sh - the knobs (settings) of each make target, and the check
# that a misspelt one is refused before the target starts.
#
# Usage: lab/lib/knobs.sh TARGET            (the Makefile runs it first)
#        lab/lib/knobs.sh --list [TARGET]   print the table (TARGET: its knobs)
#
# What it does: a knob is a make variable or an environment variable that a
# target reads (make check BOOT_TIMEOUT=..., STRESS_SECONDS=60 make stress).  Make
# hands both to the scripts the same way, so a misspelt one would be
# ignored and the default used.  This check looks at every upper-case
# variable in the environment that is not one of TARGET's knobs and refuses
# it, with a "did you mean" line, when it looks like one of them:
#   - it is one edit (a letter added, dropped, changed or two swapped) from
#     a knob of 4 letters or more, or two edits from a knob of 7 or more
#     (SUITES for SUITE, BOOT_TIMOUT for BOOT_TIMEOUT);
#   - or it shares a knob's first word before "_", and the rest is at most
#     two edits away (MAIL_FRM for MAIL_FROM);
#   - or it is the start of a knob, 4 letters or more (BOOT_TIME).
# A knob of another target (INJECT=leak make run) and a knob in lower case
# (stress_seconds=60) are refused too, and so is any variable on make's
# command line that is not a knob of the goals given there.  An old name of
# a knob (RUN_CONFIGS, SECONDS: OLD_NAMES) works, with a warning that names
# the new one.  In the environment,
# PREFIX, HOST, OUT and V (names other tools' environments carry) only
# warn.  BASE, BASE_VERSION and BUILD are checked here for every target
# (lab/lib/common.sh).
# Variables every shell or make sets (PATH, HOME, MAKEFLAGS, ...) and the
# lab's internal ones (MMSCALE_*, set by the lab for its guest and tests)
# are never refused.  Nothing is written.
# What it needs: bash, awk.  Exit: 0, or 2 with one ERROR line.
set -euo pipefail

# Every target's knobs; docs/knobs.md explains each.  BASE (the
# line: 6.12 or 7.3), BASE_VERSION (another package version of its source)
# and BUILD (where everything generated goes) are every target's.
declare -A KNOBS=(
	[run]="CONFIGS KUNIT_FILTER VMTESTS BOOT_TIMEOUT ACCEL ACCEL_PROBE LINUX_SRC SLAB_DEBUG_BOOT FORCE"
	[check]="CONFIGS KUNIT_FILTER VMTESTS BOOT_TIMEOUT ACCEL ACCEL_PROBE LINUX_SRC SLAB_DEBUG_BOOT FORCE"
	[deps]=""
	[source]="LINUX_SRC FORCE"
	[tree]="LINUX_SRC FORCE"
	[export]=""
	[build]="CONFIGS"
	[shell]="CONFIGS APPEND BOOT_TIMEOUT ACCEL"
	[test]=""
	[bench]="BENCH RUNS FULL CONFIG HOST MATRIX PARALLEL VMALLOC_SWEEP SECONDS_PER VCPUS OUT BOOT_TIMEOUT ACCEL ACCEL_PROBE BASE_APPEND HEAD_APPEND FORCE"
	[deb]="KCONFIG DEB_BOOT BOOT_TIMEOUT ACCEL ACCEL_PROBE DEBEMAIL DEBFULLNAME"
	[stress]="STRESS_SECONDS CONFIG INJECT VCPUS UP_TIMEOUT BOOT_TIMEOUT ACCEL ACCEL_PROBE"
	[equiv]="VMTESTS BOOT_TIMEOUT ACCEL ACCEL_PROBE"
	[layout]="LAYOUT_CONFIGS LAYOUT_N"
	[compare]="A B AA"
	[jobs]="MATRIX"
	[bisect]="FIRST LAST CONFIGS BOOT_TIMEOUT ACCEL ACCEL_PROBE FORCE"
	[topics]="FORCE"
	[mail]="TOPIC V PREFIX MAIL_FROM MAIL_OUT MAIL_REPORT BASE_COMMIT MAINTAINERS_TREE LINUX_SRC FORCE"
	[kunit]="SUITE ACCEL LINUX_SRC FORCE"
	[docs]="DOCS_JOBS LINUX_SRC FORCE"
	[clean]="FORCE"
	[help]=""
	[all]=""
)
COMMON_KNOBS="BASE BASE_VERSION BUILD"
# Old names that still work, for one release, with a warning that names the
# new one: OLD_NAMES[TARGET:OLD]=NEW (issue 42 item 5: one name per knob)
declare -A OLD_NAMES=(
	[run:RUN_CONFIGS]=CONFIGS
	[check:RUN_CONFIGS]=CONFIGS
	[stress:SECONDS]=STRESS_SECONDS
)

# names a shell, make, a terminal, git or CI set; never a misspelt knob
is_ambient() {
	case $1 in
	PATH | HOME | SHELL | TERM | USER | LOGNAME | PWD | OLDPWD | LANG | LANGUAGE | SHLVL | HOSTNAME | \
	MAIL | TMPDIR | EDITOR | VISUAL | PAGER | TZ | DISPLAY | COLUMNS | LINES | CI | DEBIAN_FRONTEND | \
	MAKE | MAKEFLAGS | MAKELEVEL | MFLAGS | MAKEOVERRIDES | MAKE_* | GNUMAKEFLAGS | LC_* | XDG_* | \
	SSH_* | GIT_* | MMSCALE_* | SUDO_* | PYTHON* | PERL* | CCACHE_* | KBUILD_* | DBUS_* | \
	TERM_* | COLORTERM | LS_COLORS | LESS* | HIST* | PS[0-9] | _ | OSTYPE | HOSTTYPE | MACHTYPE | \
	INVOCATION_ID | JOURNAL_STREAM | MOTD_SHOWN | NO_COLOR | FORCE_COLOR | HTTP_PROXY | HTTPS_PROXY | \
	NO_PROXY | FTP_PROXY | ALL_PROXY | APT_GET | APT_CACHE | DEB_TARBALL)
		return 0 ;;
	esac
	return 1
}

if [ "${1:-}" = --list ]; then
	if [ -n "${2:-}" ]; then
		[ -n "${KNOBS[$2]+x}" ] || { echo "ERROR: no make target '$2'" >&2; exit 2; }
		echo ${KNOBS[$2]} $COMMON_KNOBS
	else
		for t in $(printf '%s\n' "${!KNOBS[@]}" | sort); do
			printf '%-8s %s\n' "$t" "$(echo ${KNOBS[$t]} $COMMON_KNOBS)"
		done
	fi
	exit 0
fi
[ $# = 1 ] || { echo "usage: $0 TARGET | --list [TARGET]" >&2; exit 2; }
target=$1
[ -n "${KNOBS[$target]+x}" ] || { echo "ERROR: lab/lib/knobs.sh: no knob table for make target '$target'" >&2; exit 2; }
known=" ${KNOBS[$target]} $COMMON_KNOBS "

# refuse NAME WANT: the one ERROR line, with "did you mean WANT" when given
refuse() {
	echo "ERROR: stage $target: $1 is not a knob of make $target${2:+; did you mean $2?} (make $target takes: $(echo $known))" >&2
	exit 2
}

# similar NAME...: for the first NAME that looks like a knob of TARGET,
# "NAME KNOB"; nothing when none does
similar() {
	printf '%s\n' "$@" | awk -v knobs="$known" '
	# optimal string alignment distance (an adjacent swap is one edit)
	function dist(a, b,    la, lb, i, j, c, d, x) {
		la = length(a); lb = length(b)
		for (i = 0; i <= la; i++) d[i, 0] = i
		for (j = 0; j <= lb; j++) d[0, j] = j
		for (i = 1; i <= la; i++)
			for (j = 1; j <= lb; j++) {
				c = substr(a, i, 1) != substr(b, j, 1)
				x = d[i - 1, j] + 1
				if (d[i, j - 1] + 1 < x) x = d[i, j - 1] + 1
				if (d[i - 1, j - 1] + c < x) x = d[i - 1, j - 1] + c
				if (i > 1 && j > 1 && substr(a, i, 1) == substr(b, j - 1, 1) &&
				    substr(a, i - 1, 1) == substr(b, j, 1) && d[i - 2, j - 2] + 1 < x)
					x = d[i - 2, j - 2] + 1
				d[i, j] = x
			}
		return d[la, lb]
	}
	BEGIN { n = split(knobs, k, " ") }
	{
		for (i = 1; i <= n; i++) {
			e = dist($0, k[i])
			if ((e <= 1 && length(k[i]) >= 4) || (e <= 2 && length(k[i]) >= 7)) {
				print $0 " " k[i]; exit
			}
			# cut short: BOOT_TIME for BOOT_TIMEOUT
			if (length($0) >= 4 && index(k[i], $0) == 1) {
				print $0 " " k[i]; exit
			}
			p = index(k[i], "_")
			if (p > 1 && substr($0, 1, p) == substr(k[i], 1, p) &&
			    dist(substr($0, p + 1), substr(k[i], p + 1)) <= 2) {
				print $0 " " k[i]; exit
			}
		}
	}'
}

# OWNERS[KNOB]: the targets (sorted, comma separated) whose knob KNOB is
declare -A OWNERS=()
for _t in $(printf '%s\n' "${!KNOBS[@]}" | sort); do
	for _k in ${KNOBS[$_t]}; do
		OWNERS[$_k]=${OWNERS[$_k]:+${OWNERS[$_k]}, }$_t
	done
done
owners() { echo "${OWNERS[$1]:-}"; }

# other_target NAME: refuse NAME when it is a knob of other targets
other_target() {
	local o
	o=$(owners "$1")
	[ -n "$o" ] || return 0
	echo "ERROR: stage $target: $1 is a knob of make $o, not of make $target (make $target takes: $(echo $known))" >&2
	exit 2
}

# The common knobs first: BASE must name a line and BASE_VERSION one of its
# versions (lab/lib/common.sh refuses either with one line), and BUILD must be a
# folder the lab may write: absent, empty, in the checkout's build/, or one
# the lab made (its marker).  make clean checks BUILD its own, stricter way.
# shellcheck source=lab/lib/common.sh
source "$(dirname "$0")/common.sh"
if [ "$target" != clean ] && [ -e "$BUILD" ]; then
	_b=$(realpath -m -- "$BUILD")
	_l=$(realpath -m -- "$TOP/build")
	if [ "$_b" != "$_l" ] && [[ $_b != "$_l"/* ]] && [ ! -f "$BUILD/$BUILD_MARKER" ] &&
	   { [ ! -d "$BUILD" ] || [ -n "$(ls -A "$BUILD")" ]; }; then
		echo "ERROR: stage $target: BUILD=$BUILD is not a folder the lab made (no $BUILD_MARKER in it, and not empty); give a new folder for everything the lab writes" >&2
		exit 2
	fi
fi

# an old name: a warning, or one line when the new name says otherwise
for _o in "${!OLD_NAMES[@]}"; do
	[ "${_o%%:*}" = "$target" ] || continue
	_old=${_o#*:} _new=${OLD_NAMES[$_o]}
	# in the environment (make exports its command line's variables), not
	# bash's own SECONDS
	_ov=$(printenv "$_old") || continue
	if [ -n "${!_new:-}" ] && [ "${!_new}" != "$_ov" ]; then
		echo "ERROR: stage $target: $_old is the old name of $_new; give $_new only (here $_old='$_ov', $_new='${!_new}')" >&2
		exit 2
	fi
	echo "WARNING: stage $target: $_old is the old name of $_new; it still works, until the next release" >&2
	known+="$_old "
done

# Variables given on make's command line (the Makefile passes their names
# in MMSCALE_CMDLINE) are meant for the goals the user typed: every one must
# be a knob of one of them.  A knob of another target (make run CONFIGS=rt)
# or another case (seconds=60) would be ignored, and the long default run
# would start with the wrong settings.
goals=${MMSCALE_GOALS:-$target}
goal_knobs=" $COMMON_KNOBS "
for g in $goals; do
	[ -n "${KNOBS[$g]+x}" ] && goal_knobs+="${KNOBS[$g]} "
done
for name in ${MMSCALE_CMDLINE:-}; do
	[[ $goal_knobs == *" $name "* ]] && continue
	[[ $known == *" $name "* ]] && continue
	[[ $name == MMSCALE_* ]] && continue
	upper=${name^^}
	if [[ $goal_knobs == *" $upper "* ]]; then
		refuse "$name" "$upper"
	fi
	hit=$(similar "$name")
	[ -n "$hit" ] || other_target "$name"
	refuse "$name" "${hit#* }"
done

cands=()
while IFS= read -r name; do
	[[ $name =~ ^[A-Za-z][A-Za-z0-9_]*$ ]] || continue
	[[ $known == *" $name "* ]] && continue
	is_ambient "$name" && continue
	# a knob of ours in another case (seconds=60): make hands it on as
	# it is, and no script reads it
	[[ $name =~ [a-z] ]] && [[ $known == *" ${name^^} "* ]] && refuse "$name" "${name^^}"
	[[ $name =~ ^[A-Z][A-Z0-9_]*$ ]] || continue
	cands+=("$name")
done < <(compgen -e)
[ ${#cands[@]} -gt 0 ] || exit 0
# a name that looks like one of ours first ("did you mean"), then a knob of
# another target
hit=$(similar "${cands[@]}")
[ -z "$hit" ] || refuse "${hit%% *}" "${hit#* }"
for name in "${cands[@]}"; do
	case $name in
	# names other tools' environments often carry (autotools' PREFIX, a
	# shell's HOST): a warning, since this target does not read them
	PREFIX | HOST | OUT | V)
		[ -z "$(owners "$name")" ] ||
			echo "WARNING: stage $target: $name in the environment is a knob of make $(owners "$name"); make $target does not read it" >&2 ;;
	*) other_target "$name" ;;
	esac
done
exit 0
