# SPDX-License-Identifier: GPL-2.0
"""What the command lines of the lab's Python tools share: bad input is one
"ERROR:" line on stderr and exit status 2, never a traceback or a usage
screen (tests/frontdoor.t checks it on every tool)."""
import argparse
import json
import sys


class Refused(Exception):
    """Bad input: main() prints it as one ERROR line and exits 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are Refused, naming --help."""

    def error(self, message):
        raise Refused('%s (see %s --help)' % (message, self.prog))


def main(run):
    """Call run(); a Refused becomes one ERROR line and exit status 2."""
    try:
        return run()
    except Refused as e:
        print('ERROR: %s' % e, file=sys.stderr)
        return 2


def read_json(path, invalid):
    """The JSON document in path; a file that cannot be read, or is not
    JSON, is a Refused: invalid is its message, with the path and the
    parser's complaint for its two %s."""
    try:
        with open(path, errors='strict') as f:
            return json.load(f)
    except OSError as e:
        raise Refused('%s: cannot read it: %s' % (path, e.strerror or e))
    except ValueError as e:
        raise Refused(invalid % (path, e))
