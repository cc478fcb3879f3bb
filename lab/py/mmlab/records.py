# SPDX-License-Identifier: GPL-2.0
"""mmlab.records - typed records of what the tools read, hand on and save.

A benchmark run (Run) holds a Workload record per workload it ran; compare
collect saves each as the JSON object to_json() gives, one run of
results.json's "runs", and load() reads those objects back.  A test case
of a console log has a Status, as kunit.py parse --json names it; a Skip
is a skipped case with the reason it gave; a KernelReport is a line of a
kernel log that lab/lib/kernel-reports calls a report.
"""
import dataclasses
import enum
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Pattern


class LineKind(enum.Enum):
    """The KIND of an "mmscale: KIND NAME ..." line that bench/workloads.sh
    prints, which compare collect reads."""
    METRIC = 'metric'
    OPS = 'ops'
    COUNTER = 'counter'
    INFO = 'info'
    ERROR = 'error'
    SKIP = 'skip'
    SIZE = 'size'
    WARN = 'warn'
    UNAME = 'uname'


class Status(enum.Enum):
    """A test case's result, as kunit.py parse --json writes it."""
    PASS = 'PASS'
    FAIL = 'FAIL'
    SKIP = 'SKIP'
    ERROR = 'ERROR'

    @classmethod
    def of(cls, text):
        """The status kunit.py wrote; anything else is an ERROR."""
        try:
            return cls(text)
        except ValueError:
            return cls.ERROR


@dataclass
class Workload:
    """One workload's results in one run: each metric and counter (a
    delta over the run) by key, its operation count (None when it printed
    none), and what it said: errors, info, sizes, skip reasons, warnings."""
    metrics: Dict[str, float] = field(default_factory=dict)
    counters: Dict[str, float] = field(default_factory=dict)
    errors: List[str] = field(default_factory=list)
    info: List[str] = field(default_factory=list)
    ops: Optional[float] = None
    sizes: List[str] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)

    def to_json(self):
        return dataclasses.asdict(self)


@dataclass
class Run:
    """One run (one boot, or one host run) of every workload of a log.
    side, run, log and failed are the facts collect was given; done says
    whether the log reached "mmscale: bench done"; uname is the kernel's
    "uname -r -v" when the log printed it."""
    workloads: Dict[str, Workload] = field(default_factory=dict)
    errors: List[str] = field(default_factory=list)
    info: List[str] = field(default_factory=list)
    kernel_reports: List[str] = field(default_factory=list)
    done: bool = False
    uname: Optional[str] = None
    side: str = ''
    run: int = 0
    log: str = ''
    failed: Optional[str] = None

    def workload(self, name):
        """The record of workload name, new when the run has none yet."""
        return self.workloads.setdefault(name, Workload())

    def to_json(self):
        """The run as results.json keeps it (no "uname" when none was
        printed)."""
        doc = {'workloads': {k: w.to_json() for k, w in self.workloads.items()},
               'errors': self.errors, 'info': self.info,
               'kernel_reports': self.kernel_reports, 'done': self.done,
               'side': self.side, 'run': self.run, 'log': self.log, 'failed': self.failed}
        if self.uname is not None:
            doc['uname'] = self.uname
        return doc


@dataclass(frozen=True)
class Skip:
    """A skipped test case and the reason it gave ('' when none)."""
    case: str
    reason: str


@dataclass(frozen=True)
class KernelReport:
    """A line of a kernel log that lab/lib/kernel-reports calls a report:
    its index in the log and its text."""
    index: int
    text: str


@dataclass(frozen=True)
class ExpectedReport:
    """A kernel report a test causes on purpose: a block from a line that
    matches header to the end of its stack dump ("</TASK>"), with a line
    that matches frame in it."""
    header: Pattern
    frame: Pattern
    reason: str

    @classmethod
    def of(cls, header, frame, reason):
        return cls(re.compile(header), re.compile(frame), reason)
