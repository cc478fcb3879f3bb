# SPDX-License-Identifier: GPL-2.0
"""mmlab - the lab's Python tools as one package.

  cli       what every tool's command line shares: Refused, Parser, main()
  records   typed records: a run, a workload's results, a skip, a kernel
            report; the kinds of line and the statuses of a test case
  facts     facts kept in data files (kernel-reports, a line's case lists)
  compare   stage "compare": benchmark logs -> results.json -> LKP tables
  fleet     LKP and mmtests results read as compare's runs
  report    stage "parse": a guest console log -> results
  objnames  objdiff's check of section headers, symbols and relocations

Each tool is started from the shell through its launcher, lab/py/TOOL.py,
or as "python3 -m mmlab.TOOL" with lab/py on PYTHONPATH.  Unit tests:
tests/py/test_*.py, on saved logs in tests/data/ (tests/py.t).
"""
