#!/usr/bin/env python3
"""A model of the per-CPU memcg charge stock (mm/memcontrol.c, 7.3.4).

It replays charges and uncharges of pages through one stock per CPU under
several designs and counts what reaches the page counters: hierarchical
charges (try_charge_memcg() after a stock miss) and uncharges (a slot given
back, or an uncharge that bypasses the stock).  It also records the most a
slot, a CPU's stock, and an ancestor of every memcg held after any
operation, next to each design's stated bound.

The designs (each keeps 7.3.4's seven slots, batch of 64, round-robin
eviction, a slot freed at 0 pages and uncharges of more than a batch sent
to the counters):
  base        7.3.4: a refill past 64 pages gives the whole slot back
  ceiling128  the slot's ceiling doubled (the first 7.3 posting)
  hyst32      ceiling 64; past it, give back down to 32 pages, not to 0
  budget-own  a slot may hold 128 pages while the stock holds at most
              7 x 64 = 448 over all slots; past that, the refilled slot
              goes back
  budget      the same, but past 448 the fullest slot goes back (the 7.3
              series with CONFIG_MEMCG_STOCK_ABSORB)
  headroom    ceiling min(128, headroom / nr_cpus): a memcg near its limit
              stocks little, one far from it up to 128 pages a slot

The workloads are streams of page counts, seeded, so a run is
reproducible.  They are shapes, not traces: socket memory of a stream that
one CPU both charges (sends) and uncharges (reads), the same with sender
and receiver on two CPUs, and charge-only and uncharge-only streams.

Usage: memcg_stock.py [--ops N] [--seed S] [--json]
"""

import argparse
import json
import random
import sys
from dataclasses import dataclass, field

BATCH = 64
SLOTS = 7


@dataclass
class Memcg:
    """A leaf memcg; every leaf shares one ancestor (its counter is the sum)."""
    name: int
    usage: int = 0            # pages charged to the counter (stock included)
    limit: int = 1 << 30      # memory.max in pages


@dataclass
class Stock:
    cached: list = field(default_factory=lambda: [None] * SLOTS)
    nr: list = field(default_factory=lambda: [0] * SLOTS)
    drain_idx: int = 0


@dataclass
class Counts:
    charges: int = 0          # hierarchical charges
    uncharges: int = 0        # hierarchical uncharges
    max_slot: int = 0         # most pages one slot held after an operation
    max_cpu: int = 0          # most pages one CPU's stock held
    max_ancestor: int = 0     # most stocked pages of the common ancestor, per CPU


class Design:
    name = "base"
    slot_bound = BATCH
    cpu_bound = SLOTS * BATCH

    def __init__(self, ncpus):
        self.ncpus = ncpus

    def over(self, stock, i, memcg):
        """whether slot i must give pages back after a refill"""
        return stock.nr[i] > BATCH

    def keep(self, stock, i):
        """how many pages slot i keeps when it gives pages back"""
        return 0

    def victim(self, stock, i):
        """the slot that gives pages back when slot i is over"""
        return i


class Ceiling128(Design):
    name = "ceiling128"
    slot_bound = 2 * BATCH
    cpu_bound = SLOTS * 2 * BATCH

    def over(self, stock, i, memcg):
        return stock.nr[i] > 2 * BATCH


class Hyst32(Design):
    name = "hyst32"

    def keep(self, stock, i):
        return BATCH // 2


class BudgetOwn(Design):
    """past the stock's budget, the slot just refilled goes back"""
    name = "budget-own"
    slot_bound = 2 * BATCH

    def over(self, stock, i, memcg):
        return stock.nr[i] > 2 * BATCH or sum(stock.nr) > SLOTS * BATCH


class Budget(BudgetOwn):
    """past the stock's budget, the fullest slot goes back (the 7.3 series)"""
    name = "budget"

    def victim(self, stock, i):
        if stock.nr[i] > 2 * BATCH:
            return i
        return max(range(SLOTS), key=lambda j: stock.nr[j])


class Headroom(Design):
    name = "headroom"
    slot_bound = 2 * BATCH
    cpu_bound = SLOTS * 2 * BATCH

    def over(self, stock, i, memcg):
        room = max(0, memcg.limit - memcg.usage) // self.ncpus
        return stock.nr[i] > min(2 * BATCH, max(BATCH, room))


DESIGNS = [Design, Ceiling128, Hyst32, BudgetOwn, Budget, Headroom]


class Machine:
    def __init__(self, design, ncpus):
        self.d = design(ncpus)
        self.stocks = [Stock() for _ in range(ncpus)]
        self.c = Counts()

    def _drain(self, s, i, keep=0):
        m = s.cached[i]
        give = s.nr[i] - keep
        if give > 0:
            m.usage -= give
            self.c.uncharges += 1
        s.nr[i] = keep
        if keep == 0:
            s.cached[i] = None

    def _note(self, s):
        self.c.max_slot = max(self.c.max_slot, max(s.nr))
        self.c.max_cpu = max(self.c.max_cpu, sum(s.nr))
        self.c.max_ancestor = max(self.c.max_ancestor, sum(s.nr))

    def refill(self, cpu, m, n):
        s = self.stocks[cpu]
        if n > BATCH:
            m.usage -= n
            self.c.uncharges += 1
            return
        for i in range(SLOTS):
            if s.cached[i] is m:
                s.nr[i] += n
                if self.d.over(s, i, m):
                    v = self.d.victim(s, i)
                    self._drain(s, v, self.d.keep(s, v))
                self._note(s)
                return
        if None in s.cached:
            i = s.cached.index(None)
        else:
            i = s.drain_idx
            s.drain_idx = (s.drain_idx + 1) % SLOTS
            self._drain(s, i)
        s.cached[i] = m
        s.nr[i] = n
        if self.d.over(s, i, m):
            v = self.d.victim(s, i)
            self._drain(s, v, self.d.keep(s, v))
        self._note(s)

    def charge(self, cpu, m, n):
        s = self.stocks[cpu]
        if n <= BATCH:
            for i in range(SLOTS):
                if s.cached[i] is m:
                    if s.nr[i] >= n:
                        s.nr[i] -= n
                        if s.nr[i] == 0:
                            s.cached[i] = None
                        return
                    break
        batch = max(BATCH, n)
        m.usage += batch
        self.c.charges += 1
        if batch > n:
            self.refill(cpu, m, batch - n)

    def uncharge(self, cpu, m, n):
        self.refill(cpu, m, n)


def stream(rng, ops, k, ncpus, shape):
    """Yield (op, cpu, memcg index, pages): op is 'c' or 'u'.

    Tasks run in time slices: a memcg's task keeps its CPU for a burst of
    about 64 operations before the next one (any memcg, any CPU) runs.
    mixed:  each memcg's socket queue, its sender charging and its reader
            uncharging 1-4 pages at a time on the CPU of the burst, the
            queue held between 0 and 256 pages (a random walk)
    split:  the same queue, sends on CPU 0 and reads on CPU 1
    charge: charges of 1 page (faults), none given back in the stream
    uncharge: uncharges of 1-4 pages (frees), none charged in the stream
    """
    queue = [0] * k
    left = 0
    for _ in range(ops):
        if left == 0:
            j, cpu, left = rng.randrange(k), rng.randrange(ncpus), rng.randint(16, 112)
        left -= 1
        if shape == "charge":
            yield "c", cpu, j, 1
            continue
        if shape == "uncharge":
            yield "u", cpu, j, rng.randint(1, 4)
            continue
        n = rng.randint(1, 4)
        up = queue[j] < n or (queue[j] + n <= 256 and rng.random() < 0.5)
        if up:
            queue[j] += n
            yield "c", (0 if shape == "split" else cpu), j, n
        else:
            queue[j] -= n
            yield "u", (1 if shape == "split" else cpu), j, n


def run(design, shape, k, ncpus, ops, seed, limit=None):
    rng = random.Random(seed)
    mach = Machine(design, ncpus)
    memcgs = [Memcg(i) for i in range(k)]
    if limit is not None:
        for m in memcgs:
            m.limit = limit
    for op, cpu, j, n in stream(rng, ops, k, ncpus, shape):
        if op == "c":
            mach.charge(cpu, memcgs[j], n)
        else:
            mach.uncharge(cpu, memcgs[j], n)
    c = mach.c
    return {"design": mach.d.name, "shape": shape, "k": k,
            "per_1000": round(1000 * (c.charges + c.uncharges) / ops, 1),
            "max_slot": c.max_slot, "max_cpu": c.max_cpu,
            "max_ancestor": c.max_ancestor,
            "slot_bound": mach.d.slot_bound, "cpu_bound": mach.d.cpu_bound}


CASES = [("mixed", k) for k in (1, 2, 4, 8, 16)] + \
        [("split", k) for k in (1, 4, 16)] + \
        [("charge", 4), ("uncharge", 4)]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=200000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    if a.ops < 1000 or a.cpus < 2:
        p.error("--ops must be at least 1000 and --cpus at least 2")
    rows = [run(d, s, k, a.cpus, a.ops, a.seed) for d in DESIGNS for s, k in CASES]
    if a.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    names = [d.name for d in DESIGNS]
    print(f"hierarchical charges + uncharges per 1000 stock operations "
          f"({a.cpus} CPUs, {a.ops} operations, seed {a.seed})")
    print(f"{'workload':10} {'K':>3} " + " ".join(f"{n:>10}" for n in names))
    for s, k in CASES:
        cells = [r["per_1000"] for r in rows if r["shape"] == s and r["k"] == k]
        print(f"{s:10} {k:>3} " + " ".join(f"{v:>10}" for v in cells))
    print()
    print(f"{'bound (pages)':24} " + " ".join(f"{n:>10}" for n in names))
    print(f"{'per memcg per CPU':24} " + " ".join(f"{d.slot_bound:>10}" for d in DESIGNS))
    print(f"{'per CPU, and ancestor':24} " + " ".join(f"{d.cpu_bound:>10}" for d in DESIGNS))
    for key, label in (("max_slot", "seen: most in a slot"), ("max_cpu", "seen: most in a CPU")):
        print(f"{label:24} " + " ".join(f"{max(r[key] for r in rows if r['design'] == n):>10}"
                                        for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
