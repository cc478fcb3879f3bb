# bench/guest-bench.sh - benchmark plan sourced by lab/guest/init.sh in the guest.
#
# What it does: reads the run's settings from the host file named by
# MMSCALE_BENCH_ENV (lab/stages/ab.sh writes it: MMSCALE_BENCH, MMSCALE_BENCH_BIN,
# ...), translates host paths with hostpath(), and runs bench/workloads.sh,
# whose "mmscale: metric/counter/ops/error" lines go to the console for
# lab/py/compare.py.  /tmp is a tmpfs in the guest (lab/guest/init.sh).
# What it needs: the helpers of lab/guest/init.sh; the workloads built on
# the host (lab/stages/ab.sh does that).
if [ -r "$(hostpath "${MMSCALE_BENCH_ENV:-/nonexistent}")" ]; then
	set -a
	source "$(hostpath "$MMSCALE_BENCH_ENV")"
	set +a
	MMSCALE_BENCH_BIN=$(hostpath "$MMSCALE_BENCH_BIN") MMSCALE_BENCH_TMP=/tmp \
		bash "$(hostpath "$(dirname "$MMSCALE_PLAN")")/workloads.sh"
else
	echo "mmscale: error all the bench settings ${MMSCALE_BENCH_ENV:-(MMSCALE_BENCH_ENV unset)} are not readable"
fi
