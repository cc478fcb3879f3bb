#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lab/compare.py - stage "compare": LKP-style A/B table from guest console logs.

What it does: reads "mmscale: metric WORKLOAD KEY VALUE" lines from the
console logs of interleaved base and head boots (lab/ab.sh), and prints,
per workload, the 0-day/LKP table: base mean (with +-%stddev when over 2%),
%change, head mean (+-%stddev), metric key.  A change is marked
significant ("*") only when each side's median lies outside the other
side's min-max range.  Title lines say where it was measured.
What it needs: python3.  Writes nothing; prints the table.
"""
import argparse
import re
import statistics
import sys

METRIC = re.compile(r'^mmscale: metric (\S+) (\S+) ([0-9.]+)$')


def read(paths):
    vals = {}
    for path in paths:
        with open(path, errors='replace') as f:
            for line in f:
                m = METRIC.match(line.rstrip('\r\n'))
                if m:
                    vals.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
    return vals


def fmt(vs):
    mean = statistics.mean(vs)
    sd = statistics.stdev(vs) / mean * 100 if len(vs) > 1 and mean else 0.0
    return '%14.0f %s' % (mean, '± %2.0f%%' % sd if sd > 2 else '     ')


def significant(a, b):
    return (not min(b) <= statistics.median(a) <= max(b) and
            not min(a) <= statistics.median(b) <= max(a))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--base', nargs='+', required=True, help='console logs of base boots')
    ap.add_argument('--head', nargs='+', required=True, help='console logs of head boots')
    ap.add_argument('--where', default='QEMU TCG, 2 vCPUs, emulated: not a performance figure')
    args = ap.parse_args()
    base, head = read(args.base), read(args.head)
    keys = sorted(set(base) | set(head))
    if not keys:
        print('compare: no metrics in the logs', file=sys.stderr)
        return 1
    print('# %d base and %d head boots, interleaved; %s' % (len(args.base), len(args.head), args.where))
    for workload in sorted({k[0] for k in keys}):
        print('\n%s\n%21s %16s %21s' % (workload, 'base', '%change', 'head'))
        print('%21s %16s %21s' % ('-' * 18, '-' * 14, '-' * 18))
        for key in [k for k in keys if k[0] == workload]:
            a, b = base.get(key), head.get(key)
            if not a or not b:
                print('%40s   %s (missing on %s)' % ('', key[1], 'base' if not a else 'head'))
                continue
            change = (statistics.mean(b) - statistics.mean(a)) / statistics.mean(a) * 100
            print('%s %+14.1f%%%s %s  %s' % (fmt(a), change, '*' if significant(a, b) else ' ',
                                           fmt(b), key[1]))
    print('\n* = significant: each median outside the other side\'s min-max')
    return 0


if __name__ == '__main__':
    sys.exit(main())
