# lab/guest/deb.sh - the plan of "lab/stages/deb.sh --verify" (make deb, and make
# check's package stage), sourced by lab/guest/init.sh in the guest.
#
# What it does: prints the running release, the series' options
# (MMSCALE_OPTIONS) as /proc/config.gz has them, and whether a module of the package loads
# (test_vmalloc, one short fix_size round: the module prints a Summary line
# and refuses to stay loaded, as it always does), as "mmscale: deb ..."
# lines that lab/stages/deb.sh checks.  The KUnit suites ran at boot
# (kunit.enable=1); their KTAP is on the console already, so the plan does
# not dump the kernel log again.
# What it needs: the helpers of lab/guest/init.sh; kmod, gzip, grep on the
# host root.

dump_dmesg=0
echo "mmscale: deb uname $(uname -r)"
# the line's options (MMSCALE_OPTIONS, comma separated, from lab/stages/deb.sh:
# LINE_OPTIONS of patches/<line>/line.env) and SLUB_STATS
zcat /proc/config.gz 2>/dev/null |
	grep -E "^CONFIG_($(echo "${MMSCALE_OPTIONS:+$MMSCALE_OPTIONS,}SLUB_STATS" | tr , '|'))=" |
	sed 's/^/mmscale: deb config /'
modprobe test_vmalloc run_test_mask=1 test_loop_count=10 nr_threads=1 2> /dev/null
if dmesg | grep -q 'Summary: fix_size_alloc_test passed: [1-9]'; then
	echo "mmscale: deb module test_vmalloc ok"
else
	echo "mmscale: deb module test_vmalloc did not run: $(dmesg | grep -i test_vmalloc | tail -n 1)"
fi
