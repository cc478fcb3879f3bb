# lab/guest-tests.sh - the test plan sourced by lab/guest-init.sh in the guest.
#
# What it does: runs the in-tree mm selftests (run_vmtests.sh, categories
# from MMSCALE_VMTESTS, comma separated) and cgroup's test_memcontrol and
# test_memcg_stock (the series' charge stock checks), each as one section, from a copy (on the scratch disk) of the kselftest install tree
# MMSCALE_KST built on the host from the same kernel tree.  KUnit already ran
# during boot.  A missing binary is reported as a failed section.
# MMSCALE_MM_SECTION renames the mm section (e.g. for the slab_debug boot);
# MMSCALE_MEMCONTROL=0 leaves the two cgroup tests out.
# What it needs: the helpers of lab/guest-init.sh; bash on the host root.

# on the ext4 scratch disk when there is one: test_memcontrol's page cache
# must be reclaimable (tmpfs pages are not, without swap)
kst_copy=/tmp/kselftest
mountpoint -q /mnt && kst_copy=/mnt/kselftest
if [ -z "${MMSCALE_KST:-}" ] || [ ! -d "$(hostpath "$MMSCALE_KST")" ]; then
	echo "mmscale: error: kselftest install tree '${MMSCALE_KST:-}' not found"
else
	cp -a "$(hostpath "$MMSCALE_KST")" "$kst_copy"
fi

# run_in DIR BIN ARGS...: run a kselftest binary from its directory, or
# fail loudly when it was not built.
run_in() {
	local dir=$1 bin=$2
	shift 2
	if [ ! -x "$kst_copy/$dir/$bin" ]; then
		echo "mmscale: error: selftest binary $dir/$bin is missing"
		return 127
	fi
	# line-buffered, so output of forked test children is not duplicated
	cd "$kst_copy/$dir" && stdbuf -oL -eL "./$bin" "$@"
}

# Mechanism facts, the same on base and head: the cache out-of-line
# page-table locks come from (a link means it is merged with other caches).
ptl=/sys/kernel/slab/page-\>ptl
if [ -e "$ptl" ]; then
	echo "mmscale: fact page->ptl: cache=$(readlink "$ptl" || echo dedicated)" \
		"aliases=$(cat "$ptl/aliases") object_size=$(cat "$ptl/object_size")" \
		"slab_size=$(cat "$ptl/slab_size") align=$(cat "$ptl/align")" \
		"objs_per_slab=$(cat "$ptl/objs_per_slab")"
else
	echo "mmscale: fact page->ptl: none (ptlocks embedded in struct ptdesc)"
fi

if [ -n "${MMSCALE_VMTESTS:-}" ]; then
	section "${MMSCALE_MM_SECTION:-mm}" run_in mm run_vmtests.sh -t "${MMSCALE_VMTESTS//,/ }"
fi
if [ "${MMSCALE_MEMCONTROL:-1}" = 1 ]; then
	section memcontrol run_in cgroup test_memcontrol
	section memcg-stock run_in cgroup test_memcg_stock
fi
cd /
