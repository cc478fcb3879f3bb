"""mmlab.facts - facts that several lab tools read, each kept in one data file.

kernel_report_re()      lab/lib/kernel-reports: what a kernel report looks
                        like on a console.
expected_failures(line) patches/<line>/expected-failures: selftest cases
                        that fail on the line's unpatched base here too.
flaky(line)             patches/<line>/flaky: cases that fail now and then
                        on the line's unpatched base here.

The two case lists have the shape of a kdevops expunge list, one case a
line with its reason:

    SECTION/CASE [values=REGEX] # reason

where SECTION is the console section (lab/guest/tests.sh) and values=
picks the lines of the case's output that a report quotes.  A file that
does not exist is an empty list; a line that does not parse is an error
that names the file and the line.
"""
import os
import re

LAB = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOP = os.path.dirname(LAB)
KERNEL_REPORTS = os.path.join(LAB, 'lib', 'kernel-reports')
CASE_LINE = re.compile(r'^([A-Za-z0-9_.-]+)/([A-Za-z0-9_.:-]+)(?:\s+values=(\S+))?\s+#\s*(\S.*)$')


class FactError(Exception):
    """A data file that does not parse."""


def _lines(path):
    """(number, text) of each line of PATH that is not blank or a comment."""
    with open(path, encoding='utf-8') as f:
        for n, raw in enumerate(f, 1):
            text = raw.rstrip('\n')
            if text.strip() and not text.lstrip().startswith('#'):
                yield n, text


def kernel_report_re():
    """One compiled regex that matches any line lab/lib/kernel-reports names."""
    pats = [text.strip() for _, text in _lines(KERNEL_REPORTS)]
    if not pats:
        raise FactError('%s names no pattern' % KERNEL_REPORTS)
    return re.compile('|'.join('(?:%s)' % p for p in pats))


def _cases(line, name):
    """{(section, case): (values_re or None, reason)} of patches/LINE/NAME."""
    path = os.path.join(TOP, 'patches', line, name)
    cases = {}
    if not os.path.exists(path):
        return cases
    for n, text in _lines(path):
        m = CASE_LINE.match(text.strip())
        if not m:
            raise FactError('%s:%d: not "SECTION/CASE [values=REGEX] # reason": %s'
                            % (os.path.relpath(path, TOP), n, text.strip()))
        section, case, values, reason = m.groups()
        try:
            values_re = re.compile(values) if values else None
        except re.error as e:
            raise FactError('%s:%d: values= is not a regex: %s'
                            % (os.path.relpath(path, TOP), n, e))
        cases[(section, case)] = (values_re, reason)
    return cases


def expected_failures(line):
    """patches/LINE/expected-failures as {(section, case): (values_re, reason)}."""
    return _cases(line, 'expected-failures')


def flaky(line):
    """patches/LINE/flaky as {(section, case): (values_re, reason)}."""
    return _cases(line, 'flaky')
