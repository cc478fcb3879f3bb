# bench/guest-bench.sh - benchmark plan sourced by lab/guest-init.sh in the guest.
#
# What it does: runs the workloads named in MMSCALE_BENCH (comma separated,
# each "page_fault:KIND:MODE:TASKS", e.g. page_fault:3:threads:2) with
# MMSCALE_BENCH_SECONDS samples after one warm-up second, and prints every
# result as "mmscale: metric WORKLOAD KEY VALUE" for lab/compare.py.  Files go to
# /tmp (tmpfs), as will-it-scale expects.
# What it needs: the helpers of lab/guest-init.sh; the workloads built on
# the host into MMSCALE_BENCH_BIN (lab/ab.sh does that).
bin=$(hostpath "${MMSCALE_BENCH_BIN:-/nonexistent}")
for w in ${MMSCALE_BENCH//,/ }; do
	IFS=: read -r name kind mode tasks <<< "$w"
	case $name in
	page_fault)
		[ -x "$bin/page_fault" ] ||
			{ echo "mmscale: error: $MMSCALE_BENCH_BIN/page_fault is missing"; continue; }
		"$bin/page_fault" -k "$kind" -m "$mode" -t "$tasks" \
			-s "${MMSCALE_BENCH_SECONDS:-5}" -w 1 -d /tmp |
			sed -n 's/^\(page_fault[0-9]\) \(will-it-scale\.[0-9]*\.[a-z]*\) /mmscale: metric \1 \2 /p'
		;;
	*) echo "mmscale: error: unknown workload $w" ;;
	esac
done
