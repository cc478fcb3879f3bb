# mmscale - front door.  "make run" is the main job, "make check" the test
# command (CI runs it through .ci/run).  Every stage is a script in lab/.
# Every target checks its settings before it starts any long work.
#
#   make run | check            whole loop (see README.md)
#   make deps | source | tree | export
#   make build [CONFIGS="vm debug"]  one kernel under build/<line>/<configs joined
#                               by -> (default: the one default kernel,
#                               make check's: DEFAULT_CONFIGS in lab/lib/common.sh)
#   make shell [CONFIGS=...] [APPEND="slab_free_lock_first=off"]
#                               a shell in that built kernel, booted with
#                               virtme-ng (make deps fetches it), on this
#                               terminal (default: the default kernel,
#                               so make build && make shell boots what was
#                               just built; exit powers off; lab/stages/shell.sh)
#   make test                   the lab's own tests only (prove tests/)
#   make bench [BENCH=page_fault3] [RUNS=3] [FULL=1] [CONFIG=rt] [HOST=1]
#              [MATRIX=stock|slub|memcg] [PARALLEL=1]
#                               A/B benchmark, LKP tables (lab/stages/bench.sh);
#                               MATRIX=stock: 6.12 and the memcg stock at
#                               N = 7 (random, roundrobin, clock) and 16;
#                               MATRIX=memcg: 7.3.4 and the memcg stock's
#                               ceiling at 64 and 128 pages;
#                               MATRIX=slub: 7.3 with the slub counters
#                               alone, __slab_free per 1M frees;
#                               PARALLEL=1: multi-threaded TCG, 4 vCPUs
#   make deb [KCONFIG=/boot/config-...] [DEB_BOOT=0]
#                               Debian packages of base and head (7.3.4-
#                               mmscale-base, 7.3.4-mmscale; 6.12.117-... with
#                               BASE=6.12) that install
#                               side by side, in build/<line>/deb/<time>/; boots the
#                               head one in the lab (lab/stages/deb.sh)
#   make stress [STRESS_SECONDS=300] [CONFIG=rt] [INJECT=leak,warn,drain,hang]
#                               the series at once on the debug kernel with
#                               kmemleak, 4 vCPUs under multi-threaded TCG,
#                               CPU hotplug, cgroup churn (lab/stages/stress.sh)
#   make equiv                  the series applied with every option off
#                               against its base, debug kernels: the same
#                               upstream KUnit and selftest verdicts, diff
#                               printed (lab/stages/equiv.sh; not in make check)
#   make layout                 cache lines of the per-CPU memcg stock for N =
#                               1, 4, 7, 8, 16 slots, plain, lockdep, RT
#                               (lab/stages/layout.sh: gdb ptype /o)
#   make compare A=DIR [B=DIR] [AA=DIR]  tables again from saved results
#                               (ours, LKP result folders, mmtests logs), with
#                               an A/A floor; into build/<line>/compare/<time>/
#   make jobs [MATRIX=name]     the bench matrices as LKP job files and mmtests
#                               configs, in build/<line>/jobs/<time>/
#   make bisect [FIRST=n LAST=m] [CONFIGS="vm"]   build + boot each patch alone
#   make topics                 each topic applies alone, forward == reverse,
#                               kernel-doc, placeholders (lab/stages/topics.sh)
#   make mail [TOPIC=name] [V=n] [MAIL_FROM="Name <addr>"]
#                               linux-mm posting per topic in build/<line>/mail/
#                               through b4 (prep, --auto-to-cc, send -o: the
#                               mails, an mbox, send.sh); sends nothing
#   make kunit [SUITE=name]     the series' KUnit suites through kunit.py
#                               and their .kunitconfig files (lab/stages/kunit.sh):
#                               7.3 vmalloc, memcg_stock; 6.12 also ptlock,
#                               slub_test
#   make docs                   htmldocs of the touched Documentation dirs,
#                               base vs head: no new warning (lab/stages/docs.sh)
#   make clean [FORCE=1]        delete build/<line>; refused while its linux/ has
#                               work not exported to patches/ (lab/stages/clean.sh)
#   make help                   this text
#
# Every target first runs lab/lib/knobs.sh TARGET: a variable that looks like a
# misspelt knob of that target (SECOND=60 make stress) is refused with a
# "did you mean" line; lab/lib/knobs.sh --list prints each target's knobs.
# BASE=<line> picks the line (a folder of patches/ with a line.env) for every
# target: 7.3, the mainline line (the default; ptlock, vmalloc and memcg as
# patches, slub as a report), or 6.12, the stable line on Linux 6.12 LTS
# (all four topics; make layout and MATRIX=stock are its alone).  make check
# boots the line and checks every other one without a boot
# (lab/stages/linecheck.sh).
# BUILD=DIR puts everything generated in DIR (default build/<line>; make clean
# deletes only a folder the lab made, see docs/knobs.md).

SHELL := /bin/bash
# every target checks its knobs first (lab/lib/knobs.sh)
# (the names given on make's command line, and the goals, for its check)
KNOBS = @MMSCALE_GOALS='$(or $(MAKECMDGOALS),all)' \
	MMSCALE_CMDLINE='$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))' \
	lab/lib/knobs.sh $@

.PHONY: all run check deps source tree export build shell test bench deb stress equiv layout jobs compare bisect topics mail kunit docs help clean

all: help

# the comment block at the top of this file, and nothing else
help:
	$(KNOBS)
	@awk '!/^#/ { exit } { print }' Makefile

run:
	$(KNOBS)
	lab/stages/run.sh run

check:
	$(KNOBS)
	lab/stages/run.sh check

deps:
	$(KNOBS)
	lab/stages/deps.sh
	lab/stages/deps.sh vng

source:
	$(KNOBS)
	lab/stages/source.sh

tree: source
	$(KNOBS)
	lab/stages/tree.sh

export:
	$(KNOBS)
	lab/stages/export.sh

# no CONFIGS: the default kernel (lab/lib/common.sh DEFAULT_CONFIGS)
build:
	$(KNOBS)
	lab/stages/build.sh $(CONFIGS)

shell:
	$(KNOBS)
	lab/stages/shell.sh $(CONFIGS)

test:
	$(KNOBS)
	prove -v tests/*.t

bench:
	$(KNOBS)
	lab/stages/bench.sh

# deb checks its settings first, then runs the stages it needs
deb:
	$(KNOBS)
	lab/stages/deb.sh --check
	lab/stages/deb.sh

# SECONDS: the old name of STRESS_SECONDS (lab/lib/knobs.sh warns)
stress:
	$(KNOBS)
	STRESS_SECONDS='$(or $(STRESS_SECONDS),$(SECONDS))' lab/stages/stress.sh --check
	STRESS_SECONDS='$(or $(STRESS_SECONDS),$(SECONDS))' lab/stages/stress.sh

equiv:
	$(KNOBS)
	lab/stages/equiv.sh --check
	lab/stages/equiv.sh

layout:
	$(KNOBS)
	lab/stages/layout.sh --check
	lab/stages/layout.sh

# A and B are folders: quoted, so that a path with blanks is one argument
jobs:
	$(KNOBS)
	lab/stages/jobs.sh

compare:
	$(KNOBS)
	$(if $(A),,$(error usage: make compare A=<results dir> [B=<results dir>] [AA=<results dir>]))
	bash -c 'source lab/lib/common.sh && build_mark && exec lab/py/compare.py report "$$@" --out "$$BUILD/compare/$$(date +%Y%m%d-%H%M%S)"' \
		compare "$$A" $(if $(B),"$$B") $(if $(AA),--aa "$$AA")

# LAST alone means FIRST=1
BISECT_RANGE = $(or $(FIRST),$(if $(LAST),1)) $(LAST)

# bisect, mail and docs check their settings first, then run the stages
# they need (make source and make tree check theirs)
bisect:
	$(KNOBS)
	lab/stages/bisect.sh --check $(BISECT_RANGE)
	lab/stages/source.sh
	lab/stages/tree.sh
	lab/stages/bisect.sh $(BISECT_RANGE)

topics: tree
	$(KNOBS)
	lab/stages/topics.sh

mail:
	$(KNOBS)
	lab/stages/mail.sh --check
	lab/stages/deps.sh
	lab/stages/source.sh
	lab/stages/tree.sh
	lab/stages/mail.sh

kunit:
	$(KNOBS)
	SUITE='$(SUITE)' lab/stages/kunit.sh --check
	lab/stages/source.sh
	lab/stages/tree.sh
	SUITE='$(SUITE)' lab/stages/kunit.sh

docs:
	$(KNOBS)
	lab/stages/docs.sh --check
	lab/stages/source.sh
	lab/stages/tree.sh
	lab/stages/docs.sh

clean:
	$(KNOBS)
	lab/stages/clean.sh
