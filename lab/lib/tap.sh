# lab/lib/tap.sh - a stage's verdicts: TAP lines on stdout for people, and
# a result file (JSON) for the stage that runs it.  Sourced by
# lab/lib/common.sh.
#
# A stage calls tap_result for each item and tap_end at the end.  The stage
# that ran it reads the result file (json_fields FILE passed failed), never
# the TAP lines:
#   {"stage": "topics", "line": "7.3", "passed": 9, "failed": 1,
#    "skipped": 0, "cases": [{"name": "...", "ok": true, "skip": "",
#    "why": ""}, ...]}
# "passed" counts every ok item, skipped ones too, as prove does.

_tap_n=0 _tap_pass=0 _tap_fail=0 _tap_skip=0
_tap_cases=()

# tap_args ARG...: a stage's leading "--result FILE": TAP_FILE is FILE (or
# empty), TAP_SHIFT how many arguments that took (shift "$TAP_SHIFT")
tap_args() {
	TAP_FILE= TAP_SHIFT=0
	[ "${1:-}" = --result ] || return 0
	[ $# -ge 2 ] && [ -n "$2" ] || die "--result needs a FILE"
	TAP_FILE=$2 TAP_SHIFT=2
}

# tap_result RC DESC [WHY]: one TAP line.  RC 0 is ok, "skip" is ok with
# "# SKIP WHY", anything else is not ok (WHY after "#").
tap_result() {
	local rc=$1 desc=$2 why=${3:-} ok=true skip=
	_tap_n=$((_tap_n + 1))
	case $rc in
	0)
		_tap_pass=$((_tap_pass + 1))
		echo "ok $_tap_n - $desc" ;;
	skip)
		_tap_pass=$((_tap_pass + 1)) _tap_skip=$((_tap_skip + 1)) skip=${why:-skipped} why=
		echo "ok $_tap_n - $desc # SKIP $skip" ;;
	*)
		_tap_fail=$((_tap_fail + 1)) ok=false
		echo "not ok $_tap_n - $desc${why:+ # $why}" ;;
	esac
	_tap_cases+=("$ok" "$desc" "$skip" "$why")
}

# tap_replay FILE [PREFIX]: the cases of another stage's result file as our
# own items, each name after PREFIX; a file that cannot be read is one
# failed item
tap_replay() {
	local ok desc skip why p=${2:-}
	if [ ! -r "$1" ]; then
		tap_result 1 "${2:-}a result file from the stage that ran ($1)" "missing"
		return
	fi
	# fields apart by the unit separator: a tab is white space to read,
	# and two of them would merge an empty field away
	while IFS=$'\x1f' read -r ok desc skip why; do
		if [ "$ok" = false ]; then
			tap_result 1 "$p$desc" "$why"
		elif [ -n "$skip" ]; then
			tap_result skip "$p$desc" "$skip"
		else
			tap_result 0 "$p$desc"
		fi
	done < <(python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print("\x1f".join(" ".join(str(v).split()) for v in
                    (str(c["ok"]).lower(), c["name"], c["skip"], c["why"])))' "$1" ||
		printf 'false\x1f%s\x1f\x1f%s\n' "the result file $1 is not a stage result" unreadable)
}

# result_lines FILE: the verdicts of a result file, indented, for people
result_lines() {
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    tail = " # SKIP " + c["skip"] if c["skip"] else (" # " + c["why"] if c["why"] else "")
    print("  %s - %s%s" % ("ok" if c["ok"] else "not ok", c["name"], tail))' "$1" 2> /dev/null ||
		echo "  not ok - no result file $1"
}

# tap_end [FILE]: the "N passed, N failed" line, and the result file FILE
# (nothing when FILE is empty); returns 1 when an item failed
tap_end() {
	echo "$_tap_pass passed, $_tap_fail failed"
	[ -z "${1:-}" ] || tap_write "$1"
	[ "$_tap_fail" = 0 ]
}

# tap_write FILE: the result file, written whole under a temporary name
# and renamed, so that a reader never sees half of it
tap_write() {
	mkdir -p "$(dirname "$1")"
	python3 -c 'import json, sys
out, stage, line, p, f, s = sys.argv[1:7]
c = sys.argv[7:]
cases = [{"name": c[i + 1], "ok": c[i] == "true", "skip": c[i + 2], "why": c[i + 3]}
         for i in range(0, len(c), 4)]
with open(out + ".tmp", "w") as fh:
    json.dump({"stage": stage, "line": line, "passed": int(p), "failed": int(f),
               "skipped": int(s), "cases": cases}, fh, indent=1)
    fh.write("\n")' "$1" "${STAGE-}" "${BASE-}" "$_tap_pass" "$_tap_fail" "$_tap_skip" \
		"${_tap_cases[@]}" && mv "$1.tmp" "$1"
}
