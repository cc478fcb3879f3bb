# SPDX-License-Identifier: GPL-2.0
"""mmlab.facts: the one reader of lab/lib/kernel-reports and of a line's
case lists (tests/facts.t checks them against grep -E and every line)."""
import os
import tempfile
import unittest

import helpers  # noqa: F401  (puts lab/py on sys.path)

from mmlab import facts


class KernelReportTest(unittest.TestCase):
    def setUp(self):
        self.re = facts.kernel_report_re()

    def test_reports(self):
        for line in ('[ 1.0] BUG: KASAN: slab-use-after-free in f+0x1/0x2',
                     'watchdog: BUG: soft lockup - CPU#0 stuck for 22s!',
                     'INFO: task x:1 blocked for more than 120 seconds.',
                     '[ 24.397760] Oops: int3: 0000 [#1] SMP NOPTI'):
            self.assertTrue(self.re.search(line), line)

    def test_not_reports(self):
        for line in ('mmscale: kmem: ok 7 test_kmem_ptlock', 'blocked for more than x seconds', ''):
            self.assertFalse(self.re.search(line), line)


class CaseListTest(unittest.TestCase):
    """patches/<line>/expected-failures and flaky, read under a made-up TOP."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.top = facts.TOP
        facts.TOP = self.tmp.name
        os.makedirs(os.path.join(self.tmp.name, 'patches', '9.9'))

    def tearDown(self):
        facts.TOP = self.top
        self.tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.tmp.name, 'patches', '9.9', name), 'w') as f:
            f.write(text)

    def test_no_file_is_no_case(self):
        self.assertEqual(facts.flaky('9.9'), {})

    def test_entries(self):
        self.write('expected-failures', '# header\n\nkmem/test_kmem_basic values=^memory # upstream bug\n')
        got = facts.expected_failures('9.9')
        self.assertEqual(list(got), [('kmem', 'test_kmem_basic')])
        values, reason = got[('kmem', 'test_kmem_basic')]
        self.assertEqual(reason, 'upstream bug')
        self.assertTrue(values.match('memory.current 5'))

    def test_bad_line_names_file_and_line(self):
        self.write('flaky', 'memcontrol/test_x # fine\nno slash here\n')
        with self.assertRaisesRegex(facts.FactError, r'^patches/9.9/flaky:2: not "SECTION/CASE'):
            facts.flaky('9.9')


if __name__ == '__main__':
    unittest.main()
