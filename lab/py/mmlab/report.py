# SPDX-License-Identifier: GPL-2.0
"""lab/py/report.py - stage "parse": turn one guest console log into results.

What it does: splits the console log written by lab/stages/boot.sh into the
kernel's boot output (KUnit ran there), the test sections printed by
lab/guest/init.sh and the final dmesg dump; parses KUnit's KTAP and each
section's kselftest TAP with the kernel's own
tools/testing/kunit/kunit.py parse (--json); scans the kernel log for
BUG/WARNING/KASAN/Oops/lockdep/RCU-stall/hung-task reports (any hit fails the run);
prints one row per suite with passed/failed/skipped, the skip reasons, the
failures, and last the line "N passed, N failed".  Exit status 0 only when
nothing failed.  A console log that stops inside the boot-time KUnit run
(cut short, or the guest died there) is one failure, "incomplete run",
naming the last suite that started; the cases that never ran are not
counted.  Bad input (a console log or kernel tree that is not there, --out
naming a file) is one "ERROR:" line, exit status 2, and nothing written.
`report.py --rerun-cases LINE` only prints the "section:case,..." list of
the line's flaky cases (patches/<line>/flaky), for the guest's MMSCALE_RERUN.
What it needs: python3 and a kernel tree (--ksrc) for kunit.py.
Writes OUT/kunit.log, OUT/<section>.tap, OUT/*.json, OUT/summary.txt and
OUT/result.json (the counts, for the next stage).
"""
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from . import facts
from .cli import Parser, Refused
from .cli import main as cli_main
from .records import ExpectedReport, KernelReport, Skip, Status

# What counts as a kernel bug report on the console: lab/lib/kernel-reports.
BUG_RE = facts.kernel_report_re()
# Reports the tests cause on purpose.  Each is (header, frame, reason): a
# block from a line matching header to the end of its stack dump ("</TASK>")
# is not a bug when its stack has a line matching frame.  Anything else
# that matches lab/lib/kernel-reports fails the run.
EXPECTED_REPORTS = [
    ExpectedReport.of(r'\btest_memcontrol invoked oom-killer:', r'Comm: test_memcontrol',
                      "test_memcontrol's OOM tests fill a memcg on purpose (the OOM killer prints a stack)"),
    # the task name is cut to 15 characters in these reports
    ExpectedReport.of(r'\btest_memcg_stoc invoked oom-killer:', r'Comm: test_memcg_stoc',
                      "test_memcg_stock's OOM test fills a memcg at memory.max on purpose"),
    ExpectedReport.of(r'vmalloc_test/\d+: vmalloc error: size \d+, vm_struct allocation failed',
                      r'\[test_vmalloc\]',
                      "test_vmalloc's align_shift_alloc_test asks for alignments that cannot be met"),
]
# Selftest cases that fail on a line's unpatched base here too
# (patches/<line>/expected-failures; the line is the kernel's
# VERSION.PATCHLEVEL, --line or --ksrc's Makefile): a failure of one is
# not counted as failed, it is listed as an "upstream failure" with the
# reason and the values the test printed (values= of its entry).  Cases
# that fail there now and then (patches/<line>/flaky): the guest runs such
# a case's section once more when the case failed (lab/guest/tests.sh,
# MMSCALE_RERUN, from --rerun-cases), as section "<section>-rerun".  The
# case counts as passed only when it passes there; it is then listed as
# "flaky" with the reason, so that every retry is reported.  A failure on
# the rerun too, or no rerun, is a failure.  Both files: lab/py/mmlab/facts.py.
# sections that lab/guest/init.sh stopped at their time limit: name -> seconds
SECTION_TIMEOUTS = {}
MARK = re.compile(r'^mmscale: (begin|output|end|dmesg begin|dmesg end|guest up|poweroff|error)'
                  r'(?::? ?(.*))?$')
SKIP_RE = re.compile(r'^\s*(?:ok|not ok) \d+ (?:- )?(.*?) # SKIP ?(.*)$')


KTAP_RESULT = re.compile(r'^(?:not )?ok (\d+)\b ?-? ?(\S*)')
KTAP_PLAN = re.compile(r'^1\.\.(\d+)$')
KTAP_SUBTEST = re.compile(r'^    # Subtest: (\S+)')


def kunit_incomplete(boot):
    """When the boot-time KTAP stops before its end, say where: the suite
    that started and did not finish, or the suites that never started."""
    plan, done, open_suite, last, seen = None, 0, None, None, False
    for line in boot:
        line = PRINTK_PREFIX.sub('', line)
        if line == 'KTAP version 1':
            seen = True
            continue
        if not seen:
            continue
        m = KTAP_PLAN.match(line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = KTAP_SUBTEST.match(line)
        if m:
            open_suite = m.group(1)
            continue
        m = KTAP_RESULT.match(line)
        if m:
            done += 1
            last = m.group(2) or open_suite
            open_suite = None
    if not seen:
        return None
    if open_suite:
        return ('the console log stops inside KUnit suite "%s" (%d of %s suites finished before it)'
                % (open_suite, done, plan if plan is not None else '?'))
    if plan is not None and done < plan:
        return ('the console log stops after KUnit suite "%s" (%d of %d suites finished)'
                % (last, done, plan) if last else
                'the console log stops before the first KUnit suite finished (0 of %d)' % plan)
    return None


def printed_before(body, case, limit=8):
    """The last lines (at most limit) a test printed between the result line
    before CASE's "not ok" line and that line: the numbers a failed check
    shows, so that a CI log that keeps only the summary still has them."""
    seen = []
    for line in body:
        t = line.strip()
        m = KTAP_RESULT.match(t)
        if m and t.startswith('not ok') and m.group(2) == case:
            return seen[-limit:]
        if m or KTAP_PLAN.match(t) or t.startswith('TAP version'):
            seen = []
        elif t:
            seen.append(t)
    return []


@dataclass
class Suite:
    """One row of the summary: a KUnit suite or a console section, its
    counts and the cases behind them."""
    name: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: List[str] = field(default_factory=list)
    skips: List[Skip] = field(default_factory=list)
    # (case, reason, values printed)
    upstream: List[Tuple[str, str, List[str]]] = field(default_factory=list)
    # (case, reason): failed, then passed on the rerun
    flaky: List[Tuple[str, str]] = field(default_factory=list)
    # failed case: what the FAILED row adds after its name
    notes: Dict[str, str] = field(default_factory=dict)
    # failed case: the lines it printed
    printed: Dict[str, List[str]] = field(default_factory=dict)

    def add(self, status, case):
        """Count case, of Status status (ERROR counts as failed)."""
        if status is Status.PASS:
            self.passed += 1
        elif status is Status.SKIP:
            self.skipped += 1
        else:
            self.failed += 1
            self.failures.append(case)


def split_console(lines):
    """Return (kernel_boot_lines, {section: (lines, rc)}, dmesg_lines, errors, facts)."""
    boot, sections, dmesg, errors, facts = [], {}, None, [], []
    state, cur = 'boot', None
    for line in lines:
        if line.startswith('mmscale: fact '):
            facts.append(line[len('mmscale: fact '):])
            continue
        m = MARK.match(line)
        if m:
            what, arg = m.group(1), (m.group(2) or '').strip()
            if what == 'guest up':
                state = 'init'
            elif what == 'begin':
                sections[arg] = (None, None)
                state = 'init'
            elif what == 'output':
                cur = arg
                sections[cur] = ([], None)
                state = 'section'
            elif what == 'end':
                # "NAME rc=N" or, when lab/guest/init.sh's limit ended
                # the section, "NAME rc=124 timeout=SECONDS"
                name, _, rest = arg.partition(' rc=')
                rc, _, limit = rest.partition(' timeout=')
                if name in sections and sections[name][0] is not None:
                    sections[name] = (sections[name][0], int(rc or 1))
                if limit:
                    SECTION_TIMEOUTS[name] = limit
                state = 'init'
            elif what == 'dmesg begin':
                dmesg = []
                state = 'dmesg'
            elif what == 'dmesg end':
                state = 'init'
            elif what == 'error':
                errors.append(arg)
            continue
        if state == 'boot':
            boot.append(line)
        elif state == 'section':
            sections[cur][0].append(line)
        elif state == 'dmesg':
            dmesg.append(line)
    return boot, sections, dmesg, errors, facts


PLAN_RE = re.compile(r'^1\.\.\d+$')


TOP_RESULT_RE = re.compile(r'^(ok|not ok) \d+\b')
KSFT_SKIP_RE = re.compile(r'^(ok|not ok) (\d+) # (SKIP|XFAIL)\b ?(.*)$')


def ktap_compat(lines):
    """Adapt kselftest TAP 13 to what kunit.py's KTAP parser reads:
    kselftest writes a skip as "ok 3 # SKIP test_name" (an empty
    description), KTAP as "ok 3 test_name # SKIP"; the plan goes first; and
    a binary that prints results without "TAP version"/plan lines (6.12's
    test_memcontrol) gets them, with the plan counting its results."""
    out = []
    for line in lines:
        m = KSFT_SKIP_RE.match(line)
        if m:
            line = '%s %s %s # SKIP' % (m.group(1), m.group(2), m.group(4) or 'unnamed')
        out.append(line)
    if not any(l.startswith('TAP version') for l in out):
        results = [l for l in out if TOP_RESULT_RE.match(l)]
        if results:
            out = ['TAP version 13', '1..%d' % len(results)] + out
    return lead_plan(out)


def lead_plan(lines):
    """Move a trailing top-level TAP plan ("1..N" after the results, as
    run_vmtests.sh prints it; legal TAP 13) up under the version line, where
    kunit.py's KTAP parser expects it (6.12's parser loops forever on a
    trailing plan)."""
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith('TAP version'))
    except StopIteration:
        return lines
    if start + 1 < len(lines) and PLAN_RE.match(lines[start + 1]):
        return lines
    plans = [i for i, l in enumerate(lines) if i > start and PLAN_RE.match(l)]
    if not plans:
        return lines
    plan = lines[plans[-1]]
    rest = [l for i, l in enumerate(lines) if i != plans[-1]]
    return rest[:start + 1] + [plan] + rest[start + 1:]


def kunit_parse(ksrc, path, json_path):
    """Run kunit.py parse --json on path; return (JSON tree or None, error)."""
    kunit = os.path.join(ksrc, 'tools/testing/kunit/kunit.py')
    if not os.path.exists(kunit):
        return None, '%s is missing' % kunit
    if os.path.exists(json_path):
        os.unlink(json_path)
    with open(json_path + '.txt', 'w') as out:
        try:
            subprocess.run([sys.executable, kunit, 'parse', '--json=' + json_path, path],
                           stdout=out, stderr=subprocess.STDOUT, check=False, timeout=120)
        except subprocess.TimeoutExpired:
            return None, 'kunit.py parse %s did not finish in 120 s' % path
    try:
        with open(json_path) as f:
            return json.load(f), None
    except (OSError, ValueError):
        return None, 'kunit.py parse wrote no JSON (see %s.txt)' % json_path


def walk_cases(group, prefix=''):
    """Yield (case name, Status) for every leaf test case in a JSON group."""
    for case in group.get('test_cases', []):
        yield prefix + case['name'], Status.of(case['status'])
    for sub in group.get('sub_groups', []):
        yield from walk_cases(sub, prefix + sub['name'] + '.')


PRINTK_PREFIX = re.compile(r'^\[\s*\d+\.\d+\]\s?')
NOT_A_REASON = re.compile(r'^(\[(PASS|SKIP|FAIL)\]|-+|running .*|TAP version.*|1\.\.\d+)$')


def skip_reasons(lines):
    """Map case name -> skip reason.  KUnit and ksft give it after "# SKIP"
    on the result line; run_vmtests.sh does not, so use the test's last
    diagnostic line before its result."""
    reasons = {}
    last_diag = ''
    for line in lines:
        line = PRINTK_PREFIX.sub('', line)
        m = SKIP_RE.match(line)
        if m and not line.lstrip().startswith('#'):
            reasons[m.group(1).strip()] = m.group(2).strip() or last_diag
            last_diag = ''
            continue
        diag = line.strip().lstrip('#').strip()
        if diag and not NOT_A_REASON.match(diag) and not SKIP_RE.match(diag):
            last_diag = diag
    return reasons


def kernel_reports(klog):
    """The lines of klog that lab/lib/kernel-reports calls a report."""
    return [KernelReport(i, line) for i, line in enumerate(klog) if BUG_RE.search(line)]


def drop_expected(klog):
    """Remove the blocks of EXPECTED_REPORTS from a kernel log; return the
    rest and {reason: count}."""
    rest, expected, i = [], {}, 0
    while i < len(klog):
        for e in EXPECTED_REPORTS:
            if e.header.search(klog[i]):
                end = i
                while end < len(klog) - 1 and end - i < 120 and '</TASK>' not in klog[end]:
                    end += 1
                block = klog[i:end + 1]
                if '</TASK>' in klog[end] and any(e.frame.search(l) for l in block):
                    expected[e.reason] = expected.get(e.reason, 0) + 1
                    i = end + 1
                    break
        else:
            rest.append(klog[i])
            i += 1
    return rest, expected


def write(path, lines):
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def check_args(args):
    """Refuse bad input before anything is written."""
    if not os.path.exists(args.console):
        raise Refused('--console %s: no such file' % args.console)
    if not os.path.isfile(args.console):
        raise Refused('--console %s is not a file' % args.console)
    try:
        with open(args.console, errors='replace') as f:
            lines = [l.rstrip('\n').rstrip('\r') for l in f]
    except OSError as e:
        raise Refused('--console %s: cannot read it: %s' % (args.console, e.strerror or e))
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise Refused('--out %s exists and is not a folder' % args.out)
    up = os.path.abspath(args.out)
    while not os.path.exists(up):
        up = os.path.dirname(up)
    if not os.path.isdir(up):
        raise Refused('--out %s: %s is a file, not a folder' % (args.out, up))
    for e in args.expect.split(','):
        if e and not re.match(r'^[A-Za-z0-9][A-Za-z0-9_.-]*$', e):
            raise Refused('--expect: "%s" is not a section name (letters, digits, "_", ".", "-")' % e)
    kunit = os.path.join(args.ksrc, 'tools/testing/kunit/kunit.py')
    if not os.path.isfile(kunit):
        raise Refused('--ksrc %s is not a kernel tree with tools/testing/kunit/kunit.py '
                      '(build/linux after make tree)' % args.ksrc)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        raise Refused('--out %s: cannot make it: %s' % (args.out, e.strerror or e))
    return lines


def main():
    return cli_main(run)


def tree_line(ksrc):
    """VERSION.PATCHLEVEL of a kernel tree's Makefile ("7.3"), or None."""
    v = {}
    try:
        with open(os.path.join(ksrc, 'Makefile')) as f:
            for l in f:
                m = re.match(r'^(VERSION|PATCHLEVEL) = (\d+)$', l.strip())
                if m:
                    v[m.group(1)] = m.group(2)
                if len(v) == 2:
                    break
    except OSError:
        return None
    return '%s.%s' % (v['VERSION'], v['PATCHLEVEL']) if len(v) == 2 else None


def rerun_status(ksrc, out, sections, name, case):
    """CASE's status in the rerun section NAME, or None when it did not run."""
    body, _ = sections.get(name, (None, None))
    if body is None:
        return None
    tap = os.path.join(out, name + '.tap')
    write(tap, ktap_compat(body))
    tree, err = kunit_parse(ksrc, tap, os.path.join(out, name + '.json'))
    if err or not tree:
        return None
    for c, status in walk_cases(tree):
        if c == case:
            return status
    return None


def rerun_cases(line):
    """The guest's MMSCALE_RERUN for LINE: "section:case,..." of its flaky cases."""
    return ','.join('%s:%s' % (sec, case) for (sec, case) in sorted(facts.flaky(line)))


def run():
    if len(sys.argv) == 3 and sys.argv[1] == '--rerun-cases':
        # lab/stages/run.sh: which cases the guest reruns their section for
        if not re.match(r'^\d+\.\d+$', sys.argv[2]):
            raise Refused('--rerun-cases: "%s" is not a line (VERSION.PATCHLEVEL)' % sys.argv[2])
        print(rerun_cases(sys.argv[2]))
        return 0
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument('--console', required=True, help='console log from lab/stages/boot.sh')
    ap.add_argument('--ksrc', required=True, help='kernel tree (for kunit.py)')
    ap.add_argument('--out', required=True, help='directory for parsed results')
    ap.add_argument('--line', default=None,
                    help='the line (VERSION.PATCHLEVEL) whose known upstream failures apply '
                         '(default: that of the --ksrc tree)')
    ap.add_argument('--expect', default='kunit',
                    help='comma separated sections that must have run '
                         '("kunit" for the boot-time KUnit run)')
    args = ap.parse_args()
    lines = check_args(args)
    line = args.line or tree_line(args.ksrc)
    try:
        upstream = facts.expected_failures(line)
        flaky_cases = facts.flaky(line)
    except facts.FactError as e:
        raise Refused(str(e))
    out = os.path.abspath(args.out)
    boot, sections, dmesg, errors, guest_facts = split_console(lines)
    expect = [e for e in args.expect.split(',') if e]
    suites, problems = [], []
    incomplete = kunit_incomplete(boot) if 'kunit' in expect else None

    if 'kunit' in expect:
        write(os.path.join(out, 'kunit.log'), boot)
        tree, err = kunit_parse(args.ksrc, os.path.join(out, 'kunit.log'),
                                os.path.join(out, 'kunit.json'))
        groups = tree.get('sub_groups', []) if tree else []
        if err:
            problems.append('kunit: ' + err)
        elif not groups:
            problems.append('kunit: no KTAP results in the boot log (see %s/kunit.json.txt)' % out)
        reasons = skip_reasons(boot)
        if incomplete:
            never = [e for e in expect if e != 'kunit' and sections.get(e, (None,))[0] is None]
            problems.append('incomplete run: %s; the cases that did not run are not counted%s'
                            % (incomplete, '; not run: ' + ', '.join(never) if never else ''))
        for g in groups:
            s = Suite('kunit:' + g['name'])
            for case, status in walk_cases(g):
                if incomplete and not case.split('.')[-1]:
                    continue  # a case kunit.py made up for the missing lines
                s.add(status, case)
                if status is Status.SKIP:
                    s.skips.append(Skip(case, reasons.get(case.split('.')[-1], '')))
            if not g.get('test_cases') and not g.get('sub_groups') and not incomplete:
                s.add(Status.FAIL, '(suite reported no cases)')
            suites.append(s)

    for name in [e for e in expect if e != 'kunit']:
        body, rc = sections.get(name, (None, None))
        s = Suite(name)
        suites.append(s)
        if body is None and incomplete:
            continue  # the run stopped in KUnit, before any section: said once above
        if body is None:
            s.add(Status.FAIL, '(section did not run or did not finish)')
            continue
        if name in SECTION_TIMEOUTS:
            s.add(Status.FAIL, '(section timed out after %s s; what it printed is kept)'
                  % SECTION_TIMEOUTS[name])
        tap = os.path.join(out, name + '.tap')
        write(tap, ktap_compat(body))
        tree, err = kunit_parse(args.ksrc, tap, os.path.join(out, name + '.json'))
        if err:
            problems.append('%s: %s' % (name, err))
        cases = list(walk_cases(tree)) if tree else []
        reasons = skip_reasons(body)
        for case, status in cases:
            known = upstream.get((name, case))
            if status is Status.FAIL and known:
                values = [l.strip() for l in body if known[0] and known[0].match(l.strip())]
                s.upstream.append((case, known[1], values))
                continue
            flaky = flaky_cases.get((name, case), (None, None))[1]
            if status is Status.FAIL and flaky:
                again = rerun_status(args.ksrc, out, sections, name + '-rerun', case)
                if again is Status.PASS:
                    s.add(Status.PASS, case)
                    s.flaky.append((case, flaky))
                    continue
                s.add(Status.FAIL, case)
                s.notes[case] = ' (it fails now and then on the base; %s)' % (
                    'no rerun ran' if again is None else 'it failed on the rerun too')
                s.printed[case] = printed_before(body, case)
                continue
            s.add(status, case)
            if status is Status.FAIL:
                s.printed[case] = printed_before(body, case)
            if status is Status.SKIP:
                s.skips.append(Skip(case, reasons.get(case, '')))
        if not cases:
            s.add(Status.FAIL, '(no TAP results, exit status %s)' % rc)
        elif rc not in (0, 4) and not s.failed and not s.upstream and not s.flaky:
            s.add(Status.FAIL, '(exit status %s with no failed case)' % rc)

    for e in errors:
        problems.append('guest: ' + e)

    klog = dmesg if dmesg is not None else lines
    klog, expected = drop_expected(klog)
    hits = kernel_reports(klog)
    if hits:
        first = hits[0].index
        problems.append('kernel log has %d bug report line(s); first lines:\n      %s'
                        % (len(hits), '\n      '.join(klog[first:first + 12])))
    if dmesg is None and not incomplete:
        problems.append('no dmesg dump: the guest did not reach the end of its plan')

    rows = ['%-32s %7s %7s %7s' % ('suite', 'passed', 'failed', 'skipped')]
    for s in suites:
        rows.append('%-32s %7d %7d %7d' % (s.name, s.passed, s.failed, s.skipped))
    for s in suites:
        for k in s.skips:
            rows.append('  skipped %s: %s: %s' % (s.name, k.case, k.reason or 'no reason given'))
    for s in suites:
        for case in s.failures:
            printed = s.printed.get(case)
            rows.append('  FAILED  %s: %s%s%s' % (s.name, case, s.notes.get(case, ''),
                                                   '; the test printed: ' + ' | '.join(printed)
                                                   if printed else ''))
    for s in suites:
        for case, why in s.flaky:
            rows.append('  flaky %s: %s: failed, then passed on the rerun (section %s-rerun): %s'
                        % (s.name, case, s.name, why))
    for s in suites:
        for case, why, values in s.upstream:
            rows.append('  upstream failure %s: %s: %s; the test printed: %s'
                        % (s.name, case, why, ', '.join(values) or 'nothing'))
    for reason, count in sorted(expected.items()):
        rows.append('  expected kernel report x%d: %s' % (count, reason))
    for p in problems:
        rows.append('  FAILED  ' + p)
    passed = sum(s.passed for s in suites)
    failed = sum(s.failed for s in suites) + len(problems)
    skipped = sum(s.skipped for s in suites)
    for f in guest_facts:
        rows.append('  fact: ' + f)
    rows.append('results: %s' % out)
    rows.append('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    write(os.path.join(out, 'summary.txt'), rows)
    # the same counts for the next stage (lab/stages/run.sh, lab/stages/mail.sh,
    # lab/stages/bisect.sh), which reads them here rather than from summary.txt
    with open(os.path.join(out, 'result.json'), 'w') as f:
        json.dump({'line': line, 'console': os.path.abspath(args.console),
                   'passed': passed, 'failed': failed, 'skipped': skipped,
                   'suites': {s.name: {'passed': s.passed, 'failed': s.failed,
                                       'skipped': s.skipped} for s in suites}},
                  f, indent=1, sort_keys=True)
        f.write('\n')
    print('\n'.join(rows))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
