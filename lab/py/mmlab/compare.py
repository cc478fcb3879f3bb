# SPDX-License-Identifier: GPL-2.0
"""lab/py/compare.py - stage "compare": collect benchmark logs into results.json
and print LKP-style A/B tables from saved results.

  compare.py collect --out results.json [--accel tcg|kvm|host] [--command CMD]
                     [--where TEXT] [--meta JSON] SIDE:N:LOG:FAILURE...
      Reads the "mmscale: metric/ops/counter/info/error" lines that
      bench/workloads.sh printed into each LOG (a guest console or a host
      run) and saves every run, failed ones included, with the facts given.
      SIDE is base, head, host or another name of lower case letters and
      digits (lab/stages/ab.sh SIDES); FAILURE is empty for a run that completed.
  compare.py report A [B] [--aa AA] [--out DIR | --plots DIR] [--all-counters] [--keys REGEX]
      A and B are result directories (or results.json files).  Base runs are
      A's "base" runs (else its "host" runs), head runs are B's "head" runs
      (else its "host" runs); B defaults to A.  Refuses to compare runs with
      themselves (e.g. one HOST=1 folder alone), and warns loudly when A
      and B were measured differently (TCG, KVM or bare metal), on other
      machines, or when the kernels of one side, or the two sides' kernel
      versions, differ.  Prints, per workload, the
      0-day/LKP table: base mean (with +-%stddev when over 2%), %change,
      head mean (+-%stddev), metric key.  A change is marked "*"
      (significant) only when each side's median lies outside the other
      side's min-max range (needs 2+ runs a side), and for a counter only
      when its mean also moves by 1% or more and its count by 5 events a
      run or more.  Then the mechanism
      counters per 1000 operations, and the failed runs and workloads.  For
      sweeps (workloads that differ only in "@param=value") it writes one
      gnuplot PNG per metric into the --plots DIR.  --out DIR writes the
      tables (compare.txt) and the plots into a new folder DIR (DIR-2, DIR-3
      ... when it exists), never into the results (make compare).
      --aa AA: another results folder of A's kernel on A's machine (make
      bench HOST=1 run again under the same kernel): each row gets the A/A
      noise floor (the range of A's and AA's runs over their mean), and a
      change is marked only when it is also larger than that floor.  When
      base and head ran the very same kernel (an A/A of HOST=1 runs), the
      report says so and marks nothing.
      A, B and AA may also be an LKP (lkp-tests) result folder or an
      mmtests log folder (work/log/RUNNAME): lab/py/mmlab/fleet.py reads their runs
      as "host" runs keyed by the kernel release each ran, metrics only.

  compare.py matrix A [--pairs A:B,...] [--aa A:B] [--keys REGEX]
      For a run of more than two sides (lab/stages/ab.sh with SIDES, make bench
      MATRIX=stock): one table per key, a row per workload and a column per
      side (mean, +-%stddev over 2%), then for each pair "A:B" of --pairs
      (default: every side against the first) B's change against A,
      marked "*" as in report.  Keys: the metrics and the page_counter and
      memcg stock counters (per 1000 operations), or those matching REGEX.
      --aa A:B names two sides that boot the same kernel: each row gets
      their noise floor (the range of their runs over their mean), and a
      change is then marked only with 5+ good runs a side and a change
      larger than that floor.

  compare.py check RESULTS
      One line per failed run and per workload error of RESULTS (its item,
      the error and the run's log); exit 1 if there is one.

  compare.py sweep A [--side head] [--keys REGEX]
      One side's sweep points in columns: metric means and counters per
      1000 operations, for changelog tables.

Bad input (a missing or truncated results file, a folder that holds no
results) ends it with one "ERROR:" line naming the input, exit status 2,
and nothing written.
What it needs: python3; gnuplot for the plots.  collect writes the JSON
file (never over an existing one); report writes only the PNGs (and their
.dat/.gp inputs), and with --out compare.txt.
"""
import datetime
import io
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

from . import facts, fleet
from .cli import Parser, Refused, read_json
from .cli import main as cli_main
from .records import LineKind, Run

LINE = re.compile(r'^mmscale: (%s) (.*)$' % '|'.join(k.value for k in LineKind))
# what a kernel report looks like on a console: lab/lib/kernel-reports
KERNEL_REPORT = facts.kernel_report_re()
# vm events shown by default in the counter table (all are kept in the JSON)
VMSTAT_SHOWN = re.compile(r'^proc-vmstat\.(pgfault|pgmajfault|pgalloc_\w+|pgfree|'
                          r'nr_tlb_\w+|thp_fault_alloc|pgactivate|pgscan_\w+|pgsteal_\w+|'
                          r'workingset_refault_\w+|oom_kill|vmalloc_\w+|memcg_stock_\w+|'
                          r'slab_\w+)$')
TCG_LABEL = 'TCG — emulated; times are not performance'
SIDE = re.compile(r'^[a-z][a-z0-9]*$')
# what compare.py matrix shows by default: every metric, and these counters
# (the page_counter kprobes also per caller: kprobe.FN.by.CALLER)
MATRIX_COUNTERS = re.compile(r'^(kprobe\.page_counter_[\w+]+(\.by\.[\w.]+)?|proc-vmstat\.(memcg|obj)_stock_\w+)$')
# the matrix's sum of both page_counter kprobes: every hierarchical charge
# and uncharge (the memcg topic's measure on the 7.3 line, issue 28)
PAGE_COUNTER_BOTH = 'kprobe.page_counter_try_charge+uncharge'


def add_page_counter_both(doc):
    """Give each workload with a page_counter kprobe count the sum of both
    (a count workloads.sh did not print was 0: it prints no zero delta)."""
    both = ('kprobe.page_counter_try_charge', 'kprobe.page_counter_uncharge')
    for r in doc['runs']:
        for w in r['workloads'].values():
            c = w['counters']
            if any(k in c for k in both):
                c[PAGE_COUNTER_BOTH] = sum(c.get(k, 0.0) for k in both)


def parse_log(path):
    """One run's content: workloads with metrics/ops/counters/errors."""
    run = Run()
    try:
        f = open(path, errors='replace')
    except OSError as e:
        run.errors.append('log unreadable: %s' % e)
        return run
    with f:
        for raw in f:
            line = raw.rstrip('\r\n')
            if line == 'mmscale: bench done':
                run.done = True
                continue
            m = LINE.match(line)
            if not m:
                if KERNEL_REPORT.search(line) and len(run.kernel_reports) < 20:
                    run.kernel_reports.append(line.strip())
                continue
            kind, rest = LineKind(m.group(1)), m.group(2)
            if kind is LineKind.UNAME:
                run.uname = rest
                continue
            name, _, tail = rest.partition(' ')
            if kind in (LineKind.METRIC, LineKind.COUNTER):
                key, _, value = tail.partition(' ')
                try:
                    v = float(value)
                except ValueError:
                    run.errors.append('unparsable %s line: %s' % (kind.value, line))
                    continue
                w = run.workload(name)
                (w.metrics if kind is LineKind.METRIC else w.counters)[key] = v
            elif kind is LineKind.OPS:
                try:
                    run.workload(name).ops = float(tail)
                except ValueError:
                    run.workload(name).errors.append('no operation count')
            elif kind is LineKind.SKIP:
                run.workload(name).skipped.append(tail)
            elif kind in (LineKind.SIZE, LineKind.WARN):
                w = run.workload(name)
                (w.sizes if kind is LineKind.SIZE else w.warnings).append(tail)
            elif name == 'all':
                (run.errors if kind is LineKind.ERROR else run.info).append(tail)
            else:
                w = run.workload(name)
                (w.errors if kind is LineKind.ERROR else w.info).append(tail)
    return run


def collect(args):
    runs = []
    for spec in args.runs:
        parts = spec.split(':', 3)
        if len(parts) != 4 or not SIDE.match(parts[0]) or not parts[1].isdigit():
            raise Refused('bad run "%s" (want SIDE:N:LOG:FAILURE)' % spec)
        side, n, log, failure = parts
        run = parse_log(log)
        run.side, run.run, run.log, run.failed = side, int(n), os.path.basename(log), failure or None
        if not run.failed and not run.done:
            run.failed = 'incomplete: no "mmscale: bench done" in the log'
        runs.append(run.to_json())
    try:
        meta = json.loads(args.meta)
    except ValueError as e:
        raise Refused('--meta is not JSON: %s' % e)
    if not isinstance(meta, dict):
        raise Refused('--meta is not a JSON object: %s' % args.meta)
    if os.path.lexists(args.out):
        raise Refused('--out %s exists; saved results are never overwritten' % args.out)
    doc = {'format': 1, 'created': datetime.datetime.now().astimezone().isoformat(timespec='seconds'),
           'command': args.command, 'accel': args.accel, 'where': args.where, 'meta': meta,
           'machine': this_machine(), 'runs': runs}
    try:
        with open(args.out, 'x') as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write('\n')
    except OSError as e:
        raise Refused('cannot write --out %s: %s' % (args.out, e.strerror or e))
    return 0


def this_machine():
    """The machine collect runs on (the one that ran QEMU or the host runs)."""
    cpu = '?'
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next((l.split(':', 1)[1].strip() for l in f if l.startswith('model name')), '?')
    except OSError:
        pass
    return {'hostname': platform.node(), 'cpu': cpu, 'cpus': os.cpu_count()}


RUN_FIELDS = {'side': str, 'run': int, 'log': str, 'workloads': dict, 'errors': list,
              'kernel_reports': list}


def load(path):
    """A results.json (or the folder that holds one), checked: bad input is
    a Refused naming it, never a traceback."""
    if not os.path.exists(path):
        raise Refused('%s: no such results folder or file' % path)
    if os.path.isdir(path):
        if not os.path.isfile(os.path.join(path, 'results.json')):
            kind = fleet.detect(path)
            if kind:
                doc = {'lkp': fleet.load_lkp, 'mmtests': fleet.load_mmtests}[kind](path)
                doc['path'] = os.path.join(path, '')  # the folder: dirname() of it is itself
                return doc
            raise Refused('%s is not a results folder (it has no results.json; make bench writes them '
                          'under build/results/), nor an LKP result folder (job.yaml, stats.json) or an '
                          'mmtests log folder (iter-N/), which are read too' % path)
        path = os.path.join(path, 'results.json')
    doc = read_json(path, '%s is not a results file: not valid JSON (empty or cut short?): %s')
    what = '%s is not a results file of lab/py/compare.py collect' % path
    if not isinstance(doc, dict) or not isinstance(doc.get('runs'), list):
        raise Refused('%s (no list of runs)' % what)
    for i, r in enumerate(doc['runs']):
        bad = [k for k, t in RUN_FIELDS.items() if not isinstance(r, dict) or not isinstance(r.get(k), t)]
        if not bad and 'failed' not in r:
            bad = ['failed']
        if not bad and not SIDE.match(r['side']):
            bad = ['side']
        if not bad:
            for w in r['workloads'].values():
                if not (isinstance(w, dict) and isinstance(w.get('metrics'), dict) and
                        isinstance(w.get('counters'), dict) and isinstance(w.get('errors'), list)):
                    bad = ['workloads']
                    break
        if bad:
            raise Refused('%s (run %d: bad or missing %s)' % (what, i + 1, ', '.join(bad)))
    if not isinstance(doc.get('meta', {}), dict):
        raise Refused('%s (meta is not an object)' % what)
    doc['path'] = path
    return doc


def pick(doc, side):
    runs = [r for r in doc['runs'] if r['side'] == side]
    return runs or [r for r in doc['runs'] if r['side'] == 'host']


def num(v):
    if abs(v) >= 1000:
        return '%.0f' % v
    if abs(v) >= 10:
        return '%.1f' % v
    return '%.3g' % v


def cell(vs):
    mean = statistics.mean(vs)
    sd = statistics.stdev(vs) / abs(mean) * 100 if len(vs) > 1 and mean else 0.0
    return '%14s %s' % (num(mean), '± %2.0f%%' % sd if sd > 2 else '     ')


# a counter per operation is marked only when its mean moves by this share
# or more: with runs this alike, one background event moves it by 0.1%
# (memcg-parallel-fault's pgalloc, make bench 2026-12-01: 1002.3 +- 0.02
# per 1000 on base, 1002.3-1005.1 on head), which no kernel change explains
COUNTER_FLOOR = 0.01
# ... and when the counts themselves differ by this many events a run or
# more: the same 3 pgactivate events in every page_fault1 run, divided by
# head's larger number of operations, were "-7.8%" (make bench 2026-12-01)
COUNTER_MIN_EVENTS = 5


def significant(a, b, floor=0.0):
    if len(a) < 2 or len(b) < 2:
        return False
    ma = statistics.mean(a)
    if floor and ma and abs(statistics.mean(b) - ma) < floor * abs(ma):
        return False
    return (not min(b) <= statistics.median(a) <= max(b) and
            not min(a) <= statistics.median(b) <= max(a))


# with an A/A pair (matrix --aa), a change is marked only with this many
# good runs a side or more
AA_MIN_RUNS = 5


def aa_floor(a1, a2):
    """The noise floor of a cell from its A/A pair (the same kernel booted as
    two sides): the range of all their runs, as a share of their mean."""
    both = a1 + a2
    if len(a1) < 2 or len(a2) < 2:
        return None
    m = statistics.mean(both)
    return (max(both) - min(both)) / abs(m) if m else 0.0


def aa_marked(a, b, floor, marked):
    """A change of a matrix with an A/A pair: marked by the usual rule, with
    AA_MIN_RUNS runs a side or more, and a change larger than the floor."""
    if floor is None or len(a) < AA_MIN_RUNS or len(b) < AA_MIN_RUNS or not marked:
        return False
    return beyond(a, b, floor)


def change(a, b):
    ma, mb = statistics.mean(a), statistics.mean(b)
    if ma == 0:
        return '%16s' % ('0' if mb == 0 else 'new')
    return '%+15.1f%%' % ((mb - ma) / abs(ma) * 100)


def one_sided(va, vb, key):
    """A row of a key that only one side has: that side's cell, a dash
    for the other, no change."""
    dash = '%14s %5s' % ('-', '')
    return '%s %16s  %s  %s (%s only)' % (cell(va) if va else dash, '', cell(vb) if vb else dash,
                                          key, 'base' if va else 'head')


def slab_frees(counters, cache):
    return (counters.get('slab.%s.free_fastpath' % cache, 0.0) +
            counters.get('slab.%s.free_slowpath' % cache, 0.0))


def raw_counts(runs, workload, key):
    """Per good run: the counter's delta itself."""
    return [r['workloads'][workload]['counters'].get(key, 0.0) for r in runs
            if not r['failed'] and workload in r['workloads'] and not r['workloads'][workload]['errors']]


def counter_marked(runs_a, runs_b, workload, key, va, vb):
    """A counter change is marked: significant, 1% or more, and the counts
    a run differ by COUNTER_MIN_EVENTS or more."""
    if not significant(va, vb, COUNTER_FLOOR):
        return False
    ra, rb = raw_counts(runs_a, workload, key), raw_counts(runs_b, workload, key)
    if key.startswith('slab.') or not ra or not rb:
        return True
    return abs(statistics.mean(rb) - statistics.mean(ra)) >= COUNTER_MIN_EVENTS


def values(runs, workload, what, key):
    """Per good run: a metric, or a counter per 1000 operations of the
    workload (slab.CACHE.* counters: per 1M frees to that cache)."""
    out = []
    for r in runs:
        w = r['workloads'].get(workload)
        if r['failed'] or not w or w['errors']:
            continue
        if what == 'metrics':
            if key in w['metrics']:
                out.append(w['metrics'][key])
        elif key.startswith('slab.'):
            frees = slab_frees(w['counters'], key.split('.')[1])
            if frees:
                out.append(w['counters'].get(key, 0.0) * 1e6 / frees)
        else:
            ops = w.get('ops')
            if ops:
                out.append(w['counters'].get(key, 0.0) * 1000.0 / ops)
    return out


def hot_caches(runs, workload, share=0.01):
    """Caches that took at least share of all frees counted in a run."""
    hot = set()
    for r in runs:
        c = r['workloads'].get(workload, {}).get('counters', {})
        caches = {k.split('.')[1] for k in c if k.startswith('slab.')}
        total = sum(slab_frees(c, x) for x in caches)
        hot |= {x for x in caches if total and slab_frees(c, x) >= share * total}
    return hot


def sort_key(workload):
    name, _, param = workload.partition('@')
    _, _, v = param.partition('=')
    return (name, 0 if v.isdigit() else 1, int(v) if v.isdigit() else 0, v)


def table_header(title, aa=None):
    floor = '' if aa is None else ' %8s' % 'A/A'
    print('\n%s\n%21s %16s %21s%s' % (title, 'base', '%change', 'head', floor))
    print('%21s %16s %21s%s' % ('-' * 18, '-' * 14, '-' * 18, '' if aa is None else ' ' + '-' * 8))


def want_regex(keys):
    if keys:
        try:
            re.compile(keys)
        except re.error as e:
            raise Refused('--keys %s is not a regular expression: %s' % (keys, e))


def new_folder(path):
    """Make a new folder path (path-2, path-3, ... when it exists)."""
    for i in range(1, 1000):
        d = path if i == 1 else '%s-%d' % (path, i)
        try:
            os.makedirs(d)
            return d
        except FileExistsError:
            continue
        except OSError as e:
            raise Refused('cannot make the output folder %s: %s' % (d, e.strerror or e))
    raise Refused('cannot make the output folder %s: too many of that name' % path)


def machine(doc):
    """Where the runs of doc were measured, as far as results.json says."""
    m = doc.get('machine')
    if isinstance(m, dict) and m.get('cpu'):
        return '%s (%s CPUs, %s)' % (m.get('hostname', '?'), m.get('cpus', '?'), m['cpu'])
    meta = doc.get('meta', {})
    if meta.get('host.cpu'):
        return '%s CPUs, %s' % (meta.get('host.cpus', '?'), meta['host.cpu'])
    return meta.get('all.host') or None


def kernel_series(release):
    """"6.12" of "6.12.117" or "6.1.0-28-amd64"."""
    m = re.match(r'(\d+\.\d+)', release or '')
    return m.group(1) if m else None


def mixed(a, b, base, head):
    """Loud warnings when the two sides were not measured alike."""
    warn = []
    kind = {'tcg': 'QEMU TCG (emulated)', 'mttcg': 'QEMU multi-threaded TCG (emulated)',
            'kvm': 'QEMU KVM', 'host': 'bare metal (HOST=1)'}
    if a.get('accel') != b.get('accel'):
        warn.append('base was measured on %s, head on %s: the change mixes the kernels with how '
                    'they ran' % (kind.get(a.get('accel'), a.get('accel')), kind.get(b.get('accel'), b.get('accel'))))
    ma, mb = machine(a), machine(b)
    if ma and mb and ma != mb:
        warn.append('base and head were measured on different machines: %s vs %s' % (ma, mb))
    for label, runs in (('base', base), ('head', head)):
        rel = sorted({r['uname'].split(' ')[0] for r in runs if isinstance(r.get('uname'), str)})
        if len(rel) > 1:
            warn.append('the %s runs come from %d different kernels: %s' % (label, len(rel), ', '.join(rel)))
    ka = {kernel_series(r.get('uname', '').split(' ')[0]) for r in base if isinstance(r.get('uname'), str)}
    kb = {kernel_series(r.get('uname', '').split(' ')[0]) for r in head if isinstance(r.get('uname'), str)}
    ka.discard(None)
    kb.discard(None)
    if ka and kb and ka != kb:
        warn.append('base is Linux %s, head is Linux %s: the change is more than the series'
                    % ('/'.join(sorted(ka)), '/'.join(sorted(kb))))
    return warn


def releases(runs):
    """The kernels (uname -r -v, as the guest or host printed it) of runs."""
    return {r['uname'] for r in runs if isinstance(r.get('uname'), str)}


def floor_of(aa, runs, workload, what, key):
    """A cell's A/A floor: A's and AA's runs of it (None without AA)."""
    if aa is None:
        return None
    return aa_floor(values(runs, workload, what, key), values(aa, workload, what, key))


def beyond(va, vb, floor):
    """A change larger than an A/A floor (True when there is no floor)."""
    if floor is None:
        return True
    ma = statistics.mean(va)
    return bool(ma) and abs(statistics.mean(vb) - ma) > floor * abs(ma)


def floor_cell(floor, aa):
    if aa is None:
        return ''
    return ' %8s' % ('-' if floor is None else '%.0f%%' % (floor * 100))


def report(args):
    want_regex(args.keys)
    for d in (args.plots, args.out):
        if d and os.path.exists(d) and not os.path.isdir(d):
            raise Refused('%s exists and is not a folder' % d)
    a = load(args.a)
    b = load(args.b or args.a)
    base, head = pick(a, 'base'), pick(b, 'head')
    if not base or not head:
        raise Refused('no %s runs in %s' % ('base' if not base else 'head',
                                            a['path'] if not base else b['path']))
    if base == head:
        raise Refused('A and B give the same runs (%s %s runs): every row would be +0.0%%; '
                      'give B=<another results folder>' % (a['path'], base[0]['side']))
    ma, mb = machine(a), machine(b)
    if a.get('accel') == 'host' and b.get('accel') == 'host' and ma and mb and ma != mb:
        raise Refused('A ran on %s, B on %s: runs of two machines are never compared in one '
                      '%%change; run both kernels on one machine (make bench HOST=1 under each)' % (ma, mb))
    aa = None
    if args.aa:
        aa_doc = load(args.aa)
        if aa_doc['path'] in (a['path'], b['path']):
            raise Refused('AA is A or B itself: give a third folder, a second run of A\'s kernel')
        aa = pick(aa_doc, 'base')
        if not aa:
            raise Refused('no base or host runs in %s' % aa_doc['path'])
        ka, kaa = releases(base), releases(aa)
        if ka != kaa:
            raise Refused('AA=%s ran %s, A ran %s: an A/A floor comes from the same kernel as A'
                          % (args.aa, ' '.join(sorted(kaa)) or '?', ' '.join(sorted(ka)) or '?'))
        mx = machine(aa_doc)
        if ma and mx and ma != mx:
            raise Refused('AA ran on %s, A on %s: an A/A floor comes from A\'s machine' % (mx, ma))
    args.aa_runs = aa
    if not args.out:
        return print_report(args, a, b, base, head, args.plots)
    out = new_folder(args.out)
    buf = io.StringIO()
    stdout, sys.stdout = sys.stdout, buf
    try:
        rc = print_report(args, a, b, base, head, out)
    finally:
        sys.stdout = stdout
    print(buf.getvalue(), end='')
    with open(os.path.join(out, 'compare.txt'), 'w') as f:
        f.write(buf.getvalue())
    print('# written: %s/compare.txt' % out)
    return rc


def print_report(args, a, b, base, head, plotdir):
    accels = {a.get('accel'), b.get('accel')}
    nfail = lambda runs: sum(1 for r in runs if r['failed'])
    print('# LKP-style A/B: %d base runs (%d failed), %d head runs (%d failed)%s' % (
        len(base), nfail(base), len(head), nfail(head),
        ', interleaved boots' if args.b in (None, args.a) and a.get('accel') != 'host' else ''))
    if accels & {'tcg', 'mttcg'}:
        print('# %s' % TCG_LABEL)
    for w in mixed(a, b, base, head):
        print('# WARNING: %s' % w)
        print('WARNING: %s' % w, file=sys.stderr)
    for label, doc, runs in (('base', a, base), ('head', b, head)):
        unames = sorted({r['uname'].split(' ')[0] for r in runs if r.get('uname')}) or ['?']
        print('# %s: %s (%s runs; kernel %s; %s)' % (
            label, os.path.dirname(doc['path']) or '.', runs[0]['side'], ' '.join(unames),
            doc.get('where') or doc.get('accel')))
        for k, v in sorted(doc.get('meta', {}).items()):
            if k.split('.')[0] in (label, runs[0]['side'], 'all'):
                print('#   %s: %s' % (k, v))
        if doc.get('command'):
            print('#   command: %s' % doc['command'])
    aa = getattr(args, 'aa_runs', None)
    same = bool(releases(base)) and releases(base) == releases(head)
    if same:
        print('# A/A: base and head ran the same kernel (%s): every change below is this '
              'machine\'s noise, nothing is marked%s'
              % (' '.join(sorted(releases(base))), '' if aa else '; give it as AA= beside an A/B of this machine'))
    if aa:
        print('# A/A floor: %d runs of %s (%s), with base\'s runs: a change is marked only '
              'when it is also larger than the floor column' % (len(aa), args.aa, ' '.join(sorted(releases(aa)))))
    workloads = sorted({w for r in base + head for w in r['workloads']}, key=sort_key)
    shown = 0
    for w in workloads:
        keys = sorted({k for r in base + head for k in r['workloads'].get(w, {}).get('metrics', {})})
        if not keys:
            continue
        table_header(w, aa)
        for key in keys:
            va, vb = values(base, w, 'metrics', key), values(head, w, 'metrics', key)
            if not va or not vb:
                print(one_sided(va, vb, key))
                continue
            floor = floor_of(aa, base, w, 'metrics', key)
            mark = not same and significant(va, vb) and beyond(va, vb, floor)
            print('%s %s%s %s%s  %s' % (cell(va), change(va, vb), '*' if mark else ' ',
                                        cell(vb), floor_cell(floor, aa), key))
            shown += 1
    print('\n* = significant: each median outside the other side\'s min-max (2+ runs a side); '
          'counters: and a change of 1%% and 5 events a run or more%s'
          % ('; and larger than the A/A floor' if aa else ''))
    counter_tables(base, head, workloads, args.all_counters, args.keys, aa=aa, same=same)
    failures(base, head)
    if plotdir:
        os.makedirs(plotdir, exist_ok=True)
        plots(base, head, workloads, plotdir)
    if not shown:
        print('# nothing to compare: no workload gave a metric on both sides (the failures and '
              'skips above say why)')
    return 0 if shown else 1


def counter_tables(base, head, workloads, show_all, only=None, aa=None, same=False):
    printed = False
    for w in workloads:
        keys = sorted({k for r in base + head for k in r['workloads'].get(w, {}).get('counters', {})})
        hot = hot_caches(base + head, w)
        rows = []
        for key in keys:
            if not show_all and key.startswith('proc-vmstat.') and not VMSTAT_SHOWN.match(key):
                continue
            if not show_all and key.startswith('slab.') and key.split('.')[1] not in hot:
                continue
            if only and not re.search(only, key):
                continue
            va, vb = values(base, w, 'counters', key), values(head, w, 'counters', key)
            if not any(va) and not any(vb):
                continue
            if not va or not vb:
                rows.append(one_sided(va, vb, key))
                continue
            floor = floor_of(aa, base, w, 'counters', key)
            mark = not same and counter_marked(base, head, w, key, va, vb) and beyond(va, vb, floor)
            rows.append('%s %s%s %s%s  %s' % (cell(va), change(va, vb), '*' if mark else ' ',
                                              cell(vb), floor_cell(floor, aa), key))
        if rows:
            if not printed:
                print('\n# mechanism counters, per 1000 operations of the workload; slab.CACHE.*: '
                      'per 1M frees to that cache, caches with 1%+ of the frees (deltas around '
                      'each run; all of them are in results.json)')
                printed = True
            table_header(w + ' (per 1000 ops)', aa)
            print('\n'.join(rows))


def failures(base, head, sided=None):
    """The failed runs, workload errors, skips, sizes and warnings; sided:
    (label, run) pairs instead of base's and head's runs (matrix)."""
    # labelled by the side of the comparison: two HOST=1 runs are both "host"
    sided = sided or [('base', r) for r in base] + [('head', r) for r in head]
    lines = []
    for _, r in sided:
        tag = '%s run %d (%s)' % (r['side'], r['run'], r['log'])
        if r['failed']:
            lines.append('%s: %s' % (tag, r['failed']))
        lines.extend('%s: %s' % (tag, e) for e in r['errors'])
        for w, d in sorted(r['workloads'].items()):
            lines.extend('%s: %s: %s' % (tag, w, e) for e in d['errors'])
        if r['kernel_reports']:
            lines.append('%s: kernel log has %d report(s), first: %s' % (
                tag, len(r['kernel_reports']), r['kernel_reports'][0]))
    print('\n# failed runs and workloads: %s' % ('none' if not lines else len(lines)))
    for line in lines:
        print('  ' + line)
    # a reason once, then the workloads it skipped, grouped by the runs
    skipped = {}
    for side, r in sided:
        for w, d in r['workloads'].items():
            for why in d.get('skipped', []):
                skipped.setdefault(why, {}).setdefault(w, {}).setdefault(side, []).append(r['run'])
    if skipped:
        print('# not applicable (skipped by the workload, with its reason):')
        for why, by_workload in sorted(skipped.items()):
            print('  %s' % why)
            groups = {}
            for w, sides in by_workload.items():
                where = ', '.join('%s runs %s' % (side, ','.join(map(str, runs)))
                                  for side, runs in sorted(sides.items()))
                groups.setdefault(where, []).append(w)
            for where, ws in sorted(groups.items()):
                print('    %s: %s' % (where, ', '.join(sorted(ws, key=sort_key))))
    for key, title in (('sizes', 'sizes (what each workload ran with)'),
                       ('warnings', 'warnings (numbers too weak to use, as the runs said)')):
        seen = {}
        for side, r in sided:
            for w, d in r['workloads'].items():
                for text in d.get(key, []):
                    seen.setdefault((side, w, text), []).append(r['run'])
        if seen:
            print('# %s:' % title)
            for (side, w, text), runs in sorted(seen.items()):
                print('  %s runs %s: %s: %s' % (side, ','.join(map(str, runs)), w, text))


def plots(base, head, workloads, outdir):
    sweeps = {}
    for w in workloads:
        name, sep, param = w.partition('@')
        if sep:
            sweeps.setdefault(name, []).append(w)
    gnuplot = shutil.which('gnuplot')
    for name, points in sorted(sweeps.items()):
        if len(points) < 2:
            continue
        if not gnuplot:
            print('# plot %s: gnuplot is not installed (apt-get install gnuplot-nox)' % name)
            continue
        pname = points[0].partition('@')[2].partition('=')[0]
        keys = sorted({k for r in base + head for w in points for k in r['workloads'].get(w, {}).get('metrics', {})})
        for key in keys:
            stem = os.path.join(outdir, re.sub(r'[^A-Za-z0-9_.-]', '_', '%s.%s' % (name, key)))
            if sum(1 for w in points if values(base, w, 'metrics', key) or
                   values(head, w, 'metrics', key)) < 2:
                continue  # a key of one point only (e.g. will-it-scale.K.processes)
            rows = []
            for w in points:
                va, vb = values(base, w, 'metrics', key), values(head, w, 'metrics', key)
                fmt = lambda v: ('%g %g' % (statistics.mean(v), statistics.stdev(v) if len(v) > 1 else 0)
                                 if v else 'NaN NaN')
                rows.append('%s %s %s' % (w.partition('=')[2], fmt(va), fmt(vb)))
            with open(stem + '.dat', 'w') as f:
                f.write('# %s  base_mean base_sd head_mean head_sd\n' % pname + '\n'.join(rows) + '\n')
            with open(stem + '.gp', 'w') as f:
                f.write('set terminal png size 800,500 noenhanced\nset output "%s.png"\n' % stem +
                        'set offsets 0.3, 0.3, 0, 0\nset pointsize 1.5\n' +
                        'set title "%s: %s"\nset xlabel "%s"\nset ylabel "%s"\n' % (name, key, pname, key) +
                        'set key outside\nset grid\n'
                        'plot "%s.dat" using 0:2:3:xtic(1) with yerrorlines pt 7 title "base", ' % stem +
                        '"" using 0:4:5:xtic(1) with yerrorlines pt 5 title "head"\n')
            r = subprocess.run([gnuplot, stem + '.gp'], capture_output=True, text=True)
            print('# plot: %s.png%s' % (stem, '' if r.returncode == 0 else
                                         ' FAILED: ' + r.stderr.strip().splitlines()[-1]))


def sweep(args):
    """One side's sweep points: metric means and counters per 1000 ops."""
    want_regex(args.keys)
    doc = load(args.a)
    runs = pick(doc, args.side)
    workloads = sorted({w for r in runs for w in r['workloads']}, key=sort_key)
    keys = sorted({(what, k) for r in runs for w in workloads
                   for what in ('metrics', 'counters')
                   for k in r['workloads'].get(w, {}).get(what, {})
                   if not args.keys or re.search(args.keys, k)})
    workloads = [w for w in workloads
                 if any(values(runs, w, what, key) for what, key in keys)]
    print('# %s runs of %s: metrics (mean), counters per 1000 operations (mean)' % (
        args.side, os.path.dirname(doc['path']) or '.'))
    if 'tcg' == doc.get('accel'):
        print('# %s' % TCG_LABEL)
    for what, key in keys:
        row = []
        for w in workloads:
            v = values(runs, w, what, key)
            row.append(num(statistics.mean(v)) if v else '-')
        if any(x != '-' for x in row):
            print('%s %s' % (key, ' '.join(row)))
    one = len({w.partition('@')[0] for w in workloads}) == 1
    print('# columns: ' + ' '.join((w.partition('@')[2] or w) if one else w for w in workloads))
    return 0


def print_run_facts(doc):
    """The header lines of a one-run table: emulation, where, meta, command."""
    if doc.get('accel') in ('tcg', 'mttcg'):
        print('# %s' % TCG_LABEL)
    print('# where: %s' % (doc.get('where') or doc.get('accel')))
    for k, v in sorted(doc.get('meta', {}).items()):
        print('#   %s: %s' % (k, v))
    if doc.get('command'):
        print('#   command: %s' % doc['command'])


def matrix(args):
    """Several sides of one interleaved run: per key, a row per workload, a
    column per side, then the change of each pair."""
    want_regex(args.keys)
    doc = load(args.a)
    add_page_counter_both(doc)
    sides = []
    for r in doc['runs']:
        if r['side'] not in sides:
            sides.append(r['side'])
    if len(sides) < 2:
        raise Refused('%s has runs of one side only (%s)' % (doc['path'], ', '.join(sides)))
    pairs = []
    for p in (args.pairs.split(',') if args.pairs else ['%s:%s' % (sides[0], s) for s in sides[1:]]):
        a, _, b = p.partition(':')
        if a not in sides or b not in sides or a == b:
            raise Refused('--pairs: "%s" is not A:B of two sides of %s (%s)' % (p, doc['path'], ', '.join(sides)))
        pairs.append((a, b))
    aa = None
    if args.aa:
        a, _, b = args.aa.partition(':')
        if a not in sides or b not in sides or a == b:
            raise Refused('--aa: "%s" is not A:B of two sides of %s (%s)' % (args.aa, doc['path'], ', '.join(sides)))
        aa = (a, b)
    runs = {s: [r for r in doc['runs'] if r['side'] == s] for s in sides}
    nfail = sum(1 for r in doc['runs'] if r['failed'])
    print('# matrix of %d sides, %d runs (%d failed), boots interleaved round robin: %s' % (
        len(sides), len(doc['runs']), nfail, ' '.join(sides)))
    print_run_facts(doc)
    for s in sides:
        unames = sorted({r['uname'].split(' ')[0] for r in runs[s] if r.get('uname')}) or ['?']
        print('#   %s: %d runs, kernel %s' % (s, len(runs[s]), ' '.join(unames)))
    everything = [r for s in sides for r in runs[s]]
    workloads = sorted({w for r in everything for w in r['workloads']}, key=sort_key)
    keys = sorted({(what, k) for r in everything for w in workloads
                   for what in ('metrics', 'counters')
                   for k in r['workloads'].get(w, {}).get(what, {})
                   if (re.search(args.keys, k) if args.keys else
                       what == 'metrics' or MATRIX_COUNTERS.match(k))})
    width = max(16, max(len(w) for w in workloads) if workloads else 0)
    pw = [max(9, len(a) + len(b) + 1) for a, b in pairs]
    for what, key in keys:
        rows = []
        for w in workloads:
            vals = {s: values(runs[s], w, what, key) for s in sides}
            if not any(vals.values()):
                continue
            line = '%-*s' % (width, w)
            for s in sides:
                line += ' %s' % (cell(vals[s]) if vals[s] else '%14s %5s' % ('-', ''))
            floor = aa_floor(vals[aa[0]], vals[aa[1]]) if aa else None
            if aa:
                line += ' %7s' % ('-' if floor is None else '%.0f%%' % (floor * 100))
            for (a, b), n in zip(pairs, pw):
                if vals[a] and vals[b]:
                    sig = (counter_marked(runs[a], runs[b], w, key, vals[a], vals[b]) if what == 'counters'
                           else significant(vals[a], vals[b]))
                    if aa:
                        sig = (a, b) != aa and aa_marked(vals[a], vals[b], floor, sig)
                    line += ' %*s%s' % (n, change(vals[a], vals[b]).strip(), '*' if sig else ' ')
                else:
                    line += ' %*s ' % (n, '-')
            rows.append(line)
        if not rows:
            continue
        print('\n%s%s' % (key, ' (per 1000 operations)' if what == 'counters' else ''))
        print('%-*s%s%s%s' % (width, 'workload', ''.join(' %14s      ' % s[:14] for s in sides),
                              ' %7s' % 'A/A' if aa else '',
                              ''.join(' %*s ' % (n, '%s>%s' % (a, b)) for (a, b), n in zip(pairs, pw))))
        print('\n'.join(rows))
    print('\n# columns A>B: the change from side A to side B; * = significant: each median '
          'outside the other side\'s min-max (2+ runs a side); counters: and a change of 1% and 5 events a run or more')
    if aa:
        print('# A/A: %s and %s boot the same kernel; the column is the range of their runs over their mean, '
              'the cell\'s noise floor.  With it, * also needs %d+ good runs a side and a change larger '
              'than the floor; %s>%s is never marked' % (aa[0], aa[1], AA_MIN_RUNS, aa[0], aa[1]))
    failures([], [], [(r['side'], r) for r in everything])
    return 0


SLUBFREE_COLS = [('calls', None), ('remote', 'free_call_remote'), ('flush', 'free_call_flush'),
                 ('refill', 'free_call_refill'), ('other', 'free_call_other'),
                 ('lock', 'free_list_lock'), ('add', 'free_add_partial'),
                 ('remove', 'free_remove_partial'), ('transit', 'free_lock_nop_transit'),
                 ('minpart', 'free_lock_nop_min_partial'), ('discard', 'free_lock_nop_discard'),
                 ('redo', 'free_locked_redo')]


def slubfree(args):
    """The slub topic's table: per workload, __slab_free()'s calls by
    caller and its list_lock outcomes, per 1M frees (slab.total.* counters
    of MMSCALE_SLAB_STATS=free7 MMSCALE_SLAB_TOTAL=1), with lock_stat's
    node list_lock next to them."""
    doc = load(args.a)
    runs = [r for r in doc['runs'] if not r['failed']]
    sides = sorted({r['side'] for r in doc['runs']})
    print('# __slab_free() per 1M frees (free_fastpath + free_slowpath, all caches): calls by caller, '
          'list_lock acquisitions by outcome; lock_stat &n->list_lock (every user of the lock)')
    print_run_facts(doc)
    print('#   %d runs (%d failed) of %s' % (len(doc['runs']), len(doc['runs']) - len(runs), ' '.join(sides)))
    workloads = sorted({w for r in runs for w in r['workloads']}, key=sort_key)
    cols = [c for c, _ in SLUBFREE_COLS] + ['nop%', 'redo%', 'lscont', 'lsacq']
    width = max([24] + [len(w) for w in workloads])
    print('%-*s %10s %s' % (width, 'workload', 'frees', ' '.join('%8s' % c for c in cols)))
    shown = 0
    for w in workloads:
        rows = []
        for r in runs:
            wl = r['workloads'].get(w)
            if not wl or wl['errors']:
                continue
            c = wl['counters']
            frees = c.get('slab.total.free_fastpath', 0.0) + c.get('slab.total.free_slowpath', 0.0)
            if not frees or 'slab.total.free_list_lock' not in c and 'slab.total.free_call_other' not in c:
                continue
            get = lambda k: c.get('slab.total.' + k, 0.0)
            calls = sum(get(k) for _, k in SLUBFREE_COLS[1:5])
            vals = [calls] + [get(k) for _, k in SLUBFREE_COLS[1:]]
            row = [v * 1e6 / frees for v in vals]
            lock = get('free_list_lock')
            nop = get('free_lock_nop_transit') + get('free_lock_nop_min_partial') + get('free_lock_nop_discard')
            row += [100.0 * nop / lock if lock else 0.0, 100.0 * get('free_locked_redo') / lock if lock else 0.0]
            # lock_stat: the counters are deltas, left out when 0; none
            # at all means a kernel without lock_stat
            acq = c.get('lockstat.n_list_lock.acquisitions', float('nan'))
            cont = c.get('lockstat.n_list_lock.contentions', 0.0 if acq == acq else float('nan'))
            row += [cont * 1e6 / frees, acq * 1e6 / frees]
            rows.append((frees, row))
        if not rows:
            continue
        shown += 1
        n = len(rows)
        mean = [sum(r[1][i] for r in rows) / n for i in range(len(cols))]
        frees = sum(r[0] for r in rows) / n
        print('%-*s %10.0f %s' % (width, w, frees, ' '.join(
            '%8s' % ('-' if v != v else num(v)) for v in mean)))
        if n > 1:
            sd = [statistics.stdev([r[1][i] for r in rows]) if mean[i] == mean[i] else 0.0
                  for i in range(len(cols))]
            print('%-*s %10s %s' % (width, '  %%stddev (%d runs)' % n, '', ' '.join(
                '%8s' % ('-' if m != m or not m else '%.0f%%' % (100.0 * d / m)) for m, d in zip(mean, sd))))
    if not shown:
        print('# no workload with the slub topic\'s counters (a kernel with SLUB_STATS and slub 1/N, '
              'MMSCALE_SLAB_STATS=free7 MMSCALE_SLAB_TOTAL=1)')
    print('# calls = remote + flush + refill + other; lock = add + remove + transit + minpart + discard + redo; '
          'nop% = (transit + minpart + discard) / lock; redo% = redo / lock; '
          'lscont, lsacq: lock_stat contentions and acquisitions of &n->list_lock ("-": no lock_stat)')
    failures([], [], [(r['side'], r) for r in doc['runs']])
    return 0


ITEM = re.compile(r'\s*\[item ([^\]]*)\]$')


def check(args):
    """One line per failed run or workload error; 1 if there is one."""
    doc = load(args.a)
    where = os.path.dirname(os.path.abspath(doc['path']))
    lines = []
    for r in doc['runs']:
        log = os.path.join(where, r['log'])
        tag = '%s run %d' % (r['side'], r['run'])
        if r.get('failed'):
            lines.append('%s failed: %s (log: %s)' % (tag, r['failed'], log))
        for e in r['errors']:
            lines.append('%s: %s (log: %s)' % (tag, e, log))
        for w, d in sorted(r['workloads'].items()):
            for e in d['errors']:
                m = ITEM.search(e)
                what = 'item %s (%s)' % (m.group(1), w) if m else w
                lines.append('%s failed in %s: %s (log: %s)' % (
                    what, tag, ITEM.sub('', e), log))
    print('\n'.join(lines), end='\n' if lines else '')
    return 1 if lines else 0


def main():
    ap = Parser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('collect', help='console logs -> results.json')
    c.add_argument('--out', required=True)
    c.add_argument('--accel', default='tcg', choices=['tcg', 'mttcg', 'kvm', 'host'])
    c.add_argument('--command', default='')
    c.add_argument('--where', default='')
    c.add_argument('--meta', default='{}', help='JSON object of facts (kernels, configs)')
    c.add_argument('runs', nargs='+', metavar='SIDE:N:LOG:FAILURE')
    r = sub.add_parser('report', help='results -> LKP tables')
    r.add_argument('a')
    r.add_argument('b', nargs='?')
    r.add_argument('--plots', metavar='DIR')
    r.add_argument('--out', metavar='DIR', help='a new folder for compare.txt and the plots')
    r.add_argument('--aa', metavar='AA', help='a second results folder of A\'s kernel: the A/A noise floor')
    r.add_argument('--all-counters', action='store_true')
    r.add_argument('--keys', metavar='REGEX', help='only counters whose key matches (re.search)')
    w = sub.add_parser('sweep', help='one side of a sweep as a plain table')
    w.add_argument('a')
    w.add_argument('--side', default='head', choices=['base', 'head', 'host'])
    w.add_argument('--keys', metavar='REGEX')
    m = sub.add_parser('matrix', help='a run of several sides as one table per key')
    m.add_argument('a')
    m.add_argument('--pairs', metavar='A:B,...')
    m.add_argument('--aa', metavar='A:B', help='two sides that boot the same kernel: the noise floor')
    m.add_argument('--keys', metavar='REGEX')
    f = sub.add_parser('slubfree', help="the slub topic's __slab_free() table of one results file")
    f.add_argument('a', metavar='RESULTS')
    k = sub.add_parser('check', help='the failed runs and workloads of one results file')
    k.add_argument('a', metavar='RESULTS')

    def run():
        args = ap.parse_args()
        if args.cmd == 'report' and args.out and args.plots:
            raise Refused('give --out or --plots, not both')
        return {'collect': collect, 'report': report, 'sweep': sweep, 'matrix': matrix,
                'check': check, 'slubfree': slubfree}[args.cmd](args)
    return cli_main(run)


if __name__ == '__main__':
    sys.exit(main())
