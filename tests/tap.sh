# tests/tap.sh - tiny TAP helpers for the lab's own tests (run with prove).
# What it does: the check and has helpers that print "ok N"/"not ok N";
# skip prints "ok N # SKIP reason"; done_testing prints the plan.  What it
# needs: bash.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# no test writes outside its scratch folder: not even Python's byte code
# (kunit.py in the kernel tree, lab/*.py)
export PYTHONDONTWRITEBYTECODE=1
# the lines: the folders of patches/ that have a line.env (lab/lib/common.sh)
LINES=$(for f in "$TOP"/patches/*/line.env; do basename "$(dirname "$f")"; done | sort -V | xargs)
# the build folder of the line under test (BASE, default lab/lib/common.sh's)
_line=${BASE:-$(sed -n 's/^DEFAULT_BASE=//p' "$TOP/lab/lib/common.sh")}
LB=$TOP/build/$_line
# and its patches (patches/<line>/)
LP=$TOP/patches/$_line
# its first and last topic (patches/<line>/series), and its version as a
# regular expression ("7\.3")
LT=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LP/series" | head -n1)
LT_LAST=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LP/series" | tail -n1)
LV=${_line//./\\.}
_n=0
_failed=0
# check DESC CMD...: ok when CMD succeeds
check() {
	local desc=$1
	shift
	_n=$((_n + 1))
	if "$@"; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc"
		_failed=$((_failed + 1))
	fi
}
# has FILE REGEX: FILE contains a line matching REGEX (shows FILE if not)
has() {
	grep -qE -- "$2" "$1" && return 0
	echo "# expected /$2/ in $1:" >&2
	sed 's/^/#   /' "$1" | tail -n 15 >&2
	return 1
}
# script_default VAR FILE: the default of the first ${VAR:-default} in FILE;
# a default that is a variable of lab/lib/common.sh ($DEFAULT_CONFIGS) is
# resolved there
script_default() {
	local d
	d=$(sed -n "s/^.*\${$1:-\\([^}]*\\)}.*$/\\1/p" "$2" | head -n1)
	case $d in
	'$'[A-Z_]*) d=$(sed -n "s/^${d#\$}=\"\\(.*\\)\"$/\\1/p" "$TOP/lab/lib/common.sh" | head -n1) ;;
	esac
	echo "$d"
}
# skip DESC REASON: a test that cannot run here (prove counts it as skipped)
skip() {
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
}
# snap DIR: a fingerprint of DIR (names, sizes, modes and contents; not
# times: git refreshes the time of objects it finds again)
snap() {
	[ -e "$1" ] || { echo absent; return; }
	(cd "$1" && find . -printf '%p %s %m\n' | sort && find . -type f -exec md5sum {} + | sort) | md5sum
}
# refused OUT REGEX: OUT holds exactly one line of ours, matching REGEX
# (make's own "make: *** ... Error" trailer aside), and no traceback or
# shell error
refused() {
	local ours
	ours=$(grep -v '^make\(\[[0-9]*\]\)\?: \*\*\* ' "$1")
	if grep -qE 'Traceback|unbound variable|integer expression expected|command not found' "$1" ||
	   [ "$(wc -l <<< "$ours")" != 1 ] || ! grep -qE -- "$2" <<< "$ours"; then
		echo "# expected one line /$2/ in $1:" >&2
		sed 's/^/#   /' "$1" | tail -n 8 >&2
		return 1
	fi
}
# skip_all REASON: the whole file cannot run here (a fresh clone without
# build/): a TAP plan of 0 with the reason, which prove counts as skipped
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}
done_testing() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}
