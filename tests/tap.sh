# tests/tap.sh - tiny TAP helpers for the lab's own tests (run with prove).
# What it does: check/expect_fail helpers that print "ok N"/"not ok N";
# done_testing prints the plan.  What it needs: bash.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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
done_testing() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}
