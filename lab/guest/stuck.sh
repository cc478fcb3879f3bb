#!/bin/bash
# lab/guest/stuck.sh - where a stuck process is stuck: for each PID, its
# process tree (the PID and every process under it, parents first) and each
# task's kernel stack, as TAP comment lines ("# ...").  make stress's plan
# (lab/guest/stress.sh) runs it on every stressor still running 120 s after
# the stop, so that the report says where it hangs.
#
# Usage: lab/guest/stuck.sh PID...
# What it prints, per process: "# pid PID ppid PPID state STAT wchan W
# elapsed Ns: ARGS" (STAT as ps prints it: the state letter and its
# flags; cut at 300 characters), then "#   task TID (COMM) kernel stack:"
# and the frames
# of /proc/PID/task/TID/stack (CONFIG_STACKTRACE; root), or the reason there
# are none (a task running on a CPU has no stack to show there; the
# unreadable file is named).  A PID that is gone is said so.  Exit 0.
# What it needs: bash, procps (ps), coreutils; root for the stacks.

# tree PID: PID and every process under it, parents first
tree() {
	local c
	echo "$1"
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$c"; done
}

# stack PID TID: the task's kernel stack, indented, or why there is none
stack() {
	local f=/proc/$1/task/$2/stack s
	if ! s=$(cat "$f" 2>&1); then
		echo "#     (no stack: $s)"
	elif [ -z "$s" ]; then
		echo "#     (empty: the task is running on a CPU, or the kernel keeps no stack trace)"
	else
		sed 's/^/#     /' <<< "$s"
	fi
}

[ $# -gt 0 ] || { echo "usage: $0 PID..." >&2; exit 2; }
for top in "$@"; do
	if [ ! -d "/proc/$top" ]; then
		echo "# pid $top: gone"
		continue
	fi
	for p in $(tree "$top"); do
		[ -d "/proc/$p" ] || continue
		ps -o pid=,ppid=,stat=,wchan:32=,etimes=,args= -p "$p" 2>/dev/null |
			awk '{ printf "# pid %s ppid %s state %s wchan %s elapsed %ss:", $1, $2, $3, $4, $5;
				for (i = 6; i <= NF; i++) printf " %s", $i; print "" }' | cut -c 1-300
		for t in /proc/"$p"/task/*; do
			t=${t##*/}
			echo "#   task $t ($(cat /proc/"$p"/task/"$t"/comm 2>/dev/null)) kernel stack:"
			stack "$p" "$t"
		done
	done
done
exit 0
