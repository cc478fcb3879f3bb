#!/usr/bin/env bash
# tests/jobs.t - make jobs: the 7.3 matrices as LKP job files and mmtests
# configs, checked against the formats as lkp-tests and mmtests define them
# (tests/data/formats/: each program's parameters, each driver and config
# variable, read from those repositories); bad input refused.
# Needs: python3 with PyYAML (python3-yaml, lab/stages/deps.sh), bash.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=python3
$py -c 'import yaml' 2> /dev/null || py=/usr/bin/python3

BASE=7.3 BUILD=$tmp/build "$TOP/lab/stages/jobs.sh" > "$tmp/o1" 2>&1
check "make jobs on 7.3: exit 0" test $? -eq 0
check "make jobs: every matrix of the line, and where they went" has "$tmp/o1" 'MATRIX=memcg: 2 LKP job files, 1 mmtests configs'
out=$(ls -d "$tmp"/build/jobs/*/ | head -n1)
check "make jobs: the memcg matrix's iperf3 pairs as netperf TCP_SENDFILE in K cgroups" test -s "$out/lkp/mmscale-7.3-memcg-netperf-cgroup2.yaml"

# every LKP file: YAML documents; the first a whole job (suite, testcase,
# category); every key a job key, a program of lkp-tests, or a role; every
# program's parameters its own; cg_count equals nr_instances
cat > "$tmp/lkp.py" <<'PY'
import sys, yaml
ref, bad = {}, []
for line in open(sys.argv[1]):
    f = line.split()
    if f and not f[0].startswith('#'):
        ref[f[0]] = set(f[1:])
def program(doc, where):
    for k, v in doc.items():
        if k in ref['job']:
            continue
        if k in ('if role server', 'if role client'):
            program(v or {}, where + ' ' + k)
        elif k in ref:
            extra = set(v or {}) - ref[k]
            if extra:
                bad.append('%s: %s takes no %s' % (where, k, ', '.join(sorted(extra))))
        else:
            bad.append('%s: %s is no lkp-tests program or job key' % (where, k))
for path in sys.argv[2:]:
    docs = list(yaml.safe_load_all(open(path)))
    first = docs[0]
    if first.get('category') != 'benchmark' or not first.get('suite') or not first.get('testcase'):
        bad.append('%s: the first document lacks suite, testcase or category: benchmark' % path)
    for i, d in enumerate(docs):
        program(d, '%s #%d' % (path, i))
        job = dict(first, **d)
        if 'cgroup2' in job and job['cgroup2'].get('cg_count') != job.get('nr_instances'):
            bad.append('%s #%d: cg_count is not nr_instances' % (path, i))
print('\n'.join(bad) or 'ok')
sys.exit(1 if bad else 0)
PY
$py "$tmp/lkp.py" "$TOP/tests/data/formats/lkp-tests.txt" "$out"/lkp/*.yaml > "$tmp/lkp.out" 2>&1
check "LKP files: lkp-tests' job shape, programs and parameters" has "$tmp/lkp.out" '^ok$'
# the check itself catches a parameter no program takes
sed 's/^  fds: 10/  fd: 10/' "$out/lkp/mmscale-7.3-slub-hackbench.yaml" > "$tmp/bad.yaml"
$py "$tmp/lkp.py" "$TOP/tests/data/formats/lkp-tests.txt" "$tmp/bad.yaml" > "$tmp/lkpbad.out" 2>&1
check "LKP check: a parameter hackbench does not take is caught" has "$tmp/lkpbad.out" 'hackbench takes no fd$'
check "LKP hackbench: lists where the plan is their whole product" \
	has "$out/lkp/mmscale-7.3-slub-hackbench.yaml" '^  mode: \[process, threads\]$'

# every mmtests config: sourced on a 64-CPU machine, it sets only the
# variables mmtests' configs set, and names only its drivers
n=0
bad=()
for c in "$out"/mmtests/config-*; do
	n=$((n + 1))
	vars=$(env -i NUM_LOGICAL_CPUS=64 bash -c 'set -e; source "$1"; export -p' sh "$c" | sed -n 's/^declare -x \([A-Z0-9_]*\)=.*/\1/p' | grep -vx -e NUM_LOGICAL_CPUS -e PWD -e SHLVL -e OLDPWD)
	for v in $vars; do grep -qx "var $v" "$TOP/tests/data/formats/mmtests.txt" || bad+=("$c: $v"); done
	for d in $(env -i bash -c 'source "$1"; echo "$MMTESTS"' sh "$c"); do
		grep -qx "driver $d" "$TOP/tests/data/formats/mmtests.txt" || bad+=("$c: driver $d")
	done
done
check "mmtests configs ($n): only mmtests' variables and drivers${bad:+ (not: ${bad[*]})}" test ${#bad[@]} = 0 -a $n -gt 0
check "mmtests hackbench: sized from the CPUs (64: 1 to 12 groups of 40 tasks)" \
	test "$(env -i NUM_LOGICAL_CPUS=64 bash -c 'source "$1"; echo $HACKBENCH_MIN_GROUPS $HACKBENCH_MAX_GROUPS' sh "$out/mmtests/config-mmscale-7.3-slub-hackbench")" = "1 12"
check "README: the items no engine has a program for, and why" \
	has "$out/README.memcg" '^  memcg-madvise-fault:32:nothp: upstream.s madvise\(DONTNEED\) loop'

BASE=7.3 BUILD=$tmp/build MATRIX=stock "$TOP/lab/stages/jobs.sh" > "$tmp/o2" 2>&1
check "MATRIX=stock on 7.3 is refused in one line" has "$tmp/o2" '^ERROR: .*MATRIX=stock has no fleet form on the 7\.3'
"$TOP/lab/py/jobs.py" --line 7.3 --matrix x --items nosuch:1 --out "$tmp" > "$tmp/o3" 2>&1
check "jobs.py: an unknown item is refused" has "$tmp/o3" "^ERROR: unknown item 'nosuch:1'$"
(cd "$TOP" && make -s jobs BASE=7.3 RUNS=2) > "$tmp/o4" 2>&1
check "make jobs: another target's knob is refused" has "$tmp/o4" 'RUNS is a knob of make bench, not of make jobs'
done_testing
