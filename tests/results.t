#!/usr/bin/env bash
# tests/results.t - stages hand their verdicts on through result files
# (issue 42 item 3): lab/lib/tap.sh writes and reads them, lab/lib/prove.pl
# writes the lab tests' one, and no stage counts another's TAP lines.
# Needs: python3, perl (TAP::Harness, JSON::PP: both in perl's core).
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one stage's verdicts: two ok (one skipped), one failed
cat > "$tmp/stage.sh" <<'EOF'
LAB_DIR=$1
source "$LAB_DIR/lib/tap.sh"
STAGE=demo BASE=7.3
tap_result 0 "first"
tap_result skip "second" "no disk here"
tap_result 1 "third" "two lines
of why"
tap_end "$2"
EOF
bash "$tmp/stage.sh" "$TOP/lab" "$tmp/r.json" > "$tmp/out"
check "tap_end: exit 1 when an item failed" test $? -eq 1
check "tap_end: the TAP lines" has "$tmp/out" '^not ok 3 - third # two lines'
check "tap_end: the count line" has "$tmp/out" '^2 passed, 1 failed$'
check "the result file: passed, failed, skipped" \
	test "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["stage"], d["line"], d["passed"], d["failed"], d["skipped"], len(d["cases"]))' "$tmp/r.json")" = "demo 7.3 2 1 1 3"

# the stage that runs it reads the file, never the TAP lines
cat > "$tmp/replay.sh" <<'EOF'
LAB_DIR=$1
source "$LAB_DIR/lib/tap.sh"
STAGE=outer
tap_result 0 "own"
tap_replay "$2" "inner: "
tap_replay "$3"
tap_end "$4"
EOF
bash "$tmp/replay.sh" "$TOP/lab" "$tmp/r.json" "$tmp/none.json" "$tmp/o.json" > "$tmp/out2"
check "tap_replay: the other stage's cases, named after the prefix" has "$tmp/out2" '^ok 3 - inner: second # SKIP no disk here$'
check "tap_replay: a failed case stays failed, its why on one line" has "$tmp/out2" '^not ok 4 - inner: third # two lines of why$'
check "tap_replay: no result file is a failure, not a pass" has "$tmp/out2" '^not ok 5 - a result file .*none.json.* # missing$'
check "tap_replay: the outer count" has "$tmp/out2" '^3 passed, 2 failed$'
bash -c 'source "$1/lib/tap.sh"; result_lines "$2"' _ "$TOP/lab" "$tmp/r.json" > "$tmp/out3"
check "result_lines: shows each case indented" has "$tmp/out3" '^  ok - second # SKIP no disk here$'

# lab/lib/prove.pl: the lab tests' result file, from TAP::Harness
mkdir -p "$tmp/t"
printf '#!/bin/sh\necho 1..3\necho ok 1 - a\necho "# why b failed"\necho not ok 2 - b\necho "ok 3 - c # SKIP no c"\n' > "$tmp/t/one.t"
printf '#!/bin/sh\necho 1..2\necho ok 1 - d\n' > "$tmp/t/short.t"
printf '#!/bin/sh\necho 1..1\necho ok 1 - e\n' > "$tmp/t/good.t"
chmod +x "$tmp"/t/*.t
(cd "$tmp/t" && "$TOP/lab/lib/prove.pl" "$tmp/p.log" "$tmp/p.json" one.t short.t good.t) > "$tmp/pout" 2>&1
check "prove.pl: exit 1 when a test failed" test $? -eq 1
check "prove.pl: passed 4, failed 2 (a case, and a file whose plan is short), skipped 1" \
	test "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["passed"], d["failed"], d["skipped"])' "$tmp/p.json")" = "4 2 1"
check "prove.pl: a failed case is shown with the comment before it" \
	bash -c 'grep -q "^  # why b failed$" "$1" && grep -q "^  not ok 2 - b$" "$1"' _ "$tmp/pout"
check "prove.pl: the whole verbose run is in the log" has "$tmp/p.log" '^ok 1 - e$'
(cd "$tmp/t" && "$TOP/lab/lib/prove.pl" "$tmp/p2.log" "$tmp/p2.json" good.t) > /dev/null 2>&1
check "prove.pl: exit 0 when all passed" test $? -eq 0

# no stage counts or greps another stage's verdict lines: what make check
# sums comes from result files (run.sh, linecheck.sh, deb.sh)
check "no stage counts TAP lines of another's output" \
	bash -c '! grep -nE "grep -c[A-Za-z]* .\^(not )?ok|grep -q .\^not ok" "$1"/lab/stages/*.sh' _ "$TOP"
check "no stage reads the accelerator from a QEMU command line in a log" \
	bash -c '! grep -n -- "grep -q -- .-accel kvm" "$1"/lab/stages/*.sh' _ "$TOP"
done_testing
