# SPDX-License-Identifier: GPL-2.0
"""mmlab.report's parsing on the saved console logs of tests/data/: the
parts that need no kernel tree (kunit.py's part is tests/report.t's)."""
import unittest

from helpers import data

from mmlab import report
from mmlab.records import KernelReport, Skip, Status


def console(name):
    with open(data(name), errors='replace') as f:
        return [l.rstrip('\n').rstrip('\r') for l in f]


class SplitConsoleTest(unittest.TestCase):
    """split_console() cuts a console into boot, sections and dmesg."""

    def test_pass_log(self):
        boot, sections, dmesg, errors, facts = report.split_console(console('pass.log'))
        self.assertTrue(boot[1].startswith('[    0.000000] Linux version 6.12.117'))
        self.assertEqual(sorted(sections), ['memcontrol', 'mm'])
        self.assertEqual(sections['mm'][1], 4)
        self.assertEqual(sections['memcontrol'][0][:2], ['TAP version 13', '1..3'])
        self.assertEqual(dmesg, ['[    0.000000] Linux version 6.12.117 (mmscale@lab) #1 SMP PREEMPT_DYNAMIC',
                                 '[   40.000000] test_vmalloc: All test took worker0=1 cycles'])
        self.assertEqual((errors, facts), ([], []))

    def test_died_log_has_no_end(self):
        _, sections, dmesg, _, _ = report.split_console(console('died.log'))
        self.assertIsNone(sections['mm'][1])
        self.assertIsNone(dmesg)

    def test_a_section_cut_at_its_time_limit(self):
        lines = ['mmscale: begin mm', 'mmscale: output mm', 'ok 1 x',
                 'mmscale: end mm rc=124 timeout=300']
        _, sections, _, _, _ = report.split_console(lines)
        self.assertEqual(sections['mm'], (['ok 1 x'], 124))
        self.assertEqual(report.SECTION_TIMEOUTS.pop('mm'), '300')


class KunitIncompleteTest(unittest.TestCase):
    """kunit_incomplete() says where a boot-time KTAP run stops."""

    def test_complete_run(self):
        boot, _, _, _, _ = report.split_console(console('pass.log'))
        self.assertIsNone(report.kunit_incomplete(boot))

    def test_stops_inside_a_suite(self):
        boot = ['KTAP version 1', '1..3', '    KTAP version 1', '    # Subtest: one', '    1..1',
                '    ok 1 a', 'ok 1 one', '    # Subtest: two']
        self.assertEqual(report.kunit_incomplete(boot),
                         'the console log stops inside KUnit suite "two" (1 of 3 suites finished before it)')

    def test_stops_between_suites(self):
        boot = ['[ 1.0] KTAP version 1', '[ 1.0] 1..2', '[ 1.1] ok 1 one']
        self.assertEqual(report.kunit_incomplete(boot),
                         'the console log stops after KUnit suite "one" (1 of 2 suites finished)')


class TapTest(unittest.TestCase):
    """kselftest TAP made readable to kunit.py's KTAP parser."""

    def test_skip_moves_the_name(self):
        self.assertEqual(report.ktap_compat(['TAP version 13', '1..1', 'ok 1 # SKIP test_x']),
                         ['TAP version 13', '1..1', 'ok 1 test_x # SKIP'])

    def test_results_without_a_header_get_one(self):
        self.assertEqual(report.ktap_compat(['ok 1 a', 'not ok 2 b']),
                         ['TAP version 13', '1..2', 'ok 1 a', 'not ok 2 b'])

    def test_trailing_plan_goes_first(self):
        self.assertEqual(report.lead_plan(['TAP version 13', 'ok 1 a', 'ok 2 b', '1..2']),
                         ['TAP version 13', '1..2', 'ok 1 a', 'ok 2 b'])

    def test_skip_reasons(self):
        _, sections, _, _, _ = report.split_console(console('pass.log'))
        self.assertEqual(report.skip_reasons(sections['mm'][0]),
                         {'test_vmalloc.sh smoke': 'CONFIG_TEST_VMALLOC=m'})
        boot, _, _, _, _ = report.split_console(console('pass.log'))
        self.assertEqual(report.skip_reasons(boot)['test_kfree_rcu'],
                         "can't do kfree_rcu() when test is built-in")

    def test_printed_before_a_failure(self):
        body = ['ok 1 a', '# value 7', '# want 8', 'not ok 2 b']
        self.assertEqual(report.printed_before(body, 'b'), ['# value 7', '# want 8'])


class KernelReportsTest(unittest.TestCase):
    """kernel_reports() and the reports tests cause on purpose."""

    def test_warning_log(self):
        _, _, dmesg, _, _ = report.split_console(console('warning.log'))
        hits = report.kernel_reports(dmesg)
        self.assertTrue(hits)
        self.assertIsInstance(hits[0], KernelReport)
        self.assertIn('WARNING:', hits[0].text)
        self.assertEqual(dmesg[hits[0].index], hits[0].text)

    def test_pass_log_has_none(self):
        _, _, dmesg, _, _ = report.split_console(console('pass.log'))
        self.assertEqual(report.kernel_reports(dmesg), [])

    def test_expected_oom_block_is_dropped(self):
        klog = ['[ 5.0] test_memcontrol invoked oom-killer: gfp_mask=0xcc0',
                '[ 5.0] CPU: 1 PID: 99 Comm: test_memcontrol Not tainted',
                '[ 5.0] Call Trace:', '[ 5.0]  <TASK>', '[ 5.0]  dump_stack+0x1/0x2',
                '[ 5.0]  </TASK>', '[ 6.0] after']
        rest, expected = report.drop_expected(klog)
        self.assertEqual(rest, ['[ 6.0] after'])
        self.assertEqual(list(expected.values()), [1])

    def test_other_oom_block_stays(self):
        klog = ['[ 5.0] test_memcontrol invoked oom-killer: gfp_mask=0xcc0',
                '[ 5.0] CPU: 1 PID: 99 Comm: bash Not tainted',
                '[ 5.0] Call Trace:', '[ 5.0]  </TASK>']
        rest, expected = report.drop_expected(klog)
        self.assertEqual((rest, expected), (klog, {}))
        self.assertEqual([h.index for h in report.kernel_reports(rest)], [2])


class SuiteTest(unittest.TestCase):
    """A suite's counts by Status."""

    def test_counts(self):
        s = report.Suite('mm')
        for status, case in ((Status.PASS, 'a'), (Status.SKIP, 'b'), (Status.FAIL, 'c'),
                             (Status.of('ERROR'), 'd'), (Status.of('SOMETHING'), 'e')):
            s.add(status, case)
        self.assertEqual((s.passed, s.skipped, s.failed, s.failures), (1, 1, 3, ['c', 'd', 'e']))

    def test_walk_cases_gives_status(self):
        tree = {'name': 'x', 'test_cases': [{'name': 'a', 'status': 'PASS'}],
                'sub_groups': [{'name': 'g', 'test_cases': [{'name': 'b', 'status': 'SKIP'}]}]}
        self.assertEqual(list(report.walk_cases(tree)), [('a', Status.PASS), ('g.b', Status.SKIP)])

    def test_skip_record(self):
        self.assertEqual(Skip('c', 'why'), Skip(case='c', reason='why'))


if __name__ == '__main__':
    unittest.main()
