# SPDX-License-Identifier: GPL-2.0
"""What the unit tests of lab/py/mmlab share: where the saved inputs are,
and a tool's main() run with arguments, its output captured."""
import contextlib
import io
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(TOP, 'tests', 'data')
sys.path.insert(0, os.path.join(TOP, 'lab', 'py'))


def data(*parts):
    """A saved input under tests/data/."""
    return os.path.join(DATA, *parts)


def run_main(main, prog, *args):
    """(exit status, stdout, stderr) of main() run as "prog args"."""
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = [prog] + list(args)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main()
    finally:
        sys.argv = argv
    return rc, out.getvalue(), err.getvalue()
