# SPDX-License-Identifier: GPL-2.0
"""lab/py/jobs.py - stage "jobs": a matrix of make bench as LKP job files and
mmtests configs, for a fleet that already runs those engines.

  jobs.py --line LINE --matrix NAME --items ITEMS --out DIR

ITEMS is the matrix's plan (lab/stages/bench.sh --plan: comma separated items of
bench/workloads.sh).  Writes into DIR (which must exist):
  lkp/mmscale-LINE-NAME-PROGRAM.yaml   one LKP job file per lkp-tests
      program (suite, testcase, category, the program's parameters; lists
      where the plan is their whole cross product, else one "---" document
      per item; cgroup2 with cg_count and nr_instances for the items that
      run in K memory cgroups);
  mmtests/config-mmscale-LINE-NAME[-PART]   mmtests configs (MMTESTS, the
      drivers' variables, sizes from NUM_LOGICAL_CPUS);
  README   what each item became, and the items neither engine has a
      program for (make bench HOST=1 runs those).
The formats are lkp-tests' (lib/job.rb: lists expand to a matrix, "---"
documents merge over the first; programs/*/run headers: the parameters)
and mmtests' (configs/config-*: a shell fragment, MMTESTS names
drivers/driver-*.sh).  Sizes are shares of the CPUs, as make bench HOST=1
sizes its items (lab/lib/common.sh host_matrix): tasks at 100% and 800%.
Bad input (an unknown item, a missing DIR) ends it with one "ERROR:" line
and exit 2, nothing written.
"""
import itertools
import os
import sys

from mmlab import cli
from mmlab.cli import Parser, Refused


def programs_dir():
    """bench/programs/ of the tree this file is in."""
    d = os.path.dirname(os.path.abspath(__file__))
    while d != os.path.dirname(d):
        if os.path.isdir(os.path.join(d, 'bench', 'programs')):
            return os.path.join(d, 'bench', 'programs')
        d = os.path.dirname(d)
    raise Refused('no bench/programs/ above %s' % __file__)


def no_form():
    """{item name: why neither engine has a program for it} for every
    workload of bench/programs/: its meta's nofleet line (docs/workloads.md),
    else a default reason; bench/lib.sh checks the meta files' format."""
    reasons = {}
    top = programs_dir()
    for w in sorted(os.listdir(top)):
        meta = os.path.join(top, w, 'meta')
        if not os.path.isfile(meta):
            continue
        fields = {}
        for line in open(meta):
            key, eq, value = line.rstrip('\n').partition('=')
            if eq and not key.startswith('#'):
                fields.setdefault(key, value)
        why = fields.get('nofleet', 'no form in lab/py/jobs.py for bench/programs/%s' % w)
        for name in fields.get('names', w).split():
            reasons[name] = why
    return reasons



def parse(item):
    f = item.split(':')
    return f[0], f[1:]


def lkp_form(item):
    """(program, shared keys, program params, cgroup2 params) for an item, or
    None when lkp-tests has no program for it."""
    name, a = parse(item)
    if name in ('page_fault1', 'page_fault2', 'page_fault3'):
        return ('will-it-scale', {'nr_task': '100%', 'runtime': '300s'},
                {'test': name, 'mode': {'threads': 'thread', 'processes': 'process'}[a[0]]}, None)
    if name == 'hackbench':
        # groups of 20 tasks (fds 10) at 100% and 800% of the CPUs: 5% and
        # 40% of the CPUs as LKP's group count (its nr_threads)
        return ('hackbench', {'nr_threads': ['5%', '40%'], 'runtime': '60s'},
                {'mode': {'thread': 'threads'}.get(a[0], a[0]), 'ipc': a[1], 'fds': 10}, None)
    if name == 'hackbench-cgroup':
        k = int(a[2])
        return ('hackbench', {'nr_threads': 1, 'nr_instances': k, 'runtime': '60s'},
                {'mode': {'thread': 'threads'}.get(a[0], a[0]), 'ipc': a[1], 'fds': 10},
                {'cg_count': k, 'memory.max': 'max'})
    if name == 'iperf3-cgroup':
        k = int(a[0])
        place = a[2] if len(a) > 2 else 'mixed'
        if place != 'mixed':
            return None
        # upstream's form of this benchmark: netperf TCP_SENDFILE, 10 KiB
        # sends, one client a cgroup
        return ('netperf', {'nr_threads': 1, 'nr_instances': k, 'runtime': '60s',
                            'cluster': 'cs-localhost'},
                {'test': 'TCP_SENDFILE', 'send_size': '10K'}, {'cg_count': k, 'memory.max': 'max'})
    if name == 'stress-ng':
        return ('stress-ng', {'nr_threads': '100%'}, {'test': a[0], 'testtime': '60s'}, None)
    return None


def yaml_value(v):
    if isinstance(v, list):
        return '[%s]' % ', '.join(yaml_value(x) for x in v)
    return str(v)


def yaml_map(d, indent=''):
    out = []
    for k, v in d.items():
        if isinstance(v, dict):
            out.append('%s%s:' % (indent, k))
            out += yaml_map(v, indent + '  ')
        else:
            out.append('%s%s: %s' % (indent, k, yaml_value(v)))
    return out


def job_docs(program, forms):
    """The YAML documents of one program's items: one document with lists
    when the items are the whole cross product of their values, else a
    first document and one "---" document per further item."""
    heads = [{'suite': program, 'testcase': program, 'category': 'benchmark'}]
    keys = sorted({k for f in forms for k in f[2]})
    combos = {tuple(f[2].get(k) for k in keys) for f in forms}
    shared = [f[1] for f in forms]
    values = [sorted({c[i] for c in combos}, key=str) for i in range(len(keys))]
    product = set(itertools.product(*values))
    if (all(s == shared[0] for s in shared) and all(f[3] is None for f in forms)
            and combos == product):
        doc = dict(heads[0])
        doc.update(forms[0][1])
        doc[program] = {k: (v if len(v) > 1 else v[0]) for k, v in zip(keys, values)}
        return [doc]
    docs = []
    for f in forms:
        doc = dict(heads[0]) if not docs else {}
        doc.update(f[1])
        if f[3]:
            doc['cgroup2'] = f[3]
        if program == 'netperf':
            doc['if role server'] = {'netserver': {}}
            doc['if role client'] = {'netperf': f[2]}
        else:
            doc[program] = f[2]
        docs.append(doc)
    return docs


def write_lkp(line, matrix, items, out):
    """The LKP job files; returns README lines."""
    by_file, notes = {}, []
    for item in items:
        f = lkp_form(item)
        if f is None:
            continue
        # a "---" document merges over the first one: jobs in cgroups and
        # jobs without go to files of their own (as lkp-tests' own
        # hackbench.yaml and hackbench-cgroup2.yaml)
        name = f[0] + ('-cgroup2' if f[3] else '')
        by_file.setdefault(name, [])
        if f not in by_file[name]:
            by_file[name].append(f)
        notes.append('  %s -> lkp/mmscale-%s-%s-%s.yaml' % (item, line, matrix, name))
    os.makedirs(os.path.join(out, 'lkp'), exist_ok=True)
    for name, forms in sorted(by_file.items()):
        program = forms[0][0]
        path = os.path.join(out, 'lkp', 'mmscale-%s-%s-%s.yaml' % (line, matrix, name))
        lines = ['# make bench MATRIX=%s (Linux %s line) as an lkp-tests job: run it with' % (matrix, line),
                 '#   lkp install %s; lkp split-job %s; lkp run <each split job>'
                 % ((os.path.basename(path),) * 2),
                 '# on the base kernel and on the head kernel (make deb), then compare the',
                 '# result folders with make compare A=<base result> B=<head result>.']
        if program == 'netperf':
            lines.append('# iperf3-cgroup:K of make bench (iperf3 -Z, 10 KiB writes, a pair a cgroup) is')
            lines.append("# upstream's netperf TCP_SENDFILE form here: K instances, each in its cgroup.")
        for i, doc in enumerate(job_docs(program, forms)):
            if i:
                lines.append('---')
            lines += yaml_map(doc)
        with open(path, 'w') as f:
            f.write('\n'.join(lines) + '\n')
    return notes


MMTESTS_PARTS = ('hackbench', 'wis', 'iperf3', 'stressng')


def mmtests_part(item):
    name, a = parse(item)
    if name.startswith('page_fault'):
        return 'wis'
    if name == 'hackbench':
        return 'hackbench'
    if name == 'iperf3-cgroup' and (len(a) < 3 or a[2] == 'mixed'):
        return 'iperf3'
    if name == 'stress-ng':
        return 'stressng-' + a[0]
    return None


def write_mmtests(line, matrix, items, out):
    """mmtests configs, one per driver family (a config is one shell
    fragment, and a stressng config names one test); returns README lines."""
    parts, notes = {}, []
    for item in items:
        p = mmtests_part(item)
        if p:
            parts.setdefault(p, []).append(item)
    os.makedirs(os.path.join(out, 'mmtests'), exist_ok=True)
    for p, its in sorted(parts.items()):
        name = 'config-mmscale-%s-%s-%s' % (line, matrix, p)
        notes += ['  %s -> mmtests/%s' % (i, name) for i in its]
        body = ['# make bench MATRIX=%s (Linux %s line) as an mmtests config: run it with' % (matrix, line),
                '#   ./run-mmtests.sh -c %s <kernel release>' % name,
                '# under each kernel, then make compare A=work/log/<base> B=work/log/<head>.']
        if p == 'hackbench':
            drivers = sorted({'hackbench-%s-%ss' % (parse(i)[1][0], parse(i)[1][1]) for i in its})
            body += ['# perf bench sched messaging: groups of 40 tasks; from 100% to 800% of',
                     '# the CPUs as tasks',
                     'export MMTESTS="%s"' % ' '.join(drivers),
                     'export HACKBENCH_ITERATIONS=5',
                     'export HACKBENCH_MIN_GROUPS=$(( NUM_LOGICAL_CPUS / 40 > 0 ? NUM_LOGICAL_CPUS / 40 : 1 ))',
                     'export HACKBENCH_MAX_GROUPS=$(( NUM_LOGICAL_CPUS / 5 > 1 ? NUM_LOGICAL_CPUS / 5 : 2 ))',
                     'export HACKBENCH_LOOPS=1000',
                     'export MMTESTS_THREAD_CUTOFF=']
        elif p == 'wis':
            models = sorted({parse(i)[1][0] for i in its})
            body += ['export MMTESTS="wis-pf"',
                     'export WIS_ITERATIONS=5',
                     'export WIS_MIN_THREADS=$NUM_LOGICAL_CPUS',
                     'export WIS_MAX_THREADS=$NUM_LOGICAL_CPUS',
                     'export WIS_MODELS="%s"' % ','.join(models)]
        elif p == 'iperf3':
            ks = sorted({int(parse(i)[1][0]) for i in its})
            body += ['# mmtests runs one server and STREAMS streams, in no memory cgroup of',
                     "# their own: make bench's a-pair-a-cgroup placement is the LKP job's",
                     'export MMTESTS="iperf3-ipv4-tcp"',
                     'export IPERF3_BUFFER_SIZES=10240',
                     'export IPERF3_BITRATES=0',
                     'export IPERF3_MIN_STREAMS=%d' % ks[0],
                     'export IPERF3_MAX_STREAMS=%d' % ks[-1],
                     'export IPERF3_DURATION=30',
                     'export IPERF3_ITERATIONS=5']
        else:
            body += ['export MMTESTS="stressng"',
                     'export STRESSNG_MIN_THREADS=$NUM_LOGICAL_CPUS',
                     'export STRESSNG_MAX_THREADS=$NUM_LOGICAL_CPUS',
                     'export STRESSNG_RUNTIME=60',
                     'export STRESSNG_ITERATIONS=5',
                     'export STRESSNG_TESTNAME=%s' % p.split('-', 1)[1]]
        with open(os.path.join(out, 'mmtests', name), 'w') as f:
            f.write('\n'.join(body) + '\n')
    return notes


def run():
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument('--line', required=True)
    ap.add_argument('--matrix', required=True)
    ap.add_argument('--items', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    items = [i for i in args.items.split(',') if i]
    if not items:
        raise Refused('--items names no item')
    reasons = no_form()
    for i in items:
        if parse(i)[0] not in reasons:
            raise Refused("unknown item '%s'" % i)
    if not os.path.isdir(args.out):
        raise Refused('%s is not a folder' % args.out)
    lkp = write_lkp(args.line, args.matrix, items, args.out)
    mmt = write_mmtests(args.line, args.matrix, items, args.out)
    rest = []
    for i in items:
        name, a = parse(i)
        if lkp_form(i) is None and mmtests_part(i) is None:
            why = reasons[name]
            if name == 'iperf3-cgroup':
                why = 'pinned pairs (PLACE=%s): neither engine pins a pair to CPUs' % a[2]
            rest.append('  %s: %s' % (i, why))
    with open(os.path.join(args.out, 'README.%s' % args.matrix), 'w') as f:
        f.write('make bench MATRIX=%s of the %s line, for a fleet\n\nLKP jobs:\n%s\n\n'
                'mmtests configs:\n%s\n\nNo program in either engine (run them with '
                'make bench MATRIX=%s HOST=1):\n%s\n'
                % (args.matrix, args.line, '\n'.join(lkp) or '  none', '\n'.join(mmt) or '  none',
                   args.matrix, '\n'.join(rest) or '  none'))
    return 0


def main():
    return cli.main(run)
