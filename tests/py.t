#!/usr/bin/env bash
# tests/py.t - the unit tests of the Python tools (lab/py/mmlab): tests/py/
# test_*.py, Python's unittest on the saved logs of tests/data/, each test
# one TAP line (tests/py/tap.py).  They need no kernel tree and no build/.
# Needs: python3.
source "$(dirname "$0")/tap.sh"
exec python3 "$TOP/tests/py/tap.py"
