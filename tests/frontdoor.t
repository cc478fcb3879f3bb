#!/usr/bin/env bash
# tests/frontdoor.t - bad input at the front door (issue 18): for each kind
# of defect, a new input of that kind ends the target with one clear ERROR
# line and a non-zero exit, prints no traceback or shell error, and changes
# no file.  Kinds: 1 a wrong setting is refused before any long work; 2 a
# bad benchmark item is refused up front and a failing workload fails the
# target; 3 results are never lost or changed; 4 no traceback; 5 no
# misleading result; 6 a folder that is not a kernel tree is refused.
# Needs: bash, git, python3, make, gcc; root for the HOST=1 case;
# build/linux (make tree) for the report.py cut-log case (skipped without).
# Everything runs in a scratch BUILD; about 10 seconds.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD=$tmp/build
# a guard: should a check ever be missed, no stage can install or extract
# a kernel source (lab/stages/source.sh stops at once)
export APT_GET=/nonexistent/apt-get DEB_TARBALL=$tmp/no-such.tar.xz
data=$TOP/tests/data

# mk ARGS...: make in the checkout, quietly, output in $tmp/out
mk() { make -s -C "$TOP" "$@" > "$tmp/out" 2>&1; }
status0=$(git -C "$TOP" status --porcelain | md5sum)

# --- 1: a wrong setting starts no long job ---------------------------------
mk bench HOST=true
check "1: make bench HOST=true: exit 2" test $? -eq 2
check "1: ... one line: HOST takes 0 or 1" refused "$tmp/out" "^ERROR: stage bench: HOST must be '0' or '1', not 'true'$"
mk check BOOT_TIMEOUT=1h
check "1: make check BOOT_TIMEOUT=1h: exit 2, before the deps stage" test $? -eq 2
check "1: ... one line naming BOOT_TIMEOUT" refused "$tmp/out" "^ERROR: stage check: BOOT_TIMEOUT must be a whole number from 1 to 86400, not '1h'$"
mk bisect ACCEL=qemu
check "1: make bisect ACCEL=qemu: exit 2, before make tree" test $? -eq 2
check "1: ... one line naming ACCEL" refused "$tmp/out" "^ERROR: stage bisect: ACCEL must be 'auto', 'kvm' or 'tcg', not 'qemu'$"
mk docs DOCS_JOBS=all
check "1: make docs DOCS_JOBS=all: exit 2, before make tree" test $? -eq 2
check "1: ... one line naming DOCS_JOBS" refused "$tmp/out" "^ERROR: stage docs: DOCS_JOBS must be a whole number from 1 to 256, not 'all'$"
check "1: nothing was made" test ! -e "$BUILD"

# --- 2: a failed run does not exit 0 ---------------------------------------
BENCH=memcg-parallel-fault:5000 "$TOP/lab/stages/bench.sh" > "$tmp/out" 2>&1
check "2: BENCH=memcg-parallel-fault:5000: exit 1" test $? -eq 1
check "2: ... one line with the bound" refused "$tmp/out" "^ERROR: stage bench: BENCH item 'memcg-parallel-fault:5000': K \(memory cgroups\) must be 1\.\.1024, not '5000'$"
BENCH=hackbench:process:carrier-pigeon:2 "$TOP/lab/stages/bench.sh" > "$tmp/out" 2>&1
check "2: an unknown hackbench IPC is refused" refused "$tmp/out" "^ERROR: stage bench: BENCH item 'hackbench:process:carrier-pigeon:2': the IPC must be pipe or socket, not 'carrier-pigeon'$"
BENCH=iperf3-cgroup:4:0 "$TOP/lab/stages/bench.sh" > "$tmp/out" 2>&1
check "2: iperf3-cgroup with 0 MiB a pair is refused" refused "$tmp/out" "^ERROR: stage bench: BENCH item 'iperf3-cgroup:4:0': MIB must be 1\.\.65536, not '0'$"
BENCH=memcg-madvise-fault:0 "$TOP/lab/stages/bench.sh" > "$tmp/out" 2>&1
check "2: memcg-madvise-fault:0 is refused" refused "$tmp/out" "^ERROR: stage bench: BENCH item 'memcg-madvise-fault:0': K \(memory cgroups\) must be 1\.\.1024, not '0'$"
BENCH=sigqueue:0:8 "$TOP/lab/stages/ab.sh" "$tmp/none" "$tmp/none" > "$tmp/out" 2>&1
check "2: lab/stages/ab.sh BENCH=sigqueue:0:8 is refused too" refused "$tmp/out" "^ERROR: stage ab: BENCH item 'sigqueue:0:8': SIGNALS must be 1\.\.1048576, not '0'$"
check "2: nothing was made" test ! -e "$BUILD"
if [ "$(id -u)" = 0 ]; then
	# a workload that fails at run time (its tmpfs is missing)
	HOST=1 RUNS=1 SECONDS_PER=1 BENCH=shm-pread-seq-mt:1 MMSCALE_BENCH_TMP=$tmp/no-tmpfs \
		MMSCALE_KPROBES=no_such_function_xyz "$TOP/lab/stages/bench.sh" > "$tmp/out" 2>&1
	check "2: HOST=1 with a failing workload: exit 1" test $? -eq 1
	check "2: ... the error names the item and its log" has "$tmp/out" \
		"^ERROR: stage bench: item shm-pread-seq-mt:1 \(shm-pread-seq-mt@threads=1\) failed in host run 1: shm_pread failed: .*\(log: $BUILD/results/[0-9-]*-host/host-1\.log\); every run is kept in "
	check "2: ... and the run is kept" test -s "$(ls -d "$BUILD"/results/*-host | head -n1)/results.json"
else
	_n=$((_n + 1)); echo "ok $_n - 2: HOST=1 with a failing workload # SKIP needs root"
fi
# the QEMU path of make bench (lab/stages/ab.sh), with a stand-in for QEMU on PATH
# that prints a benchmark boot whose second item failed
mkdir -p "$tmp/fq"
cat > "$tmp/fq/qemu-system-x86_64" <<'EOF'
#!/bin/sh
printf '%s\n' "mmscale: uname 6.12.117 #1 cpus=2" \
	"mmscale: metric page_fault3-threads@tasks=1 will-it-scale.1.threads 1000" \
	"mmscale: ops page_fault3-threads@tasks=1 5000" \
	"mmscale: error page_fault3-threads@tasks=2 page_fault failed: boom [item page_fault3:threads:2]" \
	"mmscale: bench done" "mmscale: poweroff"
EOF
chmod +x "$tmp/fq/qemu-system-x86_64"
echo "a kernel" > "$tmp/fq/bzImage"
rm -rf "$BUILD"
for i in 1 2; do
	PATH=$tmp/fq:$PATH ACCEL=tcg RUNS=1 BENCH=page_fault3:threads:1,page_fault3:threads:2 \
		"$TOP/lab/stages/ab.sh" "$tmp/fq/bzImage" "$tmp/fq/bzImage" > "$tmp/ab$i.out" 2>&1
	echo $? >> "$tmp/ab.rc"
done
check "2: lab/stages/ab.sh with a failed workload: exit 1" test "$(cat "$tmp/ab.rc")" = "$(printf '1\n1')"
check "2: ... the error names the item and its log" has "$tmp/ab1.out" \
	"^ERROR: stage ab: item page_fault3:threads:2 \(page_fault3-threads@tasks=2\) failed in base run 1: page_fault failed: boom \(log: $BUILD/results/[0-9-]*/base-1\.log\); 1 more failure\(s\); every run is kept in "
check "3: two lab/stages/ab.sh runs, one after the other: two results folders" \
	test "$(ls "$BUILD"/results/*/results.json | wc -l)" = 2
rm -rf "$BUILD"
# three sides round robin (make bench MATRIX=stock), and under multi-threaded
# TCG a boot that stops with the known int3 oops is retried once: the
# stand-in's first boot prints that oops and no "guest up"
mkdir -p "$tmp/fm"
cat > "$tmp/fm/qemu-system-x86_64" <<EOF
#!/bin/sh
n=\$(cat "$tmp/fm/n" 2>/dev/null || echo 0); echo \$((n + 1)) > "$tmp/fm/n"
echo "qemu \$*" >> "$tmp/fm/args"
if [ "\$n" = 0 ]; then
	printf '%s\\n' "int3: 0000 [#1] PREEMPT SMP" "RIP: 0010:sched_clock_cpu+0x10/0x1e0"
	exit 1
fi
printf '%s\\n' "mmscale: guest up" "mmscale: uname 6.12.117 #1 cpus=4" \\
	"mmscale: metric page_fault3-threads@tasks=1 will-it-scale.1.threads 1000" \\
	"mmscale: ops page_fault3-threads@tasks=1 5000" "mmscale: bench done" "mmscale: poweroff"
EOF
chmod +x "$tmp/fm/qemu-system-x86_64"
PATH=$tmp/fm:$PATH ACCEL=mttcg VCPUS=4 RUNS=1 BENCH=page_fault3:threads:1 \
	SIDES="one=$tmp/fq/bzImage two=$tmp/fq/bzImage@memcg_stock_evict=random three=$tmp/fq/bzImage" \
	"$TOP/lab/stages/ab.sh" > "$tmp/sides.out" 2>&1
check "2: lab/stages/ab.sh SIDES under ACCEL=mttcg: exit 0" test $? -eq 0
check "2: ... the oopsed boot is retried and said" has "$tmp/sides.out" 'RETRY: run 1/1: one stopped before userspace with the known multi-threaded TCG oops'
check "2: ... the retries are counted" has "$tmp/sides.out" 'multi-threaded TCG: 1 boot\(s\) retried'
check "2: ... four boots, in side order, multi-threaded, pci=noacpi" \
	test "$(grep -c -- '-accel tcg,thread=multi .*pci=noacpi' "$tmp/fm/args")" = 4
check "2: ... a side's command line reaches its boot" has "$tmp/fm/args" 'memcg_stock_evict=random'
check "2: ... the matrix report has a column per side" has "$tmp/sides.out" '^workload +one +two +three +one>two +one>three $'
check "2: ... the report says multi-threaded TCG and the retry" \
	has "$tmp/sides.out" '^#   all.retries: 1 boot\(s\) retried'
rm -rf "$BUILD"

# --- 3: results are never lost or changed -----------------------------------
mkdir -p "$tmp/res"
echo "an earlier run's console" > "$tmp/res/console.log"
echo "not a kernel" > "$tmp/res/bzImage"
before=$(snap "$tmp/res")
ACCEL=tcg "$TOP/lab/stages/boot.sh" -k "$tmp/res/bzImage" -l "$tmp/res/console.log" -t soon > "$tmp/out" 2>&1
check "3: boot.sh -t soon: exit 1" test $? -eq 1
check "3: ... one line naming -t" refused "$tmp/out" "^ERROR: stage boot: -t takes seconds from 1 to 86400, not 'soon'$"
ACCEL=tcg "$TOP/lab/stages/boot.sh" -k "$tmp/res/bzImage" -l "$tmp/res/console.log" -c 3 -n 2 > "$tmp/out" 2>&1
check "3: boot.sh -c 3 -n 2 is refused" refused "$tmp/out" '^ERROR: stage boot: vCPUs must be a multiple of the NUMA nodes \(3 vCPUs, 2 nodes\)$'
check "3: ... and the existing console log is as it was" test "$(snap "$tmp/res")" = "$before"

# two saved HOST=1 results, as make bench HOST=1 leaves them
mkdir -p "$tmp/r/a" "$tmp/r/b"
"$TOP/lab/py/compare.py" collect --out "$tmp/r/a/results.json" --accel host \
	host:1:$data/bench/base-1.log: host:2:$data/bench/base-2.log: > /dev/null
"$TOP/lab/py/compare.py" collect --out "$tmp/r/b/results.json" --accel host \
	host:1:$data/bench/head-1.log: host:2:$data/bench/head-2.log: > /dev/null
before=$(snap "$tmp/r")
mk compare A="$tmp/r/a" B="$tmp/r/b" && mk compare A="$tmp/r/a" B="$tmp/r/b"
check "3: make compare twice: exit 0" test $? -eq 0
check "3: ... two output folders under build/compare, each with its table" \
	test "$(ls "$BUILD"/compare/*/compare.txt | wc -l)" = 2
check "3: ... and the saved results are as they were" test "$(snap "$tmp/r")" = "$before"
"$TOP/lab/py/compare.py" collect --out "$tmp/r/a/results.json" --accel host host:1:$data/bench/head-1.log: > "$tmp/out" 2>&1
check "3: collect over saved results: exit 2" test $? -eq 2
check "3: ... one line, nothing overwritten" refused "$tmp/out" "^ERROR: --out $tmp/r/a/results.json exists; saved results are never overwritten$"
OUT=$tmp/r/b "$TOP/lab/stages/ab.sh" "$tmp/res/bzImage" "$tmp/res/bzImage" > "$tmp/out" 2>&1
check "3: lab/stages/ab.sh OUT=<saved results> is refused" refused "$tmp/out" "^ERROR: stage ab: OUT=$tmp/r/b already holds results \(results.json\); results are never overwritten: choose another OUT$"
check "3: ... and the saved results are as they were" test "$(snap "$tmp/r")" = "$before"
check "3: two results folders of the same second are two folders" \
	bash -c "source '$TOP/lab/lib/common.sh'; a=\$(new_dir '$tmp/same'); b=\$(new_dir '$tmp/same'); [ \"\$a\" = '$tmp/same' ] && [ \"\$b\" = '$tmp/same-2' ]"

# a build/linux with a commit that is not in patches/ (a one-topic series)
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
mkdir -p "$BUILD/linux" "$tmp/patches/demo"
printf 'demo\n' > "$tmp/patches/series"
: > "$tmp/patches/demo/series"
(
	cd "$BUILD/linux" && git init -q -b mmscale && echo base > F && git add F && git commit -q -m base &&
	git tag mmscale/base && echo work >> F && git commit -q -am 'demo: unexported work' &&
	git notes --ref=refs/notes/mmscale-topic add -m 'topic: demo' HEAD
) || echo "# could not make the scratch tree" >&2
# the marker the lab's stages write into a BUILD they make (lab/lib/common.sh
# build_mark): make clean deletes no other folder but the checkout's build/
echo "made by the mmscale lab" > "$BUILD/.mmscale-build"
before=$(snap "$BUILD")
PATCHES=$tmp/patches mk clean
check "3: make clean over unexported work: exit 2" test $? -eq 2
check "3: ... one line naming the commit and FORCE=1" refused "$tmp/out" \
	"^ERROR: stage clean: $BUILD/linux has commits that are not in patches/ \(make export would add $tmp/patches/demo/0001-demo-unexported-work.patch\); run 'make export' first, or FORCE=1 make clean to delete that work with $BUILD$"
grep -qF "delete that work with $BUILD" "$tmp/out"
clean_is_scratch=$?
check "3: ... and nothing was deleted or changed" test "$(snap "$BUILD")" = "$before"

# --- 6 (before 3's FORCE=1 clean): the source changed under that tree ------
# a later point release of the line's kernel (6.12.200, 7.3.200)
mkdir -p "$tmp/k612/mm"
printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 200\n' "${_line%.*}" "${_line#*.}" > "$tmp/k612/Makefile"
: > "$tmp/k612/Kconfig"
PATCHES=$tmp/patches LINUX_SRC=$tmp/k612 "$TOP/lab/stages/source.sh" > "$tmp/out" 2>&1
check "6: a new LINUX_SRC over unexported work: exit 1" test $? -eq 1
check "6: ... the advice says FORCE=1 deletes that work" refused "$tmp/out" \
	"^ERROR: stage source: the source changed \(dir:$tmp/k612@[0-9]+\), and $BUILD/linux, made from the old one, holds work that is not in patches/: .*demo/0001-demo-unexported-work.patch.*'FORCE=1 make source' deletes that work with $BUILD/linux$"
check "6: ... and nothing was changed" test "$(snap "$BUILD")" = "$before"

# only where make clean named the scratch BUILD above: never the checkout's
if [ "$clean_is_scratch" = 0 ]; then
	PATCHES=$tmp/patches FORCE=1 mk clean
	check "3: FORCE=1 make clean deletes it" test ! -e "$BUILD"
fi

# --- 4: no traceback ----------------------------------------------------------
mkdir -p "$tmp/bad"
echo '{"runs": 3}' > "$tmp/bad/results.json"
mk compare A="$tmp/bad" B="$tmp/r/b"
check "4: make compare A=<results.json without runs>: exit 2" test $? -eq 2
check "4: ... one ERROR line naming it" refused "$tmp/out" "^ERROR: $tmp/bad/results.json is not a results file of lab/py/compare.py collect \(no list of runs\)$"
check "4: ... and no output folder" test ! -e "$BUILD/compare"
head -c 100 /bin/sh > "$tmp/bad/binary.json"
"$TOP/lab/py/compare.py" sweep "$tmp/bad/binary.json" > "$tmp/out" 2>&1
check "4: compare.py sweep <binary file>: exit 2" test $? -eq 2
check "4: ... one ERROR line" refused "$tmp/out" "^ERROR: $tmp/bad/binary.json is not a results file: not valid JSON"
"$TOP/lab/py/compare.py" report "$tmp/r/a" "$tmp/r/b" --keys '*free' > "$tmp/out" 2>&1
check "4: compare.py --keys '*free' (not a regex) is one ERROR line" refused "$tmp/out" '^ERROR: --keys \*free is not a regular expression: '
mk compare A="$tmp/r/a/results.json" B="$tmp/r/b/results.json"
check "4: make compare A=<file>.json B=<file>.json works" has "$tmp/out" 'will-it-scale\.2\.threads$'
check "4: ... and writes its own folder" test -s "$(ls "$BUILD"/compare/*/compare.txt | head -n1)"
before=$(snap "$tmp/r")$(snap "$tmp/res")
"$TOP/lab/py/report.py" --console "$tmp/r" --ksrc "$tmp" --out "$tmp/rep" > "$tmp/out" 2>&1
check "4: report.py --console <a folder>: exit 2" test $? -eq 2
check "4: ... one ERROR line naming it" refused "$tmp/out" "^ERROR: --console $tmp/r is not a file$"
"$TOP/lab/py/report.py" --console "$data/pass.log" --ksrc "$tmp" --out "$tmp/res/console.log/sub" > "$tmp/out" 2>&1
check "4: report.py --out under a file: one ERROR line" refused "$tmp/out" "^ERROR: --out $tmp/res/console.log/sub: $tmp/res/console.log is a file, not a folder$"
"$TOP/lab/py/report.py" --console "$data/pass.log" --ksrc "$tmp/nowhere" --out "$tmp/rep" > "$tmp/out" 2>&1
check "4: report.py --ksrc without kunit.py: one ERROR line" refused "$tmp/out" "^ERROR: --ksrc $tmp/nowhere is not a kernel tree with tools/testing/kunit/kunit.py"
check "4: ... and nothing was written" test "$(snap "$tmp/r")$(snap "$tmp/res")" = "$before" -a ! -e "$tmp/rep"

# --- 5: no misleading result --------------------------------------------------
cp -a "$tmp/r/a" "$tmp/r/a-copy"
mk compare A="$tmp/r/a" B="$tmp/r/a-copy"
check "5: make compare of a folder with its copy: exit 2" test $? -eq 2
check "5: ... says it would be +0.0% everywhere" refused "$tmp/out" "^ERROR: A and B give the same runs \($tmp/r/a/results.json host runs\): every row would be \+0\.0%; give B=<another results folder>$"
# KVM base runs of 6.12 against bare-metal head runs of a 6.1 kernel
sed 's/^mmscale: uname 6\.12\.117-head/mmscale: uname 6.1.0-28-amd64/' "$data/bench/head-1.log" > "$tmp/h61.log"
"$TOP/lab/py/compare.py" collect --out "$tmp/kvm.json" --accel kvm base:1:$data/bench/base-1.log: \
	base:2:$data/bench/base-2.log: > /dev/null
"$TOP/lab/py/compare.py" collect --out "$tmp/h61.json" --accel host host:1:$tmp/h61.log: > /dev/null
"$TOP/lab/py/compare.py" report "$tmp/kvm.json" "$tmp/h61.json" > "$tmp/out" 2> "$tmp/err"
check "5: mixed KVM and bare metal: the table says so" has "$tmp/out" '^# WARNING: base was measured on QEMU KVM, head on bare metal \(HOST=1\)'
check "5: ... and so does stderr" has "$tmp/err" '^WARNING: base was measured on QEMU KVM, head on bare metal'
check "5: mixed kernel versions are called out" has "$tmp/out" '^# WARNING: base is Linux 6\.12, head is Linux 6\.1: the change is more than the series$'
if [ -x "$LB/linux/tools/testing/kunit/kunit.py" ]; then
	# a console log cut inside the second KUnit suite, after a real failure
	head -n 16 "$data/kunit-fail.log" > "$tmp/cut.log"
	"$TOP/lab/py/report.py" --console "$tmp/cut.log" --ksrc "$LB/linux" --out "$tmp/cut" \
		--expect kunit,mm > "$tmp/out" 2>&1
	check "5: a log cut inside KUnit: exit 1" test $? -eq 1
	check "5: ... is an incomplete run naming the suite" has "$tmp/out" \
		'FAILED  incomplete run: the console log stops inside KUnit suite "slub_test" \(1 of 2 suites finished before it\)'
	check "5: ... the real failure before the cut still counts" has "$tmp/out" 'FAILED  kunit:list-kunit-test: list_test_list_add'
	check "5: ... no failure without a name" bash -c "! grep -qE 'FAILED  kunit:[^:]*: *\$' '$tmp/out'"
	check "5: ... two failures in all" test "$(tail -n1 "$tmp/out")" = "1 passed, 2 failed, 0 skipped"
else
	_n=$((_n + 1)); echo "ok $_n - 5: a log cut inside KUnit # SKIP no build/linux (make tree)"
fi

# --- 6: a folder that is not a kernel tree -----------------------------------
rm -rf "$BUILD"
mkdir -p "$tmp/notkernel"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\nall:\n\ttrue\n' > "$tmp/notkernel/Makefile"
LINUX_SRC=$tmp/notkernel mk source
check "6: make source LINUX_SRC=<a 6.12 Makefile alone>: exit 2" test $? -eq 2
check "6: ... one line" refused "$tmp/out" "^ERROR: stage source: LINUX_SRC=$tmp/notkernel: $tmp/notkernel is not a Linux source tree \(no VERSION and PATCHLEVEL in its Makefile, or no Kconfig or mm/\)$"
LINUX_SRC=$tmp/notkernel mk run
check "6: make run refuses it before the deps stage" refused "$tmp/out" "^ERROR: stage run: LINUX_SRC=$tmp/notkernel: $tmp/notkernel is not a Linux source tree"
mkdir -p "$tmp/onlymakefile"
echo 'all:' > "$tmp/onlymakefile/Makefile"
KSRC=$tmp/onlymakefile "$TOP/lab/stages/build.sh" vm > "$tmp/out" 2>&1
check "6: lab/stages/build.sh KSRC=<any Makefile>: exit 1" test $? -eq 1
check "6: ... one line" refused "$tmp/out" "^ERROR: stage build vm: KSRC: $tmp/onlymakefile is not a Linux source tree"
check "6: nothing was made" test ! -e "$BUILD"

check "the checkout itself is unchanged" test "$(git -C "$TOP" status --porcelain | md5sum)" = "$status0"
done_testing
