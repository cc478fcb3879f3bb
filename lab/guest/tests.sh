# lab/guest/tests.sh - the test plan sourced by lab/guest/init.sh in the guest.
#
# What it does: runs the in-tree mm selftests (run_vmtests.sh, categories
# from MMSCALE_VMTESTS, comma separated), cgroup's test_memcontrol,
# test_memcg_stock (the series' charge stock checks) and test_kmem (kernel
# memory accounting, run with "/" on the ext4 scratch disk, see
# kmem_in_ext4_root), each as one section, from a copy (on the scratch
# disk) of the kselftest install tree
# MMSCALE_KST built on the host from the same kernel tree.  KUnit already ran
# during boot.  A missing binary is reported as a failed section.
# MMSCALE_MM_SECTION renames the mm section (e.g. for the slab_debug boot);
# MMSCALE_CGROUP names the cgroup sections to run, comma separated, of
# memcontrol, memcg-stock and kmem (default: all three; "none": none);
# MMSCALE_MEMCONTROL=0 (older command lines) is "none" too.
# MMSCALE_RERUN ("section:case,...", lab/py/report.py --rerun-cases LINE):
# cases known to fail now and then on the line's base; when one of them
# failed, its section runs once more, as section "<section>-rerun", which
# lab/py/report.py reads for that case only.
# MMSCALE_BOOTPARAMS=1 (with MMSCALE_LAB, the host's lab/ folder) adds the
# section boot-params: lab/guest/bootparams.sh, the series' boot parameters,
# sysctl and sysfs files given bad values.
# What it needs: the helpers of lab/guest/init.sh; bash on the host root.

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

# kmem_in_ext4_root: run cgroup/test_kmem with "/" on the ext4 scratch
# disk.  Its test_kmem_basic stat()s 100000 missing names in "/" and needs
# the negative dentries to stay cached and charged; the guest's root is 9p,
# which drops them at once (so does tmpfs), and 6.12 fails the case there
# with 1680 bytes of slab where it wants 1 MiB.  The chroot sees the host's
# /usr (the libraries), /proc, /sys (cgroup v2) and /dev.
kmem_in_ext4_root() {
	local r=/mnt/kmem-root l rc=0
	if ! mountpoint -q /mnt; then
		echo "mmscale: error: test_kmem needs the ext4 scratch disk on /mnt"
		return 1
	fi
	if [ ! -x "$kst_copy/cgroup/test_kmem" ]; then
		echo "mmscale: error: selftest binary cgroup/test_kmem is missing"
		return 127
	fi
	mkdir -p "$r/usr" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
	for l in bin sbin lib lib64; do
		[ -L "/$l" ] && ln -sfn "$(readlink "/$l")" "$r/$l"
	done
	mount --bind /usr "$r/usr" && mount -t proc proc "$r/proc" &&
		mount --rbind /sys "$r/sys" && mount --rbind /dev "$r/dev" || {
		echo "mmscale: error: could not set up the ext4 root for test_kmem"
		return 1
	}
	cp "$kst_copy/cgroup/test_kmem" "$r/tmp/"
	# line-buffered, so output of forked test children is not duplicated
	stdbuf -oL -eL chroot "$r" /tmp/test_kmem || rc=$?
	umount -R "$r/dev" "$r/sys" "$r/proc" "$r/usr"
	return $rc
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
	SECTION_TIMEOUT=2100 section "${MMSCALE_MM_SECTION:-mm}" run_in mm run_vmtests.sh -t "${MMSCALE_VMTESTS//,/ }"
fi
if [ "${MMSCALE_BOOTPARAMS:-0}" = 1 ]; then
	SECTION_TIMEOUT=600 section boot-params bash "$(hostpath "$MMSCALE_LAB")/guest/bootparams.sh"
fi
# rerun_flaky NAME CMD...: run section NAME again, as NAME-rerun, when a
# case MMSCALE_RERUN names for it failed in its first run
rerun_flaky() {
	local name=$1 item case
	shift
	for item in $(echo "${MMSCALE_RERUN:-}" | tr , ' '); do
		[ "${item%%:*}" = "$name" ] || continue
		case=${item#*:}
		grep -qE "^not ok [0-9]+ (- )?$case\$" "/tmp/section-$name.out" 2>/dev/null || continue
		echo "mmscale: $name: $case failed; it fails now and then on the base: the section runs once more, as $name-rerun"
		SECTION_TIMEOUT=600 section "$name-rerun" "$@"
		return
	done
}

cgroup_sections=${MMSCALE_CGROUP:-memcontrol,memcg-stock,kmem}
[ "${MMSCALE_MEMCONTROL:-1}" = 1 ] || cgroup_sections=none
for c in $(echo "$cgroup_sections" | tr , ' '); do
	case $c in
	none) ;;
	memcontrol)
		SECTION_TIMEOUT=600 section memcontrol run_in cgroup test_memcontrol
		rerun_flaky memcontrol run_in cgroup test_memcontrol
		;;
	memcg-stock) SECTION_TIMEOUT=600 section memcg-stock run_in cgroup test_memcg_stock ;;
	kmem) SECTION_TIMEOUT=600 section kmem kmem_in_ext4_root ;;
	*) echo "mmscale: error: MMSCALE_CGROUP: no cgroup section '$c' (memcontrol, memcg-stock, kmem)" ;;
	esac
done
cd /
