# SPDX-License-Identifier: GPL-2.0
"""Run the unit tests of tests/py/ (test_*.py) and print them as TAP, an
"ok N - test" or "not ok N - test" line each and the plan last, for prove
(tests/py.t).  A failure's traceback follows its line as "# " comments.
Exit status 0 only when every test passed."""
import os
import sys
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class TapResult(unittest.TestResult):
    """A TestResult that prints a TAP line as each test ends."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def line(self, ok, test, note=''):
        self.n += 1
        print('%s %d - %s%s' % ('ok' if ok else 'not ok', self.n, test.id(), note), flush=True)

    def diag(self, err):
        for text in traceback.format_exception(*err):
            for l in text.rstrip('\n').splitlines():
                print('# ' + l)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line(False, test)
        self.diag(err)

    def addError(self, test, err):
        super().addError(test, err)
        self.line(False, test)
        self.diag(err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.line(True, test, ' # SKIP %s' % reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.line(True, test, ' # TODO expected failure')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.line(False, test, ' (passed, but was expected to fail)')


def main():
    sys.path.insert(0, HERE)
    suite = unittest.defaultTestLoader.discover(HERE, pattern='test_*.py', top_level_dir=HERE)
    result = TapResult()
    suite.run(result)
    print('1..%d' % result.n)
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
