#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# lab/py/report.py - stage "parse": one guest console log into results.
# The command line of mmlab.report (lab/py/mmlab/report.py, which says how to
# use it); Python puts this folder, and so the package, on sys.path.
import sys

from mmlab.report import main

if __name__ == '__main__':
    sys.exit(main())
