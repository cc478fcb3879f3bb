# SPDX-License-Identifier: GPL-2.0
"""mmlab.compare on saved benchmark logs (tests/data/py/, tests/data/bench/):
the records parse_log makes, what collect saves and load() reads back, and
the numbers of the tables."""
import json
import os
import tempfile
import unittest

from helpers import data, run_main

from mmlab import compare
from mmlab.cli import Refused
from mmlab.records import Run, Workload


class ParseLogTest(unittest.TestCase):
    """parse_log() on a host run and on a guest console."""

    def setUp(self):
        self.run = compare.parse_log(data('py', 'host-run.log'))

    def test_run_facts(self):
        self.assertIsInstance(self.run, Run)
        self.assertTrue(self.run.done)
        self.assertEqual(self.run.uname, '6.18.44-fc-v1272 #1_SMP_PREEMPT_DYNAMIC_@0 cpus=2')
        self.assertEqual(self.run.info, ['no tracefs kprobe_events: no kprobe counts'])
        self.assertEqual(self.run.kernel_reports, [])

    def test_metrics_ops_counters(self):
        w = self.run.workloads['page_fault2-threads@tasks=2']
        self.assertIsInstance(w, Workload)
        self.assertEqual(w.metrics, {'will-it-scale.2.threads': 136994.0,
                                     'will-it-scale.per_thread_ops': 68497.0})
        self.assertEqual(w.ops, 409202.0)
        self.assertEqual(w.counters, {'proc-vmstat.nr_free_pages': -69347.0,
                                      'proc-vmstat.pgfree': 476461.0,
                                      'proc-vmstat.pgfault': 409401.0})
        self.assertEqual(w.sizes, ['tasks=2 cpus=2 (100%) 2 s of samples'])

    def test_bad_lines_are_errors(self):
        self.assertEqual(self.run.errors, [
            'unparsable metric line: mmscale: metric page_fault2-threads@tasks=2 will-it-scale.broken n/a',
            'one error of the whole run'])
        w = self.run.workloads['page_fault2-processes@tasks=2']
        self.assertIsNone(w.ops)
        self.assertEqual(w.errors, ['no operation count',
                                    'the program exited 1 [item page_fault2:processes]'])

    def test_skip_and_warn_keep_their_reason(self):
        self.assertEqual(self.run.workloads['iperf3-cgroup-mixed@pairs=1'].skipped,
                         ['/sys/fs/cgroup is not cgroup v2 (memory cgroups needed)'])
        warn = self.run.workloads['iperf3-cgroup-mixed@pairs=2'].warnings
        self.assertEqual(len(warn), 1)
        self.assertTrue(warn[0].startswith('the run lasted 0.936 s, too short to measure'))

    def test_guest_console_kernel_reports(self):
        run = compare.parse_log(data('py', 'guest-run.log'))
        self.assertTrue(run.done)
        self.assertEqual(run.kernel_reports, ['[   24.397760] Oops: int3: 0000 [#1] SMP NOPTI',
                                              '[   24.398391] Call Trace:'])
        self.assertEqual(sorted(run.workloads), ['memcg-nested-fault@depth=2',
                                                 'memcg-nested-fault@depth=3'])
        self.assertEqual(run.workloads['memcg-nested-fault@depth=3'].counters['proc-vmstat.pgfault'],
                         920002.0)

    def test_unreadable_log(self):
        run = compare.parse_log(data('py', 'no-such.log'))
        self.assertFalse(run.done)
        self.assertEqual(len(run.errors), 1)
        self.assertTrue(run.errors[0].startswith('log unreadable: '))

    def test_json_of_a_run(self):
        doc = self.run.to_json()
        self.assertEqual(sorted(doc), ['done', 'errors', 'failed', 'info', 'kernel_reports', 'log',
                                       'run', 'side', 'uname', 'workloads'])
        self.assertEqual(sorted(doc['workloads']['page_fault2-threads@tasks=2']),
                         ['counters', 'errors', 'info', 'metrics', 'ops', 'sizes', 'skipped',
                          'warnings'])
        self.assertNotIn('uname', Run().to_json())


class CollectLoadTest(unittest.TestCase):
    """collect writes results.json; load() and check read it back."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, 'results.json')

    def tearDown(self):
        self.tmp.cleanup()

    def collect(self, *runs):
        return run_main(compare.main, 'compare.py', 'collect', '--out', self.out,
                        '--accel', 'host', *runs)

    def test_round_trip(self):
        rc, _, err = self.collect('host:1:%s:' % data('py', 'host-run.log'),
                                  'host:2:%s:' % data('py', 'guest-run.log'))
        self.assertEqual((rc, err), (0, ''))
        doc = compare.load(self.tmp.name)
        self.assertEqual([(r['side'], r['run'], r['log'], r['failed']) for r in doc['runs']],
                         [('host', 1, 'host-run.log', None), ('host', 2, 'guest-run.log', None)])
        self.assertEqual(doc['runs'][0], dict(compare.parse_log(data('py', 'host-run.log')).to_json(),
                                              side='host', run=1, log='host-run.log'))
        with open(self.out) as f:
            self.assertEqual(json.load(f)['accel'], 'host')

    def test_a_log_without_its_end_is_a_failed_run(self):
        self.collect('base:1:%s:' % data('py', 'no-such.log'))
        run = compare.load(self.out)['runs'][0]
        self.assertEqual(run['failed'], 'incomplete: no "mmscale: bench done" in the log')

    def test_check_names_each_failure(self):
        self.collect('host:1:%s:' % data('py', 'host-run.log'))
        rc, out, _ = run_main(compare.main, 'compare.py', 'check', self.out)
        self.assertEqual(rc, 1)
        where = os.path.join(self.tmp.name, 'host-run.log')
        self.assertEqual(out.splitlines(), [
            'host run 1: unparsable metric line: mmscale: metric page_fault2-threads@tasks=2 '
            'will-it-scale.broken n/a (log: %s)' % where,
            'host run 1: one error of the whole run (log: %s)' % where,
            'page_fault2-processes@tasks=2 failed in host run 1: no operation count (log: %s)' % where,
            'item page_fault2:processes (page_fault2-processes@tasks=2) failed in host run 1: '
            'the program exited 1 (log: %s)' % where])

    def test_never_overwrites(self):
        self.collect('host:1:%s:' % data('py', 'host-run.log'))
        rc, _, err = self.collect('host:1:%s:' % data('py', 'host-run.log'))
        self.assertEqual(rc, 2)
        self.assertEqual(err, 'ERROR: --out %s exists; saved results are never overwritten\n' % self.out)

    def test_bad_run_spec(self):
        rc, _, err = self.collect('Host:1:x.log:')
        self.assertEqual((rc, err), (2, 'ERROR: bad run "Host:1:x.log:" (want SIDE:N:LOG:FAILURE)\n'))

    def test_load_refuses_what_is_not_results(self):
        with open(self.out, 'w') as f:
            f.write('{"runs": [')
        with self.assertRaisesRegex(Refused, r'is not a results file: not valid JSON'):
            compare.load(self.out)
        with open(self.out, 'w') as f:
            f.write('{"runs": [{"side": "base"}]}')
        with self.assertRaisesRegex(Refused, r'\(run 1: bad or missing run, log, workloads'):
            compare.load(self.out)

    def test_usage_error_is_one_line(self):
        rc, out, err = run_main(compare.main, 'compare.py', 'nosuch')
        self.assertEqual((rc, out), (2, ''))
        self.assertRegex(err, r"^ERROR: argument cmd: invalid choice: 'nosuch' .*\(see compare.py --help\)\n$")


class NumbersTest(unittest.TestCase):
    """The numbers of the LKP tables."""

    def test_num(self):
        self.assertEqual([compare.num(v) for v in (123456.7, 12.34, 1.2345)], ['123457', '12.3', '1.23'])

    def test_change(self):
        self.assertEqual(compare.change([100.0, 100.0], [110.0, 110.0]).strip(), '+10.0%')
        self.assertEqual(compare.change([0.0], [1.0]).strip(), 'new')

    def test_significant_needs_separate_ranges(self):
        self.assertTrue(compare.significant([1.0, 1.1, 1.2], [2.0, 2.1, 2.2]))
        self.assertFalse(compare.significant([1.0, 2.0, 3.0], [2.0, 2.5, 3.5]))
        self.assertFalse(compare.significant([1.0], [2.0]))

    def test_aa_marked_needs_runs_and_a_change_beyond_the_floor(self):
        a, b = [100.0] * 5, [110.0] * 5
        self.assertTrue(compare.aa_marked(a, b, 0.05, True))
        self.assertFalse(compare.aa_marked(a, b, 0.2, True))
        self.assertFalse(compare.aa_marked(a[:4], b, 0.05, True))
        self.assertFalse(compare.aa_marked(a, b, None, True))
        self.assertFalse(compare.aa_marked(a, b, 0.05, False))

    def test_sweep_points_sort_by_number(self):
        ws = ['w@tasks=16', 'w@tasks=2', 'w@tasks=100%', 'a']
        self.assertEqual(sorted(ws, key=compare.sort_key), ['a', 'w@tasks=2', 'w@tasks=16', 'w@tasks=100%'])

    def test_values_per_1000_operations(self):
        runs = [dict(compare.parse_log(data('py', 'host-run.log')).to_json(), failed=None)]
        w = 'page_fault2-threads@tasks=2'
        self.assertEqual(compare.values(runs, w, 'metrics', 'will-it-scale.per_thread_ops'), [68497.0])
        self.assertAlmostEqual(compare.values(runs, w, 'counters', 'proc-vmstat.pgfault')[0],
                               409401.0 * 1000 / 409202.0)


class ReportTest(unittest.TestCase):
    """report on the fixed logs of tests/data/bench/ (tests/compare.t has
    the whole table; here the facts of it that code reads)."""

    def test_base_and_head(self):
        with tempfile.TemporaryDirectory() as tmp:
            for side in ('base', 'head'):
                out = os.path.join(tmp, side, 'results.json')
                os.makedirs(os.path.dirname(out))
                rc, _, err = run_main(compare.main, 'compare.py', 'collect', '--out', out, *[
                    '%s:%d:%s:' % (side, n, data('bench', '%s-%d.log' % (side, n))) for n in (1, 2, 3)])
                self.assertEqual((rc, err), (0, ''))
            rc, out, _ = run_main(compare.main, 'compare.py', 'report',
                                  os.path.join(tmp, 'base'), os.path.join(tmp, 'head'))
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertEqual(lines[0], '# LKP-style A/B: 3 base runs (0 failed), 3 head runs (1 failed)')
        self.assertIn('          1000 ± 10%          +105.0%*           2050 ±  3%  will-it-scale.2.threads',
                      lines)
        self.assertIn('  head run 3 (head-3.log): incomplete: no "mmscale: bench done" in the log', lines)


if __name__ == '__main__':
    unittest.main()
