#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# lab/py/jobs.py - stage "jobs": a matrix of make bench as LKP job files and mmtests configs.
# The command line of mmlab.jobs (lab/py/mmlab/jobs.py, which says how to
# use it); Python puts this folder, and so the package, on sys.path.
import sys

from mmlab.jobs import main

if __name__ == '__main__':
    sys.exit(main())
