#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# lab/py/objnames.py - objdiff's check of section headers, symbol tables and relocations.
# The command line of mmlab.objnames (lab/py/mmlab/objnames.py, which says how to
# use it); Python puts this folder, and so the package, on sys.path.
import sys

from mmlab.objnames import main

if __name__ == '__main__':
    sys.exit(main())
