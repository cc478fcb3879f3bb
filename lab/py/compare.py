#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# lab/py/compare.py - stage "compare": benchmark logs into results.json, and LKP-style tables.
# The command line of mmlab.compare (lab/py/mmlab/compare.py, which says how to
# use it); Python puts this folder, and so the package, on sys.path.
import sys

from mmlab.compare import main

if __name__ == '__main__':
    sys.exit(main())
