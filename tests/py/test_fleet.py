# SPDX-License-Identifier: GPL-2.0
"""mmlab.fleet on the hand-written LKP and mmtests folders of tests/data/
(tests/fleet.t compares their tables): the runs it reads, as compare's."""
import os
import shutil
import tempfile
import unittest

from helpers import data

from mmlab import fleet
from mmlab.cli import Refused


class DetectTest(unittest.TestCase):
    def test_kinds(self):
        self.assertEqual(fleet.detect(data('lkp', 'base')), 'lkp')
        self.assertEqual(fleet.detect(data('mmtests', 'base')), 'mmtests')
        self.assertIsNone(fleet.detect(data('bench')))
        self.assertIsNone(fleet.detect(data('pass.log')))


class LkpTest(unittest.TestCase):
    def setUp(self):
        self.doc = fleet.load_lkp(data('lkp', 'base'))

    def test_a_host_run_per_result_root(self):
        runs = self.doc['runs']
        self.assertEqual(len(runs), 7)
        self.assertEqual({r['side'] for r in runs}, {'host'})
        self.assertEqual([r['run'] for r in runs], list(range(1, 8)))
        self.assertEqual({r['uname'] for r in runs}, {'7.3.4-mmscale-base'})

    def test_workloads_and_metrics(self):
        names = {w for r in self.doc['runs'] for w in r['workloads']}
        self.assertEqual(names, {'will-it-scale-thread-page_fault2@nr_task=100%',
                                 'hackbench-pipe-process@nr_threads=100%', 'iperf-tcp'})
        wis = [r['workloads']['will-it-scale-thread-page_fault2@nr_task=100%']['metrics']
               for r in self.doc['runs'] if 'will-it-scale-thread-page_fault2@nr_task=100%' in r['workloads']]
        self.assertEqual(sorted(m['will-it-scale.per_thread_ops'] for m in wis), [990000.0, 1000000.0, 1010000.0])

    def test_machine(self):
        self.assertEqual(self.doc['machine']['hostname'], 'mmscale-box')
        self.assertEqual(self.doc['machine']['cpus'], 8)

    def test_garbled_stats_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = os.path.join(tmp, '0')
            shutil.copytree(os.path.dirname(self.first_stats()), root)
            with open(os.path.join(root, 'stats.json'), 'w') as f:
                f.write('{"hackbench.throughput": ')
            with self.assertRaisesRegex(Refused, r'stats.json is not valid JSON \(garbled or cut short\?\)'):
                fleet.load_lkp(tmp)

    def first_stats(self):
        for d, _, files in sorted(os.walk(data('lkp', 'base'))):
            if 'stats.json' in files:
                return os.path.join(d, 'stats.json')
        raise AssertionError('no stats.json in tests/data/lkp/base')


class MmtestsTest(unittest.TestCase):
    def test_a_run_per_iteration(self):
        doc = fleet.load_mmtests(data('mmtests', 'base'))
        self.assertEqual([(r['run'], r['failed']) for r in doc['runs']], [(1, None), (2, None)])
        self.assertEqual({r['uname'] for r in doc['runs']}, {'7.3.4-mmscale-base'})
        means = sorted(w['metrics']['hackbench.time_s'] for r in doc['runs']
                       for n, w in r['workloads'].items() if n.startswith('hackbench'))
        self.assertEqual([round(m, 2) for m in means], [0.40, 0.41])

    def test_not_a_log_folder(self):
        with self.assertRaisesRegex(Refused, r'is no mmtests log folder \(no iter-N/ in it\)'):
            fleet.load_mmtests(data('bench'))


if __name__ == '__main__':
    unittest.main()
