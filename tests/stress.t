#!/usr/bin/env bash
# tests/stress.t - make stress's front end: every bad setting is refused
# with one line before any stage runs; boot.sh takes ACCEL=mttcg (and puts
# tcg,thread=multi on QEMU's line); the stress plan parses.  (The run
# itself, and its injected faults, are in docs/stress.md, their
# numbers in docs/results.md: it needs its own kernel, which CI does not build.)
# Needs: bash, make.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one_error() { [ "$(grep -c '^ERROR:' "$1")" = 1 ] && has "$1" "$2"; }

make -s -C "$TOP" stress STRESS_SECONDS=5 > "$tmp/o1" 2>&1
check "STRESS_SECONDS=5: refused" one_error "$tmp/o1" "STRESS_SECONDS must be a whole number from 30 to 3600, not '5'"
make -s -C "$TOP" stress STRESS_SECONDS=abc > "$tmp/o2" 2>&1
check "STRESS_SECONDS=abc: refused" one_error "$tmp/o2" "STRESS_SECONDS must be a whole number from 30 to 3600, not 'abc'"
make -s -C "$TOP" stress SECONDS=5 > "$tmp/o8" 2>&1
check "SECONDS=5, the old name: a warning, then read as STRESS_SECONDS" \
	bash -c 'grep -q "^WARNING: stage stress: SECONDS is the old name of STRESS_SECONDS" "$1" && grep -q "STRESS_SECONDS must be a whole number from 30 to 3600, not .5." "$1"' _ "$tmp/o8"
make -s -C "$TOP" stress CONFIG=foo > "$tmp/o3" 2>&1
check "CONFIG=foo: refused" one_error "$tmp/o3" "CONFIG must be 'rt', not 'foo'"
VCPUS=3 make -s -C "$TOP" stress > "$tmp/o4" 2>&1
check "VCPUS=3: refused" one_error "$tmp/o4" "VCPUS must be an even number from 4 to 16, not '3'"
make -s -C "$TOP" stress INJECT=oops > "$tmp/o5" 2>&1
check "INJECT=oops: refused" one_error "$tmp/o5" "INJECT must be 'leak', 'warn', 'drain', 'hang', 'none' or a comma list of them, not 'oops'"
STRESS_SECONDS=60 CONFIG=rt INJECT=leak,drain "$TOP/lab/stages/stress.sh" --check > "$tmp/o6" 2>&1
check "good settings pass the check" test $? -eq 0
ACCEL=mttcg "$TOP/lab/stages/boot.sh" -k /nonexistent -l "$tmp/log" > "$tmp/o7" 2>&1
check "boot.sh takes ACCEL=mttcg (then fails on the missing kernel only)" one_error "$tmp/o7" "kernel image /nonexistent does not exist"
check "boot.sh: mttcg is multi-threaded TCG on QEMU's line" grep -q 'mttcg) printf .%s\\n. -accel tcg,thread=multi' "$TOP/lab/stages/boot.sh"
# boot.sh -u: a guest that never reaches userspace is killed at the
# deadline (a fake QEMU that writes its -pidfile, prints a kernel line and
# sleeps), exit 3, and the log says so
mkdir "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'EOF2'
#!/bin/bash
while [ $# -gt 0 ]; do [ "$1" = -pidfile ] && echo $$ > "$2"; shift; done
echo "[    1.000000] fake kernel: stuck before userspace"
exec sleep 120
EOF2
chmod +x "$tmp/bin/qemu-system-x86_64"
echo kernel > "$tmp/k"
t0=$(date +%s)
PATH=$tmp/bin:$PATH ACCEL=mttcg "$TOP/lab/stages/boot.sh" -k "$tmp/k" -l "$tmp/hang.log" -s 0 -t 100 -u 6 > "$tmp/o8" 2>&1
rc=$?
check "boot.sh -u 6: a guest with no userspace is killed, exit 3" test "$rc" = 3
check "... within seconds of the deadline, not at -t" test $(($(date +%s) - t0)) -lt 30
check "... and the log ends saying so" bash -c 'tail -n 1 "$1" | grep -q "^# boot.sh: no userspace: no .mmscale: guest up. within 6s, QEMU killed"' _ "$tmp/hang.log"
check "... and leaves no watchdog behind" bash -c '! pgrep -f "[b]oot.sh -k $1/k -l $1/hang.log" > /dev/null' _ "$tmp"
"$TOP/lab/stages/boot.sh" -k "$tmp/k" -l "$tmp/i.log" -i > "$tmp/o9" 2>&1
rc=$?
check "boot.sh -i: gone (make shell boots with virtme-ng), refused with the usage, log untouched" \
	bash -c '[ "$2" = 2 ] && grep -q "^usage: see the header" "$1/o9" && [ ! -e "$1/i.log" ]' _ "$tmp" "$rc"
# lab/guest/stuck.sh, which make stress runs on a stressor still running
# after the stop: a reader of a FIFO that nobody writes hangs in the kernel
# (fifo_open); its tree and kernel stack are printed.  A host that shows no
# kernel stacks (not root, no CONFIG_STACKTRACE) skips the stack check.
mkfifo "$tmp/fifo"
bash -c 'exec cat "$1" > /dev/null' sh "$tmp/fifo" &
hang=$!
# until it is cat, waiting in the kernel (a loaded machine may take a while)
for _ in $(seq 100); do
	[ "$(cat /proc/$hang/comm 2>/dev/null)" = cat ] && [ "$(cat /proc/$hang/wchan 2>/dev/null)" != 0 ] && break
	sleep 0.1
done
"$TOP/lab/guest/stuck.sh" "$hang" > "$tmp/stuck" 2>&1
# state is ps's STAT: S, with its flags after it (N when the test runs
# under nice, s for a session leader)
check "lab/guest/stuck.sh: the stuck process's line" has "$tmp/stuck" "^# pid $hang ppid [0-9]+ state S[^ ]* .*: cat $tmp/fifo\$"
if grep -q '\[<' "/proc/$hang/stack" 2>/dev/null; then
	check "lab/guest/stuck.sh: ... and its kernel stack, where it waits" has "$tmp/stuck" '^#     \[<[0-9a-f]+>\] (wait_for_partner|fifo_open)\+'
else
	skip "lab/guest/stuck.sh: ... and its kernel stack, where it waits" "this host shows no kernel stack in /proc/PID/stack"
fi
kill "$hang" 2>/dev/null; wait "$hang" 2>/dev/null
"$TOP/lab/guest/stuck.sh" "$hang" > "$tmp/stuck" 2>&1
check "lab/guest/stuck.sh: a process that is gone is said so" has "$tmp/stuck" "^# pid $hang: gone$"
check "lab/guest/stress.sh parses" bash -n "$TOP/lab/guest/stress.sh"
check "lab/guest/bootparams.sh parses" bash -n "$TOP/lab/guest/bootparams.sh"
done_testing
