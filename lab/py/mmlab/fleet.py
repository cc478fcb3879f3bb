# SPDX-License-Identifier: GPL-2.0
"""mmlab.fleet - results of other benchmark harnesses for lab/py/compare.py
report: an LKP (lkp-tests) result folder and an mmtests log folder, read
into a doc shaped like compare.py collect's results.json, runs of side
"host" keyed by the kernel release each ran ("uname").

  detect(path)        'lkp', 'mmtests' or None
  load_lkp(path), load_mmtests(path)
      the doc; bad input (no expected file, a number that does not read)
      raises refused (compare.py passes its Refused) with one sentence
      naming the file.

LKP (intel/lkp-tests).  path is one result root (a folder with job.yaml and
stats.json) or any folder above result roots: each folder below it named
by a number (lkp-tests keeps the runs of a job as .../<commit>/0, 1, 2 ...,
lib/result.rb ResultPath) that holds job.yaml or stats.json.  Each result
root is one run (one boot, one job) with one workload.  Read:
  job.yaml    by indentation, no YAML library (lib/job.rb writes it):
              testcase; kernel (/pkg/linux/.../vmlinuz-REL: the release
              REL), else commit (which lkp run, bin/run-local, sets to
              uname -r); testbox, nr_cpu, brand (the CPU model, hosts/)
              for the machine; the program's parameters (the mapping
              named by testcase, at the top or under "if role client").
  stats.json  a flat object "program.metric": number (lib/matrix.rb
              create_stats_matrix): the testcase's keys are the metrics
              (will-it-scale.per_thread_ops, hackbench.throughput,
              iperf.tcp.sender.bps ...), proc-vmstat.* (a delta over the
              run) the counters; others are not read.  A run without a
              testcase key is a workload error.
  Workload: TESTCASE-V1-V2...-K1=N1@K2=N2: V the values of the program's
  parameters in the order of their names, as lkp-tests' own result path
  names them (Job#path_params); K=N the job's task counts of nr_task,
  nr_threads, nr_instances, the last one present after "@" as the sweep
  parameter: will-it-scale-thread-page_fault2@nr_task=100%,
  hackbench-pipe-process@nr_threads=100%, iperf-tcp,
  netperf-10K-TCP_SENDFILE-nr_threads=1@nr_instances=4.  Jobs that differ
  only in other keys (runtime, cgroup2, ...) share a name: give A and B
  the folders of the same jobs.
  LKP records no operation count (ops is None), so report's counters per
  1000 operations leave the proc-vmstat counters out.

mmtests (gormanm/mmtests).  path is work/log/RUNNAME (run-mmtests.sh),
its iterations iter-0, iter-1 ... each with the logs of every test under
<test>/logs/ (bin/run-single-test.sh).  Read, per iteration:
  kernel.version   uname -a (collect_kernel_info, shellpacks/common.sh):
                   the hostname and the release
  tests-activity   an iteration without "run-mmtests: Iteration N end"
                   failed; a "test end :: TEST TIME CODE" with CODE not 0
                   is an error of TEST's workloads (run-mmtests.sh)
  lscpu.txt[.gz]   CPU(s) and Model name (collect_hardware_info)
  hackbench-*/logs/hackbench-GROUPS: every "Total time:" line, its third
      field, seconds (shellpack_src/src/hackbench/parse-results): workload
      TEST@groups=GROUPS, metric hackbench.time_s (lower is better)
  wis-*/logs/benchlog-WORKLOAD_MODEL-TASKS: every "total:" line, its third
      field less "total:", operations a second of all tasks
      (shellpack_src/src/wis/parse-results, shellpack_src/parsers/
      line-parse-results): TEST-WORKLOAD-MODEL@tasks=TASKS, metric
      will-it-scale.ops
  iperf3-*/logs/PROTO-SIZE-RATE-STREAMS.N: after "Summary Results:", the
      fifth column (Mbits/sec, iperf3 -f m) of the sender and of the
      receiver lines, summed over the streams (shellpack_src/src/iperf3/
      extract-report.pl): TEST-lSIZE-bRATE@streams=STREAMS (iperf3's -l
      and -b), metrics iperf3.sender.Gbit_per_s, iperf3.receiver.Gbit_per_s
  Other tests are not read (listed as host.not_read).  With two or more
  iterations a run is an iteration and a metric its samples' mean; with
  one, a run is the k-th sample of each workload (hackbench's iterations,
  will-it-scale's seconds, iperf3's files).  mmtests' /proc/vmstat
  snapshots (tests-sysstate) are not read: no counters.

What it needs: python3.  It writes nothing.
"""
import gzip
import os
import re
import statistics

from .cli import Refused, read_json
from .records import Run, Workload

# a result root is at most this deep below the folder given: /result/
# TESTCASE/PARAMS/BOX/ROOTFS/KCONFIG/COMPILER/COMMIT/N (lib/result.rb)
LKP_DEPTH = 9
ITER = re.compile(r'^iter-(\d+)$')


def run(n, log, uname, workloads, failed=None):
    """A run of side "host" as a results.json run: workloads are Workload
    records, uname the release it ran (None when unknown)."""
    return Run(side='host', run=n, log=log, uname=uname, failed=failed, done=failed is None,
               workloads=workloads).to_json()


def doc_of(harness, machine, meta, runs):
    where = '%s on %s: %s CPUs, %s' % (harness, machine['hostname'], machine['cpus'], machine['cpu'])
    return {'format': 1, 'accel': 'host', 'where': where, 'command': '', 'machine': machine,
            'meta': meta, 'runs': runs}


def read_lines(path):
    """A text file's lines, gzip'ed or not (mmtests compresses some)."""
    try:
        with (gzip.open(path, 'rt', errors='replace') if path.endswith('.gz')
              else open(path, errors='replace')) as f:
            return f.read().splitlines()
    except (OSError, EOFError) as e:
        raise Refused('%s: cannot read it: %s' % (path, getattr(e, 'strerror', None) or e))


def number(text, path, what):
    try:
        return float(text)
    except (TypeError, ValueError):
        raise Refused('%s: %s is not a number: %r' % (path, what, text))


def below(path, log):
    """log's name from the folder above path (FOLDER/iter-0): compare.py
    check joins it to the folder of doc['path'], path's parent."""
    return os.path.join(os.path.basename(os.path.abspath(path)), os.path.relpath(log, path))


def is_lkp_root(d):
    return os.path.isfile(os.path.join(d, 'job.yaml')) or os.path.isfile(os.path.join(d, 'stats.json'))


def lkp_roots(path):
    """path itself when it is a result root, else the result roots below it."""
    if is_lkp_root(path):
        return [path]
    roots = []
    for d, subs, _ in os.walk(path):
        if os.path.basename(d).isdigit() and is_lkp_root(d):
            roots.append(d)
            subs[:] = []
        elif os.path.relpath(d, path).count(os.sep) >= LKP_DEPTH:
            subs[:] = []
    return sorted(roots, key=lambda d: (os.path.dirname(d), int(os.path.basename(d))))


def mm_iterations(path):
    try:
        names = os.listdir(path)
    except OSError:
        return []
    return sorted((int(m.group(1)), n) for n in names
                  for m in [ITER.match(n)] if m and os.path.isdir(os.path.join(path, n)))


def detect(path):
    """Which foreign format the folder path is, or None."""
    if not os.path.isdir(path):
        return None
    if mm_iterations(path):
        return 'mmtests'
    return 'lkp' if lkp_roots(path) else None


def job_yaml(path):
    """job.yaml as nested dicts of text, by indentation: all this needs of
    YAML (lists and block texts are left out)."""
    job = {}
    stack, skip = [(-1, job)], None
    for line in read_lines(path):
        text, indent = line.strip(), len(line) - len(line.lstrip())
        if skip is not None and (indent > skip or not text):
            continue
        skip = None
        key, sep, value = text.partition(':')
        if not text or text.startswith(('#', '-')) or not sep:
            continue
        while indent <= stack[-1][0]:
            stack.pop()
        key, value = key.strip('"\''), value.strip().strip('"\'')
        stack[-1][1][key] = value or {}
        if not value:
            stack.append((indent, stack[-1][1][key]))
        elif value[0] in '|>':
            skip = indent
    return job


def scalar(job, key):
    """A scalar of job.yaml, None when absent or empty."""
    v = job.get(key)
    return v if isinstance(v, str) and v else None


# the job's task counts; the last one present is the sweep parameter
COUNTS = ('nr_task', 'nr_threads', 'nr_instances')


def lkp_name(job, testcase):
    """TESTCASE-V1-V2...@nr_task=N: see the docstring."""
    params = {}
    for where in (job, job.get('if role client')):
        if isinstance(where, dict) and isinstance(where.get(testcase), dict):
            params = where[testcase]
    values = [params[k] for k in sorted(params) if isinstance(params[k], str) and params[k]]
    counts = ['%s=%s' % (k, job[k]) for k in COUNTS if scalar(job, k)]
    return '-'.join([testcase] + values + counts[:-1]) + ('@' + counts[-1] if counts else '')


def lkp_release(job):
    """REL of kernel: /pkg/linux/.../vmlinuz-REL, else the commit (which
    lkp run, bin/run-local, sets to uname -r)."""
    kernel = scalar(job, 'kernel') or ''
    return kernel.rpartition('vmlinuz-')[2] if 'vmlinuz-' in kernel else scalar(job, 'commit')


def load_lkp(path):
    """An LKP result root, or a folder of them, as a compare.py doc."""
    roots = lkp_roots(path)
    if not roots:
        raise Refused('%s holds no LKP result root (a folder with job.yaml and stats.json)' % path)
    runs, boxes, jobs, commits = [], set(), set(), set()
    for i, rt in enumerate(roots, 1):
        jpath, spath = os.path.join(rt, 'job.yaml'), os.path.join(rt, 'stats.json')
        job = job_yaml(jpath)
        stats = read_json(spath, '%s is not valid JSON (garbled or cut short?): %s')
        if not isinstance(stats, dict):
            raise Refused('%s is not an object of "program.metric": number' % spath)
        testcase = scalar(job, 'testcase')
        if not testcase:
            raise Refused('%s names no testcase' % jpath)
        w = Workload()
        for k, v in sorted(stats.items()):
            if k.startswith(testcase + '.') or k.startswith('proc-vmstat.'):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise Refused('%s: "%s" is not a number: %r' % (spath, k, v))
                (w.metrics if k.startswith(testcase + '.') else w.counters)[k] = float(v)
        if not w.metrics:
            w.errors.append('no %s.* result in stats.json' % testcase)
        runs.append(run(i, below(path, spath), lkp_release(job), {lkp_name(job, testcase): w}))
        jobs.add(testcase)
        commits.add(scalar(job, 'commit') or '?')
        boxes.add((scalar(job, 'testbox') or '?', scalar(job, 'nr_cpu') or '?',
                   scalar(job, 'brand') or scalar(job, 'model') or '?'))
    if len(boxes) > 1:
        raise Refused('%s holds runs of %d test boxes (%s): give the folder of one'
                      % (path, len(boxes), ', '.join(sorted(b[0] for b in boxes))))
    box, cpus, cpu = boxes.pop()
    return doc_of('LKP (lkp-tests)',
                  {'hostname': box, 'cpus': int(cpus) if cpus.isdigit() else cpus, 'cpu': cpu},
                  {'host.kernel': ' '.join(sorted({r.get('uname') or '?' for r in runs})),
                   'host.commit': ' '.join(sorted(commits)), 'host.side': 'LKP jobs %s' % ', '.join(sorted(jobs))},
                  runs)


def samples(path, pattern, field):
    """Field FIELD (1-based) of each line of path that contains pattern."""
    out = []
    for n, line in enumerate(read_lines(path), 1):
        if pattern in line:
            f = line.split()
            text = f[field - 1] if len(f) >= field else None
            out.append(number(text and text.replace(pattern, ''), path, 'line %d' % n))
    return out


def iperf3_summary(path, streams):
    """Sender and receiver Gbit/s of an iperf3 -V log, each summed over the
    streams: the 2 * streams "[ ID] ..." lines after "Summary Results:"."""
    left, got = 0, {'iperf3.sender.Gbit_per_s': [0.0], 'iperf3.receiver.Gbit_per_s': [0.0]}
    for n, line in enumerate(read_lines(path), 1):
        m = re.match(r'^\[ *\d+\] +(.*(sender|receiver).*)$', line)
        if 'Summary Results:' in line:
            left = 2 * streams
        elif left and m:
            f = m.group(1).split()
            got['iperf3.%s.Gbit_per_s' % m.group(2)][0] += number(
                f[4] if len(f) > 4 else None, path, 'line %d' % n) / 1000
            left -= 1
            if not left:
                return got
    return {}


HACKBENCH = re.compile(r'^hackbench-(\d+)(\.gz)?$')
WIS = re.compile(r'^benchlog-(.+)_([a-z]+)-(\d+)(\.gz)?$')
IPERF3 = re.compile(r'^[a-z]+-([^-]+)-([^-]+)-(\d+)\.\d+(\.gz)?$')
MM_TESTS = ('hackbench-', 'wis-', 'iperf3-')


def mm_log(test, logs, f):
    """Log f of test: (workload, {metric: [samples]}), or None."""
    p = os.path.join(logs, f)
    m = HACKBENCH.match(f)
    if test.startswith('hackbench-') and m:
        return '%s@groups=%s' % (test, m.group(1)), {'hackbench.time_s': samples(p, 'Total time:', 3)}
    m = WIS.match(f)
    if test.startswith('wis-') and m:
        return ('%s-%s-%s@tasks=%s' % ((test,) + m.groups()[:3]),
                {'will-it-scale.ops': samples(p, 'total:', 3)})
    m = IPERF3.match(f)
    if test.startswith('iperf3-') and m:
        return '%s-l%s-b%s@streams=%s' % ((test,) + m.groups()[:3]), iperf3_summary(p, int(m.group(3)))
    return None


def mm_test(test, logs):
    """One test's logs: {workload: ({metric: [samples]}, [errors])}."""
    out = {}
    for f in sorted(os.listdir(logs)):
        got = mm_log(test, logs, f)
        if got:
            metrics, errors = out.setdefault(got[0], ({}, []))
            for k, v in got[1].items():
                if v:
                    metrics.setdefault(k, []).extend(v)
            if not any(got[1].values()):
                errors.append('no result in %s' % f)
    return out


def load_mmtests(path):
    """An mmtests work/log/RUNNAME folder as a compare.py doc."""
    iters = mm_iterations(path)
    if not iters:
        raise Refused('%s is no mmtests log folder (no iter-N/ in it)' % path)
    per, hosts, not_read = [], set(), set()
    for _, name in iters:
        d = os.path.join(path, name)
        uname = (read_lines(os.path.join(d, 'kernel.version')) or [''])[0].split()
        if len(uname) < 3:
            raise Refused('%s is not the output of uname -a' % os.path.join(d, 'kernel.version'))
        hosts.add(uname[1])
        act = os.path.join(d, 'tests-activity')
        act = read_lines(act) if os.path.isfile(act) else []
        failed = None
        if not any(re.search(r'run-mmtests: Iteration \d+ end', line) for line in act):
            failed = 'incomplete: no "run-mmtests: Iteration N end" in %s/tests-activity' % name
        ends = [re.search(r'run-mmtests: test end :: (\S+) \d+ (-?\d+)', line) for line in act]
        exits = {m.group(1): m.group(2) for m in ends if m and m.group(2) != '0'}
        tests = {}
        for test in sorted(os.listdir(d)):
            if not os.path.isdir(os.path.join(d, test, 'logs')):
                continue
            if not test.startswith(MM_TESTS):
                not_read.add(test)
                continue
            for w, (metrics, errors) in mm_test(test, os.path.join(d, test, 'logs')).items():
                if test in exits:
                    errors.append('mmtests test %s ended with exit code %s (tests-activity)' % (test, exits[test]))
                tests[w] = (metrics, errors)
        per.append((below(path, d), uname[2], failed, tests))
    if not any(t for _, _, _, t in per):
        raise Refused('%s has no hackbench-*, wis-* or iperf3-* logs in iter-N/TEST/logs/' % path)
    runs = []
    if len(per) > 1:
        # a run per iteration, each metric the mean of its samples
        for i, (log, release, failed, tests) in enumerate(per, 1):
            ws = {w: mm_workload({k: statistics.mean(v) for k, v in m.items()}, e) for w, (m, e) in tests.items()}
            runs.append(run(i, log, release, ws, failed))
    else:
        # one iteration: a run per sample, the k-th of each workload
        log, release, failed, tests = per[0]
        for k in range(max([len(v) for m, _ in tests.values() for v in m.values()] + [1])):
            ws = {w: mm_workload({key: v[k] for key, v in m.items() if k < len(v)}, e)
                  for w, (m, e) in tests.items() if any(k < len(v) for v in m.values()) or not k}
            runs.append(run(k + 1, log, release, ws, failed))
    cpus, cpu = lscpu(os.path.join(path, iters[0][1]))
    meta = {'host.kernel': ' '.join(sorted({r['uname'] for r in runs})),
            'host.side': 'mmtests run %s, %d iterations' % (os.path.basename(os.path.abspath(path)), len(iters))}
    if not_read:
        meta['host.not_read'] = ' '.join(sorted(not_read))
    return doc_of('mmtests',
                  {'hostname': ' '.join(sorted(hosts)), 'cpus': cpus, 'cpu': cpu}, meta, runs)


def mm_workload(metrics, errors):
    return Workload(metrics=metrics, errors=list(errors))


def lscpu(d):
    """CPU count and model from lscpu's output, '?' without it."""
    cpus, cpu = '?', '?'
    for name in ('lscpu.txt.gz', 'lscpu.txt'):
        if os.path.isfile(os.path.join(d, name)):
            for line in read_lines(os.path.join(d, name)):
                key, _, value = line.strip().partition(':')
                if key == 'CPU(s)' and value.strip().isdigit():
                    cpus = int(value)
                elif key == 'Model name':
                    cpu = value.strip()
            break
    return cpus, cpu
